#!/usr/bin/env python3
"""Runs gsync-rewrite over a corpus of ordinary OpenCL C kernel files.

usage: kernel-corpus.py passthrough --gsync CMD --out DIR [--options F] FILE...
       kernel-corpus.py barrier --gsync CMD --run CMD --out DIR [--options F]
                                [--jobs N] FILE...

passthrough: every file must come out byte for byte as it went in.
barrier:     global_barrier(); is put at the start of every kernel's body (a
             point every work-item reaches), the file is rewritten, every
             kernel must take part in the barrier (the constraints say so),
             and the output must build on the OpenCL device (CMD
             --build-list: the outputs in N processes, each of which starts
             the device's compiler once; with --run none, no build).

--options F names a file of lines "NAME OPTIONS...": the -D options a file
of that base name needs to be OpenCL C at all (given to gsync-rewrite and to
the build), or "NAME skip REASON" for a file that is not OpenCL C. Prints
one summary line; any failure is listed and gives exit status 1.
"""
import collections
import concurrent.futures
import json
import os
import re
import shlex
import subprocess
import sys


def read_options(path):
    """Reads the per-file options table: {name: [options]} or None=skip."""
    table = {}
    if not path:
        return table
    with open(path, encoding="utf-8") as f:
        for line in f:
            words = line.split("#", 1)[0].split()
            if words:
                table[words[0]] = None if words[1:2] == ["skip"] else words[1:]
    return table


def code_spans(src):
    """Yields (kind, start, end) over src: 'code' for a run of ordinary
    text, 'skip' for comments and string or character literals, 'eol' for a
    newline that ends a preprocessor directive."""
    i, n = 0, len(src)
    line_start, directive = True, False
    while i < n:
        c = src[i]
        if src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            yield "skip", i, j
            i = j
        elif src.startswith("/*", i):
            j = src.find("*/", i + 2)
            j = n if j < 0 else j + 2
            yield "skip", i, j
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and src[j] != c and src[j] != "\n":
                j += 2 if src[j] == "\\" else 1
            yield "skip", i, min(j + 1, n)
            i = min(j + 1, n)
        elif c == "\n":
            escaped = src[max(0, i - 2):i].rstrip("\r").endswith("\\")
            if directive and not escaped:
                directive = False
                yield "eol", i, i + 1
            else:
                yield "code", i, i + 1
            line_start = True
            i += 1
        else:
            if line_start and c == "#":
                directive = True
            if not c.isspace():
                line_start = False
            yield "code", i, i + 1
            i += 1


def kernel_bodies(src):
    """Returns the offsets just after the opening brace of every kernel
    definition in src (also of one written inside a macro)."""
    points = []
    word, want, depth = "", False, 0
    for kind, start, end in code_spans(src):
        if kind != "code":
            word = ""
            want = want and kind == "skip"
            continue
        c = src[start]
        if c.isalnum() or c == "_":
            word += c
            continue
        if word in ("kernel", "__kernel"):
            want, depth = True, 0
        word = ""
        if not want:
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == ";" and depth == 0:
            want = False
        elif c == "{" and depth == 0:
            points.append(end)
            want = False
    return points


def in_directive(src, at):
    """Whether offset at lies in a preprocessor directive (a #define's
    body): its logical line, continued lines joined, starts with #."""
    start = src.rfind("\n", 0, at) + 1
    while start > 0:
        end = start - 2  # the character before the previous line's \n
        if end >= 0 and src[end] == "\r":
            end -= 1
        if end < 0 or src[end] != "\\":
            break
        start = src.rfind("\n", 0, end) + 1
    return src[start:at].lstrip().startswith("#")


def with_barriers(src, points):
    """Returns src with 'global_barrier();' inserted at each point."""
    for at in sorted(points, reverse=True):
        src = src[:at] + " global_barrier();" + src[at:]
    return src


def run(cmd, **kw):
    """Runs cmd, returning (exit status, stdout + stderr)."""
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       **kw)
    return p.returncode, p.stdout.decode("utf-8", "replace")


def kernels_in(json_path):
    """Returns the constraints' kernels: [(name, takes part)]."""
    with open(json_path, encoding="utf-8") as f:
        doc = json.load(f)
    return [(k["name"], k["global_barrier"]) for k in doc["kernels"]]


