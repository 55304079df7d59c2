"""gsync: launch kernels rewritten by gsync-rewrite from Python, with
PyOpenCL.

libgsync (runtime/libgsync.h) for Python: libgsync, loaded with ctypes
(gsync._lib says where from), reads the constraints file and checks the
program's source and the device, and its failures are exceptions
(gsync.errors) with its messages; the launches are made here, over
PyOpenCL, as libgsync makes them. A short session::

    import pyopencl as cl, gsync
    prog = gsync.rewrite("heat.cl")           # runs gsync-rewrite
    # or: prog = gsync.load("heat.json", source_path="heat.out.cl")
    ctx = cl.create_some_context(); queue = cl.CommandQueue(ctx)
    built = prog.build(ctx)                   # checks the device first
    heat = prog.kernel(queue, built.heat, max_groups=256)
    info = heat(queue, 256, 64, u, tmp, np.uint32(n), ...)
    print(info.participants)                  # groups that took part

A launch whose barrier waited past the spin limit raises
gsync.LaunchAborted, which names the barrier (file:line:col) and carries
the abort record. A launch can be watched while it runs: build with
prog.build(ctx, watch=True), call heat.watch(queue) once, then
heat.progress(), heat.cancel() (finish() raises gsync.LaunchCancelled)
and heat.set_deadline(seconds).
"""

import ctypes
import errno
import os
import shutil
import subprocess
import sys
import tempfile
import warnings

try:
    import numpy  # noqa: F401  (the package's modules use it)
    import pyopencl as cl
except ImportError as _e:
    # The python3 first on PATH (pyenv, conda, a virtual environment) is
    # often not the one python3-pyopencl is installed for.
    raise ImportError(
        f"gsync needs numpy and PyOpenCL, which {sys.executable} cannot "
        f"import ({_e}): on Debian they are python3-numpy and "
        "python3-pyopencl, for /usr/bin/python3; run that, with PYTHONPATH "
        "naming the directory that holds gsync (README.md, \"In a build\")"
    ) from _e

from . import _lib
from . import constraints as _constraints
from . import layout  # noqa: F401  (the state table, for tools that read it)
from .device import WATCH_BUILD_OPTION
from .errors import (ArgumentError, DeviceError, FileError, FormatError,
                     GsyncError, KernelError, LaunchAborted, LaunchCancelled,
                     LaunchError, LibraryNotFoundError, MismatchError,
                     OpenCLError, OutOfMemoryError, RewriteError)
from .launch import Kernel, LaunchInfo

__all__ = [
    "Program", "Kernel", "LaunchInfo", "load", "rewrite", "find_tool",
    "pick_device",
    "GsyncError", "FileError", "FormatError", "DeviceError", "KernelError",
    "LaunchError", "OpenCLError", "MismatchError", "ArgumentError",
    "OutOfMemoryError", "LibraryNotFoundError", "RewriteError",
    "LaunchAborted", "LaunchCancelled", "WATCH_BUILD_OPTION",
]


