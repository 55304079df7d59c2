#!/usr/bin/env python3
"""Lists the options that `gsync-rewrite --help` or the manual page names,
one per line, sorted, so that test/cli/man.test can compare the two.

usage: options.py help FILE   (the text --help printed)
       options.py man FILE    (docs/gsync-rewrite.1)

An option is named by the word that starts with a dash, up to an '=' or a
'[': "-D NAME[=VALUE]" is -D, "--barrier=NAME" is --barrier,
"-cl-std=CLx.y" is -cl-std, "-MD," is -MD. (So both texts write a value
apart from a short option's name: "-D NAME", not "-DNAME".)
  help: the option column of the lines under "options:" that start with
        two spaces and a dash (up to two spaces before the description);
  man:  the tag line after each .TP of the OPTIONS section, with roff
        escapes and quotes removed.
"""
import re
import sys

NAME = re.compile(r"^(--?[A-Za-z][A-Za-z0-9-]*)")


def names(text):
    """The option names of the words of text that start with a dash."""
    out = set()
    for word in re.split(r"[\s,]+", text):
        m = NAME.match(word)
        if m:
            out.add(m.group(1).rstrip("-"))
    return out


def from_help(lines):
    out, inside = set(), False
    for line in lines:
        if not line.strip():
            continue
        if not line.startswith(" "):
            inside = line.rstrip() == "options:"
            continue
        if inside and line.startswith("  -"):
            out |= names(re.split(r"\s{2,}", line.strip())[0])
    return out


def from_man(lines):
    out, inside, tag = set(), False, False
    for line in lines:
        if line.startswith(".SH"):
            inside = line.split(None, 1)[1].strip().strip('"') == "OPTIONS"
            continue
        if not inside:
            continue
        if line.startswith(".TP"):
            tag = True
            continue
        if tag:
            tag = False
            text = re.sub(r"^\.[A-Z]+\s*", "", line)    # the font macro
            text = re.sub(r"\\f[A-Z]|\\f\(..|\\c", "", text)  # font escapes
            text = text.replace("\\-", "-").replace('"', " ")
            out |= names(text)
    return out


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("help", "man"):
        sys.exit(__doc__)
    with open(sys.argv[2], encoding="utf-8") as f:
        lines = f.read().splitlines()
    found = from_help(lines) if sys.argv[1] == "help" else from_man(lines)
    if not found:
        sys.exit("options.py: no options found in %s" % sys.argv[2])
    print("\n".join(sorted(found)))


if __name__ == "__main__":
    main()
