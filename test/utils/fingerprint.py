#!/usr/bin/env python3
"""Checks the fingerprint gsync-rewrite writes (docs/constraints.md).

usage: fingerprint.py [--seal] OUT.cl C.json

Recomputes the fingerprint of OUT.cl and C.json as the docs define it,
64-bit FNV-1a over the output's bytes, a NUL, and the constraints in
json-c's compact form, both with the fingerprint itself replaced by 16
zeros, and prints one line per check:
  source: FP       the value of the output's gsync_fingerprint line
  json: FP         the constraints' "fingerprint"
  hash: FP         the recomputed hash
  layout: same|differs   the output's gsync_state_layout vs "state_layout"

With --seal, writes the recomputed fingerprint (and the output's length)
into both files instead: for diagnostic variants of an output edited by
hand (bench/results/raw/commands-*.sh), which libgsync otherwise refuses
as changed after the rewrite. Nothing the tool writes needs it.
"""
import json
import re
import sys


def fnv1a64(data):
    h = 0xcbf29ce484222325
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return "%016x" % h


def main():
    args = sys.argv[1:]
    seal = args[:1] == ["--seal"]
    if seal:
        args = args[1:]
    if len(args) != 2:
        sys.exit(__doc__.strip().splitlines()[2])
    out = open(args[0], "rb").read()
    doc = json.load(open(args[1]))
    m = re.search(rb'^#define gsync_fingerprint "([0-9a-f]{16})"', out, re.M)
    lay = re.search(rb'^#define gsync_state_layout "([^"\n]*)"', out, re.M)
    fp = m.group(1).decode() if m else "none"
    zeroed = out[:m.start(1)] + b"0" * 16 + out[m.end(1):] if m else out
    if seal:
        doc["output_bytes"] = len(out)
    if len(out) != doc.get("output_bytes"):
        print("output_bytes: differs", len(out), doc.get("output_bytes"))
    canon = dict(doc, fingerprint="0" * 16)
    canon = json.dumps(canon, separators=(",", ":"),
                       ensure_ascii=False).encode("utf-8")
    hashed = fnv1a64(zeroed + b"\0" + canon)
    if seal:
        if not m:
            sys.exit(f"{args[0]}: no gsync_fingerprint line to seal")
        with open(args[0], "wb") as f:
            f.write(out[:m.start(1)] + hashed.encode() + out[m.end(1):])
        with open(args[1], "w") as f:
            json.dump(dict(doc, fingerprint=hashed), f, indent=2)
        print("sealed:", hashed)
        return
    print("source:", fp)
    print("json:", doc.get("fingerprint", "none"))
    print("hash:", hashed)
    same = lay and lay.group(1).decode() == doc.get("state_layout")
    print("layout:", "same" if same else "differs")


main()
