"""The program that runs *inside* the sandbox: it loads untrusted code and calls run_code() per test.

utils/sandbox.py passes this file's source with `python -I -S -c`, so it needs nothing from the
project on disk. It never sees expected outputs: it reports what run_code returned and the parent
compares. Start-up time is most of a batch's cost, so it imports only modules that load in
microseconds (`json`, `signal` and `traceback` would triple it): inputs arrive in marshal format,
results leave as JSON written by hand, and traceback is imported only when a test fails.

Protocol
  stdin   a frame (8-byte big-endian length, then that many bytes) holding the marshal of
          {"code", "inputs": [marshal bytes of each test's kwargs], "limits": {...},
           "packages": a folder of third-party packages to import from, or None, "serve": bool,
           "contract": core/problem_kind.Contract.for_sandbox(), or None for a plain problem}
          With "serve", more frames follow, one per call: marshal of (args, kwargs).
  stdout  JSON lines: {"event": "loaded"} or {"event": "load_failed", ...}, then one
          {"event": "done", "i", ...} per test (or call) in order, then {"event": "finished"}.
          In serve mode a "done" also carries "raw": the returned value as base64 of its marshal
          form, so that tuples, sets and the like reach the caller as they are.
  stderr  anything the code writes to file descriptors 1 or 2 directly (the parent caps it)

A stdio problem's code is a whole program: compiled once, run afresh per test as __main__ with the test's
{"stdin": text} on file descriptor 0 and sys.stdin, what it prints to sys.stdout returned as the value
(stdio_program; its stderr is kept as a test's prints).

With a contract (a tree, design or in-place problem) the codec below stands between the test and the code:
tests stay plain lists, and the nodes, the replay of a design's operations and the argument compared after
an in-place call are made here, without recursion, so that generated code's cycles, shared nodes and deep
trees end as a test's error, never as a hang or a RecursionError of the runner. utils/export.py copies the
codec into test_solution.py, so the exported tests judge as the run did.
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


# --- codec: begin (utils/export.py copies from here to "codec: end" into test_solution.py; standard library only)
class TreeNode:
    """LeetCode's definition."""

    def __init__(self, val=0, left=None, right=None):
        self.val = val
        self.left = left
        self.right = right

    def __class_getitem__(cls, item):
        """TreeNode[int] is a type, as in LeetCode's typed stubs: such an annotation must not fail the code."""
        return cls


class ListNode:
    """LeetCode's definition."""

    def __init__(self, val=0, next=None):
        self.val = val
        self.next = next

    def __class_getitem__(cls, item):
        """ListNode[int] is a type, as in LeetCode's typed stubs: such an annotation must not fail the code."""
        return cls


MAX_NODES = 100_000  # a returned structure larger than this is a runaway (or a cycle through fresh nodes)


def build_tree(values):
    """A TreeNode from LeetCode's level order (null for a missing child), built with a queue: no recursion."""
    if values is None or values == []:
        return None
    if not isinstance(values, list) or values[0] is None:
        raise ValueError(f"not a tree in level order (null for a missing child): {str(values)[:80]}")
    root = TreeNode(values[0])
    queue, head, i = [root], 0, 1
    while i < len(values):
        if head == len(queue):
            raise ValueError(f"not a tree in level order: {values[i]!r} at position {i} has no parent")
        node, head = queue[head], head + 1
        for side in ("left", "right"):
            if i < len(values) and values[i] is not None:
                child = TreeNode(values[i])
                setattr(node, side, child)
                queue.append(child)
            i += 1
    return root


def build_list(values):
    """A ListNode chain from a list."""
    if values is None:
        return None
    if not isinstance(values, list):
        raise ValueError(f"not a linked list in list form: {str(values)[:80]}")
    head = None
    for value in reversed(values):
        head = ListNode(value, head)
    return head


def _is_tree(value):
    return hasattr(value, "val") and hasattr(value, "left") and hasattr(value, "right")


def _is_chain(value):
    return hasattr(value, "val") and hasattr(value, "next") and not isinstance(value, (list, dict))


def _visit(node, seen, what, met_twice):
    """One node of a returned structure counted once: met twice, or past MAX_NODES, it is an error, never a hang."""
    if id(node) in seen:
        raise ValueError(f"the returned {what} {met_twice}")
    seen.add(id(node))
    if len(seen) > MAX_NODES:
        raise OverflowError(f"the returned {what} has more than {MAX_NODES:,} nodes")


