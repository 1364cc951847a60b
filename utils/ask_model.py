"""Ask the model for a structured (YAML) answer, sending the problem back until the answer is usable.

An answer that was cut off at the token cap, does not parse, or breaks its schema costs one more
attempt, up to `attempts` in all; then InvalidAnswers. Every call, good or bad, is handed to `on_call` as
soon as it returns, so the run record has it even if the run is interrupted a moment later.

The retry is the first request again with a note that says what was wrong; the unusable answer is not
shown back, because the small model copies what it is shown. A runaway (a loop, utils/runaway.py): four
recorded test-list runaways retried 3 times each, shown their loop, looped again 10 times in 12; asked
afresh, 12 of 12 answered a usable list. A whole answer with an error (a syntax error, no run_code, YAML
that does not parse): the 20 recorded ones (code and revisions) asked again twice each, shown back,
gave a usable answer 11 times in 40 and the same broken answer word for word 17 times; asked afresh,
29 times in 40 (bench.error_retry at 97a7d49, docs/journal/2026-11.md).

Retries are sampled at RETRY_TEMPERATURE at least (and --samples candidates at SAMPLE_TEMPERATURE): at
temperature 0 a small model, shown its error, was seen to repeat the very same answer three times. Asked
afresh, hotter did no better: 27 usable in 40 at SAMPLE_TEMPERATURE.

`budget` (core/budget.py), when given, is asked before every request (the first and each retry): it
raises BudgetSpent when the run's call, token or time budget is spent, and may lower the answer's cap;
while a call waits, the budget's `stopped()` may cancel it (utils/call_llm.Cancelled). A retry is sampled
with the next seed (--seed): the same seed would give the same answer again.
"""
from dataclasses import replace

from utils.call_llm import ModelBackendError, call_llm
from core.prompts import afresh_retry_request, runaway_retry_request
from utils.yaml_answer import AnswerError


RETRY_TEMPERATURE = 0.5
SAMPLE_TEMPERATURE = 0.8  # the extra candidates of --samples: hot enough that they differ from the first


CUT = {"length": "The answer was cut off at the {limit}-token limit. Write a shorter answer: fewer or smaller "
              "tests, shorter reasoning.",
       "repetition": "The answer started repeating itself and was stopped. Write a shorter answer, without "
                     "repeating lines or values."}


class InvalidAnswers(RuntimeError):
    """The model kept giving answers that could not be used."""


def ask_for_yaml(messages, parse, config, on_call, attempts=3, budget=None, watch=None, salvage=None,
                 on_progress=None, on_retry=None):
    """`watch` may stop a runaway answer as it streams (utils/runaway.py); `salvage(text)` may turn an
    answer cut off at the token cap into a complete one (the whole items of a list), or return None."""
    conversation = list(messages)
    error = None
    for attempt in range(1, attempts + 1):
        cap, held = budget.reserve(conversation, config.max_tokens) if budget else (config.max_tokens, 0)
        try:
            reply, parsed, error = _one_answer(conversation, parse, replace(
                config, max_tokens=cap, seed=None if config.seed is None else config.seed + attempt - 1,
                temperature=config.temperature if attempt == 1 else max(config.temperature, RETRY_TEMPERATURE)),
                attempt, on_call, watch, salvage, on_progress, on_retry, budget and budget.stopped)
        finally:  # the call is journaled by now, so the budget counts it: the hold can go
            if budget:
                budget.release(held)
        if error is None:
            return parsed
        # the first request again with a note: an unusable answer is never shown back (see the docstring)
        note = runaway_retry_request() if reply.finish_reason == "repetition" else \
            afresh_retry_request(error, messages[-1]["content"])
        conversation = list(messages) + [{"role": "user", "content": note}]
    raise InvalidAnswers(f"the model gave no usable answer in {attempts} attempts; the last one: {error.splitlines()[0]}")


def _one_answer(conversation, parse, config, attempt, on_call, watch, salvage, on_progress, on_retry, cancel):
    """One request, journaled whatever happens: (reply, parsed answer or None, error or None)."""
    try:
        reply = call_llm(conversation, config, on_progress, watch, on_retry, cancel)
    except ModelBackendError as exc:
        on_call({"attempt": attempt, "messages": conversation, "answer": None, "error": str(exc)})
        raise
    text = reply.text
    try:
        if reply.finish_reason in ("length", "repetition"):
            text = salvage(text) if salvage else None
            if text is None:
                raise AnswerError(CUT[reply.finish_reason].format(limit=config.max_tokens))
        parsed, error = parse(text), None
    except AnswerError as exc:
        parsed, error = None, str(exc)
    on_call({"attempt": attempt, "messages": conversation, "answer": reply.text,
             "finish_reason": reply.finish_reason, "prompt_tokens": reply.prompt_tokens,
             "prompt_cached": reply.cached_tokens, "completion_tokens": reply.completion_tokens,
             "latency_ms": reply.latency_ms, "server_timings": reply.server_timings,
             "salvaged": text is not None and text != reply.text, "error": error})
    return reply, parsed, error
