"""Checking a device against "requires", and the build options for it:
libgsync's gsync_program_check_device() and gsync_program_build_options()
over PyOpenCL."""

import os
import platform
import re
import threading
import time

import numpy as np
import pyopencl as cl

from .constraints import ATOMIC_CAPABILITIES
from .errors import DeviceError

# The int32 atomics extensions became core in OpenCL 1.1.
_CORE_SINCE_1_1 = {
    "cl_khr_global_int32_base_atomics", "cl_khr_global_int32_extended_atomics",
    "cl_khr_local_int32_base_atomics", "cl_khr_local_int32_extended_atomics",
}


def _version_after(s, prefix):
    m = re.match(re.escape(prefix) + r"([0-9]+)\.([0-9])", s)
    return int(m.group(1)) * 10 + int(m.group(2)) if m else -1


class DeviceFacts:
    """What the checks need to know about a device."""

    def __init__(self, dev):
        self.name = dev.name
        self.extensions = dev.extensions.split()
        self.version = _version_after(dev.version, "OpenCL ")
        max_c = _version_after(dev.opencl_c_version, "OpenCL C ")
        # Before OpenCL 3.0 a device offers every OpenCL C version up to
        # its highest; from 3.0 on it lists them.
        self.c_versions = [v for v in (10, 11, 12, 20) if v <= max_c]
        self.atomic_caps = 0
        self.features = None
        if self.version >= 30:
            for nv in dev.get_info(cl.device_info.OPENCL_C_ALL_VERSIONS):
                v = (nv.version >> 22) * 10 + ((nv.version >> 12) & 0x3FF)
                if v not in self.c_versions:
                    self.c_versions.append(v)
            self.atomic_caps = dev.get_info(
                cl.device_info.ATOMIC_MEMORY_CAPABILITIES)
            self.features = [nv.name for nv in
                             dev.get_info(cl.device_info.OPENCL_C_FEATURES)]
        elif self.version >= 20:
            # OpenCL 2.x makes these mandatory and has no query for them.
            self.atomic_caps = sum(ATOMIC_CAPABILITIES[n] for n in (
                "relaxed", "acq_rel", "seq_cst", "work_group_scope",
                "device_scope"))

    def offers(self, v):
        return v in self.c_versions

    def missing_feature(self, c):
        for f in c.features:
            if self.features is None or f not in self.features:
                return f
        return None


def check_device(c, dev):
    """Raises DeviceError if dev does not meet the constraints c."""
    f = DeviceFacts(dev)
    # Capabilities first: on an OpenCL 3.0 device they decide whether
    # OpenCL C 3.0 can stand in for 2.0, and naming them is more useful.
    for name, bit in ATOMIC_CAPABILITIES.items():
        if c.atomic_caps & bit and not f.atomic_caps & bit:
            raise DeviceError(
                f'device "{f.name}" lacks atomic capability {name} required '
                f"by barrier {c.barrier}")
    need = c.c_version
    lacks = f.missing_feature(c)
    if need >= 30:
        ok = f.offers(30) and not lacks
    elif need == 20:
        ok = f.offers(20) or (f.offers(30) and not lacks)
    else:
        ok = f.offers(need)
    if not ok and lacks and f.offers(30):
        raise DeviceError(
            f'device "{f.name}" lacks OpenCL C feature {lacks} that the '
            f"kernels use (it offers OpenCL C 3.0 without it"
            f'{", and not 2.0" if need == 20 else ""})')
    if not ok:
        have = ", ".join(f"{v // 10}.{v % 10}" for v in f.c_versions)
        raise DeviceError(
            f'device "{f.name}" lacks OpenCL C {need // 10}.{need % 10} that '
            f"the kernels need (barrier {c.barrier}; it offers "
            f'{have or "none"})')
    for ext in c.extensions:
        if ext in f.extensions or (f.version >= 11 and ext in _CORE_SINCE_1_1):
            continue
        raise DeviceError(f'device "{f.name}" lacks extension {ext} required '
                          f"by barrier {c.barrier}")


def _c_std_option(c, dev):
    if c.c_version == 20:
        # OpenCL C 3.0 with the 2.0 features the kernels use builds them,
        # and PoCL 3.1 builds OpenCL 2.0 atomics only under -cl-std=CL3.0.
        f = DeviceFacts(dev)
        use_30 = (f.offers(30) and
                  f.atomic_caps & c.atomic_caps == c.atomic_caps and
                  not f.missing_feature(c))
        return "-cl-std=CL3.0" if use_30 else "-cl-std=CL2.0"
    return {11: "-cl-std=CL1.1", 12: "-cl-std=CL1.2",
            30: "-cl-std=CL3.0"}.get(c.c_version, "")


def _needs_quotes(arg):
    return re.search(r"[ \t\"'\\]", arg) is not None


def _quote(arg):
    """arg as clBuildProgram's option parsers split (append_option in
    runtime/device.c): if it holds a blank or a quote, an option's value
    after its flag in double quotes (-I"/a b", -D"N=a b"), any other
    argument whole, with \\ and " escaped."""
    if not _needs_quotes(arg):
        return arg
    flag = 2 if re.match(r"-[A-Za-z]", arg) else 0
    return arg[:flag] + '"' + re.sub(r'(["\\])', r"\\\1", arg[flag:]) + '"'


