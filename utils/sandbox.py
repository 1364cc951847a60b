"""Run untrusted `run_code` against test inputs, never inside this process.

One fresh interpreter (`python -I -S`) per batch of tests, started with the strongest isolation this
machine offers:
  bwrap    bubblewrap: new user, pid, net, ipc, uts and mount namespaces; only /usr visible, read-only;
           a private tmpfs as working directory; dies with the parent.
  unshare  util-linux unshare: new net, pid and mount namespaces (fresh /proc); a temporary directory.
  process  a plain child process; a temporary directory.
In every mode: an unprivileged uid when we are root, resource limits (memory, CPU time, file size, open
files, processes), a scrubbed environment, a new session, a per-test timeout inside the child and a
watchdog plus a wall-clock deadline outside it. After a batch its whole process group is killed; with a
pid namespace (bwrap, unshare) every process the code started dies with it, even one that called setsid.
Expected outputs never enter the child: it reports what run_code returned and the caller compares.
Third-party packages (utils/packages.py installs them) come as one folder, `packages`, that the child
appends to sys.path; bwrap binds it read-only. Every sandbox process gets SIGKILL when codeloop dies
(PR_SET_PDEATHSIG), even by `kill -9`; a working folder left behind by a killed run is removed by the
next run. `SandboxProcess` keeps one interpreter up and calls run_code in it on demand: the benchmark's
hidden checks talk to the solution that way, from a process of their own (bench/hidden_tests.py).

Run alone to see which isolation this machine gets:  python utils/sandbox.py
"""
import binascii
import ctypes
import json
import marshal
import os
import pwd
import queue
import selectors
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from dataclasses import asdict, dataclass
from functools import lru_cache
from pathlib import Path

RUNNER_SOURCE = (Path(__file__).with_name("sandbox_runner.py")).read_text()
ISOLATION_LEVELS = ("bwrap", "unshare", "process")
UNPRIVILEGED_USER = "nobody"
GRACE_S = 0.5  # how long past its own SIGALRM a test may run before the watchdog kills the process
WORKDIR_PREFIX = "codeloop-sandbox-"


class SandboxGroup:
    """The live sandbox processes of one run, so that stopping a run stops its code and no other run's (the
    MCP server runs several at once). Every process is in EVERY_SANDBOX too, for Ctrl-C. A batch started
    before its group (or EVERY_SANDBOX) was killed starts no fresh interpreter afterwards."""

    def __init__(self):
        self.procs, self.lock, self.kills = set(), threading.Lock(), 0

    def kill(self):
        with self.lock:
            self.kills += 1
            procs = list(self.procs)
        for proc in procs:
            _kill_group(proc)

    def __len__(self):
        with self.lock:
            return len(self.procs)


EVERY_SANDBOX = SandboxGroup()


@dataclass(frozen=True)
class Limits:
    test_timeout: float = 2.0      # seconds per test (and for the module-level code)
    batch_timeout: float = 30.0    # wall-clock seconds for the whole batch, restarts included
    memory_mb: int = 1024          # address space
    file_mb: int = 16              # largest file the code may write
    open_files: int = 64
    processes: int = 64            # per uid; only enforced when we drop to an unprivileged uid or are not root
    output_chars: int = 4000       # prints kept per test
    repr_chars: int = 1000
    message_chars: int = 1000
    traceback_lines: int = 8
    result_chars: int = 4_000_000  # a returned value larger than this as JSON is an error
    stream_bytes: int = 64_000     # raw fd output kept per process

    def for_child(self):
        return {**asdict(self), "cpu_seconds": int(self.batch_timeout) + 1}


class SandboxUnavailable(RuntimeError):
    """No way to start the sandbox interpreter on this machine (or the requested isolation is missing)."""


def sandbox_python():
    """An interpreter an unprivileged uid can read: pyenv and venvs under /root are not."""
    override = os.environ.get("CODELOOP_SANDBOX_PYTHON")
    if override:
        return override
    return "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else shutil.which("python3")


def _unprivileged_ids():
    try:
        user = pwd.getpwnam(UNPRIVILEGED_USER)
        return user.pw_uid, user.pw_gid
    except KeyError:
        return 65534, 65534  # the conventional ids of nobody/nogroup, even without a passwd entry


def _drop_privileges():
    """Popen arguments that switch the child to an unprivileged uid when we run as root."""
    if os.geteuid() != 0:
        return {}
    uid, gid = _unprivileged_ids()
    return {"user": uid, "group": gid, "extra_groups": []}


