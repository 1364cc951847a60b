"""utils/sandbox.py: hostile run_code bodies against every isolation level this machine has.

Each threat from shared/notes/sandbox.md gets a test. Where a level cannot block a threat (no pid
namespace in `process` mode, say) the test is limited to the levels that claim to, matching README's
security model table.
"""
import os
import shutil
import socket
import tempfile
import textwrap
import time
import uuid

import pytest

from tests.processes import processes_mentioning
from utils.sandbox import ISOLATION_LEVELS, Limits, best_isolation, isolation_works, run_batch

AVAILABLE = [level for level in ISOLATION_LEVELS if isolation_works(level)]
WITH_NAMESPACES = [level for level in AVAILABLE if level in ("bwrap", "unshare")]
FAST = Limits(test_timeout=0.5, batch_timeout=10)
as_root = pytest.mark.skipif(os.geteuid() != 0, reason="the uid drop only happens when codeloop runs as root")


def code(body):
    return textwrap.dedent(body)


@pytest.fixture(params=AVAILABLE)
def isolation(request):
    return request.param


def test_the_strongest_available_isolation_is_chosen():
    assert best_isolation() == AVAILABLE[0]


def test_ci_machine_has_bubblewrap():
    if os.environ.get("CI"):
        assert "bwrap" in AVAILABLE, ".ci/run installs bubblewrap; the sandbox must use it"


def test_values_come_back_as_plain_data(isolation):
    results = run_batch(code("""
        def run_code(a, b):
            return (a + b, {a, b}, {"sum": a + b}, None, 0.5)
    """), [{"a": 2, "b": 1}], FAST, isolation)
    assert results[0]["ok"] and results[0]["value"] == [3, [1, 2], {"sum": 3}, None, 0.5]
    assert results[0]["repr"] == "(3, {1, 2}, {'sum': 3}, None, 0.5)"


def test_an_exception_reports_type_message_and_the_offending_line(isolation):
    result = run_batch(code("""
        def run_code(nums):
            total = 0
            return nums[10]
    """), [{"nums": [1]}], FAST, isolation)[0]
    assert not result["ok"] and result["error_type"] == "IndexError"
    assert result["message"] == "list index out of range"
    assert 'File "solution.py", line 4' in result["traceback"] and "return nums[10]" in result["traceback"]


def test_a_long_message_and_traceback_are_cut_to_their_sizes_saying_how_much_is_left_out():
    result = run_batch("def run_code(n):\n    raise ValueError('y' * n)\n", [{"n": 5000}], FAST, best_isolation())[0]
    limits = Limits()
    for field, size in (("message", limits.message_chars), ("traceback", 2 * limits.message_chars)):
        shown, note = result[field].rsplit("\n... [", 1)  # a cut is said, never silent (the CLI's --json shows both)
        assert len(result[field]) <= size and note.endswith(" more characters]"), (field, result[field][-80:])
    shown, note = result["message"].rsplit("\n... [", 1)
    assert len(shown) + int(note.split()[0].replace(",", "")) == 5000, "the note counts what is left out"


def test_a_syntax_error_fails_every_test_with_its_line(isolation):
    results = run_batch("def run_code(x):\n    return x +\n", [{"x": 1}, {"x": 2}], FAST, isolation)
    assert [r["error_type"] for r in results] == ["SyntaxError", "SyntaxError"]
    assert "line 2" in results[0]["traceback"]


def test_missing_run_code_is_reported(isolation):
    result = run_batch("def solve(x):\n    return x\n", [{"x": 1}], FAST, isolation)[0]
    assert result["error_type"] == "NameError" and "run_code" in result["message"]


def test_a_value_that_is_not_plain_data_is_an_error(isolation):
    result = run_batch("def run_code():\n    return object()\n", [{}], FAST, isolation)[0]
    assert not result["ok"] and result["error_type"] == "TypeError" and "object" in result["message"]


