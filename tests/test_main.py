"""main.py as a user runs it: a subprocess, real HTTP to a stub server on 127.0.0.1, the real sandbox."""
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests import scripted_answers as a
from tests.processes import ctrl_c_as_at_a_terminal
from tests.stub_openai_server import request_kind

ROOT = Path(__file__).resolve().parent.parent
MAIN = str(ROOT / "main.py")
SECRET = "sk-codeloop-e2e-secret-0123456789"


def cli_env(stub=None, **extra):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "CODELOOP_"))}
    if stub:
        env.update(OPENAI_BASE_URL=stub.base_url, OPENAI_API_KEY=SECRET)
    env.update(extra)
    return env


def codeloop(*args, stub=None, stdin=None, cwd=ROOT, env=None):
    return subprocess.run([sys.executable, MAIN, *args], input=stdin, capture_output=True, text=True,
                          cwd=cwd, env=env or cli_env(stub), timeout=120)


def test_solved_run_writes_three_files_and_exits_0(stub, tmp_path):
    stub.add(a.TESTS_WITH_A_WRONG_ONE, a.BUGGY_CODE, a.REVISE_BOTH)
    out = tmp_path / "two_sum"
    result = codeloop("--problem-file", str(ROOT / "examples" / "two_sum.md"), "--out", str(out), *a.MODEL_TESTS_FLAGS, stub=stub)
    assert result.returncode == 0, result.stderr
    assert "iteration 1/5: 1/3 tests pass" in result.stderr and "iteration 2/5: 3/3 tests pass" in result.stderr
    assert "solved: all 3 tests pass" in result.stderr
    assert sorted(p.name for p in out.iterdir()) == ["run.html", "run.json", "solution.py", "test_solution.py"]
    record = json.loads((out / "run.json").read_text())
    assert record["status"] == "solved" and record["final"]["tests_passed"] == 3
    assert record["settings"]["model"]["base_url"] == stub.base_url
    for path in out.iterdir():
        assert SECRET not in path.read_text(), f"the API key leaked into {path.name}"
    exported = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_solution.py"],
                              cwd=out, capture_output=True, text=True)
    assert exported.returncode == 0 and "3 passed" in exported.stdout, exported.stdout


def test_unsolved_run_exits_1_and_still_writes_its_files(stub, tmp_path):
    stub.add(a.TESTS, a.BUGGY_CODE, a.REVISE_USELESS)
    result = codeloop(a.TWO_SUM, "--out", str(tmp_path), "--max-iterations", "2", *a.MODEL_TESTS_FLAGS, stub=stub)
    assert result.returncode == 1, result.stderr
    assert "not solved" in result.stderr
    assert (tmp_path / "solution.py").exists() and json.loads((tmp_path / "run.json").read_text())["status"] == "unsolved"


def test_model_failure_exits_3_with_one_line_and_no_traceback(stub, tmp_path):
    stub.add(*[a.GARBAGE] * 3)
    result = codeloop("Return the indices of the two numbers in nums that add up to target.", "--out", str(tmp_path),
                      stub=stub)
    assert result.returncode == 3
    assert "Traceback" not in result.stderr
    assert "the model failed: the model gave no usable answer in 3 attempts" in result.stderr
    assert json.loads((tmp_path / "run.json").read_text())["status"] == "model_failed"


def test_unreachable_endpoint_exits_3(tmp_path):
    result = codeloop(a.TWO_SUM, "--out", str(tmp_path), env=cli_env(OPENAI_BASE_URL="http://127.0.0.1:9/v1"))
    assert result.returncode == 3 and "cannot connect to the model endpoint" in result.stderr
    assert "Traceback" not in result.stderr


def test_problem_from_stdin_and_json_output(stub, tmp_path):
    stub.add(a.TESTS, a.GOOD_CODE)
    result = codeloop("-", "--json", "--out", str(tmp_path), *a.MODEL_TESTS_FLAGS, stub=stub, stdin=a.TWO_SUM)
    assert result.returncode == 0 and result.stderr == ""
    final = json.loads(result.stdout)
    assert final["status"] == "solved" and final["exit_code"] == 0 and final["tests_passed"] == 3
    assert final["function_code"].startswith("def run_code") and final["usage"]["model_calls"] == 2
    assert stub.requests[0]["messages"][0]["content"].rstrip().endswith(a.TWO_SUM.strip()[-40:])


