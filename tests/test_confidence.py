"""The confidence of an ending (core/confidence.py) and the claim it gates (core/run_outcome.py)."""
import json
import math

import pytest

from core.cases import Evidence, TestCase
from core.confidence import SHIPPED, Calibration, CalibrationError, features, load, weigh
from core.run_outcome import RunState, conclude
from core.search_tree import AttemptTree
from core.vocabulary import AttemptStatus, Author, Origin, RunStatus, Source


def case_record(name, source, agree=0, voters=0, origin=None):
    origin = origin or (Origin.STATEMENT if source == Source.STATEMENT else Origin.MODEL)
    return {"name": name, "input": {"x": name}, "expected": 1, "origin": origin,
            "evidence": Evidence(Source(source), agree, voters).record()}


def attempt(id_, source="implement", passed=3, total=3, trusted=1, trusted_total=1):
    return {"id": id_, "source": source, "passed": passed, "total": total, "trusted_passed": trusted,
            "trusted_total": trusted_total}


EXAMPLE = case_record("example_1", Source.STATEMENT)


@pytest.mark.parametrize("status, tests, attempts, current, expected", [
    pytest.param("solved", [EXAMPLE, case_record("a", Source.ORACLE, 2, 2), case_record("b", Source.ORACLE, 3, 3)],
                 [attempt(1), attempt(2, "oracle")], 1,
                 {"claimed": 1, "passes_counted": 1, "passes_examples": 1, "examples": 1, "agreeing_programs": 3,
                  "oracle_backs": 1, "guess_only": 0, "draws": 1, "oracle_handed_over": 0,
                  "settled_inputs": math.log1p(2)}, id="a claim the oracle and candidates back"),
    pytest.param("solved", [EXAMPLE, EXAMPLE, case_record("a", Source.GUESS, 1, 1), case_record("b", Source.SOLUTION_GUESS)],
                 [attempt(1)], 1, {"examples": 2, "guess_only": 1, "agreeing_programs": 1, "oracle_backs": 0},
                 id="one program and the model's guess"),
    pytest.param("unconfirmed", [EXAMPLE, case_record("a", Source.MAJORITY, 2, 3), case_record("b", Source.DISPUTED, 0, 2)],
                 [attempt(1), attempt(2), attempt(3)], 2,
                 {"claimed": 0, "split": 1, "left_out": math.log1p(1), "draws": 3}, id="a split vote and a dispute"),
    pytest.param("unsolved", [EXAMPLE, case_record("v", Source.UNCHECKED, origin=Origin.VARIANT)],
                 [attempt(1, passed=0, total=1, trusted=0), attempt(2, "oracle", passed=1, total=1)], 2,
                 {"passes_examples": 1, "oracle_handed_over": 1, "left_out": 0.0, "settled_inputs": 0.0},
                 id="the oracle handed over; an unchecked variant is not left out"),
    pytest.param("unsolved", [EXAMPLE], [attempt(1, passed=0, total=1, trusted=0)], 1,
                 {"passes_counted": 0, "passes_examples": 0}, id="a program failing the example"),
    pytest.param("model_failed", [], [], None, {"passes_counted": 0, "examples": 0, "draws": 0},
                 id="nothing handed over"),
])
def test_features_read_the_evidence_as_run_json_records_it(status, tests, attempts, current, expected):
    values = features(status, tests, attempts, current)
    assert {name: values[name] for name in expected} == pytest.approx(expected)


def calibration(threshold=0.9, **weights):
    return Calibration("qwen2.5-coder-1.5b-instruct", weights or {"agreeing_programs": 2.0}, -5.0, threshold)


def test_more_agreeing_programs_give_more_confidence():
    low = features("solved", [EXAMPLE, case_record("a", Source.MAJORITY, 2, 2)], [attempt(1)], 1)
    high = features("solved", [EXAMPLE, case_record("a", Source.MAJORITY, 4, 4)], [attempt(1)], 1)
    assert calibration().confidence(low) < 0.5 < calibration().confidence(high)


def test_the_shipped_calibration_loads_and_names_its_model():
    shipped = load()
    assert shipped.path == SHIPPED and shipped.model == "qwen2.5-coder-1.5b-instruct"
    assert 0 < shipped.threshold <= 1 and shipped.weights


