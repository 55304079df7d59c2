"""The exceptions gsync raises: one class per libgsync status.

Each carries ``status``, the name libgsync's gsync_status_name() gives the
same failure ("GSYNC_ERR_DEVICE", ...), and its message is the one-line
text libgsync writes into its err buffer (for_status makes the exception
of a status libgsync returned, from its message), so that a Python host
and a C host report a problem in the same words.

A message quotes what it is about, and a constraints file, a kernel or a
file name need not be UTF-8: so that any message prints, a byte that is
not UTF-8 shows as \\xNN (in a message of the package's own, a str,
such a byte is a surrogate, read with surrogateescape, and any other lone
surrogate shows as \\uNNNN); ``raw`` holds the message's bytes as
libgsync writes them.
"""
import re

_SURROGATE = re.compile("[\ud800-\udfff]")


def _printable(text):
    """text with every lone surrogate written as an escape."""
    def escape(m):
        c = ord(m.group())
        return (f"\\x{c - 0xDC00:02x}" if 0xDC80 <= c <= 0xDCFF
                else f"\\u{c:04x}")
    return _SURROGATE.sub(escape, text)


def _raw(text):
    """text's bytes: a surrogate that stands for a byte is that byte."""
    return b"".join(c.encode("utf-8", "surrogateescape")
                    if not 0xD800 <= ord(c) <= 0xDBFF and
                    not 0xDC00 <= ord(c) < 0xDC80 else
                    c.encode("utf-8", "surrogatepass") for c in text)


class GsyncError(Exception):
    """Any failure gsync reports; ``str(e)`` is libgsync's message, one
    that prints (see above)."""

    status = "GSYNC_ERR_UNKNOWN"

    def __init__(self, message="", *args):
        if isinstance(message, bytes):
            # libgsync's message, as it wrote it.
            self.raw = message
            text = message.decode("utf-8", "backslashreplace")
        else:
            message = str(message)
            self.raw = (_raw(message) if _SURROGATE.search(message)
                        else message.encode("utf-8"))
            text = _printable(message)
        super().__init__(text, *args)

    @property
    def message(self):
        return str(self)


class FileError(GsyncError, OSError):
    """The constraints file could not be read (GSYNC_ERR_IO)."""

    status = "GSYNC_ERR_IO"


class FormatError(GsyncError, ValueError):
    """Not gsync-constraints version 1 (GSYNC_ERR_FORMAT); names the field."""

    status = "GSYNC_ERR_FORMAT"


class DeviceError(GsyncError):
    """The device does not meet "requires" (GSYNC_ERR_DEVICE)."""

    status = "GSYNC_ERR_DEVICE"


class KernelError(GsyncError):
    """The kernel is not in the constraints, or not as built (GSYNC_ERR_KERNEL)."""

    status = "GSYNC_ERR_KERNEL"


class LaunchError(GsyncError):
    """A launch shape the constraints forbid (GSYNC_ERR_LAUNCH)."""

    status = "GSYNC_ERR_LAUNCH"


class OpenCLError(GsyncError):
    """An OpenCL call failed (GSYNC_ERR_OPENCL); ``code`` is its status."""

    status = "GSYNC_ERR_OPENCL"

    def __init__(self, message, code=None):
        super().__init__(message)
        self.code = code


class MismatchError(GsyncError):
    """The program was not built from the output these constraints were
    written with (GSYNC_ERR_MISMATCH)."""

    status = "GSYNC_ERR_MISMATCH"


class ArgumentError(GsyncError, TypeError):
    """A missing handle or argument where one is needed (GSYNC_ERR_ARGUMENT)."""

    status = "GSYNC_ERR_ARGUMENT"


class OutOfMemoryError(GsyncError, MemoryError):
    """libgsync ran out of memory (GSYNC_ERR_NOMEM)."""

    status = "GSYNC_ERR_NOMEM"


class LibraryNotFoundError(GsyncError, FileNotFoundError):
    """libgsync, the library this package calls, was not found or is not
    this package's version (gsync/_lib.py says where it looks); the
    message names every place tried."""

    status = "GSYNC_ERR_LIBRARY"


class RewriteError(GsyncError):
    """gsync-rewrite refused the input: ``exit_status`` is its exit status
    (1 errors in the input, 2 usage, 3 I/O, 4 internal) and ``diagnostics``
    its file:line:col messages."""

    status = "GSYNC_ERR_REWRITE"

    def __init__(self, message, exit_status=None, diagnostics=""):
        super().__init__(message)
        self.exit_status = exit_status
        self.diagnostics = diagnostics


class LaunchAborted(GsyncError):
    """A work-group waited longer than the spin limit, at a global barrier
    or in occupancy discovery, and the launch was aborted: its results are
    not valid (GSYNC_ERR_TIMEOUT). The abort record is in the attributes:

    ``kernel``       the kernel's name
    ``kind``         "barrier" or "discovery"
    ``site``         the barrier's place, "file:line:col" (None for
                     discovery, or a site the constraints do not list)
    ``site_number``  its number in the constraints' "barrier_sites"
    ``group``        the work-group's id among those taking part (None
                     where discovery had not given it one)
    ``launch_group`` its linear id in the launch
    ``arrived``      how many work-groups it saw arrive or join
    ``expected``     how many it waited for
    ``waited_ms``    how long it waited (None in records from before the
                     spin limit was a time)
    ``launched``     how many work-groups the launch had
    ``causes``       the possible causes, as the message lists them
    ``record``       the record's raw words
    """

    status = "GSYNC_ERR_TIMEOUT"

    def __init__(self, message, **record):
        super().__init__(message)
        for key in ("kernel", "kind", "site", "site_number", "group",
                    "launch_group", "arrived", "expected", "waited_ms",
                    "launched", "causes", "record"):
            setattr(self, key, record.get(key))


class LaunchCancelled(GsyncError):
    """The host stopped the launch (Kernel.cancel()) or its deadline did
    (Kernel.set_deadline()): its results are not valid
    (GSYNC_ERR_CANCELLED). ``kernel`` is the kernel's name, ``reason``
    "cancel" or "deadline", ``barriers`` how many global barriers the
    launch had completed, ``deadline_ms`` the deadline (None for a
    cancel)."""

    status = "GSYNC_ERR_CANCELLED"

    def __init__(self, message, kernel=None, reason=None, barriers=None,
                 deadline_ms=None):
        super().__init__(message)
        self.kernel = kernel
        self.reason = reason
        self.barriers = barriers
        self.deadline_ms = deadline_ms


def for_status(status, message):
    """The exception of the libgsync status named status (as
    gsync_status_name() names it), with libgsync's message (bytes)."""
    for cls in (FileError, FormatError, DeviceError, KernelError, LaunchError,
                OpenCLError, OutOfMemoryError, LaunchAborted, MismatchError,
                ArgumentError, LaunchCancelled):
        if cls.status == status:
            return cls(message)
    return GsyncError(message)