def test_an_infinite_loop_times_out_and_later_tests_still_run(isolation):
    results = run_batch(code("""
        def run_code(n):
            while n == 1:
                pass
            return n
    """), [{"n": 1}, {"n": 2}], FAST, isolation)
    assert results[0]["timed_out"] and results[0]["error_type"] == "Timeout"
    assert results[1]["ok"] and results[1]["value"] == 2


def test_a_loop_that_ignores_the_alarm_is_killed_by_the_watchdog(isolation):
    started = time.monotonic()
    results = run_batch(code("""
        import signal
        def run_code(n):
            if n == 1:
                signal.signal(signal.SIGALRM, signal.SIG_IGN)
                while True:
                    pass
            return n
    """), [{"n": 1}, {"n": 2}], FAST, isolation)
    assert results[0]["timed_out"] and "ignored the alarm" in results[0]["message"]
    assert results[1]["ok"] and results[1]["value"] == 2
    assert time.monotonic() - started < 5


def test_module_level_code_that_never_finishes_times_out_every_test(isolation):
    results = run_batch("while True:\n    pass\ndef run_code():\n    return 1\n", [{}, {}], FAST, isolation)
    assert all(r["timed_out"] for r in results)


def test_the_batch_deadline_stops_a_batch_of_slow_tests(isolation):
    limits = Limits(test_timeout=0.4, batch_timeout=1.0)
    started = time.monotonic()
    results = run_batch("import time\ndef run_code():\n    time.sleep(0.3)\n    return 1\n", [{}] * 10, limits, isolation)
    assert time.monotonic() - started < 3
    assert any(r["ok"] for r in results) and results[-1]["timed_out"]


def test_a_huge_allocation_raises_memory_error(isolation):
    result = run_batch("def run_code():\n    return len(bytearray(8 * 1024**3))\n", [{}], FAST, isolation)[0]
    assert result["error_type"] == "MemoryError"


def test_a_crash_of_the_interpreter_is_reported_and_the_rest_continue(isolation):
    results = run_batch("import os\ndef run_code(n):\n    if n == 1:\n        os._exit(7)\n    return n\n",
                        [{"n": 1}, {"n": 2}], FAST, isolation)
    assert results[0]["error_type"] == "Crashed" and "status 7" in results[0]["message"]
    assert results[1]["value"] == 2


def test_a_large_file_write_is_refused(isolation):
    result = run_batch(code("""
        def run_code():
            with open("big", "wb") as f:
                f.write(b"x" * (64 * 1024 * 1024))
            return "written"
    """), [{}], FAST, isolation)[0]
    assert not result["ok"] and result["error_type"] in ("OSError", "MemoryError")


def test_open_files_are_limited(isolation):
    result = run_batch("def run_code():\n    return [open('/dev/null') for _ in range(500)] and 'opened'\n",
                       [{}], FAST, isolation)[0]
    assert result["error_type"] == "OSError" and "Too many open files" in result["message"]


@as_root
def test_a_fork_bomb_is_capped(isolation):
    result = run_batch(code("""
        import os, time
        def run_code(n):
            made = 0
            for _ in range(n):
                try:
                    pid = os.fork()
                except OSError:
                    break
                if pid == 0:
                    time.sleep(20)
                    os._exit(0)
                made += 1
            return made
    """), [{"n": 300}], Limits(test_timeout=3, batch_timeout=10), isolation)[0]
    assert result["ok"] and result["value"] < Limits().processes


@pytest.mark.parametrize("isolation", WITH_NAMESPACES)
def test_a_setsid_child_does_not_outlive_the_batch(isolation):
    marker = f"codeloop-orphan-{uuid.uuid4().hex}"
    run_batch(code(f"""
        import os, subprocess
        def run_code():
            subprocess.Popen(["/usr/bin/python3", "-c", "import time; time.sleep(30)", "{marker}"],
                             start_new_session=True)
            return "spawned"
    """), [{}], FAST, isolation)
    time.sleep(0.2)
    assert processes_mentioning(marker) == []


