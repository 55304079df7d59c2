"""test/utils/barrier-runs.py: one run-test scenario with every barrier
that `gsync-rewrite --list-barriers` shows, so that a barrier added as one
rule file is run by every scenario without editing a test.

    barrier-runs.py TEST TMP --tool T --run R --filecheck F --rules DIR \
        --kernels DIR [--only BARRIER]

TEST is the lit test (the scenario); its "# CASE" lines say what to run:

    # CASE PREFIX REWRITE OPTIONS... | [%timeout-short] [env VAR=VALUE...] GSYNC-RUN OPTIONS...

For each barrier and each case, the kernel is rewritten with
`--barrier=NAME REWRITE OPTIONS`, and gsync-run's output is checked by
FileCheck against TEST's PREFIX lines. `%kernels` names the kernels folder.
A case whose rewrite options hold `--discovery=each` runs with the default
barrier once for every discovery protocol --list-barriers shows except
"none" (--no-discovery is its own case), and with every other barrier
once, with the default protocol. A protocol hands every barrier the same
thing (the participants and their ids, in the context), and a barrier
runs alike whichever protocol admitted the groups: every barrier meets
every scenario, and every protocol too, without running their product
(which cost CI a minute of PoCL compiling). What a barrier needs to build
is read from its rule's header, not from the test: `@opencl-c 2.0` adds
`-cl-std=CL2.0`.

test/lit.cfg.py makes such a test one lit test per barrier (--only).
The scenarios of test/run (stencil, mirror, xpx, helper, reuse) share three
cases: DISC rewrites with every discovery protocol and launches many more
work-groups (96) than PoCL runs at once, so that only the co-resident ones
take part (often just 1 on PoCL) and the rest return; TWO and FOUR rewrite
with --no-discovery and launch 2 (PoCL's default thread count) and 4
(POCL_MAX_PTHREAD_COUNT=4) groups, which all take part and really meet at
every barrier.

A "# CASE-DEFAULT" line is a CASE that runs with the default barrier
only: for what the barrier rule does not take part in (the watch's
set-up, say), so that it costs one barrier's run, not every one's.

A test with the line "# NEEDS @split" runs the barriers whose rule header
has that key (those that split into global_barrier_arrive() and
global_barrier_wait()); with every other barrier it checks instead that
the rewrite of its first case is refused with the error that names the
barrier ("BARRIER NAME - refused: ok").

Every rewrite is made first, then one `gsync-run --build-runs` builds
every launch's program (PoCL reads its kernel library once, not once a
launch; what it cannot build, the launch itself reports), then the
launches run. Every launch runs under `timeout` (a hang is a failure):
%timeout's limit, or %timeout-short's where the case asks for it. Prints
one line per run, "BARRIER NAME DISCOVERY PREFIX: ok" or "...: FAILED"
followed by what failed, then "barrier runs: N runs over B barriers, F
failed"; exits 1 if any failed or no barrier was found.
"""
import argparse
import os
import re
import shlex
import subprocess
import sys

# test/lit.cfg.py's %timeout and %timeout-short.
TIMEOUT = ["timeout", "-k", "5", "120"]
TIMEOUT_SHORT = ["timeout", "-k", "5", "30"]


def list_rules(tool):
    """The barrier and discovery names --list-barriers shows, in order,
    and the default barrier's and discovery protocol's names."""
    out = subprocess.run([tool, "--list-barriers"], check=True,
                         stdout=subprocess.PIPE, text=True).stdout
    barriers, discoveries, section = [], [], None
    default_barrier = default_discovery = None
    for line in out.splitlines():
        if line.startswith("barriers"):
            section = barriers
        elif line.startswith("discovery"):
            section = discoveries
        elif line.startswith("  ") and section is not None:
            name = line.split()[0]
            section.append(name)
            if not line.rstrip().endswith("(default)"):
                continue
            if section is barriers:
                default_barrier = name
            else:
                default_discovery = name
    return barriers, discoveries, default_barrier, default_discovery


def rule_header(rules_dir, barrier):
    """The barrier rule's header comment."""
    path = os.path.join(rules_dir, "barrier-%s.cl" % barrier)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    return text[:text.find("*/")]


def rule_has(rules_dir, barrier, key):
    """Whether the rule's header has the line "@KEY"."""
    return re.search(r"^\s*\*?\s*@%s\s*$" % re.escape(key),
                     rule_header(rules_dir, barrier), re.M) is not None


def test_needs(test):
    """The header keys TEST's "# NEEDS @KEY" lines ask of a barrier."""
    with open(test, encoding="utf-8") as f:
        return re.findall(r"^#\s*NEEDS\s+@([a-z-]+)\s*$", f.read(), re.M)


def rule_needs(rules_dir, barrier):
    """The rewrite options the barrier's rule header asks for."""
    header = rule_header(rules_dir, barrier)
    m = re.search(r"@opencl-c\s+(\S+)", header)
    if m and m.group(1) in ("2.0", "3.0"):
        return ["-cl-std=CL" + m.group(1)]
    return []


