"""Loading constraints and checking devices, which gsync leaves to
libgsync: a refusal is the exception of libgsync's status, with its
message. Each case edits a real constraints file and compares gsync's
message with the one libgsync gives through gsync-run (which loads the
file and checks the device before anything else). Also what gsync reads
back of a file libgsync loaded, and how it finds libgsync."""
import json
import os
import subprocess
import sys

import pytest

import gsync
from conftest import KERNELS


def edit(doc, path, value):
    """Sets (or, with value None, deletes) the field at the dotted path."""
    *parents, last = path.split(".")
    for p in parents:
        doc = doc[int(p)] if isinstance(doc, list) else doc[p]
    if value is None:
        del doc[last]
    elif isinstance(doc, list):
        doc[int(last)] = value
    else:
        doc[last] = value


CASES = [
    ("format", None),
    ("format", "other"),
    ("version", 2),
    ("barrier", 3),
    ("discovery", "yes"),
    ("spin_limit_ms", -1),
    ("requires.opencl_c_version", "12"),
    ("requires.atomic_capabilities", ["relaxed", "fast"]),
    ("requires.extensions", ["cl_khr_fp64", 7]),
    ("build.options", "-DN=1"),
    ("build.options", ["-DN=1", "-DGSYNC_TREE_LEAF=2u"]),
    ("build.options", ["-D", "gsync_watch"]),
    ("build.options", ["-UGsync_Clock_Hz"]),
    ("kernels.0.name", None),
    ("kernels.0.work_dim", 0),
    ("kernels.0.work_dim", 4),
    ("kernels.0.state_arg.init", "ones"),
    ("kernels.0.state_arg.participants_offset", 2),
    ("kernels.0.state_arg.grid_offset", 6),
    ("kernels.0.state_arg.abort_offset", 252),
    ("kernels.0.state_arg.poll_cap_offset", 510),
    ("kernels.0.state_arg.bytes.fixed", 4096),
    ("kernels.0.state_arg.bytes.per_group", 1 << 17),
    ("kernels.0.state_arg.reset_by_kernel", 1),
    ("kernels.0.params", {}),
    ("kernels.0.params", []),
    ("kernels.0.params.0", "global"),
    ("kernels.0.params.0.kind", None),
    ("kernels.0.params.0.kind", 1),
    ("kernels.0.params.0.name", 7),
    ("kernels.0.params.2.bytes", None),
    ("kernels.0.params.2.bytes", "4"),
    ("kernels.0.params.2.bytes", 0),
    ("kernels.0.params.2.bytes", (1 << 16) + 1),
    ("barrier_sites.0.site", 2),
    ("barrier_sites.0.line", "7"),
    ("fingerprint", "12345"),
    ("fingerprint", None),
    ("state_layout", "gsync-layout/2"),
    ("kernels", {}),
]


@pytest.fixture(scope="module")
def original(tmp_path_factory):
    d = tmp_path_factory.mktemp("orig")
    out, js = d / "stencil.out.cl", d / "stencil.json"
    subprocess.run([gsync.find_tool(), os.path.join(KERNELS, "stencil.cl"),
                    "-o", str(out), "--constraints", str(js)], check=True)
    return out, json.loads(js.read_text())


def libgsync_message(gsync_run, cl_path, js):
    r = subprocess.run([gsync_run, "--scenario", "stencil", "--cl",
                        str(cl_path), "--constraints", str(js), "--groups",
                        "1", "--local", "1"], capture_output=True, text=True,
                       errors="surrogateescape", timeout=120)
    assert r.returncode == 1, r.stdout + r.stderr
    line = r.stderr.splitlines()[0]
    assert line.startswith("gsync-run: error: ")
    return line[len("gsync-run: error: "):]


@pytest.mark.parametrize("field,value", CASES,
                         ids=[f"{f}={v!r}" for f, v in CASES])
def test_refused_like_libgsync(original, tmp_path, gsync_run, field, value):
    out, doc = original
    doc = json.loads(json.dumps(doc))
    edit(doc, field, value)
    js = tmp_path / "edited.json"
    js.write_text(json.dumps(doc, indent=2))
    with pytest.raises(gsync.FormatError) as e:
        gsync.load(js)
    assert e.value.status == "GSYNC_ERR_FORMAT"
    assert str(e.value) == libgsync_message(gsync_run, out, js)


