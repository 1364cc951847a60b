"""Ask the model for a structured (YAML) answer, sending the problem back until the answer is usable.

An answer that was cut off at the token cap, does not parse, or breaks its schema costs one more
attempt with the error in the conversation, up to `attempts` in all; then InvalidAnswers. Every call,
good or bad, is handed to `on_call` as soon as it returns, so the run record has it even if the run
is interrupted a moment later.

An answer stopped as a runaway (a loop, utils/runaway.py) is not sent back: the retry is the first request
again with a note. Retrying four recorded test-list runaways (LeetCode 837, 1155, 210, HumanEval/44; every
live retry of them had looped), 3 seeds each: shown its own loop and asked for "a shorter answer", the
embedded model looped again in 10 of 12; asked afresh with the note, 12 of 12 answered a usable list, in
about 9 s against 14 (docs/benchmarks.md).

Retries are sampled at RETRY_TEMPERATURE at least (and --samples candidates at SAMPLE_TEMPERATURE): at
temperature 0 a small model, shown its error, was seen to repeat the very same answer three times.

`budget` (core/budget.py), when given, is asked before every request (the first and each retry): it
raises BudgetSpent when the run's call, token or time budget is spent, and may lower the answer's cap;
while a call waits, the budget's `stopped()` may cancel it (utils/call_llm.Cancelled). A retry is sampled
with the next seed (--seed): the same seed would give the same answer again.
"""
from dataclasses import replace

from utils.call_llm import ModelBackendError, call_llm
from core.prompts import retry_request, runaway_retry_request
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
        if reply.finish_reason == "repetition":  # a runaway is not shown back: it would be continued
            conversation = list(messages) + [{"role": "user", "content": runaway_retry_request()}]
        else:
            conversation = conversation + [{"role": "assistant", "content": reply.text},
                                           {"role": "user", "content": retry_request(error, messages[-1]["content"])}]
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
