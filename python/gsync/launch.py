"""Kernels and launches: libgsync's gsync_kernel_create(), gsync_enqueue(),
gsync_enqueue_nd() and gsync_finish_nd() over PyOpenCL."""

import threading
from dataclasses import dataclass

import numpy as np
import pyopencl as cl

from . import layout
from . import watch as _watch
from .constraints import PROBE_SETS
from .device import FIT_MACRO, built_with
from .errors import (ArgumentError, KernelError, LaunchAborted, LaunchError,
                     MismatchError, OpenCLError)

# The abort record's words, counted from its first (the state table's:
# gsync.layout, docs/constraints.md).
(ABORT_KIND, ABORT_SITE, ABORT_GROUP, ABORT_REAL_GROUP, ABORT_ARRIVED,
 ABORT_EXPECTED, ABORT_WAITED_MS, ABORT_LAUNCHED) = (
    layout.WORD["abort_" + n] - layout.WORD["abort"]
    for n in ("kind", "site", "group", "real_group", "arrived", "expected",
              "waited_ms", "launched"))
ABORTED_IN_BARRIER = layout.VALUE["aborted_in_barrier"]
ABORTED_IN_DISCOVERY = layout.VALUE["aborted_in_discovery"]
# The probe of how many work-groups fit: state word fit_on nonzero makes a
# launch one, word fit_count is its count (rewrite-rules/discovery-none.cl).
FIT_COUNT, FIT_ON = layout.WORD["fit_count"], layout.WORD["fit_on"]
# The local memory the probe gives each local pointer argument, which it
# never touches (PROBE_LOCAL_BYTES in runtime/internal.h).
PROBE_LOCAL_BYTES = 16

# The poll cap (docs/constraints.md, "The poll cap"; runtime/poll-cap.c):
# every CAP_REMEASURE-th capped launch polls every group again, and after
# CAP_SHORT capped launches that admit fewer than their cap, a device and
# local size get no cap.
CAP_REMEASURE, CAP_SHORT = 32, 2

# The largest size_t, which libgsync's sizes and counts are.
SIZE_MAX = 2**64 - 1

# Held while a launch sets a kernel's state argument and enqueues it: two
# handles may share one cl.Kernel, and another thread's argument must not
# slip in between.
_launch_lock = threading.Lock()


def cl_error(call, e):
    """An OpenCLError for the pyopencl.Error e of call, in libgsync's words."""
    code = getattr(e, "code", None)
    if code is None and e.args and hasattr(e.args[0], "code"):
        code = e.args[0].code()
    try:
        name = "CL_" + cl.status_code.to_string(code)
    except Exception:
        name = "unknown error"
    return OpenCLError(f"{call} failed: {name} ({code})", code)


@dataclass
class LaunchInfo:
    """What a finished launch ran on (gsync_launch_info)."""

    work_dim: int      # of the launch
    admitted: int      # work-groups discovery admitted (without: all)
    participants: int  # took part in the global barrier: prod(groups)
    left_out: int      # admitted but left out of the virtual grid
    groups: tuple      # the virtual grid, 3 extents, 1 past work_dim
    polled: int = 0    # work-groups discovery polled: all launched, or the
    #                    first so many where the poll was capped
    launched: int = 0  # work-groups launched

    @property
    def note(self):
        """Why fewer work-groups took part than were launched, and what
        follows, in gsync_launch_note()'s words; "" when all took part."""
        if self.participants >= self.launched:
            return ""
        s = (f"{self.participants} of the {self.launched} work-groups "
             "launched took part in the global barrier")
        if self.admitted < self.launched:
            s += (f": discovery admitted only the {self.admitted} that the "
                  "device ran at once, and the others returned at once")
            if self.polled < self.launched:
                s += (f" (it polled the first {self.polled}, as many as "
                      "fitted in an earlier launch)")
        if self.left_out > 0:
            s += ("; " if self.admitted < self.launched else ": ") + \
                (f"{self.left_out} admitted work-groups were left out of the "
                 "virtual grid of " +
                 " x ".join(str(g) for g in self.groups[:max(self.work_dim,
                                                             1)]))
        return s + ("; the ids count only the work-groups that took part, so "
                    "a kernel that is not grid-stride (for (i = "
                    "get_global_id(0); i < n; i += get_global_size(0))) "
                    "leaves the data past their ids untouched")


# OpenCL C scalar types and the numpy type of the same size and kind.
_NUMPY_SCALARS = {
    "char": "int8", "uchar": "uint8", "short": "int16", "ushort": "uint16",
    "int": "int32", "uint": "uint32", "long": "int64", "ulong": "uint64",
    "half": "float16", "float": "float32", "double": "float64",
}
_NUMPY_BY_SIZE = {
    1: "np.int8 or np.uint8", 2: "np.int16, np.uint16 or np.float16",
    4: "np.int32, np.uint32 or np.float32",
    8: "np.int64, np.uint64 or np.float64",
}


def _arg_type(kernel, n):
    """The OpenCL C type of kernel's argument n, where the device says it
    (many do only for programs built with -cl-kernel-arg-info), else None."""
    try:
        return kernel.get_arg_info(n, cl.kernel_arg_info.TYPE_NAME).strip()
    except (cl.Error, AttributeError):
        return None


def _a(value):
    """value's type for a message: "None", "a list", "an int"."""
    if value is None:
        return "None"
    name = type(value).__name__
    return ("an " if name[0] in "aeiou" else "a ") + name


