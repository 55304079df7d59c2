"""test/utils/hostile.py: hostile inputs end within seconds, in a clear
error or in success, never in a signal, a hang or a partial output.

    hostile.py TOOL TMP SET

SET names a table below:
  deep      inputs deep or long enough to find what grows faster than
            the input, or runs the parse out of stack;
  includes  every spelling of an #include that the preprocessor follows
            and the engine's prescan does not (one include of
            /dev/zero each, and a control: the same spelling of a header
            that stops the parse with #error, so that a spelling that
            includes nothing cannot pass), then the files that never end
            or are far too large, each included with one such spelling.
Each case is written into a directory of its own under TMP, which holds
an out.cl from an earlier run; TOOL runs there on in.cl with `-o out.cl`
(killed at twice the case's wall time). A case passes when TOOL exits with
the status the case expects (a signal never passes), within the case's
wall time and, in its own user CPU time (the kernel's time for the pages
it maps is not the tool's), within the case's seconds,
with a message that matches the case's, and, after an error, out.cl as it
was. Prints "ok NAME" or "FAIL NAME: why" for each case, in table order,
then "hostile SET: N cases, F bad"; exits 1 if any was bad.
"""
import concurrent.futures
import os
import re
import subprocess
import sys
import threading
import time

EARLIER = "/* an earlier run's output */\n"
KERNEL = "kernel void k(global int *a) { a[0] = %s; }\n"


class Case:
    """One run: in.cl holds text; files maps other names to their text;
    target says what target.h is: None, ("file", text), ("link", path),
    ("fifo",), ("dir",) or ("sparse", bytes). stdin "pipe" gives the tool
    a pipe that stays open and empty."""

    def __init__(self, name, text, status, message="", seconds=10,
                 args=(), files=None, target=None, stdin=None, wall=None):
        self.name, self.text, self.status = name, text, status
        self.message, self.seconds, self.args = message, seconds, list(args)
        self.wall = wall or seconds
        self.files, self.target, self.stdin = files or {}, target, stdin


def chain(n, first, link):
    """n macro definitions M0 .. M<n-1>: M0 is first, each other M<i> is
    link(i)."""
    return "#define M0 %s\n" % first + "".join(
        "#define M%d %s\n" % (i, link(i)) for i in range(1, n))


NESTED = "nested too deeply: its rewrite ran out of 8 MiB of stack"

# The macro chains took time quadratic in their length in the plan and
# the find stages: 16,000 links took 4 s, and 64,000 would take a minute.
# Each barrier site's line and column was counted from the start of the
# input: 40,000 sites took 10 s. 20,000 nested ifs and a 10 MB line of
# 1+1+... ended the tool with SIGSEGV; 4,000 nested ifs parse.
N_MACROS = 64000
N_SITES = 80000
DEEP = [
    # A chain used in a kernel that reaches no barrier.
    Case("macro-chain", chain(N_MACROS, "1", lambda i: "M%d" % (i - 1)) +
         KERNEL % ("M%d" % (N_MACROS - 1)), 0),
    # The same chain spelling an id in a kernel that takes part.
    Case("macro-chain-barrier",
         chain(N_MACROS, "get_global_id(0)", lambda i: "M%d" % (i - 1)) +
         "kernel void k(global int *a) { a[M%d] = 1; global_barrier(); }\n"
         % (N_MACROS - 1), 0),
    # A chain each of whose links names the next one, the last spelling
    # kernel.
    Case("kernel-chain", "".join("#define K%d K%d\n" % (i, i + 1)
                                 for i in range(N_MACROS)) +
         "#define K%d kernel\n" % N_MACROS +
         "K0 void k(global int *a) { a[0] = 1; }\n", 0),
    # A kernel of 80,000 barriers.
    Case("barrier-sites", "kernel void k(global int *a) {\n" +
         "  global_barrier();\n" * N_SITES + "}\n", 0),
    Case("nested-ifs", "kernel void k(global int *a) {\n" +
         "if (a[0]) " * 20000 + "a[1] = 1;\n}\n", 1, "'in.cl' is " + NESTED),
    Case("nested-ifs-shallow", "kernel void k(global int *a) {\n" +
         "if (a[0]) " * 4000 + "a[1] = 1;\n}\n", 0),
    Case("long-expression", KERNEL % ("1" + "+1" * (5 << 20)), 1,
         "'in.cl' is " + NESTED),
]

