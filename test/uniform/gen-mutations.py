"""Every way a variable can change, against every source of variation the
uniformity check knows, with the barrier in each place a variable decides:
a table-driven test of the check (issue 24, item 4).

A case is one kernel: a variable (or array element, or struct field) is
changed in one way (MUTATIONS) by, or under, one source (SOURCES), and then
decides where global_barrier() runs (PLACEMENTS). Each source comes with
its uniform control: the same change with a value, or under a condition,
that is the same in every work-item. Every varying case must be refused
with `file:line:col: error:` at its barrier and a note that points at the
line of the change (or inside the helper that makes it); every control
must be accepted without a word.

The cases of one placement and one expectation share a file (one tool run
each); every case has its own helpers, so no case can see another. A
known gap (XFAIL) must stay accepted until it is fixed.

usage: gen-mutations.py --tool GSYNC --work DIR [--std=CL2.0]
Prints one line per failed case and a summary; exits 1 if any failed."""
import argparse
import os
import re
import subprocess
import sys

PAIR = "struct pair { uint a, b; };"
REF = "struct ref { uint *p; };"
# A change, an address, a condition that a macro writes.
MACROS = ["#define BUMP(x) x++", "#define SET(x, v) x = v",
          "#define ADDR(x) &x", "#define BOTH(a, b) ((a) && (b))"]