def _bwrap_prefix(python, packages=None):
    args = ["bwrap", "--unshare-all", "--die-with-parent", "--new-session",
            "--ro-bind", "/usr", "/usr", "--proc", "/proc", "--dev", "/dev",
            "--size", str(64 * 1024 * 1024), "--tmpfs", "/sandbox", "--chdir", "/sandbox"]
    for top in ("/bin", "/lib", "/lib64", "/sbin"):
        if os.path.islink(top):
            args += ["--symlink", os.readlink(top), top]
        elif os.path.isdir(top):
            args += ["--ro-bind", top, top]
    prefix = os.path.dirname(os.path.dirname(os.path.realpath(python)))
    if not prefix.startswith("/usr"):
        args += ["--ro-bind", prefix, prefix]
    if packages:
        args += ["--ro-bind", packages, packages]
    return args


def launch_for(isolation, python, packages=None, source=RUNNER_SOURCE):
    """The argv that starts `source` (the runner) under `isolation`, and the Popen arguments that go with it."""
    runner = [python, "-I", "-S", "-c", source]
    privileges = _drop_privileges()
    if isolation == "bwrap":
        return _bwrap_prefix(python, packages) + runner, privileges
    if isolation == "unshare":
        # unshare needs root to make the namespaces, so it drops the uid itself, after making them
        as_user = ["--setuid", str(privileges["user"]), "--setgid", str(privileges["group"])] if privileges else []
        return ["unshare", "--net", "--pid", "--mount-proc", "--fork", "--kill-child", *as_user] + runner, {}
    return runner, privileges