# Spellings of an #include of target.h that the preprocessor follows:
# name: (in.cl, other options, other files).
DEFINE_H = {"pre.h": '#define H "target.h"\n'}
SPELLINGS = {
    "comment-in-directive": ('# /* c */ include "target.h"\n', [], {}),
    "comment-before-name": ('#include /* c */ "target.h"\n', [], {}),
    "continued-name": ('#inc\\\nlude "target.h"\n', [], {}),
    "continued-after-hash": ('#\\\ninclude "target.h"\n', [], {}),
    "byte-order-mark": ('\ufeff#include "target.h"\n', [], {}),
    "cr-line-ends": ('// line 1\r#include "target.h"\r', [], {}),
    "form-feed": ('#\finclude "target.h"\n', [], {}),
    "digraph": ('%:include "target.h"\n', [], {}),
    "trigraph": ('??=include "target.h"\n', [], {}),
    "nul-before-hash": ('\0#include "target.h"\n', [], {}),
    "macro-naming-macro": ('#define A B\n#define B "target.h"\n#include A\n',
                           [], {}),
    "line-and-file": ('#line 1 "target.h"\n#include __FILE__\n', [], {}),
    "macro-from-include-option": ("#include H\n", ["-include", "pre.h"],
                                  DEFINE_H),
    "macro-naming-macro-options": ("#include Z\n",
                                   ["-DZ=Y", '-DY="target.h"'], {}),
    "function-like-macro": ('#define F(x) x\n#include F("target.h")\n', [],
                            {}),
    "stringized": ("#define S(x) #x\n#define XS(x) S(x)\n#include XS(target.h)"
                   "\n", [], {}),
    "empty-macro-first": ('#define E\n#include E "target.h"\n', [], {}),
    "through-a-header": ('#define F(x) x\n#include F("h.h")\n', [],
                         {"h.h": '#include "target.h"\n'}),
}

BODY = KERNEL % "1"
SMALL = "--max-memory=128M"
AT_LIMIT = "stopped rewriting 'in.cl' at 128 MiB of memory"
WAITED = ("stopped rewriting 'in.cl': it waited 2 s for input that did not "
          "come")
INCLUDES = []
for name, (text, args, files) in SPELLINGS.items():
    INCLUDES.append(Case(name + "/control", text + BODY, 1,
                         r"target\.h:1:2: error: reached", args=args,
                         files=files,
                         target=("file", "#error reached\n")))
    INCLUDES.append(Case(name, text + BODY, 1, AT_LIMIT, args=args + [SMALL],
                         files=files, target=("link", "/dev/zero")))
SPELLED = SPELLINGS["comment-in-directive"][0] + BODY
INCLUDES += [
    # The prescan's own error, for the plain spelling.
    Case("plain", '#include "target.h"\n' + BODY, 1,
         r"in\.cl:1:10: error: cannot include 'target\.h' \(.*target\.h\): "
         "a character device", target=("link", "/dev/zero")),
    # The default limit. Reaching it means the kernel handing the tool
    # 2 GiB of fresh pages, which on a CI machine of two cores running
    # the suite beside it took 17 s (8 s of it system time): the tool's
    # own CPU time keeps the usual bound, the wall time is the memory's.
    Case("zero-default-limit", SPELLED, 1,
         "stopped rewriting 'in.cl' at 2048 MiB of memory", wall=40,
         target=("link", "/dev/zero")),
    Case("urandom", SPELLED, 1, AT_LIMIT, args=[SMALL],
         target=("link", "/dev/urandom")),
    Case("huge-file", SPELLED, 1, AT_LIMIT, args=[SMALL],
         target=("sparse", 8 << 30)),
    Case("fifo", SPELLED, 1, WAITED, target=("fifo",)),
    Case("stdin", SPELLED, 1, WAITED, target=("link", "/dev/stdin"),
         stdin="pipe"),
    Case("directory", SPELLED, 1,
         r"in\.cl:1:\d+: error: 'target\.h' file not found",
         target=("dir",)),
]
if os.path.exists("/dev/ptmx"):
    INCLUDES.append(Case("terminal", SPELLED, 1, WAITED,
                         target=("link", "/dev/ptmx")))

