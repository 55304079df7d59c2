# gsync-check --plot: draws microseconds per barrier against work-groups, one line a
# rule, from the JSON report gsync-check wrote (docs/check.md). Compiled
# into gsync-check and run as `python3 -c SCRIPT REPORT.json OUT.png`, so
# the installed program needs no file beside it. Needs matplotlib, which
# gsync-check asks for before it measures anything.
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

report_path, png = sys.argv[1], sys.argv[2]
with open(report_path, encoding="utf-8") as f:
    report = json.load(f)
best = report["recommendation"]["rule"]
fig, ax = plt.subplots(figsize=(7, 4.5))
for rule in report["rules"]:
    timing = rule.get("timing") or []
    if not timing:
        continue
    groups = [t["groups"] for t in timing]
    us = [t["us_per_barrier"] for t in timing]
    label = rule["name"]
    if rule["verdict"] != "pass":
        label += " (%s)" % rule["verdict"].upper()
    if rule["name"] == best:
        label += " (recommended)"
    ax.plot(groups, us, marker="o", label=label,
            linestyle="-" if rule["verdict"] == "pass" else ":",
            linewidth=2.5 if rule["name"] == best else 1.2)
device = report["device"]
ax.set_xscale("log", base=2)
ax.set_xlabel("work-groups of %d work-items" % report["options"]["local_size"])
ax.set_ylabel("\u00b5s per barrier")
ax.set_title("%s (%s)" % (device["name"], device["platform"]), fontsize=10)
ax.grid(True, which="both", alpha=0.3)
ax.legend(fontsize=8)
fig.tight_layout()
fig.savefig(png, dpi=120)
