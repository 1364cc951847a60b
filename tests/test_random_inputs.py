"""core/random_inputs.py and the check it feeds (TellApart): a claim and another version passing the same tests
that differ on a fresh input are judged again with it, so the one that is wrong there is not claimed."""
import pytest

from core.compare import Comparison
from core.random_inputs import raised_where_others_return, shaped_inputs, telling_apart
from core.vocabulary import RunStatus
from tests import scripted_answers as a
from tests.scripted_answers import events_of, handed_over
from tests.test_flow import run_flow


def test_fresh_inputs_keep_each_arguments_type_nesting_and_fixed_lengths():
    given = [{"stones": [[0, 0], [0, 1], [1, 2]], "name": "ab"}, {"stones": [[2, 2]], "name": "b"}]
    made = shaped_inputs(given, count=20)
    assert len(made) == 20
    for inputs in made:
        assert set(inputs) == {"stones", "name"}
        assert 1 <= len(inputs["stones"]) <= 3 and all(len(pair) == 2 for pair in inputs["stones"]), inputs
        assert all(0 <= x <= 2 for pair in inputs["stones"] for x in pair), "numbers within the range given"
        assert inputs["name"] and set(inputs["name"]) <= {"a", "b"} and len(inputs["name"]) <= 2


def test_fresh_inputs_are_new_distinct_and_the_same_for_the_same_seed():
    given = [{"nums": [3, 1, 2], "k": 1}, {"nums": [5], "k": 2}]
    made = shaped_inputs(given, count=16, seed=3)
    keys = [repr(sorted(inputs.items())) for inputs in made]
    assert len(set(keys)) == len(keys) and not any(inputs in given for inputs in made)
    assert made == shaped_inputs(given, count=16, seed=3) and made != shaped_inputs(given, count=16, seed=4)


@pytest.mark.parametrize("statement, given, holds", [
    pytest.param("Constraints:\n\n1 <= a <= 4\n", [{"a": 1}, {"a": 9}], lambda made: made["a"] <= 4,
                 id="a_stated_bound"),
    pytest.param("nums is sorted in ascending order.", [{"nums": [1, 4, 6]}, {"nums": [2, 3]}],
                 lambda made: made["nums"] == sorted(made["nums"]), id="sorted_where_promised"),
    pytest.param("All the values of nums are unique.", [{"nums": [1, 4, 6]}, {"nums": [2, 3]}],
                 lambda made: len(set(made["nums"])) == len(made["nums"]), id="distinct_where_promised"),
])
def test_fresh_inputs_keep_the_statements_constraints_and_promises(statement, given, holds):
    made = shaped_inputs(given, statement, count=24)
    assert made and all(holds(inputs) for inputs in made), made


def test_no_fresh_inputs_without_inputs_to_shape_them_on():
    assert shaped_inputs([]) == [] and shaped_inputs([{}]) == []


def ok(value):
    return {"ok": True, "value": value}


RAISED = {"ok": False, "value": None}


@pytest.mark.parametrize("mine, others, apart", [
    pytest.param([ok(1), ok(2)], [[ok(1), ok(3)]], [1], id="one_differs"),
    pytest.param([ok(1), RAISED], [[ok(1), ok(3)]], [], id="the_claim_raised_there"),
    pytest.param([ok(1), ok(2)], [[RAISED, RAISED], [ok(1), ok(2)]], [], id="the_other_raised_or_agreed"),
    pytest.param([ok([1, 2])], [[ok([2, 1])]], [], id="any_order_compares_as_the_tests_do"),
])
def test_an_input_tells_versions_apart_only_where_both_return_different_values(mine, others, apart):
    assert telling_apart(mine, others, Comparison(any_order=True)) == apart


def test_a_version_raising_counts_only_the_inputs_where_another_version_returned():
    # the third input raises in both: it may break a promise, and says nothing of either
    assert raised_where_others_return([[ok(1), RAISED, RAISED], [ok(1), ok(2), RAISED]]) == [1, 0]