# (name, declarations, the place read where the barrier is decided,
#  the change ({v}: the value stored, {i}: an index), helpers ({k}: the
#  case's number), flags). Flags: "stmt" (a statement, not an expression:
#  it cannot sit in ?:, && or ||), "helper" (the helper's lines count as
#  the change's).
MUTATIONS = [
    ("x++", "uint x = 5;", "x", "x++", "", ""),
    ("x--", "uint x = 5;", "x", "x--", "", ""),
    ("++x", "uint x = 5;", "x", "++x", "", ""),
    ("--x", "uint x = 5;", "x", "--x", "", ""),
] + [
    (f"x {op} v", "uint x = 5;", "x", f"x {op} {{v}}", "", "")
    for op in ["+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "^=", "|="]
] + [
    ("x = v", "uint x = 5;", "x", "x = {v}", "", ""),
    ("x = x + v", "uint x = 5;", "x", "x = x + {v}", "", ""),
    ("*p = v", "uint x = 5; uint *p = &x;", "x", "*p = {v}", "", ""),
    ("p[0] += v", "uint x = 5; uint *p = &x;", "x", "p[0] += {v}", "", ""),
    ("(*p)++", "uint x = 5; uint *p = &x;", "x", "(*p)++", "", ""),
    ("*q = v, q = p", "uint x = 5; uint *p = &x; uint *q = p;", "x",
     "*q = {v}", "", ""),
    ("*p = v, p assigned", "uint x = 5; uint *p; p = &x;", "x", "*p = {v}",
     "", ""),
    ("**pp = v", "uint x = 5; uint *p = &x; uint **pp = &p;", "x",
     "**pp = {v}", "", ""),
    ("*r.p = v", "uint x = 5; struct ref r; r.p = &x;", "x", "*r.p = {v}",
     "", ""),
    ("xs[i] = v", "uint xs[2] = {5, 5};", "xs[0]", "xs[{i}] = {v}", "", ""),
    ("xs[i]++", "uint xs[2] = {5, 5};", "xs[0]", "xs[{i}]++", "", ""),
    ("xs[i] *= v", "uint xs[2] = {5, 5};", "xs[0]", "xs[{i}] *= {v}", "",
     ""),
    ("*(p + i) = v", "uint xs[2] = {5, 5}; uint *p = xs;", "xs[0]",
     "*(p + {i}) = {v}", "", ""),
    ("vstore2", "uint xs[4] = {5, 5, 5, 5};", "xs[0]",
     "vstore2((uint2)({v}, {v}), {i}, xs)", "", ""),
    ("w.x = v", "uint2 w = (uint2)(5, 5);", "w.x", "w.x = {v}", "", ""),
    ("BUMP(x)", "uint x = 5;", "x", "BUMP(x)", "", ""),
    ("SET(x, v)", "uint x = 5;", "x", "SET(x, {v})", "", ""),
    ("*p = v, p = ADDR(x)", "uint x = 5; uint *p = ADDR(x);", "x",
     "*p = {v}", "", ""),
    ("s.a = v", "struct pair s = {5, 5};", "s.a", "s.a = {v}", "", ""),
    ("s.a++", "struct pair s = {5, 5};", "s.a", "s.a++", "", ""),
    ("ps->a += v", "struct pair s = {5, 5}; struct pair *ps = &s;", "s.a",
     "ps->a += {v}", "", ""),
    ("(*ps).a = v", "struct pair s = {5, 5}; struct pair *ps = &s;", "s.a",
     "(*ps).a = {v}", "", ""),
    ("out-parameter", "uint x = 5;", "x", "set{k}(&x, {v})",
     "void set{k}(uint *o, uint v) {{\n  *o = v;\n}}", "helper"),
    ("out-parameter +=", "uint x = 5;", "x", "add{k}(&x, {v})",
     "void add{k}(uint *o, uint v) {{\n  *o += v;\n}}", "helper"),
    ("out-parameter, passed on", "uint x = 5;", "x", "fwd{k}(&x, {v})",
     "void put{k}(uint *o, uint v) {{\n  *o = v;\n}}\n"
     "void fwd{k}(uint *o, uint v) {{\n  put{k}(o, v);\n}}", "helper"),
    ("out-parameter field", "struct pair s = {5, 5};", "s.a",
     "seta{k}(&s, {v})",
     "void seta{k}(struct pair *q, uint v) {{\n  q->a = v;\n}}", "helper"),
    ("out-parameter array", "uint xs[2] = {5, 5};", "xs[0]",
     "setxs{k}(xs, {i}, {v})",
     "void setxs{k}(uint *q, uint i, uint v) {{\n  q[i] = v;\n}}",
     "helper"),
    ("for init", "uint x = 5;", "x",
     "for (x = {v}; x > 1000000u;) {{\n  }}", "", "stmt"),
    ("for increment", "uint x = 5;", "x",
     "for (uint k = 0; k < 1u; k++, x += {v}) {{\n  }}", "", "stmt"),
    ("comma", "uint x = 5; uint y = 5;", "x", "y = 1u, x = {v}", "", ""),
    ("while (x = v)", "uint x = 5;", "x",
     "while ((x = {v}) > 1000000u) {{\n  }}", "", "stmt"),
    ("if ((x += v) ...)", "uint x = 5;", "x",
     "if ((x += {v}) > 1000000u) {{\n  }}", "", "stmt"),
]

# (name, kind, declarations, statements before, what it gives) for the
# varying case and for its uniform control. kind: "value" ({v} varies),
# "index" ({i} varies), "cond" (the change is wrapped: {m} is the change).
# Helpers, if any, come as (varying, control) with {k}.
SOURCES = [
    ("global id", "value", ("", "", "get_global_id(0)"),
     ("", "", "get_global_size(0)"), None),
    ("local id", "value", ("", "", "get_local_id(0)"),
     ("", "", "get_local_size(0)"), None),
    ("group id", "value", ("", "", "get_group_id(0)"),
     ("", "", "get_num_groups(0)"), None),
    ("derived variable", "value",
     ("uint d = get_local_id(0) * 2u;", "", "d"),
     ("uint d = get_local_size(0) * 2u;", "", "d"), None),
    ("atomic that modifies", "value", ("", "", "atomic_inc(&c[0])"),
     ("", "", "atomic_or(&c[0], 0u)"), None),
    ("helper's result", "value", ("", "", "id{k}()"), ("", "", "size{k}()"),
     ("uint id{k}(void) {{\n  return get_local_id(0);\n}}",
      "uint size{k}(void) {{\n  return get_local_size(0);\n}}")),
    ("racy read", "value", ("", "atomic_add(&c[1], 1u);", "c[1]"),
     ("", "", "c[2]"), None),
    ("varying index", "index", ("", "", "get_local_id(0) % 2u"),
     ("", "", "n % 2u"), None),
    ("if on id", "cond",
     ("", "", "if (get_local_id(0) == 0) {{\n  {m};\n  }}"),
     ("", "", "if (n > 2u) {{\n  {m};\n  }}"), None),
    ("if on derived", "cond",
     ("uint d = get_global_id(0) * 2u;", "", "if (d > 3u) {{\n  {m};\n  }}"),
     ("uint d = n * 2u;", "", "if (d > 3u) {{\n  {m};\n  }}"), None),
    ("?: on id", "cond",
     ("", "", "(void)(get_local_id(0) == 0 ? ({m}, 0) : 0)"),
     ("", "", "(void)(n > 2u ? ({m}, 0) : 0)"), None),
    ("&& on id", "cond", ("", "", "(void)(get_local_id(0) == 0 && ({m}, 1))"),
     ("", "", "(void)(n > 2u && ({m}, 1))"), None),
    ("|| on id", "cond", ("", "", "(void)(get_local_id(0) != 0 || ({m}, 1))"),
     ("", "", "(void)(n <= 2u || ({m}, 1))"), None),
    ("&& in a macro on id", "cond",
     ("", "", "(void)BOTH(get_local_id(0) == 0, ({m}, 1))"),
     ("", "", "(void)BOTH(n > 2u, ({m}, 1))"), None),
    ("switch on id", "cond",
     ("", "", "switch (get_local_id(0)) {{\n  case 0: {m}; break;\n"
      "  default: break;\n  }}"),
     ("", "", "switch (n) {{\n  case 0: {m}; break;\n  default: break;\n  }}"),
     None),
    ("loop to id", "cond",
     ("", "", "for (uint k = 0; k < get_local_id(0); k++) {{\n  {m};\n  }}"),
     ("", "", "for (uint k = 0; k < n; k++) {{\n  {m};\n  }}"), None),
    ("while on id", "cond",
     ("uint k = 0;", "", "while (k < get_group_id(0)) {{\n  k++;\n  {m};\n  }}"),
     ("uint k = 0;", "", "while (k < n) {{\n  k++;\n  {m};\n  }}"), None),
    ("do with a break on id", "cond",
     ("uint k = 0;", "", "do {{\n  if (k++ >= get_local_id(0)) break;\n"
      "  {m};\n  }} while (k < 8u)"),
     ("uint k = 0;", "", "do {{\n  if (k++ >= n) break;\n  {m};\n"
      "  }} while (k < 8u)"), None),
    ("after a break on id", "cond",
     ("", "", "for (uint k = 0; k < 2u; k++) {{\n  if (get_local_id(0) == 0)"
      " break;\n  {m};\n  }}"),
     ("", "", "for (uint k = 0; k < 2u; k++) {{\n  if (n == 0u) break;\n"
      "  {m};\n  }}"), None),
    ("after a continue on id", "cond",
     ("", "", "for (uint k = 0; k < 2u; k++) {{\n  if (get_local_id(0) == 0)"
      " continue;\n  {m};\n  }}"),
     ("", "", "for (uint k = 0; k < 2u; k++) {{\n  if (n == 0u) continue;\n"
      "  {m};\n  }}"), None),
    ("atomic condition", "cond",
     ("", "", "if (atomic_inc(&c[0]) == 0u) {{\n  {m};\n  }}"),
     ("", "", "if (atomic_or(&c[0], 0u) == 0u) {{\n  {m};\n  }}"), None),
    ("helper condition", "cond",
     ("", "", "if (id{k}() == 0u) {{\n  {m};\n  }}"),
     ("", "", "if (size{k}() == 0u) {{\n  {m};\n  }}"),
     ("uint id{k}(void) {{\n  return get_local_id(0);\n}}",
      "uint size{k}(void) {{\n  return get_local_size(0);\n}}")),
    ("racy condition", "cond",
     ("", "atomic_add(&c[1], 1u);", "if (c[1] > 1u) {{\n  {m};\n  }}"),
     ("", "", "if (c[2] > 1u) {{\n  {m};\n  }}"), None),
]

# Known gaps: varying cases the check still accepts, each with why. Such a
# case must stay accepted (an expected failure); once it is refused, the
# entry goes.
XFAIL = {
    ("SET(x, v)", "racy read"):
        "find_races() keys a read by its text, which a macro's argument "
        "does not have where it expands",
}

# Where the barrier goes; {place} is what the change changes, {change} the
# (wrapped) change. "loop bound": the place is the loop's own counter, as
# in the issue's report. Every place starts at 5, which every change
# makes another value: each varying case varies when it runs, so none of
# them asks the check to refuse what a sharper one could prove.
PLACEMENTS = [
    ("loop bound",
     "for ({place} = 0; {place} < steps; {place}++) {{\n"
     "  {change};\n  global_barrier();\n  }}"),
    ("if condition",
     "{change};\n  if ({place} != 5u)\n  global_barrier();"),
    ("break",
     "{change};\n  for (uint it = 0; it < steps; it++) {{\n"
     "  global_barrier();\n  if ({place} != 5u)\n  break;\n  }}"),
]


def case_source(k, mutation, source, placement, varying):
    """The helpers and kernel of one case, and the lines (1-based, from
    the case's first line) of its change and of its barrier."""
    _, mdecls, place, change, mhelpers, flags = mutation
    _, kind, bad, good, shelpers = source
    decls, before, gives = bad if varying else good
    v, i = "3u", "0"  # a uniform value and index, unless the source's
    if kind == "value":
        v = gives.format(k=k)
    elif kind == "index":
        i = gives
    change = change.format(v=v, i=i, k=k)
    if kind == "cond":
        change = gives.format(m=change, k=k)
    helpers = [mhelpers.format(k=k)] if mhelpers else []
    if shelpers:
        helpers.append(shelpers[0 if varying else 1].format(k=k))
    pre, post = placement[1].split("{change}")
    body = ("  " + pre.format(place=place) + change
            + post.format(place=place)).split("\n")
    lines = []
    for h in helpers:
        lines += h.split("\n")
    change_lines = set(range(1, len(lines) + 1)) if "helper" in flags else set()
    lines.append(f"kernel void k{k}(global uint *c, uint n, uint steps) {{")
    for d in (mdecls, decls, before):
        if d:
            lines.append("  " + d)
    at = len(lines) + 1 + pre.count("\n")  # the change's first line
    change_lines.update(range(at, at + change.count("\n") + 1))
    barrier = next((len(lines) + 1 + n, text.index("global_barrier") + 1)
                   for n, text in enumerate(body) if "global_barrier" in text)
    lines += body + ["}"]
    return lines, change_lines, barrier


def applicable(mutation, source):
    """True if the source can drive the change: a value needs a change
    that stores one, an index one that indexes, and ?:, && and || an
    expression."""
    change, flags = mutation[3], mutation[5]
    kind = source[1]
    if kind == "value" and "{v}" not in change:
        return False
    if kind == "index" and "{i}" not in change:
        return False
    if kind == "cond" and "stmt" in flags and source[0] in (
            "?: on id", "&& on id", "|| on id", "&& in a macro on id"):
        return False
    return True


DIAG = re.compile(r"^(.*?):(\d+):(\d+): (error|warning|note): (.*)$")


def run(tool, path, std):
    """Rewrites path; returns the exit status and the diagnostics."""
    args = [tool, path, "-o", path + ".out.cl"]
    if std:
        args.insert(1, "-cl-std=" + std)
    p = subprocess.run(args, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL,
                       universal_newlines=True)
    return p.returncode, p.stderr.splitlines()


def check_file(tool, path, cases, varying, std):
    """Runs the tool on one file of cases; returns the failures."""
    rc, diags = run(tool, path, std)
    parsed = []  # (line, col, severity, message) in order; notes without
    for d in diags:  # a position belong to the diagnostic before them
        m = DIAG.match(d)
        if m and os.path.basename(m.group(1)) == os.path.basename(path):
            parsed.append((int(m.group(2)), int(m.group(3)), m.group(4),
                           m.group(5)))
        elif not d.startswith("gsync-rewrite: note:"):
            parsed.append((0, 0, "error", d))
    failures = []
    if not varying and rc != 0:
        failures.append(f"{path}: exit status {rc}, expected 0")
    if varying and rc != 1:
        failures.append(f"{path}: exit status {rc}, expected 1")
    for first, last, name, change_lines, barrier, xfail in cases:
        mine = [d for d in parsed if first <= d[0] <= last]
        errors = [n for n, d in enumerate(mine) if d[2] == "error"]
        if varying and xfail:
            if errors:
                failures.append(f"varying {name}: refused, though listed in "
                                f"XFAIL ({xfail}): remove the entry")
            continue
        if not varying:
            if mine:
                failures.append(f"control {name}: not accepted silently: "
                                f"{mine[0][2]}: {mine[0][3]}")
            continue
        if not errors:
            failures.append(f"varying {name}: accepted")
            continue
        e = mine[errors[0]]
        if (e[0], e[1]) != barrier:
            failures.append(f"varying {name}: first error at {e[0]}:{e[1]}, "
                            f"not at the barrier {barrier[0]}:{barrier[1]}: "
                            f"{e[3]}")
            continue
        end = errors[1] if len(errors) > 1 else len(mine)
        notes = [d for d in mine[errors[0] + 1:end] if d[2] == "note"]
        # A note may point into a helper outside the kernel's lines.
        notes += [d for d in parsed if d[2] == "note" and d[0] in change_lines
                  and not first <= d[0] <= last]
        if not any(d[0] in change_lines for d in notes):
            failures.append(f"varying {name}: no note at the change (lines "
                            f"{sorted(change_lines)}): "
                            + "; ".join(f"{d[0]}:{d[1]}: {d[3]}"
                                        for d in notes))
    strays = [d for d in parsed if d[0] == 0]
    for d in strays:
        failures.append(f"{path}: {d[3]}")
    return failures


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tool", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--std", default="",
                    help="-cl-std= for the tool (CL2.0: generic pointers)")
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    failures = []
    counts = {True: 0, False: 0}
    xfails = 0
    k = 0
    for placement in PLACEMENTS:
        for varying in (True, False):
            lines = [PAIR, REF] + MACROS
            cases = []
            for mutation in MUTATIONS:
                for source in SOURCES:
                    if not applicable(mutation, source):
                        continue
                    k += 1
                    src, change_lines, barrier = case_source(
                        k, mutation, source, placement, varying)
                    base = len(lines)
                    lines += src
                    name = (f"{mutation[0]} x {source[0]} x {placement[0]}"
                            f" (k{k})")
                    cases.append((base + 1, base + len(src), name,
                                  {base + n for n in change_lines},
                                  (base + barrier[0], barrier[1]),
                                  XFAIL.get((mutation[0], source[0]))))
            kind = "varying" if varying else "uniform"
            path = os.path.join(
                a.work, f"{placement[0].replace(' ', '-')}-{kind}.cl")
            with open(path, "w") as f:
                f.write("\n".join(lines) + "\n")
            failures += check_file(a.tool, path, cases, varying, a.std)
            counts[varying] += len(cases)
            xfails += sum(1 for c in cases if varying and c[5])
    for f in failures:
        print("FAIL", f)
    print(f"mutations: {counts[True]} varying cases ({xfails} known gaps), "
          f"{counts[False]} uniform controls, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
