"""Every shape of a late jump, run on the OpenCL device (docs/pocl.md,
section 8): a return after a function's last barrier, or a continue after
its loop's last, that only some work-items of a group take, where a way
that passes no barrier (an earlier return the whole group takes, a
continue, a goto) ends at the same place. PoCL 3.1 ran the code after such
a jump in every work-item, or crashed, unless the ways that leave after
the barrier meet first; the tool routes each late jump to a label where
they do (anchor.c, late_jumps()).

The kernels are drawn from a table: each tail (a leader's add behind a
return the others take, written nine ways) in each place (the function's
end, a branch that ends the function, a branch that more code follows),
in a helper that returns nothing and one that returns a value; and a
continue in a kernel's own loop, a goto over the barriers to a label, and
returns in two nested branches. Every kernel is a helper with a group sum
(barrier()) called in a chunk loop strided by the number of groups, for
three rounds of a global barrier; the tool's output is built once
optimised and once with -cl-opt-disable, each in a process of its own
under a timeout (a hang is a failure), and every kernel's four arrays are
compared with what this script computes. The tool must write no warning.
PoCL takes about a second to compile each kernel: unless --all,
optimised builds run all but the branches that code follows, and
-cl-opt-disable builds those and the function ends (void); the last four
kernels run at both.

With --warned, the late jumps the tool leaves as they are instead (a
label or case after the jump, a goto to a label an early goto takes, a
continue with code after its branch): each must be warned about, and
what PoCL makes of them is printed (docs/pocl.md, section 8).

usage: gen-late-jumps.py --tool GSYNC_REWRITE --work DIR [--all | --warned]
"""
import argparse
import os
import subprocess
import sys

N, LOCAL, ROUNDS, GROUPS = 7, 4, 3, 3
SKIP = [v % 3 == 1 for v in range(N)]

SUM = """static uint group_sum(uint x, local uint *part) {
  part[get_local_id(0)] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint sum = 0;
  for (uint i = 0; i < get_local_size(0); i++)
    sum += part[i];
  barrier(CLK_LOCAL_MEM_FENCE);
  return sum;
}
"""

# The tails: text (RET is the late jump, ADD the leader's add, MARK a
# work-item's own mark), the work-items that mark, and those that go on
# past the tail. The leader (work-item 0) adds the group's sum once.
ADD = "out[v] += s;"
MARK = "mark[v * get_local_size(0) + lid] += 1;"
TAILS = [
    ("bare", "if (lid != 0)\n  RET\nADD", (), (0,)),
    ("block", "if (lid != 0) {\n  MARK\n  RET\n}\nADD", (1, 2, 3), (0,)),
    ("leader-first", "if (lid == 0) {\n  ADD\n  RET\n}\nMARK", (1, 2, 3),
     (1, 2, 3)),
    ("else", "if (lid != 0)\n  RET\nelse\n  ADD\nMARK", (0,), (0,)),
    ("nested", "if (s != 0) {\n  if (lid != 0)\n    RET\n  ADD\n}\nMARK",
     (0,), (0,)),
    ("for", "for (uint i = 1; i < get_local_size(0); i++)\n"
     "  if (lid == i)\n    RET\nADD", (), (0,)),
    ("switch", "switch (lid) {\ncase 0:\n  break;\ndefault:\n  RET\n}\nADD",
     (), (0,)),
    ("two", "if (lid > 1)\n  RET\nif (lid == 1) {\n  MARK\n  RET\n}\nADD",
     (1,), (0,)),
    ("test", "if (group_sum(lid, part) != 0 && lid != 0)\n  RET\nADD", (),
     (0,)),
]
# Where the sum and the tail stand: at the function's end, in a branch
# that ends it, in a branch that more code follows (which every work-item
# that goes on past the tail runs: MORE; in a helper that returns a
# value, its final return follows the branch already).
MORE = "more[v * get_local_size(0) + lid] += 1;"
PLACES = ("end", "branch", "branch-more")
ARGS = ("global uint *out, global uint *mark, global uint *back, "
        "global uint *more, global const uint *skip, local uint *part")
