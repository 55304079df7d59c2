#!/usr/bin/env python3
"""Runs pairs of gsync-rewrite at once, with the same -o and --constraints
and different barriers, and checks after each pair that the output and the
constraints left in place belong together (one fingerprint).

usage: race.py ROUNDS GSYNC INPUT
Prints "rounds: N, mismatched pairs: M, winners: B1 B2 ..." (the barrier
whose files stood after each round, once each).
"""
import json
import re
import subprocess
import sys


def main():
    rounds, gsync, src = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    barriers = ["flip", "atomic-or"]
    bad, winners = 0, set()
    for _ in range(rounds):
        procs = [subprocess.Popen([gsync, "--barrier=" + b, src, "-o", "out.cl",
                                   "--constraints", "out.json"])
                 for b in barriers]
        if any(p.wait() != 0 for p in procs):
            sys.exit("race.py: a run failed")
        out = open("out.cl").read()
        doc = json.load(open("out.json"))
        fp = re.search(r'^#define gsync_fingerprint "([0-9a-f]+)"', out, re.M)
        if not fp or fp.group(1) != doc["fingerprint"]:
            bad += 1
        winners.add(doc["barrier"])
    print("rounds: %d, mismatched pairs: %d, winners: %s"
          % (rounds, bad, " ".join(sorted(winners))))


main()
