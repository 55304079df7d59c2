"""The gsync package under hostile use (docs/misuse.md), as
test/run/hostile.test checks libgsync: where a mistake would let the
device write outside the memory it was given, a canary (memory where the
state was, filled with a pattern) is checked after the run."""
import ctypes
import gc
import os
import re
import subprocess
import sys
import time

import numpy as np
import pyopencl as cl
import pytest

import gsync
from conftest import KERNELS

CANARY = 0xA5
_libc = ctypes.CDLL(None)
_libc.malloc.restype = ctypes.c_void_p
_libc.malloc.argtypes = [ctypes.c_size_t]
_libc.free.argtypes = [ctypes.c_void_p]


def _canaries(nbytes, count=8):
    """count heap blocks of nbytes filled with CANARY: where the allocator
    hands out again what was just freed (PoCL's SVM is the host's heap)."""
    blocks = [_libc.malloc(nbytes) for _ in range(count)]
    for b in blocks:
        ctypes.memset(b, CANARY, nbytes)
    return blocks


def _intact(blocks, nbytes):
    ok = all(ctypes.string_at(b, nbytes) == bytes([CANARY]) * nbytes
             for b in blocks)
    for b in blocks:
        _libc.free(b)
    return ok


@pytest.fixture(scope="module")
def stencil_prog():
    return gsync.rewrite(os.path.join(KERNELS, "stencil.cl"))


def test_dropping_a_watched_kernel_while_it_runs(context, stencil_prog):
    """A watched Kernel dropped while its launch runs: the SVM its state
    lives in must outlive the launch, which writes its progress there at
    every barrier (the drop waits for it). Three rounds whose drop came
    while the launch ran, as the allocator may hand the freed state to
    another block in one; a launch of 10,000 rounds runs for tens of ms on
    PoCL, but a loaded machine may stall this thread for longer, and a
    round whose launch ended first checks nothing: up to 12 rounds."""
    queue = cl.CommandQueue(context)
    built = stencil_prog.build(context, watch=True)
    n = 4096
    a = cl.Buffer(context, cl.mem_flags.READ_WRITE, 4 * n)
    b = cl.Buffer(context, cl.mem_flags.READ_WRITE, 4 * n)
    info = stencil_prog.constraints.kernel("stencil")
    nbytes = info.state_bytes(64)
    running = 0
    for _ in range(12):
        k = stencil_prog.kernel(queue, built.stencil, max_groups=64)
        if not k.watch(queue).progress:
            pytest.skip("the device shares no memory with a running kernel")
        k.enqueue(queue, 64, 64, a, b, np.uint32(n), np.uint32(10000))
        queue.flush()
        t0 = time.monotonic()
        while k.progress().barriers == 0 and time.monotonic() - t0 < 5:
            time.sleep(0.001)
        mark = cl.enqueue_marker(queue)
        # Still running at the drop (which waits for it): the round counts.
        running += (mark.command_execution_status !=
                    cl.command_execution_status.COMPLETE)
        del k
        gc.collect()
        blocks = _canaries(nbytes)
        queue.finish()
        assert _intact(blocks, nbytes), "the freed state was written"
        if running == 3:
            break
    assert running == 3, "the launches ended before the Kernel was dropped"


@pytest.fixture(scope="module")
def flip(context):
    """The stencil with the flip barrier, whose state does not grow with
    the groups: a Kernel can be made for 2^34 of them."""
    prog = gsync.rewrite(os.path.join(KERNELS, "stencil.cl"), barrier="flip")
    return prog, prog.build(context)


@pytest.mark.parametrize("groups,local,offset,says", [
    (2**33, 1, None, "8589934592 work-groups exceed its limit of 1073741823"),
    (2**30, 1, None, "exceed its limit of 1073741823"),
    ((2**16, 2**16), (1, 1), None, "4294967296 work-groups exceed its limit"),
    ((1, 1), ("DIM0", 2), None, "work-items a work-group may have"),
    ((1, 1, 1), (1, 1, "DIM2+1"), None, "in dimension 2 exceeds the device"),
    (2, 1, 2**64 - 2, "past the offset in dimension 0 exceed"),
], ids=["2^33", "2^30", "2^16x2^16", "local", "local-dim2", "offset"])
def test_launch_limits(device, queue, flip, groups, local, offset, says):
    """Launches past a rule's or the device's limits: refused with
    libgsync's message, before the driver sees them (PoCL aborts the
    process on 2^33 groups)."""
    prog, built = flip
    dims = device.max_work_item_sizes
    local = tuple(dims[0] if x == "DIM0" else dims[2] + 1 if x == "DIM2+1"
                  else x for x in local) if isinstance(local, tuple) else local
    k = prog.kernel(queue, built.stencil, max_groups=2**34)
    with pytest.raises(gsync.LaunchError, match=re.escape(says)):
        k.enqueue(queue, groups, local, *_stencil_args(queue.context),
                  offset=offset)