# What the tool refuses by design (docs/design.md), with a label for the
# summary: a kernel refused for these alone is counted, not failed.
LIMITS = [
    ("written by a macro", re.compile(r"written by a macro")),
    ("macro shared with code that takes no part",
     re.compile(r"expands both in code that takes part")),
]


def limitation(text):
    """Returns the label of the documented limitation that explains every
    error in text, or None if some error is not one of them."""
    labels = set()
    for line in text.splitlines():
        if ": error: " not in line:
            continue
        hits = [label for label, rx in LIMITS if rx.search(line)]
        if not hits:
            return None
        labels.add(hits[0])
    return min(labels) if labels else None


def rewrite(gsync, path, out, opts):
    """Rewrites path into out; returns (kernels, error text or None)."""
    status, text = run(gsync + opts + [path, "-o", out,
                                       "--constraints", out + ".json"])
    if status != 0:
        return [], f"gsync-rewrite exit {status}\n{text}"
    return kernels_in(out + ".json"), None


class Corpus:
    """One run over the files: the tools, where outputs go, the totals."""

    def __init__(self, gsync, build, out):
        self.gsync, self.build, self.out = gsync, build, out
        self.files = self.kernels = self.skipped = 0
        self.refused = collections.Counter()
        self.failures = []
        self.to_build = []  # (output, options, input, kernels)

    def passthrough(self, path, opts):
        """Rewrites a file and compares; returns (kernels, error)."""
        out = os.path.join(self.out, os.path.basename(path))
        kernels, err = rewrite(self.gsync, path, out, opts)
        if not err and open(path, "rb").read() != open(out, "rb").read():
            err = "output differs from input"
        return len(kernels), collections.Counter(), err

    def barrier(self, path, opts):
        """Puts a global barrier into every kernel the tool can take, checks
        that every other kernel is refused for a documented limitation,
        rewrites and builds. Returns (kernels built, refusals, error)."""
        with open(path, encoding="utf-8", newline="") as f:
            src = f.read()
        base = os.path.join(self.out, os.path.basename(path))
        opts = opts + ["-I", os.path.dirname(os.path.abspath(path))]

        def attempt(points, tag):
            cl = f"{base}.{tag}.cl"
            with open(cl, "w", encoding="utf-8", newline="") as f:
                f.write(with_barriers(src, points))
            return rewrite(self.gsync, cl, cl + ".out.cl", opts), cl

        refused = collections.Counter()

        class Unexplained(Exception):
            """A kernel refused alone, for no documented limitation."""

        def explain(i, err):
            """Counts kernel i's refusal (err, from a run of that kernel
            alone) under its documented limitation; raises Unexplained if
            it is none."""
            label = limitation(err)
            if not label:
                raise Unexplained(f"kernel {i}: {err}")
            refused[label] += 1

        def split(numbered, err):
            """The kernels of numbered ([(i, point)], refused together with
            err) that the tool takes, halving the set until each refused
            kernel stands alone and must be refused for a documented
            limitation. Returns the points taken; raises Unexplained for a
            kernel refused otherwise."""
            if len(numbered) == 1:
                explain(numbered[0][0], err)
                return []
            good = []
            half = len(numbered) // 2
            for part in (numbered[:half], numbered[half:]):
                tag = f"k{part[0][0]}-{part[-1][0]}"
                (_, err), _ = attempt([p for _, p in part], tag)
                good += split(part, err) if err else [p for _, p in part]
            return good

        # A kernel written inside a #define is what the documented
        # limitations are about: each such one is tried alone first, and
        # the rest together, so a file takes one run more than it has
        # such kernels. Halving finds any other kernel the rest's run
        # refuses (it took some 270 runs for the generated corpus, where
        # this takes 35).
        numbered = list(enumerate(kernel_bodies(src)))
        kept = []
        try:
            for i, p in numbered:
                if in_directive(src, p):
                    (_, err), _ = attempt([p], f"k{i}")
                    if err:
                        explain(i, err)
                        continue
                kept.append((i, p))
            if not kept:
                return 0, refused, None
            tag = "all" if len(kept) == len(numbered) else "good"
            (kernels, err), cl = attempt([p for _, p in kept], tag)
            if err:
                good = split(kept, err)
                if not good:
                    return 0, refused, None
                (kernels, err), cl = attempt(good, "taken")
                if err:
                    return 0, refused, f"kernels taken in parts: {err}"
        except Unexplained as e:
            return 0, refused, str(e)
        # A kernel the scanner missed takes no part and was refused nothing.
        left_out = [k for k, part in kernels if not part]
        if len(left_out) < sum(refused.values()) or \
                (left_out and not refused):
            return 0, refused, "kernels left without a barrier: " + \
                " ".join(left_out)
        taking_part = len(kernels) - len(left_out)
        if self.build != ["none"]:
            self.to_build.append((cl + ".out.cl",
                                  " ".join(["-cl-std=CL1.2"] + opts), path,
                                  taking_part))
        return taking_part, refused, None

    def build_all(self, jobs):
        """Builds the outputs barrier() rewrote: --build-list in jobs
        processes at once. A file whose output does not build is a failure,
        and its kernels are not counted."""
        parts = [self.to_build[i::jobs] for i in range(jobs)]
        parts = [p for p in parts if p]

        def build(k, part):
            listing = os.path.join(self.out, f"build-list-{k}.txt")
            with open(listing, "w", encoding="utf-8") as f:
                f.writelines(f"{out}\t{opts}\n" for out, opts, _, _ in part)
            status, text = run(self.build + ["--build-list", listing])
            built = {line[:-len(": build ok")] for line in text.splitlines()
                     if line.endswith(": build ok")}
            failed = [(path, n) for out, _, path, n in part
                      if out not in built]
            return failed, text if status != 0 or failed else ""

        with concurrent.futures.ThreadPoolExecutor(len(parts) or 1) as pool:
            for failed, text in pool.map(lambda kp: build(*kp),
                                         enumerate(parts)):
                for path, n in failed:
                    self.kernels -= n
                    self.failures.append(f"{path}: build failed\n{text}")
                if text and not failed:
                    self.failures.append(f"the builds failed\n{text}")


