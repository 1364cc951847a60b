"""How ImplementFunction draws candidates (issue 89): the run's first candidate is one plain request's answer, and
every draw counted is a different program."""
from flow import create_flow
from tests import scripted_answers as a
from tests.stub_openai_server import request_kind


def run_flow(shared):
    create_flow(shared["services"].settings).run(shared)
    return shared


def code_requests(stub):
    return [body["messages"][-1]["content"] for body in stub.requests if request_kind(body) == "code"]


def test_the_first_candidate_is_asked_as_one_plain_request_and_the_rest_see_the_examples(stub, make_shared):
    a.route_defaults(stub, candidates=[a.BUGGY_CODE, a.GOOD_CODE])  # the first fails pair_at_the_end: the rest come
    run_flow(make_shared(a.TWO_SUM, model_tests="first"))
    first, *rest = code_requests(stub)
    assert first.startswith("Implement run_code so that it solves the problem.\n\n") and "It must pass" not in first
    assert rest and all("It must pass these tests:" in request and "[2, 7, 11, 15]" in request for request in rest)


def test_single_shot_and_the_runs_first_candidate_ask_the_same(stub, make_shared):
    from flow import create_single_shot_flow
    a.route_defaults(stub)
    run_flow(make_shared(a.TWO_SUM))
    loop_first = code_requests(stub)[0]
    stub.requests.clear()
    stub.route("code", a.GOOD_CODE)
    single = make_shared(a.TWO_SUM, samples=1, oracle=False, agreement=False, answer_attempts=1)
    create_single_shot_flow().run(single)
    assert code_requests(stub) == [loop_first]


# Every draw a different program (issue 89, step 2). One candidate a draw, no oracle: each draw is one program, and
# its request is the one the stub received. Draw 1 writes Two Sum's pairs backwards ([1, 0] where the example wants
# [0, 1]): a dict and one loop.
BACKWARDS = a.BACKWARDS_CODE
TRIED = "Approaches already tried for this problem:\n- a dict, simple loops\nWrite a different one:"
ONE_A_DRAW = {"samples": 1, "oracle": False, "max_draws": 2, "second_reading": False, "confidence_draws": 0}


def drawn(stub, make_shared, second, said=None):
    """A run of three scripted draws: BACKWARDS, `second`, then the brute force (two nested loops), which is right."""
    stub.route("code", BACKWARDS, second, a.BRUTE_FORCE)
    stub.route("tests", a.TESTS)  # asked once a candidate passes the example
    shared = make_shared(a.TWO_SUM, **ONE_A_DRAW)
    if said is not None:
        shared["services"].record.echo = said.append  # what the terminal shows
    return run_flow(shared)


def test_a_draw_that_writes_an_earlier_program_renamed_adds_no_attempt_and_the_next_asks_for_another_approach(
        stub, make_shared):
    said = []
    shared = drawn(stub, make_shared, BACKWARDS.replace("seen", "index_of"), said)
    draws = a.events_of(shared, "function_code")
    assert [(d["attempts"], d["repeated"]) for d in draws] == [([1], []), ([], [1]), ([2], [])], draws
    assert any("1 repeats attempt 1 (no new program)" in line for line in said), said
    first, second, third = code_requests(stub)
    assert TRIED not in first, "the run's first request stays one plain request"
    assert TRIED in second and TRIED in third, "after a draw failing the example, and after one that brought nothing new"
    # --max-draws 2: the repeat was no draw of a new program, so the brute force was still asked, and passes every
    # test; one program alone backs it (no oracle, one candidate a draw), so it is handed over unconfirmed
    assert shared["status"] == "unconfirmed" and a.handed_over(shared).code.count("for ") == 2, shared["message"]
    assert "no second program that passes the examples returns what it returns" in shared["message"]


def test_a_draw_that_returns_what_an_earlier_program_returns_everywhere_is_a_repeat_with_no_vote(
        stub, make_shared):
    said = []
    shared = drawn(stub, make_shared, a.written_apart(BACKWARDS, 0), said)  # dict() for {}
    assert [d["repeated"] for d in a.events_of(shared, "function_code")] == [[], [], []]
    [repeat] = a.events_of(shared, "draw_repeats")
    assert repeat["repeated"] == {"2": 1} and shared["attempts"].get(2).repeat_of == 1
    assert any("attempt 2 returns what attempt 1 returns on every test (no new program)" in line for line in said), said
    assert TRIED in code_requests(stub)[2], "the next request names the approach tried"
    assert shared["status"] == "unconfirmed" and shared["current"] == 3, shared["message"]  # one program alone
    assert all(case.evidence.voters <= 1 for case in shared["test_cases"] if not case.trusted), \
        "the brute force alone voted: the two backwards programs, failing the example, are no voters"


def test_a_draw_of_another_program_is_counted_as_a_draw(stub, make_shared):
    shared = drawn(stub, make_shared, a.wrong_on_the_example(5))
    assert [d["repeated"] for d in a.events_of(shared, "function_code")] == [[], []]
    assert not a.events_of(shared, "draw_repeats") and shared["attempts"].get(2).repeat_of is None
    assert len(code_requests(stub)) == 2 and shared["status"] == "unsolved", "two draws of new programs: --max-draws 2"
    assert shared["message"].startswith("not solved after 2 iteration(s) (no candidate passes the statement examples "
                                        "after 2 draws)"), shared["message"]


def test_the_request_after_a_miss_names_each_approach_tried_once_and_the_latest_three(stub, make_shared):
    # four wrong programs, two alike in approach (no loop), then four draws more: the last names three approaches
    wrong = [a.wrong_on_the_example(k) for k in range(2)] + [BACKWARDS, a.BUGGY_CODE.replace("[i, j]", "[j, i]")]
    stub.route("code", *wrong, a.BRUTE_FORCE)
    run_flow(make_shared(a.TWO_SUM, **{**ONE_A_DRAW, "max_draws": 5, "max_iterations": 5}))
    last = code_requests(stub)[-1]
    assert last.count("\n- ") == 3 and "- a direct formula, no loop\n- a dict, simple loops\n- two nested loops\n" in last
