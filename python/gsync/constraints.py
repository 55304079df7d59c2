"""Reading and validating a constraints file (docs/constraints.md).

The same checks as libgsync's gsync_program_load(), in the same order and
with the same messages, so that a file one of them refuses the other
refuses too, by the same field. The JSON is read as json-c reads it
(_parse_json), but for numbers: json-c also takes leading zeros (007) and
a trailing point (40.), which Python's json refuses, so such a file (the
tool never writes one) is "not valid JSON" here where libgsync may name a
field; and the text of a syntax error is Python's, not json-c's.
"""

import json
import os
import re
import stat

from . import layout
from .errors import FileError, FormatError

MAX_CONSTRAINTS_BYTES = 16 << 20
MAX_STATE_FIXED = 1 << 20
MAX_STATE_PER_GROUP = 1 << 16
# libgsync reads the participant count, grid and abort record in one read
# of the state's first bytes: they must lie in them.
STATE_READ_BYTES = 256
UINT32_MAX = 0xFFFFFFFF
INT64_MAX = (1 << 63) - 1
# The abort record's words (the state table's); in files from before the
# spin limit was a time, those before the time waited.
ABORT_RECORD_BYTES = layout.WORDS["abort"] * 4
ABORT_RECORD_BYTES_UNTIMED = (layout.WORD["abort_waited_ms"] -
                              layout.WORD["abort"]) * 4
# The largest value a "params" entry may give (MAX_PARAM_BYTES).
MAX_PARAM_BYTES = 1 << 16

# The kinds of "params" entries (gsli_param_kinds in
# runtime/constraints.c): those the probe of how many work-groups fit
# sets, and the handles it cannot make up; how a message names each.
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
PROBE_SETS = ("global", "constant", "local", "private")

ATOMIC_CAPABILITIES = {
    "relaxed": 1 << 0,
    "acq_rel": 1 << 1,
    "seq_cst": 1 << 2,
    "work_item_scope": 1 << 3,
    "work_group_scope": 1 << 4,
    "device_scope": 1 << 5,
    "all_devices_scope": 1 << 6,
}

_TYPE_WORDS = {bool: "a boolean", int: "an integer", str: "a string",
               list: "an array", dict: "an object"}


def _type_word(t):
    return _TYPE_WORDS.get(t, "a value of another type")


def _is(value, t):
    # JSON true is not an integer, as json-c tells them apart.
    if t is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, t)


class _Where:
    """The file and dotted path of the object being read, for messages."""

    def __init__(self, file, path=""):
        self.file = file
        self.path = path

    def name(self, key):
        return f"{self.path}.{key}" if self.path else key

    def fail(self, fmt):
        return FormatError(f"{self.file}: {fmt}")

    def field(self, obj, key, t, optional=False):
        if key not in obj or obj[key] is None:
            if optional:
                return None
            raise self.fail(f'field "{self.name(key)}" is missing')
        v = obj[key]
        if not _is(v, t):
            raise self.fail(f'field "{self.name(key)}" must be {_type_word(t)}')
        return v

    def count(self, obj, key, maximum, optional=False, default=None):
        v = self.field(obj, key, int, optional)
        if v is None:
            return default
        if v < 0 or v > maximum:
            raise self.fail(f'field "{self.name(key)}" is out of range')
        return v

    def boolean(self, obj, key, optional=False, default=False):
        v = self.field(obj, key, bool, optional)
        return default if v is None else v

    def strings(self, obj, key, optional=False):
        arr = self.field(obj, key, list, optional)
        if arr is None:
            return []
        for i, e in enumerate(arr):
            if not isinstance(e, str):
                raise self.fail(f'field "{self.name(key)}[{i}]" must be a string')
        return list(arr)


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
    """What the constraints say about one kernel (docs/constraints.md)."""

    def __init__(self, name):
        self.name = name
        self.global_barrier = False
        self.work_dim = 1
        self.state_index = None
        self.fixed_bytes = 0
        self.per_group_bytes = 0
        self.reset_by_kernel = True
        self.participants_offset = 0
        self.grid_offset = None     # None: constraints from before N-D
        self.abort_offset = None    # None: from before the spin limit
        self.abort_bytes = ABORT_RECORD_BYTES
        self.poll_cap_offset = None  # None: discovery reads no poll cap
        self.max_work_groups = 0
        self.min_local_size = 1
        self.coresident_launch_required = False
        self.params = None  # None: constraints from before "params"

    def state_bytes(self, groups):
        return self.fixed_bytes + self.per_group_bytes * groups


