"""core/empty_inputs.py and the check it feeds (TryEmptyInputs): a claim that raises on an emptied list or
string, where another version passing the same tests returns, is not the one handed over."""
import pytest

from core.empty_inputs import emptied_inputs
from tests import scripted_answers as a
from tests.scripted_answers import events_of, handed_over
from tests.test_flow import run_flow


def statement(*lines):
    return "Compute it.\n\nConstraints:\n\n" + "\n".join(lines) + "\n"


@pytest.mark.parametrize("text, example, made", [
    pytest.param("Return the running maximum.", {"numbers": [1, 3]}, [{"numbers": []}], id="a_list_no_constraints"),
    pytest.param("Count the vowels.", {"s": "ab"}, [{"s": ""}], id="a_string"),
    pytest.param("Merge them.", {"a": [1], "b": "x"}, [{"a": [], "b": "x"}, {"a": [1], "b": ""}], id="each_emptied_alone"),
    pytest.param(statement("0 <= nums.length <= 100"), {"nums": [1, 2], "k": 3}, [{"nums": [], "k": 3}],
                 id="a_constraint_that_allows_empty"),
    pytest.param(statement("1 <= words.length <= 100", "1 <= words[i].length <= 10"), {"words": ["ab"], "s": "abc"},
                 [{"words": ["ab"], "s": ""}], id="only_the_argument_a_constraint_leaves_free"),
])
def test_each_list_or_string_emptied_where_the_statement_allows(text, example, made):
    assert emptied_inputs(text, example) == made


@pytest.mark.parametrize("text, example", [
    pytest.param(statement("1 <= nums.length <= 10^4"), {"nums": [1, 2]}, id="a_length_lower_bound"),
    pytest.param(statement("- 1 <= s.length <= 100"), {"s": "ab"}, id="a_string_length_lower_bound"),
    pytest.param("Given a non-empty list of integers, return its maximum.", {"nums": [1]}, id="non_empty_in_words"),
    pytest.param("The list holds at least one number.", {"nums": [1]}, id="at_least_one_in_words"),
    pytest.param("Add them.", {"a": 1, "b": 2}, id="no_list_or_string"),
    pytest.param("Add them.", {"nums": [], "n": 2}, id="already_empty"),
    pytest.param("Add them.", {}, id="no_arguments"),
])
def test_no_emptied_input_where_the_statement_rules_it_out(text, example):
    assert emptied_inputs(text, example) == []


# Flow: the running maximum (HumanEval/9), claimed by a version that raises on [] where the others return []
RUNNING_MAX = """From a list of integers, return the list of the largest value seen up to each position.

Example 1:
Input: numbers = [1, 3, 2]
Output: [1, 3, 3]
"""
RUNNING_MAX_TESTS = """```yaml
test_cases:
  - name: rising
    input: {numbers: [1, 2, 3]}
    expected: [1, 2, 3]
  - name: one
    input: {numbers: [5]}
    expected: [5]
```"""
GUARDED = """```python
def run_code(numbers):
    if not numbers:
        return []
    out = [numbers[0]]
    for x in numbers[1:]:
        out.append(max(out[-1], x))
    return out
```"""
STARTS_AT_FIRST = """```python
def run_code(numbers):
    best, out = numbers[0], []
    for x in numbers:
        best = max(best, x)
        out.append(best)
    return out
```"""
ORACLE = """```python
def run_code(numbers):
    return [max(numbers[:i + 1]) for i in range(len(numbers))]
```"""


def run_running_max(make_shared, stub, candidates, problem=RUNNING_MAX, first_draw=None):
    a.route_defaults(stub, tests=RUNNING_MAX_TESTS, candidates=candidates, oracle=ORACLE)
    # one request at a time, so the attempts are numbered as listed: the newest that passes is the claim; the
    # first draw whole (three candidates) unless a test asks for the short one (the default)
    shared = make_shared(problem, variants=0, parallel=1, first_draw=first_draw)
    return run_flow(shared)


def test_a_claim_that_raises_on_an_emptied_list_hands_over_a_version_passing_the_same_tests_that_returns(make_shared, stub):
    shared = run_running_max(make_shared, stub, [GUARDED, STARTS_AT_FIRST])
    assert shared["status"] == "solved", shared["message"]
    kept = handed_over(shared)
    assert "if not numbers" in kept.code, kept.code
    [check] = events_of(shared, "empty_check")
    raiser = next(x.id for x in shared["attempts"] if "best, out = numbers[0]" in x.code)
    assert check["inputs"] == [{"numbers": []}] and check["handed_over"] == kept.id
    assert check["raised"] == [{"attempt": raiser, "raised": 1}, {"attempt": kept.id, "raised": 0}]


def test_a_claim_that_returns_on_the_emptied_input_stands(make_shared, stub):
    shared = run_running_max(make_shared, stub, [STARTS_AT_FIRST, GUARDED])
    assert shared["status"] == "solved" and "if not numbers" in handed_over(shared).code
    [check] = events_of(shared, "empty_check")
    assert check["raised"] == [{"attempt": handed_over(shared).id, "raised": 0}], "no other version run"


def test_a_claim_no_other_version_of_which_returns_stands_the_check_never_blocks(make_shared, stub):
    raises_too = STARTS_AT_FIRST.replace("best, out = numbers[0], []", "out = []\n    best = numbers[0]")
    shared = run_running_max(make_shared, stub, [raises_too, STARTS_AT_FIRST])
    assert shared["status"] == "solved", shared["message"]
    [check] = events_of(shared, "empty_check")
    assert check["handed_over"] == handed_over(shared).id and [x["raised"] for x in check["raised"]] == [1, 1]


def test_no_check_where_the_statement_says_the_list_is_never_empty(make_shared, stub):
    problem = RUNNING_MAX.replace("From a list", "From a non-empty list")
    shared = run_running_max(make_shared, stub, [GUARDED, STARTS_AT_FIRST], problem)
    assert shared["status"] == "solved" and not events_of(shared, "empty_check")
    assert "best, out = numbers[0]" in handed_over(shared).code, "the claim as the verdict chose it"


def test_a_short_first_draws_claim_that_raises_on_an_emptied_list_asks_the_rest_of_the_draw_first(make_shared, stub):
    # the first candidate and the oracle settle a claim that raises on []; no other version yet: the draw's rest
    shared = run_running_max(make_shared, stub, [STARTS_AT_FIRST, GUARDED], first_draw=1)
    assert shared["status"] == "solved" and "if not numbers" in handed_over(shared).code, shared["message"]
    assert len(events_of(shared, "rest_of_draw")) == 1 and shared["draw_rest"] == 0
    assert [x.id for x in shared["attempts"] if x.status == "solved"] == [handed_over(shared).id], "one claim, not two"
    asked = [r["messages"][1]["content"].split("\n")[0] for r in stub.requests]
    assert sum(line.startswith("Implement run_code") for line in asked) == 3
