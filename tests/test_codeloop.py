"""codeloop.solve() and agent_tool: the library runs what main.py runs (scripted model over HTTP on
127.0.0.1, the real sandbox), and README's example works as written."""
import re
import subprocess
import sys

import pytest

import main
from agent_tool import TOOL, call_tool, langchain_tool
from codeloop import CodeloopError, Result, options, solve
from tests import scripted_answers as a
from tests.test_main import ROOT, cli_env


@pytest.fixture
def endpoint(stub, monkeypatch):
    for name, value in cli_env(stub).items():
        if name.startswith(("OPENAI_", "CODELOOP_")):
            monkeypatch.setenv(name, value)
    return stub


def test_readme_example_runs_as_written(stub, tmp_path):
    block = ROOT.joinpath("README.md").read_text().split("<!-- tests/test_codeloop.py runs this example", 1)[1]
    example = re.search(r"```python\n(.*?)```", block, re.S).group(1)
    a.route_defaults(stub, tests=a.SUM_OF_EVENS_TESTS, candidates=[a.SUM_OF_EVENS_CODE], oracle=a.SUM_OF_EVENS_ORACLE)
    done = subprocess.run([sys.executable, "-c", example], capture_output=True, text=True, cwd=tmp_path,
                          env={**cli_env(stub), "PYTHONPATH": str(ROOT)}, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "solved 12/12 tests pass"  # 2 of yours and 10 variants the programs agree on
    assert "return sum(n for n in nums if n % 2 == 0)" in done.stdout
    assert lines[-1].startswith("2 model calls; files in runs/sum_of_evens")  # a candidate and the oracle: no tests needed
    assert (tmp_path / "runs" / "sum_of_evens" / "solution.py").exists()
    assert done.stderr == "", "quiet unless progress=True"


def test_result_is_typed_and_the_users_tests_are_trusted(endpoint, tmp_path):
    endpoint.add(a.SUM_OF_EVENS_TESTS, a.SUM_OF_EVENS_CODE)
    result = solve(a.SUM_OF_EVENS, tests=[{"input": {"nums": [2, 4]}, "expected": 6}], out=tmp_path, **a.MODEL_TESTS)
    assert isinstance(result, Result) and result.solved and result.exit_code == 0
    assert [(t["name"], t["origin"]) for t in result.tests] == [("user_1", "user"), ("empty", "model"),
                                                                  ("negatives", "model")]
    assert [r["passed"] for r in result.results] == [True, True, True]
    assert result.usage["model_calls"] == 2 and result.iterations == 1 and result.out_dir == str(tmp_path)


def test_options_are_the_cli_flags_and_mean_the_same(endpoint, tmp_path):
    endpoint.add(a.SUM_OF_EVENS_TESTS, a.SUM_OF_EVENS_CODE)
    result = solve(a.SUM_OF_EVENS, max_calls=1, reflect=False, lint=False, out=tmp_path, **a.MODEL_TESTS)
    assert result.status == "unsolved" and result.exit_code == 1 and result.usage["model_calls"] == 1
    assert "--max-calls" in main.build_parser().format_help() and "max_calls" in options()
    assert {"interactive", "tests", "allow_install", "lint", "samples", "search", "docs"} <= set(options())


def test_bad_options_raise_the_clis_one_line_error(endpoint, tmp_path):
    with pytest.raises(CodeloopError, match="--max-iterations must be a whole number from 1 to 1,000, not 0") as caught:
        solve(a.SUM_OF_EVENS, max_iterations=0, out=tmp_path)
    assert caught.value.exit_code == 2
    with pytest.raises(CodeloopError, match="--model-tests must be one of first, when-needed, never, not 'sometimes'"):
        solve(a.SUM_OF_EVENS, model_tests="sometimes", out=tmp_path)
    with pytest.raises(CodeloopError, match="the problem argument is empty"):
        solve("   ", out=tmp_path)
    with pytest.raises(CodeloopError, match="tests=: case 1 has no input"):
        solve(a.SUM_OF_EVENS, tests=[{"expected": 1}], out=tmp_path)
    with pytest.raises(TypeError, match="unknown options max_iteration"):
        solve(a.SUM_OF_EVENS, max_iteration=3)
    with pytest.raises(CodeloopError, match="--kind must be one of plain, tree, design, in-place, stdio, not 'forest'"):
        solve(a.SUM_OF_EVENS, kind="forest", out=tmp_path)
    with pytest.raises(CodeloopError, match="--kind design: the statement names no class") as caught:
        solve(a.SUM_OF_EVENS, kind="design", out=tmp_path / "never")
    assert caught.value.exit_code == 2 and not (tmp_path / "never").exists()
    assert endpoint.requests == []


def test_a_kattis_package_is_solved_through_the_library_as_through_the_cli(endpoint, tmp_path):
    from tests.test_contest_problems import ADD_CODE, ADD_GENERATOR, ADD_ORACLE, ADD_VALIDATOR
    from tests.test_problem_package import make_package
    endpoint.route("code", *[ADD_CODE] * 8)
    endpoint.route("oracle", ADD_ORACLE)
    endpoint.route("generator", ADD_GENERATOR)
    endpoint.route("input_validator", ADD_VALIDATOR)
    result = solve(problem_dir=make_package(tmp_path / "adding"), out=tmp_path / "run")
    assert result.solved and "print(a + b)" in result.code and all(set(t["input"]) == {"stdin"} for t in result.tests)
    with pytest.raises(CodeloopError, match="validation: custom") as refused:
        solve(problem_dir=make_package(tmp_path / "special", yaml="validation: custom\n"), out=tmp_path / "never")
    assert refused.value.exit_code == 2 and not (tmp_path / "never").exists()


def test_tests_from_a_file(endpoint, tmp_path):
    (tmp_path / "mine.yaml").write_text("- {name: pair, input: {nums: [2, 2]}, expected: 4}\n")
    endpoint.add(a.SUM_OF_EVENS_TESTS, a.SUM_OF_EVENS_CODE)
    result = solve(a.SUM_OF_EVENS, tests=tmp_path / "mine.yaml", out=tmp_path / "out", **a.MODEL_TESTS)
    assert result.solved and {k: result.tests[0][k] for k in ("name", "input", "expected", "origin")} == {
        "name": "pair", "input": {"nums": [2, 2]}, "expected": 4, "origin": "user"}


def test_agent_tool_answers_a_call_with_the_code(endpoint, tmp_path):
    assert TOOL["function"]["parameters"]["required"] == ["problem"]
    endpoint.add(a.SUM_OF_EVENS_TESTS, a.SUM_OF_EVENS_CODE)
    answer = call_tool({"problem": a.SUM_OF_EVENS, "max_iterations": 2}, out=str(tmp_path), **a.MODEL_TESTS)
    assert answer["status"] == "solved" and answer["tests_passed"] == answer["tests_total"] == 2
    assert "def run_code(nums)" in answer["code"]


def test_agent_tool_turns_bad_calls_into_messages(endpoint):
    assert call_tool({"problem": 3})["status"] == "error"
    assert call_tool({"problem": "x", "rm": "-rf"}) == {"status": "error", "message": "unknown arguments rm; known: "
                                                        "max_iterations, problem, tests"}
    assert call_tool({"problem": "x", "max_iterations": 0})["message"].startswith("--max-iterations must be")
    assert endpoint.requests == []


def test_langchain_tool_when_langchain_is_installed(endpoint, tmp_path):
    pytest.importorskip("langchain_core")
    endpoint.add(a.SUM_OF_EVENS_TESTS, a.SUM_OF_EVENS_CODE)
    tool = langchain_tool(out=str(tmp_path), **a.MODEL_TESTS)
    assert tool.name == "codeloop_solve" and set(tool.args) == {"problem", "tests", "max_iterations"}
    assert tool.invoke({"problem": a.SUM_OF_EVENS})["status"] == "solved"


def test_langchain_tool_without_langchain_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "langchain_core.tools", None)  # as if it were not installed
    with pytest.raises(ImportError, match="pip install langchain-core"):
        langchain_tool()


def test_a_run_whose_programs_still_disagree_is_unconfirmed_exit_1_with_the_code_handed_over(endpoint, tmp_path):
    from tests.test_flow import GUESS_NOBODY_RETURNS, WRONG_ON_PAIRS, ZERO_ON_PAIRS
    endpoint.route("tests", GUESS_NOBODY_RETURNS)  # [3, 3]: three candidates, three answers, a guess none returns
    endpoint.route("code", a.GOOD_CODE, WRONG_ON_PAIRS, ZERO_ON_PAIRS)
    result = solve(a.TWO_SUM, oracle=False, dispute_draws=0, out=tmp_path)
    assert (result.status, result.solved, result.exit_code) == ("unconfirmed", False, 1)
    assert result.message.startswith("not confirmed: attempt ") and "disagree on duplicates" in result.message
    apart = [t["name"] for t in result.tests if not t["evidence"]["counted"]]
    assert "duplicates" in apart and result.tests_passed == result.tests_total - len(apart), \
        "every test that counts passes; the disputed ones (and variants one program answered) are apart"
    assert (tmp_path / "solution.py").read_text().strip() == result.code.strip()
