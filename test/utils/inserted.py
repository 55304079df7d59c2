#!/usr/bin/env python3
"""Lists the conditional expressions (?:) that gsync-rewrite put into a
user's code: the tokens of OUT.cl after its first #line directive (the
input's code, with the tool's edits) that a token diff against IN.cl
finds inserted or replaced.

usage: inserted.py IN.cl OUT.cl
       inserted.py --tool GSYNC_REWRITE FILE.cl...
The second form rewrites each file with --inline-includes (and no other
option) and checks it against the file with its quoted includes put in
its place as the tool does; a file the tool does not rewrite is named
("not rewritten: NAME") and left out.

Prints one line per '?' the tool added, with the tokens around it, then
"inserted conditional expressions: N"; exits 1 if N > 0. An output that
is its input byte for byte (no global_barrier()) has none. In the first
form, code of a header the rewrite put into the output counts as added:
give it inputs without #include.

Why: at -cl-opt-disable clang writes a conditional expression as two
branches and a phi, and PoCL 5.0 lost a late return's flag through the
one the tool used to reset it with (docs/pocl.md, section 8). The code
the tool adds to a user's function is arithmetic, calls, and the
branches it means: the guards of skipped code and of loops.
"""
import difflib
import os
import re
import subprocess
import sys
import tempfile

TOKEN = re.compile(r"//[^\n]*|/\*.*?\*/|[A-Za-z_]\w*|\d[\w.]*|&&|\|\||"
                   r"[=!<>*/%+\-&|^]=|<<|>>|->|\+\+|--|\S", re.S)


def tokens(text):
    """The tokens of text, without comments or #line directives."""
    text = re.sub(r"^#line [^\n]*\n", "", text, flags=re.M)
    return [t for t in TOKEN.findall(text) if not t.startswith(("//", "/*"))]


def added(src, out, name):
    """The tool's '?'s in out, the rewrite of src, as lines to print."""
    m = re.search(r"^#line 1 ", out, re.M)
    if not m and out == src:
        return []  # no global_barrier(): the file passes through as it is
    if not m:
        sys.exit(f"{name}: no #line directive: not a rewritten output")
    a, b = tokens(src), tokens(out[m.start():])
    found = []
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for op, _, _, j1, j2 in matcher.get_opcodes():
        if op in ("insert", "replace"):
            found += [f"added in {name}: " + " ".join(b[max(0, j - 8):j + 8])
                      for j in range(j1, j2) if b[j] == "?"]
    return found


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def expand(path):
    """path's text with each #include "NAME" of a file beside it replaced
    by that file's text, expanded too: the input as --inline-includes
    puts the headers' code into the output."""
    folder = os.path.dirname(os.path.abspath(path))

    def one(m):
        name = os.path.join(folder, m.group(1))
        return expand(name) if os.path.isfile(name) else m.group(0)
    return re.sub(r'^[ \t]*#[ \t]*include[ \t]*"([^"]+)"[^\n]*$', one,
                  read(path), flags=re.M)


def main():
    args = sys.argv[1:]
    found, checked = [], 0
    usage = "\n".join(__doc__.strip().splitlines()[5:7])
    if args[:1] == ["--tool"]:
        if len(args) < 3:
            sys.exit(usage)
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "out.cl")
            for path in args[2:]:
                r = subprocess.run([args[1], "--inline-includes", path,
                                    "-o", out],
                                   capture_output=True, text=True)
                if r.returncode != 0:
                    # Named, for the test to check which: a kernel that
                    # needs build options of its own, or is refused.
                    print(f"not rewritten: {os.path.basename(path)}")
                    continue
                found += added(expand(path), read(out), path)
                checked += 1
        print(f"checked: {checked} files")
    elif len(args) == 2:
        found = added(read(args[0]), read(args[1]), args[1])
    else:
        sys.exit(usage)
    for line in found:
        print(line)
    print(f"inserted conditional expressions: {len(found)}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
