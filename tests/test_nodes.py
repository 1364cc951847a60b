"""nodes.py: each node's prep, exec and post on its own, with scripted model answers and the real sandbox."""
from types import SimpleNamespace

from core.cases import input_key
from core.round_verdict import judge_attempt
from nodes import Finish, GenerateTestCases, ImplementFunction, JudgeRound, ModelFailure, Revise, RunTests
from tests import scripted_answers as answers
from tests.scripted_answers import MODEL_TESTS, case, events_of

GOOD = "def run_code(nums, target):\n    seen = {}\n    for i, n in enumerate(nums):\n" \
       "        if target - n in seen:\n            return [seen[target - n], i]\n        seen[n] = i\n"
TESTS = [case("a", {"nums": [2, 7, 11, 15], "target": 9}, [0, 1]),
         case("b", {"nums": [3, 2, 4], "target": 6}, [1, 2]),
         case("c", {"nums": [3, 3], "target": 6}, [9, 9])]


def test_generate_test_cases(make_shared, stub):
    shared = make_shared()
    node = GenerateTestCases()
    inputs = node.prep(shared)
    assert inputs["problem"] == shared["problem"]
    stub.add(answers.TESTS)
    answer = node.exec(inputs)
    assert node.post(shared, inputs, answer) == "default"
    written = [c.name for c in shared["test_cases"] if c.origin != "variant"]
    assert written == ["example_1", "pair_at_the_end", "duplicates"]
    variants = [c for c in shared["test_cases"] if c.origin == "variant"]
    assert len(variants) == shared["services"].settings.variants and all(c.expected is None for c in variants)
    request = stub.requests[0]["messages"][-1]["content"]
    assert "5 to 8 test cases" in request


def test_generate_test_cases_asks_for_three_beside_the_examples_and_never_more_than_the_room_left(make_shared, stub):
    def examples(count):
        return "Return the indices of two numbers in nums that add up to target.\n\n" + "".join(
            f"Example {k}:\nInput: nums = [{k}, {k + 1}], target = {2 * k + 1}\nOutput: [0,1]\n\n" for k in range(1, count + 1))
    # two examples leave room for six more of the default eight, but three are asked for (six without the cap);
    # seven leave room for one, and the request asks for one (not "2 to 1")
    for count, overrides, asked in ((2, {}, "Write 3 more test cases"),
                                    (2, {"model_tests_max": None}, "Write 3 to 6 more test cases"),
                                    (7, {}, "Write 1 more test case for")):
        stub.requests.clear()
        shared = make_shared(examples(count), model_tests="first", **overrides)
        node = GenerateTestCases()
        inputs = node.prep(shared)
        stub.add(answers.TESTS.replace("example_1", "small").replace("[2, 7, 11, 15]", "[1, 8]"))
        node.post(shared, inputs, node.exec(inputs))
        assert asked in stub.requests[0]["messages"][-1]["content"], (count, overrides)
        own = [c.name for c in shared["test_cases"] if c.origin == "model"]
        assert len(own) == min(3, int(asked.split(" more")[0].split()[-1])), (count, overrides, own)
        assert "inputs that none of the tests above has" in stub.requests[0]["messages"][-1]["content"]


def test_implement_function_shows_the_tests_to_the_model(make_shared, stub):
    shared = make_shared(**MODEL_TESTS)
    shared["test_cases"] = TESTS
    node = ImplementFunction()
    inputs = node.prep(shared)
    stub.add(answers.GOOD_CODE)
    assert node.post(shared, inputs, node.exec(inputs)) == "default"
    assert shared["attempts"].get(shared["current"]).code == GOOD, "the first candidate is current"
    assert 'run_code(**{"nums": [3, 2, 4], "target": 6}) == [1, 2]' in stub.requests[0]["messages"][-1]["content"]


def with_attempt(shared, code, tests=TESTS, results=None):
    """A store as JudgeRound leaves it: one attempt of `code`, current, with `results` (or not run yet)."""
    attempt = shared["attempts"].add(code, None, "implement", 0)
    shared["attempts"].checked(attempt.id, None, None)
    if results is not None:
        attempt.status = "kept"
        attempt.score(results, tests)
    shared.update(test_cases=tests, current=attempt.id)
    return attempt


