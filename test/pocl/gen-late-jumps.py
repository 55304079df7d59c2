"""Every shape of a late jump, run on the OpenCL device (docs/pocl.md,
section 8): a return after a function's last barrier, a continue after
its loop's last, a switch's break after the last in its case, or a goto
after the last before its label, that only some work-items of a group
take, where a way that passes no barrier (an earlier return the whole
group takes, a continue, a goto, another case, an if's other way) ends at
the same place. PoCL 3.1 ran the code after such a jump in every
work-item, or crashed, unless the ways that leave after the barrier meet
first; the tool routes each late jump to a label where they do (anchor.c,
late_jumps()).

The kernels are drawn from tables: each tail (a leader's add behind a
return the others take, written nine ways) in each place (the function's
end, a branch that ends the function, a branch that more code follows),
in a helper that returns nothing and one that returns a value; a continue
in a kernel's own loop, a goto over the barriers to a label, returns in
two nested branches; and the jumps that other ways meet after (a label
or a case after the jump, a goto to a label an early goto or an if's
other way reaches, a switch's break, a continue with code after its
branch, a goto in a loop and out of one, two labels), where the code
between the meeting point and the target is skipped and gsync_jump set
back. Every kernel is a helper with a group sum (barrier()) called in a
chunk loop strided by the number of groups, for three rounds of a global
barrier; the tool's output is built once optimised and once with
-cl-opt-disable, each run by gsync-arrays (test/pocl/arrays-host.c, a C
host through libgsync, so that the GPU machine runs them too) in a
process of its own under a timeout (a hang is a failure), and every
kernel's four arrays are compared with what this script computes. The
tool must write no warning. PoCL takes about a second to compile each
kernel: unless --all, each runs at one level at least (at_level()).

With --warned, the late jumps the tool leaves as they are instead (a
label inside a statement of the code a return must skip, a declaration
there that a label after it would take out of scope, a goto into a
block): each must be warned about, and what PoCL makes of them is
printed (docs/pocl.md, section 8).

usage: gen-late-jumps.py [--tool GSYNC_REWRITE [--prepare]] --host GSYNC_ARRAYS
                         [--platform NAME] --work DIR [--all | --warned]
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
    yield from entry_shapes()


def visit(ident, text, kind="void"):
    """A helper visit_<ident> of text (indented)."""
    return (f"static {kind} visit_{ident}(uint v, {ARGS}) {{\n"
            + indent(text, 2) + "}\n")


def call(ident, value=False):
    """The kernel's statement that calls visit_<ident>."""
    if value:
        return (f"back[v * get_local_size(0) + get_local_id(0)] += "
                f"{CALL.format(id=ident)};")
    return CALL.format(id=ident) + ";"


# Statements after a label, where lid's declaration may be jumped over.
MORE_ANY = MORE.replace("lid", "get_local_id(0)")
MARK_ANY = MARK.replace("lid", "get_local_id(0)")
BACK_ANY = "back[v * get_local_size(0) + get_local_id(0)] += 1;"
EVERY = {lid: 1 for lid in range(LOCAL)}


def when(skipped, kept):
    """Expected counts for every v: skipped for the groups that skip v,
    kept for the others ({work-item: count a round})."""
    return lambda v: skipped if SKIP[v] else kept


def even(v):
    return v % 2 == 0 and not SKIP[v]