CALL = "visit_{id}(v, out, mark, back, more, skip, part)"


def indent(text, by):
    return "".join(" " * by + line + "\n" if line else "\n"
                   for line in text.split("\n"))


def helper(ident, tail, place, value):
    """A helper: an early return the whole group takes, the group sum,
    then the tail; a value helper returns 1 where it goes on to its end."""
    ret = "return 0;" if value else "return;"
    body = (tail.replace("RET", ret).replace("ADD", ADD)
            .replace("MARK", MARK))
    head = f"if (skip[v])\n  {ret}\nuint lid = get_local_id(0);\n"
    if place == "end":
        text = head + "uint s = group_sum(v + lid, part);\n" + body
    else:
        text = (head + "if (v < 1000) {\n"
                + indent("uint s = group_sum(v + lid, part);\n" + body, 2)
                .rstrip("\n") + "\n}")
        if place == "branch-more":
            text += "\n" + MORE.replace("lid", "get_local_id(0)")
    if value:
        text += "\nreturn 1;"
    kind = "uint" if value else "void"
    return (f"static {kind} visit_{ident}(uint v, {ARGS}) {{\n"
            + indent(text, 2) + "}\n")


def kernel(ident, body):
    return (f"kernel void k_{ident}(global uint *out, global uint *mark,\n"
            f"    global uint *back, global uint *more,\n"
            f"    global const uint *skip, local uint *part) {{\n"
            f"  for (uint r = 0; r < {ROUNDS}; r++) {{\n"
            f"    for (uint v = get_group_id(0); v < {N}; "
            f"v += get_num_groups(0)) {{\n"
            + indent(body, 6) +
            "    }\n    global_barrier();\n  }\n}\n")


def shapes():
    """(identifier, source, expected) for every kernel; expected maps an
    array's name to {(v, work-item): count} for the groups not skipped."""
    for name, tail, marks, goes_on in TAILS:
        for place in PLACES:
            for value in (0, 1):
                if value and place == "branch-more":
                    continue  # "branch" has its final return after it
                ident = (f"{name}_{place}_{'value' if value else 'void'}"
                         .replace("-", "_"))
                call = CALL.format(id=ident)
                body = (f"back[v * get_local_size(0) + get_local_id(0)] += "
                        f"{call};" if value else call + ";")
                want = {"mark": marks,
                        "back": goes_on if value else (),
                        "more": goes_on if place == "branch-more" else ()}
                yield (ident, helper(ident, tail, place, value)
                       + kernel(ident, body), want)
    # A continue in the kernel's own loop, at the body's end and in a
    # branch that ends it.
    for place in ("end", "branch"):
        inner = ("uint s = group_sum(v + lid, part);\n"
                 f"if (lid != 0) {{\n  {MARK}\n  continue;\n}}\n{ADD}")
        body = ("if (skip[v])\n  continue;\nuint lid = get_local_id(0);\n"
                + (inner if place == "end" else
                   "if (v < 1000) {\n" + indent(inner, 2).rstrip("\n")
                   + "\n}"))
        ident = f"continue_{place}"
        yield ident, kernel(ident, body), {"mark": (1, 2, 3)}
    # A goto over the barriers to a label right after the leader's if.
    ident = "goto_label"
    text = (f"static void visit_{ident}(uint v, {ARGS}) {{\n"
            "  if (skip[v])\n    goto done;\n  uint lid = get_local_id(0);\n"
            "  uint s = group_sum(v + lid, part);\n  if (lid == 0)\n"
            f"    {ADD}\ndone:\n  ;\n}}\n")
    yield ident, text + kernel(ident, CALL.format(id=ident) + ";"), {}
    # Returns in two nested branches with barriers, and code after each.
    ident = "nested_branches"
    text = (f"static uint visit_{ident}(uint v, {ARGS}) {{\n"
            "  if (skip[v])\n    return 0;\n  uint lid = get_local_id(0);\n"
            "  if (v < 1000) {\n    uint s = group_sum(v + lid, part);\n"
            "    if (v < 2000) {\n      uint t = group_sum(s, part);\n"
            "      if (lid > 1)\n        return 0;\n"
            f"      if (lid == 0)\n        {ADD}\n    }}\n"
            "    if (lid == 1)\n      return 0;\n"
            f"    {MARK}\n  }}\n  return 1;\n}}\n")
    body = (f"back[v * get_local_size(0) + get_local_id(0)] += "
            f"{CALL.format(id=ident)};")
    yield ident, text + kernel(ident, body), {"mark": (0,), "back": (0,)}


