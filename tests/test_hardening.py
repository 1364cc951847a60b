"""The probes of docs/security.md, as a user or an attacker runs them: main.py as a subprocess, hostile
answers from the stub server on 127.0.0.1, hostile programs through the real sandbox, and faults made
for real (a read-only folder, a tiny full tmpfs, a named pipe with no writer). Each test is one row of
that table; the unit tests of the modules involved cover the details."""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import pytest

from tests import scripted_answers as a
from tests.test_main import MAIN, ROOT, cli_env, codeloop
from tests.test_yaml_answer import alias_bomb

NO_ENDPOINT = {"OPENAI_BASE_URL": "http://127.0.0.1:9/v1"}
can_mount = pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("unshare"),
                               reason="making a read-only mount or a tiny tmpfs needs root (unshare -m)")


def one_line_error(result, code):
    assert result.returncode == code, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr, result.stderr


def in_mount_namespace(setup, command, env):
    """Run `command` (a shell line) after `setup` (mount commands) in a private mount namespace."""
    return subprocess.run(["unshare", "-m", "sh", "-c", f"{setup} && {command}"], env=env, capture_output=True,
                          text=True, timeout=120)


def test_an_alias_bomb_as_a_models_answer_is_unusable_and_asked_again(stub, tmp_path):
    stub.route("tests", alias_bomb())
    a.route_defaults(stub)
    started = time.monotonic()
    result = codeloop(a.TWO_SUM, "--out", str(tmp_path), "--model-tests", "first", stub=stub)
    assert result.returncode == 0 and time.monotonic() - started < 30, result.stderr
    assert "aliases (*name) are not accepted" in stub.requests[1]["messages"][-1]["content"]


def test_an_alias_bomb_as_a_tests_file_is_exit_2_at_once(stub, tmp_path):
    (tmp_path / "bomb.yaml").write_text("tests:\n" + alias_bomb().replace("test_cases:\n", ""))
    result = codeloop(a.TWO_SUM, "--tests", str(tmp_path / "bomb.yaml"), "--out", str(tmp_path / "out"), stub=stub)
    one_line_error(result, 2)
    assert "aliases (*name) are not accepted" in result.stderr and stub.requests == []


@pytest.mark.parametrize("body", [b"<html>502 Bad Gateway</html>", b'{"choices": 7}'], ids=["not_json", "wrong_shape"])
def test_an_endpoint_answering_200_with_no_completion_is_exit_3(stub, tmp_path, body):
    stub.add(*[{"body": body}] * 3)
    result = codeloop(a.TWO_SUM, "--out", str(tmp_path), "--model-tests", "first", stub=stub)
    assert result.returncode == 3 and "not a chat completion" in result.stderr and "Traceback" not in result.stderr


@can_mount
def test_a_read_only_output_folder_is_exit_2_with_one_line(stub, tmp_path):
    folder = tmp_path / "out"
    folder.mkdir()
    result = in_mount_namespace(f"mount --bind {folder} {folder} && mount -o remount,ro,bind {folder}",
                                f"{sys.executable} {MAIN} '{a.TWO_SUM}' --out {folder}", cli_env(stub))
    one_line_error(result, 2)
    assert f"cannot write to the output folder {folder}: Read-only file system" in result.stderr


@can_mount
def test_a_full_disk_is_one_line_exit_4_with_a_finalised_record_and_no_temporary_file(stub):
    stub.add(a.TESTS, a.BUGGY_CODE, a.BUGGY_CODE, a.REVISE_CODE, a.REVISE_CODE)
    disk = tempfile.mkdtemp(prefix="codeloop-full-")
    try:
        result = in_mount_namespace(
            f"mount -t tmpfs -o size=24k tmpfs {disk}",
            f"{sys.executable} {MAIN} '{a.TWO_SUM}' --samples 2 --out {disk}/run; echo exit=$?; ls -a {disk}/run; "
            f"echo ---; cat {disk}/run/run.json", cli_env(stub))
    finally:
        os.rmdir(disk)
    assert "exit=4" in result.stdout, result.stderr
    assert f"cannot write {disk}/run/run.json: No space left on device (ENOSPC)" in result.stderr
    assert "Traceback" not in result.stderr and ".tmp" not in result.stdout
    record = json.loads(result.stdout.split("---\n", 1)[1])
    assert record["status"] == "error" and record["finished_at"] and "No space left" in record["message"]