def entry_shapes():
    """Late jumps where other ways come in after them or that are not
    returns: a label or a case after the jump, a goto to a label an early
    goto or a way past no barrier reaches too, a switch's break, a continue
    with code after its branch, and the targets' resets of gsync_jump in a
    loop. (identifier, source, expected) as shapes()."""
    head = ("if (skip[v])\n  goto done;\nuint lid = get_local_id(0);\n"
            "uint s = group_sum(v + lid, part);\n")
    yield ("return_before_label",
           visit("return_before_label", head + f"if (lid != 0)\n  return;\n"
                 f"{ADD}\ndone:\n  {MORE_ANY}\n")
           + kernel("return_before_label", call("return_before_label")),
           {"more": when(EVERY, {0: 1})})
    yield ("value_before_label",
           visit("value_before_label",
                 head + f"if (lid != 0)\n  return 0;\n{ADD}\ndone:\n"
                 f"  {MORE_ANY}\nreturn 1;\n", "uint")
           + kernel("value_before_label",
                    call("value_before_label", True)),
           {"more": when(EVERY, {0: 1}), "back": when(EVERY, {0: 1})})
    yield ("goto_to_early_label",
           visit("goto_to_early_label", head + f"if (lid != 0)\n  goto done;\n"
                 f"{ADD}\ndone:\n  {MORE_ANY}\n")
           + kernel("goto_to_early_label", call("goto_to_early_label")),
           {"more": when(EVERY, EVERY)})
    case = ("if (skip[v])\n  return;\nuint lid = get_local_id(0);\n"
            "switch (v % 2) {\ncase 0: {\n  uint s = group_sum(v + lid, part);\n"
            "  if (lid != 0)\n    JUMP\n  " + ADD + "\n  break;\n}\n"
            "default:\n  " + MARK_ANY + "\n  break;\n}\n" + MORE_ANY + "\n")
    yield ("return_in_case",
           visit("return_in_case", case.replace("JUMP", "return;"))
           + kernel("return_in_case", call("return_in_case")),
           {"adds": even, "mark": lambda v: {} if even(v) or SKIP[v] else EVERY,
            "more": lambda v: {} if SKIP[v] else {0: 1} if even(v) else EVERY})
    yield ("break_in_case",
           visit("break_in_case",
                 case.replace("JUMP", "{\n    " + BACK_ANY + "\n    break;\n  }"))
           + kernel("break_in_case", call("break_in_case")),
           {"adds": even,
            "back": lambda v: {1: 1, 2: 1, 3: 1} if even(v) else {},
            "mark": lambda v: {} if even(v) or SKIP[v] else EVERY,
            "more": lambda v: {} if SKIP[v] else EVERY})
    yield ("return_in_bare_case",
           visit("return_in_bare_case",
                 "if (skip[v])\n  return 0;\nuint lid = get_local_id(0);\n"
                 "uint s;\nswitch (v % 2) {\ncase 0:\n"
                 "  s = group_sum(v + lid, part);\n  if (lid != 0)\n"
                 f"    return 0;\n  {ADD}\n  break;\ndefault:\n  {MARK_ANY}\n"
                 "  break;\n}\nreturn 1;\n", "uint")
           + kernel("return_in_bare_case", call("return_in_bare_case", True)),
           {"adds": even, "mark": lambda v: {} if even(v) or SKIP[v] else EVERY,
            "back": lambda v: {} if SKIP[v] else {0: 1} if even(v) else EVERY})
    body = ("if (skip[v])\n  continue;\nuint lid = get_local_id(0);\n"
            "if (v < 1000) {\n  uint s = group_sum(v + lid, part);\n"
            f"  if (lid != v % {LOCAL}) {{\n    {MARK}\n    continue;\n  }}\n"
            f"  {ADD}\n}}\n{MORE_ANY}")
    yield ("continue_then_code", kernel("continue_then_code", body),
           {"mark": lambda v: {} if SKIP[v] else
            {lid: 1 for lid in range(LOCAL) if lid != v % LOCAL},
            "more": lambda v: {} if SKIP[v] else {v % LOCAL: 1}})
    fall = ("uint lid = get_local_id(0);\nif (skip[v] == 0) {\n"
            "  uint s = group_sum(v + lid, part);\n  if (lid != 0) JUMP\n"
            f"  {ADD}\n}}\n")
    yield ("goto_fallthrough",
           visit("goto_fallthrough", fall.replace("JUMP", "\n    goto done;")
                 + "done:\n  ;\n")
           + kernel("goto_fallthrough", call("goto_fallthrough")), {})
    yield ("goto_fallthrough_more",
           visit("goto_fallthrough_more",
                 fall.replace("JUMP", f"{{\n    {MARK}\n    goto done;\n  }}")
                 + f"{MORE_ANY}\ndone:\n  {BACK_ANY}\n")
           + kernel("goto_fallthrough_more", call("goto_fallthrough_more")),
           {"mark": (1, 2, 3), "more": when(EVERY, {0: 1}),
            "back": when(EVERY, EVERY)})
    yield ("goto_in_loop",
           visit("goto_in_loop",
                 "uint lid = get_local_id(0);\n"
                 "for (uint i = 0; i < 2; i++) {\n  if (skip[v])\n    goto next;\n"
                 "  {\n    uint s = group_sum(v + lid, part);\n"
                 f"    if (lid == i + 1) {{\n      {MARK}\n      goto next;\n"
                 f"    }}\n    if (i == 0 && lid == 0)\n      {ADD}\n  }}\n"
                 f"  {MORE}\nnext:\n  ;\n}}\n")
           + kernel("goto_in_loop", call("goto_in_loop")),
           {"mark": {1: 1, 2: 1}, "more": {0: 2, 1: 1, 2: 1, 3: 2}})
    yield ("goto_out_of_loop",
           visit("goto_out_of_loop",
                 head + "for (uint i = 1; i < get_local_size(0); i++)\n"
                 f"  if (lid == i)\n    goto done;\n{ADD}\ndone:\n"
                 f"  {BACK_ANY}\n")
           + kernel("goto_out_of_loop", call("goto_out_of_loop")),
           {"back": when(EVERY, EVERY)})
    yield ("two_labels",
           visit("two_labels",
                 "if (skip[v])\n  goto first;\nuint lid = get_local_id(0);\n"
                 "uint s = group_sum(v + lid, part);\nif (lid == 1)\n"
                 "  return 0;\nif (lid == 2)\n  goto second;\n"
                 f"if (lid == 0)\n  {ADD}\nfirst:\n  {MORE_ANY}\nsecond:\n"
                 "  return 1;\n", "uint")
           + kernel("two_labels", call("two_labels", True)),
           {"more": when(EVERY, {0: 1, 3: 1}),
            "back": when(EVERY, {0: 1, 2: 1, 3: 1})})


