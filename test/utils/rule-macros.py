"""test/utils/rule-macros.py: every macro name that the rules and the
prelude read, through each way a build could set it.

    rule-macros.py RULES TMP tool TOOL CLANG-PP
    rule-macros.py RULES TMP load TOOL GSYNC-RUN

RULES is the rules directory (rewrite-rules/); TOOL, CLANG-PP and
GSYNC-RUN are commands, split as a shell would. The names are those of
its #if, #ifdef, #ifndef and #elif lines (continued lines too) that have
the prefix gsync_ in any case. TABLE below says, for each, what a build of
the output that defines it gets; the run fails when the rules read a name
the table lacks, or the table names one they no longer read, so that a
new tunable comes with a decision. Then:

  tool  each name as -DNAME, -DNAME=0, -D NAME=1 and -UNAME is a usage
        error (exit status 2) of TOOL that names it and writes nothing;
        and each name the table says a value of breaks is an #error that
        names it, where the host builds the output with that value
        (CLANG-PP, clang's preprocessor on OpenCL C, for each target the
        table gives: the x86 CPU device's clock, a device without one);
  load  each name in a constraints file's build.options, as -DNAME=0,
        -D NAME (two arguments), "-D NAME" and -UNAME, is refused by
        libgsync's loader (GSYNC-RUN --load-list, all the files in one
        process) with a message that says so.

Prints "ok WHAT" or "FAIL WHAT: why" for each check, then
"rule macros: N names, F failed"; exits 1 if any failed.
"""
import glob
import json
import os
import re
import shlex
import subprocess
import sys

# What a host's own build of the output gets when it defines each name
# (clBuildProgram options after libgsync's): ("error", values, targets):
# each value is an #error naming the macro, for each clang target listed
# ("" the default, x86); ("safe", why): no value moves a write past the
# state or divides by zero.
TABLE = {
    "gsync_watch_every": ("error", ["0"], [""]),
    "gsync_clock_hz": ("error", ["999"], [""]),
    "gsync_polls_per_ms": ("error", ["0"], ["spir64"]),
    # Above 2^30 the leaf count's (groups + leaf - 1) wraps.
    "GSYNC_TREE_LEAF": ("error", ["0", "1073741825u", "4294967295u"], [""]),
    "GSYNC_TREE_FLAT_MAX": ("safe", "leaves stay on the top word where "
                            "they would not fit (test/run/hostile.test, "
                            "MACROS)"),
    "GSYNC_LF_STILL": ("safe", "how long discovery waits for more groups: "
                       "fewer take part, or the spin limit ends the wait"),
    "GSYNC_LF_FIRST_NAP": ("safe", "discovery's nap before a participant's "
                           "first poll (NVIDIA): any value only delays it"),
    "GSYNC_LF_WAIT_NAP": ("safe", "discovery's nap between a waiting "
                          "participant's polls (NVIDIA): any value only "
                          "delays them"),
    "GSYNC_NV_SM": ("safe", "picks NVIDIA's path or the portable one"),
    "gsync_spin_limit_ms": ("safe", "the output defines it after the "
                            "options: its own value wins"),
    "gsync_watch": ("safe", "the watch, inert in a launch libgsync does not "
                    "watch (GSYNC_WATCH_BUILD_OPTION)"),
    "gsync_watch_clock": ("safe", "the deadline's clock: on a device "
                          "without one, the polls"),
    "gsync_clock_tsc": ("safe", "the time-stamp counter as the clock, or a "
                        "build error where there is none"),
    "gsync_fit_probe": ("safe", "the probe, inert unless libgsync sets its "
                        "word"),
    "gsync_ids_stored": ("safe", "the virtual ids stored in the context "
                         "or computed from it: the same answers"),
    "gsync_anchors": ("safe", "PoCL's anchors elsewhere: a no-op"),
    "gsync_no_anchors": ("safe", "PoCL without its anchors, as tests run "
                         "it"),
    "gsync_grid_shared": ("safe", "the GPU's grid search on PoCL, as tests "
                          "run it: the same grid"),
}

KERNEL = "kernel void k(global uint *a) {\n  global_barrier();\n}\n"
failed = 0


def check(ok, what, why=""):
    global failed
    print(("ok " if ok else "FAIL ") + what + ("" if ok else ": " + why))
    failed += not ok


def rule_names(rules):
    """The names with the prefix gsync_ (any case) in the preprocessor
    conditions of every rule file."""
    names = set()
    for path in sorted(glob.glob(os.path.join(rules, "*.cl"))):
        with open(path) as f:
            text = f.read().replace("\\\n", " ")
        for line in text.splitlines():
            m = re.match(r"\s*#\s*(if|ifdef|ifndef|elif)\b(.*)", line)
            if m:
                for name in re.findall(r"[A-Za-z_]\w*", m.group(2)):
                    if name.lower().startswith("gsync_"):
                        names.add(name)
    return names


