"""utils/call_llm.py: the real openai client over real HTTP against the stub server on 127.0.0.1."""
import socket
import time

import pytest

from utils.call_llm import ModelBackendError, ModelConfig, call_llm, safe_url

HELLO = [{"role": "user", "content": "hi"}]


def config_for(stub, **overrides):
    return ModelConfig(**{"model": "stub-model", "base_url": stub.base_url, "max_retries": 2, "timeout_s": 5,
                          **overrides})


def test_a_reply_carries_text_usage_and_latency(stub):
    stub.add("hello there")
    reply = call_llm(HELLO, config_for(stub, max_tokens=77, temperature=0.0))
    assert reply.text == "hello there" and reply.finish_reason == "stop"
    assert reply.prompt_tokens > 0 and reply.completion_tokens > 0 and reply.latency_ms > 0
    sent = stub.requests[0]
    assert sent["model"] == "stub-model" and sent["max_tokens"] == 77 and sent["temperature"] == 0.0


def test_extra_sampling_fields_reach_the_endpoint_and_none_are_sent_by_default(stub):
    stub.add("a", "b")
    call_llm(HELLO, config_for(stub, sampling=(("repeat_penalty", 1.1), ("dry_multiplier", 0.8))))
    call_llm(HELLO, config_for(stub))
    assert stub.requests[0]["repeat_penalty"] == 1.1 and stub.requests[0]["dry_multiplier"] == 0.8
    assert "repeat_penalty" not in stub.requests[1] and "dry_multiplier" not in stub.requests[1]


@pytest.mark.parametrize("status", [500, 503, 429])
def test_transient_errors_are_retried(stub, status):
    stub.add({"status": status}, {"status": status}, "finally")
    assert call_llm(HELLO, config_for(stub)).text == "finally"
    assert len(stub.requests) == 3


def test_errors_that_outlast_the_retries_raise_a_one_line_backend_error(stub):
    stub.add(*[{"status": 500, "body": "overloaded"}] * 3)
    with pytest.raises(ModelBackendError, match="HTTP 500: overloaded") as error:
        call_llm(HELLO, config_for(stub))
    assert "\n" not in str(error.value) and len(stub.requests) == 3


def test_a_client_error_is_not_retried(stub):
    stub.add({"status": 404, "body": "no such model"})
    with pytest.raises(ModelBackendError, match="HTTP 404"):
        call_llm(HELLO, config_for(stub))
    assert len(stub.requests) == 1


def test_an_unreachable_endpoint_is_a_backend_error():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again before the call: nothing listens there
    with pytest.raises(ModelBackendError, match="cannot connect"):
        call_llm(HELLO, ModelConfig(base_url=f"http://127.0.0.1:{port}/v1", max_retries=1))


def test_a_server_that_never_answers_times_out(stub):
    stub.add({"hang": 3}, {"hang": 3})
    started = time.monotonic()
    with pytest.raises(ModelBackendError, match="did not answer within"):
        call_llm(HELLO, config_for(stub, timeout_s=0.5, max_retries=1))
    assert time.monotonic() - started < 3


def test_a_server_that_trickles_forever_is_cut_at_the_calls_deadline(stub):
    stub.add({"trickle": 0.2, "text": "x" * 1000})  # a byte every 0.2 s: no read ever times out
    started = time.monotonic()
    with pytest.raises(ModelBackendError, match="no complete answer within 1.5 s"):
        call_llm(HELLO, config_for(stub, timeout_s=1, deadline_s=1.5))
    assert time.monotonic() - started < 2.5


@pytest.mark.parametrize("body", [b"<html>Service Unavailable</html>", b'{"object": "not a completion"}',
                                  b'data: {"choices": "oops"}\n\n', b""])
def test_an_answer_that_is_not_a_chat_completion_is_a_one_line_backend_error(stub, body):
    stub.add({"body": body})
    with pytest.raises(ModelBackendError, match="not a chat completion") as error:
        call_llm(HELLO, config_for(stub))
    assert "\n" not in str(error.value)


def test_the_answer_streams_and_progress_is_reported(stub):
    stub.add("a longer answer, in several pieces")
    seen = []
    reply = call_llm(HELLO, config_for(stub), on_progress=lambda tokens, seconds: seen.append((tokens, seconds)))
    assert reply.text == "a longer answer, in several pieces" and stub.requests[0]["stream"] is True
    assert [tokens for tokens, _ in seen] == list(range(1, len(seen) + 1)) and len(seen) >= 4
    assert all(seconds >= 0 for _, seconds in seen)


@pytest.mark.parametrize("secret", ["sk-codeloop-secret-123456", "abc"])
def test_the_key_is_sent_but_never_shown(stub, secret):
    stub.add({"status": 401, "body": f"Incorrect API key provided: {secret}. Check it (abcd is not it)."})
    config = config_for(stub, api_key=secret)
    with pytest.raises(ModelBackendError) as error:
        call_llm(HELLO, config)
    assert f" {secret}." not in str(error.value) and "provided: [key]." in str(error.value)
    assert "abcd is not it" in str(error.value), "a short key is replaced as a word, not inside other words"
    assert secret not in repr(config) and secret not in str(config.describe())


def test_safe_url_drops_credentials_and_query():
    assert safe_url("http://user:pw@127.0.0.1:8080/v1?key=abc") == "http://127.0.0.1:8080/v1"