def _clean_env(home):
    return {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": home, "PYTHONDONTWRITEBYTECODE": "1"}


@lru_cache(maxsize=None)
def isolation_works(isolation):
    """Start a trivial batch under `isolation`; True when it loads and runs one test."""
    if isolation == "bwrap" and not shutil.which("bwrap"):
        return False
    if isolation == "unshare" and not shutil.which("unshare"):
        return False
    try:
        results = run_batch("def run_code(x):\n    return x + 1\n", [{"x": 1}], Limits(test_timeout=5), isolation)
    except (OSError, SandboxUnavailable):
        return False
    return results[0]["ok"] and results[0]["value"] == 2


def best_isolation():
    """The strongest isolation that works here; CODELOOP_SANDBOX forces one (bwrap, unshare, process)."""
    forced = os.environ.get("CODELOOP_SANDBOX")
    if forced:
        if forced not in ISOLATION_LEVELS:
            raise SandboxUnavailable(f"CODELOOP_SANDBOX must be one of {', '.join(ISOLATION_LEVELS)}, not {forced!r}")
        if not isolation_works(forced):
            raise SandboxUnavailable(f"the sandbox isolation {forced!r} does not work on this machine")
        return forced
    for isolation in ISOLATION_LEVELS:
        if isolation_works(isolation):
            return isolation
    raise SandboxUnavailable(f"cannot start a sandboxed Python interpreter ({sandbox_python()})")


def run_batch(code, inputs, limits=Limits(), isolation=None, packages=None, group=None, contract=None):
    """Call run_code(**kwargs) for each kwargs dict in `inputs`, in one sandboxed interpreter.

    Returns one dict per input: ok, value (plain JSON data), repr, error_type, message, traceback,
    timed_out, ms, output. A test that hangs or kills its interpreter gets its own error and the tests
    after it run in a fresh interpreter, within the batch deadline. `packages`: a folder of installed
    third-party packages (utils.packages.install) the code may import from. `group`: the run's
    SandboxGroup, whose kill() ends the batch. `contract`: core/problem_kind.Contract.for_sandbox() of a tree,
    design or in-place problem, which the runner's codec honours (inputs and values stay in list form here).
    """
    isolation = isolation or best_isolation()
    if packages is not None:
        packages = os.path.abspath(packages)
        if not os.path.isdir(packages):
            raise FileNotFoundError(f"the packages folder {packages} does not exist")
    deadline = time.monotonic() + limits.batch_timeout
    groups = _groups(group)
    kills_at_start = _kills_of(groups)
    packed = [marshal.dumps(kwargs) for kwargs in inputs]
    results = [None] * len(inputs)
    pending = list(range(len(inputs)))
    while pending:
        if _kills_of(groups) != kills_at_start:
            for i in pending:
                results[i] = _failure("Interrupted", "not run: the run was interrupted")
            break
        if time.monotonic() >= deadline:
            for i in pending:
                results[i] = _failure("Timeout", f"not run: the batch deadline of {limits.batch_timeout} s was reached",
                                      timed_out=True)
            break
        outcome = _run_process(code, [packed[i] for i in pending], limits, isolation, deadline, groups,
                               kills_at_start, packages, contract)
        if outcome["load_failure"] is not None or outcome["forged"]:
            # a process whose channel the code wrote into: none of its results can be believed
            for i in pending:
                results[i] = dict(outcome["crash"] if outcome["forged"] else outcome["load_failure"])
            break
        finished = len(outcome["done"])
        for k, result in enumerate(outcome["done"]):
            results[pending[k]] = result
        if finished == len(pending):
            break
        if not outcome["loaded"]:  # the interpreter never got going: retrying would fail the same way
            for i in pending[finished:]:
                results[i] = dict(outcome["crash"])
            break
        results[pending[finished]] = outcome["crash"]  # the test that was running when it died
        pending = pending[finished + 1:]
    for result in results:
        result["output"] = result.get("output", "")
    return results


def _failure(error_type, message, timed_out=False, ms=0.0):
    return {"ok": False, "value": None, "repr": "", "error_type": error_type, "message": message,
            "traceback": "", "timed_out": timed_out, "ms": ms, "output": ""}


try:
    _prctl = ctypes.CDLL(None, use_errno=True).prctl  # looked up now: the child after fork should do little
except (OSError, AttributeError):
    _prctl = None


def die_with_parent():
    """In a child before exec (Popen's preexec_fn, which runs after its uid change, which would clear it):
    SIGKILL when codeloop dies, even by kill -9. The embedded model's server uses it too."""
    if _prctl is not None:
        _prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def frame(data):
    """`data` as the runner reads it from stdin: an 8-byte big-endian length, then the bytes."""
    return len(data).to_bytes(8, "big") + data


def _groups(group):
    return (EVERY_SANDBOX,) if group is None or group is EVERY_SANDBOX else (EVERY_SANDBOX, group)


def _kills_of(groups):
    return tuple(group.kills for group in groups)


def _start(isolation, packages, groups, kills_at_start, source=RUNNER_SOURCE):
    """Start a sandboxed interpreter running `source`; (process, its working folder or None)."""
    _sweep_workdirs()
    argv, privileges = launch_for(isolation, sandbox_python(), packages, source)
    workdir = None
    if isolation != "bwrap":  # bwrap gives the code a private tmpfs instead
        workdir = tempfile.mkdtemp(prefix=f"{WORKDIR_PREFIX}{os.getpid()}-")
        if os.geteuid() == 0:
            os.chown(workdir, *_unprivileged_ids())
    try:
        proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, close_fds=True, start_new_session=True,
            env=_clean_env(workdir or "/sandbox"), cwd=workdir or "/", preexec_fn=die_with_parent, **privileges)
    except OSError as exc:
        if workdir:
            shutil.rmtree(workdir, ignore_errors=True)
        raise SandboxUnavailable(f"cannot start the sandbox ({isolation}): {exc}") from exc
    for group in groups:
        with group.lock:
            group.procs.add(proc)
    if _kills_of(groups) != kills_at_start:  # a kill came between the caller's check and now
        _kill_group(proc)
    return proc, workdir


def _stop(proc, workdir, groups):
    _kill_tree(proc)
    for group in groups:
        with group.lock:
            group.procs.discard(proc)
    if workdir:
        shutil.rmtree(workdir, ignore_errors=True)


def _sweep_workdirs():
    """Remove the working folders of sandboxes whose codeloop process is gone (it was killed with -9)."""
    root = tempfile.gettempdir()
    try:
        names = [n for n in os.listdir(root) if n.startswith(WORKDIR_PREFIX)]
    except OSError:
        return
    for name in names:
        owner = name[len(WORKDIR_PREFIX):].split("-", 1)[0]
        if owner.isdigit() and int(owner) != os.getpid() and not os.path.exists(f"/proc/{owner}"):
            shutil.rmtree(os.path.join(root, name), ignore_errors=True)


