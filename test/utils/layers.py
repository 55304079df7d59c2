"""test/utils/layers.py SRC_ROOT: the engine's files call only down.

Reads the "Layers" table of docs/design.md (layer number, then the files
in backquotes) and the engine's sources, lib/*.c. Each function of the
form gsri_NAME (or a public gsr_NAME) defined outside a static
declaration belongs to its file; a
call of it from a file of a lower layer is a call upward. Prints each one
and each lib/*.c file the table leaves out, then "layers: N files, F
calls upward"; exits 1 if there is either.
"""
import glob
import os
import re
import sys


def main():
    src = sys.argv[1]
    with open(os.path.join(src, "docs", "design.md"), encoding="utf-8") as f:
        doc = f.read()
    table = doc[doc.index("## Layers"):]
    table = table[:table.index("\n## ", 1)]
    layer = {}
    for m in re.finditer(r"^\| (\d+) \| ([^|]*)\|", table, re.M):
        for name in re.findall(r"`([\w.-]+\.c)`", m.group(2)):
            layer[name] = int(m.group(1))
    text, defs = {}, {}
    for path in sorted(glob.glob(os.path.join(src, "lib", "*.c"))):
        name = os.path.basename(path)
        with open(path, encoding="utf-8") as f:
            # Comments and strings name functions without calling them.
            body = re.sub(r"/\*.*?\*/|//[^\n]*|\"(\\\\.|[^\"\\\\\n])*\"", " ",
                          f.read(), flags=re.S)
        text[name] = body
        for d in re.finditer(r"^(?!static)[a-z][\w \*]*?\b(gsri?_\w+)\(", body,
                             re.M):
            defs.setdefault(d.group(1), name)
    problems = [name + ": not in the Layers table of docs/design.md"
                for name in text if name not in layer]
    upward = 0
    for name, body in text.items():
        for fn in sorted(set(re.findall(r"\b(gsri?_\w+)\(", body))):
            owner = defs.get(fn)
            if (owner and owner != name and name in layer and owner in layer
                    and layer[owner] > layer[name]):
                upward += 1
                problems.append("lib/%s (layer %d) calls %s of lib/%s (layer %d)"
                                % (name, layer[name], fn, owner, layer[owner]))
    for p in problems:
        print(p)
    print("layers: %d files, %d calls upward" % (len(text), upward))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
