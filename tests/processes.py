"""Which live processes mention a text in their command line: how the tests see that nothing survived."""
import os


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