def _stencil_args(context, n=256):
    a = cl.Buffer(context, cl.mem_flags.READ_WRITE, 4 * n)
    b = cl.Buffer(context, cl.mem_flags.READ_WRITE, 4 * n)
    return a, b, np.uint32(n), np.uint32(2)


@pytest.mark.parametrize("groups,local", [
    ("12", 1), (2, "4"), (b"12", 1), (True, 4), (2.0, 4), ((2, "1"), (1, 1)),
    (None, 4)])
def test_shapes_that_are_not_counts(queue, flip, groups, local):
    """A str is no sequence of counts ("12" once launched 1 x 2 groups), nor
    is a bool, a float or None: ArgumentError, naming what was given."""
    prog, built = flip
    k = prog.kernel(queue, built.stencil, max_groups=16)
    with pytest.raises(gsync.ArgumentError, match="must be an int or a tuple "
                       "of ints"):
        k.enqueue(queue, groups, local, *_stencil_args(queue.context))
    with pytest.raises(gsync.ArgumentError, match="must be an int"):
        k.groups_that_fit(queue, local if isinstance(local, str) else "16")
    assert k(queue, 2, 4, *_stencil_args(queue.context)).launched == 2


@pytest.mark.parametrize("max_groups,error,says", [
    ("12", gsync.ArgumentError, "must be an int, not '12'"),
    (True, gsync.ArgumentError, "must be an int, not True"),
    (2.5, gsync.ArgumentError, "must be an int, not 2.5"),
    (None, gsync.ArgumentError, "must be an int, not None"),
    (-1, gsync.LaunchError, "must be at least 1"),
    (2**70, gsync.LaunchError, "state for 1180591620717411303424 "
     "work-groups overflows"),
], ids=["str", "bool", "float", "None", "negative", "2^70"])
def test_max_groups_that_are_not_counts(context, queue, stencil_prog,
                                        max_groups, error, says):
    """Program.kernel's max_groups is a count, as gsync_kernel_create's
    size_t is: a str raised a TypeError from the state's size, True and -1
    made a state for 1 and for -1 groups (smaller than the rule's own),
    and 2^70 reached PyOpenCL's Buffer as a TypeError."""
    built = stencil_prog.build(context)
    with pytest.raises(error, match=re.escape(says)):
        stencil_prog.kernel(queue, built.stencil, max_groups=max_groups)


def test_reserved_macros_are_not_the_rewrites(tmp_path):
    """A -D or -U of a name with the prefix gsync_ (in any case): the
    tool's own and its rules' tunables, which would reach the driver
    through the constraints' build options (a tree barrier whose leaves
    were shrunk so wrote past its state). The tool refuses them, and so
    does load() in a file's build options."""
    with pytest.raises(gsync.RewriteError) as e:
        gsync.rewrite(os.path.join(KERNELS, "stencil.cl"), barrier="tree",
                      discovery=False, defines={"GSYNC_TREE_LEAF": "2u"})
    assert e.value.exit_status == 2
    assert "option '-DGSYNC_TREE_LEAF=2u' defines 'GSYNC_TREE_LEAF'" in str(
        e.value)
    with pytest.raises(gsync.RewriteError, match="undefines 'gsync_watch'"):
        gsync.rewrite(os.path.join(KERNELS, "stencil.cl"),
                      options=["-Ugsync_watch"])


def _fill(context, queue, prog):
    """What the kernel fill of prog, built and launched as one group of
    one work-item, writes to out[0]."""
    k = prog.kernel(queue, prog.build(context).fill, max_groups=1)
    out = cl.Buffer(context, cl.mem_flags.READ_WRITE, 4)
    k(queue, 1, 1, out)
    got = np.zeros(1, np.uint32)
    cl.enqueue_copy(queue, got, out)
    return int(got[0])


def test_a_kernel_in_a_directory_with_a_blank(context, queue, tmp_path):
    """A kernel whose directory's name holds a blank, including a header
    from there, rewritten with a -D whose value holds blanks: the build
    options build it on the device (PoCL refused the -I quoted whole,
    "-I/a b", and took -I"/a b" as " /a b "), and it sees both."""
    d = tmp_path / "sp ace"
    d.mkdir()
    inputs = os.path.join(os.path.dirname(KERNELS), "Inputs")
    for name in ("header-fill.cl", "header-fill.h"):
        with open(os.path.join(inputs, name)) as f:
            (d / name).write_text(f.read())
    prog = gsync.rewrite(d / "header-fill.cl", defines={"V": "1 + 1"})
    assert f"-I{d}" in prog.constraints.build_args
    assert '-D"V=1 + 1"' in prog.build_options(queue.device)
    assert _fill(context, queue, prog) == 42