def warned_shapes():
    """Late jumps the tool leaves as they are, with a warning (another way
    comes in after them): (identifier, source, expected) as shapes()."""
    head = ("  if (skip[v])\n    goto done;\n  uint lid = get_local_id(0);\n"
            "  uint s = group_sum(v + lid, part);\n")
    for ident, jump in (("return_before_label", "return;"),
                        ("goto_to_early_label", "goto done;")):
        text = (f"static void visit_{ident}(uint v, {ARGS}) {{\n" + head +
                f"  if (lid != 0)\n    {jump}\n  {ADD}\ndone:\n  ;\n}}\n")
        yield ident, text + kernel(ident, CALL.format(id=ident) + ";"), {}
    ident = "return_in_case"
    text = (f"static void visit_{ident}(uint v, {ARGS}) {{\n"
            "  if (skip[v])\n    return;\n  uint lid = get_local_id(0);\n"
            "  switch (v < 1000 ? 0 : 1) {\n  case 0: {\n"
            "    uint s = group_sum(v + lid, part);\n    if (lid != 0)\n"
            f"      return;\n    {ADD}\n    break;\n  }}\n  default:\n"
            "    break;\n  }\n}\n")
    yield ident, text + kernel(ident, CALL.format(id=ident) + ";"), {}
    ident = "continue_then_code"
    body = ("if (skip[v])\n  continue;\nuint lid = get_local_id(0);\n"
            "if (v < 1000) {\n  uint s = group_sum(v + lid, part);\n"
            f"  if (lid != 0) {{\n    {MARK}\n    continue;\n  }}\n  {ADD}\n}}\n"
            + MORE.replace("lid", "get_local_id(0)"))
    yield ident, kernel(ident, body), {"mark": (1, 2, 3), "more": (0,)}


def expected(want):
    """The four arrays a kernel must leave, by want (shapes())."""
    out = [0] * N
    arrays = {name: [0] * (N * LOCAL) for name in ("mark", "back", "more")}
    for v in range(N):
        if SKIP[v]:
            continue
        out[v] = ROUNDS * sum(v + i for i in range(LOCAL))
        for name, lids in want.items():
            for lid in lids:
                arrays[name][v * LOCAL + lid] = ROUNDS
    return out, arrays


def at_level(ident, options):
    """Nonzero if kernel ident runs built with options without --all:
    optimised all but the branches that code follows, with
    -cl-opt-disable those and the function ends (void); the last four
    kernels at both."""
    if not ident.endswith(("_void", "_value")):
        return 1
    if not options:
        return "_branch_more_" not in ident
    return "_branch_more_" in ident or ident.endswith("_end_void")