class Program:
    """One constraints file, and the output it belongs to when known.

    ``source`` is the rewritten OpenCL C (from rewrite(), or read from
    source_path), or None. The attributes of the constraints are there
    too: ``barrier``, ``discovery``, ``spin_limit_ms``, ``kernels``
    (their descriptions), ``fingerprint``."""

    def __init__(self, constraints, source=None):
        self.constraints = constraints
        self.source = source
        self.warnings = ""  # what gsync-rewrite printed, from rewrite()

    path = property(lambda self: self.constraints.path)
    barrier = property(lambda self: self.constraints.barrier)
    discovery = property(lambda self: self.constraints.discovery)
    spin_limit_ms = property(lambda self: self.constraints.spin_limit_ms)
    kernels = property(lambda self: self.constraints.kernels)
    fingerprint = property(lambda self: self.constraints.fingerprint)

    def check_device(self, device):
        """Raises DeviceError if device lacks what the kernels need
        (gsync_program_check_device)."""
        self.constraints.check_device(device)

    def build_options(self, device):
        """The options for building the output on device, as one string
        (gsync_program_build_options); add your own after them."""
        return self.constraints.build_options(device)

    def choose_barrier(self, device):
        """The barrier rule build_options(device) builds, and why: a
        BarrierChoice with rule, define, source and why (for an output of
        --barrier=auto, docs/auto.md; else the one rule, "named")."""
        return self.constraints.choose_barrier(device)

    def set_barrier(self, rule):
        """Forces rule (None: none) for the builds of an output of
        --barrier=auto, before the environment's GSYNC_BARRIER."""
        self.constraints.set_barrier(rule)

    def check_source(self, source):
        """Raises MismatchError unless source (str or bytes) is the output
        these constraints were written with (gsync_program_check_source)."""
        self.constraints.check_source(source)

    def build(self, context, devices=None, options=(), watch=False):
        """Builds the output (``source``) for devices (default: the
        context's) after checking each, with build_options() and then
        options; returns the pyopencl.Program. watch=True compiles the
        watch into the barriers (WATCH_BUILD_OPTION), which
        Kernel.watch() needs; without it a kernel costs nothing for the
        watch."""
        if self.source is None:
            raise ArgumentError(f"{self.path}: no source: load() it with "
                                "source_path, or use rewrite()")
        devices = devices or context.devices
        for d in devices:
            self.check_device(d)
        # One string: the options quote what holds a space.
        opts = " ".join([self.build_options(devices[0])] +
                        ([WATCH_BUILD_OPTION] if watch else []) + list(options))
        # The bytes as the output holds them (a comment in Latin-1 is not
        # UTF-8), as a str where they are UTF-8: PyOpenCL writes the source
        # of a build that fails into a text file, and raised a TypeError
        # for bytes instead of the build's error and log.
        source = (self.source if isinstance(self.source, bytes) else
                  self.source.encode("utf-8", "surrogateescape"))
        try:
            source = source.decode("utf-8")
        except UnicodeDecodeError:
            pass
        # Not from PyOpenCL's cache of binaries: a program it gives keeps
        # no source, and Kernel() checks the source's fingerprint.
        try:
            return cl.Program(context, source).build(
                options=[opts.strip()], devices=devices, cache_dir=False)
        except TypeError as e:
            # Bytes still: the build's error is the one being handled.
            if isinstance(e.__context__, cl.Error):
                raise e.__context__ from None
            raise

    def kernel(self, queue, kernel, max_groups):
        """Prepares kernel (a pyopencl.Kernel of a program built from this
        output) for launches of up to max_groups work-groups: makes and
        zeroes its state buffer on queue (gsync_kernel_create)."""
        return Kernel(self, queue, kernel, max_groups)


def pick_device(platform=None, index=0):
    """The OpenCL device a program of this project runs on
    (gsync_pick_device): device ``index`` of the first platform whose name
    contains ``platform``; None means $GSYNC_PLATFORM's text, "" any
    platform. A pyopencl.Device; DeviceError naming the platforms there are
    where none matches or it lacks that device."""
    if platform is not None and not isinstance(platform, str):
        raise ArgumentError(
            f"platform must be a str or None, not {platform!r:.40}")
    if isinstance(index, bool) or not isinstance(index, int) or \
            not 0 <= index < 2**32:
        raise ArgumentError(
            f"index must be an int from 0 to 2**32 - 1, not {index!r:.40}")
    dev = ctypes.c_void_p()
    _lib.call(_lib.lib().gsync_pick_device,
              None if platform is None else platform.encode(), index, None,
              ctypes.byref(dev))
    return cl.Device.from_int_ptr(dev.value)


def _read_source(path):
    """The text of the output at path, its bytes as they are: OpenCL C
    need not be UTF-8 (a comment in Latin-1), and the tool copies it byte
    for byte, so bytes that are not UTF-8 are kept as surrogates
    (surrogateescape) and given back to the driver unchanged."""
    with open(path, "rb") as f:
        return f.read().decode("utf-8", "surrogateescape")


def load(constraints_path, source_path=None, source=None):
    """Reads and validates a constraints file (gsync_program_load); with
    source_path or source, the output it belongs to, for Program.build()."""
    c = _constraints.load(constraints_path)
    if source_path is not None:
        source = _read_source(source_path)
    return Program(c, source)


def find_tool():
    """The gsync-rewrite to run: $GSYNC_REWRITE, else the one on PATH."""
    tool = os.environ.get("GSYNC_REWRITE") or shutil.which("gsync-rewrite")
    if not tool:
        raise RewriteError("gsync-rewrite not found: install it, put it on "
                           "PATH or name it in GSYNC_REWRITE")
    return tool


# What every kernel's text holds and a file's name hardly ever does: a
# positional argument with one of these that names no file is taken as
# text, as rewrite() took it before source= (with a DeprecationWarning).
_TEXT_MARKS = ("\n", ";", "{", "}")


def _names_file(path):
    """Whether path (str, bytes or path-like) names something that exists;
    False for what cannot be a path (a NUL byte, too long a name)."""
    try:
        return os.path.exists(path)
    except (OSError, ValueError):
        return False


