"""The gsync package under hostile use (docs/misuse.md), as
test/run/hostile.test checks libgsync: where a mistake would let the
device write outside the memory it was given, a canary (memory where the
state was, filled with a pattern) is checked after the run."""
import ctypes
import gc
import os
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
    every barrier. Three rounds, as the allocator may hand the freed state
    to another block in one."""
    queue = cl.CommandQueue(context)
    built = stencil_prog.build(context, watch=True)
    n = 4096
    a = cl.Buffer(context, cl.mem_flags.READ_WRITE, 4 * n)
    b = cl.Buffer(context, cl.mem_flags.READ_WRITE, 4 * n)
    info = stencil_prog.constraints.kernel("stencil")
    nbytes = info.state_bytes(64)
    for _ in range(3):
        k = stencil_prog.kernel(queue, built.stencil, max_groups=64)
        if not k.watch(queue).progress:
            pytest.skip("the device shares no memory with a running kernel")
        k.enqueue(queue, 64, 64, a, b, np.uint32(n), np.uint32(300))
        queue.flush()
        t0 = time.monotonic()
        while k.progress().barriers == 0 and time.monotonic() - t0 < 5:
            time.sleep(0.001)
        mark = cl.enqueue_marker(queue)
        running = (mark.command_execution_status !=
                   cl.command_execution_status.COMPLETE)
        del k
        gc.collect()
        blocks = _canaries(nbytes)
        queue.finish()
        assert _intact(blocks, nbytes), "the freed state was written"
        assert running, "the launch ended before the Kernel was dropped"