def _run_process(code, packed_inputs, limits, isolation, deadline, groups, kills_at_start, packages=None,
                 contract=None):
    """One interpreter over `packed_inputs`; returns what it reported and how it ended."""
    payload = frame(marshal.dumps({"code": code, "inputs": packed_inputs, "limits": limits.for_child(),
                                   "packages": packages, "contract": contract}))
    proc, workdir = _start(isolation, packages, groups, kills_at_start)
    try:
        return _watch(proc, payload, limits, deadline, len(packed_inputs))
    finally:
        _stop(proc, workdir, groups)


def _watch(proc, payload, limits, deadline, expected):
    """Feed the payload, read events, and kill the process if a test or the batch runs out of time.

    Tests run in order, so the one running is the one after the last reported; it started when that
    report arrived. An event that is not the runner's (malformed, out of order, or a result for more
    tests than were sent) means the code wrote into the result channel: the process is killed.
    """
    channel = _Channel(proc, payload, limits, expected)
    startup_allowance = 5.0  # a loaded machine can take seconds to start an interpreter
    while channel.selector.get_map() and not channel.finished and channel.killed_for is None:
        budget = limits.test_timeout + GRACE_S + (0 if channel.loaded else startup_allowance)
        limit_at = min(channel.last_event_at + budget, deadline)
        now = time.monotonic()
        if now >= limit_at:
            channel.killed_for = "deadline" if limit_at == deadline else "test"
            break
        channel.pump(limit_at - now)
    if channel.finished:  # collect what the code wrote straight to its descriptors before we kill it
        channel.drain_stderr()
    channel.selector.close()
    _kill_tree(proc)
    returncode = proc.wait()
    output = channel.raw_output.decode("utf-8", "replace")
    if output:  # raw fd output cannot be attributed to one test: show it on the first reported result
        target = channel.load_failure or (channel.done[0] if channel.done else None)
        if target is not None:
            target["output"] = cut_saying_so(target.get("output", "") + output, limits.output_chars * 2,
                                             channel.raw_dropped)
    crash = _crash_result(channel.killed_for, returncode, limits, time.monotonic() - channel.last_event_at, output,
                          channel.raw_dropped)
    return {"done": channel.done, "loaded": channel.loaded, "load_failure": channel.load_failure, "crash": crash,
            "forged": channel.killed_for == "garbage"}


class _Channel:
    """One sandboxed interpreter's pipes: the payload going in, the runner's events and raw output coming out."""

    def __init__(self, proc, payload, limits, expected):
        self.proc, self.payload, self.limits, self.expected = proc, payload, limits, expected
        self.selector = selectors.DefaultSelector()
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            os.set_blocking(stream.fileno(), False)
        self.selector.register(proc.stdin, selectors.EVENT_WRITE)
        self.selector.register(proc.stdout, selectors.EVENT_READ)
        self.selector.register(proc.stderr, selectors.EVENT_READ)
        self.sent, self.partial_line, self.raw_output, self.result_bytes = 0, b"", bytearray(), 0
        self.raw_dropped = 0  # raw output past limits.stream_bytes, counted for the note that says it was cut
        self.done, self.loaded, self.load_failure, self.finished, self.killed_for = [], False, None, False, None
        self.last_event_at = time.monotonic()

    def pump(self, timeout):
        """Write what the pipe takes and read what is there, waiting at most `timeout` seconds."""
        for key, _ in self.selector.select(timeout=timeout):
            if key.fileobj is self.proc.stdin:
                self._feed()
                continue
            chunk = os.read(key.fileobj.fileno(), 65536)
            if not chunk:
                self.selector.unregister(key.fileobj)
            elif key.fileobj is self.proc.stderr:
                self._keep_raw(chunk)
            else:
                self._take(chunk)
            if self.killed_for:
                break

    def _feed(self):
        try:
            self.sent += os.write(self.proc.stdin.fileno(), self.payload[self.sent:self.sent + 65536])
        except BrokenPipeError:
            self.sent = len(self.payload)
        if self.sent >= len(self.payload):
            self.selector.unregister(self.proc.stdin)
            self.proc.stdin.close()

    def _take(self, chunk):
        """Result-channel bytes: whole lines are events; anything that is not the runner's kills the process."""
        self.result_bytes += len(chunk)
        if self.result_bytes > self.limits.result_chars * 2 + 1_000_000:
            self.killed_for = "flood"
            return
        lines = (self.partial_line + chunk).split(b"\n")
        self.partial_line = lines.pop()
        for line in lines:
            try:
                event = json.loads(line)
                kind = event.pop("event")
                if kind == "done" and (event.pop("i") != len(self.done) or len(self.done) >= self.expected):
                    raise ValueError("out of order, or more results than tests")
                _check_fields(kind, event)
            except (ValueError, AttributeError, KeyError, TypeError, RecursionError):
                self.killed_for = "garbage"  # the code wrote into the result channel itself
                return
            self.last_event_at = time.monotonic()
            if kind == "loaded":
                self.loaded = True
            elif kind == "done":
                self.done.append(event)
            elif kind == "load_failed":
                self.load_failure, self.finished = {"ok": False, "value": None, "repr": "", "ms": 0.0, **event}, True
            elif kind == "finished":
                self.finished = True

    def _keep_raw(self, chunk):
        room = max(0, self.limits.stream_bytes - len(self.raw_output))
        self.raw_output += chunk[:room]
        self.raw_dropped += max(0, len(chunk) - room)

    def drain_stderr(self):
        try:
            self._keep_raw(os.read(self.proc.stderr.fileno(), 65536))
        except (BlockingIOError, ValueError, OSError):
            pass