def read_text(path):
    """The text of the constraints file: only a regular file of at most
    16 MiB (a device would be read without end, a FIFO wait for a writer)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as e:
        raise FileError(f"{path}: cannot open: {os.strerror(e.errno)}") from None
    try:
        sb = os.fstat(fd)
        if not stat.S_ISREG(sb.st_mode):
            m = sb.st_mode
            word = ("a directory" if stat.S_ISDIR(m) else
                    "a character device" if stat.S_ISCHR(m) else
                    "a block device" if stat.S_ISBLK(m) else
                    "a FIFO" if stat.S_ISFIFO(m) else
                    "a socket" if stat.S_ISSOCK(m) else "not a regular file")
            raise FileError(f"{path}: cannot read: {word}, not a regular file")
        chunks, size = [], 0
        while True:
            try:
                b = os.read(fd, 1 << 16)
            except OSError as e:
                raise FileError(
                    f"{path}: read error: {os.strerror(e.errno)}") from None
            if not b:
                break
            chunks.append(b)
            size += len(b)
            if size > MAX_CONSTRAINTS_BYTES:
                raise FileError(
                    f"{path}: cannot read: larger than {MAX_CONSTRAINTS_BYTES} "
                    "bytes, too large for a constraints file")
        return b"".join(chunks)
    finally:
        os.close(fd)


def _drop_trailing_commas(text):
    """text without the commas that close an object or array ({"a": 1,}),
    which json-c, libgsync's parser, accepts and Python's json does not."""
    out, in_string, escaped = [], False, False
    for i, ch in enumerate(text):
        if in_string:
            escaped = not escaped and ch == "\\"
            in_string = escaped or ch != '"'
        elif ch == '"':
            in_string = True
        elif ch == ",":
            rest = text[i + 1:].lstrip()
            if rest[:1] in ("}", "]"):
                continue
        out.append(ch)
    return "".join(out)


# json-c, libgsync's parser, reads values nested at most this deep (the
# document 1, what an object or array holds one more:
# JSON_TOKENER_DEFAULT_DEPTH) and calls a deeper file "nesting too deep";
# Python's parser would recurse until RecursionError.
MAX_NESTING = 32


def _nesting(text):
    """How deep the values of text nest, as json-c counts: the document is
    at 1, what an object or array holds one deeper; an object's keys are
    no values, and strings are skipped."""
    stack, deepest = [], 0
    in_string = escaped = key = False
    for ch in text:
        if in_string:
            escaped = not escaped and ch == "\\"
            in_string = escaped or ch != '"'
        elif ch == '"':
            in_string = True
            if not key:
                deepest = max(deepest, len(stack) + 1)
        elif ch in "[{":
            stack.append(ch)
            deepest = max(deepest, len(stack))
            key = ch == "{"
        elif ch in "]}":
            if stack:
                stack.pop()
            key = False
        elif ch == ",":
            key = bool(stack) and stack[-1] == "{"
        elif ch == ":":
            key = False
        elif not ch.isspace():
            deepest = max(deepest, len(stack) + 1)  # a number or a literal
    return deepest


def _parse_json(name, data):
    """The document in data, read as json-c reads it: strings may hold
    control characters and bytes that are not UTF-8, a comma may end
    an object or array, and nesting stops at MAX_NESTING."""
    if b"\0" in data:
        raise FormatError(f"{name}: not valid JSON: it holds a NUL byte")
    text = data.decode("utf-8", "surrogateescape")
    if _nesting(text) > MAX_NESTING:
        raise FormatError(f"{name}: not valid JSON: nesting too deep")
    try:
        return json.loads(text, strict=False)
    except json.JSONDecodeError as first:
        try:
            return json.loads(_drop_trailing_commas(text), strict=False)
        except json.JSONDecodeError:
            e = first
    why = ("text after the JSON document" if e.msg == "Extra data"
           else "unexpected end of data" if e.pos >= len(text.rstrip())
           else e.msg)
    raise FormatError(f"{name}: not valid JSON: {why}") from None


def _parse_version(s):
    m = re.fullmatch(r"([0-9])\.([0-9])", s)
    return int(m.group(1)) * 10 + int(m.group(2)) if m else -1


_LAYOUT = re.compile(
    r"gsync-layout/2 barrier=([-\w]{1,63}) discovery=([-\w]{1,63}) "
    r"rules=([-\w]{16}) table=([-\w]{16}) fixed=(\d{1,9}) "
    r"per_group=(\d{1,9}) participants=(\d{1,9}) grid=(\d{1,9}) "
    r"abort=(\d{1,9}) record=(\d{1,9})(?: poll_cap=(\d{1,9}))?",
    re.ASCII)
# The layout strings before the state table's hash (an older tool's).
_OLD_LAYOUT = "gsync-layout/1 "
# The fingerprint's value while it is hashed.
_PLACEHOLDER = "0" * 16


def parse_layout(s):
    """The numbers of a "state_layout" string, or None if it is not one."""
    m = _LAYOUT.fullmatch(s)
    if m is None:
        return None
    g = m.groups()
    return {"barrier": g[0], "discovery": g[1], "table": g[3],
            "fixed": int(g[4]), "per_group": int(g[5]),
            "participants": int(g[6]), "grid": int(g[7]), "abort": int(g[8]),
            "record": int(g[9]),
            "poll_cap": int(g[10]) if g[10] is not None else None}


def reserved_macro(name):
    """Whether the macro name starts with the prefix gsync-rewrite reserves
    (gsync_, in any case) for its own macros and its rules' tunables."""
    return name[:6].lower() == "gsync_"


