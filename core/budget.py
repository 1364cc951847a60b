"""The run's call and token budgets (--max-calls, --token-budget), held before every request.

Each request asks `reserve(messages, max_tokens)` first. It is refused (BudgetSpent, whose message names
the budget and what was used) when no call is left or the tokens left would not cover the prompt and a
minimal answer; otherwise the answer's cap is cut to the tokens left, and the request's share is held
until it is journaled, so that requests sent at the same time cannot together overshoot. The prompt's
size is estimated (4 characters a token) before the server counts it.
"""
import threading

MIN_ANSWER_TOKENS = 64  # below this no usable answer fits: the budget counts as spent


class BudgetSpent(RuntimeError):
    """The run's call or token budget is used up; no request was sent."""


class Budget:
    def __init__(self, max_calls=None, token_budget=None, usage=lambda: {"model_calls": 0, "prompt_tokens": 0,
                                                                            "completion_tokens": 0}):
        self.max_calls, self.token_budget, self.usage = max_calls, token_budget, usage
        self.lock, self.calls_held, self.tokens_held = threading.Lock(), 0, 0

    def reserve(self, messages, max_tokens):
        """The cap this request may use; raises BudgetSpent. Pair with release() once it is journaled."""
        prompt = sum(len(message["content"]) for message in messages) // 4
        with self.lock:
            calls, tokens = self._spent()
            if self.max_calls is not None and calls >= self.max_calls:
                raise BudgetSpent(f"the call budget is spent: {calls} of --max-calls {self.max_calls} used")
            cap = max_tokens
            if self.token_budget is not None:
                left = self.token_budget - tokens - prompt
                if left < MIN_ANSWER_TOKENS:
                    raise BudgetSpent(f"the token budget is spent: {tokens:,} of --token-budget "
                                      f"{self.token_budget:,} used, and the next prompt is about {prompt:,}")
                cap = min(max_tokens, left)
            self.calls_held += 1
            self.tokens_held += prompt + cap
            return cap, prompt + cap

    def affords(self, calls, tokens):
        """Whether `calls` more requests of about `tokens` in all fit in what is left (optional work, such
        as a draw before a claim, is skipped rather than spending the budget a run needs to end well)."""
        with self.lock:
            spent_calls, spent_tokens = self._spent()
        return ((self.max_calls is None or spent_calls + calls <= self.max_calls) and
                (self.token_budget is None or spent_tokens + tokens <= self.token_budget))

    def _spent(self):
        """(calls, tokens) used or held by requests in flight; the caller holds the lock."""
        used = self.usage()
        return (used["model_calls"] + self.calls_held,
                used["prompt_tokens"] + used["completion_tokens"] + self.tokens_held)

    def release(self, held):
        with self.lock:
            self.calls_held -= 1
            self.tokens_held -= held
