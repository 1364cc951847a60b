"""core/cases.py: a test case's record is run.json's form, and reads back as the same case."""
import pytest

from core.cases import NO_GUESS, Evidence, TestCase, input_key, unique_names
from core.vocabulary import Origin, Source


def test_the_record_keeps_only_what_a_case_has():
    example = TestCase("example_1", {"x": 1}, 2, Origin.STATEMENT)
    assert example.record() == {"name": "example_1", "input": {"x": 1}, "expected": 2, "origin": "statement"}
    guessed = TestCase("t", {"x": 5}, None, Origin.MODEL, guess=None, evidence=Evidence(Source.DISPUTED, 0, 2))
    assert guessed.record() == {"name": "t", "input": {"x": 5}, "expected": None, "origin": "model", "guess": None,
                                "evidence": {"source": "disputed", "agree": 0, "voters": 2, "counted": False}}
    assert guessed.model_guess is None and guessed.guess is not NO_GUESS, "a guess of None is a guess"
    for case in (example, guessed, TestCase("v", {"x": 6}, None, Origin.VARIANT, revised="why")):
        assert TestCase.from_record(case.record()) == case


def test_settling_keeps_the_guess_and_takes_the_value_only_when_it_counts():
    case = TestCase("t", {"x": 5}, 9, Origin.MODEL, guess=9)
    settled = case.settled(Evidence(Source.ORACLE, 2, 3), 11)
    assert (settled.expected, settled.model_guess, settled.counted, settled.protected) == (11, 9, True, True)
    disputed = case.settled(Evidence(Source.DISPUTED, 0, 3), 13)
    assert (disputed.expected, disputed.counted, disputed.protected) == (9, False, False)


def test_a_guess_a_program_returned_is_protected_unless_revise_wrote_it():
    case = TestCase("t", {"x": 5}, 9, Origin.MODEL, guess=9)
    assert case.settled(Evidence(Source.GUESS, 1, 2), 9).protected, "a program returned the model's first guess"
    assert not case.settled(Evidence(Source.GUESS, 0, 0), 9).protected, "no program answered: the model's alone"
    assert not case.settled(Evidence(Source.SOLUTION_GUESS, 1, 1), 9).protected, "only the claimed code returned it"
    revised = TestCase("t", {"x": 5}, 9, Origin.MODEL, guess=9, revised="the code says so")
    assert not revised.settled(Evidence(Source.GUESS, 1, 2), 9).protected, "written after seeing the code's outputs"


def test_one_key_per_input_whatever_the_order_of_its_arguments():
    assert input_key({"a": 1, "b": [2]}) == input_key({"b": [2], "a": 1})


def test_a_repeated_name_is_made_unique_by_its_position():
    cases = [TestCase(name, {"x": i}, i, Origin.MODEL) for i, name in enumerate(["a", "b", "a"])]
    assert [case.name for case in unique_names(cases)] == ["a", "b", "a_3"]


@pytest.mark.parametrize("evidence, backs", [
    (Evidence(Source.ORACLE, 1, 2), True), (Evidence(Source.MAJORITY, 2, 3), True), (Evidence(Source.USER), True),
    (Evidence(Source.GUESS, 1, 1), True),            # the only program to answer returns the guess
    (Evidence(Source.GUESS, 1, 2), False),           # a tie the guess broke: another program answered otherwise
    (Evidence(Source.SOLUTION_GUESS, 1, 1), False),  # only the claimed code, which a revision may have bent to it
    (Evidence(Source.STATEMENT), False), (Evidence(Source.DISPUTED, 0, 2), False)])
def test_what_backs_a_claim_beyond_the_statement_examples(evidence, backs):
    assert evidence.backs_a_claim is backs


def test_a_guess_backs_a_claim_only_as_the_test_writer_wrote_it_before_any_code():
    settled = Evidence(Source.GUESS, 1, 1)
    written = TestCase("t", {"x": 5}, 11, Origin.MODEL, guess=11, evidence=settled)
    by_revise = TestCase("t", {"x": 5}, 11, Origin.MODEL, guess=11, evidence=settled, revised="the code returns 11")
    assert written.backs_a_claim and not by_revise.backs_a_claim
    assert not TestCase("t", {"x": 5}, 11, Origin.MODEL, guess=11).backs_a_claim  # not settled yet
