"""test/utils/layers.py SRC_ROOT [runtime]: the files call only down.

Reads a layer table of docs/design.md (layer number, then the files in
backquotes) and the sources it covers: the engine's, lib/*.c, under
"Layers", or with "runtime", libgsync's, runtime/*.c, under "libgsync's
files". Each function of the form gsri_NAME (or a public gsr_NAME; in
runtime/, gsli_NAME or a public gsync_NAME) defined outside a static
declaration belongs to its file; a call of it from a file of a lower
layer is a call upward, and calls that lead from a file back to itself
through others are a cycle. Prints each one and each file the table
leaves out, then "layers: N files, F calls upward"; exits 1 if there is
any.
"""
import glob
import os
import re
import sys

# What each check reads: the source folder, the heading of its table in
# docs/design.md, and the names that its files share.
CHECKS = {
    "lib": ("lib", "## Layers", r"gsri?_\w+"),
    "runtime": ("runtime", "## libgsync's files", r"gsli_\w+|gsync_\w+"),
}


def cycles(calls):
    """The cycles of the graph calls (file -> set of files), one list of
    files for each strongly connected component of more than one."""
    index, low, stack, found = {}, {}, [], []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(calls.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for v in sorted(calls):
        if v not in index:
            visit(v)
    return found


def main():
    src = sys.argv[1]
    folder, heading, names = CHECKS[sys.argv[2] if len(sys.argv) > 2 else "lib"]
    with open(os.path.join(src, "docs", "design.md"), encoding="utf-8") as f:
        doc = f.read()
    table = doc[doc.index(heading + "\n"):]
    table = table[:table.index("\n## ", 1)]
    layer = {}
    for m in re.finditer(r"^\| (\d+) \| ([^|]*)\|", table, re.M):
        for name in re.findall(r"`([\w.-]+\.c)`", m.group(2)):
            layer[name] = int(m.group(1))
    text, defs = {}, {}
    for path in sorted(glob.glob(os.path.join(src, folder, "*.c"))):
        name = os.path.basename(path)
        with open(path, encoding="utf-8") as f:
            # Comments and strings name functions without calling them.
            body = re.sub(r"/\*.*?\*/|//[^\n]*|\"(\\\\.|[^\"\\\\\n])*\"", " ",
                          f.read(), flags=re.S)
        text[name] = body
        for d in re.finditer(r"^(?!static)[a-z][\w \*]*?\b(%s)\(" % names,
                             body, re.M):
            defs.setdefault(d.group(1), name)
    problems = ['%s/%s: not in the "%s" table of docs/design.md'
                % (folder, name, heading[3:]) for name in text
                if name not in layer]
    upward = 0
    calls = {}
    for name, body in text.items():
        for fn in sorted(set(re.findall(r"\b(%s)\(" % names, body))):
            owner = defs.get(fn)
            if owner and owner != name:
                calls.setdefault(name, set()).add(owner)
            if (owner and owner != name and name in layer and owner in layer
                    and layer[owner] > layer[name]):
                upward += 1
                problems.append("%s/%s (layer %d) calls %s of %s/%s (layer %d)"
                                % (folder, name, layer[name], fn, folder,
                                   owner, layer[owner]))
    for part in cycles(calls):
        problems.append("a cycle of calls among " + ", ".join(part))
    for p in problems:
        print(p)
    print("layers: %d files, %d calls upward" % (len(text), upward))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