def run_and_judge(shared):
    """RunTests, then JudgeRound, as the flow runs them: the action the verdict chose."""
    node = RunTests()
    shards = node.prep(shared)
    assert node.post(shared, shards, node._exec(shards)) == "default"
    return JudgeRound()._run(shared)


def test_run_tests_splits_into_one_sandbox_batch_per_core_and_keeps_each_output(make_shared, monkeypatch):
    monkeypatch.setattr("os.cpu_count", lambda: 2)
    shared = make_shared(**MODEL_TESTS)
    attempt = with_attempt(shared, GOOD)
    node = RunTests()
    shards = node.prep(shared)
    assert [[c.input for c in s["cases"]] for s in shards] == [[TESTS[0].input, TESTS[2].input], [TESTS[1].input]]
    assert node.post(shared, shards, node._exec(shards)) == "default"
    assert attempt.outputs[TESTS[2].key]["repr"] == "[0, 1]" and attempt.results is None, "run, not yet judged"


def test_judge_round_judges_in_order_and_chooses_what_comes_next(make_shared):
    shared = make_shared(**MODEL_TESTS)
    attempt = with_attempt(shared, GOOD)
    assert run_and_judge(shared) == "failure"
    assert [r["passed"] for r in attempt.results] == [True, True, False]
    assert attempt.results[2]["actual"] == "[0, 1]" and shared["iteration"] == 1


def test_judge_round_reports_success_and_exhaustion(make_shared):
    shared = make_shared(max_iterations=2, **MODEL_TESTS)
    with_attempt(shared, GOOD, tests=TESTS[:2])
    assert run_and_judge(shared) == "success"
    shared = make_shared(max_iterations=2, **MODEL_TESTS)
    with_attempt(shared, GOOD)
    shared["iteration"] = 1
    assert run_and_judge(shared) == "exhausted"


FAILED = {"passed": False, "actual": "[0, 0]", "error_type": None, "message": "", "traceback": "", "timed_out": False}


def test_revise_applies_corrected_tests_and_makes_a_child_attempt(make_shared, stub):
    shared = make_shared(**MODEL_TESTS)
    parent = with_attempt(shared, "def run_code(nums, target):\n    return [0, 0]\n", results=[FAILED] * 3)
    node = Revise()
    inputs = node.prep(shared)
    stub.add(answers.REVISE_BOTH)
    assert node.post(shared, inputs, node.exec(inputs)) == "default"
    assert shared["test_cases"][2].expected == [0, 1] and shared["test_cases"][2].origin == "model"
    assert shared["test_cases"][:2] == TESTS[:2]
    child = shared["attempts"][-1]
    assert child.code == GOOD and child.parent == parent.id and child.status == "new"
    prompt = stub.requests[0]["messages"][-1]["content"]
    assert "returned [0, 0], expected [1, 2]" in prompt and "return [0, 0]" in prompt


def test_revise_may_not_change_a_statement_example(make_shared, stub):
    shared = make_shared(**MODEL_TESTS)
    tests = [case("a", TESTS[0].input, [0, 1], "statement"), *TESTS[1:]]
    with_attempt(shared, GOOD, tests=tests, results=[FAILED] * 3)
    node = Revise()
    inputs = node.prep(shared)
    stub.add("test_cases:\n  1: {input: {nums: [2, 7, 11, 15], target: 9}, expected: [0, 0]}\n",
             "test_cases:\n  1: {input: {nums: [2, 7, 11, 15], target: 9}, expected: [0, 0]}\n"
             "  3: {input: {nums: [3, 3], target: 6}, expected: [0, 1]}\n")
    node.post(shared, inputs, node.exec(inputs))
    assert shared["test_cases"][0] == tests[0], "the trusted test is unchanged"
    assert shared["test_cases"][2].expected == [0, 1]
    retry = stub.requests[1]["messages"][-1]["content"]
    assert ("Test 1 is trusted (from the problem statement or the user, or agreed by running programs, or a variant input "
            "only programs decide) and cannot be changed") in retry
    assert "(from the problem statement)" in stub.requests[0]["messages"][-1]["content"]


