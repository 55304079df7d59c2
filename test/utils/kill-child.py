"""test/utils/kill-child.py: a signal that ends the child process the
tool rewrites in (a crash, the kernel's out-of-memory killer) is reported
with the input's name, exit status 4 and nothing written.

    kill-child.py SIGNAL TOOL ARGS...

Runs TOOL ARGS... (an input that includes a FIFO no one writes keeps the
child waiting), finds its child process, sends it SIGNAL (a name, as
SEGV), then prints what the tool wrote to standard error and "exit N".
"""
import os
import signal
import subprocess
import sys
import time


def child_of(pid):
    """The process id of pid's child, or None while it has none."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % entry) as f:
                stat = f.read()
        except OSError:
            continue
        # pid (comm) state ppid ...: comm may hold spaces and parentheses.
        if int(stat[stat.rindex(")") + 2:].split()[1]) == pid:
            return int(entry)
    return None


def main():
    sig = getattr(signal, "SIG" + sys.argv[1])
    p = subprocess.Popen(sys.argv[2:], stdin=subprocess.DEVNULL,
                         stderr=subprocess.PIPE)
    deadline = time.monotonic() + 10
    child = None
    while child is None and time.monotonic() < deadline:
        child = child_of(p.pid)
        time.sleep(0.01)
    if child is None:
        p.kill()
        sys.exit("kill-child: the tool started no child process")
    time.sleep(0.2)  # let it reach the FIFO
    os.kill(child, sig)
    _, err = p.communicate(timeout=30)
    sys.stdout.write(err.decode("utf-8", "replace"))
    print("exit %d" % p.returncode)


if __name__ == "__main__":
    main()
