#!/usr/bin/env python3
"""Writes an input whose global_barrier() sits DEPTH levels deep.

usage: gen-deep.py macros DEPTH
       gen-deep.py calls DEPTH
       gen-deep.py calls-reversed DEPTH
       gen-deep.py varying DEPTH

macros: M0() expands to global_barrier() and each M<i>() to M<i-1>();
        G<i> likewise wraps get_global_id(0); the kernel uses the last of
        each. Both bodies must be rewritten where they are written.
calls:  f0() calls global_barrier() and each f<i>() calls f<i-1>(); the
        kernel calls the last, so every function takes the context.
calls-reversed: the same, after prototypes from the last function down to
        f0, so that callers come before their callees.
varying: the kernel passes get_global_id(0) down the chain of calls, and
        f0 calls global_barrier() under a condition on it: an error.
Prints the file to standard output.
"""
import sys


def main():
    if len(sys.argv) != 3 or \
            sys.argv[1] not in ("macros", "calls", "calls-reversed",
                                "varying"):
        sys.exit(__doc__.strip().splitlines()[2])
    depth = int(sys.argv[2])
    last = depth - 1
    out = [f"// {depth} levels deep: generated, do not edit.\n"]
    if sys.argv[1] == "macros":
        out.append("#define M0() global_barrier()\n")
        out.append("#define G0 get_global_id(0)\n")
        for i in range(1, depth):
            out.append(f"#define M{i}() M{i - 1}()\n")
            out.append(f"#define G{i} G{i - 1} + {i % 2}\n")
        out.append(f"kernel void k(global uint *a) {{\n"
                   f"  a[G{last}] = 1;\n"
                   f"  M{last}();\n"
                   f"  a[get_global_id(0)] += 1;\n"
                   f"}}\n")
    elif sys.argv[1] == "varying":
        out.append("void f0(global uint *a, uint x) {\n"
                   "  if (x < 4)\n"
                   "    global_barrier();\n"
                   "}\n")
        for i in range(1, depth):
            out.append(f"void f{i}(global uint *a, uint x) {{ "
                       f"f{i - 1}(a, x + 1); }}\n")
        out.append(f"kernel void k(global uint *a) {{ "
                   f"f{last}(a, get_global_id(0)); }}\n")
    else:
        if sys.argv[1] == "calls-reversed":
            out += [f"void f{i}(global uint *a);\n" for i in range(last, -1, -1)]
        out.append("void f0(global uint *a) { global_barrier(); }\n")
        for i in range(1, depth):
            out.append(f"void f{i}(global uint *a) {{ a[{i % 7}] += 1; "
                       f"f{i - 1}(a); }}\n")
        out.append(f"kernel void k(global uint *a) {{ f{last}(a); }}\n")
    sys.stdout.write("".join(out))


if __name__ == "__main__":
    main()