@as_root
def test_writing_outside_the_sandbox_is_denied(isolation, tmp_path):
    target = tmp_path / "escaped.txt"
    result = run_batch(f"def run_code():\n    open({str(target)!r}, 'w').write('x')\n    return 'wrote'\n",
                       [{}], FAST, isolation)[0]
    assert not result["ok"] and not target.exists()


def test_the_working_directory_is_writable_and_private(isolation):
    result = run_batch("import os\ndef run_code():\n    open('scratch.txt', 'w').write('ok')\n"
                       "    return sorted(os.listdir('.'))\n", [{}], FAST, isolation)[0]
    assert result["value"] == ["scratch.txt"]


@pytest.mark.parametrize("isolation", WITH_NAMESPACES)
def test_loopback_network_is_unreachable(isolation):
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    port = server.getsockname()[1]
    try:
        result = run_batch(code(f"""
            import socket
            def run_code():
                socket.create_connection(("127.0.0.1", {port}), timeout=0.3)
                return "connected"
        """), [{}], FAST, isolation)[0]
    finally:
        server.close()
    assert not result["ok"] and result["error_type"] in ("ConnectionRefusedError", "OSError", "TimeoutError")


def test_the_environment_is_scrubbed(isolation, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-codeloop-test-secret")
    result = run_batch("import os\ndef run_code():\n    return dict(os.environ)\n", [{}], FAST, isolation)[0]
    assert "OPENAI_API_KEY" not in result["value"] and "sk-codeloop" not in result["repr"]
    assert set(result["value"]) <= {"PATH", "LANG", "HOME", "PYTHONDONTWRITEBYTECODE", "LC_CTYPE", "PWD"}


@as_root
def test_the_parents_environ_is_unreadable(isolation, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-codeloop-test-secret")
    result = run_batch("def run_code(pid):\n    return open(f'/proc/{pid}/environ', 'rb').read().decode('latin-1')\n",
                       [{"pid": os.getpid()}], FAST, isolation)[0]
    assert not result["ok"] and result["error_type"] in ("PermissionError", "FileNotFoundError")


@as_root
def test_the_parent_cannot_be_signalled(isolation):
    result = run_batch("import os\ndef run_code(pid):\n    os.kill(pid, 0)\n    return 'could signal'\n",
                       [{"pid": os.getpid()}], FAST, isolation)[0]
    assert not result["ok"] and result["error_type"] in ("PermissionError", "ProcessLookupError")


def test_a_flood_of_prints_is_capped_per_test(isolation):
    started = time.monotonic()
    result = run_batch("def run_code():\n    for _ in range(200):\n        print('x' * 1_000_000)\n    return 1\n",
                       [{}], Limits(test_timeout=5), isolation)[0]
    assert result["ok"] and result["value"] == 1
    assert len(result["output"]) <= Limits().output_chars and "characters dropped" in result["output"]
    shown, note = result["output"].rsplit("\n... [", 1)
    assert len(shown) + int(note.split()[0].replace(",", "")) == 200 * 1_000_001, "the note counts all that was printed"
    assert time.monotonic() - started < 5


def test_raw_writes_to_stdout_and_stderr_are_captured_not_mixed_into_results(isolation):
    started = time.monotonic()
    results = run_batch(code("""
        import os
        def run_code(n):
            os.write(1, b"not json\\n" * 1000)
            os.write(2, b"y" * 50_000_000)
            return n
    """), [{"n": 1}, {"n": 2}], Limits(test_timeout=5), isolation)
    assert time.monotonic() - started < 10
    assert [r["value"] for r in results] == [1, 2]
    assert "not json" in results[0]["output"] and len(results[0]["output"]) < 20_000


def test_raw_writes_past_what_is_kept_are_cut_saying_how_much_is_left_out():
    results = run_batch("import os\ndef run_code(n):\n    os.write(1, b'z' * n)\n    return n\n",
                        [{"n": 100_000}, {"n": 100_000}], Limits(test_timeout=5), best_isolation())
    shown, note = results[0]["output"].rsplit("\n... [", 1)  # on the first test, which cannot be told apart
    assert len(results[0]["output"]) <= 2 * Limits().output_chars and set(shown) == {"z"}
    assert len(shown) + int(note.split()[0].replace(",", "")) == 200_000, "what was never kept is counted too"


def test_junk_on_every_inherited_descriptor_costs_the_test_not_the_run(isolation):
    # The runner's result descriptor is reachable by number, so hostile code can garble it: that must
    # fail the test with a clear error, never hang or crash the parent.
    started = time.monotonic()
    results = run_batch(code("""
        import os
        def run_code(n):
            for fd in range(0, 20):
                try:
                    os.write(fd, b"junk that is not json\\n" * 1000)
                except OSError:
                    pass
            return n
    """), [{"n": 1}, {"n": 2}], Limits(test_timeout=5), isolation)
    assert time.monotonic() - started < 10
    assert [r["error_type"] for r in results] == ["Crashed", "Crashed"]
    assert "result channel" in results[0]["message"]


DONE = ('{"event": "done", "i": %d, "ok": true, "value": 1, "repr": "1", "timed_out": false, "error_type": null, '
        '"message": "", "traceback": "", "ms": 0.0, "output": ""}')


@pytest.mark.parametrize("forged", [
    pytest.param("\n".join([DONE % 0, DONE % 1, DONE % 2, '{"event": "finished"}']), id="more_results_than_tests"),
    pytest.param('{"event": "done", "i": 0}', id="a_result_without_its_fields"),
    pytest.param('{"event": "verdict", "passed": true}', id="an_event_the_runner_never_writes"),
    pytest.param("[" * 100_000, id="nested_too_deep_to_read"),
])
def test_results_written_by_the_code_itself_fail_the_test_and_never_crash_codeloop(isolation, forged):
    results = run_batch(code(f"""
        import os
        def run_code(n):
            for fd in range(3, 20):
                try:
                    os.write(fd, {(forged + chr(10)).encode()!r})
                except OSError:
                    pass
            os._exit(0)
    """), [{"n": 1}], Limits(test_timeout=5), isolation)
    assert len(results) == 1 and results[0]["ok"] is False and results[0]["error_type"] == "Crashed"


def test_mutating_an_input_cannot_change_the_stored_test(isolation):
    stored = {"nums": [3, 1, 2]}
    results = run_batch("def run_code(nums):\n    nums.sort()\n    nums.append(99)\n    return nums\n",
                        [stored, stored], FAST, isolation)
    assert stored == {"nums": [3, 1, 2]}
    assert results[0]["value"] == results[1]["value"] == [1, 2, 3, 99]


def test_each_result_carries_its_timing(isolation):
    result = run_batch("import time\ndef run_code():\n    time.sleep(0.05)\n    return 1\n", [{}], FAST, isolation)[0]
    assert 40 <= result["ms"] < 400


def test_killing_running_sandboxes_ends_a_batch_and_restarts_nothing(isolation):
    import threading

    from utils.sandbox import kill_running_sandboxes
    outcome = {}
    worker = threading.Thread(target=lambda: outcome.update(results=run_batch(
        "def run_code():\n    while True:\n        pass\n", [{}] * 3, Limits(test_timeout=30, batch_timeout=60), isolation)))
    started = time.monotonic()
    worker.start()
    time.sleep(0.5)
    kill_running_sandboxes()
    worker.join(timeout=10)
    assert not worker.is_alive() and time.monotonic() - started < 5
    assert outcome["results"][0]["error_type"] == "Crashed"
    assert [r["error_type"] for r in outcome["results"][1:]] == ["Interrupted", "Interrupted"]


@pytest.fixture
def packages_folder():
    """A folder of 'installed packages' the sandbox user can read: one module and a .pth file."""
    folder = tempfile.mkdtemp(prefix="codeloop-test-sandbox-packages-")
    os.chmod(folder, 0o755)
    with open(os.path.join(folder, "codeloop_demo_pkg.py"), "w") as f:
        f.write("def double(x):\n    return 2 * x\n")
    with open(os.path.join(folder, "codeloop_hook.pth"), "w") as f:
        f.write("import sys; sys.codeloop_pth_ran = True\n")
    for name in os.listdir(folder):
        os.chmod(os.path.join(folder, name), 0o644)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


USES_DEMO = "import codeloop_demo_pkg\ndef run_code(x):\n    return codeloop_demo_pkg.double(x)\n"


def test_a_module_outside_the_standard_library_is_not_importable_without_packages(isolation, packages_folder):
    result = run_batch(USES_DEMO, [{"x": 2}], FAST, isolation)[0]
    assert result["error_type"] == "ModuleNotFoundError" and "codeloop_demo_pkg" in result["message"]


def test_the_packages_folder_is_importable_and_its_pth_files_are_not_run(isolation, packages_folder):
    result = run_batch(USES_DEMO, [{"x": 2}], FAST, isolation, packages=packages_folder)[0]
    assert result["ok"] and result["value"] == 4
    result = run_batch("import sys\ndef run_code():\n    return hasattr(sys, 'codeloop_pth_ran')\n",
                       [{}], FAST, isolation, packages=packages_folder)[0]
    assert result["ok"] and result["value"] is False


def test_closing_a_program_that_died_with_unread_bytes_on_its_stdin_does_not_raise(isolation):
    # bench.pass_at_k died of this: a hidden-test server whose interpreter had exited, our end of its stdin
    # still holding what send() could not flush, and close() flushing it into the broken pipe
    from utils.sandbox import SandboxProgram
    program = SandboxProgram("import sys\nsys.exit(0)\n", Limits(), isolation)
    program.proc.wait(timeout=30)
    program.send(b"x" * 100)  # buffered by our end; the flush fails quietly
    assert program.proc.stdin.closed is False, "the bytes wait in the buffer, as they did in the benchmark"
    program.close()  # flushes them into a pipe nobody reads: EPIPE, which close() takes
    assert program.proc.returncode is not None


STDIO = {"family": "stdio", "trees": [], "lists": [], "returns": "", "design_class": "", "in_place": "",
         "return_too": False}
TWO_INPUTS = [{"stdin": "3\n1 2 3\n"}, {"stdin": "2\n5 5\n"}]


@pytest.mark.parametrize("program", [
    "n = int(input())\nprint(sum(map(int, input().split())))\n",
    "import sys\ndata = sys.stdin.buffer.read().split()\nsys.stdout.buffer.write(b'%d\\n' % sum(map(int, data[1:])))\n",
    "data = open(0).read().split()\nprint(sum(map(int, data[1:])))\n",
    "import sys\ndef main():\n    sys.stdin.readline()\n    print(sum(map(int, sys.stdin.readline().split())))\n"
    "if __name__ == '__main__':\n    main()\n    sys.exit(0)\n",
], ids=["input", "buffer", "open-0", "main-and-exit-0"])
def test_a_stdio_program_reads_each_tests_input_however_it_reads_and_what_it_prints_is_the_value(program, isolation):
    results = run_batch(program, TWO_INPUTS * 3, FAST, isolation, contract=STDIO)
    assert [r["value"].strip() for r in results] == ["6", "10"] * 3, results[0]


@pytest.mark.parametrize("program, error_type, words", [
    ("input()\ninput()\ninput()\n", "EOFError", "EOF"),
    ("while True:\n    print('x' * 1000)\n", "PrintedTooMuch", "printed more than"),
    ("while True:\n    pass\n", "Timeout", "the program did not finish"),
    ("import sys\nsys.exit(3)\n", "RuntimeError", "exited with status 3"),
], ids=["reads-past-the-end", "prints-megabytes", "never-ends", "exit-status"])
def test_a_stdio_program_that_misbehaves_ends_its_test_with_a_named_error_in_bounded_time(program, error_type, words):
    started = time.monotonic()
    results = run_batch(program, TWO_INPUTS, FAST, contract=STDIO)
    assert [r["error_type"] for r in results] == [error_type] * 2
    assert words in results[0]["message"]
    assert time.monotonic() - started < FAST.batch_timeout + 5