# Every form a -D of the rewrite may take, and what the kernel sees of it
# stringized (#x): the value after blanks, a backslash (STR gives "a\b",
# a backspace), quotes, nothing, a tab, and a function-like macro.
DEFINES = [("V0", "1 + 1", b"1 + 1"), ("V1", "a\\b", b"a\x08"),
           ("V2", "'c'", b"'c'"), ("V3", "a\\b c", b"a\x08 c"),
           ("V4", "'a b'", b"'a b'"), ("V5", "", b""), ("V6", None, b"1"),
           ("V7", "a  b", b"a b"), ("V8", "#x", b"#x"),
           ("V9", "a\tb", b"a b")]
# Directories of -I whose names hold what an option parser splits at or
# unquotes, each with a header hN.h that defines HN as N.
INCLUDE_DIRS = ["sp ace", "t\tab", 'q"uote', "back\\slash", "ap'os"]
FORMS_KERNEL = (
    "#define STR_(x) #x\n#define STR(x) STR_(x)\n" +
    "".join(f'#include "h{n}.h"\n' for n in range(len(INCLUDE_DIRS))) +
    "kernel void k(global char *out) {\n"
    "  global_barrier();\n"
    "  if (get_global_id(0) == 0) {\n"
    "    constant char *s[] = {" +
    ", ".join([f"STR({name})" for name, _, _ in DEFINES] +
              ["STR(F(1, 2))"] +
              [f"STR(H{n})" for n in range(len(INCLUDE_DIRS))]) + "};\n"
    "    int o = 0;\n"
    "    for (int i = 0; i < (int)(sizeof s / sizeof s[0]); i++) {\n"
    "      for (constant char *p = s[i]; *p; p++)\n"
    "        out[o++] = *p;\n"
    "      out[o++] = '|';\n"
    "    }\n"
    "  }\n"
    "}\n")


def _is_pocl(device):
    return "Portable Computing Language" in device.platform.name


def test_build_options_of_every_form(context, queue, tmp_path):
    """The rewrite's -D and -I, each in every form its value may take,
    reach the driver as the tool parsed them: libgsync's build options
    quote a value with a blank after its flag (-D"V=1 + 1") and, for
    PoCL, escape nothing (it kept the backslash that escaped one:
    -D"V=a\\b" was a\\b), write a tab as a blank (it split the option
    there, even in quotes: V was a) and name an -I directory with a blank,
    tab, quote or backslash through /proc."""
    dirs = []
    for n, name in enumerate(INCLUDE_DIRS):
        d = tmp_path / name
        d.mkdir()
        (d / f"h{n}.h").write_text(f"#define H{n} {n}\n")
        dirs.append(d)
    defines = {name: value for name, value, _ in DEFINES}
    defines["F(x, y)"] = "x + y"
    prog = gsync.rewrite(FORMS_KERNEL, defines=defines, include_dirs=dirs)
    k = prog.kernel(queue, prog.build(context).k, max_groups=1)
    out = cl.Buffer(context, cl.mem_flags.READ_WRITE, 1024)
    cl.enqueue_fill_buffer(queue, out, np.uint8(0), 0, 1024)
    k(queue, 1, 1, out)
    got = np.zeros(1024, np.uint8)
    cl.enqueue_copy(queue, got, out)
    seen = bytes(got).split(b"\0")[0].split(b"|")[:-1]
    want = ([w for _, _, w in DEFINES] + [b"1 + 2"] +
            [str(n).encode() for n in range(len(INCLUDE_DIRS))])
    assert seen == want, prog.build_options(queue.device)


@pytest.mark.parametrize("define,says", [
    ('S="x"', "reads every double quote as a blank"),
    ('S="a b"', "reads every double quote as a blank"),
    ("S='\t'", "splits an option at a tab, which a blank cannot stand for"),
    ("S=1\nint s;", "splits an option at a line break"),
], ids=["quote", "quote-blank", "tab-in-quotes", "line-break"])
def test_build_options_pocl_cannot_take(context, queue, define, says):
    """A -D value with a double quote, a line break, or a tab that a blank
    cannot stand for, cannot reach PoCL's compiler as it is (it defined
    S="x" as ' x', and refused S="a b": "Invalid build option"):
    libgsync's device check says so, naming the option, before the
    build."""
    if not _is_pocl(queue.device):
        pytest.skip("PoCL's option parser")
    prog = gsync.rewrite(b"kernel void k(global int *a) {\n"
                         b"  global_barrier();\n}\n", options=["-D" + define])
    with pytest.raises(gsync.DeviceError, match="cannot take build.options"
                       r"\[1\] of the constraints, .*" + says):
        prog.build(context)