SETS = {"deep": DEEP, "includes": INCLUDES}


def prepare(case, where):
    """Writes the case's files into where."""
    os.makedirs(where, exist_ok=True)
    files = dict(case.files, **{"in.cl": case.text, "out.cl": EARLIER})
    for name, text in files.items():
        with open(os.path.join(where, name), "w", newline="",
                  encoding="utf-8") as f:
            f.write(text)
    target = os.path.join(where, "target.h")
    kind = case.target[0] if case.target else None
    if kind == "file":
        with open(target, "w") as f:
            f.write(case.target[1])
    elif kind == "link":
        os.symlink(case.target[1], target)
    elif kind == "fifo":
        os.mkfifo(target)
    elif kind == "dir":
        os.mkdir(target)
    elif kind == "sparse":
        with open(target, "wb") as f:
            f.truncate(case.target[1])


def run_case(tool, tmp, case):
    """Runs one case; returns None if it passed, else why not."""
    where = os.path.join(tmp, case.name.replace("/", "-"))
    prepare(case, where)
    out = os.path.join(where, "out.cl")
    # A pipe whose writing end stays open, and empty, while the tool runs.
    r, w = os.pipe() if case.stdin == "pipe" else (subprocess.DEVNULL, None)
    start = time.monotonic()
    try:
        # stderr to a file and the child reaped with wait4, for its rusage.
        with open(os.path.join(where, "stderr"), "w+b") as errf:
            argv = [tool] + case.args + ["in.cl", "-o", "out.cl"]
            p = subprocess.Popen(argv, cwd=where, stdin=r,
                                 stdout=subprocess.DEVNULL, stderr=errf)
            killer = threading.Timer(2 * case.wall, p.kill)
            killer.start()
            _, status, usage = os.wait4(p.pid, 0)
            killer.cancel()
            p.returncode = os.waitstatus_to_exitcode(status)
            errf.seek(0)
            err = errf.read()
    finally:
        if w is not None:
            os.close(r)
            os.close(w)
    took = time.monotonic() - start
    if p.returncode == -9 and took >= 2 * case.wall:
        return "still running after %d s" % (2 * case.wall)
    err = err.decode("utf-8", "replace").strip()
    if p.returncode < 0:
        return "killed by signal %d: %s" % (-p.returncode, err[-300:])
    if p.returncode != case.status:
        return "exit %d, expected %d: %s" % (p.returncode, case.status,
                                              err[-300:])
    if took > case.wall:
        return "took %.1f s, more than %d s" % (took, case.wall)
    if usage.ru_utime > case.seconds:
        return "used %.1f s of CPU, more than %d s" % (usage.ru_utime,
                                                        case.seconds)
    if not re.search(case.message, err):
        return "no message matching '%s': %s" % (case.message, err[-300:])
    with open(out) as f:
        kept = f.read() == EARLIER
    if case.status and not kept:
        return "out.cl changed after an error"
    if not case.status and kept:
        return "out.cl not written"
    return None


def main():
    tool, tmp, which = os.path.abspath(sys.argv[1]), sys.argv[2], sys.argv[3]
    cases = SETS[which]
    # Most cases wait (for a limit, or on a FIFO): run a few at once.
    with concurrent.futures.ThreadPoolExecutor(max_workers=3) as pool:
        whys = list(pool.map(lambda c: run_case(tool, tmp, c), cases))
    bad = 0
    for case, why in zip(cases, whys):
        if why:
            bad += 1
            print("FAIL %s: %s" % (case.name, why))
        else:
            print("ok %s" % case.name)
    print("hostile %s: %d cases, %d bad" % (which, len(cases), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