def test_read_as_json_c_reads(original, tmp_path, gsync_run):
    """json-c, libgsync's parser, takes a comma that ends an object and
    control characters and stray bytes in strings, and a field wrong in
    such a file is named in libgsync's message, its bytes as they are."""
    out, doc = original
    doc = json.loads(json.dumps(doc))
    doc["requires"]["opencl_c_version"] = "x"
    text = json.dumps(doc, indent=1).replace('"x"', '"\x01\t\xff"')
    text = text.replace('"version": 1,', '"version": 1,\n "extra": [1,],')
    js = tmp_path / "lax.json"
    js.write_bytes(text.encode("utf-8", "surrogateescape")
                   .replace(b"\xc3\xbf", b"\xff"))
    with pytest.raises(gsync.FormatError) as e:
        gsync.load(js)
    assert "is not a version like" in str(e.value)
    assert e.value.raw == \
        libgsync_message(gsync_run, out, js).encode("utf-8", "surrogateescape")
    # The message prints: the stray byte shows as an escape.
    assert '"\x01\t\\xff"' in str(e.value)
    str(e.value).encode("utf-8")


@pytest.mark.parametrize("text", ['{"format": "gsync-constraints"} x', "[]"])
def test_not_json_or_not_object(tmp_path, text):
    js = tmp_path / "bad.json"
    js.write_text(text)
    with pytest.raises(gsync.FormatError, match=r"bad\.json: not"):
        gsync.load(js)


def test_files_that_cannot_be_read(tmp_path, original, gsync_run):
    out, _ = original
    for path, error in ((tmp_path / "missing.json", gsync.FileError),
                        (tmp_path, gsync.FileError)):
        with pytest.raises(error) as e:
            gsync.load(path)
        assert e.value.status == "GSYNC_ERR_IO"
        assert str(e.value) == libgsync_message(gsync_run, out, path)


def test_device_lacks_extension(original, tmp_path, device, gsync_run):
    out, doc = original
    doc = json.loads(json.dumps(doc))
    doc["requires"]["extensions"].append("cl_khr_not_here")
    js = tmp_path / "ext.json"
    js.write_text(json.dumps(doc))
    prog = gsync.load(js)
    with pytest.raises(gsync.DeviceError) as e:
        prog.check_device(device)
    assert str(e.value) == libgsync_message(gsync_run, out, js)
    assert "lacks extension cl_khr_not_here required by barrier" in str(e.value)


def test_device_lacks_c_feature(original, tmp_path, device, gsync_run):
    out, doc = original
    doc = json.loads(json.dumps(doc))
    doc["requires"]["opencl_c_version"] = "2.0"
    doc["requires"]["opencl_c_features"] = ["__opencl_c_not_here"]
    js = tmp_path / "ver.json"
    js.write_text(json.dumps(doc))
    with pytest.raises(gsync.DeviceError) as e:
        gsync.load(js).check_device(device)
    assert str(e.value) == libgsync_message(gsync_run, out, js)


def test_build_options(original, device, tmp_path):
    out, doc = original
    doc = json.loads(json.dumps(doc))
    doc["build"]["options"] = ["-DN=1024", "-I/a dir/with space", '-DQ="x"']
    js = tmp_path / "opts.json"
    js.write_text(json.dumps(doc))
    opts = gsync.load(js).build_options(device)
    # The value quoted after its flag, as compilers take it (a directory
    # that exists PoCL gets through /proc/self/fd: test_hostile.py). PoCL
    # unescapes nothing and reads a double quote as a blank: the option as
    # it is, which gsync_program_check_device refuses there.
    pocl = "Portable Computing Language" in device.platform.name
    assert opts.startswith('-cl-std=CL1.2 -DN=1024 -I"/a dir/with space" ' +
                           ('-DQ="x"' if pocl else '-D"Q=\\"x\\""'))
    if device.type & 2:  # a CPU device: its clock's rate, for the limit
        assert " -Dgsync_clock_hz=" in opts


