"""libgsync, loaded with ctypes: what the package shares with C hosts is
libgsync's own code (runtime/libgsync.h), not a copy of it.

The library is found, on first use, in this order:

  1. $GSYNC_LIBRARY, the path of a libgsync.so (only it, when set);
  2. the path in libgsync-path.txt beside this module, which the build
     writes into build/python/gsync (the library in the build tree) and
     cmake --install into the installed package (a path from the
     package's directory to the installed library);
  3. the system's loader, for a libgsync it knows (ctypes.util's
     find_library: ld.so.conf, LD_LIBRARY_PATH).

LibraryNotFoundError names every place tried. Importing gsync loads
nothing, so that gsync.layout works without the library.

Every call goes through Program (one loaded constraints file), Kernel
(one gsync_kernel: launches, the fit probe, the watch) or status_name; a failure becomes the exception of its status (gsync.errors)
with libgsync's message, as bytes, which GsyncError makes printable.
"""

import ctypes
import ctypes.util
import os
import threading

from . import errors

ENV = "GSYNC_LIBRARY"
PATH_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                         "libgsync-path.txt")
# The message buffer each call gets, room for a message that quotes long
# paths; libgsync cuts a longer message short.
ERRLEN = 4096
# gsync_kernel_info's and gsync_program_info's offsets a file leaves out.
NO_OFFSET = ctypes.c_size_t(-1).value

_c_str = ctypes.c_char_p
_size = ctypes.c_size_t


class ProgramInfo(ctypes.Structure):
    """gsync_program_info."""

    _fields_ = [("size", _size), ("path", _c_str), ("barrier", _c_str),
                ("discovery", ctypes.c_int), ("spin_limit_ms", _size),
                ("fingerprint", _c_str), ("n_kernels", _size),
                ("sites", ctypes.POINTER(_c_str)), ("n_sites", _size),
                ("build_args", ctypes.POINTER(_c_str)),
                ("n_build_args", _size)]


class BarrierChoice(ctypes.Structure):
    """gsync_barrier_choice."""

    _fields_ = [("size", _size), ("rule", _c_str), ("define", _c_str),
                ("source", _c_str), ("why", _c_str)]


class KernelInfo(ctypes.Structure):
    """gsync_kernel_info."""

    _fields_ = [("size", _size), ("name", _c_str),
                ("global_barrier", ctypes.c_int),
                ("work_dim", ctypes.c_uint32),
                ("state_index", ctypes.c_uint32), ("fixed_bytes", _size),
                ("per_group_bytes", _size),
                ("reset_by_kernel", ctypes.c_int),
                ("participants_offset", _size), ("grid_offset", _size),
                ("abort_offset", _size), ("abort_bytes", _size),
                ("poll_cap_offset", _size), ("max_work_groups", _size),
                ("min_local_size", _size),
                ("coresident_launch_required", ctypes.c_int),
                ("has_params", ctypes.c_int), ("n_params", _size)]


class ParamInfo(ctypes.Structure):
    """gsync_param_info."""

    _fields_ = [("size", _size), ("name", _c_str), ("kind", _c_str),
                ("bytes", _size)]


_u32 = ctypes.c_uint32


class LaunchInfo(ctypes.Structure):
    """gsync_launch_info."""

    _fields_ = [("size", _size), ("work_dim", _u32), ("admitted", _u32),
                ("participants", _u32), ("left_out", _u32),
                ("groups", _size * 3), ("polled", _u32), ("launched", _u32),
                ("end", _u32), ("site", _u32), ("group", _u32),
                ("launch_group", _u32), ("arrived", _u32),
                ("expected", _u32), ("waited_ms", _u32),
                ("barriers", _u32), ("deadline_ms", _u32),
                ("causes", _u32)]


# gsync_end: how a launch ended (LaunchInfo.end).
(END_COMPLETED, END_BARRIER, END_DISCOVERY, END_CANCELLED,
 END_DEADLINE) = range(5)


class WatchSupport(ctypes.Structure):
    """gsync_watch_support."""

    _fields_ = [("size", _size), ("progress", ctypes.c_int),
                ("cancel", ctypes.c_int), ("deadline", ctypes.c_int),
                ("channel", _c_str), ("probe", _c_str)]


class ProgressInfo(ctypes.Structure):
    """gsync_progress_info."""

    _fields_ = [("size", _size), ("barriers", _u32),
                ("participants", _u32), ("launches", _u32)]


