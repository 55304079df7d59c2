#!/usr/bin/env python3
"""Writes a seed corpus for cli-fuzzer into DIR: command lines that name
outputs in every way the sandbox allows, encoded as cli-fuzzer reads its
input (the word lists are read from cli-fuzzer.c, so they cannot drift).

usage: seed-cli.py DIR
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

LINES = [
    "in.cl -o a",
    "in.cl -o a --constraints b",
    "in.cl -o a --constraints b -MF d/x",
    "in.cl -o d/y -MD",
    "in.cl -o a --constraints a",
    "in.cl -o ./a -MF a",
    "in.cl -o lnk --constraints dang",
    "in.cl -o dirlnk",
    "in.cl -o d/ --constraints b",
    "in.cl -o null -MF null --constraints b",
    "in.cl -o full --constraints b",
    "in.cl -o ro",
    "in.cl -o loop",
    "in.cl -o nodir/x",
    "in.cl -o in.cl",
    "in.cl --constraints -",
    "in.cl -o a --constraints -",
    "in.cl -o d/../new -MF new",
    "in.cl -MD",
    "in.cl -MP -MT a",
    "- -o a -MF - ",
    "in.cl -o",
    "--spin-limit= 4000000001 in.cl",
]
JOINED = [("-MF", "a"), ("--constraints=", "b"), ("--output=", "d/x"),
          ("-o", "new")]


def words(name):
    src = open(os.path.join(HERE, "cli-fuzzer.c")).read()
    body = re.search(r"%s\[\] = \{(.*?)\};" % name, src, re.S).group(1)
    return re.findall(r'"((?:[^"\\]|\\.)*)"', body)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    opts, names = words("options"), words("names")

    def code(w):
        if w in opts:
            return bytes([opts.index(w)])
        return bytes([128 + names.index(w)])

    seeds = [b"".join(code(w) for w in line.split()) for line in LINES]
    for a, b in JOINED:
        seeds.append(code("in.cl") + b"\xff" + code(a) + code(b))
    for i, s in enumerate(seeds):
        with open(os.path.join(out, "seed-%d" % i), "wb") as f:
            f.write(s)
    print("seed-cli.py: %d seeds in %s" % (len(seeds), out))


main()
