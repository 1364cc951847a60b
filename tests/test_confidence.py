"""The confidence of an ending (core/confidence.py): the evidence programs that behave alike give, and the claim it
gates (core/run_outcome.py)."""
import json

import pytest

from core.cases import Evidence as CaseEvidence, TestCase
from core.compare import Comparison
from core.confidence import (SHIPPED, SIGNS, Calibration, CalibrationError, Evidence, Program, Test, evidence, load,
                             weigh)
from core.run_outcome import RunState, conclude
from core.search_tree import AttemptTree
from core.vocabulary import AttemptStatus, Author, Origin, RunStatus, Source

EXAMPLES = [Test("e1", True, 1), Test("e2", True, 2)]
OTHERS = [Test("v1", False), Test("v2", False), Test("v3", False)]


def returns(*values, **errors):
    """A program's outputs: e1, e2, then v1.. in order; an error type names an input that raised."""
    keys = ["e1", "e2", "v1", "v2", "v3"]
    outputs = {key: {"ok": True, "value": value, "error_type": None, "timed_out": False}
               for key, value in zip(keys, values)}
    for key, error in errors.items():
        outputs[key] = {"ok": False, "value": None, "error_type": error, "timed_out": error == "Timeout"}
    return outputs


RIGHT = returns(1, 2, 3, 4, 5)
OTHERWISE = returns(1, 2, 3, 4, 6)
FAILS = returns(1, 0, 3, 4, 5)


def program(id_, outputs, source="implement", code=None):
    return Program(id_, source, code or f"def run_code(x):\n    return x + {id_}\n", outputs)


def test_the_oracle_and_the_first_candidate_agreeing_are_named():
    found = evidence([program(1, RIGHT), program(2, RIGHT, "oracle")], EXAMPLES + OTHERS, 1)
    assert (found.passes, found.agreeing, found.dissenting, found.failed, found.oracle, found.first) == \
        (True, 1, 0, 0, True, True)
    assert found.inputs == 3 and found.words() == \
        "2 of 2 programs passing the examples agree, the oracle and the first candidate among them"


def test_programs_passing_the_examples_that_return_otherwise_dissent_and_failing_ones_are_counted_apart():
    found = evidence([program(1, FAILS), program(2, OTHERWISE, "oracle"), program(3, RIGHT), program(4, RIGHT)],
                     EXAMPLES + OTHERS, 3)
    assert (found.agreeing, found.dissenting, found.failed, found.oracle, found.first) == (1, 1, 1, False, False)
    assert found.words() == "2 of 3 programs passing the examples agree; 1 more failed an example"
    features = found.features()
    assert features["dissent_share"] == pytest.approx(1 / 3) and features["failed_share"] == pytest.approx(1 / 4)


def test_a_copy_with_names_changed_is_no_second_program_and_a_revision_is_not_independent():
    same_text = "def run_code(x):\n    return x\n"
    other = "def run_code(x):\n    return sum([x])\n"
    found = evidence([program(1, RIGHT, code=same_text), program(2, RIGHT, code=same_text.replace("x", "x ")),
                      program(3, RIGHT, "revise"), program(4, RIGHT, code=other)], EXAMPLES + OTHERS, 1)
    assert found.agreeing == 1  # the other program (4) only: the copy by text and the revision are not votes


def test_a_timeout_or_an_error_is_no_disagreement_but_raising_everywhere_agrees_with_nothing():
    slow = returns(1, 2, 3, 4, v3="Timeout")
    raises = returns(1, 2, 3, 4, v3="ValueError")
    assert evidence([program(1, RIGHT), program(2, slow), program(3, raises)], EXAMPLES + OTHERS, 1).agreeing == 2
    nothing = returns(1, 2, v1="ValueError", v2="ValueError", v3="Timeout")
    assert evidence([program(1, RIGHT), program(2, nothing)], EXAMPLES + OTHERS, 1).dissenting == 1


def test_code_failing_an_example_passes_nothing_and_without_an_example_nothing_passes():
    assert not evidence([program(1, FAILS), program(2, RIGHT)], EXAMPLES + OTHERS, 1).passes
    assert evidence([program(1, FAILS), program(2, RIGHT)], EXAMPLES + OTHERS, 1).words() == "it fails a statement example"
    alone = evidence([program(1, RIGHT)], EXAMPLES + OTHERS, 1)
    assert alone.passes and alone.alone and alone.words() == "it is the only program passing the examples"
    unchecked = evidence([program(1, RIGHT), program(2, RIGHT)], OTHERS, 1)
    assert not unchecked.passes and unchecked.words() == "no statement example to check it on"


