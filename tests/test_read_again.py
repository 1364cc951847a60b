"""ReadAgain (--second-reading): a claim's second reading of the statement, with a scripted model and the real
sandbox. It is asked only where its answer can change the ending (the claim short of the confidence a claim needs,
lifted if the reading agrees); these tests use calibrations that make it so, or not: what is under test is the check."""
import json

import pytest

from flow import create_flow
from tests import scripted_answers as a

# Two Sum with its promise, as LeetCode states it: a fresh input may have two pairs, so only the inputs the run
# settled are compared (right programs differ on a promise broken)
PROMISED = a.TWO_SUM.replace("that add up to target,", "that add up to target (each input has exactly one solution),")
READ_BACKWARDS = a.RESTATED.replace("return [i, j]", "return [j, i]")  # fails the example: no say


def calibration_file(tmp_path, weights, intercept, threshold=0.5):
    path = tmp_path / "calibration.json"
    path.write_text(json.dumps({"model": "stub-model", "weights": weights, "intercept": intercept, "threshold": threshold}))
    return str(path)


@pytest.fixture
def needs_the_reading(tmp_path):
    """A claim short of the threshold on its evidence alone (0.01), carried by a reading that agrees (1.00)."""
    return calibration_file(tmp_path, {"claimed": 10.0, "second_reading": 20.0}, -15.0)


@pytest.fixture
def takes_the_verdicts_word(tmp_path):
    return calibration_file(tmp_path, {"claimed": 20.0}, -10.0)


def run(stub, make_shared, calibration, reading=a.RESTATED, problem=PROMISED, **settings):
    a.route_defaults(stub, reading=reading)
    shared = make_shared(problem, calibration=calibration, **{"second_reading": True, **settings})
    create_flow(shared["services"].settings).run(shared)
    return shared


def readings(shared):
    return [e for e in shared["services"].record.data["events"] if e["kind"] == "second_reading"]


def kinds(stub):
    from tests.stub_openai_server import request_kind
    return [request_kind(body) for body in stub.requests]


def test_a_second_reading_that_agrees_lets_the_claim_stand_and_says_so(stub, make_shared, needs_the_reading):
    shared = run(stub, make_shared, needs_the_reading)
    assert shared["status"] == "solved" and shared["second_reading"] == "agrees"
    [event] = readings(shared)
    assert event["said"] == "agrees" and event["compared"] > 0 and "nums" in event["code"]
    assert event["rules"][0] == "return the indices of the two numbers that add up to target"
    assert kinds(stub)[-2:] == ["rules", "restated"]
    restated = stub.requests[-1]["messages"][-1]["content"]
    assert "- the indices are in increasing order" in restated and "seen = {}" not in restated, "never the claim's code"


def test_a_second_reading_that_returns_otherwise_withholds_the_claim_saying_where(stub, make_shared, needs_the_reading):
    # the model's tests first: pair_at_the_end ([3, 2, 4], 6) is counted, and the reading returns [] there
    shared = run(stub, make_shared, needs_the_reading, reading=a.READ_FIRST_TWO, model_tests="first")
    assert shared["status"] == "unconfirmed" and shared["second_reading"] == "differs"
    message = shared["message"]
    assert message.startswith("not confirmed (a program written from the statement's rules, listed first, returns [] "
                              "where attempt 1 returns [1, 2] on nums = [3, 2, 4], target = 6")
    assert "check which reading of the statement is right there" in message
    [event] = readings(shared)
    assert event["differ"] >= 1 and event["apart"][0] == {"input": {"nums": [3, 2, 4], "target": 6}, "claim": "[1, 2]",
                                                          "reading": "[]"}
    assert not any(attempt.status == "solved" for attempt in shared["attempts"]), "no attempt keeps the claim"


def test_fresh_inputs_are_compared_where_no_single_answer_is_promised(stub, make_shared, needs_the_reading):
    # without the promise, a fresh input with two pairs tells the one-pass claim ([1, 3] on [2, 2, 7, 15], 17) from
    # a reading that takes the first pair ([0, 3]): the statement does not say which, so no claim
    shared = run(stub, make_shared, needs_the_reading, problem=a.TWO_SUM)
    assert shared["status"] == "unconfirmed" and readings(shared)[0]["compared"] > 60


def test_a_second_reading_that_fails_an_example_has_no_say_and_the_claim_rests_on_its_evidence(stub, make_shared,
                                                                                                needs_the_reading):
    shared = run(stub, make_shared, needs_the_reading, reading=READ_BACKWARDS)
    assert shared["second_reading"] == "no_say" and readings(shared)[0]["said"] == "no_say"
    assert shared["status"] == "unconfirmed" and "falls short of the confidence a claim needs" in shared["message"]


def test_no_answer_for_the_second_reading_leaves_the_claim_to_the_confidence(stub, make_shared, needs_the_reading):
    a.route_defaults(stub, reading=None)
    stub.route("rules", *[{"status": 500, "body": "down"}] * 4)
    shared = make_shared(PROMISED, calibration=needs_the_reading, second_reading=True)
    create_flow(shared["services"].settings).run(shared)
    assert shared["second_reading"] == "none" and readings(shared)[0]["said"] == "none"
    assert shared["status"] == "unconfirmed" and "falls short of the confidence a claim needs" in shared["message"]


def test_by_default_no_second_reading_is_asked(stub, make_shared, needs_the_reading):
    a.route_defaults(stub)
    shared = make_shared(PROMISED, calibration=needs_the_reading)
    create_flow(shared["services"].settings).run(shared)
    assert shared["second_reading"] is None and readings(shared) == []
    assert "rules" not in kinds(stub) and "restated" not in kinds(stub)


def test_a_claim_its_evidence_carries_asks_no_second_reading(stub, make_shared, takes_the_verdicts_word):
    shared = run(stub, make_shared, takes_the_verdicts_word)
    assert shared["status"] == "solved" and shared["second_reading"] is None and readings(shared) == []
    assert "rules" not in kinds(stub)


def test_a_claim_no_agreeing_reading_could_lift_asks_none(stub, make_shared, tmp_path):
    shared = run(stub, make_shared, calibration_file(tmp_path, {"claimed": 1.0}, -10.0))
    assert shared["status"] == "unconfirmed" and readings(shared) == [] and "rules" not in kinds(stub)


def test_the_confidence_counts_a_second_reading_that_agrees(stub, make_shared, tmp_path):
    path = tmp_path / "c.json"
    path.write_text(json.dumps({"model": "stub-model", "weights": {"second_reading": 4.0}, "intercept": -2.0,
                                "threshold": 0.8}))
    shared = run(stub, make_shared, str(path))
    assert shared["status"] == "solved" and shared["confidence"].features["second_reading"] == 1.0
    assert shared["message"].endswith("; confidence 0.88")
