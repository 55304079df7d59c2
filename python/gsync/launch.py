"""Kernels and launches: libgsync's gsync_kernel_create(), gsync_enqueue(),
gsync_enqueue_nd() and gsync_finish_nd() over PyOpenCL."""

import ctypes
import re
import threading
from dataclasses import dataclass

import numpy as np
import pyopencl as cl

from . import _lib
from . import watch as _watch
from .errors import ArgumentError, LaunchAborted, LaunchCancelled, \
    LaunchError, OpenCLError

# Held while a launch sets a kernel's own arguments and enqueues it: two
# handles may share one cl.Kernel, and another thread's argument must not
# slip in between.
_launch_lock = threading.Lock()
# "CL_INVALID_KERNEL_ARGS (-52)": the code in a libgsync message.
# The largest size_t, which libgsync's sizes and counts are.
_SIZE_MAX = 2**64 - 1
_CL_CODE = re.compile(r"\bCL_[A-Z_]+ \((-[0-9]+)\)")


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
        follows, as gsync_launch_note() says it; "" when all took part."""
        c = _lib.LaunchInfo(size=ctypes.sizeof(_lib.LaunchInfo),
                            work_dim=self.work_dim, admitted=self.admitted,
                            participants=self.participants,
                            left_out=self.left_out,
                            groups=_lib.sizes(self.groups),
                            polled=self.polled, launched=self.launched)
        return _lib.launch_note(c)


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


class _LocalLimit:
    """The local memory of one device, and the kernel's own there, for the
    check of local pointer arguments (cl.LocalMemory), whose sizes libgsync
    never sees."""

    def __init__(self, kernel, dev):
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
    """One kernel and its hidden state buffer, made by Program.kernel():
    a gsync_kernel of libgsync (gsync_kernel_create()), which makes and
    zeroes the state, sets it at each launch, orders the launches, caps
    discovery's poll, reads how a launch ended, measures how many
    work-groups fit and watches a running launch, as for a C host. This
    class adds what only a PyOpenCL host has: its arguments.

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
        # A count, as for gsync_kernel_create's size_t: a str, a bool or a
        # float made a state of a size for no count, or none.
        count = _count(max_groups)
        if count is None:
            raise ArgumentError(f"kernel {name}: max_groups must be an int, "
                                f"not {max_groups!r:.40}")
        if count < 0:
            raise LaunchError(f"kernel {name}: max_groups must be at least 1")
        if count > _SIZE_MAX:
            raise LaunchError(f"kernel {name}: state for {count} work-groups "
                              "overflows")
        self._lib = _lib.lib()
        self._k = None
        handle = ctypes.c_void_p()
        c._named(_lib.call, self._lib.gsync_kernel_create, c._program._p,
                 kernel.context.int_ptr,
                 _lib._handle(queue, "gsync_kernel_create", "queue"),
                 kernel.int_ptr, count, ctypes.byref(handle))
        self._k = handle
        self.info = c.kernel(name)
        self.name = name
        # libgsync retains the cl_kernel; this keeps PyOpenCL's object, and
        # the arguments it holds, for as long.
        self.kernel = kernel
        self.program = program
        self.max_groups = count
        self.spin_limit_ms = c.spin_limit_ms
        self.discovery = c.discovery
        self.sites = list(c.sites)
        self.state_bytes = (self.info.state_bytes(count)
                            if self.info.global_barrier else 0)
        # Reentrant: __call__ holds it across its enqueue and its finish.
        self._lock = threading.RLock()
        self._local = {}  # device -> _LocalLimit
        self._state = None  # PyOpenCL's view of libgsync's state buffer

    def __del__(self):
        # libgsync gives the state back once the latest launch is over
        # (gsync_kernel_release); the cl_kernel it retained goes with it.
        if getattr(self, "_k", None) is not None:
            self._lib.gsync_kernel_release(self._k)
            self._k = None

    def _call(self, fn, *args):
        return _lib.call(getattr(self._lib, fn), self._k, *args)

    @staticmethod
    def _queue(queue, fn):
        return _lib._handle(queue, fn, "queue")

    @property
    def state(self):
        """The hidden state buffer that every launch is given (None for a
        kernel that reaches no global_barrier()), a pyopencl.Buffer over
        libgsync's (gsync_kernel_state()): of at least ``state_bytes``
        bytes (docs/constraints.md, "The state buffer"). libgsync owns it
        and sets it at each launch."""
        mem = ctypes.c_void_p()
        self._call("gsync_kernel_state", ctypes.byref(mem), None)
        if not mem.value:
            return None
        if self._state is None or self._state.int_ptr != mem.value:
            self._state = cl.Buffer.from_int_ptr(mem.value, retain=True)
        return self._state

    @state.setter
    def state(self, buf):
        raise ArgumentError(
            f"kernel {self.name}: the state buffer is libgsync's, which made "
            f"it to size ({self.state_bytes} bytes) and sets it at each "
            "launch: it cannot be replaced")

    @property
    def num_args(self):
        """How many arguments the caller sets: the kernel's own."""
        return (self.info.state_index if self.info.global_barrier
                else self.kernel.num_args)

    def _check_local(self, queue, args):
        """Refuses local pointer arguments (cl.LocalMemory) that ask, with
        the kernel's own local memory, for more than the device of queue
        has: a driver may abort the process on such a launch (PoCL does)
        rather than refuse it. libgsync never sees their sizes."""
        sizes = [(n, a.size) for n, a in enumerate(args)
                 if isinstance(a, cl.LocalMemory)]
        if not sizes:
            return
        dev = queue.device
        lim = self._local.get(dev.int_ptr)
        if lim is None:
            try:
                lim = self._local[dev.int_ptr] = _LocalLimit(self.kernel, dev)
            except cl.Error as e:
                raise cl_error("clGetDeviceInfo (local memory)", e) from None
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
        """Sets args, the kernel's own arguments in order, if given, and
        enqueues a launch of groups work-groups of local_size work-items,
        each an int (1-D) or a tuple of 1 to 3, with the global work offset
        offset (None: none), through gsync_enqueue_nd(), which sets the
        hidden argument and checks the shape. Returns at once: call
        finish() before trusting the results."""
        q = self._queue(queue, "gsync_enqueue_nd")
        groups = _shape(self.name, "work-groups", groups)
        local = _shape(self.name, "local size", local_size)
        if offset is not None:
            offset = _shape(self.name, "offset", offset)
        if len(local) != len(groups) or (offset is not None and
                                         len(offset) != len(groups)):
            raise LaunchError(
                f"kernel {self.name}: groups, local size and offset differ in "
                "dimensions")
        for what, t in (("work-groups", groups), ("local size", local),
                        ("offset", offset or ())):
            if max(t, default=0) > _SIZE_MAX:
                raise LaunchError(f"kernel {self.name}: the {what} "
                                  f"{max(t)} exceeds a size_t")
        if args and len(args) != self.num_args:
            names = [p.name or "?" for p in self.info.params or ()]
            raise ArgumentError(
                f"kernel {self.name}: takes {self.num_args} arguments besides "
                "its state" + (f" ({', '.join(names)})" if names else "")
                + f", {len(args)} given")
        with self._lock:
            self._check_local(queue, args)
            with _launch_lock:
                for n, a in enumerate(args):
                    try:
                        self.kernel.set_arg(n, a)
                    except cl.Error as e:
                        raise self._arg_error(n, a, e) from None
                try:
                    self._call("gsync_enqueue_nd", q, len(groups),
                               _lib.sizes(offset) if offset else None,
                               _lib.sizes(groups), _lib.sizes(local))
                except OpenCLError as e:
                    raise self._launch_error(e) from None

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

    def _launch_error(self, e):
        """libgsync's OpenCLError e, with its OpenCL code, and where not
        every argument is set, how to set them from Python."""
        m = _CL_CODE.search(str(e))
        code = int(m.group(1)) if m else None
        text = str(e)
        if code == cl.status_code.INVALID_KERNEL_ARGS:
            head = text[:text.index(": not every argument")]
            own = self.num_args
            if self.info.global_barrier and own > 0:
                text = (f"{head}: not every argument is set; pass the "
                        f"kernel's own {own} to the launch (or set indices 0 "
                        f"to {own - 1} on Kernel.kernel), and gsync sets the "
                        f"state argument (index {own})")
            else:
                text = (f"{head}: not every argument is set; pass them to "
                        "the launch")
        return OpenCLError(text, code)

    def groups_that_fit(self, queue, local_size):
        """For output rewritten with --no-discovery, whose launches must
        have no more work-groups than the device runs at once: how many of
        local_size work-items (an int or a tuple of 1 to 3) the device of
        queue runs at once: gsync_groups_that_fit(), one probe launch of
        this kernel, in which no work-group runs its code, of max_groups
        groups (at most the constraints' max_work_groups), so the answer is
        at most that; kept per device and local size. The probe sets every
        argument itself, so the kernel's own need not be set; KernelError
        for a kernel that takes an image, sampler, pipe or device queue.
        Needs the program built with build_options() (MismatchError
        otherwise). Output with discovery needs none (ArgumentError)."""
        q = self._queue(queue, "gsync_groups_that_fit")
        local = _shape(self.name, "local size", local_size)
        groups = ctypes.c_size_t()
        with self._lock:
            self._call("gsync_groups_that_fit", q, len(local),
                       _lib.sizes(local), ctypes.byref(groups))
        return groups.value

    def watch(self, queue):
        """Prepares this kernel, once, before its launches, to be watched
        while it runs (docs/watch.md; gsync_watch_enable()): progress()
        and cancel() through fine-grained SVM with atomics or a
        host-visible buffer a probe found to work, set_deadline() where
        the device's kernels read a clock. Returns a
        gsync.watch.WatchSupport saying what works; DeviceError only when
        nothing does; MismatchError for a program built without the watch
        compiled in (Program.build(..., watch=True)).
        GSYNC_WATCH_CHANNEL=svm, mapped or none forces a channel (none
        where it does not work)."""
        q = self._queue(queue, "gsync_watch_enable")
        s = _lib.WatchSupport(size=ctypes.sizeof(_lib.WatchSupport))
        with self._lock:
            self._call("gsync_watch_enable", self.kernel.context.int_ptr,
                       queue.device.int_ptr, q, ctypes.byref(s))
        return _watch.WatchSupport._of(s)

    def progress(self):
        """How far the latest launch is, a gsync.watch.Progress
        (gsync_progress()): callable from any thread while another waits
        in finish(); never blocks."""
        p = _lib.ProgressInfo(size=ctypes.sizeof(_lib.ProgressInfo))
        self._call("gsync_progress", ctypes.byref(p))
        return _watch.Progress(p.barriers, p.participants, p.launches)

    def cancel(self):
        """Asks the latest launch to stop (gsync_cancel()): participant 0
        leaves at its next barrier, every other work-group in its next
        wait, and finish() raises gsync.LaunchCancelled ("cancelled by the
        host after N barriers"). A launch that completes first reports as
        usual; a cancel never reaches a later launch. Never blocks."""
        self._call("gsync_cancel")

    def set_deadline(self, seconds):
        """Stops each later launch once it has run seconds (0: none) by the
        device's clock, at participant 0's next barrier
        (gsync_set_deadline()); finish() then raises gsync.LaunchCancelled
        ("stopped at its deadline ...")."""
        if isinstance(seconds, (bool, np.bool_)) or not isinstance(
                seconds, (int, float, np.integer, np.floating)):
            raise ArgumentError(f"gsync_set_deadline: seconds must be a "
                                f"number, not {seconds!r:.40}")
        self._call("gsync_set_deadline", float(seconds))

    def finish(self, queue):
        """Waits for the latest launch and says how it ended
        (gsync_finish_nd()): a LaunchInfo, or LaunchAborted or
        LaunchCancelled (the launch's results are not valid; the state is
        zeroed again for the next launch), with libgsync's message."""
        q = self._queue(queue, "gsync_finish")
        i = _lib.LaunchInfo(size=ctypes.sizeof(_lib.LaunchInfo))
        with self._lock:
            try:
                self._call("gsync_finish_nd", q, ctypes.byref(i))
            except LaunchAborted as e:
                raise self._aborted(e, i) from None
            except LaunchCancelled as e:
                raise self._stopped(e, i) from None
        return LaunchInfo(i.work_dim, i.admitted, i.participants, i.left_out,
                          tuple(i.groups), i.polled, i.launched)

    def __call__(self, queue, groups, local_size, *args, offset=None):
        """enqueue() then finish(), with no other thread's launch of this
        Kernel between them: returns the LaunchInfo."""
        with self._lock:
            self.enqueue(queue, groups, local_size, *args, offset=offset)
            return self.finish(queue)

    def _aborted(self, e, i):
        """libgsync's LaunchAborted e with the abort record's fields (from
        gsync_launch_info i) as attributes; the causes in libgsync's words
        (gsync_launch_cause), as its message lists them."""
        causes = _lib.launch_causes(self._k, i.causes)
        discovery = i.end == _lib.END_DISCOVERY
        site = None
        if not discovery and 1 <= i.site <= len(self.sites):
            site = self.sites[i.site - 1]
        group = None if i.group == 0xFFFFFFFF else i.group
        waited = None if i.waited_ms == 0xFFFFFFFF else i.waited_ms
        record = (i.end, 0 if discovery else i.site, i.group, i.launch_group,
                  i.arrived, i.expected) + (
                      () if waited is None else (i.waited_ms, i.launched))
        a = LaunchAborted(
            e.raw, kernel=self.name,
            kind="discovery" if discovery else "barrier", site=site,
            site_number=0 if discovery else i.site, group=group,
            launch_group=i.launch_group, arrived=i.arrived,
            expected=i.expected, waited_ms=waited, launched=i.launched,
            causes=causes, record=record)
        return a

    def _stopped(self, e, i):
        deadline = i.end == _lib.END_DEADLINE
        return LaunchCancelled(
            e.raw, kernel=self.name,
            reason="deadline" if deadline else "cancel",
            barriers=i.barriers, deadline_ms=i.deadline_ms if deadline
            else None)
