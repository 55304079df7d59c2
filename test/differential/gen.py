"""Random OpenCL C kernels that call global_barrier() only where every
work-item of the launch reaches it, written the way people write them:
`static` and value-returning helpers, convergence loops driven by a
helper's result, work-group reductions through local memory, loops with a
uniform early `break`, uniform branches, and two indexing styles (one
work-item per element behind `if (i < n)`, or grid-stride loops).

Beyond that (not in --classic kernels, which keep the kernels of the
seeds the tests and docs/pocl.md name as they were):
  - `while (moved && it < LIMIT)` loops whose flag is a value-returning
    helper's result, read after its barrier (a 1-D Jacobi's shape);
  - helpers in a header the kernel includes (the rewrite inlines it);
  - 1-, 2- and 3-D local shapes, degenerate ones (2x1x2, 1x1x4) among
    them: ids, sizes and the first work-item are the linear ones;
  - early exits every work-item takes alike: a `return` of the kernel on
    an argument, and of a void helper before its barrier;
  - work after the last barrier that only the first work-item does,
    behind `&&`, `||` or an exit the others take (from GROUP_SEEDS on
    after a barrier of its own: below, the last count's read of a slot
    in another work-item can race with the tail's write of it);
  - work-group code with no global barrier in it (group_count): counts
    made a work-group a chunk, in a loop over the chunks that each group
    strides by the number of groups, summed through local memory with
    barrier() (a tree whose loop holds the barriers, or every work-item
    reading every slot), and added to the count by the first work-item
    alone; the chunk loop and the sum may be helpers or the caller's own
    code, and a helper may return early before its barriers (a test every
    work-item of the group reads alike) or inside the chunk loop. This is
    the shape PoCL runs wrong where the tool's anchors do not reach it
    (docs/pocl.md, section 8). About a third of the seeds from
    GROUP_SEEDS (5000) on draw it, from a stream of their own.
  - late jumps of every kind (from LATE_SEEDS on, from a stream of their
    own): a jump that some work-items of a group take after its last
    barrier, written as a `goto` over the first work-item's add, a
    `switch` on the local id with a `break` or a `return` in a case (and
    a case that falls through into `default:`), a `break` out of a
    `do { } while (0)`, a value-returning helper's `return 0;` for the
    others; with the group's early exit, before its barriers, written
    as a `goto` to the same label the late one takes. The kernel's own
    tail and its uniform exits get `goto` and `switch` spellings too.
    These are the shapes of test/pocl/gen-late-jumps.py's table, which
    PoCL runs wrong when they reach their target with a way of the whole
    group (docs/pocl.md, section 8); PoCL gets some of the inputs wrong
    too, so their reference is fibers.py's (run.py --truth fibers) or
    NVIDIA's (replay.py run --ref-only).

Every kernel has the signature
    kernel void k(global int *a, global int *b, global int *f, int n, int k)
and its result is a, b and f[0..2]. Counts go to f[t % 3] in round t,
whose next slot is cleared by work-item 0 before the same barrier, so the
kernel is race-free under a real global barrier.

usage: gen.py [--classic] SEED   (prints the kernel, then the header if
                                  any and the local shape, as comments)"""
import os
import random
import sys

# Seeds from here on may draw work-group code (group_count); the lower
# ones stay the kernels that the tests, docs/pocl.md and truth-nvidia.txt
# name.
GROUP_SEEDS = 5000
# Seeds from here on may draw late jumps (Kernel.late, Kernel.tail); the
# lower ones draw what they always drew.
LATE_SEEDS = 6000

# Local shapes: the first of each dimensionality is its plain one.
SHAPES = {1: [(8,), (16,), (32,), (64,)],
          2: [(4, 4), (8, 2), (2, 8), (8, 8), (1, 4)],
          3: [(2, 1, 2), (2, 2, 2), (4, 2, 2), (1, 2, 4), (1, 1, 4),
              (4, 1, 1)]}