# Flow: a sum, where `a or b` passes both examples and every variant (variants never move a zero) and differs on
# a fresh input such as a = 1, b = 2: the case LeetCode 947 was (a false success beside a right candidate)
SUM = """Given two non-negative integers a and b, return their sum.

Example 1:
Input: a = 0, b = 3
Output: 3

Example 2:
Input: a = 2, b = 0
Output: 2
"""
EITHER = "```python\ndef run_code(a, b):\n    return a or b\n```"
PLUS = "```python\ndef run_code(a, b):\n    return a + b\n```"
SUMMED = "```python\ndef run_code(a, b):\n    return sum((a, b))\n```"
COUNTED = "```python\ndef run_code(a, b):\n    return len([1] * a + [1] * b)\n```"


def run_sum(make_shared, stub, candidates, oracle=COUNTED, **settings):
    a.route_defaults(stub, candidates=candidates, oracle=oracle, samples=9)  # the last repeats, for later draws
    return run_flow(make_shared(SUM, model_tests="never", parallel=1, first_draw=None, **settings))


def test_a_version_that_differs_on_a_fresh_input_fails_it_and_the_split_vote_claims_nothing(make_shared, stub):
    # three programs and the oracle against `a or b` on the fresh inputs: settled, but over a dissenting program
    # that passes the examples, a split vote, which backs no claim (core/cases.Evidence.split); the larger side
    # is handed over
    shared = run_sum(make_shared, stub, [EITHER, PLUS, SUMMED])
    assert shared["status"] == RunStatus.UNCONFIRMED and "split" in shared["message"], shared["message"]
    assert "a or b" not in handed_over(shared).code
    first = events_of(shared, "tell_apart")[0]
    either = next(x for x in shared["attempts"] if "a or b" in x.code)
    assert either.id in first["versions"] and first["inputs"], first
    apart = [case for case in shared["test_cases"] if case.name.startswith("apart_")]
    assert apart and all(case.expected == sum(case.input.values()) for case in apart), apart
    assert either.passed < either.total, "the version wrong on a fresh input fails it"


def test_a_claim_two_versions_differ_on_and_nothing_settles_is_not_made(make_shared, stub):
    # `a or b` (the newest, the claim before the check) and `a + b` disagree on the fresh inputs; the oracle
    # fails the examples, so nothing settles them: a draw (`a or b` again), then unconfirmed, not a claim on luck
    shared = run_sum(make_shared, stub, [PLUS, EITHER], oracle="```python\ndef run_code(a, b):\n    return 0\n```")
    assert shared["status"] == RunStatus.UNCONFIRMED and "disputed" in shared["message"], shared["message"]
    assert events_of(shared, "tell_apart") and events_of(shared, "dispute_draw")


def test_no_fresh_inputs_where_every_version_is_one_program_or_variants_are_off(make_shared, stub):
    shared = run_sum(make_shared, stub, [PLUS])
    assert shared["status"] == RunStatus.SOLVED and not events_of(shared, "tell_apart"), shared["message"]
    stub.requests.clear()
    shared = run_sum(make_shared, stub, [EITHER, PLUS, SUMMED], variants=0)
    assert not events_of(shared, "tell_apart")


def test_of_versions_that_agree_wherever_both_return_the_one_that_raises_on_fewer_fresh_inputs_is_handed_over(
        make_shared, stub):
    raises = "```python\ndef run_code(a, b):\n    if a > 1 and b > 1:\n        raise ValueError(a)\n    return b + a\n```"
    shared = run_sum(make_shared, stub, [PLUS, SUMMED, raises])
    assert shared["status"] == RunStatus.SOLVED, shared["message"]
    [check] = events_of(shared, "tell_apart")
    raiser = next(x.id for x in shared["attempts"] if "raise ValueError" in x.code)
    assert check["versions"][0] == raiser and check["raised"][0] > 0 and min(check["raised"]) == 0, check
    assert not check["inputs"] and "raise ValueError" not in handed_over(shared).code


def test_no_fresh_inputs_once_the_time_limit_leaves_less_than_a_second(make_shared, stub):
    a.route_defaults(stub, candidates=[EITHER, PLUS, SUMMED], oracle=COUNTED)
    shared = make_shared(SUM, model_tests="never", parallel=1, first_draw=None)
    shared["services"].budget.seconds_left = lambda: 0.5  # as --time-limit near its end; the calls go on
    run_flow(shared)
    assert shared["status"] == RunStatus.SOLVED and not events_of(shared, "tell_apart"), shared["message"]
