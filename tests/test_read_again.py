"""ReadAgain (--second-reading): a claim's second reading of the statement, with a scripted model and the real
sandbox. It only ever withholds a claim, so it is asked only where the claim would stand (a second program backs it
and its confidence reaches the threshold); these tests use calibrations that make it so, or not: what is under test
is the check."""
import json

import pytest

from flow import create_flow
from tests import scripted_answers as a

# Two Sum with its promise, as LeetCode states it: a fresh input may have two pairs, so only the inputs the run
# settled are compared (right programs differ on a promise broken)
PROMISED = a.TWO_SUM.replace("that add up to target,", "that add up to target (each input has exactly one solution),")
READ_BACKWARDS = a.RESTATED.replace("return [i, j]", "return [j, i]")  # fails the example: no say


def calibration_file(tmp_path, intercept, threshold=0.5):
    path = tmp_path / "calibration.json"
    path.write_text(json.dumps({"model": "stub-model", "weights": {}, "intercept": intercept, "threshold": threshold}))
    return str(path)


@pytest.fixture
def stands(tmp_path):
    """Code passing the examples scores 1.00: the claim stands unless the reading withholds it."""
    return calibration_file(tmp_path, 10.0)


@pytest.fixture
def falls_short(tmp_path):
    """Code passing the examples scores 0.00: no claim, whatever a reading says."""
    return calibration_file(tmp_path, -10.0)


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


def test_a_second_reading_that_agrees_lets_the_claim_stand_and_says_so(stub, make_shared, stands):
    shared = run(stub, make_shared, stands)
    assert shared["status"] == "solved" and shared["second_reading"] == "agrees"
    [event] = readings(shared)
    assert event["said"] == "agrees" and event["compared"] > 0 and "nums" in event["code"]
    assert event["rules"][0] == "return the indices of the two numbers that add up to target"
    assert kinds(stub)[-2:] == ["rules", "restated"]
    restated = stub.requests[-1]["messages"][-1]["content"]
    assert "- the indices are in increasing order" in restated and "seen = {}" not in restated, "never the claim's code"


def test_a_second_reading_that_returns_otherwise_withholds_the_claim_saying_where(stub, make_shared, stands):
    # the model's tests first: pair_at_the_end ([3, 2, 4], 6) is counted, and the reading returns [] there
    shared = run(stub, make_shared, stands, reading=a.READ_FIRST_TWO, model_tests="first")
    assert shared["status"] == "unconfirmed" and shared["second_reading"] == "differs"
    message = shared["message"]
    assert message.startswith("not confirmed (a program written from the statement's rules, listed first, returns [] "
                              "where attempt 1 returns [1, 2] on nums = [3, 2, 4], target = 6")
    assert "check which reading of the statement is right there" in message
    [event] = readings(shared)
    assert event["differ"] >= 1 and event["apart"][0] == {"input": {"nums": [3, 2, 4], "target": 6}, "claim": "[1, 2]",
                                                          "reading": "[]"}
    assert not any(attempt.status == "solved" for attempt in shared["attempts"]), "no attempt keeps the claim"


def test_fresh_inputs_are_compared_where_no_single_answer_is_promised(stub, make_shared, stands):
    # without the promise, a fresh input with two pairs tells the one-pass claim ([1, 3] on [2, 2, 7, 15], 17) from
    # a reading that takes the first pair ([0, 3]): the statement does not say which, so no claim
    shared = run(stub, make_shared, stands, problem=a.TWO_SUM)
    assert shared["status"] == "unconfirmed" and readings(shared)[0]["compared"] > 60


def test_a_second_reading_that_fails_an_example_has_no_say_and_the_claim_rests_on_its_evidence(stub, make_shared,
                                                                                                stands):
    shared = run(stub, make_shared, stands, reading=READ_BACKWARDS)
    assert shared["second_reading"] == "no_say" and readings(shared)[0]["said"] == "no_say"
    assert shared["status"] == "solved"


def test_no_answer_for_the_second_reading_leaves_the_claim_to_its_evidence(stub, make_shared, stands):
    a.route_defaults(stub, reading=None)
    stub.route("rules", *[{"status": 500, "body": "down"}] * 4)
    shared = make_shared(PROMISED, calibration=stands, second_reading=True)
    create_flow(shared["services"].settings).run(shared)
    assert shared["second_reading"] == "none" and readings(shared)[0]["said"] == "none"
    assert shared["status"] == "solved"


def test_by_default_no_second_reading_is_asked(stub, make_shared, stands):
    a.route_defaults(stub)
    shared = make_shared(PROMISED, calibration=stands)
    create_flow(shared["services"].settings).run(shared)
    assert shared["second_reading"] is None and readings(shared) == []
    assert "rules" not in kinds(stub) and "restated" not in kinds(stub)


def test_a_claim_short_of_the_confidence_asks_no_second_reading_which_could_not_lift_it(stub, make_shared, falls_short):
    shared = run(stub, make_shared, falls_short, confidence_draws=0)
    assert shared["status"] == "unconfirmed" and "falls short of the confidence a claim needs" in shared["message"]
    assert shared["second_reading"] is None and readings(shared) == [] and "rules" not in kinds(stub)


def test_an_agreeing_second_reading_is_no_evidence_the_confidence_weighs(stub, make_shared, stands):
    shared = run(stub, make_shared, stands)
    assert shared["second_reading"] == "agrees" and "second_reading" not in shared["confidence"].features
