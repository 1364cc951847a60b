"""bench/replay_model.py: a recorded run's answers served again, over real HTTP, to the real client."""
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from utils.call_llm import ModelBackendError, ModelConfig, call_llm

ROOT = Path(__file__).resolve().parent.parent
ASKED = [{"role": "system", "content": "You write tests."}, {"role": "user", "content": "Write test cases for run_code"}]
TIMINGS = {"cache_n": 7, "prompt_n": 5, "predicted_n": 9}


def start_replay(tmp_path, *extra):
    """The replay server started the way the bench starts llama-server (its extra flags ignored), on two
    recorded answers to the same messages and one to other messages; stopped with SIGTERM."""
    run = tmp_path / "records" / "Problem_1"
    run.mkdir(parents=True)
    calls = [{"node": "GenerateTestCases", "messages": ASKED, "answer": "first", "finish_reason": "stop",
              "prompt_tokens": 12, "completion_tokens": 3, "prompt_cached": 7, "server_timings": TIMINGS},
             {"node": "GenerateTestCases", "messages": ASKED, "answer": "1, 1, 1", "finish_reason": "repetition",
              "prompt_tokens": 12, "completion_tokens": 40},
             {"node": "Revise", "messages": [{"role": "user", "content": "never asked"}], "answer": "x",
              "finish_reason": "stop", "prompt_tokens": 1, "completion_tokens": 1}]
    (run / "run.json").write_text(json.dumps({"model_calls": calls}))
    log = tmp_path / "replay.jsonl"
    proc = subprocess.Popen([sys.executable, str(ROOT / "bench" / "replay_model.py"), "--records", str(tmp_path / "records"),
                             "--log", str(log), *extra, "--model", "weights.gguf", "--parallel", "1", "--no-webui"],
                            stdout=subprocess.PIPE, text=True)
    url = proc.stdout.readline().split(" on ")[-1].strip()  # printed once it listens
    return url, proc, log


@pytest.fixture
def replay(tmp_path):
    url, proc, log = start_replay(tmp_path)
    try:
        yield url, proc, log
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()


def config(url):
    return ModelConfig(model="m", base_url=f"{url}/v1", max_retries=0, timeout_s=10, deadline_s=20)


def test_recorded_answers_come_back_in_order_with_their_counts_then_a_miss_is_refused(replay):
    url, proc, log = replay
    with urllib.request.urlopen(f"{url}/health", timeout=5) as health:
        assert health.status == 200
    first = call_llm(ASKED, config(url))
    assert (first.text, first.finish_reason, first.prompt_tokens, first.completion_tokens) == ("first", "stop", 12, 3)
    assert first.server_timings == TIMINGS and first.cached_tokens == 7
    second = call_llm(ASKED, config(url))
    assert (second.text, second.finish_reason, second.completion_tokens) == ("1, 1, 1", "repetition", 40)
    with pytest.raises(ModelBackendError):
        call_llm(ASKED, config(url))  # asked a third time: nothing recorded is left for it

    proc.send_signal(signal.SIGTERM)
    summary = json.loads(proc.stdout.read().strip().splitlines()[-1])
    assert proc.wait(timeout=10) == 0
    assert summary == {"summary": True, "recorded": 3, "hits": 2, "misses": 1, "forwarded": 0, "left_unasked": {"Problem_1": 1}}
    entries = [json.loads(line) for line in log.read_text().splitlines()]
    assert [entry.get("hit") for entry in entries[:3]] == [True, True, False]
    assert entries[2]["asked"] == "Write test cases for run_code" and entries[-1] == summary


def test_with_an_upstream_a_request_no_run_recorded_is_answered_by_the_real_server_which_stops_with_it(tmp_path):
    upstream = f"{sys.executable} {ROOT / 'tests' / 'stub_openai_server.py'} --answer fresh"
    url, proc, log = start_replay(tmp_path, "--upstream", upstream)
    try:
        upstream_pid = int(proc.stdout.readline().rsplit("pid ", 1)[-1].rstrip(")\n"))
        assert call_llm(ASKED, config(url)).text == "first"  # recorded: the record answers
        fresh = call_llm([{"role": "user", "content": "asked only by the new side"}], config(url))
        assert (fresh.text, fresh.finish_reason) == ("fresh", "stop")  # relayed from the upstream server
    finally:
        proc.send_signal(signal.SIGTERM)
        summary = json.loads(proc.stdout.read().strip().splitlines()[-1])
        proc.wait(timeout=20)
    assert summary["hits"] == 1 and summary["misses"] == 1 and summary["forwarded"] == 1
    entries = [json.loads(line) for line in log.read_text().splitlines()]
    assert entries[1]["forwarded"] is True and entries[1]["asked"] == "asked only by the new side"
    with pytest.raises(ProcessLookupError):
        os.kill(upstream_pid, 0)  # the upstream server was stopped (and reaped) with the replay


def gone(pid):
    """The process has exited (a zombie waiting for a reaper counts: it runs nothing)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except (FileNotFoundError, ProcessLookupError):
        return True


def test_the_upstream_server_dies_with_the_replay_even_by_kill_9(tmp_path):
    upstream = f"{sys.executable} {ROOT / 'tests' / 'stub_openai_server.py'}"
    url, proc, log = start_replay(tmp_path, "--upstream", upstream)
    upstream_pid = int(proc.stdout.readline().rsplit("pid ", 1)[-1].rstrip(")\n"))
    assert not gone(upstream_pid)
    proc.kill()
    proc.wait()
    deadline = time.monotonic() + 20
    while not gone(upstream_pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    died = gone(upstream_pid)
    if not died:
        os.kill(upstream_pid, signal.SIGKILL)  # leave nothing behind when the test fails
    assert died