def test_standard_input_closed_is_exit_2(tmp_path):
    result = subprocess.run([sys.executable, MAIN, "-", "--out", str(tmp_path)], stdin=subprocess.DEVNULL,
                            capture_output=True, text=True, env=cli_env(**NO_ENDPOINT), cwd=ROOT, timeout=60,
                            preexec_fn=lambda: os.close(0))
    one_line_error(result, 2)
    assert "standard input is closed" in result.stderr


@pytest.mark.parametrize("flag", ["--problem-file", "--tests"])
def test_a_named_pipe_with_no_writer_is_empty_not_a_hang(tmp_path, flag):
    os.mkfifo(tmp_path / "pipe")
    args = [flag, str(tmp_path / "pipe")] + (["Two sum"] if flag == "--tests" else [])
    result = codeloop(*args, "--out", str(tmp_path / "out"), env=cli_env(**NO_ENDPOINT))
    one_line_error(result, 2)
    assert f"{tmp_path / 'pipe'} is empty" in result.stderr


def test_docs_pointing_at_a_device_are_refused_for_what_they_are(tmp_path):
    result = codeloop("Two sum", "--docs", "/dev/zero", "--out", str(tmp_path), env=cli_env(**NO_ENDPOINT))
    one_line_error(result, 2)
    assert "--docs /dev/zero is binary, not text" in result.stderr


def test_a_test_timeout_too_short_to_start_python_is_refused(tmp_path):
    result = codeloop("Two sum", "--test-timeout", "1e-9", "--out", str(tmp_path), env=cli_env(**NO_ENDPOINT))
    one_line_error(result, 2)
    assert "--test-timeout must be seconds from 0.1 to 600" in result.stderr


def eventually(condition, seconds=30):
    """Whether `condition()` comes to hold within `seconds`, asked every 50 ms: a busy machine (another job on
    its two cores) starts and ends processes later, and a fixed wait failed so in a suite beside a benchmark."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def sandboxes_of(pid):
    """Live processes whose environment says they are a sandbox started by process `pid` (HOME is its folder)."""
    found = []
    for other in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{other}/environ", "rb") as f:
                if f"codeloop-sandbox-{pid}-".encode() in f.read():
                    found.append(other)
        except OSError:
            pass
    return found


def test_kill_9_leaves_no_sandbox_process_and_the_next_run_removes_its_folders(stub, tmp_path):
    stub.add(a.TESTS, a.GOOD_CODE.replace("seen = {}", "while True: pass"))
    proc = subprocess.Popen([sys.executable, MAIN, a.TWO_SUM, "--samples", "1", "--no-oracle", "--test-timeout", "60",
                             "--out", str(tmp_path)], cwd=ROOT, env=cli_env(stub, CODELOOP_SANDBOX="process"),
                            stderr=subprocess.PIPE, text=True)
    seen = ""
    while "RunTests:" not in seen:
        line = proc.stderr.readline()
        assert line, f"codeloop ended before running the tests: {seen}"
        seen += line
    assert eventually(lambda: sandboxes_of(proc.pid)), "the sandbox is running the endless loop"
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    assert eventually(lambda: sandboxes_of(proc.pid) == []), "the sandbox died with codeloop"
    left = [name for name in os.listdir(tempfile.gettempdir()) if name.startswith(f"codeloop-sandbox-{proc.pid}-")]
    assert left, "a kill -9 leaves its working folders"
    from utils.sandbox import run_batch
    run_batch("def run_code():\n    return 1\n", [{}], isolation="process")
    assert not [name for name in os.listdir(tempfile.gettempdir()) if name.startswith(f"codeloop-sandbox-{proc.pid}-")]
