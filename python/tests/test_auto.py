"""Outputs of --barrier=auto from Python (docs/auto.md): which rule
libgsync builds on the device and why, forcing one, and each rule built
and run against numpy."""
import os

import numpy as np
import pyopencl as cl
import pytest

import gsync
from conftest import SRC

# A two-phase grid-stride kernel, twophase(a, b, n): a[i] += a[i + 1].
COMMON = os.path.join(SRC, "test", "rewrite", "Inputs", "common.cl")


@pytest.fixture
def no_cache(monkeypatch):
    """Neither the user's gsync-check cache nor a forced rule."""
    monkeypatch.setenv("GSYNC_CHECK_CACHE", "")
    monkeypatch.delenv("GSYNC_BARRIER", raising=False)


def test_choice_on_this_device(rewritten, device, no_cache):
    """PoCL, a CPU: the table's rule, tree, and its macro in the build
    options; a named rule's output says "named"."""
    prog = rewritten(COMMON, barrier="auto")
    assert prog.barrier == "auto"
    c = prog.choose_barrier(device)
    assert (c.rule, c.define, c.source) == ("tree", "GSYNC_BARRIER_TREE",
                                            "table")
    assert c.why.startswith("tree: the table's rule for this device, CPU")
    assert "-DGSYNC_BARRIER_TREE" in prog.build_options(device).split()
    named = rewritten(COMMON, barrier="flip").choose_barrier(device)
    assert (named.rule, named.define, named.source) == ("flip", None, "named")


def test_forced(device, no_cache, monkeypatch):
    """set_barrier comes before GSYNC_BARRIER, which comes before the
    table; a rule the output does not hold is refused."""
    prog = gsync.rewrite(COMMON, barrier="auto")
    monkeypatch.setenv("GSYNC_BARRIER", "atomic-or")
    c = prog.choose_barrier(device)
    assert (c.rule, c.source, c.why) == ("atomic-or", "forced",
                                         "atomic-or: forced by GSYNC_BARRIER")
    prog.set_barrier("tree")
    assert prog.choose_barrier(device).why == (
        "tree: forced by gsync_program_set_barrier")
    prog.set_barrier(None)
    assert prog.choose_barrier(device).rule == "atomic-or"
    with pytest.raises(gsync.ArgumentError,
                       match="does not hold barrier volatile"):
        prog.set_barrier("volatile")
    monkeypatch.setenv("GSYNC_BARRIER", "volatile")
    with pytest.raises(gsync.DeviceError,
                       match=r"GSYNC_BARRIER names barrier volatile, which "
                             r".* does not hold \(it holds tree, atomic-or\)"):
        prog.check_device(device)


@pytest.mark.parametrize("rule", ["tree", "atomic-or"])
def test_each_rule_runs(tmp_path, context, queue, device, no_cache, rule):
    """Each rule inside, forced, builds and runs 32 work-groups (more than
    run at once) right."""
    prog = gsync.rewrite(COMMON, barrier="auto")
    prog.set_barrier(rule)
    assert prog.choose_barrier(device).rule == rule
    built = prog.build(context)
    k = prog.kernel(queue, built.twophase, max_groups=32)
    n = 1000
    host = np.arange(n, dtype=np.uint32)
    a = cl.Buffer(context, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR,
                  hostbuf=host)
    b = cl.Buffer(context, cl.mem_flags.READ_WRITE, 4 * n)
    info = k(queue, 32, 16, a, b, np.uint32(n))
    assert info.participants >= 1
    got = np.empty_like(host)
    cl.enqueue_copy(queue, got, a)
    np.testing.assert_array_equal(got, host + np.roll(host, -1))
