"""--explain: ExplainSolution after the run's ending, with a scripted model and the real sandbox."""
import json

from flow import create_flow
from tests import scripted_answers as a


def run_flow(shared):
    create_flow(shared["services"].settings).run(shared)
    return shared

EXPLANATION = "```yaml\nexplanation: One pass keeps each number's index in a map, so the pair is found in linear time.\n```"


def solved_two_sum(stub, make_shared, tmp_path, **settings):
    a.route_defaults(stub)
    return run_flow(make_shared(a.TWO_SUM, variants=0, **settings))


def test_the_final_code_is_explained_in_explanation_md_and_run_json(make_shared, stub, tmp_path):
    stub.route("explanation", EXPLANATION)
    shared = solved_two_sum(stub, make_shared, tmp_path, explain=True)
    assert shared["status"] == "solved" and shared["message"].startswith("solved: all 3 tests pass")
    text = (tmp_path / "explanation.md").read_text()
    assert "One pass keeps each number's index in a map" in text and shared["message"] in text
    prompt = stub.requests[-1]["messages"][-1]["content"]
    assert "seen = {}" in prompt and "Explain in at most five sentences" in prompt, "it is shown the final code"
    record = json.loads((tmp_path / "run.json").read_text())
    assert [e["explanation"] for e in record["events"] if e["kind"] == "explanation"] == [
        "One pass keeps each number's index in a map, so the pair is found in linear time."]


def test_an_explanation_that_fails_leaves_the_outcome_as_it_was(make_shared, stub, tmp_path):
    stub.route("explanation", *[{"status": 500, "body": "down"}] * 4)
    shared = solved_two_sum(stub, make_shared, tmp_path, explain=True)
    assert shared["status"] == "solved" and not (tmp_path / "explanation.md").exists()
    assert any(e["kind"] == "explanation_skipped" for e in shared["services"].record.data["events"])


def test_an_unsolved_run_explains_the_best_version_it_hands_over(make_shared, stub, tmp_path):
    stub.add(a.TESTS, a.BUGGY_CODE, a.REVISE_USELESS, EXPLANATION)
    shared = run_flow(make_shared(a.TWO_SUM, max_iterations=2, explain=True, **a.MODEL_TESTS))
    assert shared["status"] == "unsolved" and (tmp_path / "explanation.md").exists()
    assert "range(len(nums))" in stub.requests[-1]["messages"][-1]["content"], "the best version, not the last"


def test_without_the_flag_nothing_is_asked_after_the_ending(make_shared, stub, tmp_path):
    shared = solved_two_sum(stub, make_shared, tmp_path)
    # the tests, the first candidate and the oracle (a short first draw settles Two Sum)
    assert shared["status"] == "solved" and len(stub.requests) == 3 and not (tmp_path / "explanation.md").exists()
