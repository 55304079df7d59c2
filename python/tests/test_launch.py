"""Launching through gsync on the OpenCL device (PoCL in CI): the heat
example against numpy, global offsets, aborts, and the launches libgsync
refuses."""
import json
import os
import pathlib
import re
import subprocess
import sys

import numpy as np
import pyopencl as cl
import pytest

import gsync
from conftest import EXAMPLES, KERNELS, SRC

sys.path.insert(0, EXAMPLES)
import heat  # noqa: E402  examples/heat.py


def test_heat_example_matches_numpy(capsys):
    """The example checks itself; where fewer work-groups took part than
    were launched, the line after says how many, why and what it means."""
    assert heat.main(["--groups", "8", "--local", "16", "--steps", "50"]) == 0
    out = capsys.readouterr().out
    assert "result:       matches the numpy reference" in out
    took = re.search(r"took part:    ([1-8]) work-groups? of the 8 launched\n"
                     r"(.*)", out)
    assert took
    assert took[1] == "8" or took[2].startswith(
        f"note:         {took[1]} of the 8 work-groups launched took part in "
        f"the global barrier: discovery admitted only the {took[1]} that the "
        "device ran at once")


def test_heat_example_from_files(tmp_path, capsys):
    src = tmp_path / "heat.out.cl"
    js = tmp_path / "heat.json"
    subprocess.run([gsync.find_tool(), "--barrier=flip",
                    os.path.join(EXAMPLES, "heat.cl"), "-o", str(src),
                    "--constraints", str(js)], check=True)
    assert heat.main(["--groups", "4", "--local", "8", "--steps", "20",
                      str(src), str(js)]) == 0
    assert "matches the numpy reference" in capsys.readouterr().out


IDS = """
kernel void ids(global uint *out, global uint *hits, uint n) {
  global_barrier();
  size_t x = get_global_id(0) - get_global_offset(0);
  size_t y = get_global_id(1) - get_global_offset(1);
  size_t at = y * get_global_size(0) + x;
  if (at < n) {
    atomic_inc(&hits[at]);
    out[2 * at] = (uint)get_global_id(0);
    out[2 * at + 1] = (uint)get_global_id(1);
  }
}
"""


@pytest.mark.parametrize("discovery", [True, False], ids=["discovery",
                                                          "no-discovery"])
@pytest.mark.parametrize("groups,local,offset", [
    (2, 4, 1000), ((2, 1), (2, 3), (7, 5))], ids=["1-D", "2-D"])
