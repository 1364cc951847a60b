"""--seed: every model request its own sampling seed, the same one for the same request when a run is repeated.

A request is named by the step and what it asks for ("ImplementFunction candidate 2") and counted: its
n-th time gets the seed made from (the run's seed, the name, n). Requests sent at the same time have
different names, so the order they happen to reach the server in does not change their seeds.
"""
import threading
import zlib
from collections import Counter


class Seeds:
    def __init__(self, base=None):
        self.base, self.asked, self.lock = base, Counter(), threading.Lock()

    def next(self, name):
        """The seed for the next request called `name`, or None without --seed (the endpoint picks)."""
        if self.base is None:
            return None
        with self.lock:
            n = self.asked[name]
            self.asked[name] += 1
        return zlib.crc32(f"{self.base}:{name}:{n}".encode()) % 2**31
