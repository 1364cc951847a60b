"""utils/ask_model.py: an unusable answer is asked again, afresh with its error, until one is usable, within a bound."""
import pytest

from core.prompts import implement_request, oracle_request
from tests import scripted_answers as answers
from utils.ask_model import InvalidAnswers, ask_for_yaml
from utils.call_llm import ModelBackendError, ModelConfig
from utils.yaml_answer import parse_code_answer


def ask(stub, attempts=3):
    calls = []
    config = ModelConfig(model="stub", base_url=stub.base_url, max_retries=0, max_tokens=300)
    result = ask_for_yaml([{"role": "user", "content": "write run_code"}], parse_code_answer, config,
                          calls.append, attempts)
    return result, calls


def test_a_good_first_answer_is_one_call(stub):
    stub.add(answers.GOOD_CODE)
    result, calls = ask(stub)
    assert result["function_code"].startswith("def run_code") and len(calls) == 1 and calls[0]["error"] is None


def test_garbage_then_recovery_asks_afresh_with_the_error_not_the_answer(stub):
    stub.add(answers.GARBAGE, answers.GOOD_CODE)
    result, calls = ask(stub)
    assert result["function_code"].startswith("def run_code")
    assert [bool(c["error"]) for c in calls] == [True, False]
    assert stub.requests[0]["temperature"] == 0 and stub.requests[1]["temperature"] == 0.5
    first, second = (request["messages"] for request in stub.requests)
    assert second[:-1] == first and second[-1]["role"] == "user", "the first request again, and one note"
    assert answers.GARBAGE not in str(second), "the unusable answer is not shown back: the model would copy it"
    assert second[-1]["content"].startswith("Your answer could not be used: " + calls[0]["error"].splitlines()[0])


def test_every_retry_is_the_first_request_and_the_last_error(stub):
    stub.add({"text": answers.GOOD_CODE[:60], "finish_reason": "length"}, answers.GARBAGE, answers.GOOD_CODE)
    result, calls = ask(stub)
    assert [bool(c["error"]) for c in calls] == [True, True, False]
    second, third = (request["messages"][-1]["content"] for request in stub.requests[1:])
    assert "cut off at the 300-token limit" in second and "cut off" not in third
    assert all(len(request["messages"]) == 2 for request in stub.requests[1:])


def test_an_answer_cut_at_the_token_cap_is_retried(stub):
    stub.add({"text": answers.GOOD_CODE[:60], "finish_reason": "length"}, answers.GOOD_CODE)
    result, calls = ask(stub)
    assert "cut off at the 300-token limit" in calls[0]["error"] and calls[1]["error"] is None


def test_garbage_forever_gives_up_after_the_bound(stub):
    stub.add(*[answers.GARBAGE] * 5)
    with pytest.raises(InvalidAnswers, match="no usable answer in 3 attempts"):
        ask(stub)
    assert len(stub.requests) == 3


def test_a_backend_failure_is_journaled_then_raised(stub):
    stub.add({"status": 500})
    calls = []
    config = ModelConfig(model="stub", base_url=stub.base_url, max_retries=0)
    with pytest.raises(ModelBackendError):
        ask_for_yaml([{"role": "user", "content": "x"}], parse_code_answer, config, calls.append)
    assert calls[0]["answer"] is None and "HTTP 500" in calls[0]["error"]


@pytest.mark.parametrize("request_text, block", [
    (implement_request([]), "```python"), (oracle_request([]), "```python"),
    ("Write the tests. Reply with one ```yaml block.", "```yaml"),
], ids=["candidate", "oracle", "yaml"])
def test_the_retry_asks_for_the_block_the_request_asked_for(stub, request_text, block):
    stub.add(answers.GARBAGE, answers.GOOD_CODE)
    config = ModelConfig(model="stub", base_url=stub.base_url, max_retries=0, max_tokens=300)
    ask_for_yaml([{"role": "user", "content": request_text}], parse_code_answer, config, lambda call: None)
    retry = stub.requests[1]["messages"][-1]["content"]
    assert retry.endswith(f"as one {block} block."), retry
