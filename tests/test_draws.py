"""How ImplementFunction draws candidates (issue 89): the run's first candidate is one plain request's answer."""
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
