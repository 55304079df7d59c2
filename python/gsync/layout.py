"""The state buffer's layout, read from the one table of it.

include/gsync-state.def names every word of a rewritten kernel's state
buffer that more than one party uses; the build copies it beside this
module (and cmake --install installs it there), and this module reads it,
so Python takes its word numbers from where the rules, the engine and
libgsync take theirs:

  WORD["abort_kind"]   the number of a word, or a region's first word
  WORDS["abort"]       a region's length in words
  VALUE["cancelled"]   a value the table names

(The table's hash, which an output's layout string carries, libgsync
checks: include/gsync-state.h.)
"""
import os
import re

_HERE = os.path.dirname(os.path.abspath(__file__))
# Beside this module where it is built or installed; in the source tree
# (python/gsync, imported from there by the project's own scripts), the
# table itself.
_DEF = next((p for p in (os.path.join(_HERE, "gsync-state.def"),
                         os.path.join(_HERE, "..", "..", "include",
                                      "gsync-state.def"))
             if os.path.exists(p)), os.path.join(_HERE, "gsync-state.def"))
_ENTRY = re.compile(r"^GSYNC_STATE_(REGION|WORD|VALUE)\(([^\"]*?),\s*\"",
                    re.M)


def _read(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    word, words, value = {}, {}, {}
    for kind, args in _ENTRY.findall(text):
        a = [x.strip() for x in args.split(",")]
        if kind == "REGION":
            name, first, length = a[0], a[1], a[2]
            word[name], words[name] = int(first), int(length)
        elif kind == "WORD":
            name, number = a[0], a[1]
            word[name] = int(number)
        else:
            name, number = a[1], a[2]
            value[name] = int(number)
    return word, words, value


WORD, WORDS, VALUE = _read(_DEF)
