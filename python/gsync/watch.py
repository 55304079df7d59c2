"""Watching a running launch (docs/watch.md): libgsync's
gsync_watch_enable(), gsync_progress(), gsync_cancel() and
gsync_set_deadline() over PyOpenCL.

The kernel's participant 0 counts barriers in state word watch_barriers
and looks for a cancel (word watch_cancel equal to the launch's tag, word
watch_tag) and a deadline (word watch_deadline_ms) after each barrier, as
word watch_mode asks (rewrite-rules/prelude.cl; the numbers are the state
table's, gsync.layout). Before each launch the host writes every watch
word but watch_cancel through the queue, ordered like the state's zeroing;
watch_cancel is written by cancel() alone (the zeroing leaves it), so that a cancel of a launch still queued behind another is kept
until it runs, and a late one, naming a launch that has ended, stops no
other.

Progress and cancel need memory the host and the running kernel share:
fine-grained buffer SVM with atomics, where the state then lives (a
buffer made over it). libgsync can also use a host-visible buffer where a
probe kernel measured that words cross it while a kernel runs; this
module has no such probe, so on a device without that SVM it reports
progress and cancel as unavailable. The deadline needs only the device's
clock (NVIDIA GPUs, x86 CPU devices).
"""

import os
from dataclasses import dataclass

import numpy as np
import pyopencl as cl

from . import layout
from .device import (WATCH_BUILD_OPTION, WATCH_MACRO, _nv_compute_capability,
                     built_with, cpu_clock_hz)
from .errors import (ArgumentError, DeviceError, KernelError, LaunchError,
                     MismatchError)

# State words and their values (the state table: gsync.layout).
BARRIERS = layout.WORD["watch_barriers"]
DEADLINE_MS = layout.WORD["watch_deadline_ms"]
START_LO = layout.WORD["watch_start_lo"]
START_HI = layout.WORD["watch_start_hi"]
CANCEL = layout.WORD["watch_cancel"]
TAG = layout.WORD["watch_tag"]
MODE = layout.WORD["watch_mode"]
END = layout.WORD["watch"] + layout.WORDS["watch"]
ABORT_KIND = layout.WORD["abort_kind"]
# Word MODE: what the host watches in a launch (prelude.cl).
WATCH_PROGRESS = layout.VALUE["watch_progress"]
WATCH_CANCEL = layout.VALUE["watch_cancel"]
ABORTED_BY_CANCEL = layout.VALUE["cancelled"]
ABORTED_AT_DEADLINE = layout.VALUE["deadline"]


@dataclass
class WatchSupport:
    """What works for a watched kernel (gsync_watch_support)."""

    progress: bool  # Kernel.progress()
    cancel: bool    # Kernel.cancel()
    deadline: bool  # Kernel.set_deadline()
    channel: str    # "fine-grained SVM" or "none"
    why: str        # why there is no channel, or None


@dataclass
class Progress:
    """How far the latest launch is (gsync_progress_info)."""

    barriers: int      # global barriers it has completed (0 before it starts)
    participants: int  # work-groups taking part (0 until known)
    launches: int      # launches enqueued since watching began


class Watch:
    """A kernel's watch state: all the host keeps to watch its launches."""

    def __init__(self):
        self.shared = None  # the state as the host sees it (numpy), or None
        self.svm = None     # the SVM array that holds it
        self.has_clock = False
        self.deadline_ms = 0
        self.tag = 0        # the latest launch's tag
        self.why = None


def _device_svm(dev):
    need = (cl.device_svm_capabilities.FINE_GRAIN_BUFFER |
            cl.device_svm_capabilities.ATOMICS)
    try:
        return (dev.svm_capabilities & need) == need
    except (cl.Error, AttributeError):
        return False


def _device_clock(dev):
    if _nv_compute_capability(dev):
        return True
    return bool(dev.type & cl.device_type.CPU) and cpu_clock_hz(dev) != 0


def enable(k, queue):
    """Kernel.watch(): chooses the channel (once) and says what works."""
    if k.state is None:
        raise KernelError(f"kernel {k.name} reaches no global_barrier(): "
                          "nothing to watch")
    i = k.info
    if (i.abort_offset != layout.WORD["abort"] * 4 or not k.spin_limit_ms or
            k.state_bytes < END * 4):
        raise KernelError(f"kernel {k.name} cannot be watched: it was "
                          "rewritten without a spin limit (--spin-limit=0) or "
                          "by an older gsync-rewrite")
    if not built_with(k.kernel, queue.device, WATCH_MACRO):
        raise MismatchError(f"kernel {k.name} cannot be watched: its program "
                            f"was built without {WATCH_BUILD_OPTION} "
                            "(GSYNC_WATCH_BUILD_OPTION), which compiles the "
                            "watch in")
    choice = os.environ.get("GSYNC_WATCH_CHANNEL", "")
    if choice not in ("", "svm", "mapped", "none"):
        raise ArgumentError(f"gsync_watch_enable: GSYNC_WATCH_CHANNEL={choice} "
                            "is not svm, mapped or none")
    dev = queue.device
    w = k.watch_state
    with k._lock:
        if k._last is not None:
            k._last.wait()
        if w is None:
            w = Watch()
            if choice == "none":
                w.why = "GSYNC_WATCH_CHANNEL=none"
            elif choice == "mapped":
                w.why = ("the Python module has no host-visible buffer "
                         "channel (libgsync has)")
            elif not _device_svm(dev):
                w.why = "no fine-grained SVM with atomics"
            else:
                _share_state(k, w, queue)
        w.has_clock = _device_clock(dev)
        shared = w.shared is not None
        if not shared and not w.has_clock:
            raise DeviceError(
                f'device "{dev.name}" offers no way to watch kernel {k.name}: '
                f"no channel to a running kernel ({w.why}) and no clock its "
                "kernels read (deadline)")
        k.watch_state = w
    return WatchSupport(shared, shared, w.has_clock,
                        "fine-grained SVM" if shared else "none", w.why)


