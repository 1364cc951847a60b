"""flow.py: every branch of the flow, end to end, with a scripted model over HTTP and the real sandbox."""
import json
import warnings

import pytest

from flow import create_flow
from tests import scripted_answers as a


def run_flow(shared):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        create_flow().run(shared)
    assert not [w for w in caught if "Flow ends" in str(w.message)], "a branch ended without a terminal node"
    return shared


@pytest.mark.parametrize("script, iterations", [
    pytest.param([a.TESTS, a.GOOD_CODE], 1, id="pass_first_time"),
    pytest.param([a.TESTS, a.BUGGY_CODE, a.REVISE_CODE], 2, id="code_fixed"),
    pytest.param([a.TESTS_WITH_A_WRONG_ONE, a.GOOD_CODE, a.REVISE_TEST], 2, id="wrong_test_fixed"),
    pytest.param([a.TESTS_WITH_A_WRONG_ONE, a.BUGGY_CODE, a.REVISE_BOTH], 2, id="both_fixed"),
    pytest.param([a.GARBAGE, a.TESTS, {"text": "test_cases:\n  - name: cut", "finish_reason": "length"},
                  a.GOOD_CODE], 1, id="garbage_then_recovery"),
    pytest.param([{"status": 503}, a.TESTS, {"status": 500}, a.GOOD_CODE], 1, id="transient_http_errors"),
])
def test_solved_branches(make_shared, stub, script, iterations):
    stub.add(*script)
    shared = run_flow(make_shared())
    assert shared["status"] == "solved", shared["message"]
    assert shared["iteration"] == iterations
    assert all(r["passed"] for r in shared["test_results"]) and len(shared["test_results"]) == 3
    assert len(stub.requests) == len(script), "every scripted answer was used, no more"


def test_the_fixed_test_and_code_are_the_final_ones(make_shared, stub):
    stub.add(a.TESTS_WITH_A_WRONG_ONE, a.BUGGY_CODE, a.REVISE_BOTH)
    shared = run_flow(make_shared())
    assert shared["test_cases"][2]["expected"] == [0, 1] and shared["test_cases"][2]["name"] == "duplicates"
    assert "seen = {}" in shared["function_code"]


def test_budget_exhausted(make_shared, stub):
    stub.add(a.TESTS, a.BUGGY_CODE, a.REVISE_USELESS, a.REVISE_USELESS)
    shared = run_flow(make_shared(max_iterations=3))
    assert shared["status"] == "unsolved" and shared["iteration"] == 3
    assert "tests still fail after 3 iteration(s)" in shared["message"]
    assert len(stub.requests) == 4


def test_garbage_forever_fails_the_run(make_shared, stub):
    stub.add(*[a.GARBAGE] * 3)
    shared = run_flow(make_shared())
    assert shared["status"] == "model_failed" and "no usable answer in 3 attempts" in shared["message"]
    assert shared["test_cases"] == [] and len(stub.requests) == 3


def test_http_errors_that_outlast_the_retries_fail_the_run(make_shared, stub):
    stub.add(a.TESTS, *[{"status": 500, "body": "model crashed"}] * 3)
    shared = run_flow(make_shared())
    assert shared["status"] == "model_failed" and "HTTP 500: model crashed" in shared["message"]
    assert len(shared["test_cases"]) == 3, "what was done before the failure is kept"


def test_revise_failing_mid_loop_keeps_tests_and_code(make_shared, stub):
    stub.add(a.TESTS, a.BUGGY_CODE, *[a.GARBAGE] * 3)
    shared = run_flow(make_shared())
    assert shared["status"] == "model_failed" and shared["function_code"] and shared["iteration"] == 1


def test_every_call_starts_with_the_same_system_prompt(make_shared, stub):
    stub.add(a.TESTS_WITH_A_WRONG_ONE, a.BUGGY_CODE, a.REVISE_BOTH)
    run_flow(make_shared())
    systems = {json.dumps(r["messages"][0]) for r in stub.requests}
    assert len(systems) == 1 and "Return the indices of two numbers" in systems.pop()
    assert all(r["temperature"] == 0 and r["max_tokens"] for r in stub.requests)


def test_the_record_holds_every_version_result_and_call(make_shared, stub, tmp_path):
    stub.add(a.TESTS_WITH_A_WRONG_ONE, a.BUGGY_CODE, a.REVISE_BOTH)
    run_flow(make_shared())
    record = json.loads((tmp_path / "run.json").read_text())
    kinds = [e["kind"] for e in record["events"] if e["kind"] != "node_started"]
    assert kinds == ["test_cases", "function_code", "test_run", "revision", "test_run"]
    runs = [e for e in record["events"] if e["kind"] == "test_run"]
    assert [(r["passed"], r["total"]) for r in runs] == [(1, 3), (3, 3)]
    assert [c["node"] for c in record["model_calls"]] == ["GenerateTestCases", "ImplementFunction", "Revise"]
    assert all(c["prompt_tokens"] and c["latency_ms"] and c["messages"] and c["answer"] for c in record["model_calls"])
    assert {t["node"] for t in record["node_timings"]} >= {"GenerateTestCases", "RunTests", "Revise"}