_ERR = (ctypes.c_char_p, _size)
_ptr = ctypes.c_void_p
_sizes = ctypes.POINTER(_size)
# Every function called, as libgsync.h declares it: (result, arguments).
# gsync_status is an enum, an int.
_SIGNATURES = {
    "gsync_status_name": (_c_str, [ctypes.c_int]),
    "gsync_pick_device": (ctypes.c_int, [
        _c_str, _u32, ctypes.POINTER(_ptr), ctypes.POINTER(_ptr), *_ERR]),
    "gsync_program_load": (ctypes.c_int, [_c_str, ctypes.POINTER(
        ctypes.c_void_p), *_ERR]),
    "gsync_program_release": (None, [ctypes.c_void_p]),
    "gsync_program_get_info": (ctypes.c_int, [
        ctypes.c_void_p, ctypes.POINTER(ProgramInfo), *_ERR]),
    "gsync_program_kernel_info": (ctypes.c_int, [
        ctypes.c_void_p, _size, ctypes.POINTER(KernelInfo), *_ERR]),
    "gsync_program_param_info": (ctypes.c_int, [
        ctypes.c_void_p, _size, _size, ctypes.POINTER(ParamInfo), *_ERR]),
    "gsync_program_check_source": (ctypes.c_int, [
        ctypes.c_void_p, _c_str, _size, *_ERR]),
    "gsync_program_check_device": (ctypes.c_int, [
        ctypes.c_void_p, ctypes.c_void_p, *_ERR]),
    "gsync_program_build_options": (_c_str, [ctypes.c_void_p,
                                             ctypes.c_void_p]),
    "gsync_program_choose_barrier": (ctypes.c_int, [
        ctypes.c_void_p, ctypes.c_void_p, ctypes.POINTER(BarrierChoice),
        *_ERR]),
    "gsync_program_set_barrier": (ctypes.c_int, [
        ctypes.c_void_p, _c_str, *_ERR]),
    "gsync_kernel_create": (ctypes.c_int, [
        _ptr, _ptr, _ptr, _ptr, _size, ctypes.POINTER(_ptr), *_ERR]),
    "gsync_kernel_release": (None, [_ptr]),
    "gsync_kernel_state": (ctypes.c_int, [
        _ptr, ctypes.POINTER(_ptr), _sizes, *_ERR]),
    "gsync_enqueue_nd": (ctypes.c_int, [
        _ptr, _ptr, _u32, _sizes, _sizes, _sizes, *_ERR]),
    "gsync_finish_nd": (ctypes.c_int, [
        _ptr, _ptr, ctypes.POINTER(LaunchInfo), *_ERR]),
    "gsync_launch_cause": (_size, [_ptr, _u32, _c_str, _size]),
    "gsync_launch_note": (_size, [ctypes.POINTER(LaunchInfo), _c_str,
                                  _size]),
    "gsync_groups_that_fit": (ctypes.c_int, [
        _ptr, _ptr, _u32, _sizes, _sizes, *_ERR]),
    "gsync_watch_enable": (ctypes.c_int, [
        _ptr, _ptr, _ptr, _ptr, ctypes.POINTER(WatchSupport), *_ERR]),
    "gsync_progress": (ctypes.c_int, [
        _ptr, ctypes.POINTER(ProgressInfo), *_ERR]),
    "gsync_cancel": (ctypes.c_int, [_ptr, *_ERR]),
    "gsync_set_deadline": (ctypes.c_int, [_ptr, ctypes.c_double, *_ERR]),
}

_lib = None
_lock = threading.Lock()


def _tries():
    """Where to look, in order: (what, path or name) pairs."""
    env = os.environ.get(ENV)
    if env:
        return [(f"${ENV}", env)]
    tries = []
    try:
        with open(PATH_FILE, "rb") as f:
            where = os.fsdecode(f.read().strip())
        tries.append((PATH_FILE, os.path.normpath(
            os.path.join(os.path.dirname(PATH_FILE), where))))
    except OSError:
        pass
    return tries + [("the system's loader",
                     ctypes.util.find_library("gsync") or "libgsync.so")]


def _load():
    failed = []
    for what, path in _tries():
        try:
            lib = ctypes.CDLL(path)
        except OSError as e:
            failed.append(f"{path} ({what}): {e}")
            continue
        for name, (restype, argtypes) in _SIGNATURES.items():
            try:
                fn = getattr(lib, name)
            except AttributeError:
                raise errors.LibraryNotFoundError(
                    f"{path} ({what}) has no {name}: it is a libgsync older "
                    "than this gsync package; use the libgsync of the same "
                    "build or install") from None
            fn.restype, fn.argtypes = restype, argtypes
        return lib
    raise errors.LibraryNotFoundError(
        "libgsync not found: install it (cmake --install), use the gsync "
        f"package of its build tree, or name it in ${ENV}; tried "
        + "; ".join(failed))


def lib():
    """libgsync, loaded on the first call."""
    global _lib
    with _lock:
        if _lib is None:
            _lib = _load()
        return _lib


