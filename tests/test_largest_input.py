"""core/largest_input.py and the speed check it feeds (TimeLargestInput): a claim's code at the statement's bounds."""
import json

import pytest

from core.largest_input import largest_input
from tests import scripted_answers as a
from tests.scripted_answers import events_of, handed_over
from tests.stub_openai_server import request_kind as stub_kind
from tests.test_flow import run_flow


def statement(*lines):
    return "Compute it.\n\nConstraints:\n\n" + "\n".join(lines) + "\n"


@pytest.mark.parametrize("lines, example, largest", [
    pytest.param(["1 <= n <= 19"], {"n": 3}, {"n": 19}, id="one_bound"),
    pytest.param(["- 1 <= n, k <= 30", "- 1 <= target <= 1000"], {"n": 1, "k": 6, "target": 3},
                 {"n": 30, "k": 30, "target": 1000}, id="several_names_and_bullets"),
    pytest.param(["0 <= k <= n <= 10^4", "1 <= maxPts <= 10^4"], {"n": 10, "k": 1, "max_pts": 10},
                 {"n": 10_000, "k": 10_000, "max_pts": 10_000}, id="a_chain_bound_by_another_argument"),
    pytest.param(["1 <= n < 50"], {"n": 3}, {"n": 49}, id="strict_bound_one_less"),
    pytest.param(["50 > n >= 1"], {"n": 3}, {"n": 49}, id="bound_written_on_the_left"),
    pytest.param(["1 <= n <= 105"], {"n": 3}, {"n": 105}, id="lost_superscript_read_small_so_either_reading_holds"),
    pytest.param(["-231 <= x <= 231 - 1"], {"x": 121}, {"x": 230}, id="pasted_power_of_two"),
    pytest.param(["-2^31 <= x <= 2^31 - 1"], {"x": 121}, {"x": 2**31 - 1}, id="power_of_two"),
    pytest.param(["1 <= n <= 10<sup>5</sup>"], {"n": 3}, {"n": 100_000}, id="html_superscript"),
])
def test_every_integer_argument_at_its_stated_bound(lines, example, largest):
    assert largest_input(statement(*lines), example) == largest


@pytest.mark.parametrize("text, example", [
    pytest.param(statement("1 <= nums.length <= 10^4", "1 <= nums[i] <= 10^9"), {"nums": [1, 2]}, id="a_list"),
    pytest.param(statement("1 <= s.length <= 100"), {"s": "ab"}, id="a_string"),
    pytest.param(statement("1 <= n <= 19"), {"n": 3, "flag": True}, id="a_flag"),
    pytest.param(statement("1 <= n <= 19"), {"n": 3, "k": 2}, id="an_argument_without_a_bound"),
    pytest.param(statement("1 <= k <= m"), {"k": 3}, id="bound_by_a_name_that_is_no_argument"),
    pytest.param(statement("1 <= n"), {"n": 3}, id="only_a_lower_bound"),
    pytest.param(statement("5 <= n <= 3"), {"n": 3}, id="bounds_that_cannot_hold"),
    pytest.param("Given n, count the trees.", {"n": 3}, id="no_constraints_section"),
    pytest.param(statement("1 <= n <= 19"), {}, id="no_arguments"),
])
def test_no_largest_input_unless_every_argument_is_a_bounded_integer(text, example):
    assert largest_input(text, example) is None


# Flow: the number of binary search trees on n keys (LeetCode 96), claimed twice by an exponential recursion
TREES = """Given an integer n, return the number of structurally unique BSTs with exactly n nodes of values 1 to n.

Example 1:
Input: n = 3
Output: 5

Example 2:
Input: n = 1
Output: 1

Constraints:
1 <= n <= 19
"""
TREE_TESTS = """```yaml
test_cases:
  - name: two
    input: {n: 2}
    expected: 2
  - name: four
    input: {n: 4}
    expected: 14
```"""
# about 3^19 calls at n = 19: minutes, where the tests above take microseconds
SLOW = """```python
def run_code(n):
    if n <= 1:
        return 1
    return sum(run_code(i) * run_code(n - 1 - i) for i in range(n))
```"""
FAST = """```python
def run_code(n):
    counts = [1] * (n + 1)
    for m in range(2, n + 1):
        counts[m] = sum(counts[i] * counts[m - 1 - i] for i in range(m))
    return counts[n]
```"""
ENUMERATE = """```python
def run_code(n):
    def trees(low, high):
        if low > high:
            return [None]
        return [(root, left, right) for root in range(low, high + 1)
                for left in trees(low, root - 1) for right in trees(root + 1, high)]
    return len(trees(1, n))
```"""


def run_trees(make_shared, stub, candidates, **overrides):
    a.route_defaults(stub, tests=TREE_TESTS, candidates=candidates, oracle=ENUMERATE)
    # one request at a time, so the attempts are numbered as listed: the newest that passes is the claim
    # the first draw whole (three candidates) unless a test asks for the short one (the default)
    shared = make_shared(TREES, **{"variants": 0, "speed_limit": 1, "parallel": 1, "first_draw": None, **overrides})
    return run_flow(shared)


def seconds(check):
    """attempt id -> seconds taken at the largest input, None where it timed out."""
    return {timed["attempt"]: timed["seconds"] for timed in check["seconds"]}