@pytest.mark.parametrize("source", [b"", b"// Gr\xfc\xdfe\n"],
                         ids=["utf8", "latin1"])
def test_a_build_that_fails_says_why(context, source):
    """A build the driver refuses raises PyOpenCL's error with its log,
    for a source in UTF-8 or not (a TypeError before: PyOpenCL writes the
    source of a failed build into a text file)."""
    prog = gsync.rewrite(source + b"kernel void k(global int *a) {\n"
                         b"  a[0] = X;\n  global_barrier();\n}\n",
                         defines={"X": "1"})
    with pytest.raises(cl.RuntimeError, match="expected expression"):
        prog.build(context, options=["-DX=("])


LATIN1 = (b"// Gr\xfc\xdfe: a comment in Latin-1, copied byte for byte\n"
          b"kernel void fill(global uint *out) {\n"
          b"  global_barrier();\n"
          b"  if (get_global_id(0) == 0)\n"
          b"    out[0] = 42u;\n"
          b"}\n")


def test_a_kernel_that_is_not_utf8(context, queue, tmp_path):
    """OpenCL C need not be UTF-8: a kernel with a Latin-1 comment is
    rewritten byte for byte, as a file or as text, and builds, launches and
    passes the source check; load() reads such an output too (a
    UnicodeDecodeError before)."""
    path = tmp_path / "latin1.cl"
    path.write_bytes(LATIN1)
    prog = gsync.rewrite(path)
    assert b"Gr\xfc\xdfe" in prog.source.encode("utf-8", "surrogateescape")
    assert gsync.rewrite(source=LATIN1).source.encode(
        "utf-8", "surrogateescape").count(b"Gr\xfc\xdfe") == 1
    assert _fill(context, queue, prog) == 42
    subprocess.run([gsync.find_tool(), str(path), "-o",
                    str(tmp_path / "o.cl"), "--constraints",
                    str(tmp_path / "o.json")], check=True)
    assert (gsync.load(tmp_path / "o.json", source_path=tmp_path / "o.cl")
            .source.encode("utf-8", "surrogateescape")
            == (tmp_path / "o.cl").read_bytes())


def test_a_file_named_like_an_option(tmp_path, monkeypatch):
    """rewrite("-Dx.cl") names a file, not a -D: the input comes after
    "--" (the tool took it as -D x.cl and found no input before)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "-Dx.cl").write_bytes(LATIN1)
    assert "gsync_fingerprint" in gsync.rewrite("-Dx.cl").source


def test_messages_print(tmp_path, gsync_run):
    """A message that quotes what is no character (a lone surrogate's JSON
    escape, or a byte that is not UTF-8) prints (printing one raised
    UnicodeEncodeError): a byte that is not UTF-8 shows as an escape, and
    ``raw`` holds libgsync's bytes, as gsync-run prints them."""
    js = tmp_path / "s.json"
    for text in (b'{"format": "gsync-\\ud800", "version": 1}',
                 b'{"format": "gsync-\xff", "version": 1}'):
        js.write_bytes(text)
        with pytest.raises(gsync.FormatError) as e:
            gsync.load(js)
        str(e.value).encode("utf-8")
        r = subprocess.run([gsync_run, "--load-only", "--constraints",
                            str(js)], capture_output=True, timeout=60)
        assert r.stderr.splitlines()[0] == b"gsync-run: error: " + e.value.raw
    assert '"gsync-\\xff"' in str(e.value) and b"gsync-\xff" in e.value.raw


def test_a_kernel_given_by_name(context, queue, stencil_prog):
    """Program.kernel wants a pyopencl.Kernel: a name is an ArgumentError
    that says so, not an AttributeError."""
    with pytest.raises(gsync.ArgumentError, match="must be a "
                       "pyopencl.Kernel .*not 'stencil'"):
        stencil_prog.kernel(queue, "stencil", max_groups=4)


