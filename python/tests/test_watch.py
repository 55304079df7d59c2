"""Watching running launches from Python (docs/watch.md), as
test/run/watch.test checks libgsync: progress read while the stencil runs
grows monotonically and ends at its 2 x iters barriers; a launch that
would run for hours is cancelled within a second and the next launch is
correct; cancels spread from the start of a launch to past its end each
end it one way or the other; a late cancel stops no other; a deadline
stops a launch within a second of it. 200 work-groups, far more than PoCL
runs at once, so that discovery leaves most of them out."""
import os
import threading
import time

import numpy as np
import pyopencl as cl
import pytest

import gsync
from conftest import KERNELS

N, GROUPS, LOCAL = 1024, 200, 64


class Stencil:
    """The stencil kernel, watched, with its buffers: a and b start as
    ones, and after iters iterations every element of a is 3^iters."""

    def __init__(self, context, queue, prog):
        built = prog.build(context, watch=True)
        self.queue = queue
        self.k = prog.kernel(queue, built.stencil, max_groups=GROUPS)
        self.support = self.k.watch(queue)
        self.a = cl.Buffer(context, cl.mem_flags.READ_WRITE, 4 * N)
        self.b = cl.Buffer(context, cl.mem_flags.READ_WRITE, 4 * N)

    def launch(self, iters):
        """Starts a launch; returns the thread that waits in finish() and
        the dict it reports in (result or error, and when)."""
        ones = np.ones(N, np.uint32)
        cl.enqueue_copy(self.queue, self.a, ones)
        cl.enqueue_copy(self.queue, self.b, ones)
        self.k.enqueue(self.queue, GROUPS, LOCAL, self.a, self.b,
                       np.uint32(N), np.uint32(iters))
        out = {}

        def wait():
            try:
                out["info"] = self.k.finish(self.queue)
            except gsync.GsyncError as e:
                out["error"] = e
            out["done"] = time.monotonic()
        t = threading.Thread(target=wait)
        t.start()
        return t, out

    def correct(self, iters):
        got = np.empty(N, np.uint32)
        cl.enqueue_copy(self.queue, got, self.a)
        return (got == np.uint32(pow(3, iters, 2**32))).all()

    def run_ok(self, iters):
        t, out = self.launch(iters)
        t.join(100)
        return "info" in out and self.correct(iters)


@pytest.fixture(scope="module", params=["tree", "flip"])
def stencil(request, context):
    prog = gsync.rewrite(os.path.join(KERNELS, "stencil.cl"),
                         barrier=request.param)
    queue = cl.CommandQueue(context)
    return Stencil(context, queue, prog)


def test_support(stencil, device):
    s = stencil.support
    assert s.progress and s.cancel and s.channel == "fine-grained SVM"
    assert s.deadline == bool(device.type & cl.device_type.CPU)


def test_progress(stencil):
    iters = 20000
    t, out = stencil.launch(iters)
    seen = []
    while t.is_alive():
        seen.append(stencil.k.progress().barriers)
        time.sleep(0.001)
    t.join()
    last = stencil.k.progress()
    assert "info" in out and stencil.correct(iters)
    assert all(x <= y for x, y in zip(seen, seen[1:])), "not monotonic"
    assert any(0 < x < 2 * iters for x in seen), "never seen mid-launch"
    assert last.barriers == 2 * iters
    assert 1 <= last.participants <= GROUPS
    assert last.launches >= 1


def test_cancel(stencil):
    t, out = stencil.launch(0x7FFFFFFF)  # hours
    time.sleep(0.3)
    assert stencil.k.progress().barriers > 0 and t.is_alive()
    t0 = time.monotonic()
    stencil.k.cancel()
    t.join(100)
    e = out.get("error")
    assert isinstance(e, gsync.LaunchCancelled), out
    assert e.status == "GSYNC_ERR_CANCELLED" and e.reason == "cancel"
    assert str(e) == (f"kernel stencil: cancelled by the host after "
                      f"{e.barriers} barriers")
    assert out["done"] - t0 < 1.0
    assert stencil.run_ok(10)
    stencil.k.cancel()  # late: names the launch that has ended
    assert stencil.run_ok(12)


def test_cancel_races_completion(stencil):
    t0 = time.monotonic()
    assert stencil.run_ok(400)
    span = time.monotonic() - t0
    cancelled = completed = 0
    for r in range(20):
        t, out = stencil.launch(400)
        time.sleep(span * (r % 10) / 8.0)
        stencil.k.cancel()
        t.join(100)
        if "info" in out and stencil.correct(400):
            completed += 1
        elif isinstance(out.get("error"), gsync.LaunchCancelled):
            cancelled += 1
        assert stencil.run_ok(6 + r % 3)
    assert cancelled + completed == 20


