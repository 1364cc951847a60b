"""The run's budgets (--max-calls, --token-budget, --time-limit) and its stop, held before every request.

Each request asks `reserve(messages, max_tokens)` first. It is refused (BudgetSpent, whose message names
the budget and what was used) when no call is left or the tokens left would not cover the prompt and a
minimal answer; otherwise the answer's cap is cut to the tokens left, and the request's share is held
until it is journaled, so that requests sent at the same time cannot together overshoot. The prompt's
size is estimated (4 characters a token) before the server counts it.

Time (--time-limit) runs from the flow's start; the embedded model's one-time set-up and start are not
counted. Once it is out, or once `stop(reason)` is called, every request is refused, and a call in flight
is cancelled by the model client, which asks `stopped()` while it waits: the run ends with the best
verdict it has (core/run_outcome.py), and its last line says what cut it short (`cut_short()`), also when it
was only the time left that could not fit a draw the verdict wanted.
"""
import threading
import time

from core.vocabulary import Caller

MIN_ANSWER_TOKENS = 64  # below this no usable answer fits: the budget counts as spent


class BudgetSpent(RuntimeError):
    """The run's call, token or time budget is used up, or the run was stopped; no request was sent."""


class Budget:
    def __init__(self, max_calls=None, token_budget=None, usage=lambda: {"model_calls": 0, "prompt_tokens": 0,
                                                                            "completion_tokens": 0, "model_seconds": 0},
                 time_limit=None, caller=Caller.CLI):
        self.max_calls, self.token_budget, self.usage, self.time_limit = max_calls, token_budget, usage, time_limit
        self.caller = caller  # whose words name the budgets in messages
        self.lock, self.calls_held, self.tokens_held = threading.Lock(), 0, 0
        self.started, self.stop_event, self.stop_reason = time.monotonic(), threading.Event(), ""
        self.short_of_time = ""  # set once the time left would not fit a draw the run asked about

    def stop(self, reason):
        """End the run as soon as it can: no request is sent after this, and calls in flight are cancelled
        (utils/call_llm.py looks at `stopped` while it waits). For the person's cancel (the MCP server)."""
        self.stop_reason = reason
        self.stop_event.set()

    def stopped(self):
        """Why the run must stop now (the time limit ran out, or someone stopped it), or ""."""
        if self.stop_event.is_set():
            return self.stop_reason
        if self.time_limit is not None and time.monotonic() - self.started >= self.time_limit:
            return f"the time limit of {self.time_limit:g} s ran out"
        return ""

    def cut_short(self):
        """What of the budget decided how the run ends, for its last line: the time ran out or someone stopped
        it, or (affords) the time left would not fit a draw; "" when neither. A run that ends unconfirmed
        because its oracle's answer or a draw was cut by the time limit says so (issue 77)."""
        return self.stopped() or self.short_of_time

    def seconds_left(self):
        return None if self.time_limit is None else self.time_limit - (time.monotonic() - self.started)

    def reserve(self, messages, max_tokens):
        """The cap this request may use; raises BudgetSpent. Pair with release() once it is journaled."""
        prompt = sum(len(message["content"]) for message in messages) // 4
        if self.stopped():
            raise BudgetSpent(self.stopped())
        with self.lock:
            calls, tokens = self._spent()
            if self.max_calls is not None and calls >= self.max_calls:
                raise BudgetSpent(f"the call budget is spent: {calls} of {self.caller.option('max_calls')} "
                                  f"{self.max_calls} used")
            cap = max_tokens
            if self.token_budget is not None:
                left = self.token_budget - tokens - prompt
                if left < MIN_ANSWER_TOKENS:
                    raise BudgetSpent(f"the token budget is spent: {tokens:,} of {self.caller.option('token_budget')} "
                                      f"{self.token_budget:,} used, and the next prompt is about {prompt:,}")
                cap = min(max_tokens, left)
            self.calls_held += 1
            self.tokens_held += prompt + cap
            return cap, prompt + cap

    def affords(self, calls, tokens):
        """Whether `calls` more requests of about `tokens` in all fit in what is left (optional work, such
        as a draw before a claim, is skipped rather than spending the budget a run needs to end well). Time
        is judged by the calls so far: `calls` more at their mean length must end before the limit."""
        with self.lock:
            spent_calls, spent_tokens = self._spent()
        used = self.usage()
        per_call = used.get("model_seconds", 0) / used["model_calls"] if used["model_calls"] else 0
        left = self.seconds_left()
        if not ((self.max_calls is None or spent_calls + calls <= self.max_calls) and
                (self.token_budget is None or spent_tokens + tokens <= self.token_budget) and not self.stopped()):
            return False
        if left is not None and calls * per_call > left:
            self.short_of_time = f"the time limit of {self.time_limit:g} s left too little time for another draw"
            return False
        return True

    def _spent(self):
        """(calls, tokens) used or held by requests in flight; the caller holds the lock."""
        used = self.usage()
        return (used["model_calls"] + self.calls_held,
                used["prompt_tokens"] + used["completion_tokens"] + self.tokens_held)

    def release(self, held):
        with self.lock:
            self.calls_held -= 1
            self.tokens_held -= held