def run(args, **kw):
    return subprocess.run(args, capture_output=True, text=True,
                          errors="backslashreplace", timeout=60, **kw)


def tool_mode(names, tmp, tool, clang_pp):
    kernel = os.path.join(tmp, "k.cl")
    out = os.path.join(tmp, "out.cl")
    for name in names:
        for opts in (["-D" + name], ["-D" + name + "=0"],
                     ["-D", name + "=1"], ["-U" + name]):
            r = run(tool + opts + [kernel, "-o", out])
            what = "-U" if opts[0].startswith("-U") else "-D"
            check(r.returncode == 2 and f"'{name}'" in r.stderr and
                  "reserves" in r.stderr and not os.path.exists(out),
                  f"tool: {' '.join(opts)}",
                  f"exit status {r.returncode}: {r.stderr.strip()[:200]}")
    # The host's own build: one output of each barrier, so that every
    # rule's names are read.
    outputs = []
    listed = run(tool + ["--list-barriers"]).stdout.split("discovery")[0]
    for barrier in re.findall(r"^  (\S+)", listed, re.M):
        for discovery in ("lockfree", "none"):
            path = os.path.join(tmp, f"out-{barrier}-{discovery}.cl")
            r = run(tool + [f"--barrier={barrier}",
                     f"--discovery={discovery}", kernel, "-o", path])
            check(r.returncode == 0, f"rewrite --barrier={barrier} "
                  f"--discovery={discovery}", r.stderr)
            outputs.append(path)
    for name, entry in TABLE.items():
        if entry[0] != "error":
            continue
        _, values, targets = entry
        for value in values:
            for target in targets:
                hit = False
                for path in outputs:
                    r = run(clang_pp +
                            (["-target", target] if target else []) +
                            ["-Dgsync_watch", f"-D{name}={value}", path])
                    hit = r.returncode != 0 and re.search(
                        r"error: \"?" + name + " must be",
                        r.stderr) is not None
                    if hit:
                        break
                check(hit, f"host build: -D{name}={value}"
                      + (f" ({target})" if target else ""),
                      "no output of any barrier stops at an #error naming it")


def load_mode(names, tmp, tool, gsync_run):
    kernel = os.path.join(tmp, "k.cl")
    js = os.path.join(tmp, "out.json")
    r = run(tool + [kernel, "-o", os.path.join(tmp, "out.cl"),
                    "--constraints", js])
    if r.returncode != 0:
        check(False, "rewrite", r.stderr)
        return
    with open(js) as f:
        base = json.load(f)
    # Every edited file is loaded in one process (--load-list).
    cases = []
    for name in names:
        for opts in (["-D" + name + "=0"], ["-D", name], ["-D " + name],
                     ["-U" + name]):
            d = json.loads(json.dumps(base))
            d["build"]["options"] += opts
            path = os.path.join(tmp, f"edited-{len(cases)}.json")
            with open(path, "w") as f:
                json.dump(d, f)
            cases.append((path, opts))
    listing = os.path.join(tmp, "edited.txt")
    with open(listing, "w") as f:
        f.writelines(path + "\n" for path, _ in cases)
    r = run(gsync_run + ["--load-list", listing])
    said = {}
    for line in r.stdout.splitlines():
        path, _, rest = line.partition(": ")
        said[path] = rest
    for path, opts in cases:
        got = said.get(path, f"nothing said (exit status {r.returncode}: "
                       f"{r.stderr.strip()[:200]})")
        check(got.startswith("error: ") and
              "a macro with the prefix gsync_" in got,
              f"load: build.options {json.dumps(opts)}", got[:200])


def main():
    rules, tmp, mode = sys.argv[1:4]
    tool, other = shlex.split(sys.argv[4]), shlex.split(sys.argv[5])
    names = rule_names(rules)
    check(names == set(TABLE), "the table names every macro the rules read",
          f"read, not in the table: {sorted(names - set(TABLE))}; in the "
          f"table, not read: {sorted(set(TABLE) - names)}")
    os.makedirs(tmp, exist_ok=True)
    with open(os.path.join(tmp, "k.cl"), "w") as f:
        f.write(KERNEL)
    names = sorted(names | set(TABLE))
    if mode == "tool":
        tool_mode(names, tmp, tool, other)
    else:
        load_mode(names, tmp, tool, other)
    print(f"rule macros: {len(names)} names, {failed} failed")
    sys.exit(1 if failed else 0)


main()