def _value_hint(kernel, n, p, value):
    """What to pass for argument n, a value (p: its ParamInfo, or None in
    files from before "params"), where value is not one of its size: the
    numpy scalar type, by the parameter's OpenCL C type where the device
    says it, else by its size."""
    size = p.bytes if p is not None and p.kind == "private" else None
    if isinstance(value, np.generic) and size is not None and \
            value.nbytes != size:
        return f"; a {value.dtype} is {value.nbytes} bytes, the parameter " \
            f"takes {size}"
    if isinstance(value, (bool, int, float)) and \
            not isinstance(value, np.generic):
        hint = (f"; a Python {type(value).__name__} has no OpenCL size: pass "
                "a numpy scalar of the parameter's type")
    elif p is not None:
        hint = (f"; {_a(value)} is no value of {size} bytes: pass a numpy "
                "scalar of the parameter's type")
    else:
        return ""
    ctype = _arg_type(kernel, n)
    if ctype in _NUMPY_SCALARS:
        hint += f", np.{_NUMPY_SCALARS[ctype]}({value!r:.20}) for a {ctype}" \
            if isinstance(value, (bool, int, float)) else \
            f", np.{_NUMPY_SCALARS[ctype]} for a {ctype}"
    elif size in _NUMPY_BY_SIZE:
        hint += f" ({size} bytes: {_NUMPY_BY_SIZE[size]})"
    return hint


def _arg_hint(kernel, n, p, value):
    """Why set_arg refused value for argument n, in the parameter's terms
    (p: its ParamInfo, or None in files from before "params"): what a
    parameter of its kind takes from PyOpenCL, where value is not that."""
    kind = p.kind if p is not None else "private"
    got = _a(value)
    if kind in ("global", "constant"):
        if isinstance(value, np.ndarray):
            return ("; a numpy array is host memory: pass a pyopencl.Buffer "
                    "(cl.Buffer(ctx, flags, hostbuf=array) copies it to the "
                    "device)")
        if not isinstance(value, cl.MemoryObjectHolder):
            return f"; {got} is no buffer: pass a pyopencl.Buffer (or None)"
        return ""
    if kind == "local":
        if not isinstance(value, cl.LocalMemory):
            return (f"; {got} is no local memory: pass "
                    "cl.LocalMemory(BYTES), the bytes of local memory it "
                    "points to")
        return ""
    if kind == "private":
        return _value_hint(kernel, n, p, value)
    return ""