def test_global_offset(context, queue, rewritten, discovery, groups, local,
                       offset):
    """Work-items see get_global_id() = the offset + their place in the
    virtual grid, with and without discovery: each place once."""
    prog = rewritten(source=IDS, discovery=discovery, barrier="flip")
    k = prog.kernel(queue, prog_build(prog, context).ids, max_groups=8)
    n = 4096
    out = cl.Buffer(context, cl.mem_flags.READ_WRITE, 8 * n)
    hits = cl.Buffer(context, cl.mem_flags.READ_WRITE, 4 * n)
    cl.enqueue_fill_buffer(queue, hits, np.uint32(0), 0, 4 * n)
    info = k(queue, groups, local, out, hits, np.uint32(n), offset=offset)
    dims = 1 if isinstance(groups, int) else len(groups)
    local_t = (local,) if dims == 1 else local
    off = (offset,) if dims == 1 else offset
    grid = info.groups[:dims]
    size = [g * ls for g, ls in zip(grid, local_t)]
    items = int(np.prod(size))
    h = np.empty(n, np.uint32)
    o = np.empty(2 * n, np.uint32)
    cl.enqueue_copy(queue, h, hits)
    cl.enqueue_copy(queue, o, out)
    assert list(h[:items]) == [1] * items and not h[items:].any()
    ids = o[:2 * items].reshape(items, 2)
    want = [(off[0] + i % size[0], (off[1] if dims > 1 else 0) + i // size[0])
            for i in range(items)]
    assert [tuple(int(v) for v in r) for r in ids] == want
    assert info.work_dim == dims
    if not discovery:
        assert info.participants == int(np.prod(groups))


SHARED = """
/* Every id query a helper can make, in every dimension and past them,
 * with a constant and a run-time dimension. */
void record(global uint *out, uint d3) {
  size_t x = get_global_id(0) - get_global_offset(0);
  size_t y = get_global_id(1) - get_global_offset(1);
  size_t at = y * get_global_size(0) + x;
  global uint *r = out + 12 * at;
  for (uint d = 0; d < 2; d++) {
    r[d] = (uint)get_group_id(d);
    r[2 + d] = (uint)get_num_groups(d);
    r[4 + d] = (uint)get_global_id(d);
    r[6 + d] = (uint)get_global_size(d);
  }
  r[8] = (uint)get_group_id(d3) + (uint)get_global_id(3);
  r[9] = (uint)get_num_groups(d3) + (uint)get_global_size(3);
  r[10] = (uint)get_num_groups(2);
  r[11] = 1;
}

kernel void takes_part(global uint *out, uint d3) {
  global_barrier();
  record(out, d3);
}

kernel void plain(global uint *out, uint d3) { record(out, d3); }
"""


def expected_ids(groups, local, offset):
    """The 12 words record() writes for each work-item of a groups x local
    grid (2-D) at offset, in the order of its place: real ids."""
    size = [g * ls for g, ls in zip(groups, local)]
    rows = []
    for i in range(size[0] * size[1]):
        x, y = i % size[0], i // size[0]
        gid = (offset[0] + x, offset[1] + y)
        grp = (x // local[0], y // local[1])
        rows.append([grp[0], grp[1], groups[0], groups[1], gid[0], gid[1],
                     size[0], size[1], 0, 2, 1, 1])
    return rows


@pytest.mark.parametrize("options", ["", "-cl-opt-disable"],
                         ids=["optimised", "opt-disable"])
def test_helper_shared_with_a_plain_kernel(context, queue, rewritten,
                                           options):
    """A helper shared by a kernel that takes part and one that does not
    (docs/design.md: the plain kernel passes a null context and the helper
    makes itself one of the real ids): the plain kernel's work-items get
    the real ids, the other's the virtual grid's, past dimension 2 too (ids
    0, counts and sizes 1), and built optimised or not (prelude.cl stores
    the answers where the compiler does not optimise)."""
    prog = rewritten(source=SHARED, barrier="flip")
    built = prog.build(context, options=[options] if options else [])
    groups, local, offset = (3, 2), (4, 2), (5, 7)
    size = tuple(g * ls for g, ls in zip(groups, local))
    items = size[0] * size[1]
    out = cl.Buffer(context, cl.mem_flags.READ_WRITE, 48 * items)
    got = np.empty(12 * items, np.uint32)
    for kernel in ("plain", "takes_part"):
        cl.enqueue_fill_buffer(queue, out, np.uint32(0xffffffff), 0,
                               48 * items)
        args = (out, np.uint32(3))
        if kernel == "plain":
            built.plain(queue, size, local, *args, global_offset=offset)
            grid = groups
        else:
            k = prog.kernel(queue, built.takes_part, max_groups=6)
            info = k(queue, groups, local, *args, offset=offset)
            grid = info.groups[:2]
        cl.enqueue_copy(queue, got, out)
        n = grid[0] * local[0] * grid[1] * local[1]
        want = expected_ids(grid, local, offset)
        # r[9]: get_num_groups(3) + get_global_size(3), 1 + 1 in the virtual
        # grid and through the real-ids context alike.
        assert got[:12 * n].reshape(n, 12).tolist() == want, kernel
        assert (got[12 * n:] == 0xffffffff).all(), kernel


# test/rewrite/anchors-group-helper.cl pins where the anchors of this
# kernel go.
GROUP_HELPER = os.path.join(SRC, "test", "rewrite", "anchors-group-helper.cl")


@pytest.mark.parametrize("options", ["", "-cl-opt-disable"],
                         ids=["optimised", "opt-disable"])
def test_group_barrier_helper_in_a_loop(context, queue, rewritten, options):
    """A helper that reaches only work-group barriers, returns early and is
    called in a loop of a kernel with a global barrier (docs/pocl.md,
    section 8): its anchors (gsync_anchor_here) keep PoCL from hanging
    or running its leader block in every work-item. The loop's helper
    takes a context (its ids are remapped) and a kernel that does not take
    part calls it too: its anchors must need no context's local words."""
    prog = rewritten(source=pathlib.Path(GROUP_HELPER).read_text(),
                     barrier="flip")
    assert prog.source.count("gsync_anchor_here()") >= 4
    built = prog.build(context, options=[options] if options else [])
    n, rounds, local = 7, 3, 4
    skip = np.array([v % 3 == 1 for v in range(n)], np.uint32)
    out = cl.Buffer(context, cl.mem_flags.READ_WRITE, 4 * n)
    cl.enqueue_fill_buffer(queue, out, np.uint32(0), 0, 4 * n)
    sk = cl.Buffer(context, cl.mem_flags.READ_ONLY | cl.mem_flags.COPY_HOST_PTR,
                   hostbuf=skip)
    want = [0 if skip[v] else rounds * sum(v + i for i in range(local))
            for v in range(n)]
    got = np.empty(n, np.uint32)
    # rounds_by_return: the first work-item's add behind a return the
    # others take, which PoCL ran in every work-item before the tool made
    # the return a goto to the anchored end (16 times the sums in a 4x4
    # group; test/pocl/late-jumps.test has every shape of it).
    for kernel in (built.rounds, built.rounds_by_return):
        cl.enqueue_fill_buffer(queue, out, np.uint32(0), 0, 4 * n)
        k = prog.kernel(queue, kernel, max_groups=3)
        k(queue, 3, local, out, sk, np.uint32(n), np.uint32(rounds),
          cl.LocalMemory(4 * local))
        cl.enqueue_copy(queue, got, out)
        assert got.tolist() == want, kernel.function_name
    # plain() runs add_all() twice.
    cl.enqueue_fill_buffer(queue, out, np.uint32(0), 0, 4 * n)
    built.plain(queue, (3 * local,), (local,), out, sk, np.uint32(n),
                cl.LocalMemory(4 * local))
    cl.enqueue_copy(queue, got, out)
    assert got.tolist() == [2 * w // rounds for w in want]


_builds = {}


def prog_build(prog, context):
    key = (id(prog), id(context))
    if key not in _builds:
        _builds[key] = prog.build(context)
    return _builds[key]


def stencil_args(context, n=256):
    a = cl.Buffer(context, cl.mem_flags.READ_WRITE, 4 * n)
    b = cl.Buffer(context, cl.mem_flags.READ_WRITE, 4 * n)
    return a, b, np.uint32(n), np.uint32(3)


def test_poll_cap_like_libgsync(context, queue, gsync_run, tmp_path):
    """The poll cap (docs/constraints.md): after a launch that admitted
    fewer groups than it polled, the next polls only as many as it
    admitted; the same launches through gsync-run (libgsync) poll the same
    counts, capped launches that admit fewer than their cap included."""
    out, js = str(tmp_path / "stencil.out.cl"), str(tmp_path / "stencil.json")
    subprocess.run([gsync.find_tool(), os.path.join(KERNELS, "stencil.cl"),
                    "-o", out, "--constraints", js], check=True)
    prog = gsync.load(js, source_path=out)
    k = prog.kernel(queue, prog.build(context).stencil, max_groups=8)
    infos = [k(queue, 8, 64, *stencil_args(context)) for _ in range(10)]
    polled = [i.polled for i in infos]
    assert polled[0] == 8 and polled[1] == infos[0].admitted < 8, polled
    assert all(i.admitted <= p for i, p in zip(infos, polled))
    r = subprocess.run([gsync_run, "--scenario", "reuse", "--cl", out,
                        "--constraints", js,
                        "--groups", "8", "--local", "64", "--launches", "10",
                        "--polled"], capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.splitlines()[1] == "polled: " + " ".join(map(str, polled))


def test_abort_says_what_libgsync_says(context, queue, gsync_run,
                                       tmp_path):
    """One implementation: an aborted Python launch reports what libgsync
    wrote, the words of gsync-run (a C host) for the same output and shape
    but the numbers that vary from run to run, and LaunchAborted's fields
    are the abort record as libgsync read it (gsync_launch_info)."""
    out, js = str(tmp_path / "stencil.out.cl"), str(tmp_path / "stencil.json")
    subprocess.run([gsync.find_tool(), os.path.join(KERNELS, "stencil.cl"),
                    "-o", out, "--constraints", js, "--no-discovery",
                    "--barrier=flip", "--spin-limit=300ms"], check=True)
    prog = gsync.load(js, source_path=out)
    k = prog.kernel(queue, prog.build(context).stencil, max_groups=64)
    with pytest.raises(gsync.LaunchAborted) as e:
        k(queue, 64, 64, *stencil_args(context, 1024))
    a = e.value
    r = subprocess.run([gsync_run, "--scenario", "stencil", "--cl", out,
                        "--constraints", js, "--groups", "64", "--local",
                        "64", "--expect-timeout"], capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    c = r.stdout.splitlines()[0].split("timed out: ", 1)[1]

    def shape(m):
        return re.sub(r"work-group [0-9]+ waited [0-9]+ ms and saw [0-9]+",
                      "work-group G waited T ms and saw A", m)
    assert shape(str(a)) == shape(c)
    assert f"work-group {a.group} waited {a.waited_ms} ms and saw " \
        f"{a.arrived} of {a.expected}" in str(a)
    assert (a.kind, a.site_number, a.launched) == ("barrier", 1, 64)
    assert a.site == prog.constraints.sites[0]
    assert str(a).endswith("possible causes: " + ", ".join(a.causes[:-1])
                           + ", or " + a.causes[-1])


def test_abort_names_the_barrier(context, queue, rewritten):
    """--no-discovery with more groups than run at once: the spin limit
    aborts the launch, and LaunchAborted says where, as libgsync does
    (test/run/abort-no-discovery.test); the next launch, of one group,
    runs on the zeroed state."""
    prog = rewritten(os.path.join(KERNELS, "stencil.cl"), barrier="flip",
                     discovery=False, spin_limit="300ms")
    k = prog.kernel(queue, prog_build(prog, context).stencil, max_groups=64)
    with pytest.raises(gsync.LaunchAborted) as e:
        k(queue, 64, 16, *stencil_args(context))
    a = e.value
    assert a.status == "GSYNC_ERR_TIMEOUT"
    assert a.kind == "barrier" and a.site_number == 1
    assert re.fullmatch(r".*stencil\.cl:10:5", a.site)
    assert a.expected == 64 and a.launched == 64 and 1 <= a.arrived < 64
    assert re.fullmatch(
        r"kernel stencil: global barrier at .*stencil\.cl:10:5 aborted the "
        r"launch: work-group [0-9]+ waited [0-9]+ ms and saw [1-9][0-9]? of "
        r"64 work-groups arrive \(64 launched\); possible causes: more "
        r"work-groups launched than the device runs at once \(this output "
        r"has no discovery\), a global_barrier\(\) that some work-group does "
        r"not reach, or work between two barriers that takes longer than the "
        r"spin limit of 300 ms \(--spin-limit\)", str(a))
    # The causes come from libgsync's list (gsync_launch_info's bits,
    # gsync_launch_cause's words), not from the message's text.
    assert a.causes == [
        "more work-groups launched than the device runs at once (this "
        "output has no discovery)",
        "a global_barrier() that some work-group does not reach",
        "work between two barriers that takes longer than the spin limit of "
        "300 ms (--spin-limit)"]
    assert k(queue, 1, 16, *stencil_args(context)).participants == 1


def test_refused_launches(context, queue, rewritten):
    prog = rewritten(os.path.join(KERNELS, "stencil.cl"), barrier="flip")
    built = prog_build(prog, context)
    k = prog.kernel(queue, built.stencil, max_groups=4)
    args = stencil_args(context)
    with pytest.raises(gsync.LaunchError, match="kernel stencil: 5 work-groups "
                       "exceed the 4 it was created for"):
        k.enqueue(queue, 5, 8, *args)
    with pytest.raises(gsync.LaunchError, match=r"empty launch \(0"):
        k.enqueue(queue, 0, 8, *args)
    with pytest.raises(gsync.LaunchError, match="differ in dimensions"):
        k.enqueue(queue, (2, 2), 8, *args)
    with pytest.raises(gsync.LaunchError, match="nothing launched"):
        k.finish(queue)
    with pytest.raises(gsync.ArgumentError, match="takes 4 arguments"):
        k.enqueue(queue, 1, 8, args[0])
    with pytest.raises(gsync.LaunchError, match="max_groups must be at least"):
        prog.kernel(queue, built.stencil, max_groups=0)
    # Arguments set by hand, then launched many times through one state.
    for i, a in enumerate(args):
        k.kernel.set_arg(i, a)
    for _ in range(5):
        k.enqueue(queue, 4, 8)
    assert 1 <= k.finish(queue).participants <= 4


def test_launch_errors_name_the_cause(context, queue, rewritten):
    """A launch the driver refuses says why in this kernel's terms: which
    argument a Python number was given for and the numpy type to pass,
    which arguments are unset, which local size the kernel was compiled
    for (launch_fail in runtime/launch.c; test/run/misuse.test for C)."""
    prog = rewritten(os.path.join(KERNELS, "stencil.cl"), barrier="flip")
    built = prog_build(prog, context)
    k = prog.kernel(queue, built.stencil, max_groups=4)
    a, b, n, iters = stencil_args(context)
    with pytest.raises(gsync.OpenCLError, match=re.escape(
            "kernel stencil: argument 2 (n, a value of 4 bytes): "
            "clSetKernelArg failed: CL_INVALID_VALUE (-30); a Python int has "
            "no OpenCL size: pass a numpy scalar of the parameter's type")):
        k.enqueue(queue, 2, 8, a, b, 256, iters)
    with pytest.raises(gsync.OpenCLError, match=re.escape(
            "argument 3 (iters, a value of 4 bytes): clSetKernelArg failed: "
            "CL_INVALID_ARG_SIZE (-51); a int16 is 2 bytes, the parameter "
            "takes 4")):
        k.enqueue(queue, 2, 8, a, b, n, np.int16(2))
    fresh = prog.kernel(queue, prog.build(context).stencil, max_groups=4)
    with pytest.raises(gsync.OpenCLError, match=re.escape(
            "kernel stencil: clEnqueueNDRangeKernel failed: "
            "CL_INVALID_KERNEL_ARGS (-52): not every argument is set; pass "
            "the kernel's own 4 to the launch (or set indices 0 to 3 on "
            "Kernel.kernel), and gsync sets the state argument (index 4)")):
        fresh.enqueue(queue, 2, 8)
    reqd = rewritten(os.path.join(SRC, "test", "run", "Inputs", "reqd.cl"))
    kr = reqd.kernel(queue, reqd.build(context).reqd, max_groups=4)
    with pytest.raises(gsync.LaunchError, match=re.escape(
            "kernel reqd: local size 8 is not the one the kernel was compiled "
            "for, reqd_work_group_size(16, 1, 1): launch it with that local "
            "size")):
        kr.enqueue(queue, 2, 8, a, n)
    with pytest.raises(gsync.LaunchError, match=re.escape(
            "local size 8 x 2 is not the one the kernel was compiled for")):
        kr.enqueue(queue, (2, 1), (8, 2), a, n)
    assert 1 <= kr(queue, 2, 16, a, n).participants <= 2


ARGS = """
kernel void args(global uint *a, local uint *t, uint n) {
  for (uint i = get_global_id(0); i < n; i += get_global_size(0))
    a[i] = 1;
  global_barrier();
}"""


def test_a_wrong_number_of_arguments(context, queue, rewritten):
    """A launch given too few or too many arguments (the state among them)
    says how many the kernel takes, and which."""
    prog = rewritten(source=ARGS, barrier="flip")
    k = prog.kernel(queue, prog_build(prog, context).args, max_groups=4)
    a = cl.Buffer(context, cl.mem_flags.READ_WRITE, 4 * 64)
    for args in ((a, cl.LocalMemory(64)),
                 (a, cl.LocalMemory(64), np.uint32(64), k.state)):
        with pytest.raises(gsync.ArgumentError, match=re.escape(
                "kernel args: takes 3 arguments besides its state (a, t, n), "
                f"{len(args)} given")):
            k.enqueue(queue, 2, 8, *args)


@pytest.mark.parametrize("n, value, says", [
    (0, np.zeros(4, np.uint32), "argument 0 (a, a global pointer): "
     "clSetKernelArg failed: CL_INVALID_ARG_SIZE (-51); a numpy array is "
     "host memory: pass a pyopencl.Buffer (cl.Buffer(ctx, flags, "
     "hostbuf=array) copies it to the device)"),
    (0, [1, 2], "; a list is no buffer: pass a pyopencl.Buffer (or None)"),
    (0, cl.LocalMemory(16), "; a LocalMemory is no buffer"),
    (1, 16, "argument 1 (t, a local pointer): clSetKernelArg failed: "
     "CL_INVALID_VALUE (-30); an int is no local memory: pass "
     "cl.LocalMemory(BYTES), the bytes of local memory it points to"),
    (1, None, "; None is no local memory: pass cl.LocalMemory(BYTES)"),
    (2, None, "argument 2 (n, a value of 4 bytes): clSetKernelArg failed: "
     "CL_INVALID_ARG_SIZE (-51); None is no value of 4 bytes: pass a numpy "
     "scalar of the parameter's type"),
    (2, "x", "; a str is no value of 4 bytes: pass a numpy scalar"),
    (2, 1.5, "; a Python float has no OpenCL size: pass a numpy scalar"),
    (2, np.float64(1), "; a float64 is 8 bytes, the parameter takes 4"),
])
def test_an_argument_of_the_wrong_kind(context, queue, rewritten, n, value,
                                       says):
    """An argument set_arg refuses is named, with what its parameter takes
    from PyOpenCL, for every kind of parameter (a bare INVALID_VALUE or
    INVALID_ARG_SIZE before, but for a Python number's)."""
    prog = rewritten(source=ARGS, barrier="flip")
    k = prog.kernel(queue, prog_build(prog, context).args, max_groups=4)
    args = [cl.Buffer(context, cl.mem_flags.READ_WRITE, 4 * 64),
            cl.LocalMemory(64), np.uint32(64)]
    args[n] = value
    with pytest.raises(gsync.OpenCLError, match=re.escape(says)) as e:
        k.enqueue(queue, 2, 8, *args)
    assert str(e.value).startswith(f"kernel args: argument {n} (")


def test_more_local_memory_than_the_device_has(context, queue, rewritten,
                                               device):
    """Local pointer arguments that ask for more local memory than the
    device has are refused before the launch, naming them (PoCL aborted
    the process on cl.LocalMemory(1 << 30)); with the kernel's own local
    memory, as much as the device has is too much."""
    prog = rewritten(source=ARGS.replace(
        "global_barrier();", "local uint own[64];\n  own[get_local_id(0)] "
        "= n;\n  global_barrier();\n  a[0] += own[0];"), barrier="flip")
    k = prog.kernel(queue, prog_build(prog, context).args, max_groups=4)
    a = cl.Buffer(context, cl.mem_flags.READ_WRITE, 4 * 64)
    have = device.local_mem_size
    with pytest.raises(gsync.LaunchError, match=re.escape(
            f"kernel args: its local memory (argument 1 (t) {1 << 30} bytes) "
            f"is more than the {have} bytes the device has "
            "(CL_DEVICE_LOCAL_MEM_SIZE)")):
        k.enqueue(queue, 2, 8, a, cl.LocalMemory(1 << 30), np.uint32(64))
    with pytest.raises(gsync.LaunchError, match=re.escape(
            f"(argument 1 (t) {have} bytes, its own ")):
        k.enqueue(queue, 2, 8, a, cl.LocalMemory(have), np.uint32(64))
    assert 1 <= k(queue, 2, 8, a, cl.LocalMemory(64),
                  np.uint32(64)).participants <= 2


def test_the_state_is_libgsyncs(context, queue, rewritten):
    """The state buffer is the one gsync_kernel_create made, of the size
    the constraints ask for: Python sees it and cannot replace it (OpenCL
    would take a buffer of any size, and the kernel read and write past its
    end); a kernel without a barrier has none."""
    prog = rewritten(os.path.join(KERNELS, "stencil.cl"), barrier="flip")
    k = prog.kernel(queue, prog_build(prog, context).stencil, max_groups=4)
    want = k.state_bytes
    assert want == k.info.fixed_bytes + 4 * k.info.per_group_bytes
    assert k.state.size >= want and k.state is k.state
    with pytest.raises(gsync.ArgumentError, match=re.escape(
            f"kernel stencil: the state buffer is libgsync's, which made it "
            f"to size ({want} bytes) and sets it at each launch")):
        k.state = cl.Buffer(context, cl.mem_flags.READ_WRITE, want)
    assert 1 <= k(queue, 2, 8, *stencil_args(context)).participants <= 2
    plain = rewritten(source="kernel void k(global int *a) { a[0] = 1; }")
    kp = plain.kernel(queue, prog_build(plain, context).k, max_groups=4)
    assert kp.state is None and kp.state_bytes == 0


def test_a_queue_of_another_context(context, queue, rewritten, device):
    """Every call that takes a queue refuses one of another context than
    the kernel's, naming it (a bare INVALID_CONTEXT before, from the
    state's zeroing, the launch or the read of the state; test/run/
    misuse.test for C)."""
    other = cl.CommandQueue(cl.Context([device]))
    prog = rewritten(os.path.join(KERNELS, "stencil.cl"), barrier="flip")
    built = prog_build(prog, context)
    with pytest.raises(gsync.ArgumentError, match=re.escape(
            "gsync_kernel_create: queue belongs to another context than ctx "
            "(kernel stencil): give the context its program was built in, "
            "and a queue of it")):
        prog.kernel(other, built.stencil, max_groups=4)
    k = prog.kernel(queue, built.stencil, max_groups=4)
    want = re.escape("queue belongs to another context than kernel stencil "
                     "(the one gsync_kernel_create was given)")
    args = stencil_args(context)
    with pytest.raises(gsync.ArgumentError, match="gsync_enqueue_nd: " + want):
        k.enqueue(other, 2, 8, *args)
    with pytest.raises(gsync.ArgumentError, match=want):
        k(other, 2, 8, *args)
    assert 1 <= k(queue, 2, 8, *args).participants <= 2
    with pytest.raises(gsync.ArgumentError, match="gsync_finish_nd: " + want):
        k.finish(other)
    with pytest.raises(gsync.ArgumentError, match=want):
        k.watch(other)
    nd = rewritten(os.path.join(KERNELS, "stencil.cl"), barrier="flip",
                   discovery=False)
    knd = nd.kernel(queue, prog_build(nd, context).stencil, max_groups=4)
    with pytest.raises(gsync.ArgumentError, match=want):
        knd.groups_that_fit(other, 8)


def test_a_state_larger_than_the_device_allocates(context, queue,
                                                  rewritten):
    """A state the device cannot allocate says how large it is, why, and
    the most the device allocates, before the driver (whose codes differ:
    NVIDIA did not answer CL_INVALID_BUFFER_SIZE)."""
    prog = rewritten(os.path.join(KERNELS, "stencil.cl"), barrier="atomic-or")
    built = prog_build(prog, context)
    with pytest.raises(gsync.OpenCLError, match=re.escape(
            "kernel stencil: the state for up to 1099511627776 "
            "work-groups (max_groups) is 8796093022464 bytes (256 + 8 x "
            "1099511627776), and the device allocates at most "
            f"{context.devices[0].max_mem_alloc_size} bytes at once")):
        prog.kernel(queue, built.stencil, max_groups=1 << 40)


def test_fit_probe_of_another_local_size_than_reqd(context, queue,
                                                     rewritten):
    """The probe of how many work-groups fit is a launch too: a local size
    other than the kernel's reqd_work_group_size is refused, naming both
    (the driver's bare CL_INVALID_WORK_GROUP_SIZE before)."""
    reqd = rewritten(os.path.join(SRC, "test", "run", "Inputs", "reqd.cl"),
                     discovery=False)
    k = reqd.kernel(queue, reqd.build(context).reqd, max_groups=8)
    with pytest.raises(gsync.LaunchError, match=re.escape(
            "kernel reqd: local size 8 is not the one the kernel was compiled "
            "for, reqd_work_group_size(16, 1, 1)")):
        k.groups_that_fit(queue, 8)
    assert 1 <= k.groups_that_fit(queue, 16) <= 8


def test_mismatched_output(context, queue, rewritten):
    """libgsync's message, naming the constraints by what was rewritten
    (their file is gone)."""
    flip = rewritten(os.path.join(KERNELS, "stencil.cl"), barrier="flip")
    tree = rewritten(os.path.join(KERNELS, "stencil.cl"))
    with pytest.raises(gsync.MismatchError, match=r"^/\S*/stencil\.cl "
                       r"\(rewritten\): the constraints belong to "
                       "output [0-9a-f]{16}, but the program was built from "
                       "output [0-9a-f]{16}"):
        tree.kernel(queue, prog_build(flip, context).stencil, max_groups=2)
    # Built again, the same source with the same options: a program from
    # PyOpenCL's cache of binaries kept no source, and the check was
    # skipped.
    with pytest.raises(gsync.MismatchError):
        tree.kernel(queue, flip.build(context).stencil, max_groups=2)


def test_unknown_kernel(context, queue, rewritten):
    """A kernel the constraints do not list: libgsync says so, naming the
    file as gsync.rewrite() names it."""
    prog = rewritten(os.path.join(KERNELS, "stencil.cl"), barrier="flip")
    other = cl.Program(context, "kernel void other(global int *a) "
                       "{ a[0] = 1; }").build()
    with pytest.raises(gsync.KernelError, match=re.escape(
            f'{prog.constraints.path}: no kernel "other"')):
        prog.kernel(queue, other.other, max_groups=2)


def test_rewrite_text_with_defines(context, queue):
    prog = gsync.rewrite(source="""
kernel void fill(global int *a, global int *b) {
  a[get_global_id(0)] = VALUE;
  global_barrier();
  b[get_global_id(0)] = a[(get_global_id(0) + 1) % get_global_size(0)] * 2;
}""", defines={"VALUE": 21}, barrier="flip")
    assert "-DVALUE=21" in prog.build_options(context.devices[0])
    k = prog.kernel(queue, prog.build(context).fill, max_groups=4)
    a = cl.Buffer(context, cl.mem_flags.READ_WRITE, 4 * 64)
    b = cl.Buffer(context, cl.mem_flags.READ_WRITE, 4 * 64)
    info = k(queue, 4, 16, a, b)
    got = np.empty(64, np.int32)
    cl.enqueue_copy(queue, got, b)
    n = info.participants * 16
    assert list(got[:n]) == [42] * n


def test_rewrite_refused():
    with pytest.raises(gsync.RewriteError) as e:
        gsync.rewrite(source="kernel void k(global int *a) {\n"
                              "  if (get_global_id(0)) global_barrier();\n}\n")
    assert e.value.exit_status == 1
    assert re.search(r"<stdin>:2:\d+: error", e.value.diagnostics)


@pytest.mark.parametrize("path", [
    "nothere.cl", "kernels/nothere.cl", "my kernel (copy).cl",
    pathlib.Path("nothere.cl"), b"nothere.cl"])
def test_rewrite_a_mistyped_path(tmp_path, monkeypatch, path):
    """The first argument is a path: one that names no file is
    FileNotFoundError naming it, never its text parsed as a kernel (it was
    "<stdin>:1:1: error: expected identifier or '('")."""
    monkeypatch.chdir(tmp_path)
    with pytest.raises(FileNotFoundError,
                       match="no such kernel file.*source=") as e:
        gsync.rewrite(path)
    assert e.value.filename == path


@pytest.mark.parametrize("name", ["a;b.cl", "{x}.cl"])
def test_rewrite_a_file_whose_name_looks_like_text(tmp_path, monkeypatch,
                                                   name):
    """A file that exists is the input whatever its name holds."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / name).write_text("kernel void k(global int *a) { a[0] = 1; }")
    assert gsync.rewrite(name).constraints.path == f"{name} (rewritten)"


def test_rewrite_source_text():
    prog = gsync.rewrite(source="kernel void k(global int *a) { a[0] = 1; }")
    assert "kernel void k" in prog.source
    assert prog.constraints.path == "<source> (rewritten)"
    assert "kernel void k" in gsync.rewrite(
        source=b"kernel void k(global int *a) { a[0] = 1; }").source


def test_rewrite_text_as_first_argument_is_deprecated():
    """Text as the first argument, as before source=, still works where it
    can be no file's name, and says to pass source=."""
    with pytest.warns(DeprecationWarning, match="pass it as source="):
        prog = gsync.rewrite("kernel void k(global int *a) { a[0] = 1; }")
    assert "kernel void k" in prog.source


@pytest.mark.parametrize("args, kwargs, message", [
    ((), {}, "give a kernel file's path, or its text as source="),
    (("k.cl",), {"source": "kernel void k() {}"}, "not both"),
    ((), {"source": 42}, "source= is OpenCL C text"),
    ((42,), {}, "path is a str, bytes or path-like object, not int"),
])
def test_rewrite_input_misuse(args, kwargs, message):
    with pytest.raises(TypeError, match=message):
        gsync.rewrite(*args, **kwargs)


def test_threads_take_turns(context, rewritten):
    """Launches of one Kernel from two threads, each on its own queue,
    are ordered on the shared state: every one completes."""
    import threading
    prog = rewritten(os.path.join(KERNELS, "stencil.cl"), barrier="flip")
    built = prog_build(prog, context)
    queues = [cl.CommandQueue(context) for _ in range(2)]
    k = prog.kernel(queues[0], built.stencil, max_groups=4)
    args = stencil_args(context)
    seen, errors = [], []

    def launch(q):
        try:
            for _ in range(4):
                seen.append(k(q, 4, 8, *args).participants)
        except Exception as e:  # reported below, not lost in the thread
            errors.append(e)
    threads = [threading.Thread(target=launch, args=(q,)) for q in queues]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=100)
    assert not errors and len(seen) == 8 and all(1 <= p <= 4 for p in seen)


@pytest.mark.parametrize("discovery", [True, False])
def test_builds_optimised_everywhere(device, rewritten, discovery):
    # The output is right on PoCL built optimised (its anchors,
    # docs/pocl.md, section 6): no device gets -cl-opt-disable, so a host
    # that builds it its own way builds the same kernel.
    prog = rewritten(source=IDS, discovery=discovery, barrier="flip")
    assert "-cl-opt-disable" not in prog.build_options(device).split()


@pytest.mark.parametrize("barrier", ["flip", "tree"])
def test_groups_that_fit_sizes_a_no_discovery_launch(context, queue, rewritten,
                                                 barrier):
    """Kernel.groups_that_fit measures how many groups run at once (PoCL runs as
    many as it has threads: 2 here, up to 16 elsewhere); a --no-discovery
    launch of that many completes and matches a launch of one group, and
    the answer is kept. Output with discovery needs no probe."""
    prog = rewritten(os.path.join(KERNELS, "stencil.cl"), barrier=barrier,
                     discovery=False, spin_limit="2s")
    k = prog.kernel(queue, prog_build(prog, context).stencil, max_groups=256)
    n = 256
    start = np.arange(n, dtype=np.uint32) % 7
    a, b = (cl.Buffer(context, cl.mem_flags.READ_WRITE |
                      cl.mem_flags.COPY_HOST_PTR, hostbuf=start)
            for _ in range(2))
    args = (a, b, np.uint32(n), np.uint32(40))
    for i, x in enumerate(args):
        k.kernel.set_arg(i, x)
    fit = k.groups_that_fit(queue, 16)
    assert 1 <= fit <= 256
    assert k.groups_that_fit(queue, (16,)) == fit
    assert k(queue, fit, 16).participants == fit
    got = np.empty(n, np.uint32)
    cl.enqueue_copy(queue, got, a)
    cl.enqueue_copy(queue, a, start)
    cl.enqueue_copy(queue, b, start)
    assert k(queue, 1, 16).participants == 1
    want = np.empty(n, np.uint32)
    cl.enqueue_copy(queue, want, a)
    assert (got == want).all()
    disc = rewritten(os.path.join(KERNELS, "stencil.cl"), barrier=barrier)
    kd = disc.kernel(queue, prog_build(disc, context).stencil, max_groups=4)
    with pytest.raises(gsync.ArgumentError, match="rewritten with discovery"):
        kd.groups_that_fit(queue, 16)


def test_groups_that_fit_needs_the_library_options(context, queue, rewritten):
    """Built without build_options() the kernel has no probe, and a probe
    launch would run its code: refused."""
    prog = rewritten(os.path.join(KERNELS, "stencil.cl"), barrier="flip",
                     discovery=False)
    built = cl.Program(context, prog.source).build(
        options=prog.build_options(context.devices[0]).replace(
            "-Dgsync_fit_probe", ""))
    k = prog.kernel(queue, built.stencil, max_groups=8)
    for i, x in enumerate(stencil_args(context)):
        k.kernel.set_arg(i, x)
    with pytest.raises(gsync.MismatchError, match="-Dgsync_fit_probe"):
        k.groups_that_fit(queue, 16)


def test_groups_that_fit_after_the_buffers_are_gone(context, queue,
                                                    rewritten):
    """The probe sets every argument itself (issue 24, item 7): asked after
    a launch whose buffers were released since, it runs, where a probe of
    the kernel with the launch's arguments made PoCL abort the process."""
    prog = rewritten(os.path.join(KERNELS, "stencil.cl"), barrier="flip",
                     discovery=False, spin_limit="2s")
    k = prog.kernel(queue, prog_build(prog, context).stencil, max_groups=64)
    args = stencil_args(context)
    assert k(queue, 1, 16, *args).participants == 1
    for buf in args[:2]:
        buf.release()
    del args
    fit = k.groups_that_fit(queue, 8)
    assert 1 <= fit <= 64
    assert k(queue, fit, 8, *stencil_args(context)).participants == fit


def test_groups_that_fit_needs_no_arguments(context, queue, rewritten):
    """A kernel whose arguments were never set, as one gets by setting
    them on another attribute access (built.stencil makes a new kernel
    object each time; issue 29, item 8), can be probed: global pointers
    get NULL, local ones a few bytes, values zeros of their size."""
    prog = rewritten(os.path.join(KERNELS, "stencil.cl"), barrier="flip",
                     discovery=False, spin_limit="2s")
    built = prog_build(prog, context)
    for i, x in enumerate(stencil_args(context)):
        built.stencil.set_arg(i, x)
    k = prog.kernel(queue, built.stencil, max_groups=64)
    fit = k.groups_that_fit(queue, 16)
    assert 1 <= fit <= 64
    assert k(queue, fit, 16, *stencil_args(context)).participants == fit


PARAMS = """
typedef struct { float x; uint n; char c; double d; } pair;
kernel void all_kinds(global float *g, constant float *c, local float4 *l,
                      pair p, float3 v, uchar u, global uint *out) {
  for (uint i = get_global_id(0); i < p.n; i += get_global_size(0))
    l[get_local_id(0)] = (float4)(g[i] + c[0], p.x, v.y, u);
  global_barrier();
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_global_id(0) == 0)
    out[0] = (uint)(l[0].x + p.d) + p.c;
}
"""


def test_groups_that_fit_sets_every_kind_of_argument(context, queue,
                                                     rewritten):
    """Pointers to global, constant and local memory, a struct, a vector
    and a scalar by value, none of them set: the probe runs with the
    sizes the constraints' "params" give, and a launch of that many
    groups completes."""
    prog = rewritten(source=PARAMS, barrier="flip", discovery=False,
                     spin_limit="2s")
    kinds = [(p.kind, p.bytes) for p in
             prog.constraints.kernel("all_kinds").params]
    assert kinds == [("global", None), ("constant", None), ("local", None),
                     ("private", 24), ("private", 16), ("private", 1),
                     ("global", None)]
    k = prog.kernel(queue, prog_build(prog, context).all_kinds,
                    max_groups=64)
    fit = k.groups_that_fit(queue, 4)
    assert 1 <= fit <= 64


def test_groups_that_fit_refuses_an_image(context, queue, rewritten, device):
    """An image argument is a handle the probe cannot make up: refused,
    naming the parameter."""
    if not device.image_support:
        pytest.skip("the device has no images")
    prog = rewritten(source="""
kernel void img(read_only image2d_t src, global float *out) {
  global_barrier();
  out[0] = read_imagef(src, (int2)(0, 0)).x;
}
""", barrier="flip", discovery=False)
    assert [p.kind for p in prog.constraints.kernel("img").params] == [
        "image", "global"]
    k = prog.kernel(queue, prog_build(prog, context).img, max_groups=8)
    with pytest.raises(gsync.KernelError,
                       match=r"parameter 0 \(src\) is an image"):
        k.groups_that_fit(queue, 4)


def test_edited_constraints_are_refused(context, queue, tmp_path):
    """Constraints edited after the rewrite (here "params" removed, as
    files from before it were) no longer match their fingerprint, which
    covers both files: the program is refused when it is built, before
    any launch or probe."""
    out, js = tmp_path / "stencil.out.cl", tmp_path / "stencil.json"
    subprocess.run([gsync.find_tool(), "--no-discovery",
                    os.path.join(KERNELS, "stencil.cl"), "-o", str(out),
                    "--constraints", str(js)], check=True)
    doc = json.loads(js.read_text())
    for info in doc["kernels"]:
        del info["params"]
    js.write_text(json.dumps(doc))
    prog = gsync.load(js, source_path=out)
    with pytest.raises(gsync.MismatchError,
                       match="no longer hold what their fingerprint"):
        prog.kernel(queue, prog.build(context).stencil, max_groups=8)


def test_launch_note():
    """LaunchInfo.note says what gsync_launch_note() says (the same cases
    as test/run/misuse.c): nothing when all took part, else how many, why
    and what follows."""
    all_in = gsync.LaunchInfo(1, 4, 4, 0, (4, 1, 1), 4, 4)
    assert all_in.note == ""
    one = gsync.LaunchInfo(1, 1, 1, 0, (1, 1, 1), 8, 64)
    assert one.note == (
        "1 of the 64 work-groups launched took part in the global barrier: "
        "discovery admitted only the 1 that the device ran at once, and the "
        "others returned at once (it polled the first 8, as many as fitted "
        "in an earlier launch); the ids count only the work-groups that took "
        "part, so a kernel that is not grid-stride (for (i = "
        "get_global_id(0); i < n; i += get_global_size(0))) leaves the data "
        "past their ids untouched")
    grid = gsync.LaunchInfo(2, 6, 4, 2, (2, 2, 1), 6, 6)
    assert grid.note.startswith(
        "4 of the 6 work-groups launched took part in the global barrier: 2 "
        "admitted work-groups were left out of the virtual grid of 2 x 2; "
        "the ids")
