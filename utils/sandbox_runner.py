"""The program that runs *inside* the sandbox: it loads untrusted code and calls run_code() per test.

utils/sandbox.py passes this file's source with `python -I -S -c`, so it needs nothing from the
project on disk and imports only the standard library. It never sees expected outputs: it reports
what run_code returned and the parent compares.

Protocol
  stdin   one JSON object: {"code", "inputs": [JSON text of each test's kwargs], "limits": {...}}
  stdout  JSON lines for the parent: {"event": "loaded"} or {"event": "load_failed", ...}, then per
          test {"event": "start", "i"} and {"event": "done", "i", ...}, then {"event": "finished"}
  stderr  anything the code writes to file descriptors 1 or 2 directly (the parent caps it)
"""
import json
import linecache
import os
import reprlib
import resource
import signal
import sys
import time
import traceback

CODE_FILENAME = "solution.py"


class TestTimeout(BaseException):
    """Raised by SIGALRM; a BaseException so that `except Exception` in the code cannot swallow it."""


class CappedText:
    """A stand-in for sys.stdout/sys.stderr that keeps the first `cap` characters of a test's prints."""

    def __init__(self, cap):
        self.cap, self.parts, self.size, self.dropped = cap, [], 0, 0

    def write(self, text):
        text = str(text)
        room = self.cap - self.size
        if room > 0:
            self.parts.append(text[:room])
            self.size += min(room, len(text))
        self.dropped += max(0, len(text) - max(room, 0))
        return len(text)

    def flush(self):
        pass

    def isatty(self):
        return False

    def value(self):
        text = "".join(self.parts)
        return text + (f"\n... [{self.dropped} more characters dropped]" if self.dropped else "")


def set_limits(limits):
    def cap(which, value):
        soft, hard = resource.getrlimit(which)
        value = value if hard == resource.RLIM_INFINITY else min(value, hard)
        resource.setrlimit(which, (value, value))

    cap(resource.RLIMIT_AS, limits["memory_mb"] * 1024 * 1024)
    cap(resource.RLIMIT_CPU, limits["cpu_seconds"])
    cap(resource.RLIMIT_FSIZE, limits["file_mb"] * 1024 * 1024)
    cap(resource.RLIMIT_NOFILE, limits["open_files"])
    cap(resource.RLIMIT_NPROC, limits["processes"])
    cap(resource.RLIMIT_CORE, 0)


def plain_value(value, depth=0):
    """The returned value as JSON-ready data; tuples become lists and sets sorted lists."""
    if depth > 100:
        raise TypeError("the value is nested more than 100 levels deep (or contains itself)")
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        return [plain_value(v, depth + 1) for v in value]
    if isinstance(value, (set, frozenset)):
        items = [plain_value(v, depth + 1) for v in value]
        try:
            return sorted(items)
        except TypeError:
            return sorted(items, key=repr)
    if isinstance(value, dict):
        return {str(k): plain_value(v, depth + 1) for k, v in value.items()}
    raise TypeError(f"run_code returned a {type(value).__name__} object, not plain data "
                    "(numbers, strings, booleans, None, lists, dicts)")


def traceback_tail(exc, max_lines):
    """The last lines of the traceback, keeping only frames from the solution's own code."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == CODE_FILENAME]
    lines = traceback.format_list(frames) + traceback.format_exception_only(type(exc), exc)
    text = "".join(lines).rstrip().splitlines()
    return "\n".join(text[-max_lines:])


def describe_error(exc, limits):
    return {
        "error_type": type(exc).__name__,
        "message": str(exc)[: limits["message_chars"]],
        "traceback": traceback_tail(exc, limits["traceback_lines"])[: limits["message_chars"] * 2],
    }


def on_alarm(signum, frame):
    raise TestTimeout()


def main():
    results = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)  # the code's raw writes to fd 1 land in the capped output pipe, not in the results
    payload = json.loads(sys.stdin.buffer.read())
    sys.stdin = open(os.devnull)
    limits = payload["limits"]
    set_limits(limits)
    short_repr = reprlib.Repr()
    short_repr.maxstring, short_repr.maxother = limits["repr_chars"], limits["repr_chars"]
    short_repr.maxlist = short_repr.maxtuple = short_repr.maxset = short_repr.maxdict = 50

    def send(obj):
        line = json.dumps(obj)
        if len(line) > limits["result_chars"]:
            obj = {**obj, "value": None, "ok": False, "error_type": "OutputTooLarge",
                   "message": f"the returned value is larger than {limits['result_chars']} characters as JSON",
                   "traceback": ""}
            line = json.dumps(obj)
        results.write(line + "\n")
        results.flush()

    signal.signal(signal.SIGALRM, on_alarm)
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # an oversized write raises OSError instead of killing us
    # so that tracebacks quote the offending line of the code, as they would for a real file
    linecache.cache[CODE_FILENAME] = (len(payload["code"]), None, payload["code"].splitlines(True), CODE_FILENAME)
    namespace = {"__name__": "solution", "__file__": CODE_FILENAME}
    capture = CappedText(limits["output_chars"])
    sys.stdout = sys.stderr = capture
    try:
        signal.setitimer(signal.ITIMER_REAL, limits["test_timeout"])
        exec(compile(payload["code"], CODE_FILENAME, "exec"), namespace)
        signal.setitimer(signal.ITIMER_REAL, 0)
        if not callable(namespace.get("run_code")):
            raise NameError("the code does not define a function named run_code")
    except TestTimeout:
        send({"event": "load_failed", "timed_out": True, "error_type": "Timeout",
              "message": f"module-level code did not finish within {limits['test_timeout']} s",
              "traceback": "", "output": capture.value()})
        return
    except BaseException as exc:  # noqa: BLE001 - anything the code raises is a result, not a crash
        signal.setitimer(signal.ITIMER_REAL, 0)
        send({"event": "load_failed", "timed_out": False, **describe_error(exc, limits),
              "output": capture.value()})
        return
    send({"event": "loaded"})
    run_code = namespace["run_code"]

    for i, input_json in enumerate(payload["inputs"]):
        capture = CappedText(limits["output_chars"])
        sys.stdout = sys.stderr = capture
        signal.signal(signal.SIGALRM, on_alarm)  # the previous test may have replaced the handler
        send({"event": "start", "i": i})
        kwargs = json.loads(input_json)  # a fresh copy: mutating it cannot reach the stored test
        result = {"event": "done", "i": i, "ok": False, "value": None, "repr": "", "timed_out": False,
                  "error_type": None, "message": "", "traceback": ""}
        started = time.perf_counter()
        try:
            signal.setitimer(signal.ITIMER_REAL, limits["test_timeout"])
            value = run_code(**kwargs)
            signal.setitimer(signal.ITIMER_REAL, 0)
            result["repr"] = short_repr.repr(value)
            result["value"] = plain_value(value)
            result["ok"] = True
        except TestTimeout:
            result.update(timed_out=True, error_type="Timeout",
                          message=f"run_code did not return within {limits['test_timeout']} s")
        except BaseException as exc:  # noqa: BLE001 - SystemExit and friends are results too
            signal.setitimer(signal.ITIMER_REAL, 0)
            result.update(describe_error(exc, limits))
        result["ms"] = round((time.perf_counter() - started) * 1000, 3)
        result["output"] = capture.value()
        send(result)
    send({"event": "finished"})


if __name__ == "__main__":
    main()
