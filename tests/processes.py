"""Which live processes mention a text in their command line: how the tests see that nothing survived."""
import os
import signal


def processes_mentioning(text):
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if text.encode() in f.read():
                    found.append(pid)
        except OSError:  # the process ended while we looked
            pass
    return found


def ctrl_c_as_at_a_terminal():
    """preexec_fn for a child the test will Ctrl-C: a shell's background job (nohup, `&` in a script)
    starts with SIGINT ignored, and Python then never turns it into KeyboardInterrupt."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
