#!/usr/bin/env python3
"""Line-ending helpers for the tests.

usage: crlf.py to FILE      print FILE with every LF made CRLF
       crlf.py count FILE   print "CRLF: N, bare LF: M" for FILE
"""
import sys


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("to", "count"):
        sys.exit(__doc__.strip().splitlines()[2])
    with open(sys.argv[2], "rb") as f:
        data = f.read()
    if sys.argv[1] == "to":
        sys.stdout.buffer.write(data.replace(b"\r\n", b"\n")
                                .replace(b"\n", b"\r\n"))
    else:
        crlf = data.count(b"\r\n")
        lf = data.count(b"\n") - crlf
        print(f"CRLF: {crlf}, bare LF: {lf}")


if __name__ == "__main__":
    main()