def tree_values(root):
    """A tree in level order, trailing nulls dropped (LeetCode's form), walked with a queue: a node met twice (a
    cycle, or one child of two parents) or more than MAX_NODES nodes is an error, never a hang."""
    values, queue, head, seen = [], [root], 0, set()
    while head < len(queue):
        node, head = queue[head], head + 1
        if node is None:
            values.append(None)
            continue
        _visit(node, seen, "tree", "has a cycle or a node shared by two parents")
        values.append(node.val)
        queue.append(getattr(node, "left", None))
        queue.append(getattr(node, "right", None))
    while values and values[-1] is None:
        values.pop()
    return values


def chain_values(head):
    """A linked list as a list; a cycle or more than MAX_NODES nodes is an error, never a hang."""
    values, seen = [], set()
    while head is not None:
        _visit(head, seen, "linked list", "has a cycle")
        values.append(head.val)
        head = head.next
    return values


def node_values(value):
    """A returned TreeNode or ListNode (or a list of them) in list form; any other value as it is."""
    if _is_tree(value):
        return tree_values(value)
    if _is_chain(value):
        return chain_values(value)
    if isinstance(value, (list, tuple)) and any(_is_tree(item) or _is_chain(item) for item in value):
        return [node_values(item) for item in value]
    return value


def _method(instance, name):
    """The method an operation names: as written (getMin), or in snake case (get_min) as Python code names it."""
    if hasattr(instance, name):
        return getattr(instance, name)
    snake = "".join("_" + c.lower() if c.isupper() else c for c in name).lstrip("_")
    return getattr(instance, snake)


def replay(cls, operations, arguments):
    """A design test: the first operation makes an instance, each later one calls a method; the list of what
    each returned (None for the constructor and for methods returning nothing)."""
    if not isinstance(operations, list) or not isinstance(arguments, list) or len(operations) != len(arguments):
        raise ValueError("operations and arguments must be two lists of the same length")
    if not operations:
        raise ValueError("no operations: the first one makes the instance")
    instance, results = cls(*arguments[0]), [None]
    for name, args in zip(operations[1:], arguments[1:]):
        results.append(node_values(_method(instance, name)(*args)))
    return results


def contract_function(namespace, contract):
    """What a test calls in the loaded code: run_code, or for a design the replay on the class it names."""
    if contract and contract["family"] == "design":
        cls = namespace.get(contract["design_class"])
        if not isinstance(cls, type):
            raise NameError(f"the code does not define the class {contract['design_class']}")
        return lambda operations, arguments: replay(cls, operations, arguments)
    return namespace.get("run_code")


def contract_call(function, args, kwargs, contract):
    """`function` called as the contract says: list forms built into nodes first; the answer the argument
    changed in place (with the returned k: [k, its first k items]) or what it returned, nodes in list form."""
    if not contract:
        return function(*args, **kwargs)
    if contract["family"] == "stdio":
        return function(kwargs["stdin"])
    for name in contract["trees"]:
        if name in kwargs:
            kwargs[name] = build_tree(kwargs[name])
    for name in contract["lists"]:
        if name in kwargs:
            kwargs[name] = build_list(kwargs[name])
    value = function(*args, **kwargs)
    changed = contract["in_place"]
    if changed and changed in kwargs:
        after = node_values(kwargs[changed])
        if contract["return_too"]:
            return [value, after[:value] if isinstance(value, int) and isinstance(after, list) else after]
        return after
    if value is None and contract["returns"]:  # no node: LeetCode writes the empty tree or list as []
        return []
    return node_values(value)
# --- codec: end


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
    contract = payload.get("contract")
    run_code = load(payload["code"], limits, send, contract)
    if run_code is None:
        return
    send({"event": "loaded"})
    serve = payload.get("serve")
    calls = iter(lambda: read_frame(requests), None) if serve else payload["inputs"]
    short_repr = reprlib.Repr()
    short_repr.maxstring, short_repr.maxother = limits["repr_chars"], limits["repr_chars"]
    short_repr.maxlist = short_repr.maxtuple = short_repr.maxset = short_repr.maxdict = 50
    for i, packed_input in enumerate(calls):
        send(call(run_code, i, packed_input, serve, limits, short_repr, payload["code"], contract))
    send({"event": "finished"})


def alarm_in(seconds):
    _signal.signal(_signal.SIGALRM, on_alarm)  # the code may have replaced the handler
    _signal.setitimer(_signal.ITIMER_REAL, seconds)