def run(work, options, only=(), warned=False):
    """Runs every kernel of the output built with options; prints one line
    a kernel."""
    import numpy as np
    import pyopencl as cl
    import gsync
    prog = gsync.load(os.path.join(work, "out.json"),
                      source_path=os.path.join(work, "out.cl"))
    context = cl.Context([gsync.pick_device()])
    queue = cl.CommandQueue(context)
    built = prog.build(context, options=[options] if options else [])
    flags = cl.mem_flags
    skip = cl.Buffer(context, flags.READ_ONLY | flags.COPY_HOST_PTR,
                     hostbuf=np.array(SKIP, np.uint32))
    for ident, _, want in (warned_shapes() if warned else shapes()):
        if only and ident not in only:
            continue
        bufs = [cl.Buffer(context, flags.READ_WRITE, 4 * n)
                for n in (N, N * LOCAL, N * LOCAL, N * LOCAL)]
        for b in bufs:
            cl.enqueue_fill_buffer(queue, b, np.uint32(0), 0, b.size)
        k = prog.kernel(queue, getattr(built, "k_" + ident), max_groups=GROUPS)
        k(queue, GROUPS, LOCAL, *bufs, skip, cl.LocalMemory(4 * LOCAL))
        got = []
        for b in bufs:
            a = np.empty(b.size // 4, np.uint32)
            cl.enqueue_copy(queue, a, b)
            got.append(a.tolist())
        out, arrays = expected(want)
        right = [out] + [arrays[n] for n in ("mark", "back", "more")]
        wrong = [name for name, g, r in
                 zip(("out", "mark", "back", "more"), got, right) if g != r]
        print(f"{ident}: {'right' if not wrong else 'WRONG ' + ' '.join(wrong)}",
              flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool")
    ap.add_argument("--work", required=True)
    ap.add_argument("--run", metavar="OPTIONS")
    ap.add_argument("--timeout", type=int, default=500)
    ap.add_argument("--only", nargs="*", default=(),
                    help="with --run: these kernels alone")
    ap.add_argument("--all", action="store_true",
                    help="every kernel with -cl-opt-disable too")
    ap.add_argument("--warned", action="store_true",
                    help="the late jumps the tool warns about instead: "
                    "each must be warned about; what PoCL makes of them is "
                    "printed, not checked")
    args = ap.parse_args()
    if args.run is not None:
        run(args.work, args.run, args.only, args.warned)
        # PoCL's teardown at exit can take a minute and more after a few
        # launches; there is nothing left to release.
        sys.stdout.flush()
        os._exit(0)
    os.makedirs(args.work, exist_ok=True)
    source = os.path.join(args.work, "late-jumps.cl")
    kernels = list(warned_shapes() if args.warned else shapes())
    with open(source, "w") as f:
        f.write(SUM + "".join("\n" + text for _, text, _ in kernels))
    r = subprocess.run([args.tool, source, "-o",
                        os.path.join(args.work, "out.cl"), "--constraints",
                        os.path.join(args.work, "out.json")],
                       capture_output=True, text=True)
    warnings = r.stderr.count(": warning: ")
    if r.returncode != 0 or warnings != (len(kernels) if args.warned else 0):
        print(f"FAIL: the tool (exit status {r.returncode}, {warnings} "
              f"warnings):\n{r.stderr}")
        return 1
    failed = 0
    for options in ("", "-cl-opt-disable"):
        what = options or "optimised"
        names = [ident for ident, _, _ in kernels
                 if args.all or args.warned or at_level(ident, options)]
        try:
            r = subprocess.run([sys.executable, __file__, "--work", args.work,
                                "--run=" + options, "--only"] + names
                               + (["--warned"] if args.warned else []),
                               capture_output=True, text=True,
                               timeout=args.timeout)
            lines = r.stdout.splitlines()
            if r.returncode != 0:
                lines.append(f"exit status {r.returncode}: "
                             + r.stderr.strip()[-500:])
        except subprocess.TimeoutExpired as e:
            out = e.stdout or b""
            lines = (out.decode() if isinstance(out, bytes) else out
                     ).splitlines() + [f"no end in {args.timeout} s"]
        right = sum(line.endswith(": right") for line in lines)
        for line in lines:
            if not line.endswith(": right"):
                print(f"FAIL: {what}: {line}")
        failed += len(names) - right
        print(f"{what}: {right} of {len(names)} right")
    if args.warned:
        print(f"warned late jumps: {len(kernels)} kernels, each warned "
              f"about; {failed} runs wrong or not ended")
        return 0
    print(f"late jumps: {len(kernels)} kernels, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
