#!/usr/bin/env python3
"""Lists the conditional expressions (?:) that gsync-rewrite put into a
user's code: the tokens of OUT.cl after its first #line directive (the
input's code, with the tool's edits) that a token diff against IN.cl
finds inserted or replaced.

usage: inserted.py IN.cl OUT.cl [IN.cl OUT.cl]...
       inserted.py --tool GSYNC_REWRITE FILE.cl...
The first form checks each OUT.cl against its IN.cl; the second rewrites
each file with --inline-includes (and no other option) and checks the
output. Either checks against the input with its quoted includes (of
files beside it) put in their place, as --inline-includes does; in the
second form a file the tool does not rewrite is named ("not rewritten:
NAME") and left out.

Prints "checked: N files", one line per '?' the tool added, with the
tokens around it, then "inserted conditional expressions: N"; exits 1 if
N > 0. An output that is its input byte for byte (no global_barrier())
has none.

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


def token_lines(text):
    """The tokens of text, without comments or #line directives, one tuple
    per line that has any (a comment's own newlines are kept, so that
    the lines stay)."""
    text = re.sub(r"^#line [^\n]*\n", "", text, flags=re.M)
    text = re.sub(r"//[^\n]*|/\*.*?\*/",
                  lambda m: "\n" * m.group(0).count("\n") or " ", text,
                  flags=re.S)
    lines = (tuple(TOKEN.findall(line)) for line in text.split("\n"))
    return [t for t in lines if t]


def added(src, out, name):
    """The tool's '?'s in out, the rewrite of src, as lines to print. The
    token diff runs line by line first and then within each block of
    lines that differ: the tool keeps the input's lines (#line), and one
    token diff of a whole large output took seconds."""
    m = re.search(r"^#line 1 ", out, re.M)
    if not m and out == src:
        return []  # no global_barrier(): the file passes through as it is
    if not m:
        sys.exit(f"{name}: no #line directive: not a rewritten output")
    la, lb = token_lines(src), token_lines(out[m.start():])
    found = []
    lines = difflib.SequenceMatcher(None, la, lb, autojunk=False)
    for op, i1, i2, j1, j2 in lines.get_opcodes():
        if op == "equal":
            continue
        a = [t for line in la[i1:i2] for t in line]
        b = [t for line in lb[j1:j2] for t in line]
        matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
        for op, _, _, k1, k2 in matcher.get_opcodes():
            if op in ("insert", "replace"):
                context = [t for line in lb[max(0, j1 - 1):j2 + 1]
                           for t in line]
                at = sum(len(line) for line in lb[max(0, j1 - 1):j1])
                found += [f"added in {name}: " +
                          " ".join(context[max(0, at + k - 8):at + k + 8])
                          for k in range(k1, k2) if b[k] == "?"]
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
    elif args and len(args) % 2 == 0:
        for src, out in zip(args[::2], args[1::2]):
            found += added(expand(src), read(out), out)
            checked += 1
        print(f"checked: {checked} files")
    else:
        sys.exit(usage)
    for line in found:
        print(line)
    print(f"inserted conditional expressions: {len(found)}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