# The reference: the input with its global barrier a work-group barrier,
# run as one work-group (run.py and replay.py on OpenCL, fibers.py on the
# CPU).
REFERENCE = ("#define global_barrier() "
             "barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE)\n")


def write_headers(folder, headers):
    """Writes a kernel's headers ({file name: text}, Kernel.headers or
    hand_kernel's) into folder, where its #include finds them."""
    for name, text in headers.items():
        with open(os.path.join(folder, name), "w", encoding="utf-8") as out:
            out.write(text)


def first_error(stderr):
    """The tool's first error line in stderr (clang's warnings, such as
    a switch on a boolean, may come before it), else its first line."""
    lines = stderr.strip().splitlines() or ["no message"]
    return next((line for line in lines if ": error: " in line), lines[0])


def refused(returncode, message):
    """Whether the tool's exit status and first error line (first_error)
    say that the uniformity check refused the kernel (conservative, no
    wrong result): exit 1 and a message about work-items, as every error
    of the check is. A crash (a signal, a sanitizer's status) never is.
    One rule for run.py and replay.py."""
    return returncode == 1 and "work-item" in message


def inputs(seed=None):
    """The random stream a case's inputs (run.draw_inputs) come from: the
    seed's, or with None the stream of every kernel written by hand. run.py
    and replay.py both take it from here, so that a case has the same
    inputs on every machine (truth-nvidia.txt depends on it)."""
    return random.Random(6 if seed is None else seed * 7 + 1)


def hand_kernel(path):
    """A kernel written by hand in gen.py's signature, for run.py and
    replay.py: (name, source, shapes, headers). shapes is a list of
    (label, local size): one for each size of a first line '// local
    sizes: 16 2x1x2 ...' (label name@16, ...), or [(name, None)] without
    one (drawn as a seed's are); headers are the .h files beside it, by
    name."""
    with open(path, encoding="utf-8") as f:
        src = f.read()
    first = src.split("\n", 1)[0]
    sizes = ([tuple(int(x) for x in word.split("x"))
              for word in first.split(":", 1)[1].split()]
             if first.startswith("// local sizes:") else [None])
    folder = os.path.dirname(os.path.abspath(path))
    headers = {}
    for name in sorted(os.listdir(folder)):
        if name.endswith(".h"):
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                headers[name] = f.read()
    name = os.path.basename(path)[:-3]
    shapes = [(name + ("@" + "x".join(map(str, local)) if local else ""),
               local) for local in sizes]
    return name, src, shapes, headers