def test_outputs_compare_as_the_problem_says():
    tolerant = Comparison(tolerance=1e-3)
    near = program(2, returns(1, 2, 3, 4, 5.0004))
    assert evidence([program(1, RIGHT), near], EXAMPLES + OTHERS, 1, tolerant).agreeing == 1
    assert evidence([program(1, RIGHT), near], EXAMPLES + OTHERS, 1).dissenting == 1


def calibration(threshold=0.9, intercept=-1.0, bands=(), **weights):
    return Calibration("qwen2.5-coder-1.5b-instruct", weights or {"agreeing": 2.0, "oracle_agrees": 1.0}, intercept,
                       threshold, {"bands": list(bands)})


def test_more_agreeing_programs_give_more_confidence_and_code_failing_an_example_almost_none():
    two = calibration().confidence(Evidence(passes=True, agreeing=1).features())
    four = calibration().confidence(Evidence(passes=True, agreeing=3).features())
    assert two < four and calibration().confidence(Evidence(failed=3).features()) == calibration().failing


def test_every_feature_has_its_direction_fixed():
    assert set(SIGNS) == set(Evidence(passes=True).features()) and set(SIGNS.values()) <= {1, -1}


def test_the_shipped_calibration_loads_names_its_model_and_says_what_held_out_runs_showed():
    shipped = load()
    assert shipped.path == SHIPPED and shipped.model == "qwen2.5-coder-1.5b-instruct"
    assert 0 < shipped.threshold <= 1 and shipped.weights and set(shipped.weights) <= set(SIGNS)
    held = shipped.held_out
    assert held["claims"] >= held["right_claims"] >= 0 and held["bands"] and "auc_interval" in held
    assert sum(band["runs"] for band in held["bands"]) == shipped.fitted_on["runs"]


@pytest.mark.parametrize("content, words", [
    (None, "cannot read it"),
    ("{not json", "not JSON"),
    ('{"model": "m", "weights": {"agreeing": 1}, "intercept": 0}', "needs model, weights"),
    ('{"model": "m", "weights": {"luck": 1}, "intercept": 0, "threshold": 0.9}', "unknown feature 'luck'"),
    ('{"model": "m", "weights": {"claimed": 1}, "intercept": 0, "threshold": 0.9}', "unknown feature 'claimed'"),
    ('{"model": "m", "weights": {"agreeing": "x"}, "intercept": 0, "threshold": 0.9}', "needs model, weights"),
    ('{"model": "m", "weights": {"agreeing": 1}, "intercept": 0, "threshold": 1.5}', "threshold must lie in (0, 1]"),
    ('{"model": "m", "weights": {"agreeing": NaN}, "intercept": 0, "threshold": 0.9}', "every number be finite"),
    ('[1, 2]', "needs model, weights"),
])
def test_a_calibration_that_cannot_be_used_is_refused_in_one_line_naming_the_file(tmp_path, content, words):
    path = tmp_path / "calibration.json"
    if content is not None:
        path.write_text(content)
    with pytest.raises(CalibrationError) as error:
        load(str(path))
    message = str(error.value)
    assert str(path) in message and words in message and "\n" not in message


def test_another_models_run_says_whose_runs_the_confidence_was_fitted_on():
    found = Evidence(passes=True, agreeing=1)
    value = weigh(calibration(), found, model="gpt-4o-mini")
    assert value.elsewhere == "qwen2.5-coder-1.5b-instruct" and "fitted on qwen2.5-coder-1.5b-instruct's runs" in value.words()
    assert weigh(calibration(), found, model="qwen2.5-coder-1.5b-instruct").elsewhere is None


def test_a_value_just_below_the_threshold_never_prints_as_the_threshold():
    value = weigh(Calibration("m", {}, 0.7977, 0.69), Evidence(passes=True, agreeing=1))  # logistic(0.7977) = 0.6895
    assert not value.enough and value.words().startswith("confidence 0.68")


BANDS = [{"low": 0.0, "high": 0.3, "runs": 40, "right": 2}, {"low": 0.3, "high": 0.7, "runs": 8, "right": 4},
         {"low": 0.7, "high": 1.0, "runs": 30, "right": 27}]


