#!/usr/bin/env python3
"""The state table (include/gsync-state.def) against everything that must
follow it.

usage: state-table.py ROOT [--write-docs]

Reads the table as gsync.layout does and checks, printing one line per
problem and a summary "state table: N entries, N problems":
  - the table itself: regions in order and apart, each word inside a
    region and after it, each value of a word the table names, no name
    twice, numbers in decimal;
  - docs/constraints.md: its tables of the state buffer, between the
    markers below, are what this script generates from the table (with
    --write-docs it writes them there instead);
  - the code: no state word is numbered by hand in rewrite-rules/, lib/,
    runtime/ or python/gsync/. A word is numbered by hand where a state
    pointer is indexed or offset by a literal (s[5], c->state + 10,
    state[24], words[10]), or where a comment or a name says "word N" or
    "words N-M" of the state. A rule's own words (gsync_rule_words(c)[k],
    the "rule words" of the barrier rules, a discovery rule's offsets in
    its region) are the rule's and are not flagged.
Exit status 1 when there is a problem.
"""
import os
import re
import sys

BEGIN = ("<!-- The tables below are generated from include/gsync-state.def "
         "by test/utils/state-table.py --write-docs. -->")
END = "<!-- End of the generated tables. -->"

ENTRY = re.compile(r"^GSYNC_STATE_(REGION|WORD|VALUE)\((.*)\)\s*$")


def parse(path):
    """The table's entries: dicts with kind, name, numbers and texts."""
    entries = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            m = ENTRY.match(line)
            if not m:
                continue
            kind, args = m.groups()
            texts = re.findall(r'"((?:[^"\\]|\\.)*)"', args)
            plain = [a.strip() for a in re.sub(r'"(?:[^"\\]|\\.)*"', "",
                                               args).split(",") if a.strip()]
            e = {"kind": kind, "line": n, "raw": plain}
            if kind == "REGION":
                e.update(name=plain[0], first=plain[1], words=plain[2],
                         owner=texts[0], text=texts[1])
            elif kind == "WORD":
                e.update(name=plain[0], word=plain[1], text=texts[0])
            else:
                e.update(of=plain[0], name=plain[1], value=plain[2],
                         text=texts[0])
            entries.append(e)
    return entries


def check_table(entries):
    """Problems of the table itself."""
    bad, names, words, region, end = [], set(), {}, None, 0
    for e in entries:
        where = f"include/gsync-state.def:{e['line']}"
        for x in e["raw"][1:] if e["kind"] != "VALUE" else e["raw"][2:]:
            if not re.fullmatch(r"0|[1-9][0-9]*", x):
                bad.append(f"{where}: '{x}' is not a decimal number")
        # Words and regions share one namespace, values another.
        key = (e["kind"] == "VALUE", e["name"])
        if key in names:
            bad.append(f"{where}: '{e['name']}' is named twice")
        names.add(key)
        if e["kind"] == "REGION":
            first = int(e["first"])
            if first < end:
                bad.append(f"{where}: region '{e['name']}' starts at word "
                           f"{first}, inside or before the one above")
            region = e
            end = first + int(e["words"]) if int(e["words"]) else 1 << 32
        elif e["kind"] == "WORD":
            w = int(e["word"])
            if region is None or not int(region["first"]) <= w < end:
                bad.append(f"{where}: word '{e['name']}' ({w}) is not inside "
                           "the region above it")
            words[e["name"]] = w
        elif e["of"] not in words and not any(
                x["kind"] == "REGION" and x["name"] == e["of"]
                for x in entries):
            bad.append(f"{where}: value '{e['name']}' is of '{e['of']}', "
                       "which the table does not name above")
    return bad


def span(first, last):
    return str(first) if first == last else f"{first}–{last}"


def docs(entries):
    """The generated tables, as Markdown."""
    regions = [e for e in entries if e["kind"] == "REGION"]
    out = ["| words | owner | contents |", "|---|---|---|"]
    at = 0
    for r in regions:
        first, n = int(r["first"]), int(r["words"])
        if first > at:
            out.append(f"| {span(at, first - 1)} | nobody | unused |")
        last = f"{first} on" if n == 0 else span(first, first + n - 1)
        out.append(f"| {last} | {r['owner']} | `{r['name']}`: {r['text']} |")
        at = first + n
    for r in regions:
        inside = []
        for e in entries[entries.index(r) + 1:]:
            if e["kind"] == "REGION":
                break
            inside.append(e)
        if not [e for e in inside if e["kind"] == "WORD"]:
            continue
        out += ["", f"Region `{r['name']}`:", "",
                "| word | name | contents |", "|---|---|---|"]
        for e in inside:
            if e["kind"] == "WORD":
                values = [v for v in inside
                          if v["kind"] == "VALUE" and v["of"] == e["name"]]
                text = e["text"]
                if values:
                    text += "; its values: " + "; ".join(
                        f"{v['value']} `{v['name']}`, {v['text']}"
                        for v in values)
                out.append(f"| {e['word']} | `{e['name']}` | {text} |")
    return "\n".join(out) + "\n"