def cut_saying_so(text, size, dropped=0):
    """`text` within `size` characters, a cut said at its end with how much is not shown, `dropped` (never
    kept) included: the words of sandbox_runner.cut, which mcp_schema.clip reads when it cuts again."""
    if len(text) <= size and not dropped:
        return text
    kept = min(len(text), size - 40)  # room for the note
    return text[:kept] + f"\n... [{len(text) - kept + dropped:,} more characters]"


RESULT_FIELDS = {"ok": bool, "repr": str, "timed_out": bool, "error_type": (str, type(None)), "message": str,
                 "traceback": str, "ms": (int, float), "output": str}


def _check_fields(kind, event):
    """A runner's result has every field, each of its type; anything else was written by the code."""
    if kind == "done" or kind == "load_failed":
        for name, kinds in RESULT_FIELDS.items():
            if name in ("ok", "repr", "ms") and kind == "load_failed":
                continue
            if not isinstance(event[name], kinds):
                raise TypeError(f"{name} has the wrong type")
    elif kind not in ("loaded", "finished"):
        raise ValueError(f"unknown event {kind!r}")


def _crash_result(killed_for, returncode, limits, seconds, output, dropped=0):
    ms = round(seconds * 1000, 3)
    if killed_for == "test":
        result = _failure("Timeout", f"run_code did not return within {limits.test_timeout} s "
                                     "(killed: it ignored the alarm)", timed_out=True, ms=ms)
    elif killed_for == "deadline":
        result = _failure("Timeout", f"the batch deadline of {limits.batch_timeout} s was reached",
                          timed_out=True, ms=ms)
    elif killed_for == "flood":
        result = _failure("OutputTooLarge", "the code flooded the result channel")
    elif killed_for == "garbage":
        result = _failure("Crashed", "the code wrote into the sandbox's result channel")
    elif returncode < 0:
        name = signal.Signals(-returncode).name
        hint = " (CPU time limit)" if name == "SIGXCPU" else ""
        result = _failure("Crashed", f"the interpreter was killed by {name}{hint}", ms=ms)
    else:
        result = _failure("Crashed", f"the interpreter exited with status {returncode} during this test", ms=ms)
    result["output"] = cut_saying_so(output, limits.output_chars, dropped) if output else ""
    return result


class SandboxProgram:
    """A sandboxed interpreter running `source`, talked to while it runs: send bytes to its stdin, read its
    stdout line by line with a timeout. Its stderr is drained (kept up to limits.stream_bytes) so it never
    blocks on a full pipe. The process is killed on close() and when codeloop dies."""

    def __init__(self, source, limits=Limits(), isolation=None, packages=None):
        self.limits = limits
        self.groups = _groups(None)
        self.proc, self.workdir = _start(isolation or best_isolation(), packages, self.groups, _kills_of(self.groups), source)
        self.lines, self.output = queue.Queue(), bytearray()
        threading.Thread(target=self._read_lines, daemon=True).start()
        threading.Thread(target=self._read_output, daemon=True).start()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        _stop(self.proc, self.workdir, self.groups)

    def send(self, data):
        try:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()
        except (BrokenPipeError, ValueError, OSError):
            pass  # the process is gone; the next read says so

    def line(self, timeout):
        """The next line (bytes), b"" once the process closed its stdout, or None after `timeout` seconds."""
        try:
            return self.lines.get(timeout=max(timeout, 0))
        except queue.Empty:
            return None

    def _read_lines(self):
        try:
            for line in iter(lambda: self.proc.stdout.readline(self.limits.result_chars * 2), b""):
                self.lines.put(line)
        except (ValueError, OSError):
            pass  # close() closed the pipe under us
        self.lines.put(b"")

    def _read_output(self):
        try:
            for chunk in iter(lambda: self.proc.stderr.read1(65536), b""):
                self.output += chunk[: max(0, self.limits.stream_bytes - len(self.output))]
        except (ValueError, OSError):
            pass