@pytest.mark.parametrize("content, words", [
    (None, "cannot read it"),
    ("{not json", "not JSON"),
    ('{"model": "m", "weights": {"claimed": 1}, "intercept": 0}', "needs model, weights"),
    ('{"model": "m", "weights": {"luck": 1}, "intercept": 0, "threshold": 0.9}', "unknown feature 'luck'"),
    ('{"model": "m", "weights": {"claimed": "x"}, "intercept": 0, "threshold": 0.9}', "needs model, weights"),
    ('{"model": "m", "weights": {"claimed": 1}, "intercept": 0, "threshold": 1.5}', "threshold must lie in (0, 1]"),
    ('{"model": "m", "weights": {"claimed": NaN}, "intercept": 0, "threshold": 0.9}', "every number be finite"),
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
    values = weigh(calibration(), "solved", [EXAMPLE], [attempt(1)], 1, model="gpt-4o-mini")
    assert values.elsewhere == "qwen2.5-coder-1.5b-instruct"
    assert "fitted on qwen2.5-coder-1.5b-instruct's runs" in values.words()
    assert weigh(calibration(), "solved", [EXAMPLE], [attempt(1)], 1, model="qwen2.5-coder-1.5b-instruct").elsewhere is None


def solved_state(agree, calibration_):
    """A run the verdict would claim: the example and two inputs settled by `agree` agreeing programs."""
    attempts = AttemptTree()
    claim = attempts.add("def run_code(x): return 1", None, Author.IMPLEMENT, 0)
    claim.passed, claim.total, claim.trusted_passed, claim.trusted_total = 3, 3, 1, 1
    claim.status = AttemptStatus.SOLVED
    tests = [TestCase.from_record(t) for t in (EXAMPLE, case_record("a", Source.MAJORITY, agree, agree),
                                               case_record("b", Source.MAJORITY, agree, agree))]
    return RunState(attempts, tests, current=claim.id, iteration=1, calibration=calibration_, model="qwen2.5-coder-1.5b-instruct")


def test_a_claim_whose_confidence_reaches_the_threshold_is_solved_and_says_its_confidence():
    outcome = conclude(RunStatus.SOLVED, solved_state(4, calibration(threshold=0.9)))
    assert outcome.status == RunStatus.SOLVED and outcome.confidence.enough
    assert outcome.message.startswith("solved: all 3 tests pass") and outcome.message.endswith(
        f"; confidence {outcome.confidence.value:.2f}")


def test_a_claim_below_the_threshold_ends_unconfirmed_saying_why():
    outcome = conclude(RunStatus.SOLVED, solved_state(2, calibration(threshold=0.9)))
    assert outcome.status == RunStatus.UNCONFIRMED and not outcome.confidence.enough
    assert outcome.message.startswith("not confirmed: attempt 1 passes all 3 tests that count")
    assert "falls short of the confidence a claim needs (0.90)" in outcome.message
    assert outcome.message.endswith(f"; confidence {outcome.confidence.value:.2f}")


def test_a_claim_your_own_tests_back_stands_below_the_threshold_and_still_says_its_confidence():
    state = solved_state(2, calibration(threshold=0.9))
    state.tests.append(TestCase.from_record(case_record("mine", Source.USER, origin=Origin.USER)))
    outcome = conclude(RunStatus.SOLVED, state)
    assert outcome.status == RunStatus.SOLVED and not outcome.confidence.enough
    assert outcome.message.endswith(f"; confidence {outcome.confidence.value:.2f}")


def test_without_a_calibration_the_verdict_alone_decides_and_no_confidence_is_said():
    state = solved_state(2, None)
    outcome = conclude(RunStatus.SOLVED, state)
    assert outcome.status == RunStatus.SOLVED and outcome.confidence is None and "confidence" not in outcome.message


def test_the_confidence_record_holds_what_a_refit_reads(tmp_path):
    value = weigh(calibration(), "solved", [EXAMPLE], [attempt(1)], 1, model="m")
    record = json.loads(json.dumps(value.record()))
    assert record["features"] == value.features and record["threshold"] == 0.9 and record["enough"] is False