def _count(value):
    """value as an int, if it is an integer (a Python or numpy int, not a
    bool); else None."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(
            value, (int, np.integer)):
        return None
    return int(value)


def _shape(name, what, value):
    """A launch extent (what: "work-groups", "local size" or "offset") as a
    tuple of 1 to 3 ints of at least 0: an int, or a tuple or list of ints.
    A str is refused, not taken as a sequence of digits ("12" is no 1 x 2
    launch)."""
    one = _count(value)
    if one is not None:
        t = (one,)
    elif isinstance(value, (tuple, list)):
        t = tuple(_count(x) for x in value)
    else:
        t = (None,)
    if None in t:
        raise ArgumentError(f"kernel {name}: the {what} must be an int or a "
                            f"tuple of ints, not {value!r:.40}")
    if not 1 <= len(t) <= 3:
        raise LaunchError(f"kernel {name}: a launch needs 1 to 3 dimensions, "
                          "with work-groups and a local size for each")
    if min(t) < 0:
        raise LaunchError(f"kernel {name}: the {what} {min(t)} is negative")
    return t


class _Limits:
    """What a launch on one device may have (read_limits in
    runtime/launch.c): work-items per group (the device's and the kernel's
    bound, and which it is), per dimension, the largest global size the
    device's size_t holds, and the local size the kernel was compiled for
    (reqd_work_group_size; 0s: none)."""

    def __init__(self, kernel, dev):
        self.group_items = dev.max_work_group_size
        self.group_bound = "the device's CL_DEVICE_MAX_WORK_GROUP_SIZE"
        kernel_items = kernel.get_work_group_info(
            cl.kernel_work_group_info.WORK_GROUP_SIZE, dev)
        if 0 < kernel_items < self.group_items:
            self.group_items = kernel_items
            self.group_bound = "the kernel's CL_KERNEL_WORK_GROUP_SIZE"
        self.dim_items = list(dev.max_work_item_sizes)
        bits = dev.address_bits
        self.max_size = (1 << (bits if 0 < bits < 64 else 64)) - 1
        # A device that cannot say leaves the driver to refuse the launch.
        try:
            self.reqd = tuple(kernel.get_work_group_info(
                cl.kernel_work_group_info.COMPILE_WORK_GROUP_SIZE, dev))
        except cl.Error:
            self.reqd = (0, 0, 0)
        self.local_bytes = dev.local_mem_size
        self._kernel, self._dev, self._own_local = kernel, dev, None

    def own_local(self):
        """The local memory the kernel declares itself, without what its
        local pointer arguments get: read on a kernel object of its own,
        whose arguments are unset (CL_KERNEL_LOCAL_MEM_SIZE counts what
        they were set to, where a device counts them at all)."""
        if self._own_local is None:
            try:
                fresh = cl.Kernel(self._kernel.program,
                                  self._kernel.function_name)
                self._own_local = fresh.get_work_group_info(
                    cl.kernel_work_group_info.LOCAL_MEM_SIZE, self._dev)
            except cl.Error:
                self._own_local = 0
        return self._own_local


class Kernel:
    """One kernel and its hidden state buffer, made by Program.kernel().

    Launches of one Kernel are ordered (they share the state), on any
    queue; calls from several threads take turns. ``kernel`` is the
    pyopencl.Kernel, whose own arguments are the caller's to set, or pass
    them to enqueue() and __call__()."""

    def __init__(self, program, queue, kernel, max_groups):
        c = program.constraints
        if queue is None or kernel is None:
            raise ArgumentError("gsync_kernel_create: "
                                f'{"queue" if queue is None else "kernel"} '
                                "is NULL")
        if not isinstance(kernel, cl.Kernel):
            raise ArgumentError(
                "gsync_kernel_create: kernel must be a pyopencl.Kernel of a "
                "program built from this output (built.NAME, built = "
                f"prog.build(ctx)), not {kernel!r:.40}")
        name = kernel.function_name
        # Commands of another context's queue fail with a bare
        # INVALID_CONTEXT.
        if queue.context != kernel.context:
            raise ArgumentError(
                "gsync_kernel_create: queue belongs to another context than "
                f"kernel {name}'s: give a queue of the context its program "
                "was built in")
        info = c.kernel(name)
        if info is None:
            raise KernelError(f'{c.path}: no kernel "{name}"')
        # A count, as for gsync_kernel_create's size_t: a str, a bool or a
        # float made a state of a size for no count, or none.
        count = _count(max_groups)
        if count is None:
            raise ArgumentError(f"kernel {name}: max_groups must be an int, "
                                f"not {max_groups!r:.40}")
        if count < 1:
            raise LaunchError(f"kernel {name}: max_groups must be at least 1")
        max_groups = count
        # Before the state is made to the constraints' layout: the program
        # must be built from the output they were written with.
        try:
            src = kernel.program.get_info(cl.program_info.SOURCE)
        except cl.Error:
            src = ""
        except UnicodeDecodeError as e:
            # PyOpenCL decodes the source as UTF-8, which OpenCL C need not
            # be (a comment in Latin-1): its bytes, as the output holds them.
            src = (e.object.decode("utf-8", "surrogateescape")
                   if isinstance(e.object, bytes) else "")
        if src:
            program.check_source(src)
        if info.global_barrier:
            nargs = kernel.num_args
            if nargs != info.state_index + 1:
                raise KernelError(
                    f"kernel {name} has {nargs} parameters, but {c.path} puts "
                    f"its state argument at index {info.state_index} (built "
                    "from another rewrite?)")
        self.info = info
        self.name = name
        self.kernel = kernel
        self.program = program
        self.max_groups = max_groups
        self.spin_limit_ms = c.spin_limit_ms
        self.discovery = c.discovery
        self.sites = list(c.sites)
        # Reentrant: a call holds it across its enqueue and its finish.
        self._lock = threading.RLock()
        self._last = None       # the latest command on the state
        self._launched = False
        self._last_groups = 0
        self._last_dim = 1
        self._last_shape = (1, 1, 1)
        self._state = None
        self._queue = queue  # the latest queue _check_queue passed
        self.watch_state = None  # watch(): a gsync.watch.Watch
        self._fit = {}  # groups_that_fit(): (device, local size) -> groups
        self._limits = {}  # device -> _Limits
        # The poll cap: (device, local size) -> [fit, capped, short]; the
        # cap word as the enqueued commands leave it; the latest launch's
        # cap, key, and whether finish() has taken its count.
        self._caps = {}
        self._cap_written = 0
        self._last_cap = 0
        self._last_key = None
        self._cap_unread = False
        if info.global_barrier:
            self.state_bytes = info.state_bytes(max_groups)
            if self.state_bytes > SIZE_MAX:
                raise LaunchError(f"kernel {name}: state for {max_groups} "
                                  "work-groups overflows")
            try:
                self.state = cl.Buffer(queue.context, cl.mem_flags.READ_WRITE,
                                       max(self.state_bytes, 4))
            except cl.Error as e:
                raise self._state_error(queue, e) from None
            # The first launch waits on this fill through _last.
            self._zero(queue)

    def __del__(self):
        # A launch may still run when the Kernel goes: where its state
        # lives in memory the host shares (fine-grained SVM, which is
        # freed with the Watch), the launch writes its words there until
        # it ends, so the memory must outlive it. A state buffer of the
        # device's own outlives its commands by OpenCL's rules.
        w = getattr(self, "watch_state", None)
        last = getattr(self, "_last", None)
        if w is not None and w.svm is not None and last is not None:
            try:
                last.wait()
            except cl.Error:
                pass

    def _state_error(self, queue, e):
        """An OpenCLError for a state buffer that clCreateBuffer refused,
        with its size and what it follows from, and where the device
        allocates no buffer that large, how large one it does (state_fail
        in runtime/launch.c)."""
        err = cl_error("clCreateBuffer (state)", e)
        i, g = self.info, self.max_groups
        limit = ""
        if err.code == cl.status_code.INVALID_BUFFER_SIZE:
            limit = (", and the device allocates at most "
                     f"{queue.device.max_mem_alloc_size} bytes at once "
                     "(CL_DEVICE_MAX_MEM_ALLOC_SIZE): create the kernel for "
                     "fewer work-groups")
        return OpenCLError(
            f"kernel {self.name}: {err}: the state for up to {g} work-groups "
            f"(max_groups) is {self.state_bytes} bytes ({i.fixed_bytes} + "
            f"{i.per_group_bytes} x {g}){limit}", err.code)

    def _check_queue(self, queue, fn):
        """Refuses a queue of another context than the kernel's, whose
        commands fail with a bare INVALID_CONTEXT (gsli_check_queue in
        runtime/launch.c); fn names the call for the message."""
        if queue is None:
            raise ArgumentError(f"{fn}: queue is NULL")
        if queue == self._queue:
            return
        if queue.context != self.kernel.context:
            raise ArgumentError(
                f"{fn}: queue belongs to another context than kernel "
                f"{self.name} (the one Program.kernel() was given)")
        self._queue = queue

    @property
    def state(self):
        """The hidden state buffer that every launch is given (None for a
        kernel that reaches no global_barrier()): made here, of
        ``state_bytes`` bytes (docs/constraints.md, "The state buffer")."""
        return self._state

    @state.setter
    def state(self, buf):
        # Every buffer the kernel is launched with passes here, those made
        # by hand too: OpenCL refuses none that is too small, and the
        # kernel would read and write past its end.
        want = getattr(self, "state_bytes", 0)
        if not self.info.global_barrier:
            if buf is not None:
                raise ArgumentError(f"kernel {self.name} reaches no "
                                    "global_barrier(): it takes no state")
        elif not isinstance(buf, cl.MemoryObjectHolder):
            raise ArgumentError(
                f"kernel {self.name}: the state must be a pyopencl.Buffer of "
                f"{want} bytes, not {_a(buf)}")
        elif buf.size < want:
            raise ArgumentError(
                f"kernel {self.name}: a state buffer of {buf.size} bytes is "
                f"too small: launches of up to {self.max_groups} work-groups "
                f"need {want} ({self.info.fixed_bytes} + "
                f"{self.info.per_group_bytes} x {self.max_groups}), or the "
                "kernel reads and writes past its end")
        self._state = buf

    @property
    def num_args(self):
        """How many arguments the caller sets: the kernel's own."""
        return (self.info.state_index if self.info.global_barrier
                else self.kernel.num_args)

    def _zero(self, queue):
        self._cap_written = 0
        # While the host shares the state, it alone writes word
        # watch_cancel (see cancel()): the zeroing goes around it.
        ranges = [(0, self.state_bytes)]
        w = self.watch_state
        if w is not None and w.shared is not None:
            ranges = [(0, _watch.CANCEL * 4),
                      (_watch.CANCEL * 4 + 4, self.state_bytes)]
        try:
            for lo, hi in ranges:
                if hi > lo:
                    self._last = cl.enqueue_fill_buffer(
                        queue, self.state, np.uint8(0), lo, hi - lo,
                        wait_for=[self._last] if self._last is not None
                        else None)
        except cl.Error as e:
            raise cl_error("clEnqueueFillBuffer (state)", e) from None

    def _check(self, queue, groups, local, offset=None):
        """Checks a launch shape against the constraints, the create-time
        bound and the limits of the device of queue (gsli_check_shape in
        runtime/launch.c), with libgsync's messages; returns the
        work-groups."""
        i = self.info
        g = int(np.prod(groups, dtype=object))
        ls = int(np.prod(local, dtype=object))
        if g == 0 or ls == 0:
            raise LaunchError(f"kernel {i.name}: empty launch ({g} work-groups "
                              f"of {ls})")
        if g > self.max_groups:
            raise LaunchError(f"kernel {i.name}: {g} work-groups exceed the "
                              f"{self.max_groups} it was created for")
        if i.global_barrier:
            if i.max_work_groups and g > i.max_work_groups:
                raise LaunchError(f"kernel {i.name}: {g} work-groups exceed "
                                  f"its limit of {i.max_work_groups} (the "
                                  "most its barrier and discovery count)")
            if g > 0xFFFFFFFF:
                raise LaunchError(f"kernel {i.name}: {g} work-groups exceed "
                                  "the 4294967295 its state can count")
            if ls < i.min_local_size:
                raise LaunchError(f"kernel {i.name}: local size {ls} is below "
                                  f"its minimum of {i.min_local_size}")
        dev = queue.device
        lim = self._limits.get(dev.int_ptr)
        if lim is None:
            try:
                lim = self._limits[dev.int_ptr] = _Limits(self.kernel, dev)
            except cl.Error as e:
                raise cl_error("clGetDeviceInfo (launch limits)", e) from None
        for d, (n, items) in enumerate(zip(groups, local)):
            before = offset[d] if offset else 0
            if items > lim.dim_items[d]:
                raise LaunchError(
                    f"kernel {i.name}: local size {items} in dimension {d} "
                    f"exceeds the device's limit of {lim.dim_items[d]} "
                    "(CL_DEVICE_MAX_WORK_ITEM_SIZES)")
            if n * items + before > lim.max_size:
                raise LaunchError(
                    f"kernel {i.name}: {n} x {items} work-items"
                    f"{' past the offset' if before else ''} in dimension {d} "
                    f"exceed the {lim.max_size} the device's size_t holds")
        if ls > lim.group_items:
            raise LaunchError(
                f"kernel {i.name}: local size {ls} exceeds the "
                f"{lim.group_items} work-items a work-group may have "
                f"({lim.group_bound})")
        if lim.reqd[0] and tuple(lim.reqd) != tuple(local) + (1,) * (
                3 - len(local)):
            raise LaunchError(
                f"kernel {i.name}: local size "
                f"{' x '.join(str(x) for x in local)} is not the one the "
                "kernel was compiled for, reqd_work_group_size("
                f"{', '.join(str(x) for x in lim.reqd)}): launch it with "
                "that local size")
        return g

    def _check_local(self, queue, args):
        """Refuses local pointer arguments (cl.LocalMemory) that ask, with
        the kernel's own local memory, for more than the device of queue
        has: a driver may abort the process on such a launch (PoCL does)
        rather than refuse it. _check has read the device's limits."""
        sizes = [(n, a.size) for n, a in enumerate(args)
                 if isinstance(a, cl.LocalMemory)]
        if not sizes:
            return
        lim = self._limits[queue.device.int_ptr]
        asked = sum(b for _, b in sizes)
        own = 0 if asked > lim.local_bytes else lim.own_local()
        if asked + own <= lim.local_bytes:
            return
        params = self.info.params or ()
        what = ", ".join(
            f"argument {n}"
            + (f" ({params[n].name})" if n < len(params) and params[n].name
               else "") + f" {b} bytes" for n, b in sizes)
        raise LaunchError(
            f"kernel {self.name}: its local memory ({what}"
            + (f", its own {own} bytes" if own else "") + ") is more than "
            f"the {lim.local_bytes} bytes the device has "
            "(CL_DEVICE_LOCAL_MEM_SIZE)")

    def enqueue(self, queue, groups, local_size, *args, offset=None):
        """Sets the hidden argument (and args, the kernel's own arguments in
        order, if given) and enqueues a launch of groups work-groups of
        local_size work-items, each an int (1-D) or a tuple of 1 to 3
        (gsync_enqueue_nd), with the global work offset offset (None:
        none). Returns at once: call finish() before trusting the
        results."""
        self._check_queue(queue, "gsync_enqueue_nd")
        groups = _shape(self.name, "work-groups", groups)
        local = _shape(self.name, "local size", local_size)
        if offset is not None:
            offset = _shape(self.name, "offset", offset)
        if len(local) != len(groups) or (offset is not None and
                                         len(offset) != len(groups)):
            raise LaunchError(
                f"kernel {self.name}: groups, local size and offset differ in "
                "dimensions")
        if args and len(args) != self.num_args:
            names = [p.name or "?" for p in self.info.params or ()]
            raise ArgumentError(
                f"kernel {self.name}: takes {self.num_args} arguments besides "
                "its state" + (f" ({', '.join(names)})" if names else "")
                + f", {len(args)} given")
        with self._lock:
            total = self._check(queue, groups, local, offset)
            self._check_local(queue, args)
            if (self.state is not None and not self.info.reset_by_kernel and
                    self._launched):
                self._zero(queue)
            if self.watch_state is not None:
                try:
                    _watch.prepare(self, queue)
                except cl.Error as e:
                    raise cl_error("clEnqueueFillBuffer (watch words)",
                                   e) from None
            glob = tuple(g * ls for g, ls in zip(groups, local))
            self._cap_unread = False
            if self.state is not None and \
                    self.info.poll_cap_offset is not None:
                self._cap_prepare(queue, total,
                                  int(np.prod(local, dtype=object)))
            with _launch_lock:
                for n, a in enumerate(args):
                    try:
                        self.kernel.set_arg(n, a)
                    except cl.Error as e:
                        raise self._arg_error(n, a, e) from None
                try:
                    if self.state is not None:
                        self.kernel.set_arg(self.info.state_index, self.state)
                except cl.Error as e:
                    raise cl_error("clSetKernelArg (state)", e) from None
                try:
                    ev = cl.enqueue_nd_range_kernel(
                        queue, self.kernel, glob, local,
                        global_work_offset=offset,
                        wait_for=[self._last] if self._last is not None
                        else None)
                except cl.Error as e:
                    raise self._launch_error(queue, local, e) from None
            self._last = ev
            self._launched = True
            self._last_groups = total
            self._last_dim = len(groups)
            self._last_shape = tuple(groups) + (1,) * (3 - len(groups))

    def _arg_error(self, n, value, e):
        """An OpenCLError for argument n that set_arg refused, naming the
        parameter and saying what it takes (_arg_hint)."""
        err = cl_error("clSetKernelArg", e)
        params = self.info.params or ()
        p = params[n] if n < len(params) else None
        what = f"argument {n}"
        if p is not None:
            what += f" ({p.name}, {p.words})" if p.name else f" ({p.words})"
        return OpenCLError(f"kernel {self.name}: {what}: {err}"
                           f"{_arg_hint(self.kernel, n, p, value)}", err.code)

    def _launch_error(self, queue, local, e):
        """An OpenCLError for a launch the driver refused, saying what the
        code means for this kernel (launch_fail in runtime/launch.c)."""
        err = cl_error("clEnqueueNDRangeKernel", e)
        head = f"kernel {self.name}: {err}"
        wgi = cl.kernel_work_group_info
        if err.code == cl.status_code.INVALID_WORK_GROUP_SIZE:
            # (A local size other than reqd_work_group_size is refused
            # before the launch, _check.)
            try:
                most = self.kernel.get_work_group_info(wgi.WORK_GROUP_SIZE,
                                                       queue.device)
            except cl.Error:
                most = 0
            items = int(np.prod(local, dtype=object))
            if most and items > most:
                return OpenCLError(
                    f"{head}: a local size of {items} work-items is more "
                    f"than the {most} this kernel can have on this device "
                    "(CL_KERNEL_WORK_GROUP_SIZE)", err.code)
        if err.code == cl.status_code.INVALID_KERNEL_ARGS:
            own = self.num_args
            if self.state is not None and own > 0:
                return OpenCLError(
                    f"{head}: not every argument is set; pass the kernel's "
                    f"own {own} to the launch (or set indices 0 to {own - 1} "
                    "on Kernel.kernel), and gsync sets the state argument "
                    f"(index {own})", err.code)
            return OpenCLError(f"{head}: not every argument is set; pass "
                               "them to the launch", err.code)
        return err

    def _cap_prepare(self, queue, groups, local):
        """Chooses the launch's poll cap and, where the state's word does
        not already act so, enqueues its write (gsli_poll_cap_prepare in
        runtime/poll-cap.c)."""
        key = (queue.device.int_ptr, local)
        e = self._caps.setdefault(key, [0, 0, 0])
        cap = 0
        if e[0] and groups > e[0] and e[2] < CAP_SHORT:
            if e[1] < CAP_REMEASURE:
                cap = e[0]
                e[1] += 1
            else:
                e[1] = 0  # this launch measures again
        self._last_cap, self._last_key, self._cap_unread = cap, key, True
        # A cap of the launch's size or more caps nothing, as 0 does.
        now = self._cap_written if self._cap_written < groups else 0
        if now == cap:
            return
        try:
            self._last = cl.enqueue_fill_buffer(
                queue, self.state, np.uint32(cap), self.info.poll_cap_offset,
                4, wait_for=[self._last] if self._last is not None else None)
        except cl.Error as e:
            raise cl_error("clEnqueueFillBuffer (poll cap)", e) from None
        self._cap_written = cap

    def _cap_learn(self, admitted):
        """Takes what a completed launch admitted for later caps."""
        e = self._caps.setdefault(self._last_key, [0, 0, 0])
        if self._last_cap:
            if admitted < self._last_cap:
                e[2] += 1
                e[1] = CAP_REMEASURE
        elif admitted < self._last_groups:
            e[0], e[1] = admitted, 0
        elif admitted > e[0]:
            e[0] = 0

    def _polled(self):
        # _cap_prepare caps only launches of more groups than the cap.
        return self._last_cap or self._last_groups

    def groups_that_fit(self, queue, local_size):
        """For output rewritten with --no-discovery, whose launches must
        have no more work-groups than the device runs at once: how many of
        local_size work-items (an int or a tuple of 1 to 3) the device of
        queue runs at once. Measured by one probe launch of this kernel, in
        which no work-group runs its code, of max_groups groups (at most the
        constraints' max_work_groups), so the answer is at most that; kept
        per device and local size. The probe launches a kernel object of
        its own with every argument set here (None for buffers, a few bytes
        of local memory, zero values), so the kernel's own arguments need
        not be set; KernelError for a kernel that takes an image, sampler,
        pipe or device queue. Needs the program built with build_options()
        (MismatchError otherwise). Output with discovery needs none
        (ArgumentError); see gsync_groups_that_fit() in libgsync.h."""
        self._check_queue(queue, "gsync_groups_that_fit")
        local = _shape(self.name, "local size", local_size)
        if self.state is None:
            raise ArgumentError(f"kernel {self.name} reaches no "
                                "global_barrier(): any number of work-groups "
                                "may be launched")
        if self.discovery:
            raise ArgumentError(f"kernel {self.name} was rewritten with "
                                "discovery: launch any number of work-groups, "
                                "and discovery admits those that fit")
        launch = self.max_groups
        if self.info.max_work_groups:
            launch = min(launch, self.info.max_work_groups)
        launch = min(launch, 0x3FFFFFFF)
        groups = (launch,) + (1,) * (len(local) - 1)
        key = (queue.device.int_ptr, int(np.prod(local, dtype=object)))
        with self._lock:
            self._check(queue, groups, local)
            if key in self._fit:
                return self._fit[key]
            if not built_with(self.kernel, queue.device, FIT_MACRO):
                raise MismatchError(
                    f"kernel {self.name}: its program was not built with "
                    f"gsync_program_build_options() (no -D{FIT_MACRO}), so it "
                    "cannot measure how many work-groups fit")
            count = self._fit_probe(queue, groups, local)
            if not 1 <= count <= launch:
                raise LaunchError(
                    f"kernel {self.name}: the probe of how many work-groups "
                    f"fit counted {count} of {launch} launched")
            self._fit[key] = count
            return count

    def _probe_kernel(self):
        """The kernel object the probe launches (probe_kernel in
        runtime/fit.c): a new one of this kernel, by name, from its program,
        with each of its own arguments set to a harmless value. The probe
        runs none of the kernel's code, so it needs none of the user's
        arguments, which may be unset, or name buffers released since."""
        params = self.info.params
        for n, p in enumerate(params):
            if p.kind not in PROBE_SETS:
                raise KernelError(
                    f"kernel {self.name}: parameter {n} ({p.name}) is "
                    f"{p.words}, which the probe of how many work-groups fit "
                    "cannot make up: launch no more work-groups than you "
                    "know fit, or rewrite with discovery")
        try:
            probe = cl.Kernel(self.kernel.program, self.name)
        except cl.Error as e:
            raise cl_error("clCreateKernel (probe)", e) from None
        try:
            nargs = probe.num_args
        except cl.Error as e:
            raise cl_error("clGetKernelInfo(CL_KERNEL_NUM_ARGS)", e) from None
        if nargs != len(params) + 1:
            raise KernelError(
                f"kernel {self.name} has {nargs} parameters, but its "
                f"constraints list {len(params)} besides the state argument "
                '("params"; built from another rewrite?)')
        for n, p in enumerate(params):
            value = (cl.LocalMemory(PROBE_LOCAL_BYTES) if p.kind == "local"
                     else np.zeros(p.bytes, np.uint8) if p.kind == "private"
                     else None)
            try:
                probe.set_arg(n, value)
            except cl.Error as e:
                err = cl_error("clSetKernelArg", e)
                raise OpenCLError(
                    f"kernel {self.name}: the probe of how many work-groups "
                    f"fit cannot set parameter {n} ({p.name}, {p.words}): "
                    f"{err}", err.code) from None
        return probe

    def _fit_probe(self, queue, groups, local):
        """One probe launch; the count it read. The probe launches a kernel
        object of its own (_probe_kernel); with constraints from before
        "params", this kernel with the user's arguments. The probe's words
        are reset after it in the queue (or the whole state, if that
        fails)."""
        kernel = (self.kernel if self.info.params is None
                  else self._probe_kernel())
        # The probe's words from fit_count to fit_on: 0 but the last.
        on = np.zeros(FIT_ON - FIT_COUNT + 1, np.uint32)
        on[-1] = 1
        glob = tuple(g * ls for g, ls in zip(groups, local))
        count = np.zeros(1, np.uint32)
        try:
            ev = cl.enqueue_copy(queue, self.state, on,
                                 dst_offset=FIT_COUNT * 4,
                                 wait_for=[self._last] if self._last is not None
                                 else None)
            with _launch_lock:
                kernel.set_arg(self.info.state_index, self.state)
                run = cl.enqueue_nd_range_kernel(queue, kernel, glob,
                                                 local, wait_for=[ev])
            cl.enqueue_copy(queue, count, self.state,
                            src_offset=self.info.participants_offset,
                            wait_for=[run], is_blocking=True)
        except cl.Error as e:
            self._zero(queue)
            err = cl_error("gsync_groups_that_fit (probe)", e)
            if self.info.params is None:
                raise OpenCLError(
                    f"{err}; these constraints have no \"params\" (an older "
                    f"gsync-rewrite wrote them), so the probe launched kernel "
                    f"{self.name} with its own arguments, which must be set: "
                    "rewrite with this gsync-rewrite, and the probe needs "
                    "none", err.code) from None
            raise err from None
        try:
            self._last = cl.enqueue_copy(queue, self.state,
                                         np.zeros_like(on),
                                         dst_offset=FIT_COUNT * 4,
                                         wait_for=[run])
        except cl.Error as e:
            self._zero(queue)
            raise cl_error("clEnqueueWriteBuffer (state)", e) from None
        return int(count[0])

    def watch(self, queue):
        """Prepares this kernel, once, before its launches, to be watched
        while it runs (docs/watch.md; gsync_watch_enable() in libgsync.h):
        progress() and cancel() through fine-grained SVM with atomics,
        where the device has it (the state then lives there), and
        set_deadline() where the device's kernels read a clock. Returns a
        gsync.watch.WatchSupport saying what works; DeviceError only when
        nothing does; MismatchError for a program built without the watch
        compiled in (Program.build(..., watch=True)).
        GSYNC_WATCH_CHANNEL=svm or none forces a channel (none where it
        does not work)."""
        self._check_queue(queue, "gsync_watch_enable")
        return _watch.enable(self, queue)

    def progress(self):
        """How far the latest launch is, a gsync.watch.Progress: callable
        from any thread while another waits in finish(); never blocks."""
        return _watch.progress(self)

    def cancel(self):
        """Asks the latest launch to stop: participant 0 leaves at its next
        barrier, every other work-group in its next wait, and finish()
        raises gsync.LaunchCancelled ("cancelled by the host after N
        barriers"). A launch that completes first reports as usual; a
        cancel never reaches a later launch. Never blocks."""
        _watch.cancel(self)

    def set_deadline(self, seconds):
        """Stops each later launch once it has run seconds (0: none) by the
        device's clock, at participant 0's next barrier; finish() then
        raises gsync.LaunchCancelled ("stopped at its deadline ...")."""
        _watch.set_deadline(self, seconds)

    def finish(self, queue):
        """Waits for the latest launch and says how it ended: a LaunchInfo,
        or LaunchAborted (the launch's results are not valid; the state is
        zeroed again for the next launch)."""
        self._check_queue(queue, "gsync_finish")
        with self._lock:
            return self._finish(queue)

    def __call__(self, queue, groups, local_size, *args, offset=None):
        """enqueue() then finish(), with no other thread's launch of this
        Kernel between them: returns the LaunchInfo."""
        with self._lock:
            self.enqueue(queue, groups, local_size, *args, offset=offset)
            return self.finish(queue)

    def _finish(self, queue):
        if not self._launched:
            raise LaunchError(f"kernel {self.name}: nothing launched")
        shape = self._last_shape
        if self.state is None:
            try:
                self._last.wait()
            except cl.Error as e:
                raise cl_error("clWaitForEvents", e) from None
            n = self._last_groups
            return LaunchInfo(self._last_dim, n, n, 0, shape, n, n)
        i = self.info
        end = i.participants_offset + 4
        if i.abort_offset is not None:
            end = max(end, i.abort_offset + i.abort_bytes)
        if i.grid_offset is not None:
            end = max(end, i.grid_offset + 12)
        if self.watch_state is not None:
            end = max(end, _watch.END * 4)
        words = np.zeros(end // 4, np.uint32)
        try:
            cl.enqueue_copy(queue, words, self.state, wait_for=[self._last],
                            is_blocking=True)
        except cl.Error as e:
            raise cl_error("clEnqueueReadBuffer (state)", e) from None
        words = [int(w) for w in words]
        learn, self._cap_unread = self._cap_unread, False
        if i.abort_offset is not None and words[i.abort_offset // 4]:
            rec = words[i.abort_offset // 4:(i.abort_offset + i.abort_bytes) // 4]
            self._zero(queue)
            if self.watch_state is not None and rec[ABORT_KIND] in (
                    _watch.ABORTED_BY_CANCEL, _watch.ABORTED_AT_DEADLINE):
                raise _watch.stopped(self, words)
            raise self._aborted(rec)
        admitted = words[i.participants_offset // 4]
        if learn:
            self._cap_learn(admitted)
        grid = (words[i.grid_offset // 4:i.grid_offset // 4 + 3]
                if i.grid_offset is not None else None)
        if grid and all(grid):
            participants = grid[0] * grid[1] * grid[2]
            groups = tuple(grid)
        else:
            # Constraints from before the grid: discovery numbered
            # dimension 0.
            participants = admitted
            groups = (admitted, 1, 1)
        return LaunchInfo(self._last_dim, admitted, participants,
                          max(admitted - participants, 0), groups,
                          self._polled(), self._last_groups)

    def _group_name(self, gid):
        w = self._last_shape[0] or 1
        h = self._last_shape[1] or 1
        x, y = gid % w, gid // w
        if self._last_dim <= 1:
            return str(gid)
        if self._last_dim == 2:
            return f"({x}, {y})"
        return f"({x}, {y % h}, {y // h})"

    def _aborted(self, rec):
        """The LaunchAborted for the abort record rec, with libgsync's
        message: what was seen, all from the record, and the causes that
        can explain it (the device cannot tell them apart)."""
        timed = len(rec) > ABORT_WAITED_MS
        real = self._group_name(rec[ABORT_REAL_GROUP])
        if rec[ABORT_GROUP] in (rec[ABORT_REAL_GROUP], 0xFFFFFFFF):
            group = real
        else:
            group = f"{rec[ABORT_GROUP]} (launched as {real})"
        waited = f"{rec[ABORT_WAITED_MS]} ms" if timed else "past the spin limit"
        limit = (f"the spin limit of {self.spin_limit_ms} ms"
                 if self.spin_limit_ms else "the spin limit")
        record = dict(
            kernel=self.name, record=tuple(rec),
            group=None if rec[ABORT_GROUP] == 0xFFFFFFFF else rec[ABORT_GROUP],
            launch_group=rec[ABORT_REAL_GROUP], arrived=rec[ABORT_ARRIVED],
            expected=rec[ABORT_EXPECTED],
            waited_ms=rec[ABORT_WAITED_MS] if timed else None,
            launched=rec[ABORT_LAUNCHED] if timed else self._last_groups)
        if rec[ABORT_KIND] == ABORTED_IN_DISCOVERY:
            causes = ["a work-group that joined stopped before closing the "
                      "poll",
                      "the device starts work-groups more slowly than "
                      f"{limit} allows (--spin-limit)"]
            return LaunchAborted(
                f"kernel {self.name}: occupancy discovery aborted the launch: "
                f"work-group {group} waited {waited} for the poll to close and "
                f"saw {rec[ABORT_ARRIVED]} of {rec[ABORT_EXPECTED]} launched "
                f"work-groups join; possible causes: {causes[0]}, or "
                f"{causes[1]}",
                kind="discovery", site=None, site_number=0, causes=causes,
                **record)
        site = rec[ABORT_SITE]
        where = self.sites[site - 1] if 1 <= site <= len(self.sites) else None
        place = f"at {where[:80]}" if where else f"site {site}"
        causes = []
        if not self.discovery:
            causes.append("more work-groups launched than the device runs at "
                          "once (this output has no discovery)")
        causes += ["a global_barrier() that some work-group does not reach",
                   "work between two barriers that takes longer than "
                   f"{limit} (--spin-limit)"]
        return LaunchAborted(
            f"kernel {self.name}: global barrier {place} aborted the launch: "
            f"work-group {group} waited {waited} and saw {rec[ABORT_ARRIVED]} "
            f"of {rec[ABORT_EXPECTED]} work-groups arrive "
            f"({record['launched']} launched); possible causes: "
            + "".join(c + ", " for c in causes[:-2]) + causes[-2] + ", or "
            + causes[-1],
            kind="barrier", site=where, site_number=site, causes=causes,
            **record)