class Kernel:
    """One kernel, drawn from the random stream of its seed."""

    def __init__(self, seed, classic=False):
        self.r = random.Random(seed)
        # The extensions draw from a stream of their own, so that the
        # classic stream, and with it every classic choice, stays as it was.
        self.x = None if classic else random.Random(seed * 7919 + 13)
        # Work-group code (group_count) in about a third of the kernels
        # from GROUP_SEEDS on, from a stream of its own: every other kernel
        # is the one its seed always drew.
        self.g = (random.Random(seed * 104729 + 7)
                  if not classic and seed >= GROUP_SEEDS else None)
        self.grouped = self.g is not None and self.g.random() < 0.6
        # Late jumps, from LATE_SEEDS on, from a stream of their own.
        self.j = (random.Random(seed * 15485863 + 11)
                  if not classic and seed >= LATE_SEEDS else None)
        self.helpers = []
        self.header = []
        self.count = 0
        # One work-item per element (the launch covers n exactly), or
        # grid-stride loops (any number of work-groups is right).
        self.guarded = self.r.random() < 0.3
        self.dims = 1 if classic else self.x.choice([1, 1, 2, 3])
        self.shape = None if classic else self.x.choice(SHAPES[self.dims])

    # The linear ids and sizes of the work-item and its group, in any
    # dimensionality.
    def linear(self, kind, size=None):
        """(get_KIND_id(0) + get_KIND_size(0) * (get_KIND_id(1) + ...)),
        or with size another size query (get_num_groups)."""
        size = size or f"get_{kind}_size"

        def part(d):
            if d == self.dims - 1:
                return f"get_{kind}_id({d})"
            rest = part(d + 1)
            if d + 1 < self.dims - 1:
                rest = f"({rest})"
            return f"get_{kind}_id({d}) + {size}({d}) * {rest}"
        return part(0) if self.dims == 1 else f"({part(0)})"

    def gid(self):
        return self.linear("global")

    def gsize(self):
        return " * ".join(f"get_global_size({d})" for d in range(self.dims))

    def lid(self):
        return self.linear("local")

    def lsize(self):
        return " * ".join(f"get_local_size({d})" for d in range(self.dims))

    def group(self):
        return self.linear("group", "get_num_groups")

    def groups(self):
        return " * ".join(f"get_num_groups({d})" for d in range(self.dims))

    def chance(self, p):
        """An extension's coin: never in a classic kernel."""
        return self.x is not None and self.x.random() < p

    def over_items(self, body):
        """A statement that runs body for this work-item's elements i."""
        if self.guarded:
            return f"{{ int i = {self.gid()}; if (i < n) {{ {body} }} }}"
        return (f"for (int i = {self.gid()}; i < n; "
                f"i += {self.gsize()}) {{ {body} }}")

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
        first = f"{self.gid()} == 0"
        if self.grouped and self.g.random() < 0.7:
            # Once a kernel: PoCL's build of a kernel with several takes
            # minutes (the input's too).
            self.grouped = False
            return self.group_count(cond)
        if self.r.random() < 0.5:
            lid = self.lid()
            return [f"lb[{lid}] = 0;",
                    self.over_items(f"if ({cond}) lb[{lid}] += 1;"),
                    "barrier(CLK_LOCAL_MEM_FENCE);",
                    f"if ({lid} == 0) {{ int s = 0; "
                    f"for (int j = 0; j < {self.lsize()}; j++) s += lb[j]; "
                    "atomic_add(&f[*e % 3], s); }",
                    f"if ({first}) f[(*e + 1) % 3] = 0;",
                    "global_barrier();", "int v = f[*e % 3]; (*e)++;"]
        return [self.over_items(f"if ({cond}) atomic_add(&f[*e % 3], 1);"),
                f"if ({first}) f[(*e + 1) % 3] = 0;",
                "global_barrier();", "int v = f[*e % 3]; (*e)++;"]

    def group_sum(self):
        """A helper that returns the sum of x over the work-group, the same
        in every work-item, through lb and barrier() only; its name."""
        g = self.g
        self.count += 1
        name = f"s{self.count}"
        lid, ls = self.lid(), self.lsize()
        body = [f"int l = {lid}, m = {ls};", "lb[l] = x;",
                "barrier(CLK_LOCAL_MEM_FENCE);"]
        if g.random() < 0.5:
            # A tree: the barriers are inside the loop.
            body += ["for (int w = 1; w < m; w *= 2) {",
                     "  int y = (l % (2 * w) == 0 && l + w < m) ? lb[l + w] : 0;",
                     "  barrier(CLK_LOCAL_MEM_FENCE);", "  lb[l] += y;",
                     "  barrier(CLK_LOCAL_MEM_FENCE);", "}", "int t = lb[0];"]
        else:
            body += ["int t = 0;", "for (int j = 0; j < m; j++) t += lb[j];"]
        body += ["barrier(CLK_LOCAL_MEM_FENCE);", "return t;"]
        static = "static " if g.random() < 0.6 else ""
        self.define(f"{static}int {name}(int x, local int *lb) {{\n  "
                    + "\n  ".join(body) + "\n}\n")
        return name

    def group_chunk(self, cond, slot):
        """Statements for chunk c (the work-group's elements c * size to
        c * size + size - 1) that add how many satisfy cond to f[*e % 3],
        the sum made with barrier() and added by the first work-item to
        f[slot]."""
        g = self.g
        lid, ls = self.lid(), self.lsize()
        out = []
        if g.random() < 0.4:
            # An exit every work-item of the group takes alike: they all
            # read the same element. It leaves the chunk uncounted, in any
            # number of groups.
            out.append(f"if ((a[(c * {g.randint(3, 11)}) % n] & 3) == "
                       f"{g.randint(0, 3)}) return;")
        x = f"(c * ({ls}) + {lid} < n && ({cond.replace('a[i]', 'a[c * (' + ls + ') + ' + lid + ']')})) ? 1 : 0"
        if g.random() < 0.6:
            out.append(f"int s = {self.group_sum()}({x}, lb);")
        else:
            out += [f"lb[{lid}] = {x};", "barrier(CLK_LOCAL_MEM_FENCE);",
                    "int s = 0;",
                    f"for (int j = 0; j < {ls}; j++) s += lb[j];",
                    "barrier(CLK_LOCAL_MEM_FENCE);"]
        out.append(g.choice([
            f"if ({lid} == 0) atomic_add(&f[{slot}], s);",
            f"if ({lid} == 0 && s > 0) atomic_add(&f[{slot}], s);",
            f"if ({lid} != 0) return; atomic_add(&f[{slot}], s);"]))
        return out

    def late(self, chunk, slot, helper):
        """group_chunk's statements with the first work-item's add after
        the sum written as a late jump (seeds from LATE_SEEDS on; else as
        they are), and the group's early exit, if any, maybe as a goto to
        the late jump's label; for a helper (a function of its own) or the
        caller's loop body. Returns (statements, the helper's return
        type): "int" when the helper returns 0 to the others and the sum
        to the first work-item, which its caller adds."""
        j = self.j
        if j is None:
            return chunk, "void"
        lid = self.lid()
        self.count += 1
        label = f"L{self.count}"
        add = f"atomic_add(&f[{slot}], s);"
        forms = [
            f"if ({lid} != 0) goto {label}; {add}",
            f"if ({lid} == 0) {{ {add} goto {label}; }} lb[{lid}] = 0;",
            f"switch ({lid}) {{ case 0: {add} break; default: break; }}",
            f"switch ({lid} != 0) {{ case 1: break; default: {add} }}",
            f"switch ({lid} == 0) {{ case 1: {add} break; case 0: "
            f"lb[{lid}] = 0; }}",
            f"do {{ if ({lid} != 0) break; {add} }} while (0);"]
        if helper:
            forms += [
                f"switch ({lid} != 0) {{ case 1: return; default: {add} }}",
                f"switch ({lid}) {{ case 0: {add} return; default: "
                f"lb[{lid}] = 0; }}",
                f"if ({lid} != 0) {{ goto {label}; }} else {add}",
                "int"]
        form = j.choice(forms)
        kind = "void"
        early = [line for line in chunk if line.startswith("if ((a[(c *")]
        if form == "int":
            kind = "int"
            out = [line.replace("return;", "return 0;") for line in chunk[:-1]]
            out.append(j.choice([f"if ({lid} != 0) return 0; return s;",
                                 f"switch ({lid}) {{ case 0: return s; "
                                 "default: return 0; }",
                                 f"if ({lid} == 0) return s; return 0;"]))
            return out, kind
        out = chunk[:-1] + [form]
        if early and j.random() < 0.5:
            # The early exit to the label the late goto takes (or to one
            # of its own at the end): a helper's is a return, the caller's
            # loop has made its a continue.
            leave = "return;" if helper else "continue;"
            out = [line.replace(leave, f"goto {label};") if line in early
                   else line for line in out]
        if f"goto {label}" in " ".join(out):
            out.append(f"{label}: ;")
        return out, kind

    def group_count(self, cond):
        """count_where's statements with the count made a work-group a
        chunk (work-group code only, no global barrier, before the one that
        publishes the count): a loop over the chunks, each group taking
        every number-of-groups'th; the chunk's code and the loop may be
        helpers of their own."""
        g = self.g
        # No k: converge()'s helpers, which count too, do not take it. The
        # slot goes by value: the uniformity check holds a pointer that a
        # call under a group-dependent loop receives as written there.
        params = ("global int *a, global int *f, local int *lb, int n, "
                  "int slot")
        chunk = self.group_chunk(cond, "slot")
        if g.random() < 0.7:
            self.count += 1
            name = f"g{self.count}"
            static = "static " if g.random() < 0.6 else ""
            chunk, kind = self.late(chunk, "slot", True)
            self.define(f"{static}{kind} {name}({params}, int c) {{\n  "
                        + "\n  ".join(chunk) + "\n}\n")
            call = f"{name}(a, f, lb, n, slot, c)"
            chunk = ([f"{call};"] if kind == "void" else
                     [f"{{ int t = {call}; if ({self.lid()} == 0) "
                      "atomic_add(&f[slot], t); }"])
        else:
            # The caller's own code: a return would leave it. The group's
            # exit becomes a skip; the first work-item's exit becomes its
            # if (a continue that only some work-items of a group take,
            # with barriers in the loop, is legal, but PoCL takes minutes
            # over the input itself).
            lid = self.lid()
            chunk = [line.replace(f"if ({lid} != 0) return; ",
                                  f"if ({lid} == 0) ")
                     .replace("return;", "continue;") for line in chunk]
            if self.j is not None and self.j.random() < 0.7:
                chunk, _ = self.late(chunk, "slot", False)
        stop = ""
        if g.random() < 0.3:
            # A return inside the loop that leaves out the same chunks in
            # any number of groups: c only grows.
            stop = f"if (c >= n / {g.randint(16, 64)}) return; "
        loop = (f"for (int c = {self.group()}; c * ({self.lsize()}) < n; "
                f"c += {self.groups()}) {{ {stop}{' '.join(chunk)} }}")
        first = f"{self.gid()} == 0"
        tail = [f"if ({first}) f[(*e + 1) % 3] = 0;",
                "global_barrier();", "int v = f[*e % 3]; (*e)++;"]
        # A chunk holds other work-items' elements (and other groups'
        # where the ids are 2- or 3-D), which the statements before may
        # have just changed (converge() changes a and counts at once): a
        # barrier first.
        if stop or g.random() < 0.6:
            self.count += 1
            name = f"w{self.count}"
            static = "static " if g.random() < 0.6 else ""
            self.define(f"{static}void {name}({params}) {{\n  {loop}\n}}\n")
            return (["global_barrier();", f"{name}(a, f, lb, n, *e % 3);"]
                    + tail)
        return ["global_barrier();", loop.replace("slot", "*e % 3")] + tail

    def params(self, with_k=True):
        k = " int k," if with_k else ""
        return ("global int *a, global int *b, global int *f, local int *lb, "
                f"int n,{k} private int *e")

    def define(self, text):
        """Adds a helper; source() puts the first ones, which call none of
        the later, in the header."""
        self.helpers.append(text)

    def helper(self, depth):
        """A helper that calls the barrier; returns (name, returns int)."""
        r = self.r
        self.count += 1
        name = f"h{self.count}"
        static = "static " if r.random() < 0.6 else ""
        returns = r.choice(["void", "int", "int"]) == "int"
        body = []
        if not returns and self.chance(0.3):
            # Every work-item leaves alike: k is the same for all.
            body.append(f"if (k == {self.x.randint(0, 4)}) return;")
        for _ in range(r.randint(1, 2)):
            body += self.block(depth + 1)
        if returns:
            body += self.count_where(r.choice(
                ["a[i] & 1", "a[i] > 100", "a[i] % 3 == 0"]))
            body.append(r.choice(
                ["return v;", "return v > 0 ? v : 0;", "return v != 0;"]))
        kind = "int" if returns else "void"
        self.define(f"{static}{kind} {name}({self.params()}) {{\n  "
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
        self.define(f"{static}int {name}({self.params(False)}) {{\n  "
                    + "\n  ".join(body) + "\n}\n")
        call = f"{name}(a, b, f, lb, n, e)"
        form = r.choice(["while", "do", "for"])
        if self.chance(0.4):
            # A Jacobi's loop: the flag a helper returned after its barrier
            # decides whether to go round, and a step follows in the body.
            limit = self.x.randint(3, 40)
            return [f"{{ int moved = 1, it = 0; while (moved && it < {limit}) "
                    f"{{ moved = {call}; {' '.join(self.step())} it++; }} }}"]
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

    def tail(self):
        """Work after the last barrier that only the first work-item does,
        behind a test of several parts or an exit that the others take."""
        c = self.x.randint(0, 3)
        first = f"{self.gid()} == 0"
        tail = self.x.choice([
            f"if ({first} && k > {c}) f[0] += 1;",
            f"if (!({first}) || k == {c}) return; f[1] += 7;",
            f"{{ int i = {self.gid()}; if (i == 0 && n > {40 * c}) "
            "f[2] ^= 5; }"])
        if self.j is None or self.j.random() < 0.4:
            return tail
        # Late jumps (from LATE_SEEDS on) of the kernel itself.
        self.count += 1
        label = f"T{self.count}"
        gid, lid = self.gid(), self.lid()
        return self.j.choice([
            f"if (!({first}) || k == {c}) goto {label}; f[1] += 7; "
            f"{label}: ;",
            f"switch ({gid}) {{ case 0: f[0] += 3; break; default: break; }}",
            f"switch ({gid} != 0) {{ case 1: return; default: f[2] ^= 5; }}",
            f"if ({first}) {{ f[1] += 7; goto {label}; }} lb[{lid}] = {c}; "
            f"{label}: ;",
            f"do {{ if (!({first})) break; f[0] += 1; }} while (0);"])

    def header_name(self, stem):
        return f"{stem}.h"

    def source(self, stem="kernel"):
        """The kernel's file; it includes header_name(stem) if the kernel
        has a header (header_text())."""
        body = []
        end = False
        for _ in range(self.r.randint(1, 3)):
            body += self.block(0)
            if self.chance(0.2):
                body.append(f"if (k == {self.x.randint(0, 4)}) return;")
                if self.j is not None and self.j.random() < 0.5:
                    # A uniform exit as a goto over the barriers after it
                    # (from LATE_SEEDS on).
                    body[-1] = body[-1].replace("return;", "goto done;")
                    end = True
        if self.chance(0.4):
            if self.g is not None:
                # The last statement may be a count's read of f[0..2], in
                # another work-item, that the tail's write races with; a
                # barrier first (seeds below GROUP_SEEDS keep their text:
                # their recorded truths depend on it).
                body.append("global_barrier();")
            body.append(self.tail())
        if self.helpers and self.chance(0.35):
            # Helpers are defined callees first: a prefix calls no other.
            split = self.x.randint(1, len(self.helpers))
            self.header = self.helpers[:split]
            self.helpers = self.helpers[split:]
        if end:
            body.append("done: ;")
        include = (f'#include "{self.header_name(stem)}"\n'
                   if self.header else "")
        return (include + "\n".join(self.helpers)
                + "kernel void k(global int *a, global int *b, global int *f, "
                "int n, int k) {\n  local int lb[64];\n"
                "  int ev = 0; private int *e = &ev;\n  "
                + "\n  ".join(body) + "\n}\n")

    def header_text(self):
        """The header the kernel includes, or None."""
        return "\n".join(self.header) if self.header else None

    def headers(self, stem):
        """{file name: text} of the header source(stem) includes: empty
        if it has none. Call it after source()."""
        text = self.header_text()
        return {self.header_name(stem): text} if text is not None else {}

    def local(self):
        """The local size: a tuple of 1 to 3, or for a classic kernel None
        (the runner draws a 1-D one, as it always has)."""
        return self.shape


if __name__ == "__main__":
    args = sys.argv[1:]
    classic = args[:1] == ["--classic"]
    kernel = Kernel(int(args[-1]), classic)
    print(kernel.source(), end="")
    if kernel.header_text():
        print("/* header " + kernel.header_name("kernel") + ":\n"
              + kernel.header_text() + "*/")
    print(f"/* local shape: {kernel.local()} */")