def test_what_libgsync_read(original, tmp_path):
    """The kernels' numbers that the launches made in Python use are
    libgsync's reading of the file (gsync_program_kernel_info and the
    rest), field for field."""
    out, doc = original
    js = tmp_path / "c.json"
    js.write_text(json.dumps(doc))
    c = gsync.load(js).constraints
    assert (c.path, c.barrier, c.discovery, c.spin_limit_ms, c.fingerprint,
            c.build_args) == (
        str(js), doc["barrier"], doc["discovery"], doc["spin_limit_ms"],
        doc["fingerprint"], doc["build"]["options"])
    assert c.sites == [f"{s['file']}:{s['line']}:{s['column']}"
                       for s in doc["barrier_sites"]]
    [k] = c.kernels
    want = doc["kernels"][0]
    state = want["state_arg"]
    assert (k.name, k.global_barrier, k.work_dim, k.state_index,
            k.fixed_bytes, k.per_group_bytes, k.reset_by_kernel,
            k.participants_offset, k.grid_offset, k.abort_offset,
            k.abort_bytes, k.poll_cap_offset, k.max_work_groups,
            k.min_local_size, k.coresident_launch_required) == (
        want["name"], True, want["work_dim"], state["index"],
        state["bytes"]["fixed"], state["bytes"]["per_group"],
        state["reset_by_kernel"], state["participants_offset"],
        state["grid_offset"], state["abort_offset"],
        gsync.layout.WORDS["abort"] * 4, state.get("poll_cap_offset"),
        want["max_work_groups"], want["min_local_size"],
        want["coresident_launch_required"])
    assert [(p.name, p.kind, p.bytes) for p in k.params] == [
        (p["name"], p["kind"], p.get("bytes")) for p in want["params"]]
    assert c.kernel(want["name"]) is k and c.kernel("nothere") is None
    # A kernel without global_barrier(), which takes no state, in a file
    # that therefore needs no fingerprint.
    plain = {k: doc[k] for k in ("format", "version", "barrier", "discovery",
                                 "requires")}
    plain["kernels"] = [{"name": "plain", "global_barrier": False}]
    js.write_text(json.dumps(plain))
    c = gsync.load(js).constraints
    [k] = c.kernels
    assert (c.fingerprint, c.sites, c.build_args, c.spin_limit_ms) == (
        None, [], [], 0)
    assert (k.name, k.global_barrier, k.state_index, k.grid_offset,
            k.abort_offset, k.poll_cap_offset, k.params) == (
        "plain", False, None, None, None, None, None)


def _load_in_python(tmp_path, library):
    """What gsync.load() of a missing file says in a new Python with
    $GSYNC_LIBRARY set to library: "loaded: " and libgsync's message, or
    "not found: " and the package's."""
    code = ("import gsync\n"
            "try:\n"
            f"    gsync.load({str(tmp_path / 'none.json')!r})\n"
            "except gsync.LibraryNotFoundError as e:\n"
            "    print('not found:', e)\n"
            "except gsync.FileError as e:\n"
            "    print('loaded:', e)\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True,
                       text=True, env=dict(os.environ, GSYNC_LIBRARY=library),
                       timeout=60)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_finding_libgsync(tmp_path):
    """$GSYNC_LIBRARY names the library, and then only it is tried; unset
    (or empty), the path the build wrote beside the package. Where none
    loads, LibraryNotFoundError names what was tried."""
    said = _load_in_python(tmp_path, "/no/such/libgsync.so")
    assert said.startswith("not found: libgsync not found")
    assert "/no/such/libgsync.so ($GSYNC_LIBRARY)" in said
    assert "libgsync-path.txt" not in said
    assert _load_in_python(tmp_path, "").startswith("loaded: ")
    with open(gsync._lib.PATH_FILE) as f:
        built = f.read().strip()
    assert _load_in_python(tmp_path, built).startswith("loaded: ")


def test_a_device_that_is_no_device(original, tmp_path):
    """A device is a pyopencl.Device: anything else is an ArgumentError,
    None libgsync's for a NULL dev."""
    _, doc = original
    js = tmp_path / "c.json"
    js.write_text(json.dumps(doc))
    prog = gsync.load(js)
    with pytest.raises(gsync.ArgumentError, match="must be a pyopencl"):
        prog.check_device("cpu")
    with pytest.raises(gsync.ArgumentError,
                       match="gsync_program_check_device: dev is NULL"):
        prog.check_device(None)
