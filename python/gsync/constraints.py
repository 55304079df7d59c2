"""A constraints file (docs/constraints.md), loaded by libgsync.

libgsync reads and validates the file (gsync_program_load), checks a
program's source and a device against it and gives the build options;
Constraints calls it for each, and holds what the launches made here
(gsync.launch, gsync.watch) read of the file, as libgsync read it
(gsync_program_get_info and the kernel and parameter infos). The file is
read and checked once, in libgsync, so the Python package refuses what
libgsync refuses, with its message.
"""

import os

from . import _lib
from .errors import GsyncError

# The kinds of "params" entries and how a message names each (as
# runtime/constraints.c's gsli_param_kinds does): those the probe of how
# many work-groups fit sets, and the handles it cannot make up.
PARAM_KINDS = {
    "global": "a global pointer",
    "constant": "a constant pointer",
    "local": "a local pointer",
    "private": "a value",
    "image": "an image",
    "sampler": "a sampler",
    "pipe": "a pipe",
    "queue": "a device queue",
}


def _text(b):
    """A string of libgsync's (bytes, or None) as a str; bytes that are not
    UTF-8 kept as surrogates (surrogateescape), as the package reads
    OpenCL C."""
    return None if b is None else b.decode("utf-8", "surrogateescape")


def _offset(n):
    return None if n == _lib.NO_OFFSET else n


class ParamInfo:
    """One of a kernel's own parameters ("params"): its name ("" if the
    file names none), kind ("global", "constant", "local", "private", or
    a handle the probe cannot make up: "image", ...) and, for "private",
    the value's size in bytes (None otherwise)."""

    def __init__(self, name, kind, nbytes):
        self.name = name
        self.kind = kind
        self.bytes = nbytes

    @property
    def words(self):
        """What it takes, as a message says it (param_words in
        runtime/fit.c)."""
        if self.kind not in PARAM_KINDS:
            return ("of a kind this libgsync does not know "
                    f'("{self.kind[:40]}")')
        if self.kind == "private":
            return f"{PARAM_KINDS[self.kind]} of {self.bytes} bytes"
        return PARAM_KINDS[self.kind]


class KernelInfo:
    """What the constraints say about one kernel (gsync_kernel_info;
    docs/constraints.md). The optional offsets are None where the file
    has none: grid_offset in files from before N-D launches, abort_offset
    before the spin limit, poll_cap_offset where discovery reads no cap;
    params is None in files from before "params". A kernel without
    global_barrier() has no state: state_index is None, and the numbers
    are 0."""

    def __init__(self, program, index):
        i = program.kernel(index)
        self.name = _text(i.name)
        self.global_barrier = bool(i.global_barrier)
        self.work_dim = i.work_dim
        self.state_index = i.state_index if self.global_barrier else None
        self.fixed_bytes = i.fixed_bytes
        self.per_group_bytes = i.per_group_bytes
        self.reset_by_kernel = bool(i.reset_by_kernel)
        self.participants_offset = i.participants_offset
        self.grid_offset = _offset(i.grid_offset)
        self.abort_offset = _offset(i.abort_offset)
        self.abort_bytes = i.abort_bytes
        self.poll_cap_offset = _offset(i.poll_cap_offset)
        self.max_work_groups = i.max_work_groups
        self.min_local_size = i.min_local_size
        self.coresident_launch_required = bool(i.coresident_launch_required)
        self.params = None
        if i.has_params:
            self.params = []
            for n in range(i.n_params):
                p = program.param(index, n)
                self.params.append(ParamInfo(
                    _text(p.name), _text(p.kind),
                    p.bytes if p.kind == b"private" else None))

    def state_bytes(self, groups):
        return self.fixed_bytes + self.per_group_bytes * groups


class Constraints:
    """A constraints file loaded by libgsync; see gsync.Program for its use.

    ``path`` names the file in messages; gsync.rewrite() sets it to what
    was rewritten, as the file it read is gone by then."""

    def __init__(self, path):
        self._program = _lib.Program(path)
        info = self._program.info()
        # The name libgsync's messages give the file.
        self._loaded_as = info.path
        self.path = _text(info.path)
        self.barrier = _text(info.barrier)
        self.discovery = bool(info.discovery)
        self.spin_limit_ms = info.spin_limit_ms
        self.fingerprint = _text(info.fingerprint)
        self.sites = [_text(info.sites[n]) for n in range(info.n_sites)]
        self.build_args = [_text(info.build_args[n])
                           for n in range(info.n_build_args)]
        self.kernels = [KernelInfo(self._program, n)
                        for n in range(info.n_kernels)]

    def kernel(self, name):
        for k in self.kernels:
            if k.name == name:
                return k
        return None

    def _named(self, call, *args):
        """Calls libgsync; a message that names the file names it as path
        does."""
        try:
            return call(*args)
        except GsyncError as e:
            loaded = self._loaded_as + b": "
            path = os.fsencode(self.path)
            if path == self._loaded_as or not e.raw.startswith(loaded):
                raise
            raise type(e)(path + b": " + e.raw[len(loaded):]) from None

    def check_source(self, source):
        """Raises MismatchError unless source (str or bytes) is the output
        these constraints were written with (gsync_program_check_source)."""
        if isinstance(source, str):
            source = source.encode("utf-8", "surrogateescape")
        self._named(self._program.check_source, source)

    def check_device(self, device):
        """Raises DeviceError if device (a pyopencl.Device) does not meet
        "requires" (gsync_program_check_device)."""
        self._named(self._program.check_device, device)

    def build_options(self, device):
        """The clBuildProgram options for device, a str
        (gsync_program_build_options)."""
        return _text(self._named(self._program.build_options, device))

    def choose_barrier(self, device):
        """The barrier rule build_options(device) builds, and why
        (gsync_program_choose_barrier; docs/auto.md): a BarrierChoice.
        For an output of one named rule, that rule, source "named"."""
        rule, define, source, why = self._named(
            self._program.choose_barrier, device)
        return BarrierChoice(_text(rule), _text(define), _text(source),
                             _text(why))

    def set_barrier(self, rule):
        """Forces rule (a str; None: none) for the builds of an output of
        --barrier=auto, before GSYNC_BARRIER (gsync_program_set_barrier);
        ArgumentError where the output does not hold it."""
        self._named(self._program.set_barrier,
                    None if rule is None else os.fsencode(rule))


class BarrierChoice:
    """The rule libgsync builds on a device (gsync_barrier_choice): rule
    ("tree"), define (its macro, "GSYNC_BARRIER_TREE"; None for an output
    of one named rule), source ("forced", "cache", "table", "first" or
    "named") and why, one line."""

    def __init__(self, rule, define, source, why):
        self.rule = rule
        self.define = define
        self.source = source
        self.why = why

    def __repr__(self):
        return f"BarrierChoice({self.rule!r}, source={self.source!r})"


def load(path):
    """Reads and validates the constraints file at path
    (gsync_program_load)."""
    return Constraints(os.fspath(path))