def read_cases(test, kernels):
    """The (prefix, rewrite args, env, time limit, gsync-run args, default
    barrier only) of TEST's CASE lines."""
    cases = []
    with open(test, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"#\s*CASE(-DEFAULT)?\s+([A-Z0-9]+)\s(.*)\|(.*)$",
                         line)
            if not m:
                continue
            rewrite = shlex.split(m.group(3).replace("%kernels", kernels))
            run = shlex.split(m.group(4).replace("%kernels", kernels))
            env, limit = {}, TIMEOUT
            if run and run[0] == "%timeout-short":
                run.pop(0)
                limit = TIMEOUT_SHORT
            if run and run[0] == "env":
                run.pop(0)
                while run and "=" in run[0]:
                    k, v = run.pop(0).split("=", 1)
                    env[k] = v
            cases.append((m.group(2), rewrite, env, limit, run,
                          m.group(1) is not None))
    return cases


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("test")
    ap.add_argument("tmp")
    for opt in ("tool", "run", "filecheck", "rules", "kernels"):
        ap.add_argument("--" + opt, required=True)
    ap.add_argument("--only", help="run this barrier only (it must be listed)")
    a = ap.parse_args()
    barriers, discoveries, default, default_discovery = list_rules(a.tool)
    if a.only is not None:
        barriers = [b for b in barriers if b == a.only]
    cases = read_cases(a.test, a.kernels)
    each_case = any("--discovery=each" in c[1] for c in cases)
    if default is None and (each_case or any(c[5] for c in cases)):
        print("barrier-runs: CASE-DEFAULT or --discovery=each lines, but "
              "--list-barriers names no default barrier")
        return 1
    if default_discovery is None and each_case:
        print("barrier-runs: --discovery=each, but --list-barriers names no "
              "default discovery protocol")
        return 1
    if not barriers or not cases:
        print("barrier-runs: no barriers or no CASE lines in %s" % a.test)
        return 1
    runs = failed = 0
    rewritten = {}
    launches = []  # (name, args, output, env, limit, run args, prefix)
    needs = test_needs(a.test)
    for b in barriers:
        lacks = [k for k in needs if not rule_has(a.rules, b, k)]
        if lacks:
            # Refused, with a message that names the barrier.
            runs += 1
            args = (["--barrier=" + b] + rule_needs(a.rules, b) +
                    [x for x in cases[0][1] if x != "--discovery=each"])
            rw = subprocess.run(
                [a.tool] + args + ["-o", a.tmp + ".refused.cl"],
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            if rw.returncode == 1 and ("barrier '%s' does not split" % b
                                       in rw.stdout):
                print("BARRIER %s - refused: ok" % b)
            else:
                failed += 1
                print("BARRIER %s - refused: FAILED (exit %d, it lacks @%s): "
                      "%s\n%s" % (b, rw.returncode, lacks[0], " ".join(args),
                                  rw.stdout))
            continue
        for prefix, rewrite, env, limit, run, default_only in cases:
            if default_only and b != default:
                continue
            each = "--discovery=each" in rewrite
            protocols = ["-"]
            if each and b == default:
                protocols = [x for x in discoveries if x != "none"]
            elif each:
                protocols = [default_discovery]
            for d in protocols:
                args = ["--barrier=" + b] + rule_needs(a.rules, b) + [
                    "--discovery=" + d if x == "--discovery=each" else x
                    for x in rewrite]
                key = tuple(args)
                runs += 1
                name = "BARRIER %s %s %s" % (b, d, prefix)
                if key not in rewritten:
                    out = "%s.%d" % (a.tmp, len(rewritten))
                    rw = subprocess.run(
                        [a.tool] + args + ["-o", out + ".cl", "--constraints",
                                           out + ".json"],
                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                        text=True)
                    rewritten[key] = out if rw.returncode == 0 else None
                    if rw.returncode != 0:
                        print("%s: FAILED to rewrite: %s\n%s" %
                              (name, " ".join(args), rw.stdout))
                if rewritten[key] is None:
                    failed += 1
                    continue
                launches.append((name, args, rewritten[key], env, limit, run,
                                 prefix))
    # Every launch's program built first, in one gsync-run process: PoCL
    # reads its kernel library (some 0.7 s) once, not once per launch, and
    # each launch finds its program in PoCL's cache.
    if launches:
        listing = a.tmp + ".build-runs"
        with open(listing, "w", encoding="utf-8") as f:
            for _, _, out, _, _, run, _ in launches:
                f.write("\t".join(["--cl", out + ".cl", "--constraints",
                                    out + ".json"] + run) + "\n")
        subprocess.run(TIMEOUT + [a.run, "--build-runs", listing],
                       env=dict(os.environ, ASAN_OPTIONS="detect_leaks=0"),
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for name, args, out, env, limit, run, prefix in launches:
        launch = limit + [a.run, "--cl", out + ".cl",
                          "--constraints", out + ".json"] + run
        # The OpenCL driver's own allocations are not ours to report.
        run_env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0")
        run_env.update(env)
        r = subprocess.run(launch, env=run_env,
                           stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
        fc = subprocess.run(
            [a.filecheck, a.test, "--check-prefix=" + prefix],
            input=r.stdout, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True)
        if r.returncode == 0 and fc.returncode == 0:
            print("%s: ok" % name)
        else:
            failed += 1
            print("%s: FAILED (exit %d): %s %s\n%s%s" %
                  (name, r.returncode, " ".join(args),
                   " ".join(run), r.stdout, fc.stdout))
    print("barrier runs: %d runs over %d barriers, %d failed" %
          (runs, len(barriers), failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