def test_revise_may_not_bend_a_guess_a_program_returned_but_may_correct_a_disputed_one(make_shared, stub):
    """LeetCode 2579's record: the oracle returned the model's guesses, Revise rewrote them to its code's values."""
    shared = make_shared(**MODEL_TESTS)
    confirmed = case("b", TESTS[1].input, [1, 2], guess=[1, 2], evidence={"source": "guess", "agree": 1, "voters": 2})
    disputed = case("c", TESTS[2].input, [9, 9], guess=[9, 9], evidence={"source": "disputed", "agree": 0, "voters": 2})
    tests = [TESTS[0], confirmed, disputed]
    with_attempt(shared, GOOD, tests=tests, results=[FAILED] * 3)
    node = Revise()
    inputs = node.prep(shared)
    stub.add("test_cases:\n  2: {input: {nums: [3, 2, 4], target: 6}, expected: [0, 0]}\n"
             "  3: {input: {nums: [3, 3], target: 6}, expected: [0, 1]}\n")
    node.post(shared, inputs, node.exec(inputs))
    assert shared["test_cases"][1] == confirmed, "the guess a program returned stands"
    assert shared["test_cases"][2].expected == [0, 1], "a disputed guess is the model's to correct"
    assert "Test 2 is trusted" in events_of(shared, "revision")[0]["ignored"][0]
    prompt = stub.requests[0]["messages"][-1]["content"]
    assert "2. b (agreed by running programs): " in prompt, "the prompt marks it as one the model may not change"


def test_a_model_failure_becomes_the_model_failed_action(make_shared, stub):
    shared = make_shared()
    node = GenerateTestCases()
    inputs = node.prep(shared)
    stub.add(*[{"status": 503}] * 3)
    outcome = node._exec(inputs)
    assert isinstance(outcome, ModelFailure) and "HTTP 503" in outcome.message
    assert node.post(shared, inputs, outcome) == "model_failed" and shared["status"] == "model_failed"


def test_finish_keeps_the_best_attempt_and_says_what_fails(make_shared):
    shared = make_shared()
    passing = {**FAILED, "passed": True}
    better = with_attempt(shared, GOOD, results=[passing, passing, FAILED])
    with_attempt(shared, "def run_code(nums, target):\n    return [0, 0]\n", results=[FAILED] * 3)
    shared["iteration"] = 5
    assert Finish("unsolved")._run(shared) is None
    assert shared["status"] == "unsolved" and shared["current"] == better.id and better.code == GOOD
    assert shared["message"] == ("not solved after 5 iteration(s): the best version (attempt 1) passes 2 of 3 tests; "
                                 "failing: c; confidence 0.00 (no statement example to check it on)")


def test_revise_appends_tests_numbered_past_the_last(make_shared, stub):
    shared = make_shared(revise_adds_tests=True, **MODEL_TESTS)
    with_attempt(shared, GOOD, results=[FAILED] * 3)
    node = Revise()
    inputs = node.prep(shared)
    stub.add("test_cases:\n  3: {input: {nums: [3, 3], target: 6}, expected: [0, 1]}\n"
             "  4: {input: {nums: [1, 5], target: 6}, expected: [0, 1]}\n")
    node.post(shared, inputs, node.exec(inputs))
    assert [c.name for c in shared["test_cases"]] == ["a", "b", "c", "test_4"]
    assert shared["test_cases"][2].expected == [0, 1] and shared["attempts"][-1].code == GOOD


def test_code_raising_on_a_variant_fails_it_only_once_programs_settle_it():
    raised = {"ok": False, "value": None, "repr": "", "error_type": "ValueError", "message": "no", "traceback": "",
              "timed_out": False, "ms": 1.0, "output": ""}
    open_variant = case("variant_1", {"x": 1}, None, "variant", evidence={"source": "unchecked", "agree": 0, "voters": 1})
    settled = case("variant_1", {"x": 1}, 7, "variant", evidence={"source": "oracle", "agree": 2, "voters": 2})
    model = case("t", {"x": 1}, None, guess=7, evidence={"source": "disputed", "agree": 0, "voters": 1})
    attempt = SimpleNamespace(check="ok", outputs={input_key({"x": 1}): raised})
    [unchecked], [agreed], [written] = (judge_attempt(attempt, [test], False) for test in (open_variant, settled, model))
    assert not unchecked["counted"], "a variant may break a precondition: raising there proves nothing yet"
    assert agreed["counted"] and not agreed["passed"]
    assert written["counted"], "a written input others answer: raising is wrong whatever the value"
