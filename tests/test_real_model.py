"""The whole product on the embedded model: main.py with no endpoint configured, as a new user runs it.

Slow (a minute or two on 2 cores). Run alone:  python -m pytest -m real_model
"""
import json
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlparse

import pytest

from tests.processes import ctrl_c_as_at_a_terminal
from utils.yaml_answer import parse_tests_answer

pytestmark = pytest.mark.real_model
ROOT = Path(__file__).resolve().parent.parent
SMALL_PROBLEM = """Given a list of integers nums, return the sum of its even numbers.

Example 1:
Input: nums = [1, 2, 3, 4]
Output: 6

Example 2:
Input: nums = []
Output: 0
"""


def no_endpoint_env():
    return {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "CODELOOP_MODEL"))}


def still_listening(record):
    """Whether anything still accepts connections at the embedded server's address in the run record: the
    test follows the server its own run started (by its port), not every llama-server on the machine."""
    address = urlparse(record["settings"]["model"]["base_url"])
    with socket.socket() as probe:
        probe.settimeout(2)
        return probe.connect_ex((address.hostname, address.port)) == 0


def test_the_embedded_model_drives_the_whole_loop(tmp_path):
    # Whether a 1.5B model solves even this is the benchmark's question (its tests are often wrong);
    # this test proves the path: real answers, parsed, run, judged, recorded, exported, server stopped.
    result = subprocess.run([sys.executable, "main.py", SMALL_PROBLEM, "--out", str(tmp_path), "--max-iterations", "2"],
                            cwd=ROOT, env=no_endpoint_env(), capture_output=True, text=True, timeout=900)
    assert result.returncode in (0, 1), result.stderr
    record = json.loads((tmp_path / "run.json").read_text())
    assert record["status"] in (("solved",) if result.returncode == 0 else ("unsolved", "unconfirmed"))
    assert record["settings"]["model"]["embedded"] and record["settings"]["model"]["base_url"].startswith("http://127.0.0.1:")
    calls = record["model_calls"]
    assert all(call["completion_tokens"] > 0 for call in calls), "every answer is the model's"
    # llama-server sends its own timings at the end of a stream: an answer the client closed has none, every
    # other answer has them. The client closes a code answer once its fenced block is complete
    # (utils/runaway.watch_code), and a test list once it holds the tests asked for (watch_tests: the model,
    # asked for three, often goes on), keeping whole items only
    def closed_by_the_client(call):
        if call["node"] == "GenerateTestCases":  # what was kept reads as a whole list of tests
            return bool(parse_tests_answer(call["answer"], max_tests=8)["test_cases"])
        return call["answer"].rstrip().endswith("```")
    assert all(call["server_timings"] or closed_by_the_client(call) for call in calls)
    assert any(call["server_timings"] for call in calls)
    runs = [event for event in record["events"] if event["kind"] == "test_run"]
    assert runs and runs[-1]["total"] >= 1 and record["final"]["tests_passed"] == runs[-1]["passed"]
    # The exported file holds the tests the verdict counted (not the disputed or unchecked ones tests_total
    # also holds): it passes exactly when the handed-over code passed them all, which an unsolved run can too
    # (unconfirmed: only the statement's examples back it; or the oracle handed over, passing every example
    # where no candidate did). On the 58 bench runs of 2026-11-26 this predicts the exported file's exit every
    # time; tests_passed == tests_total did not on 13 of them.
    exported = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_solution.py"],
                              cwd=tmp_path, capture_output=True, text=True)
    passed_all = all(outcome["passed"] for outcome in record["final"]["test_results"]
                     if outcome.get("counted", True) and not outcome.get("unjudged"))
    assert exported.returncode == (0 if passed_all else 1), exported.stdout
    assert result.returncode == 1 or passed_all, "a solved run passes every test it counted"
    assert not still_listening(record), "the embedded server outlived the run"


def test_ctrl_c_stops_the_embedded_server(tmp_path):
    proc = subprocess.Popen([sys.executable, "main.py", SMALL_PROBLEM, "--out", str(tmp_path)], cwd=ROOT,
                            env=no_endpoint_env(), stderr=subprocess.PIPE, text=True,
                            preexec_fn=ctrl_c_as_at_a_terminal)
    seen = ""
    while "GenerateTestCases:" not in seen:
        line = proc.stderr.readline()
        assert line, f"main.py ended early: {seen}"
        seen += line
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=30) == 130
    record = json.loads((tmp_path / "run.json").read_text())
    assert record["status"] == "interrupted"
    assert not still_listening(record), "the embedded server outlived the interrupted run"


def test_a_model_server_killed_mid_run_ends_the_run_in_one_line_naming_it_exit_3_record_written(tmp_path):
    proc = subprocess.Popen([sys.executable, "main.py", "--problem-file", "examples/two_sum.md", "--out", str(tmp_path)],
                            cwd=ROOT, env=no_endpoint_env(), stderr=subprocess.PIPE, text=True)
    seen, pid = "", None
    while True:
        line = proc.stderr.readline()
        assert line, f"main.py ended early: {seen}"
        seen += line
        if "embedded model ready" in line:
            pid = int(line.split(" pid ")[1].split(")")[0].split(",")[0])
        if pid and line.startswith("  writing:"):  # the model is answering: kill the server under the call
            os.kill(pid, signal.SIGKILL)
            break
    rest = proc.stderr.read()
    assert proc.wait(timeout=120) == 3, seen + rest
    ending = [line for line in rest.splitlines() if line.startswith("the model failed:")]
    assert len(ending) == 1 and "stopped in the middle of the run (killed by SIGKILL)" in ending[0], rest
    assert f"pid {pid}," in ending[0] and "Traceback" not in rest, rest
    record = json.loads((tmp_path / "run.json").read_text())
    assert record["status"] == "model_failed" and "stopped in the middle of the run" in record["message"]
