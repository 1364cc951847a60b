"""--time-limit and --seed through main.py: a scripted model over HTTP, the real sandbox."""
import json

from tests import scripted_answers as a
from tests.test_main import codeloop

SLOW = {"trickle": 0.05, "text": a.GOOD_CODE * 40}  # about two minutes of streaming, were it all written


def test_at_the_time_limit_a_call_in_flight_is_cancelled_and_the_run_ends_with_its_best_verdict(stub, tmp_path):
    stub.route("tests", a.TESTS)
    stub.route("code", *[a.FIRST_ONLY_CODE] * 3)  # one program, failing a test the oracle settled: a revision is asked for
    stub.route("oracle", a.BRUTE_FORCE)
    stub.route("revise", SLOW, SLOW, SLOW)
    out = tmp_path / "out"
    result = codeloop(a.TWO_SUM, "--time-limit", "3", "--variants", "0", "--out", str(out), stub=stub)
    assert result.returncode == 1, result.stderr
    record = json.loads((out / "run.json").read_text())
    assert record["status"] == "unsolved" and "(the time limit of 3 s ran out)" in record["message"]
    assert "range(i + 1, len(nums))" in (out / "solution.py").read_text(), "the best version (the oracle) is handed over"
    revising = [end - start for kind, start, end in stub.timeline if kind == "revise"]
    assert revising and max(revising) < 40, "the revision's stream was closed, not written to the end"


def route_an_oracle_too_slow_for_the_limit(stub):
    """A candidate at once, an oracle whose answer would take minutes: the time limit cuts it, and the candidate
    passes the statement's one example with nothing else to back it (so a draw or the model's tests are wanted)."""
    stub.route("code", *[a.GOOD_CODE] * 9)
    stub.route("oracle", *[SLOW] * 3)
    stub.route("tests", *[SLOW] * 3)


def test_a_run_whose_oracle_the_time_limit_cut_says_so_in_its_last_line(stub, tmp_path):
    route_an_oracle_too_slow_for_the_limit(stub)
    result = codeloop(a.TWO_SUM, "--time-limit", "5", "--out", str(tmp_path), stub=stub)
    assert result.returncode == 1, result.stderr
    record = json.loads((tmp_path / "run.json").read_text())
    assert record["status"] == "unconfirmed" and record["message"].startswith(
        "not confirmed (the time limit of 5 s ran out): attempt 1 passes all"), record["message"]
    last = result.stderr.split("\n  files: ")[0].splitlines()[-1]
    assert last == record["message"], "the line the person reads last says the time ran out"


def test_seeds_make_each_request_its_own_and_a_run_repeatable(stub, tmp_path):
    def run(name):
        stub.route("tests", a.GARBAGE, a.TESTS)
        stub.route("code", *[a.GOOD_CODE] * 3)
        stub.route("oracle", a.BRUTE_FORCE)
        result = codeloop(a.TWO_SUM, "--seed", "7", "--parallel", "1", "--variants", "0", "--model-tests", "first",
                          "--out", str(tmp_path / name), stub=stub)
        assert result.returncode == 0, result.stderr
        asked = stub.requests[:]
        stub.requests.clear()
        return [request.get("seed") for request in asked]
    first, again = run("first"), run("again")
    assert first == again and None not in first, "the same requests, the same seeds"
    assert first[1] == first[0] + 1, "the retry after an unusable answer is sampled with the next seed"
    assert len(set(first[2:])) == len(first[2:]), "candidates and the oracle each have their own"


def test_a_stopped_run_cancels_its_call_in_flight_and_ends_with_its_record_kept(make_shared, stub, tmp_path):
    import threading
    import time as clock

    from flow import create_flow
    for kind in ("tests", "code", "oracle"):  # whichever is asked first: minutes of streaming, were it all written
        stub.route(kind, {"trickle": 0.05, "text": a.TESTS * 50})
    shared = make_shared(a.TWO_SUM)
    runner = threading.Thread(target=create_flow(shared["services"].settings).run, args=(shared,), daemon=True)
    runner.start()
    waited = clock.monotonic()
    while not stub.requests and clock.monotonic() - waited < 30:  # until the request is under way
        clock.sleep(0.05)
    shared["services"].stop("cancelled by the client")
    runner.join(10)
    assert not runner.is_alive(), "the flow ended once its call was cancelled"
    assert shared["status"] == "unsolved" and "cancelled by the client" in shared["message"]
    assert json.loads((tmp_path / "run.json").read_text())["model_calls"], "the record kept the cancelled call"
