"""The program that runs *inside* the sandbox: it loads untrusted code and calls run_code() per test.

utils/sandbox.py passes this file's source with `python -I -S -c`, so it needs nothing from the
project on disk. It never sees expected outputs: it reports what run_code returned and the parent
compares. Start-up time is most of a batch's cost, so it imports only modules that load in
microseconds (`json`, `signal` and `traceback` would triple it): inputs arrive in marshal format,
results leave as JSON written by hand, and traceback is imported only when a test fails.

Protocol
  stdin   a frame (8-byte big-endian length, then that many bytes) holding the marshal of
          {"code", "inputs": [marshal bytes of each test's kwargs], "limits": {...},
           "packages": a folder of third-party packages to import from, or None, "serve": bool}
          With "serve", more frames follow, one per call: marshal of (args, kwargs).
  stdout  JSON lines: {"event": "loaded"} or {"event": "load_failed", ...}, then one
          {"event": "done", "i", ...} per test (or call) in order, then {"event": "finished"}.
          In serve mode a "done" also carries "raw": the returned value as base64 of its marshal
          form, so that tuples, sets and the like reach the caller as they are.
  stderr  anything the code writes to file descriptors 1 or 2 directly (the parent caps it)
"""
import _signal
import binascii
import marshal
import os
import reprlib
import resource
import sys
import time
from _json import encode_basestring_ascii as json_string

CODE_FILENAME = "solution.py"


class RawJSON(str):
    """Text already encoded as JSON, so a large value is encoded once, not twice."""


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
        """The prints kept, within `cap` characters with the note that says how many more there were."""
        text = "".join(self.parts)
        if not self.dropped:
            return text
        kept = max(0, self.cap - 50)  # room for the note
        return text[:kept] + f"\n... [{len(text) - kept + self.dropped:,} more characters dropped]"


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
    """The returned value as plain data of exact built-in types; tuples become lists, sets sorted lists."""
    if depth > 100:
        raise TypeError("the value is nested more than 100 levels deep (or contains itself)")
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value)
    if isinstance(value, str):
        return str(value)
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
    if type(value).__module__ == "numpy" and hasattr(value, "tolist"):  # --allow-install: numpy scalars, arrays
        return plain_value(value.tolist(), depth + 1)
    raise TypeError(f"run_code returned a {type(value).__name__} object, not plain data "
                    "(numbers, strings, booleans, None, lists, dicts)")


def to_json(value):
    """JSON text of plain data (as made by plain_value), without importing the json module."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    kind = type(value)
    if kind is RawJSON:
        return value
    if kind is str:
        return json_string(value)
    if kind is int:
        return int.__repr__(value)
    if kind is float:
        if value != value:
            return "NaN"
        if value in (float("inf"), float("-inf")):
            return "Infinity" if value > 0 else "-Infinity"
        return float.__repr__(value)
    if kind is list:
        return "[" + ",".join(map(to_json, value)) + "]"
    if kind is dict:
        return "{" + ",".join(json_string(k) + ":" + to_json(v) for k, v in value.items()) + "}"
    raise TypeError(f"cannot encode {kind.__name__}")


def describe_error(exc, limits, source):
    """Type, message and the traceback tail, keeping only frames of the solution's own code."""
    import linecache
    import traceback

    # so that the traceback quotes the offending line, as it would for a real file
    linecache.cache[CODE_FILENAME] = (len(source), None, source.splitlines(True), CODE_FILENAME)
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == CODE_FILENAME]
    lines = "".join(traceback.format_list(frames) + traceback.format_exception_only(type(exc), exc))
    tail = "\n".join(lines.rstrip().splitlines()[-limits["traceback_lines"]:])
    return {"error_type": type(exc).__name__, "message": cut(str(exc), limits["message_chars"]),
            "traceback": cut(tail, limits["message_chars"] * 2)}


def cut(text, size):
    """`text` within `size` characters; a cut is said at its end with how much it left out (the same words as
    mcp_schema.clip, which reads the count when it cuts again), never silently."""
    if len(text) <= size:
        return text
    kept = size - 40  # room for the note
    return text[:kept] + f"\n... [{len(text) - kept:,} more characters]"


def on_alarm(signum, frame):
    raise TestTimeout()


def read_frame(stream):
    """One length-prefixed frame from `stream`, or None at its end."""
    header = stream.read(8)
    if len(header) < 8:
        return None
    size = int.from_bytes(header, "big")
    data = stream.read(size)
    return data if len(data) == size else None


