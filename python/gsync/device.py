"""What the launches made here (gsync.launch, gsync.watch) ask of a
device and of how a program was built: NVIDIA's compute capability, the
clock rate of a CPU device, the macros libgsync's build options define.
The check of a device and the build options themselves are libgsync's
(Constraints.check_device, Constraints.build_options)."""

import platform
import threading
import time

import numpy as np
import pyopencl as cl


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
    their clock (rewrite-rules/prelude.cl), in ticks a second, by which
    gsync.watch knows whether a deadline works there: read on the device
    twice, 20 ms apart, against the host's monotonic clock. Python cannot
    read the counter itself, so the device does; the launch latency this
    adds is small beside 20 ms. 0 where it cannot be read. Measured once
    per device and process."""
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
                    # To a multiple of 50 MHz, as gsli_tsc_hz gives it.
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