def warned_shapes():
    """Late jumps the tool leaves as they are, with a warning: a label
    inside a statement of the code a return must skip, a declaration there
    that a label after it would take out of scope, a goto into a block.
    (identifier, source, expected) as shapes()."""
    head = ("uint lid = get_local_id(0);\n"
            "uint s = group_sum(v + lid, part);\n")
    yield ("label_in_statement",
           visit("label_in_statement",
                 "if (skip[v])\n  goto inner;\n" + head +
                 f"if (lid != 0)\n  return;\n{ADD}\nif (v < 1000) {{\n"
                 f"inner:\n  {MORE_ANY}\n}}\n")
           + kernel("label_in_statement", call("label_in_statement")),
           {"more": when(EVERY, {0: 1})})
    yield ("declaration_before_label",
           visit("declaration_before_label",
                 "if (skip[v])\n  goto first;\nif (v > 1000)\n  goto second;\n"
                 + head + f"if (lid != 0)\n  return;\n{ADD}\nfirst:\n  ;\n"
                 "uint t = get_local_id(0);\n"
                 "more[v * get_local_size(0) + t] += 1;\nsecond:\n  ;\n")
           + kernel("declaration_before_label",
                    call("declaration_before_label")),
           {"more": when(EVERY, {0: 1})})
    yield ("goto_into_block",
           visit("goto_into_block",
                 "if (skip[v])\n  return;\n" + head +
                 f"if (lid != 0)\n  goto inside;\n{ADD}\nif (v < 1000) {{\n"
                 f"inside:\n  {MORE_ANY}\n}}\n")
           + kernel("goto_into_block", call("goto_into_block")),
           {"more": when({}, EVERY)})


def expected(want):
    """The four arrays a kernel must leave, by want (shapes()): for each
    array, the work-items that count 1 a round in every group not skipped,
    or a function of v giving {work-item: count a round} for every v; and
    "adds", a function of v that says if out[v] gets its group's sum (by
    default every v not skipped)."""
    out = [0] * N
    arrays = {name: [0] * (N * LOCAL) for name in ("mark", "back", "more")}
    adds = want.get("adds", lambda v: not SKIP[v])
    for v in range(N):
        if adds(v):
            out[v] = ROUNDS * sum(v + i for i in range(LOCAL))
        for name, lids in want.items():
            if name == "adds":
                continue
            counts = (lids(v) if callable(lids) else
                      lids if isinstance(lids, dict) and not SKIP[v] else
                      {} if SKIP[v] else {lid: 1 for lid in lids})
            for lid, count in counts.items():
                arrays[name][v * LOCAL + lid] = ROUNDS * count
    return out, arrays


# The entry shapes that run at -cl-opt-disable too without --all: one of
# each kind of jump and of way in.
BOTH_LEVELS = ("return_before_label", "return_in_case", "break_in_case",
               "continue_then_code", "goto_fallthrough_more", "goto_in_loop")