def main():
    args = sys.argv[1:]
    mode = args.pop(0) if args else ""
    opt = {"--gsync": None, "--run": None, "--out": None, "--options": None,
           "--jobs": "2"}
    files = []
    while args:
        a = args.pop(0)
        if a in opt and args:
            opt[a] = args.pop(0)
        else:
            files.append(a)
    if mode not in ("passthrough", "barrier") or not opt["--gsync"] or \
            not opt["--out"] or not files or \
            (mode == "barrier" and not opt["--run"]):
        sys.exit(__doc__.strip().splitlines()[2])
    table = read_options(opt["--options"])
    os.makedirs(opt["--out"], exist_ok=True)
    c = Corpus(shlex.split(opt["--gsync"]), shlex.split(opt["--run"] or ""),
               opt["--out"])
    check = c.passthrough if mode == "passthrough" else c.barrier
    work = [(p, table.get(os.path.basename(p), [])) for p in files]
    c.skipped = sum(1 for _, o in work if o is None)
    work = [(p, o) for p, o in work if o is not None]
    with concurrent.futures.ThreadPoolExecutor(int(opt["--jobs"])) as pool:
        for (path, _), (n, refused, err) in zip(
                work, pool.map(lambda w: check(*w), work)):
            c.files += 1
            c.kernels += n
            c.refused += refused
            if err:
                c.failures.append(f"{path}: {err}")
    c.build_all(int(opt["--jobs"]))

    for f in c.failures:
        print("FAIL", f.rstrip())
    if mode == "passthrough":
        print(f"passthrough: {c.kernels} kernels in {c.files} files rewritten "
              f"byte for byte, {c.skipped} skipped, {len(c.failures)} failed")
    else:
        why = ", ".join(f"{k}: {v}" for k, v in sorted(c.refused.items()))
        built = " and built" if c.build != ["none"] else ", not built"
        print(f"barrier: {c.kernels} kernels in {c.files} files rewritten with "
              f"global_barrier(){built}, {sum(c.refused.values())} refused "
              f"as documented ({why or 'none'}), {c.skipped} skipped, "
              f"{len(c.failures)} failed")
    sys.exit(1 if c.failures else 0)


if __name__ == "__main__":
    main()
