#!/usr/bin/env python3
"""Writes a long OpenCL C file: LINES lines (at least) of helpers and
kernels, each kernel calling the helper before it.

usage: gen-long.py LINES [--barrier]

With --barrier every tenth kernel calls global_barrier() at its start and
once more between two loops, so that the rewrite has sites spread over the
whole file. Prints the file to standard output.
"""
import sys


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__.strip().splitlines()[2])
    lines = int(sys.argv[1])
    barrier = "--barrier" in sys.argv[2:]
    out = ["// A long input for the scale tests: generated, do not edit.\n"]
    n = 0
    i = 0
    while n < lines:
        b = "  global_barrier();\n" if barrier and i % 10 == 0 else ""
        block = (
            f"float helper_{i}(global const float *x, uint n) {{\n"
            f"  float s = 0.0f;\n"
            f"  for (uint k = 0; k < n; k++)\n"
            f"    s += x[k] * {i % 7 + 1}.0f;\n"
            f"  return s;\n"
            f"}}\n"
            f"\n"
            f"kernel void k_{i}(global float *y, global const float *x, uint n) {{\n"
            f"{b}"
            f"  size_t g = get_global_id(0);\n"
            f"  /* block {i}: one helper call per kernel */\n"
            f"  y[g] = helper_{i}(x, n) + (float)get_group_id(0);\n"
            f"{b}"
            f"  y[g] += (float)get_num_groups(0);\n"
            f"}}\n"
            f"\n")
        out.append(block)
        n += block.count("\n")
        i += 1
    sys.stdout.write("".join(out))


if __name__ == "__main__":
    main()