def check_docs(root, entries, write):
    """Problems of docs/constraints.md's generated tables."""
    path = os.path.join(root, "docs", "constraints.md")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if BEGIN not in text or END not in text:
        return [f"docs/constraints.md: the markers of the generated tables "
                "are missing"]
    head, rest = text.split(BEGIN, 1)
    body, tail = rest.split(END, 1)
    want = "\n" + docs(entries)
    if body == want:
        return []
    if write:
        with open(path, "w", encoding="utf-8") as f:
            f.write(head + BEGIN + want + END + tail)
        return []
    return ["docs/constraints.md: the tables of the state buffer differ from "
            "include/gsync-state.def (run test/utils/state-table.py ROOT "
            "--write-docs)"]


# Indexing or offsetting a state pointer by a literal, and constants that
# copy the table's numbers, as each language's code names the state.
ENUM = re.compile(r"\b(?:WATCH|ABORT|FIT|ABORTED)_[A-Z_]*\s*=\s*\d+")
CODE = {
    "rewrite-rules": [
        re.compile(r"(?:\bs|->state|\bw|\brec)\s*\[\s*\d+u?\s*\]"),
        re.compile(r"(?:\bs|->state)\s*\+\s*\d+u?\b")],
    "lib": [re.compile(r"\bGSR_\w*WORD\w*\s*=?\s*\d+")],
    "runtime": [
        re.compile(r"(?:\bstate|->state)\s*\[\s*\d+\s*\]"),
        re.compile(r"(?<!t )(?<!\]\[)\bwords\s*\[\s*\d+\s*\]"), ENUM,
        re.compile(r"_offset\s*(?:[!<>]=?|==)\s*\d+")],
    "python/gsync": [
        re.compile(r"\b(?:words|rec|s)\s*\[\s*\d+\s*\]"),
        re.compile(r"\brange\(\s*\d+\s*,\s*\d+\s*\)"), ENUM,
        re.compile(r"_offset\s*(?:[!<>]=?|==)\s*\d+")],
}
# Prose that numbers a state word ("word 24", "words 18-21", "state words
# 6-8"); a rule's own ("rule word 0", "Word 0, the poll") is the rule's.
PROSE = re.compile(r"(?<!rule )\b(?:state )?words? (\d+)(?:\s*[-–]\s*\d+)?\b",
                   re.I)


def check_code(root, entries):
    """Places that number a state word by hand."""
    numbers = set()
    for e in entries:
        if e["kind"] == "REGION":
            numbers.add(int(e["first"]))
        elif e["kind"] == "WORD":
            numbers.add(int(e["word"]))
    bad = []
    for d, exts in (("rewrite-rules", (".cl",)), ("lib", (".c", ".h")),
                    ("runtime", (".c", ".h")), ("python/gsync", (".py",))):
        base = os.path.join(root, d)
        for name in sorted(os.listdir(base)):
            if not name.endswith(exts):
                continue
            with open(os.path.join(base, name), encoding="utf-8") as f:
                lines = f.read().split("\n")
            for n, line in enumerate(lines, 1):
                hits = [m.group(0) for p in CODE[d] for m in p.finditer(line)]
                hits += [m.group(0) for m in PROSE.finditer(line)
                         if int(m.group(1)) in numbers and
                         "rule word" not in line.lower()]
                for h in hits:
                    bad.append(f"{d}/{name}:{n}: '{h}' numbers a state word "
                               "by hand: name it from the state table")
    return bad


def main():
    if len(sys.argv) not in (2, 3) or (len(sys.argv) == 3 and
                                       sys.argv[2] != "--write-docs"):
        sys.exit(__doc__.strip().splitlines()[4])
    root = sys.argv[1]
    entries = parse(os.path.join(root, "include", "gsync-state.def"))
    bad = check_table(entries)
    bad += check_docs(root, entries, len(sys.argv) == 3)
    bad += check_code(root, entries)
    for b in bad:
        print(b)
    print(f"state table: {len(entries)} entries, {len(bad)} problems")
    sys.exit(1 if bad else 0)


main()