def _share_state(k, w, queue):
    """Moves k's state into fine-grained SVM, through a buffer made over
    it; no launch of k is in flight."""
    flags = (cl.svm_mem_flags.READ_WRITE | cl.svm_mem_flags.SVM_FINE_GRAIN_BUFFER
             | cl.svm_mem_flags.SVM_ATOMICS)
    words = (max(k.state_bytes, 4) + 3) // 4  # 2 bytes per group: round up
    svm = cl.svm_empty(queue.context, flags, words, np.uint32)
    svm[:] = 0
    try:
        buf = cl.Buffer(queue.context,
                        cl.mem_flags.READ_WRITE | cl.mem_flags.USE_HOST_PTR,
                        hostbuf=svm)
    except cl.Error as e:
        from .launch import cl_error
        raise cl_error("clCreateBuffer (state over SVM)", e) from None
    k.state = buf
    w.svm = svm
    w.shared = svm


def prepare(k, queue):
    """Enqueues, after k's latest command, the words a launch starts from:
    no barriers yet, the deadline, no start time, the launch's tag, which
    cancel() then names, and what the host watches (progress and cancel
    where it shares the state). A fill per word (a fill's offset must be a
    multiple of its pattern's size)."""
    w = k.watch_state
    tag = w.tag + 1 if w.tag + 1 < 2**32 else 1
    mode = WATCH_PROGRESS | WATCH_CANCEL if w.shared is not None else 0
    for word, value in ((BARRIERS, 0), (DEADLINE_MS, w.deadline_ms),
                        (START_LO, 0), (START_HI, 0), (TAG, tag),
                        (MODE, mode)):
        k._last = cl.enqueue_fill_buffer(
            queue, k.state, np.array([value], np.uint32), word * 4, 4,
            wait_for=[k._last] if k._last is not None else None)
    w.tag = tag


def stopped(k, words):
    """The LaunchCancelled of a launch the host stopped, from its words."""
    from .errors import LaunchCancelled
    barriers = words[BARRIERS]
    if words[ABORT_KIND] == ABORTED_AT_DEADLINE:
        d = words[DEADLINE_MS]
        return LaunchCancelled(
            f"kernel {k.name}: stopped at its deadline of {d} ms after "
            f"{barriers} barriers", kernel=k.name, reason="deadline",
            barriers=barriers, deadline_ms=d)
    return LaunchCancelled(
        f"kernel {k.name}: cancelled by the host after {barriers} barriers",
        kernel=k.name, reason="cancel", barriers=barriers)


def _unshared(k, fn):
    w = k.watch_state
    if w is None:
        return ArgumentError(f"{fn}: kernel {k.name} is not watched (call "
                             "watch())")
    return DeviceError(f"{fn}: kernel {k.name}: no channel to a running "
                       f"kernel on its device ({w.why})")


def progress(k):
    """Kernel.progress(): reads the shared state; never blocks."""
    w = k.watch_state
    if w is None or w.shared is None:
        raise _unshared(k, "gsync_progress")
    s = w.shared
    launches = w.tag
    barriers = participants = 0
    # Until the latest launch's words are written (its tag with them), the
    # words are an earlier launch's: the latest has done nothing yet.
    if int(s[TAG]) == launches:
        barriers = int(s[BARRIERS])
    # Participant 0 wrote the grid before the launch's first barrier.
    if barriers and k.info.grid_offset is not None:
        g = k.info.grid_offset // 4
        participants = int(s[g]) * int(s[g + 1]) * int(s[g + 2])
    return Progress(barriers, participants, launches)


def cancel(k):
    """Kernel.cancel(): one store to the shared state; never blocks."""
    w = k.watch_state
    if w is None or w.shared is None:
        raise _unshared(k, "gsync_cancel")
    if w.tag == 0:
        raise LaunchError(f"gsync_cancel: kernel {k.name}: nothing launched")
    w.shared[CANCEL] = w.tag


def set_deadline(k, seconds):
    """Kernel.set_deadline(): for each later launch."""
    if not 0.0 <= seconds <= 4294967.0:
        raise ArgumentError(f"gsync_set_deadline: a deadline of {seconds:g} s "
                            "is not between 0 and 4294967 s")
    w = k.watch_state
    with k._lock:
        if w is None:
            raise _unshared(k, "gsync_set_deadline")
        if not w.has_clock:
            raise DeviceError(f"gsync_set_deadline: kernel {k.name}: the "
                              "device's kernels read no clock")
        ms = int(seconds * 1000.0 + 0.5)
        w.deadline_ms = 1 if seconds > 0 and ms < 1 else ms