def status_name(status):
    return lib().gsync_status_name(status).decode()


def call(fn, *args):
    """Calls the libgsync function fn with args and an err buffer; raises
    the exception of a status other than GSYNC_OK, with libgsync's
    message. Returns the status (GSYNC_OK)."""
    err = ctypes.create_string_buffer(ERRLEN)
    status = fn(*args, err, ERRLEN)
    if status != 0:
        raise errors.for_status(status_name(status), err.value)
    return status


def launch_causes(kernel, causes):
    """The words of each gsync_cause bit set in causes, for an aborted
    launch of the gsync_kernel handle kernel (gsync_launch_cause), in the
    order its message lists them: [str]."""
    fn = lib().gsync_launch_cause
    out = []
    for bit in range(32):
        if causes >> bit & 1:
            n = fn(kernel, 1 << bit, None, 0)
            buf = ctypes.create_string_buffer(n + 1)
            fn(kernel, 1 << bit, buf, n + 1)
            out.append(buf.value.decode("utf-8", "backslashreplace"))
    return out


def launch_note(info):
    """gsync_launch_note() of info, a LaunchInfo: str."""
    fn = lib().gsync_launch_note
    n = fn(ctypes.byref(info), None, 0)
    buf = ctypes.create_string_buffer(n + 1)
    fn(ctypes.byref(info), buf, n + 1)
    return buf.value.decode("utf-8", "backslashreplace")


def sizes(values):
    """A size_t[3] of values (1 past them)."""
    return (_size * 3)(*(tuple(values) + (1,) * (3 - len(values))))


def _handle(obj, call, what):
    """The OpenCL handle of a PyOpenCL object (its int_ptr), or None."""
    if obj is None:
        return None
    try:
        return obj.int_ptr
    except AttributeError:
        raise errors.ArgumentError(
            f"{call}: {what} must be a pyopencl object, not {obj!r:.40}"
        ) from None


class Program:
    """One gsync_program, released when the last reference goes."""

    def __init__(self, path):
        self._lib = lib()
        self._p = None
        p = ctypes.c_void_p()
        self._call(self._lib.gsync_program_load, os.fsencode(path),
                   ctypes.byref(p))
        self._p = p
        # gsync_program_build_options is the one call threads must not
        # make at once on a program.
        self._options_lock = threading.Lock()

    def __del__(self):
        if getattr(self, "_p", None) is not None:
            self._lib.gsync_program_release(self._p)
            self._p = None

    def _call(self, fn, *args):
        call(fn, *args)

    def info(self):
        info = ProgramInfo(size=ctypes.sizeof(ProgramInfo))
        self._call(self._lib.gsync_program_get_info, self._p,
                   ctypes.byref(info))
        return info

    def kernel(self, index):
        info = KernelInfo(size=ctypes.sizeof(KernelInfo))
        self._call(self._lib.gsync_program_kernel_info, self._p, index,
                   ctypes.byref(info))
        return info

    def param(self, index, param):
        info = ParamInfo(size=ctypes.sizeof(ParamInfo))
        self._call(self._lib.gsync_program_param_info, self._p, index, param,
                   ctypes.byref(info))
        return info

    def check_source(self, source):
        """source: the program's text, bytes."""
        self._call(self._lib.gsync_program_check_source, self._p, source,
                   len(source))

    def check_device(self, device):
        # For an output of --barrier=auto it writes the choice, as
        # gsync_program_build_options does.
        dev = _handle(device, "gsync_program_check_device", "dev")
        with self._options_lock:
            self._call(self._lib.gsync_program_check_device, self._p, dev)

    def build_options(self, device):
        """The options, bytes."""
        dev = _handle(device, "gsync_program_build_options", "dev")
        with self._options_lock:
            opts = self._lib.gsync_program_build_options(self._p, dev)
        if opts is None:
            raise errors.OutOfMemoryError(
                "gsync_program_build_options: out of memory")
        return opts

    def choose_barrier(self, device):
        """The rule gsync_program_build_options builds on device, and
        why: a BarrierChoice, whose strings are copied out under the lock
        that a later choice would overwrite them after."""
        dev = _handle(device, "gsync_program_choose_barrier", "dev")
        choice = BarrierChoice(size=ctypes.sizeof(BarrierChoice))
        with self._options_lock:
            self._call(self._lib.gsync_program_choose_barrier, self._p, dev,
                       ctypes.byref(choice))
            return (choice.rule, choice.define, choice.source, choice.why)

    def set_barrier(self, rule):
        """rule: bytes, or None to force none."""
        with self._options_lock:
            self._call(self._lib.gsync_program_set_barrier, self._p, rule)