def _check_build_args(w, args):
    """Refuses a -D or -U of a reserved name in "build.options"
    (gsli_load_build in runtime/constraints.c): the tool never writes one,
    and with one a rule built from these options could use more state
    than the file's sizes give."""
    for i, a in enumerate(args):
        if a[:2] not in ("-D", "-U"):
            continue
        v = a[2:] or (args[i + 1] if i + 1 < len(args) else "")
        if reserved_macro(v.lstrip(" \t")):
            raise w.fail(
                f'field "build.options[{i}]" ("{a[:80]}") '
                f'{"defines" if a[1] == "D" else "undefines"} a macro with '
                "the prefix gsync_ (in any case), which gsync-rewrite "
                "reserves for its own macros and its rules' tunables: the "
                "file was edited")


class Constraints:
    """A validated constraints file; see gsync.Program for its use."""

    def __init__(self, path, doc):
        self.path = path
        w = _Where(path)
        if not isinstance(doc, dict):
            raise w.fail("not a JSON object")
        fmt = w.field(doc, "format", str)
        if fmt != "gsync-constraints":
            raise w.fail(f'field "format" is "{fmt}", not "gsync-constraints"')
        version = w.field(doc, "version", int)
        if not -INT64_MAX - 1 <= version <= INT64_MAX:
            raise w.fail('field "version" is out of range')
        if version != 1:
            raise w.fail(f'field "version" is {version}; this libgsync reads '
                         "version 1")
        self.barrier = w.field(doc, "barrier", str)
        self.discovery = w.boolean(doc, "discovery")
        self._load_sites(w, doc)
        self._load_requires(w, doc)
        build = w.field(doc, "build", dict, optional=True)
        self.build_args = ([] if build is None else
                           _Where(path, "build").strings(build, "options"))
        _check_build_args(w, self.build_args)
        kernels = w.field(doc, "kernels", list)
        record = (ABORT_RECORD_BYTES if self.timed_record
                  else ABORT_RECORD_BYTES_UNTIMED)
        self.kernels = [self._load_kernel(w, k, i, record)
                        for i, k in enumerate(kernels)]
        self._load_identity(w, doc)

    def _load_sites(self, w, doc):
        limit = w.count(doc, "spin_limit_ms", UINT32_MAX, optional=True)
        self.timed_record = limit is not None
        self.spin_limit_ms = limit or 0
        self.sites = []
        arr = w.field(doc, "barrier_sites", list, optional=True)
        for i, e in enumerate(arr or []):
            s = _Where(w.file, f"barrier_sites[{i}]")
            if not isinstance(e, dict):
                raise s.fail(f'field "{s.path}" must be an object')
            site = s.count(e, "site", UINT32_MAX)
            file = s.field(e, "file", str)
            line = s.count(e, "line", UINT32_MAX)
            col = s.count(e, "column", UINT32_MAX)
            if site != i + 1:
                raise s.fail(f'field "{s.path}.site" is {site}; sites are '
                             "numbered 1, 2, ... in order")
            self.sites.append(f"{file}:{line}:{col}")

    def _load_requires(self, top, doc):
        req = top.field(doc, "requires", dict)
        w = _Where(top.file, "requires")
        v = w.field(req, "opencl_c_version", str)
        self.c_version = _parse_version(v)
        if self.c_version < 10:
            raise w.fail('field "requires.opencl_c_version" is not a version '
                         f'like "1.2": "{v}"')
        self.extensions = w.strings(req, "extensions")
        self.features = w.strings(req, "opencl_c_features", optional=True)
        caps = w.field(req, "atomic_capabilities", list)
        self.atomic_caps = 0
        for i, e in enumerate(caps):
            if not isinstance(e, str):
                raise w.fail(f'field "requires.atomic_capabilities[{i}]" must '
                             "be a string")
            if e not in ATOMIC_CAPABILITIES:
                raise w.fail(f'field "requires.atomic_capabilities[{i}]" names '
                             f'an unknown capability "{e}"')
            self.atomic_caps |= ATOMIC_CAPABILITIES[e]

    def _load_kernel(self, top, obj, index, record_bytes):
        path = f"kernels[{index}]"
        w = _Where(top.file, path)
        if not isinstance(obj, dict):
            raise w.fail(f'field "{path}" must be an object')
        k = KernelInfo(w.field(obj, "name", str))
        k.global_barrier = w.boolean(obj, "global_barrier")
        if not k.global_barrier:
            return k
        k.work_dim = w.count(obj, "work_dim", 3)
        if k.work_dim == 0:
            raise w.fail(f'field "{path}.work_dim" is out of range')
        k.max_work_groups = w.count(obj, "max_work_groups", INT64_MAX)
        k.min_local_size = w.count(obj, "min_local_size", INT64_MAX)
        k.coresident_launch_required = w.boolean(
            obj, "coresident_launch_required", optional=True)
        state = w.field(obj, "state_arg", dict)
        s = _Where(top.file, f"{path}.state_arg")
        k.state_index = s.count(state, "index", UINT32_MAX - 1)
        init = s.field(state, "init", str)
        if init != "zero":
            raise s.fail(f'field "{s.path}.init" is "{init}"; this libgsync '
                         'knows only "zero"')
        k.reset_by_kernel = s.boolean(state, "reset_by_kernel")
        k.participants_offset = s.count(state, "participants_offset",
                                        INT64_MAX)
        b = s.field(state, "bytes", dict)
        bw = _Where(top.file, f"{path}.state_arg.bytes")
        k.fixed_bytes = bw.count(b, "fixed", MAX_STATE_FIXED)
        k.per_group_bytes = bw.count(b, "per_group", MAX_STATE_PER_GROUP)
        if k.participants_offset % 4 or k.participants_offset + 4 > k.fixed_bytes:
            raise w.fail(
                f'field "{path}.state_arg.participants_offset" '
                f"({k.participants_offset}) is not an aligned uint32 inside "
                f"the {k.fixed_bytes} fixed bytes")
        k.grid_offset = s.count(state, "grid_offset", INT64_MAX, optional=True)
        if k.grid_offset is not None and (
                k.grid_offset % 4 or k.fixed_bytes < 12 or
                k.grid_offset > k.fixed_bytes - 12):
            raise w.fail(
                f'field "{path}.state_arg.grid_offset" ({k.grid_offset}) is '
                f"not three aligned uint32 inside the {k.fixed_bytes} fixed "
                "bytes")
        if k.participants_offset + 4 > STATE_READ_BYTES:
            raise w.fail(
                f'field "{path}.state_arg.participants_offset" '
                f"({k.participants_offset}) lies beyond the first "
                f"{STATE_READ_BYTES} bytes of the state, which libgsync reads")
        k.poll_cap_offset = s.count(state, "poll_cap_offset", INT64_MAX,
                                    optional=True)
        if k.poll_cap_offset is not None and (
                k.poll_cap_offset % 4 or
                k.poll_cap_offset + 4 > k.fixed_bytes):
            raise w.fail(
                f'field "{path}.state_arg.poll_cap_offset" '
                f"({k.poll_cap_offset}) is not an aligned uint32 inside the "
                f"{k.fixed_bytes} fixed bytes")
        k.abort_offset = s.count(state, "abort_offset", INT64_MAX,
                                 optional=True)
        k.abort_bytes = record_bytes
        if k.abort_offset is not None:
            if (k.abort_offset % 4 or k.fixed_bytes < record_bytes or
                    k.abort_offset > k.fixed_bytes - record_bytes):
                raise w.fail(
                    f'field "{path}.state_arg.abort_offset" ({k.abort_offset}) '
                    f"is not an aligned record of {record_bytes} bytes inside "
                    f"the {k.fixed_bytes} fixed bytes")
            if k.abort_offset + record_bytes > STATE_READ_BYTES:
                raise w.fail(
                    f'field "{path}.state_arg.abort_offset" ({k.abort_offset}) '
                    f"lies beyond the first {STATE_READ_BYTES} bytes of the "
                    "state, which libgsync reads")
        k.params = self._load_params(w, obj, k)
        return k

    @staticmethod
    def _load_params(w, obj, k):
        """The optional "params" (load_params in runtime/constraints.c):
        one object per parameter before the state argument, each with a
        "kind", "bytes" where it is "private", and an optional "name". A
        kind not known here is kept: only the probe refuses it."""
        arr = w.field(obj, "params", list, optional=True)
        if arr is None:
            return None
        if len(arr) != k.state_index:
            raise w.fail(f'field "{w.path}.params" lists {len(arr)} '
                         "parameters, but the state argument's index is "
                         f"{k.state_index}")
        params = []
        for i, e in enumerate(arr):
            p = _Where(w.file, f"{w.path}.params[{i}]")
            if not isinstance(e, dict):
                raise p.fail(f'field "{p.path}" must be an object')
            name = p.field(e, "name", str, optional=True) or ""
            kind = p.field(e, "kind", str)
            nbytes = None
            if kind == "private":
                nbytes = p.count(e, "bytes", MAX_PARAM_BYTES)
                if nbytes == 0:
                    raise p.fail(f'field "{p.path}.bytes" is out of range')
            params.append(ParamInfo(name, kind, nbytes))
        return params

    def _load_identity(self, w, doc):
        self.any_barrier = any(k.global_barrier for k in self.kernels)
        fp = w.field(doc, "fingerprint", str, optional=True)
        lay = w.field(doc, "state_layout", str, optional=True)
        self.fingerprint = self.layout = None
        if (fp is None) != (lay is None):
            missing = "fingerprint" if fp is None else "state_layout"
            raise w.fail(f'field "{missing}" is missing')
        if fp is None and not self.any_barrier:
            return
        if fp is None:
            raise w.fail(
                'the constraints have no "fingerprint" and no "state_layout" '
                "(an older gsync-rewrite wrote them, or they were cut): "
                "nothing ties them to an output. Rewrite the kernel again "
                "with this version and use its output and constraints")
        if not re.fullmatch(r"[0-9a-f]{16}", fp):
            raise w.fail('field "fingerprint" is not 16 hexadecimal digits')
        if lay.startswith(_OLD_LAYOUT):
            raise w.fail(
                'an older gsync-rewrite wrote these constraints '
                '("state_layout" is gsync-layout/1, without the state '
                "table's hash): rewrite the kernel again with this version "
                "and use its output and constraints")
        lo = parse_layout(lay)
        if lo is None:
            raise w.fail('field "state_layout" is not of the form '
                         '"gsync-layout/2 barrier=... record=N [poll_cap=N]"')
        self.output_bytes = w.count(doc, "output_bytes", INT64_MAX)
        if lo["table"] != layout.TABLE_HASH:
            raise w.fail(
                f"the output was written for state table {lo['table']}, this "
                f"libgsync was built with table {layout.TABLE_HASH}: use a "
                "gsync-rewrite and a libgsync of one version")
        if lo["barrier"] != self.barrier or \
                (lo["discovery"] != "none") != self.discovery:
            raise w.fail(
                f'fields "barrier" and "discovery" ({self.barrier}, '
                f'{"true" if self.discovery else "false"}) differ from '
                f'"state_layout" (barrier {lo["barrier"]}, discovery '
                f'{lo["discovery"]})')
        for i, k in enumerate(self.kernels):
            if not k.global_barrier:
                continue
            for field, have, want in (
                    ("bytes.fixed", k.fixed_bytes, lo["fixed"]),
                    ("bytes.per_group", k.per_group_bytes, lo["per_group"]),
                    ("participants_offset", k.participants_offset,
                     lo["participants"]),
                    ("grid_offset", k.grid_offset, lo["grid"]),
                    ("abort_offset", k.abort_offset, lo["abort"]),
                    ("abort record's size (spin_limit_ms)",
                     k.abort_bytes if k.abort_offset is not None else None,
                     lo["record"]),
                    ("poll_cap_offset", k.poll_cap_offset, lo["poll_cap"])):
                if have != want:
                    shown = "missing" if have is None else have
                    raise w.fail(
                        f'field "kernels[{i}].state_arg.{field}" is {shown}, '
                        f'but "state_layout" says {want}: the file was '
                        "edited, or mixed from two rewrites")
        self.fingerprint = fp
        self.layout = lay
        # What the fingerprint was taken of, with the program's source:
        # the document's compact form with the placeholder in its place
        # (as json-c writes it: no spaces, "/" and non-ASCII as they are).
        doc = dict(doc)
        doc["fingerprint"] = _PLACEHOLDER
        self.canon = json.dumps(doc, separators=(",", ":"),
                                ensure_ascii=False).encode("utf-8", "surrogateescape")

    def __del__(self):
        # The -I directories held open for PoCL (device._include_alias).
        for fd in self.__dict__.get("_include_fds", {}).values():
            try:
                os.close(fd)
            except OSError:
                pass

    def kernel(self, name):
        for k in self.kernels:
            if k.name == name:
                return k
        return None