def test_default_output_folder_is_under_runs(stub, tmp_path):
    stub.add(a.TESTS, a.GOOD_CODE)
    result = codeloop("Two sum: return indices of two numbers adding to target.", *a.MODEL_TESTS_FLAGS, stub=stub, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    (folder,) = (tmp_path / "runs").iterdir()
    assert folder.name.endswith("-two-sum-return-indices-of") and (folder / "solution.py").exists()


def test_model_and_base_url_flags_override_the_environment(stub, tmp_path):
    stub.add(a.TESTS, a.GOOD_CODE)
    env = cli_env(OPENAI_BASE_URL="http://127.0.0.1:9/v1", CODELOOP_MODEL="from-env")
    result = codeloop(a.TWO_SUM, "--out", str(tmp_path), "--base-url", stub.base_url, "--model", "from-flag",
                      *a.MODEL_TESTS_FLAGS, env=env)
    assert result.returncode == 0, result.stderr
    assert stub.requests[0]["model"] == "from-flag"


@pytest.mark.parametrize("args, stdin, complaint", [
    (["   "], None, "the problem argument is empty"),
    (["-"], "\n\n", "the problem from standard input is empty"),
    (["--problem-file", "/nonexistent/problem.md"], None, "problem file /nonexistent/problem.md: no such file"),
    (["--problem-file", "/usr/bin/python3"], None, "binary"),
    (["x" * 60_000], None, "longer than"),
    ([], None, "no problem given"),
    (["p", "--max-iterations", "0"], None, "--max-iterations"),
    (["p", "--max-iterations", "many"], None, "--max-iterations"),
    (["p", "--frobnicate"], None, "unrecognized arguments"),
    (["--problem", "Two Sum"], None, "unrecognized arguments: --problem"),  # not a prefix of --problem-file
    (["p", "--max-it", "2"], None, "unrecognized arguments: --max-it 2"),
])
def test_bad_input_exits_2_with_one_line(stub, args, stdin, complaint):
    result = codeloop(*args, stub=stub, stdin=stdin)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and complaint in result.stderr, result.stderr
    assert stub.requests == []


def test_no_endpoint_configured_means_the_embedded_model(tmp_path):
    missing = tmp_path / "no-such-llama-server"
    env = cli_env(CODELOOP_CACHE=str(tmp_path / "cache"), CODELOOP_LLAMA_SERVER=str(missing))
    result = codeloop("Two sum", "--out", str(tmp_path / "out"), env=env)
    assert result.returncode == 3 and f"CODELOOP_LLAMA_SERVER names {missing}" in result.stderr
    said = result.stderr.splitlines()
    assert len(said) == 2 and "no model endpoint is configured" in said[0] and "press Ctrl-C and set OPENAI_BASE_URL" in said[0]


def test_local_and_base_url_together_are_refused(stub):
    result = codeloop("Two sum", "--local", "--base-url", stub.base_url, stub=stub)
    assert result.returncode == 2 and "contradict" in result.stderr


def test_help_documents_flags_and_exit_codes():
    result = codeloop("--help")
    assert result.returncode == 0
    for text in ("--problem-file", "--max-iterations", "--model", "--base-url", "--out", "--json", "--local",
                 "--setup-local", "130"):
        assert text in result.stdout


def test_help_documents_interactive_and_tests():
    help_text = codeloop("--help").stdout
    for text in ("--interactive", "--tests FILE", "--allow-install", "--no-lint", "edit the tests in $EDITOR",
                 "feedback for the model", "finish now", "pytest file with a module-level CASES list"):
        assert text in help_text


def test_users_tests_from_a_file_are_trusted(stub, tmp_path):
    (tmp_path / "mine.json").write_text('[{"name": "mine", "input": {"nums": [1, 4, 5], "target": 9}, "expected": [1, 2]}]')
    a.route_defaults(stub)
    result = codeloop(a.TWO_SUM, "--tests", str(tmp_path / "mine.json"), "--out", str(tmp_path / "out"), "--json",
                      "--variants", "0", "--model-tests", "first", stub=stub)  # variants of [1, 4, 5] would be disputed
    assert result.returncode == 0, result.stderr
    final = json.loads(result.stdout)
    assert final["test_cases"][0] == {"name": "mine", "input": {"nums": [1, 4, 5], "target": 9}, "expected": [1, 2],
                                      "origin": "user", "evidence": {"source": "user", "agree": 0, "voters": 0,
                                                                     "counted": True}}
    tests_request = next(r for r in stub.requests if "more test cases" in r["messages"][1]["content"])
    assert "The user's tests and the problem's examples are already tests" in tests_request["messages"][1]["content"]


def test_a_malformed_tests_file_is_one_line_and_exit_2(stub, tmp_path):
    (tmp_path / "bad.yaml").write_text("- {name: x, expected: 1}\n")
    result = codeloop(a.TWO_SUM, "--tests", str(tmp_path / "bad.yaml"), stub=stub)
    assert result.returncode == 2 and stub.requests == []
    assert result.stderr.strip() == f"codeloop: error: --tests {tmp_path / 'bad.yaml'}: case 1 has no input. Every test needs input and expected"


@pytest.mark.parametrize("script, wait_for", [
    pytest.param([{"hang": 30}], "GenerateTestCases:", id="during_a_model_call"),
    pytest.param([a.TESTS, a.GOOD_CODE.replace("seen = {}", "while True: pass")],
                 "RunTests:", id="during_the_sandbox"),
])
def test_ctrl_c_exits_130_and_keeps_the_record(stub, tmp_path, script, wait_for):
    # tests that never end, with a generous per-test limit: only killing the sandboxes ends the run fast
    stub.add(*script)
    proc = subprocess.Popen([sys.executable, MAIN, a.TWO_SUM, "--out", str(tmp_path), "--test-timeout", "60",
                             "--samples", "1", "--no-oracle"],  # one request at a time: the script's order holds
                            cwd=ROOT, env=cli_env(stub), stderr=subprocess.PIPE, text=True,
                            preexec_fn=ctrl_c_as_at_a_terminal)
    seen = ""
    while wait_for not in seen:
        line = proc.stderr.readline()
        assert line, f"codeloop ended before {wait_for}: {seen}"
        seen += line
    time.sleep(0.3)
    started = time.monotonic()
    proc.send_signal(signal.SIGINT)
    rest = proc.stderr.read()
    assert proc.wait(timeout=20) == 130
    assert time.monotonic() - started < 5 and "Traceback" not in rest
    record = json.loads((tmp_path / "run.json").read_text())
    assert record["status"] == "interrupted" and record["finished_at"]


def test_max_draws_ends_a_run_whose_candidates_never_pass_the_examples_after_that_many_draws(stub, tmp_path):
    stub.route("code", *[a.wrong_on_the_example(k) for k in range(12)])
    stub.route("oracle", a.wrong_on_the_example(20))
    result = codeloop(a.TWO_SUM, "--out", str(tmp_path), "--max-draws", "2", stub=stub)
    kinds = [request_kind(request) for request in stub.requests]
    assert result.returncode == 1 and kinds.count("code") == 6, (kinds, result.stderr)  # 3 candidates a draw
    record = json.loads((tmp_path / "run.json").read_text())
    assert record["status"] == "unsolved" and record["settings"]["max_draws"] == 2
    assert "no candidate passes the statement examples after 2 draws" in record["message"]


def test_show_tree_prints_every_attempt_with_its_score(stub, tmp_path):
    stub.add(a.TESTS, a.BUGGY_CODE, a.REVISE_BREAKS_AN_ANCHOR, a.REVISE_CODE)
    result = codeloop(a.TWO_SUM, "--out", str(tmp_path), "--show-tree", *a.MODEL_TESTS_FLAGS, stub=stub)
    assert result.returncode == 0, result.stderr
    tree = result.stderr.split("attempts:\n", 1)[1].splitlines()
    assert tree[0].startswith("attempt 1 (implement, round 0): tests 1/3, statement 1/1")
    assert tree[1].startswith("├─ attempt 2 (revise, round 1): tests 1/3, statement 0/1") and "rejected, broke test 1" in tree[1]
    assert tree[2].startswith("└─ attempt 3 (revise, round 2): tests 3/3, statement 1/1") and "solved" in tree[2]
    shown = subprocess.run([sys.executable, "-m", "core.search_tree", str(tmp_path / "run.json")], cwd=ROOT,
                           capture_output=True, text=True, timeout=60).stdout.splitlines()
    assert shown == tree[:3], "the record keeps the tree the run printed"


def test_docs_go_to_the_model_with_the_problem(stub, tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "hashing.md").write_text("Use a dict from value to index: one pass.")
    (tmp_path / "docs" / "image.png").write_bytes(b"\x89PNG")
    stub.add(a.TESTS, a.GOOD_CODE)
    result = codeloop(a.TWO_SUM, "--out", str(tmp_path / "out"), "--docs", str(tmp_path / "docs"), *a.MODEL_TESTS_FLAGS, stub=stub)
    assert result.returncode == 0, result.stderr
    system = stub.requests[0]["messages"][0]["content"]
    assert "Documentation the user gave for this problem:" in system and "one pass." in system
    assert "PNG" not in system


@pytest.mark.parametrize("args, message", [
    (["--docs", "no/such/file.md"], "--docs no/such/file.md: no such file or folder"),
    (["--samples", "0"], "--samples must be a whole number from 1 to 1,000, not 0"),
    (["--search", "random"], "argument --search: invalid choice: 'random'"),
    (["--model-tests", "sometimes"], "argument --model-tests: invalid choice: 'sometimes'"),
    (["--token-budget", "lots"], "argument --token-budget: invalid int value: 'lots'"),
    (["--token-budget", "0"], "--token-budget must be a whole number from 1 to 1,000,000,000, not 0"),
    (["--speed-limit", "-1"], "--speed-limit must be seconds from 0.1 to 600 (0 or None: no check), not -1.0"),
    (["--max-draws", "0"], "--max-draws must be a whole number from 1 to 1,000, not 0"),
])
def test_bad_search_and_docs_options_exit_2_with_one_line(tmp_path, args, message):
    result = codeloop(a.TWO_SUM, "--out", str(tmp_path), *args, env=cli_env(OPENAI_BASE_URL="http://127.0.0.1:9/v1"))
    assert result.returncode == 2 and message in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_docs_too_long_for_the_context_are_refused(tmp_path):
    (tmp_path / "big.txt").write_text("x" * 7000)
    result = codeloop(a.TWO_SUM, "--docs", str(tmp_path / "big.txt"), env=cli_env(OPENAI_BASE_URL="http://127.0.0.1:9/v1"))
    assert result.returncode == 2 and "--docs has 7,0" in result.stderr and "at most 6,000 fit" in result.stderr


def test_each_model_call_and_each_reask_is_a_line_and_json_stays_quiet(stub, tmp_path):
    stub.route("tests", a.GARBAGE, a.TESTS)
    a.route_defaults(stub)
    result = codeloop(a.TWO_SUM, "--out", str(tmp_path / "one"), "--model-tests", "first", stub=stub)
    assert result.returncode == 0, result.stderr
    assert "  GenerateTestCases: unusable answer (" in result.stderr and "asking again" in result.stderr
    for label in ("GenerateTestCases", "ImplementFunction candidate 1", "ImplementFunction oracle"):
        assert f"  {label}: " in result.stderr and " tokens in " in result.stderr, label
    a.route_defaults(stub)
    quiet = codeloop(a.TWO_SUM, "--out", str(tmp_path / "two"), "--json", stub=stub)
    assert quiet.returncode == 0 and quiet.stderr == ""


def test_a_retry_after_an_endpoint_error_is_announced(stub, tmp_path):
    stub.route("tests", {"status": 503, "body": "busy"}, a.TESTS)
    a.route_defaults(stub)
    result = codeloop(a.TWO_SUM, "--out", str(tmp_path), "--model-tests", "first", stub=stub)
    assert result.returncode == 0, result.stderr
    assert "GenerateTestCases: the model endpoint answered HTTP 503: busy; retrying in 0 s (1 of 4)" in result.stderr


def test_pairs_of_runs_of_one_problem_started_together_each_write_a_folder_of_their_own(stub, tmp_path):
    pairs = 10
    stub.route("tests", *[a.TESTS] * 2 * pairs)
    stub.route("code", *[a.GOOD_CODE] * 2 * pairs)
    command = [sys.executable, MAIN, a.TWO_SUM, "--json", "--variants", "0", *a.MODEL_TESTS_FLAGS]
    finals = []
    for _ in range(pairs):  # the two of a pair start together, so most pairs name their folders in one second
        pair = [subprocess.Popen(command, cwd=tmp_path, env=cli_env(stub), stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True) for _ in range(2)]
        for proc in pair:
            out, err = proc.communicate(timeout=120)
            assert proc.returncode == 0, err
            finals.append(json.loads(out))
    folders = {final["out_dir"] for final in finals}
    assert len(folders) == 2 * pairs and len(list((tmp_path / "runs").iterdir())) == 2 * pairs
    for final in finals:
        record = json.loads((tmp_path / final["out_dir"] / "run.json").read_text())
        assert record["status"] == "solved" and record["finished_at"] and record["final"]["function_code"] == final["function_code"]


PRINTS_AND_RAISES = a.GOOD_CODE.replace("    seen = {}", """    print("pairs of", nums)
    if nums == [3, 3]:
        raise ValueError("no pair")
    seen = {}""")


def test_json_says_of_each_failing_test_what_was_expected_returned_raised_and_printed(stub, tmp_path):
    stub.add(a.TESTS, PRINTS_AND_RAISES)
    result = codeloop(a.TWO_SUM, "--json", "--out", str(tmp_path), "--max-iterations", "1", "--variants", "0",
                      *a.MODEL_TESTS_FLAGS, stub=stub)
    assert result.returncode == 1, result.stderr
    (failing,) = [one for one in json.loads(result.stdout)["test_results"] if not one["passed"]]
    assert (failing["name"], failing["expected"], failing["actual"]) == ("duplicates", [0, 1], "")
    assert (failing["error_type"], failing["message"]) == ("ValueError", "no pair")
    assert 'raise ValueError("no pair")' in failing["traceback"] and failing["output"] == "pairs of [3, 3]\n"
