"""What the terminal shows while the model writes, so that no minute passes in silence.

Every model call in flight has an entry (its node and what it writes: "ImplementFunction candidate 2",
"... oracle"), updated as tokens stream in. On a terminal, one live line is redrawn in place: the calls
in flight, the tokens each has written, the tokens per second of them all and the time; elsewhere (a
log, a pipe) the same line is printed every few seconds. When a call ends, one line says what it cost;
a re-ask after an unusable answer is one line too. `--json` and the library without progress=True
create none.

Run alone to see it move:  python -m utils.progress
"""
import sys
import threading
import time

EVERY_S = 5.0       # a line at least this often while a call is in flight, when not on a terminal
REDRAW_S = 0.25     # the live line's fastest redraw on a terminal


class Progress:
    def __init__(self, write=None, live=None, every_s=EVERY_S):
        self.write = write or (lambda text: print(text, file=sys.stderr, flush=True))
        self.live = sys.stderr.isatty() if live is None else live
        self.every_s, self.lock, self.calls, self.drawn = every_s, threading.Lock(), {}, 0.0
        self.ticker = None

    def start(self, label):
        """A call begins; returns its on_progress(tokens, seconds) and end(text) functions."""
        with self.lock:
            key = object()
            self.calls[key] = [label, 0, time.monotonic()]
            if not self.live and self.ticker is None:
                self.ticker = threading.Thread(target=self._tick, daemon=True)
                self.ticker.start()

        def on_progress(tokens, seconds):
            with self.lock:
                if key in self.calls:
                    self.calls[key][1] = tokens
            if self.live and time.monotonic() - self.drawn >= REDRAW_S:
                self._draw()

        def end(text=None):
            """The call is over; by default its line says how many tokens it wrote in how long."""
            with self.lock:
                label_, tokens, started = self.calls.pop(key, (label, 0, time.monotonic()))
            if self.live:
                sys.stderr.write("\r\033[K")
            self.write(f"  {label_}: {text or f'{tokens} tokens in {time.monotonic() - started:.0f} s'}")
        return on_progress, end

    def note(self, text):
        if self.live:
            sys.stderr.write("\r\033[K")
        self.write(f"  {text}")

    def line(self):
        """The status of the calls in flight, in one line ("" when none is)."""
        with self.lock:
            calls = list(self.calls.values())
        if not calls:
            return ""
        now = time.monotonic()
        oldest = min(started for _, _, started in calls)
        tokens = sum(count for _, count, _ in calls)
        rate = tokens / max(now - oldest, 1e-9)
        parts = ", ".join(f"{label} {count} tokens" if count else f"{label} (reading the prompt)"
                          for label, count, _ in calls)
        return f"  writing: {parts}; {rate:.1f} tok/s, {now - oldest:.0f} s"

    def _draw(self):
        self.drawn = time.monotonic()
        text = self.line()
        if text:
            sys.stderr.write("\r\033[K" + text[:(_width() - 1)])
            sys.stderr.flush()

    def _tick(self):
        while True:
            time.sleep(self.every_s)
            text = self.line()
            if not text:
                with self.lock:
                    if not self.calls:  # nothing in flight: the next call starts a new ticker
                        self.ticker = None
                        return
                continue
            self.write(text)


def _width():
    try:
        import shutil
        return shutil.get_terminal_size().columns
    except (OSError, ValueError):
        return 100


if __name__ == "__main__":
    progress = Progress(every_s=1.0)
    updates = [progress.start(f"candidate {k}") for k in (1, 2)]
    for step in range(1, 31):
        time.sleep(0.1)
        for k, (on_progress, _) in enumerate(updates):
            on_progress(step * (k + 1), step / 10)
    for k, (_, end) in enumerate(updates):
        end(f"{30 * (k + 1)} tokens in 3 s")
