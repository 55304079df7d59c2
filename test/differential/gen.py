"""Random OpenCL C kernels that call global_barrier() only where every
work-item of the launch reaches it, written the way people write them:
`static` and value-returning helpers, convergence loops driven by a
helper's result, work-group reductions through local memory, loops with a
uniform early `break`, uniform branches, and two indexing styles (one
work-item per element behind `if (i < n)`, or grid-stride loops).

Every kernel has the signature
    kernel void k(global int *a, global int *b, global int *f, int n, int k)
and its result is a, b and f[0..2]. Counts go to f[t % 3] in round t,
whose next slot is cleared by work-item 0 before the same barrier, so the
kernel is race-free under a real global barrier.

usage: gen.py SEED   (prints the kernel)"""
import random
import sys


class Kernel:
    """One kernel, drawn from the random stream of its seed."""

    def __init__(self, seed):
        self.r = random.Random(seed)
        self.helpers = []
        self.count = 0
        # One work-item per element (the launch covers n exactly), or
        # grid-stride loops (any number of work-groups is right).
        self.guarded = self.r.random() < 0.3

    def over_items(self, body):
        """A statement that runs body for this work-item's elements i."""
        if self.guarded:
            return f"{{ int i = get_global_id(0); if (i < n) {{ {body} }} }}"
        return ("for (int i = get_global_id(0); i < n; "
                f"i += get_global_size(0)) {{ {body} }}")

    def expr(self):
        c = self.r.randint(1, 7)
        return self.r.choice([
            f"a[(i + {c}) % n] + a[i]",
            f"a[i] * {c} + (a[(i + n - 1) % n] >> 1)",
            f"(a[i] ^ a[(i * {c}) % n]) & 1023",
            f"max(a[i], a[(i + {c}) % n]) - {c}"])

    def step(self):
        """b = f(a) over neighbours; barrier; a = b; barrier."""
        return [self.over_items(f"b[i] = {self.expr()};"), "global_barrier();",
                self.over_items("a[i] = b[i] & 0xffff;"), "global_barrier();"]

    def count_where(self, cond):
        """Statements that leave in v how many elements satisfy cond, the
        same value in every work-item: atomics on global memory, or a
        work-group reduction in local memory first."""
        if self.r.random() < 0.5:
            return ["lb[get_local_id(0)] = 0;",
                    self.over_items(f"if ({cond}) lb[get_local_id(0)] += 1;"),
                    "barrier(CLK_LOCAL_MEM_FENCE);",
                    "if (get_local_id(0) == 0) { int s = 0; "
                    "for (int j = 0; j < get_local_size(0); j++) s += lb[j]; "
                    "atomic_add(&f[*e % 3], s); }",
                    "if (get_global_id(0) == 0) f[(*e + 1) % 3] = 0;",
                    "global_barrier();", "int v = f[*e % 3]; (*e)++;"]
        return [self.over_items(f"if ({cond}) atomic_add(&f[*e % 3], 1);"),
                "if (get_global_id(0) == 0) f[(*e + 1) % 3] = 0;",
                "global_barrier();", "int v = f[*e % 3]; (*e)++;"]

    def params(self, with_k=True):
        k = " int k," if with_k else ""
        return ("global int *a, global int *b, global int *f, local int *lb, "
                f"int n,{k} private int *e")

    def helper(self, depth):
        """A helper that calls the barrier; returns (name, returns int)."""
        r = self.r
        self.count += 1
        name = f"h{self.count}"
        static = "static " if r.random() < 0.6 else ""
        returns = r.choice(["void", "int", "int"]) == "int"
        body = []
        for _ in range(r.randint(1, 2)):
            body += self.block(depth + 1)
        if returns:
            body += self.count_where(r.choice(
                ["a[i] & 1", "a[i] > 100", "a[i] % 3 == 0"]))
            body.append(r.choice(
                ["return v;", "return v > 0 ? v : 0;", "return v != 0;"]))
        kind = "int" if returns else "void"
        self.helpers.append(f"{static}{kind} {name}({self.params()}) {{\n  "
                            + "\n  ".join(body) + "\n}\n")
        return name, returns

    def converge(self):
        """A loop that calls a helper until it reports no more work."""
        r = self.r
        self.count += 1
        name = f"c{self.count}"
        static = "static " if r.random() < 0.6 else ""
        body = ([self.over_items("a[i] = a[i] >> 1; b[i] = a[i];")]
                + self.count_where("a[i] != 0") + ["return v;"])
        self.helpers.append(f"{static}int {name}({self.params(False)}) {{\n  "
                            + "\n  ".join(body) + "\n}\n")
        call = f"{name}(a, b, f, lb, n, e)"
        form = r.choice(["while", "do", "for"])
        if form == "while":
            return [f"{{ int it = 0; while ({call} && it < 40) it++; }}"]
        if form == "do":
            return [f"{{ int go; do {{ go = {call}; }} while (go); }}"]
        return [f"for (;;) {{ int g = {call}; if (!g) break; }}",
                self.over_items("a[i] = b[i] + i % 97;"), "global_barrier();"]

    def block(self, depth):
        """A list of statements with barriers, nested up to depth 3."""
        r = self.r
        kinds = ["step", "step"]
        if depth < 3:
            kinds += ["call", "loop", "if", "converge"]
        kind = r.choice(kinds)
        if kind == "step":
            return self.step()
        if kind == "call":
            name, returns = self.helper(depth)
            call = f"{name}(a, b, f, lb, n, k, e)"
            if returns:
                return [f"{{ int v = {call}; if (v > {r.randint(0, 40)}) "
                        f"{{ {' '.join(self.step())} }} }}"]
            return [call + ";"]
        if kind == "loop":
            inner = " ".join(self.block(depth + 1))
            exit_early = ""
            if r.random() < 0.4:
                exit_early = ("{ " + " ".join(self.count_where("a[i] > 5000"))
                              + f" if (v > {r.randint(0, 64)}) break; }}")
            return [f"for (int t = 0; t < k; t++) {{ {inner} {exit_early} }}"]
        if kind == "if":
            then = " ".join(self.block(depth + 1))
            other = " ".join(self.block(depth + 1))
            return [f"if (k % 2 == {r.randint(0, 1)}) {{ {then} }} "
                    f"else {{ {other} }}"]
        return self.converge()

    def source(self):
        body = []
        for _ in range(self.r.randint(1, 3)):
            body += self.block(0)
        return ("\n".join(self.helpers)
                + "kernel void k(global int *a, global int *b, global int *f, "
                "int n, int k) {\n  local int lb[64];\n"
                "  int ev = 0; private int *e = &ev;\n  "
                + "\n  ".join(body) + "\n}\n")


if __name__ == "__main__":
    print(Kernel(int(sys.argv[1])).source(), end="")