def main():
    results = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)  # the code's raw writes to fd 1 land in the capped output pipe, not in the results
    requests = os.fdopen(os.dup(0), "rb")
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)  # the code reads nothing; calls arrive on `requests`
    payload = marshal.loads(read_frame(requests))
    sys.stdin = open(os.devnull)
    limits = payload["limits"]
    if payload.get("packages"):
        # Appended, so a package cannot shadow a standard module. A plain sys.path entry, and with -S no
        # .pth file in it is processed: their `import` lines would run package code at start-up, before the
        # limits are set and outside any test's alarm.
        sys.path.append(payload["packages"])
    set_limits(limits)

    def send(fields):
        results.write("{" + ",".join(json_string(k) + ":" + to_json(v) for k, v in fields.items()) + "}\n")
        results.flush()

    _signal.signal(_signal.SIGXFSZ, _signal.SIG_IGN)  # an oversized write raises OSError instead of killing us
    run_code = load(payload["code"], limits, send)
    if run_code is None:
        return
    send({"event": "loaded"})
    serve = payload.get("serve")
    calls = iter(lambda: read_frame(requests), None) if serve else payload["inputs"]
    short_repr = reprlib.Repr()
    short_repr.maxstring, short_repr.maxother = limits["repr_chars"], limits["repr_chars"]
    short_repr.maxlist = short_repr.maxtuple = short_repr.maxset = short_repr.maxdict = 50
    for i, packed_input in enumerate(calls):
        send(call(run_code, i, packed_input, serve, limits, short_repr, payload["code"]))
    send({"event": "finished"})


def alarm_in(seconds):
    _signal.signal(_signal.SIGALRM, on_alarm)  # the code may have replaced the handler
    _signal.setitimer(_signal.ITIMER_REAL, seconds)


def load(source, limits, send):
    """The code's run_code, its module-level code run within the test time limit; None (and a load_failed
    event sent) when it raises, runs out of time or defines no run_code."""
    namespace = {"__name__": "solution", "__file__": CODE_FILENAME}
    capture = CappedText(limits["output_chars"])
    sys.stdout = sys.stderr = capture
    try:
        alarm_in(limits["test_timeout"])
        exec(compile(source, CODE_FILENAME, "exec"), namespace)
        alarm_in(0)
        if not callable(namespace.get("run_code")):
            raise NameError("the code does not define a function named run_code")
    except TestTimeout:
        send({"event": "load_failed", "timed_out": True, "error_type": "Timeout",
              "message": f"module-level code did not finish within {limits['test_timeout']} s",
              "traceback": "", "output": capture.value()})
        return None
    except BaseException as exc:  # noqa: BLE001 - anything the code raises is a result, not a crash
        alarm_in(0)
        send({"event": "load_failed", "timed_out": False, **describe_error(exc, limits, source),
              "output": capture.value()})
        return None
    return namespace["run_code"]


def call(run_code, i, packed_input, serve, limits, short_repr, source):
    """One call of run_code, as the "done" event that reports it."""
    capture = CappedText(limits["output_chars"])
    sys.stdout = sys.stderr = capture
    # a fresh copy each time: mutating it cannot reach the stored test
    args, kwargs = marshal.loads(packed_input) if serve else ((), marshal.loads(packed_input))
    result = {"event": "done", "i": i, "ok": False, "value": None, "repr": "", "timed_out": False,
              "error_type": None, "message": "", "traceback": ""}
    started = time.perf_counter()
    try:
        alarm_in(limits["test_timeout"])
        value = run_code(*args, **kwargs)
        alarm_in(0)
        result["repr"] = short_repr.repr(value)
        if serve:
            result["raw"] = packed_value(value, limits)
        else:
            encoded = RawJSON(to_json(plain_value(value)))
            if len(encoded) > limits["result_chars"]:
                raise OverflowError(f"the returned value is larger than {limits['result_chars']} characters as JSON")
            result["value"] = encoded
        result["ok"] = True
    except TestTimeout:
        result.update(timed_out=True, error_type="Timeout",
                      message=f"run_code did not return within {limits['test_timeout']} s")
    except BaseException as exc:  # noqa: BLE001 - SystemExit and friends are results too
        alarm_in(0)
        result.update(describe_error(exc, limits, source))
    result["ms"] = round((time.perf_counter() - started) * 1000, 3)
    result["output"] = capture.value()
    return result


def packed_value(value, limits):
    """Serve mode: the returned value as base64 of its marshal form, so tuples and sets arrive as they are."""
    try:
        raw = marshal.dumps(value)
    except ValueError:
        raise TypeError(f"run_code returned a {type(value).__name__} object, not plain data") from None
    if len(raw) > limits["result_chars"]:
        raise OverflowError(f"the returned value is larger than {limits['result_chars']} bytes")
    return binascii.b2a_base64(raw, newline=False).decode("ascii")


if __name__ == "__main__":
    main()
