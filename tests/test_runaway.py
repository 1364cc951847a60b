"""utils/runaway.py: which streaming answers are stopped, and what is kept of them."""
import time
from pathlib import Path

from tests import scripted_answers as a
from utils.ask_model import ask_for_yaml
from utils.call_llm import ModelConfig, call_llm
from utils.runaway import complete_tests, looping, looping_code, watch_loops, watch_tests
from utils.yaml_answer import parse_tests_answer

ROOT = Path(__file__).resolve().parent.parent

TEST = "  - name: t{n}\n    input: {{n: {n}}}\n    expected: {n}\n"
HEAD = "```yaml\nreasoning: small cases\ntest_cases:\n"


def list_of_tests(count):
    return HEAD + "".join(TEST.format(n=n) for n in range(1, count + 1))


def first_cut(watch, text, step=8):
    """What `watch` says the first time it looks at a prefix that it stops, as the stream would show it."""
    for end in range(step, len(text) + step, step):
        cut = watch(text[:end])
        if cut:
            return cut, end
    return None, len(text)


def test_a_loop_of_a_short_unit_or_of_a_line_is_seen():
    assert looping("x = [" + "1, " * 80)
    assert looping("reasoning: ok\n" + "the same line again\n" * 12)
    assert not looping("x = [" + "1, " * 20), "40 characters of it are not a loop yet"
    assert not looping(list_of_tests(8)), "tests that look alike are not a loop"
    assert not looping(a.GOOD_CODE * 3)


def test_a_list_of_tests_is_cut_after_the_last_one_asked_for_and_is_complete():
    (kept, reason), _ = first_cut(watch_tests(3), list_of_tests(30))
    assert reason == "stop" and [case["name"] for case in parse_tests_answer(kept, 3)["test_cases"]] == ["t1", "t2", "t3"]


def test_a_loop_inside_a_test_keeps_the_tests_before_it():
    text = list_of_tests(2) + "  - name: t3\n    input: {nums: [" + "1, " * 200
    (kept, reason), _ = first_cut(watch_tests(8), text)
    assert reason == "stop" and len(parse_tests_answer(kept, 8)["test_cases"]) == 2
    (kept, reason), _ = first_cut(watch_tests(8), HEAD + "  - name: t1\n    input: {nums: [" + "1, " * 200)
    assert reason == "repetition", "nothing whole to keep"


def test_an_answer_that_ends_well_is_never_cut():
    assert first_cut(watch_tests(8), list_of_tests(8))[0] is None
    assert first_cut(watch_loops(), a.REVISE_BOTH)[0] is None


def test_a_list_cut_at_the_token_cap_keeps_its_whole_items():
    cut_off = list_of_tests(4) + "  - name: t5\n    input: {n: "
    assert [case["name"] for case in parse_tests_answer(complete_tests(cut_off), 8)["test_cases"]] == ["t1", "t2", "t3", "t4"]
    assert complete_tests(HEAD + "  - name: t1\n    input: {n: ") is None


def test_a_streaming_loop_is_stopped_long_before_the_cap_and_the_server_stops_sending(stub):
    stub.add({"trickle": 0.002, "text": "reasoning: |\n  " + "a " * 3000})
    config = ModelConfig(model="stub", base_url=stub.base_url, max_retries=0, timeout_s=5)
    started = time.monotonic()
    reply = call_llm([{"role": "user", "content": "hi"}], config, watch=watch_loops())
    assert reply.finish_reason == "repetition" and len(reply.text) < 600
    assert time.monotonic() - started < 3, "6,000 characters at 2 ms each would take 12 s"


def test_a_salvaged_list_is_an_answer_and_the_call_says_so(stub):
    stub.add({"text": list_of_tests(3) + "  - name: t4\n    input: {n:", "finish_reason": "length"})
    calls = []
    config = ModelConfig(model="stub", base_url=stub.base_url, max_retries=0, timeout_s=5)
    answer = ask_for_yaml([{"role": "user", "content": "tests"}], lambda text: parse_tests_answer(text, 8), config,
                          calls.append, salvage=complete_tests)
    assert len(answer["test_cases"]) == 3 and len(stub.requests) == 1
    assert calls[0]["finish_reason"] == "length" and calls[0]["salvaged"] is True and calls[0]["error"] is None


RUNAWAY_BRANCHES = "def run_code(message):\n    for i in range(len(message)):\n" + "".join(
    f"        elif message[i] == '{a}' and message[j] == '{b}':\n            message = message[:i] + '{b}' + message[i + 1:]\n"
    for a in "aeiou" for b in "aeiou")


