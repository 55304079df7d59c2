"""Every place a call that reaches global_barrier() can sit in a statement,
against the uniformity check's race analysis: a table-driven test.

A read of global memory decides a barrier; a write of the same place is
separated from it only by the statement under test (PLACES). Where every
run of the statement evaluates the call (an expression statement, an
initialiser, an assignment, an argument, an if's, switch's or while's
condition, a for's initialiser, a block without jumps), the write and the
read are apart, and the kernel must be accepted without a word. Where a
run may skip it (a branch, ?:, the right side of && or ||, a loop's body,
a block that breaks first, sizeof), a work-item can read before another's
write: the kernel must be refused with `file:line:col: error:`.

Each place runs in two shapes: straight (one work-item writes, then the
statement, then every work-item reads), and around a loop (the read at the
end of an iteration decides a break; the write comes in the next one after
the statement). The call is of a helper that calls global_barrier() first,
last, or through another helper, or is global_barrier() itself where the
place allows a void call.

The tool runs twice: once over every case to accept, in one file (each
case's functions renamed apart), which it must rewrite whole without a
word, and once over every case to refuse, each of which must get an error
on its own lines. A case those runs do not bear out runs alone too, and
its own file (WORK/caseN.cl, each written) says what it got there.

usage: gen-barrier-places.py --tool GSYNC --work DIR
Prints one line per failed case and a summary; exits 1 if any failed."""
import argparse
import os
import re
import subprocess
import sys

# (place, evaluated on every run). {h} is the call; {void} marks a place
# where a void call fits, so global_barrier() itself is tried there too.
PLACES = [
    ("{h};{void}", True),
    ("(void){h};{void}", True),
    ("x = {h};", True),
    ("x += {h};", True),
    ("x = {h} + 1;", True),
    ("int v = {h}; x = v;", True),
    ("int u = 1, v = {h}; x = u + v;", True),
    ("x = g({h});", True),
    ("x = ({h}, 3);", True),
    ("x = {h} ? 1 : 2;", True),
    ("x = {h} && n;", True),
    ("x = {h} || n;", True),
    ("if ({h}) x++;", True),
    ("if ({h}) x++; else x--;", True),
    ("switch ({h}) {{ case 1: x++; break; default: x--; }}", True),
    ("while ({h} && x < 0) x++;", True),
    ("for (int i = {h}; i < 2; i++) x++;", True),
    ("{{ {h}; }}{void}", True),
    ("{{ x++; {h}; x--; }}{void}", True),
    ("{{ int v = {h}; if (v > 3) x++; }}", True),
    ("{{ {{ x = {h}; }} }}", True),
    ("x = n > 3 ? {h} : 0;", False),
    ("x = n > 3 ? 0 : {h};", False),
    ("x = n > 3 && {h};", False),
    ("x = n > 3 || {h};", False),
    ("if (n > 3) {h};{void}", False),
    ("if (n > 3) x++; else {h};{void}", False),
    ("if (n > 3) {{ x = {h}; }}", False),
    ("switch (n) {{ case 1: {h}; break; default: x--; }}{void}", False),
    ("for (int i = 0; i < n % 3; i++) {h};{void}", False),
    ("for (int i = 0; i < n % 3; i += {h}) x++;", False),
    ("while (x < n % 2) {{ {h}; x++; }}{void}", False),
    ("do {{ if (n > 3) break; {h}; }} while (0);{void}", False),
    ("x = sizeof({h});", False),
    ("if (n > 3) goto in; {{ {h}; in: x--; }}{void}", False),
]

HELPERS = {
    # The barrier first, a read after it; the read last; through another.
    "first": "static int h(global int *f) {\n  global_barrier();\n"
             "  return f[5];\n}\n",
    "last": "static int h(global int *f) {\n  int r = f[5];\n"
            "  global_barrier();\n  return r;\n}\n",
    "nested": "static int h0(global int *f) {\n  global_barrier();\n"
              "  return f[5];\n}\nstatic int h(global int *f) {\n"
              "  return h0(f) + 1;\n}\n",
}

SHAPES = {
    "straight": (
        "kernel void k(global int *a, global int *b, global int *f, int n) {\n"
        "  int x = 0;\n"
        "  if (get_global_id(0) == 0)\n    f[0] = n;\n"
        "  PLACE\n"
        "  if (f[0] > 3)\n    global_barrier();\n"
        "  if (get_global_id(0) == 0)\n    b[0] = x;\n}\n"),
    "around": (
        "kernel void k(global int *a, global int *b, global int *f, int n,\n"
        "              int k) {\n"
        "  int x = 0;\n"
        "  for (int t = 0; t < k; t++) {\n"
        "    PLACE\n"
        "    for (int i = get_global_id(0); i < n; i += get_global_size(0))\n"
        "      if (a[i] > 5000)\n        atomic_add(&f[0], 1);\n"
        "    global_barrier();\n"
        "    if (f[0] > 15)\n      break;\n"
        "  }\n"
        "  if (get_global_id(0) == 0)\n    b[0] = x;\n}\n"),
}