def test_deadline(stencil, device):
    if not stencil.support.deadline:
        pytest.skip("the device's kernels read no clock")
    stencil.k.set_deadline(0.3)
    t0 = time.monotonic()
    t, out = stencil.launch(0x7FFFFFFF)
    t.join(100)
    e = out.get("error")
    assert isinstance(e, gsync.LaunchCancelled) and e.reason == "deadline"
    assert e.deadline_ms == 300
    assert str(e).startswith("kernel stencil: stopped at its deadline of "
                             "300 ms after ")
    assert out["done"] - t0 < 1.3
    stencil.k.set_deadline(0)
    assert stencil.run_ok(10)


def test_misuse(context, queue, monkeypatch):
    prog = gsync.rewrite(os.path.join(KERNELS, "stencil.cl"), barrier="flip")
    plain = prog.kernel(queue, prog.build(context).stencil, max_groups=4)
    with pytest.raises(gsync.MismatchError,
                       match="built without -Dgsync_watch"):
        plain.watch(queue)
    built = prog.build(context, watch=True)
    k = prog.kernel(queue, built.stencil, max_groups=4)
    with pytest.raises(gsync.ArgumentError, match="not watched"):
        k.progress()
    with pytest.raises(gsync.ArgumentError, match="not watched"):
        k.cancel()
    k.watch(queue)
    with pytest.raises(gsync.LaunchError, match="nothing launched"):
        k.cancel()
    with pytest.raises(gsync.ArgumentError, match="not between 0"):
        k.set_deadline(-1)
    unbounded = gsync.rewrite(os.path.join(KERNELS, "stencil.cl"),
                              barrier="flip", spin_limit="0")
    ku = unbounded.kernel(queue, unbounded.build(context, watch=True).stencil,
                          max_groups=4)
    with pytest.raises(gsync.KernelError, match="without a spin limit"):
        ku.watch(queue)
    monkeypatch.setenv("GSYNC_WATCH_CHANNEL", "shared")
    k2 = prog.kernel(queue, built.stencil, max_groups=4)
    with pytest.raises(gsync.ArgumentError, match="is not svm, mapped or"):
        k2.watch(queue)


def test_no_channel(context, queue, device, monkeypatch):
    """Without a channel, progress and cancel say so rather than report
    nothing, and launches still work."""
    if not device.type & cl.device_type.CPU:
        pytest.skip("the deadline, needed here, reads a CPU's clock")
    monkeypatch.setenv("GSYNC_WATCH_CHANNEL", "none")
    prog = gsync.rewrite(os.path.join(KERNELS, "stencil.cl"), barrier="flip")
    s = Stencil(context, queue, prog)
    assert s.support.channel == "none" and not s.support.progress
    assert s.support.deadline
    with pytest.raises(gsync.DeviceError, match=r"no channel to a running "
                       r"kernel on its device \(GSYNC_WATCH_CHANNEL=none\)"):
        s.k.progress()
    assert s.run_ok(10)
    with pytest.raises(gsync.DeviceError):
        s.k.cancel()


def test_a_watched_state_holds_every_byte(context, queue):
    """The state moved into fine-grained SVM has all the bytes the
    constraints ask for: with the tree barrier's 2 per work-group and an
    odd count, 518 (it was rounded down to whole words, 516), which the
    state's size check refuses."""
    prog = gsync.rewrite(os.path.join(KERNELS, "stencil.cl"), barrier="tree")
    k = prog.kernel(queue, prog.build(context, watch=True).stencil,
                    max_groups=3)
    assert k.state_bytes % 4 != 0
    if not k.watch(queue).progress:
        pytest.skip("no fine-grained SVM: the state stays where it was")
    assert k.state.size >= k.state_bytes


def test_the_host_visible_buffer_channel(context, device, monkeypatch):
    """Python watches through libgsync's own watch, so it has what a C
    host has: GSYNC_WATCH_CHANNEL=mapped forces the host-visible buffer
    (kept mapped while a probe kernel measured words crossing it), which
    the package's former watch of its own lacked; progress and a cancel go
    through it where the probe found it to work."""
    monkeypatch.setenv("GSYNC_WATCH_CHANNEL", "mapped")
    prog = gsync.rewrite(os.path.join(KERNELS, "stencil.cl"), barrier="flip")
    s = Stencil(context, cl.CommandQueue(context), prog)
    if s.support.channel == "none":
        assert s.support.probe and not s.support.progress
        pytest.skip(f"no host-visible buffer channel: {s.support.probe}")
    assert s.support.channel == "host-visible buffer"
    assert s.support.progress and s.support.cancel and s.support.probe
    t, out = s.launch(0x7FFFFFFF)  # hours
    t0 = time.monotonic()
    while s.k.progress().barriers == 0 and time.monotonic() - t0 < 10:
        time.sleep(0.01)
    s.k.cancel()
    t.join(100)
    assert isinstance(out.get("error"), gsync.LaunchCancelled), out
    assert s.run_ok(10)
