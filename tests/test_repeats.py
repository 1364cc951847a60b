"""core/repeats.py: when a draw's candidate is a program the run already has, by text or by what it returns."""
import pytest

from core.repeats import behaviour_repeats, same_output, written_before
from core.search_tree import AttemptTree
from tests.scripted_answers import case

TESTS = [case("example_1", {"x": 1}, 2, "statement"), case("t_5", {"x": 5}, 9)]


def value(returned):
    return {"ok": True, "value": returned, "error_type": None}


def raised(error_type="ValueError"):
    return {"ok": False, "value": None, "error_type": error_type}


def program(tree, source, *outputs, check="ok", status="new"):
    """A program added to `tree` with what it returned on each of TESTS (None: not run there)."""
    attempt = tree.add(f"def run_code(x):\n    return {len(tree) + 1}\n", None, source, 0)
    attempt.check, attempt.status = check, status
    tree.ran(attempt.id, [(test.key, out) for test, out in zip(TESTS, outputs) if out is not None])
    return attempt


@pytest.mark.parametrize("one, other, same", [
    (value([1, 2]), value([1, 2]), True), (value(0.1 + 0.2), value(0.3), True), (value([1, 2]), value([2, 1]), False),
    (raised(), raised(), True), (raised("ValueError"), raised("IndexError"), False), (value(None), raised(), False)])
def test_the_same_output_is_the_same_value_or_the_same_error_type(one, other, same):
    assert same_output(one, other) is same


def test_a_candidate_returning_what_an_earlier_program_returns_on_every_input_repeats_it():
    tree = AttemptTree()
    program(tree, "oracle", value(2), value(9), status="oracle")
    program(tree, "implement", value(2), value(7), status="kept")
    program(tree, "implement", value(2), value(7))
    program(tree, "implement", value(2), value(9))
    program(tree, "implement", value(2), value(8))
    assert behaviour_repeats(list(tree), TESTS) == {3: 2, 4: 1}, "the earliest it repeats: a candidate or the oracle"


def test_raising_the_same_error_everywhere_or_failing_the_same_load_check_is_the_same_behaviour():
    tree = AttemptTree()
    program(tree, "implement", raised(), raised(), status="kept")
    program(tree, "implement", raised(), raised())
    unloaded = {"check": "import", "error_type": "ModuleNotFoundError", "message": "no numpy"}
    program(tree, "implement", check=unloaded, status="kept")
    program(tree, "implement", check=dict(unloaded))
    assert behaviour_repeats(list(tree), TESTS) == {2: 1, 4: 3}


def test_only_new_candidates_repeat_and_only_programs_run_on_every_input_are_compared():
    tree = AttemptTree()
    program(tree, "implement", value(2), None, status="rejected")  # not run on t_5
    program(tree, "checker", value(2), value(9), status="judge")
    program(tree, "revise", value(2), value(9))  # a revision is no draw
    program(tree, "implement", value(2), value(9), status="kept")  # judged in an earlier round: decided then
    program(tree, "implement", value(2), None)
    assert behaviour_repeats(list(tree), TESTS) == {}
    assert behaviour_repeats(list(tree), []) == {}, "no input: nothing to compare"


def test_a_program_written_before_by_text_is_the_earliest_with_its_key_never_a_judge():
    tree = AttemptTree()
    tree.add("def run_code(x):\n    return x + 1\n", None, "checker", 0)
    first = tree.add("def run_code(x):\n    y = x + 1\n    return y\n", None, "oracle", 0)
    tree.add("def run_code(x):\n    z = x + 1  # again\n    return z\n", None, "implement", 0)
    assert written_before("def run_code(x):\n    w = x + 1\n    return w\n", list(tree)) is first
    assert written_before("def run_code(x):\n    return x + 2\n", list(tree)) is None