def test_a_claim_too_slow_at_the_stated_bounds_hands_over_a_version_passing_the_same_tests_that_is_fast(make_shared, stub):
    shared = run_trees(make_shared, stub, [FAST, SLOW])
    assert shared["status"] == "solved", shared["message"]
    kept = handed_over(shared)
    assert "counts = [1] * (n + 1)" in kept.code, kept.code
    [check] = events_of(shared, "speed_check")
    assert check["input"] == {"n": 19} and check["handed_over"] == kept.id
    slow_id = next(a.id for a in shared["attempts"] if "return sum(run_code(i)" in a.code)
    assert seconds(check)[slow_id] is None and seconds(check)[kept.id] < 1, check["seconds"]


SLOW_TWICE = SLOW.replace("if n <= 1", "if n < 2")  # the same idea written apart: a second version
TOLD = "did not return within 1 s at n = 19, the largest input the constraints allow"  # core/prompts.speed_note


def code_requests(stub):
    return [body for body in stub.requests if stub_kind(body) == "code"]


def test_a_claim_no_version_of_which_returns_in_time_at_the_stated_bounds_is_not_confirmed(make_shared, stub):
    stub.route("code", SLOW, SLOW, SLOW, about=TOLD)  # the draw told of it brings no faster version
    shared = run_trees(make_shared, stub, [SLOW, SLOW_TWICE])
    assert shared["status"] == "unconfirmed", shared["message"]
    assert "did not return within 1 s on the statement's largest input (n = 19), nor did 1 other version" in shared["message"]
    assert "(after a draw told so)" in shared["message"] and "a faster algorithm is needed there" in shared["message"]
    first, last = events_of(shared, "speed_check")
    assert first["redraw"] and first["handed_over"] is None and len(seconds(first)) == 2
    assert set(seconds(first).values()) == {None}, first["seconds"]
    assert not last["redraw"] and last["handed_over"] is None and not last["seconds"], "the slow versions not timed again"
    told = [body for body in code_requests(stub) if TOLD in json.dumps(body)]
    assert len(code_requests(stub)) == 6 and len(told) == 3, "one draw told, and only one"


def test_a_claim_too_slow_everywhere_draws_candidates_told_so_and_hands_over_a_fast_one(make_shared, stub):
    stub.route("code", FAST, SLOW, SLOW, about=TOLD)
    shared = run_trees(make_shared, stub, [SLOW, SLOW_TWICE])
    assert shared["status"] == "solved", shared["message"]
    assert "counts = [1] * (n + 1)" in handed_over(shared).code
    first, last = events_of(shared, "speed_check")
    assert first["redraw"] and set(seconds(first).values()) == {None}
    slow_ids = set(seconds(first))
    assert last["handed_over"] == handed_over(shared).id and not slow_ids & set(seconds(last)), last["seconds"]
    assert not any(TOLD in json.dumps(body) for body in code_requests(stub)[:3]), "the first draw is not told"


def test_no_draw_told_of_the_speed_when_the_budget_has_no_room_for_one(make_shared, stub):
    # the first draw (3 candidates and the oracle) and the model's tests leave two calls of seven; a draw takes three
    shared = run_trees(make_shared, stub, [SLOW, SLOW_TWICE], max_calls=7)
    assert shared["status"] == "unconfirmed" and "after a draw" not in shared["message"], shared["message"]
    [check] = events_of(shared, "speed_check")
    assert not check["redraw"] and not any(TOLD in json.dumps(body) for body in code_requests(stub))


def test_a_fast_claim_stands_and_its_time_is_recorded(make_shared, stub):
    shared = run_trees(make_shared, stub, [FAST])
    assert shared["status"] == "solved", shared["message"]
    [check] = events_of(shared, "speed_check")
    assert check["handed_over"] == handed_over(shared).id and seconds(check)[check["handed_over"]] < 1


@pytest.mark.parametrize("off", [None, 0])  # 0 as --speed-limit 0 gives it
def test_no_speed_check_when_switched_off(make_shared, stub, off):
    shared = run_trees(make_shared, stub, [SLOW], speed_limit=off)
    assert shared["status"] == "solved" and not events_of(shared, "speed_check")


def test_of_the_versions_passing_the_same_tests_the_best_ranked_is_tried_first(make_shared, stub):
    # the same tests passed and no linter finding between them: the newer ranks higher (Score.rank). Written apart
    # (a table one longer), not renamed: a renamed copy is the same program, and a draw adds no attempt for it
    fast_again = FAST.replace("counts", "ways").replace("[1] * (n + 1)", "[1] * (n + 2)")
    shared = run_trees(make_shared, stub, [FAST, fast_again, SLOW])
    assert shared["status"] == "solved", shared["message"]
    assert "ways = [1] * (n + 2)" in handed_over(shared).code
    [check] = events_of(shared, "speed_check")
    assert len(check["seconds"]) == 2, "the first version tried after the slow claim returned"


def test_the_check_takes_no_more_than_the_time_limit_leaves(make_shared, stub):
    shared = run_trees(make_shared, stub, [SLOW], speed_limit=60, time_limit=10)
    [check] = events_of(shared, "speed_check")
    assert check["limit_s"] < 10 and check["handed_over"] is None, check
    assert shared["status"] == "unconfirmed" and f"did not return within {check['limit_s']:g} s" in shared["message"]


def test_a_short_first_draws_claim_too_slow_at_the_stated_bounds_asks_the_rest_of_the_draw_first(make_shared, stub):
    shared = run_trees(make_shared, stub, [SLOW, FAST], first_draw=1)
    assert shared["status"] == "solved" and "counts = [1] * (n + 1)" in handed_over(shared).code, shared["message"]
    assert len(events_of(shared, "rest_of_draw")) == 1 and len(events_of(shared, "speed_check")) == 1
    assert [x.id for x in shared["attempts"] if x.status == "solved"] == [handed_over(shared).id], "one claim, not two"
