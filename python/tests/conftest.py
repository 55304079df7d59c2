"""Fixtures of the gsync module's tests: the OpenCL device (gsync.pick_device:
the first of the platform $GSYNC_PLATFORM names, as gsync-run picks it),
and the tools of the build under test ($GSYNC_REWRITE, $GSYNC_RUN; lit
sets both)."""
import os

import pyopencl as cl
import pytest

import gsync

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(os.path.dirname(HERE))
KERNELS = os.path.join(SRC, "test", "run", "kernels")
EXAMPLES = os.path.join(SRC, "examples")


@pytest.fixture(scope="session")
def device():
    try:
        return gsync.pick_device()
    except gsync.DeviceError as e:
        pytest.skip(str(e))


@pytest.fixture(scope="session")
def context(device):
    return cl.Context([device])


@pytest.fixture
def queue(context):
    return cl.CommandQueue(context)


@pytest.fixture(scope="session")
def gsync_run():
    path = os.environ.get("GSYNC_RUN")
    if not path:
        pytest.skip("GSYNC_RUN (test/run/gsync-run) not given")
    return path


@pytest.fixture(scope="session")
def rewritten():
    """gsync.rewrite, once per set of arguments in the session (the
    rewrite and the build take most of the suite's time)."""
    cache = {}

    def get(*args, **kwargs):
        key = repr((args, sorted(kwargs.items())))
        if key not in cache:
            cache[key] = gsync.rewrite(*args, **kwargs)
        return cache[key]
    return get