def load(path):
    """Reads and validates the constraints file at path."""
    path = os.fspath(path)
    return Constraints(path, _parse_json(path, read_text(path)))


def _find_define(src, name):
    """The values of the lines '#define NAME "VALUE"' of src (each at the
    start of a line, as gsync-rewrite writes them)."""
    return re.findall(r'(?m)^#define ' + re.escape(name) + r' "([^"\n]*)"',
                      src)


def _fingerprint_again(c, data, m):
    """The fingerprint of the output data (bytes), whose fingerprint value
    m found, with the constraints c: FNV-1a over data with that value as 16
    zeros, a NUL, and the constraints' compact form."""
    data = data[:m.start(1)] + _PLACEHOLDER.encode() + data[m.end(1):]
    return "%016x" % layout.fnv1a64(b"\0" + c.canon, layout.fnv1a64(data))


def check_identity(c, src):
    """Checks that src is the output the constraints c belong to
    (docs/constraints.md, "Fingerprint"); raises MismatchError."""
    from .errors import MismatchError
    fps = _find_define(src, "gsync_fingerprint")
    lays = _find_define(src, "gsync_state_layout")
    if len(fps) > 1 or len(lays) > 1:
        raise MismatchError(
            f"{c.path}: the program's source holds {max(len(fps), len(lays))} "
            "gsync_fingerprint lines: it joins the outputs of several rewrites")
    if not fps:
        if c.fingerprint is None or not c.any_barrier:
            return
        raise MismatchError(
            f"{c.path}: the program's source has no gsync_fingerprint line, "
            f"but these constraints belong to output {c.fingerprint}: build "
            "the program from the output written with them")
    fp = fps[0]
    if c.fingerprint is None:
        raise MismatchError(
            f"{c.path}: the constraints have no fingerprint (an older "
            f"gsync-rewrite wrote them), but the program's source is output "
            f"{fp}: use the constraints written with it")
    if fp != c.fingerprint:
        raise MismatchError(
            f"{c.path}: the constraints belong to output {c.fingerprint}, but "
            f"the program was built from output {fp}: use the output and the "
            "constraints of one rewrite")
    declared = lays[0] if lays else ""
    if not lays or declared != c.layout:
        raise MismatchError(
            f'{c.path}: the program\'s source declares state layout '
            f'"{declared}", the constraints "{c.layout}": one of them was '
            "edited")
    # The output is the source's first output_bytes bytes; what follows
    # (a line PyOpenCL's cache appends, a file of helpers) is not hashed.
    data = src.encode("utf-8", "surrogateescape")
    m = re.search(rb'(?m)^#define gsync_fingerprint "([0-9a-f]{16})"', data)
    if len(data) < c.output_bytes or m.start(1) >= c.output_bytes:
        raise MismatchError(
            f"{c.path}: the program's source ({len(data)} bytes) does not "
            f"begin with the {c.output_bytes}-byte output the constraints "
            "were written with: build the program from that output, as "
            "written")
    again = _fingerprint_again(c, data[:c.output_bytes], m)
    if again != c.fingerprint:
        raise MismatchError(
            f"{c.path}: the output and the constraints no longer hold what "
            f"their fingerprint {c.fingerprint} was taken of (it is now "
            f"{again}): the program's source or a field of the constraints "
            '("build", an offset, a kernel) was changed after gsync-rewrite '
            "wrote them. Rewrite the kernel again and use its output and "
            "constraints as written")