def test_a_negative_offset(queue, flip):
    """A negative offset is a LaunchError, not PyOpenCL's bare error."""
    prog, built = flip
    k = prog.kernel(queue, built.stencil, max_groups=4)
    with pytest.raises(gsync.LaunchError, match="offset -1 is negative"):
        k.enqueue(queue, 2, 4, *_stencil_args(queue.context), offset=-1)
    with pytest.raises(gsync.LaunchError, match="offset -5 is negative"):
        k.enqueue(queue, (2, 1), (4, 1), *_stencil_args(queue.context),
                  offset=(0, -5))


@pytest.mark.parametrize("text,deep", [
    ('{"x": ' + "[" * 31 + "]" * 31 + "}", False),
    ('{"x": ' + "[" * 32 + "]" * 32 + "}", True),
    ('{"a":' * 31 + "1" + "}" * 31, False),
    ('{"a":' * 32 + "1" + "}" * 32, True),
    ("[" * 5000 + "]" * 5000, True),
], ids=["32-arrays", "33-arrays", "32-values", "33-values", "5000"])
def test_deep_nesting(tmp_path, gsync_run, text, deep):
    """Values nested past json-c's 32 levels are "nesting too deep", as
    libgsync says, not a RecursionError; 32 are read."""
    js = tmp_path / "deep.json"
    js.write_text(text)
    with pytest.raises(gsync.FormatError) as e:
        gsync.load(js)
    assert ("nesting too deep" in str(e.value)) == deep
    r = subprocess.run([gsync_run, "--scenario", "stencil", "--cl", "x.cl",
                        "--constraints", str(js), "--groups", "1", "--local",
                        "1"], capture_output=True, text=True, timeout=60)
    assert r.stderr.splitlines()[0] == f"gsync-run: error: {e.value}"


@pytest.mark.parametrize("name", ["grüße ✓.cl", b"gr\xfc\xdfe.cl",
                                  'a "quoted" \\ name.cl'])
def test_the_fingerprint_of_any_file_name_and_option(context, queue, tmp_path,
                                                      name):
    """The fingerprint covers the constraints in json-c's compact form;
    libgsync takes it again from its reading of the file when the Python
    package checks a program's source, so the two must agree on every
    string the tool writes there: a file name in UTF-8 or not, or with a
    quote and a backslash (escaped in JSON), and a -D value with a slash, a
    tab and a character outside ASCII. A disagreement would refuse the
    pair."""
    path = os.path.join(os.fsencode(tmp_path),
                        name if isinstance(name, bytes) else name.encode())
    with open(path, "wb") as f:
        f.write(LATIN1)
    out, js = os.path.join(tmp_path, "o.cl"), os.path.join(tmp_path, "o.json")
    subprocess.run([gsync.find_tool(), path, "-o", out, "--constraints", js,
                    "-DNOTE=a/b\té"], check=True)
    prog = gsync.load(js, source_path=out)
    assert _fill(context, queue, prog) == 42


@pytest.mark.parametrize("missing", ["pyopencl", "numpy"])
def test_a_python3_without_pyopencl(missing):
    """Imported by a python3 that cannot import PyOpenCL or numpy (one of
    pyenv, conda or a virtual environment, first on PATH), the package says
    what it needs and which python3 has it on Debian, beyond "No module
    named 'pyopencl'"."""
    r = subprocess.run(
        [sys.executable, "-c",
         f"import sys; sys.modules[{missing!r}] = None; import gsync"],
        capture_output=True, text=True)
    assert r.returncode != 0
    assert f"gsync needs numpy and PyOpenCL, which {sys.executable} cannot " \
        "import" in r.stderr
    assert "python3-numpy and python3-pyopencl, for /usr/bin/python3; run " \
        "that, with PYTHONPATH naming the directory that holds gsync" \
        in r.stderr


def test_pick_device_names_what_there_is(device):
    """gsync.pick_device binds gsync_pick_device: the device the tests run
    on, and for a platform no name contains or a device past the
    platform's a DeviceError that says what there is."""
    assert gsync.pick_device() == device
    assert gsync.pick_device(device.platform.name, 0) == device
    with pytest.raises(gsync.DeviceError,
                       match=r"no OpenCL platform named like 'no such "
                             r"platform' \(there are: '"):
        gsync.pick_device("no such platform")
    with pytest.raises(gsync.DeviceError,
                       match=r"has no device 4096 \(it has \d+\)"):
        gsync.pick_device(device.platform.name, 4096)
    for bad in (b"Portable", 1):
        with pytest.raises(gsync.ArgumentError, match="platform must be"):
            gsync.pick_device(bad)
    for bad in (-1, 2**32, True, 1.0):
        with pytest.raises(gsync.ArgumentError, match="index must be"):
            gsync.pick_device("", bad)
