"""core/budget.py: the call and token budgets hold before every request, also for requests sent together."""
import pytest

from tests import scripted_answers as a
from tests.test_flow import run_flow
from core.budget import Budget, BudgetSpent

PROMPT = [{"role": "user", "content": "x" * 400}]  # about 100 tokens


def used(calls=0, tokens=0):
    return lambda: {"model_calls": calls, "prompt_tokens": tokens, "completion_tokens": 0}


def test_the_call_budget_counts_requests_in_flight():
    budget = Budget(max_calls=3, usage=used(calls=1))
    budget.reserve(PROMPT, 500)
    with pytest.raises(BudgetSpent, match=r"the call budget is spent: 2 of --max-calls 2|of --max-calls 3"):
        budget.reserve(PROMPT, 500)
        budget.reserve(PROMPT, 500)


def test_the_answers_cap_is_cut_to_the_tokens_left_and_a_hold_is_released():
    budget = Budget(token_budget=1000, usage=used(tokens=300))
    cap, held = budget.reserve(PROMPT, 1500)
    assert cap == 1000 - 300 - 100 and held == 700
    with pytest.raises(BudgetSpent, match=r"the token budget is spent: 1,000 of --token-budget 1,000 used"):
        budget.reserve(PROMPT, 1500)
    budget.release(held)
    assert budget.reserve(PROMPT, 200)[0] == 200


def test_no_budget_never_refuses():
    assert Budget().reserve(PROMPT, 900) == (900, 100 + 900)


def test_a_call_budget_smaller_than_a_step_is_never_overshot(make_shared, stub):
    a.route_defaults(stub, candidates=[a.BACKWARDS_CODE])  # fails the example: more steps would be needed
    shared = run_flow(make_shared(a.TWO_SUM, max_calls=3))
    assert len(stub.requests) == 3 and shared["services"].record.usage()["model_calls"] == 3
    assert shared["status"] == "unsolved" and "the call budget is spent: 3 of --max-calls 3 used" in shared["message"]


def test_a_token_budget_is_never_overshot(make_shared, stub):
    a.route_defaults(stub, candidates=[a.BACKWARDS_CODE])
    stub.route("code", *[a.BACKWARDS_CODE] * 3)
    shared = run_flow(make_shared(a.TWO_SUM, token_budget=1200))
    usage = shared["services"].record.usage()
    assert usage["prompt_tokens"] + usage["completion_tokens"] <= 1200
    assert "the token budget is spent" in shared["message"]


def test_once_the_time_limit_is_out_every_request_is_refused_saying_so():
    budget = Budget(time_limit=60, usage=used())
    budget.reserve(PROMPT, 500)
    budget.started -= 61  # a minute has gone by
    assert budget.stopped() == "the time limit of 60 s ran out"
    with pytest.raises(BudgetSpent, match="the time limit of 60 s ran out"):
        budget.reserve(PROMPT, 500)


def test_a_stop_refuses_every_request_and_any_optional_work():
    budget = Budget(usage=used())
    assert budget.affords(3, 1000) and not budget.stopped()
    budget.stop("cancelled by the client")
    assert not budget.affords(3, 1000)
    with pytest.raises(BudgetSpent, match="cancelled by the client"):
        budget.reserve(PROMPT, 500)


def test_optional_work_is_judged_by_the_time_the_calls_so_far_took():
    budget = Budget(time_limit=100, usage=lambda: {"model_calls": 4, "prompt_tokens": 0, "completion_tokens": 0,
                                                   "model_seconds": 76})
    budget.started -= 40  # 60 s left; a call took 19 s
    assert budget.affords(3, 0) and not budget.affords(4, 0)


def test_a_draw_the_time_left_cannot_fit_is_what_cut_the_run_short():
    budget = Budget(time_limit=100, usage=lambda: {"model_calls": 2, "prompt_tokens": 0, "completion_tokens": 0,
                                                   "model_seconds": 50})
    budget.started -= 80  # 20 s left; a call took 25 s
    assert budget.cut_short() == "" and not budget.affords(1, 0)
    assert budget.cut_short() == "the time limit of 100 s left too little time for another draw"
    budget.started -= 30
    assert budget.cut_short() == "the time limit of 100 s ran out"