class PrintedTooMuch(BaseException):
    """A stdio program printed more than the output limit; a BaseException, as TestTimeout, so that the
    program's own `except Exception` cannot swallow it."""


class PrintedText:
    """A stdio program's sys.stdout: what it prints is its answer, so nothing is dropped; past `cap`
    characters the test ends as an error instead (a program printing megabytes)."""

    def __init__(self, cap):
        self.cap, self.parts, self.size = cap, [], 0
        self.buffer = self  # sys.stdout.buffer.write(b"...") is how fast contest code prints

    def write(self, text):
        text = text.decode("utf-8", "replace") if isinstance(text, (bytes, bytearray)) else str(text)
        self.size += len(text)
        if self.size > self.cap:
            raise PrintedTooMuch(f"the program printed more than {self.cap:,} characters")
        self.parts.append(text)
        return len(text)

    def writelines(self, lines):
        for line in lines:
            self.write(line)

    def flush(self):
        pass

    def isatty(self):
        return False


def stdin_holding(text):
    """File descriptor 0 made to read `text` (a memory file), and sys.stdin over it: input(), sys.stdin,
    sys.stdin.buffer and open(0) all read the test's input."""
    import io  # loaded already by the interpreter's own streams: no start-up cost
    data = text.encode("utf-8")
    fd = os.memfd_create("stdin")
    try:
        os.write(fd, data)
        os.lseek(fd, 0, os.SEEK_SET)
        os.dup2(fd, 0)
    finally:
        if fd != 0:  # fd 0 was closed (a program's open(0) closes it): the memory file got its number
            os.close(fd)
    sys.stdin = io.TextIOWrapper(io.BufferedReader(io.FileIO(0, "r", closefd=False)), encoding="utf-8", errors="replace")


def stdio_program(code, limits):
    """A stdio problem's test: the whole program run afresh (as __main__) with the test's text on standard input;
    what it printed is the value. sys.exit() and exit(0) end it normally; another exit status is an error."""
    def run(stdin):
        printed, before = PrintedText(limits["result_chars"]), sys.stdin
        stdin_holding(stdin)
        stderr = sys.stderr  # call()'s capture: what the program writes to stderr is kept as its prints
        sys.stdout = printed
        try:
            exec(code, {"__name__": "__main__", "__file__": CODE_FILENAME, "__builtins__": __builtins__})
        except SystemExit as stop:
            if stop.code not in (None, 0):
                raise RuntimeError(f"the program exited with status {stop.code}") from None
        finally:
            sys.stdout, sys.stdin = stderr, before
            null = os.open(os.devnull, os.O_RDONLY)  # the next test's program must not read this one's input
            if null != 0:
                os.dup2(null, 0)
                os.close(null)
        return "".join(printed.parts)
    return run


def load(source, limits, send, contract=None):
    """The code's run_code (a design's replay: contract_function), its module-level code run within the test
    time limit; None (and a load_failed event sent) when it raises, runs out of time or defines no run_code.
    With a contract the code finds TreeNode, ListNode, List and Optional defined, as on LeetCode."""
    namespace = {"__name__": "solution", "__file__": CODE_FILENAME}
    if contract and contract["family"] == "stdio":  # a whole program runs per test, reading its input: compiled here only
        try:
            return stdio_program(compile(source, CODE_FILENAME, "exec"), limits)
        except BaseException as exc:  # noqa: BLE001 - a syntax error is a result
            send({"event": "load_failed", "timed_out": False, **describe_error(exc, limits, source), "output": ""})
            return None
    if contract:
        from typing import List, Optional  # only here: importing typing would slow every plain batch's start
        namespace.update(TreeNode=TreeNode, ListNode=ListNode, List=List, Optional=Optional)
    capture = CappedText(limits["output_chars"])
    sys.stdout = sys.stderr = capture
    try:
        alarm_in(limits["test_timeout"])
        exec(compile(source, CODE_FILENAME, "exec"), namespace)
        alarm_in(0)
        function = contract_function(namespace, contract)
        if not callable(function):
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
    return function


def call(run_code, i, packed_input, serve, limits, short_repr, source, contract=None):
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
        value = contract_call(run_code, args, kwargs, contract)
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
                      message=f"{'the program did not finish' if contract and contract['family'] == 'stdio' else 'run_code did not return'}"
                              f" within {limits['test_timeout']} s")
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