class RunCodeServer(SandboxProgram):
    """The runner in serve mode: one interpreter that loaded `code` and calls its run_code on demand.

        with RunCodeServer(code, limits, isolation) as solution:
            reply = solution.call(marshal.dumps((args, kwargs)))   # {"ok", "raw" (base64 marshal), ...}

    Calls go one at a time; each has limits.test_timeout, all of them limits.batch_timeout. After a call
    times out, the process dies or writes into the result channel, every later call fails at once: it is
    not restarted. The caller never unmarshals what comes back; it passes the base64 text on (to another
    sandbox: bench/hidden_tests.py).
    """

    def __init__(self, code, limits=Limits(), isolation=None, packages=None, contract=None):
        super().__init__(RUNNER_SOURCE, limits, isolation, packages)
        self.calls, self.broken = 0, None
        self.deadline = time.monotonic() + limits.batch_timeout
        self.send(frame(marshal.dumps({"code": code, "inputs": [], "limits": limits.for_child(),
                                       "packages": packages, "serve": True, "contract": contract})))

    def call(self, packed_call):
        if self.broken:
            return _failure("Crashed", self.broken)
        self.send(frame(packed_call))
        while True:
            startup = 5.0 if self.calls == 0 else 0.0  # a loaded machine can take seconds to start an interpreter
            line = self.line(min(self.limits.test_timeout + GRACE_S + startup, self.deadline - time.monotonic()))
            if line is None:
                return self._break(_failure("Timeout", f"run_code did not return within {self.limits.test_timeout} s",
                                            timed_out=True))
            event = self._event(line)
            if event is None:
                return self._break(_failure("Crashed", "the interpreter ended, or the code wrote into the result channel"))
            kind = event.pop("event")
            if kind == "load_failed":
                return self._break({"ok": False, "value": None, "repr": "", "ms": 0.0, **event})
            if kind == "done":
                self.calls += 1
                return event

    def _break(self, failure):
        self.broken = f"{failure['error_type']}: {failure['message']}"
        _kill_group(self.proc)
        return failure

    def _event(self, line):
        """The runner's event, or None for the end of output or anything the runner would not write."""
        try:
            event = json.loads(line)
            kind = event["event"]
            if kind == "done" and (event["i"] != self.calls or (event["ok"] and not isinstance(event["raw"], str))):
                raise ValueError("not the runner's")
            _check_fields(kind, {k: v for k, v in event.items() if k not in ("event", "i", "raw", "value")})
            if kind == "done" and event["ok"]:
                binascii.a2b_base64(event["raw"])
            return event
        except (ValueError, AttributeError, KeyError, TypeError, RecursionError, binascii.Error):
            return None


def kill_running_sandboxes():
    """Kill every sandbox this process has running (on Ctrl-C), so that no thread waits out a deadline.

    Batches that were running start no fresh interpreter for their remaining tests afterwards.
    """
    EVERY_SANDBOX.kill()


def _kill_group(proc):
    """SIGKILL the child's process group; with a pid namespace that takes every descendant with it."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _kill_tree(proc):
    """Kill the process group, close our ends of its pipes and reap it."""
    _kill_group(proc)
    for stream in (proc.stdin, proc.stdout, proc.stderr):
        if stream and not stream.closed:
            try:
                stream.close()
            except OSError:  # stdin still held bytes the dead process never read: closing flushes them, EPIPE
                pass
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        pass


if __name__ == "__main__":
    level = best_isolation()
    demo = run_batch("def run_code(nums, target):\n    seen = {}\n    for i, n in enumerate(nums):\n"
                     "        if target - n in seen:\n            return [seen[target - n], i]\n"
                     "        seen[n] = i\n", [{"nums": [2, 7, 11, 15], "target": 9}], isolation=level)
    print(f"isolation: {level}; two_sum([2,7,11,15], 9) -> {demo[0]['repr']} in {demo[0]['ms']} ms")