def test_code_that_writes_out_one_branch_again_and_again_is_a_runaway():
    from utils.runaway import looping_code, watch_code
    assert looping_code(RUNAWAY_BRANCHES) and not looping(RUNAWAY_BRANCHES), "only the shape repeats"
    (kept, reason), at = first_cut(watch_code(), RUNAWAY_BRANCHES)
    assert reason == "repetition" and at < len(RUNAWAY_BRANCHES) // 2
    nine_cases = "def run_code(d):\n" + "".join(f"    if d == {n}:\n        return 'name{n}'\n" for n in range(9))
    assert not looping_code(nine_cases + "    return ''\n"), "a case analysis of nine digits is a solution"
    assert not looping_code(a.GOOD_CODE * 3)


def test_a_code_answer_is_complete_once_its_block_closes_and_what_follows_is_not_paid_for():
    from utils.runaway import watch_code
    answer = a.GOOD_CODE + "\n\nThis code works because " + "it is fine. " * 40
    (kept, reason), at = first_cut(watch_code(), answer)
    assert reason == "stop" and kept.rstrip().endswith("```") and at < len(a.GOOD_CODE) + 16
    from utils.yaml_answer import parse_code_answer
    assert parse_code_answer(kept)["function_code"].startswith("def run_code(nums, target):")


REASONING_LOOP = "```yaml\nreasoning: |\n  Walk the array in groups of three. " + "".join(
    f"If we encounter a group of 3 elements where the first element is {n % 2} and the {word} element is "
    f"{(n + 1) % 2}, we need to flip the first and second elements. "
    for n, word in enumerate(["third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
                              "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth"]))


def test_reasoning_that_goes_round_with_another_word_each_time_is_a_runaway():
    from utils.runaway import squeezes_like_a_loop, watch_code
    assert not looping(REASONING_LOOP) and not looping_code(REASONING_LOOP), "no exact or code-shaped repeat"
    (kept, reason), at = first_cut(watch_code(), REASONING_LOOP)
    assert reason == "repetition" and squeezes_like_a_loop(kept)


def test_real_code_and_prose_do_not_squeeze_like_a_loop():
    from utils.runaway import SQUEEZE_WINDOW, squeezes_like_a_loop
    for path in ("nodes.py", "core/round_verdict.py", "README.md", "docs/design.md"):
        text = (ROOT / path).read_text()
        windows = [text[i:i + SQUEEZE_WINDOW] for i in range(0, len(text) - SQUEEZE_WINDOW, 200)]
        assert windows and not any(squeezes_like_a_loop(window) for window in windows), path
    assert not squeezes_like_a_loop(a.TESTS + a.GOOD_CODE + a.BRUTE_FORCE)


COUNTING_REASONING = "```yaml\nreasoning: Edge cases include " + ", ".join(
    f"n={n}, k={n + 1}, target={n + 2}" for n in range(60))  # as the embedded model wrote it for LeetCode 1155


def test_reasoning_that_counts_on_before_any_test_is_a_runaway():
    from utils.runaway import REASONING_CHARS
    assert not looping(COUNTING_REASONING), "no unit repeats to the letter"
    (kept, reason), at = first_cut(watch_tests(8), COUNTING_REASONING)
    assert reason == "repetition" and REASONING_CHARS < at <= REASONING_CHARS + 8
    long_but_whole = "```yaml\nreasoning: " + " ".join(f"Case {n} checks a bound." for n in range(30)) + "\ntest_cases:\n" + TEST.format(n=1)
    assert first_cut(watch_tests(8), long_but_whole)[0] is None, "reasoning under the limit, then tests"
    flow_style = HEAD + "".join(f"  - {{name: t{n}, input: {{nums: {list(range(n, n + 30))}}}, expected: {n}}}\n"
                                for n in range(1, 9))
    assert len(flow_style) > REASONING_CHARS and first_cut(watch_tests(8), flow_style)[0] is None, \
        "tests written one per line are tests, though no item starts with a key"


def test_a_runaway_is_not_shown_back_the_first_request_is_asked_again_with_a_note(stub):
    stub.add({"text": COUNTING_REASONING}, {"text": "no yaml here"}, {"text": list_of_tests(2)})
    config = ModelConfig(model="stub", base_url=stub.base_url, max_retries=0, timeout_s=5)
    asked = [{"role": "system", "content": "rules"}, {"role": "user", "content": "tests"}]
    answer = ask_for_yaml(asked, lambda text: parse_tests_answer(text, 8), config, lambda call: None, watch=watch_tests(8))
    assert [case["name"] for case in answer["test_cases"]] == ["t1", "t2"]
    second, third = (request["messages"] for request in stub.requests[1:])
    assert second[:2] == asked and [m["role"] for m in second] == ["system", "user", "user"], "the loop left out"
    assert "repeating itself" in second[2]["content"] and "n=1, k=2" not in str(second)
    assert third[:2] == asked and len(third) == 3 and "no yaml here" not in str(third), \
        "an answer that is merely unusable is not shown back either"
    assert "could not be used" in third[2]["content"] and "repeating itself" not in third[2]["content"], \
        "each retry names its own answer's error"
