"""Watching a running launch (docs/watch.md): what Kernel.watch() and
Kernel.progress() return. The watch is libgsync's (gsync_watch_enable(),
gsync_progress(), gsync_cancel(), gsync_set_deadline()), channels and
all: fine-grained buffer SVM with atomics, or a host-visible buffer that
a probe kernel found words cross while a kernel runs; the deadline needs
only the device's clock (NVIDIA GPUs, x86 CPU devices).
"""

from dataclasses import dataclass


def _text(b):
    return None if b is None else b.decode("utf-8", "backslashreplace")


@dataclass
class WatchSupport:
    """What works for a watched kernel (gsync_watch_support)."""

    progress: bool  # Kernel.progress()
    cancel: bool    # Kernel.cancel()
    deadline: bool  # Kernel.set_deadline()
    channel: str    # "fine-grained SVM", "host-visible buffer" or "none"
    probe: str      # what the probe of a host-visible buffer measured, or
    #                 None where none ran

    @property
    def why(self):
        """What the probe measured where it found no channel, or None."""
        return self.probe if self.channel == "none" else None

    @classmethod
    def _of(cls, s):
        """The WatchSupport of a gsync_watch_support."""
        return cls(bool(s.progress), bool(s.cancel), bool(s.deadline),
                   _text(s.channel), _text(s.probe))


@dataclass
class Progress:
    """How far the latest launch is (gsync_progress_info)."""

    barriers: int      # global barriers it has completed (0 before it starts)
    participants: int  # work-groups taking part (0 until known)
    launches: int      # launches enqueued since watching began