def _is_pocl(dev):
    try:
        return "Portable Computing Language" in dev.platform.name
    except (cl.Error, AttributeError):
        return False


def _include_alias(c, path):
    """An -I option for the directory path that holds no blank or quote
    (include_alias in runtime/device.c): PoCL 3.1 turns the quotes of
    -I"/a b" into blanks and searches " /a b ", so for it the directory is
    held open (by the constraints c, while they live) and named as
    /proc/self/fd/N, which its compiler, in this process, reads as the
    directory. None where that cannot be done (no /proc)."""
    fds = c.__dict__.setdefault("_include_fds", {})
    try:
        if path not in fds:
            fds[path] = os.open(path, os.O_RDONLY | os.O_DIRECTORY |
                                os.O_CLOEXEC)
        alias = f"/proc/self/fd/{fds[path]}"
        return f"-I{alias}" if os.path.isdir(alias) else None
    except OSError:
        return None


def _nv_compute_capability(dev):
    if "cl_nv_device_attribute_query" not in dev.extensions.split():
        return 0
    try:
        major = dev.compute_capability_major_nv
        minor = dev.compute_capability_minor_nv
    except cl.Error:
        return 0
    return major * 10 + minor if minor < 10 else 0


_TSC_SOURCE = """
kernel void gsync_tsc(global ulong *t) {
#if __has_builtin(__builtin_readcyclecounter)
  t[0] = __builtin_readcyclecounter();
#else
  t[0] = 0;
#endif
}
"""
_tsc_rates = {}
_tsc_lock = threading.Lock()
# The rate is rounded to this (gsli_tsc_hz in runtime/device.c).
TSC_STEP = 50_000_000


def cpu_clock_hz(dev):
    """The rate of the counter that kernels on the CPU device dev read as
    their clock (rewrite-rules/prelude.cl), in ticks a second: read on the
    device twice, 20 ms apart, against the host's monotonic clock. Python
    cannot read the counter itself, so the device does; the launch
    latency this adds is small beside 20 ms. 0 where it cannot be read.
    Measured once per device and process."""
    key = dev.int_ptr
    with _tsc_lock:
        if key in _tsc_rates:
            return _tsc_rates[key]
        hz = 0
        if platform.machine() in ("x86_64", "AMD64", "i386", "i686"):
            try:
                ctx = cl.Context([dev])
                q = cl.CommandQueue(ctx)
                k = cl.Program(ctx, _TSC_SOURCE).build().gsync_tsc
                buf = cl.Buffer(ctx, cl.mem_flags.WRITE_ONLY, 8)
                out = np.zeros(1, np.uint64)

                def read():
                    t0 = time.monotonic()
                    k(q, (1,), (1,), buf)
                    cl.enqueue_copy(q, out, buf)
                    return (t0 + time.monotonic()) / 2, int(out[0])
                read()  # the first launch pays for setting up
                h0, c0 = read()
                time.sleep(0.02)
                h1, c1 = read()
                if c1 > c0 and h1 > h0:
                    hz = int((c1 - c0) / (h1 - h0))
                    # To a multiple of 50 MHz, as gsli_tsc_hz does: the
                    # same option in every process, for the driver's cache.
                    if hz >= TSC_STEP:
                        hz = (hz + TSC_STEP // 2) // TSC_STEP * TSC_STEP
            except cl.Error:
                hz = 0
        _tsc_rates[key] = hz
        return hz


# The macro that gives --no-discovery output its probe launch, which
# measures how many work-groups fit (rewrite-rules/discovery-none.cl).
FIT_MACRO = "gsync_fit_probe"
# The macro that compiles the watch into the barriers
# (rewrite-rules/prelude.cl; GSYNC_WATCH_BUILD_OPTION in libgsync.h).
WATCH_MACRO = "gsync_watch"
WATCH_BUILD_OPTION = "-D" + WATCH_MACRO


def built_with(kernel, dev, macro):
    """Whether the program of the pyopencl.Kernel kernel was built for dev
    with macro defined (-Dmacro or -D macro, with or without a value)."""
    opts = kernel.program.get_build_info(dev, cl.program_build_info.OPTIONS)
    words = opts.replace("-D ", "-D").split()
    return any(w == "-D" + macro or w.startswith("-D" + macro + "=")
               for w in words)


def build_options(c, dev):
    """The clBuildProgram options for the constraints c on dev; see
    gsync_program_build_options() in libgsync.h."""
    pocl = _is_pocl(dev)
    args = [_c_std_option(c, dev)]
    for a in c.build_args:
        alias = (_include_alias(c, a[2:]) if pocl and a.startswith("-I") and
                 len(a) > 2 and _needs_quotes(a) else None)
        args.append(alias or a)
    cc = _nv_compute_capability(dev)
    if cc:
        args.append(f"-DGSYNC_NV_SM={cc}")
    # Without discovery, the kernels can measure how many groups fit
    # (Kernel.groups_that_fit).
    if not c.discovery and any(k.global_barrier for k in c.kernels):
        args.append("-D" + FIT_MACRO)
    if c.spin_limit_ms and dev.type & cl.device_type.CPU:
        hz = cpu_clock_hz(dev)
        if hz:
            args.append(f"-Dgsync_clock_hz={hz}ul")
    return " ".join(_quote(a) for a in args if a)