def _input(path, source):
    """rewrite()'s input as (path, text): one of them None. path is what
    the caller passed first; source the keyword source=."""
    if source is not None:
        if path is not None:
            raise TypeError("gsync.rewrite: give a kernel file's path or "
                            "source= (OpenCL C text), not both")
        if not isinstance(source, (str, bytes)):
            raise TypeError("gsync.rewrite: source= is OpenCL C text (a str "
                            f"or bytes), not {type(source).__name__}")
        return None, source
    if path is None:
        raise TypeError("gsync.rewrite: give a kernel file's path, or its "
                        "text as source=")
    if not isinstance(path, (str, bytes, os.PathLike)):
        raise TypeError("gsync.rewrite: the kernel file's path is a str, "
                        "bytes or path-like object, not "
                        f"{type(path).__name__}")
    if _names_file(path):
        return path, None
    marks = (_TEXT_MARKS if isinstance(path, str) else
             tuple(m.encode() for m in _TEXT_MARKS)
             if isinstance(path, bytes) else ())
    if any(m in path for m in marks):
        warnings.warn("gsync.rewrite: OpenCL C text as the first argument "
                      "is deprecated: pass it as source=", DeprecationWarning,
                      stacklevel=3)
        return None, path
    raise FileNotFoundError(
        errno.ENOENT, "gsync.rewrite: no such kernel file (pass OpenCL C "
        "text as source=)", path)


def rewrite(path=None, barrier=None, defines=None, *, source=None,
            discovery=True, spin_limit=None, include_dirs=(), options=(),
            tool=None):
    """Runs gsync-rewrite on the kernel file path (a str, bytes or
    path-like object), or on OpenCL C text given as source= (a str or
    bytes), and returns the Program of its output and constraints
    (``source`` holds the output). A path that names no file is
    FileNotFoundError, never text parsed as a kernel. (Before source=, a
    str was text or a path by its look: a first argument that names no
    file and holds a newline, ``;``, ``{`` or ``}`` is still taken as
    text, with a DeprecationWarning.)

    barrier: the barrier rule (--barrier); defines: a dict {NAME: value or
    None} or a list of "NAME=value" strings (-D); discovery=False:
    --no-discovery; spin_limit: --spin-limit, e.g. "500ms" or a number of
    milliseconds; include_dirs: -I; options: more arguments as given.
    The input comes last, after "--", so a file named "-Dx.cl" is the input;
    the output's bytes are kept as they are (what is not UTF-8 as
    surrogates, surrogateescape). Raises RewriteError, with the tool's
    file:line:col messages (text is named <stdin>), when the tool refuses
    the input."""
    path, text = _input(path, source)
    args = [tool or find_tool()]
    if barrier is not None:
        args.append(f"--barrier={barrier}")
    if not discovery:
        args.append("--no-discovery")
    if spin_limit is not None:
        args.append(f"--spin-limit={spin_limit}" if isinstance(spin_limit, str)
                    else f"--spin-limit={int(spin_limit)}ms")
    if isinstance(defines, dict):
        defines = [k if v is None else f"{k}={v}" for k, v in defines.items()]
    args += [f"-D{d}" for d in defines or ()]
    args += [f"-I{os.path.abspath(d)}" for d in include_dirs]
    args += list(options)
    if isinstance(text, str):
        text = text.encode("utf-8", "surrogateescape")
    with tempfile.TemporaryDirectory(prefix="gsync-") as tmp:
        out = os.path.join(tmp, "out.cl")
        js = os.path.join(tmp, "out.json")
        # The input last, after "--": a file named "-Dx.cl" is no option.
        args += ["-o", out, "--constraints", js, "--",
                 "-" if text is not None else os.fspath(path)]
        r = subprocess.run(args, input=text, capture_output=True)
        # The tool names files as they are named, which need not be UTF-8:
        # such a byte shows as \xNN, so that the messages print.
        stderr = r.stderr.decode("utf-8", "backslashreplace")
        if r.returncode != 0:
            diag = stderr.strip()
            raise RewriteError(
                f"gsync-rewrite failed (exit status {r.returncode})"
                + (f":\n{diag}" if diag else ""), r.returncode, stderr)
        source = _read_source(out)
        prog = Program(_constraints.load(js), source)
    # The file is gone: name the program by what was rewritten.
    prog.constraints.path = (os.fsdecode(path) if text is None
                             else "<source>") + " (rewritten)"
    prog.warnings = stderr
    return prog