def at_level(ident, options):
    """Nonzero if kernel ident runs built with options without --all, for
    CI's time; each runs at one level at least. Of the tails' table,
    optimised all but the branches that code follows and the function
    ends that return a value, with -cl-opt-disable those; the continues,
    the goto and the nested branches at both; of the entry shapes, all
    optimised and BOTH_LEVELS with -cl-opt-disable."""
    tail = ident.endswith(("_void", "_value"))
    late = ("_branch_more_" in ident or ident.endswith("_end_value"))
    if not options:
        return not tail or not late
    if tail:
        return late
    entries = [i for i, _, _ in entry_shapes()]
    return ident not in entries or ident in BOTH_LEVELS


def check(lines, kernels):
    """'ident: right' or 'ident: WRONG arrays...' for each kernel of
    kernels (identifier, source, expected) that gsync-arrays printed the
    arrays of in lines ('k_IDENT I V0 V1 ...'); other lines as they are."""
    got, said = {}, []
    for line in lines:
        words = line.split()
        if len(words) > 2 and words[0].startswith("k_") and words[1].isdigit():
            got.setdefault(words[0][2:], {})[int(words[1])] = [
                int(x) for x in words[2:]]
        else:
            said.append(line)
    for ident, _, want in kernels:
        if ident not in got:
            continue
        out, arrays = expected(want)
        right = [out] + [arrays[n] for n in ("mark", "back", "more")]
        wrong = [name for i, (name, r) in
                 enumerate(zip(("out", "mark", "back", "more"), right))
                 if got[ident].get(i) != r]
        said.append(f"{ident}: "
                    + ("right" if not wrong else "WRONG " + " ".join(wrong)))
    return said


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", help="gsync-rewrite, which writes WORK/out.cl "
                    "(without it, the output already there runs)")
    ap.add_argument("--host", required=True,
                    help="gsync-arrays (test/pocl/arrays-host.c)")
    ap.add_argument("--platform", default="Portable Computing Language",
                    help="the OpenCL platform whose name holds this")
    ap.add_argument("--work", required=True)
    ap.add_argument("--timeout", type=int, default=500)
    ap.add_argument("--all", action="store_true",
                    help="every kernel with -cl-opt-disable too")
    ap.add_argument("--prepare", action="store_true",
                    help="with --tool: write the output, run nothing (for "
                    "a machine without the tool: test/gpu/prepare.sh)")
    ap.add_argument("--warned", action="store_true",
                    help="the late jumps the tool warns about instead: "
                    "each must be warned about; what the device makes of "
                    "them is printed, not checked")
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    kernels = list(warned_shapes() if args.warned else shapes())
    with open(os.path.join(args.work, "skip.bin"), "wb") as f:
        f.write(b"".join(int(x).to_bytes(4, "little") for x in SKIP))
    if args.tool:
        source = os.path.join(args.work, "late-jumps.cl")
        with open(source, "w") as f:
            f.write(SUM + "".join("\n" + text for _, text, _ in kernels))
        r = subprocess.run([args.tool, source, "-o",
                            os.path.join(args.work, "out.cl"), "--constraints",
                            os.path.join(args.work, "out.json")],
                           capture_output=True, text=True)
        warnings = r.stderr.count(": warning: ")
        if r.returncode != 0 or warnings != (len(kernels) if args.warned
                                             else 0):
            print(f"FAIL: the tool (exit status {r.returncode}, {warnings} "
                  f"warnings):\n{r.stderr}")
            return 1
        if args.prepare:
            return 0
    failed = 0
    for options in ("", "-cl-opt-disable"):
        what = options or "optimised"
        run = [(ident, text, want) for ident, text, want in kernels
               if args.all or args.warned or at_level(ident, options)]
        cmd = [args.host, "--platform", args.platform,
               "--cl", os.path.join(args.work, "out.cl"),
               "--constraints", os.path.join(args.work, "out.json"),
               "--groups", str(GROUPS), "--local", str(LOCAL),
               "--arrays", f"{N},{N * LOCAL},{N * LOCAL},{N * LOCAL},{N}",
               "--input", "4:" + os.path.join(args.work, "skip.bin"),
               "--local-words", str(LOCAL), "--options", options]
        try:
            r = subprocess.run(cmd + ["k_" + ident for ident, _, _ in run],
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
        lines = check(lines, run)
        right = sum(line.endswith(": right") for line in lines)
        for line in lines:
            if not line.endswith(": right"):
                print(f"FAIL: {what}: {line}")
        failed += len(run) - right
        print(f"{what}: {right} of {len(run)} right")
    if args.warned:
        print(f"warned late jumps: {len(kernels)} kernels, each warned "
              f"about; {failed} runs wrong or not ended")
        return 0
    print(f"late jumps: {len(kernels)} kernels, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