def cases():
    """(label, source, expected to be accepted)."""
    for place, always in PLACES:
        calls = [(name, text, "h(f)") for name, text in HELPERS.items()]
        if "{void}" in place:
            calls.append(("global_barrier", "", "global_barrier()"))
        for helper, text, call in calls:
            stmt = place.replace("{void}", "").format(h=call)
            for shape, kernel in SHAPES.items():
                src = ("static int g(int v) { return v + 1; }\n" + text
                       + kernel.replace("PLACE", stmt))
                yield f"{shape} {helper}: {stmt}", src, always


def together(cases):
    """The cases as one file: each case's functions renamed with its index
    (k_I, h_I, h0_I, g_I), so that they stand apart. Returns the text and,
    per case, its first and last line."""
    text, spans, line = "", [], 1
    for i, (_, src, _) in enumerate(cases):
        src = re.sub(r"\b(k|h|h0|g)\b(?=\s*\()",
                     lambda m, i=i: f"{m.group(1)}_{i}", src) + "\n"
        n = src.count("\n")
        spans.append((line, line + n - 1))
        text += src
        line += n
    return text, spans


def words(stderr):
    # The tool's advice on grid-stride loops is no word about the case.
    return [line for line in stderr.splitlines() if "grid-stride" not in line]


def alone(tool, path, always):
    """Runs the tool on one case's file: None if it did as the case must,
    else why not."""
    proc = subprocess.run([tool, path, "-o", path + ".out.cl"],
                          capture_output=True, text=True, check=False)
    said = words(proc.stderr)
    if always:
        ok = proc.returncode == 0 and not said
    else:
        ok = proc.returncode == 1 and any(
            line.startswith(f"{path}:") and ": error: " in line
            for line in said)
    return None if ok else f"exit {proc.returncode}" + "".join(
        f"\n  {line}" for line in said[:3])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tool", required=True)
    parser.add_argument("--work", required=True)
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    every = list(cases())
    for i, (_, src, _) in enumerate(every):
        with open(os.path.join(args.work, f"case{i}.cl"), "w",
                  encoding="utf-8") as out:
            out.write(src)
    # Two runs of the tool check them all: the cases to accept in one file,
    # which must be rewritten whole without a word, and the cases to refuse
    # in another, each of which must have an error on its own lines. A
    # case the run of its file does not bear out fails, and runs alone to
    # say more; where the cases to accept were refused for some of them,
    # each of the others runs alone.
    wrong = {}
    for always in (True, False):
        group = [i for i, case in enumerate(every) if case[2] == always]
        text, spans = together([every[i] for i in group])
        path = os.path.join(args.work,
                            "accept.cl" if always else "refuse.cl")
        with open(path, "w", encoding="utf-8") as out:
            out.write(text)
        proc = subprocess.run([args.tool, path, "-o", path + ".out.cl"],
                              capture_output=True, text=True, check=False)
        said = words(proc.stderr)
        lines = [(int(m.group(1)), m.group(2)) for m in
                 (re.match(re.escape(path) + r":(\d+):\d+: (\w+): ", line)
                  for line in said) if m]
        output = ""
        if always and proc.returncode == 0:
            with open(path + ".out.cl", encoding="utf-8") as f:
                output = f.read()
        # A word on no case's lines is held against every case.
        stray = len(said) > sum(
            1 for line, _ in lines
            if any(first <= line <= last for first, last in spans))
        for i, (first, last) in zip(group, spans):
            mine = [kind for line, kind in lines if first <= line <= last]
            if not always:
                if proc.returncode != 1 or "error" not in mine:
                    wrong[i] = (f"in refuse.cl: exit {proc.returncode}, no "
                                f"error in lines {first}-{last}")
            elif mine or stray:
                wrong[i] = (f"in accept.cl: exit {proc.returncode}; said "
                            f"on its lines: {', '.join(mine) or 'nothing'}"
                            + ("; and lines on no case's" if stray else ""))
            elif proc.returncode != 0:
                # The file was refused for other cases: this one alone.
                why = alone(args.tool, os.path.join(args.work, f"case{i}.cl"),
                            always)
                if why:
                    wrong[i] = "alone: " + why
            elif not re.search(rf"kernel void k_{i}\([^)]*gsync_state\)",
                               output):
                wrong[i] = f"in accept.cl: accepted, but k_{i} not rewritten"
    for i, (label, _, always) in enumerate(every):
        if i in wrong and wrong[i].startswith("alone: "):
            print(f"FAIL {label} (case{i}.cl): {wrong[i]}")
        elif i in wrong:
            more = alone(args.tool, os.path.join(args.work, f"case{i}.cl"),
                         always)
            print(f"FAIL {label} (case{i}.cl): {wrong[i]}; alone: "
                  + (more or "as it must"))
    accepted = sum(1 for case in every if case[2])
    print(f"barrier places: {accepted} to accept, {len(every) - accepted} "
          f"to refuse, {len(wrong)} failed")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
