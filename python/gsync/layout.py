"""The state buffer's layout, read from the one table of it.

include/gsync-state.def names every word of a rewritten kernel's state
buffer that more than one party uses; the build copies it beside this
module (and cmake --install installs it there), and this module reads it,
so Python takes its word numbers from where the rules, the engine and
libgsync take theirs:

  WORD["abort_kind"]   the number of a word, or a region's first word
  WORDS["abort"]       a region's length in words
  VALUE["cancelled"]   a value the table names
  TABLE_HASH           the table's hash, as an output's layout string
                       carries it ("table=H"): 64-bit FNV-1a over the
                       entries as "R name first words;W name word;
                       V word name value;" (include/gsync-state.h)
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


def fnv1a64(data, h=0xcbf29ce484222325):
    """64-bit FNV-1a of the bytes data, continuing from h."""
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def _read(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    word, words, value, canon = {}, {}, {}, []
    for kind, args in _ENTRY.findall(text):
        a = [x.strip() for x in args.split(",")]
        if kind == "REGION":
            name, first, length = a[0], a[1], a[2]
            word[name], words[name] = int(first), int(length)
            canon.append(f"R {name} {first} {length};")
        elif kind == "WORD":
            name, number = a[0], a[1]
            word[name] = int(number)
            canon.append(f"W {name} {number};")
        else:
            of, name, number = a[0], a[1], a[2]
            value[name] = int(number)
            canon.append(f"V {of} {name} {number};")
    return word, words, value, "%016x" % fnv1a64("".join(canon).encode())


WORD, WORDS, VALUE, TABLE_HASH = _read(_DEF)