@pytest.mark.parametrize("intercept, reading, said", [
    (3.0, "likely right", "27 of 30 held-out runs scored 0.7-1.0 were right"),
    (-3.0, "likely wrong", "2 of 40 held-out runs scored 0.0-0.3 were right"),
    (0.0, "", "4 of 8 held-out runs scored 0.3-0.7 were right"),  # a band of under 10 runs names no reading
])
def test_the_confidence_reads_as_the_held_out_runs_scored_alike_did(intercept, reading, said):
    value = weigh(Calibration("m", {}, intercept, 0.9, {"bands": BANDS}), Evidence(passes=True, agreeing=2))
    assert value.reading == reading and said in value.words()
    assert value.words().startswith(f"confidence {value.shown:.2f}{', ' + reading if reading else ''} (3 of 3 programs")


def solved_state(calibration_, programs=2, yours=False):
    """A run the verdict would claim: the claim and `programs` - 1 more candidates returning what it returns."""
    attempts = AttemptTree()
    tests = [TestCase("example_1", {"x": 1}, 1, Origin.STATEMENT, evidence=CaseEvidence(Source.STATEMENT)),
             TestCase("a", {"x": 2}, 2, Origin.MODEL, evidence=CaseEvidence(Source.MAJORITY, programs, programs)),
             TestCase("b", {"x": 3}, 3, Origin.MODEL, evidence=CaseEvidence(Source.MAJORITY, programs, programs))]
    if yours:
        tests.append(TestCase("mine", {"x": 4}, 4, Origin.USER, evidence=CaseEvidence(Source.USER)))
    for k in range(programs):
        attempt = attempts.add(f"def run_code(x):\n    return x * {k + 1} // {k + 1}\n", None, Author.IMPLEMENT, 0)
        attempt.outputs = {case.key: {"ok": True, "value": case.expected, "error_type": None} for case in tests}
        attempt.check, attempt.status = "ok", AttemptStatus.SOLVED if k == 0 else AttemptStatus.KEPT
        attempt.passed = attempt.total = len(tests)
        attempt.trusted_passed = attempt.trusted_total = 1 + yours
    return RunState(attempts, tests, current=1, iteration=1, calibration=calibration_, model="qwen2.5-coder-1.5b-instruct")


def test_a_claim_whose_confidence_reaches_the_threshold_is_solved_and_says_what_it_rests_on():
    outcome = conclude(RunStatus.SOLVED, solved_state(calibration(threshold=0.5), programs=3))
    assert outcome.status == RunStatus.SOLVED and outcome.confidence.enough and outcome.confidence.claimed
    assert outcome.message.startswith("solved: all 3 tests pass")
    assert outcome.message.endswith(f"; confidence {outcome.confidence.shown:.2f} (3 of 3 programs passing the examples "
                                    "agree, the first candidate among them)")


def test_a_claim_below_the_threshold_ends_unconfirmed_saying_why():
    outcome = conclude(RunStatus.SOLVED, solved_state(calibration(threshold=0.99)))
    assert outcome.status == RunStatus.UNCONFIRMED and not outcome.confidence.enough
    assert outcome.message.startswith("not confirmed: attempt 1 passes all 3 tests that count")
    assert "falls short of the confidence a claim needs (0.99)" in outcome.message


def test_no_claim_rests_on_one_program_alone_whatever_the_confidence():
    outcome = conclude(RunStatus.SOLVED, solved_state(calibration(threshold=0.01, intercept=10), programs=1))
    assert outcome.confidence.enough and outcome.status == RunStatus.UNCONFIRMED
    assert "no second program that passes the examples returns what it returns" in outcome.message


def test_a_claim_your_own_tests_back_stands_below_the_threshold_and_still_says_its_confidence():
    outcome = conclude(RunStatus.SOLVED, solved_state(calibration(threshold=0.99), programs=1, yours=True))
    assert outcome.status == RunStatus.SOLVED and not outcome.confidence.enough
    assert f"; confidence {outcome.confidence.shown:.2f} (" in outcome.message


def test_without_a_calibration_the_verdict_alone_decides_and_no_confidence_is_said():
    outcome = conclude(RunStatus.SOLVED, solved_state(None))
    assert outcome.status == RunStatus.SOLVED and outcome.confidence is None and "confidence" not in outcome.message


def test_the_confidence_record_holds_the_evidence_and_what_the_verdict_claimed():
    value = weigh(calibration(), Evidence(passes=True, agreeing=2, oracle=True), model="m", claimed=True)
    record = json.loads(json.dumps(value.record()))
    assert record["evidence"]["agreeing"] == 2 and record["claimed"] is True and record["threshold"] == 0.9
    assert record["words"] == "3 of 3 programs passing the examples agree, the oracle among them"
    assert Evidence(**record["evidence"]) == value.evidence
