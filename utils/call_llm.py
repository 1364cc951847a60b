"""The one model client: chat completions from any OpenAI-compatible endpoint, through the `openai` package.

Configuration follows the usual conventions: OPENAI_API_KEY and OPENAI_BASE_URL from the environment,
CODELOOP_MODEL for the model name, each overridable from the command line. Answers are streamed, so
`on_progress(tokens so far, seconds)` can show that the model is writing.

How long a call may take: a call is retried on connection errors, read timeouts (no byte for
`timeout_s`), 408/409/429 and 5xx, up to `max_retries` times, after a pause that doubles each time
(from 1 s) or that the server asks for (Retry-After), each retry announced to `on_retry(text)`; and the
whole call, retries included, has `deadline_s`. So a hung or trickling
endpoint costs at most deadline_s per call (300 s by default; the embedded model's is longer, see
utils/llama_server.py). Whatever still fails, including an answer that is not a chat completion stream,
becomes one ModelBackendError with a one-line message.
The API key is held only in memory: it is never part of a record, a log line or an error message.

Run alone to check an endpoint:  python utils/call_llm.py "Say hello"
"""
import os
import re
import sys
import threading
import time
from dataclasses import dataclass, field
from functools import lru_cache
from urllib.parse import urlsplit, urlunsplit

import openai

DEFAULT_MODEL = "gpt-4o-mini"
PLACEHOLDER_KEY = "no-key"  # local servers ignore the key, but the client insists on having one


class ModelBackendError(RuntimeError):
    """The endpoint could not give an answer, even after the client's retries."""


class Cancelled(ModelBackendError):
    """The caller stopped the call while it was under way (the run's time limit, or a cancel). `endpoint_failure`:
    what the endpoint's last try said, when the call was waiting to try again (an unreachable endpoint under
    --time-limit read as the time limit alone)."""

    def __init__(self, reason, endpoint_failure=None):
        super().__init__(reason)
        self.endpoint_failure = endpoint_failure


@dataclass(frozen=True)
class ModelConfig:
    model: str = DEFAULT_MODEL
    base_url: str | None = None          # None means OpenAI's own API
    api_key: str = field(default=PLACEHOLDER_KEY, repr=False)
    temperature: float = 0.0
    max_tokens: int = 1500               # every answer is capped: a runaway answer is cut, then retried
    timeout_s: float = 120.0             # the longest wait for the next byte (the client's read timeout)
    max_retries: int = 4
    deadline_s: float = 300.0            # the whole call, the client's retries included
    concurrency: int | None = None       # requests the endpoint is best sent at once; None: as many as asked
    sampling: tuple = ()                 # extra sampling fields the endpoint knows, as (name, value) pairs
                                         # (llama-server: repeat_penalty, dry_multiplier...; bench/repetition.py at 97a7d49)
    seed: int | None = None              # the request's sampling seed (--seed): the same request, the same answer

    @classmethod
    def from_env(cls, model=None, base_url=None, **overrides):
        return cls(model=model or os.environ.get("CODELOOP_MODEL") or DEFAULT_MODEL,
                   base_url=base_url or os.environ.get("OPENAI_BASE_URL") or None,
                   api_key=os.environ.get("OPENAI_API_KEY") or PLACEHOLDER_KEY, **overrides)

    def describe(self):
        """What may be written to a record: everything but the key, and no credentials inside the URL."""
        return {"model": self.model, "base_url": safe_url(self.base_url), "temperature": self.temperature,
                "max_tokens": self.max_tokens, "timeout_s": self.timeout_s, "max_retries": self.max_retries,
                "deadline_s": self.deadline_s, "concurrency": self.concurrency, "sampling": dict(self.sampling),
                "seed": self.seed}


@dataclass
class Reply:
    text: str
    finish_reason: str
    prompt_tokens: int
    completion_tokens: int
    latency_ms: float
    server_timings: dict | None = None  # llama-server's own prompt/generation timings, when it sends them
    cached_tokens: int | None = None    # prompt tokens taken from the server's cache, when it says


def safe_url(url):
    if not url:
        return url
    parts = urlsplit(url)
    host = parts.hostname or ""
    netloc = f"{host}:{parts.port}" if parts.port else host
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


@lru_cache(maxsize=8)
def _client(config):
    return openai.OpenAI(api_key=config.api_key, base_url=config.base_url,
                         timeout=config.timeout_s, max_retries=0)  # call_llm retries, and says so


def call_llm(messages, config, on_progress=None, watch=None, on_retry=None, cancel=None):
    """Send chat `messages`; return the Reply, or raise ModelBackendError. `on_progress(tokens, seconds)`
    is called as the answer streams in; `watch(text so far)` may stop it early by returning (text to keep,
    finish reason): the stream is closed, so the server stops writing too (utils/runaway.py). `cancel()`,
    asked every CANCEL_LOOK_S while the call waits, may end it: its answer (a reason) is raised as Cancelled,
    after the connection is closed, so the server stops writing too."""
    started = time.perf_counter()
    outcome = {}
    worker = threading.Thread(target=_stream, args=(messages, config, on_progress, watch, on_retry, started, outcome),
                              daemon=True)
    worker.start()
    while worker.is_alive() and time.perf_counter() - started < config.deadline_s:
        worker.join(min(CANCEL_LOOK_S, max(config.deadline_s - (time.perf_counter() - started), 0)))
        reason = cancel() if cancel and worker.is_alive() else ""
        if reason:
            outcome["cancelled"] = True
            _close(outcome.get("stream"))
            raise Cancelled(reason, outcome.get("failed_before"))
    if worker.is_alive():  # the worker is left to its read timeout; nothing waits for it
        raise ModelBackendError(f"the model endpoint gave no complete answer within {config.deadline_s:g} s")
    if "error" in outcome:
        raise outcome["error"]
    return outcome["reply"]


CANCEL_LOOK_S = 0.2  # how often a waiting call asks whether it is cancelled


def _close(stream):
    """Close a stream's connection from another thread: its reader gets an error and the server stops."""
    try:
        if stream is not None:
            stream.close()
    except Exception:  # noqa: BLE001 - the stream may be half open or closed already; nothing more to do
        pass


RETRYABLE = (408, 409, 429)
# base URL -> a function saying why the model server this process started there is gone ('' while it runs): a call
# whose connection then fails says so at once, in one line naming it, rather than as a refused connection retried
# (app.model_server registers the embedded server; the MCP server does not, as it starts the server again)
SERVERS_GONE = {}


def _stream(messages, config, on_progress, watch, on_retry, started, outcome):
    for retry in range(config.max_retries + 1):
        _try_once(messages, config, on_progress, watch, started, outcome)
        error = outcome.get("retryable")
        if error is not None and retry == config.max_retries and retry:  # the last try: say how many were made
            outcome["error"] = ModelBackendError(f"{outcome['error']} ({retry} retries)")
        if error is None or retry == config.max_retries or outcome.get("cancelled"):
            return
        pause = _pause(error, retry)
        if on_retry:
            on_retry(f"{outcome['error']}; retrying in {pause:.0f} s ({retry + 1} of {config.max_retries})")
        failed = outcome["error"]
        outcome.clear()
        outcome["failed_before"] = failed  # what a cancel during the pause names
        time.sleep(pause)


def _pause(error, retry):
    """The server's Retry-After (or retry-after-ms) when it gives one, else 1, 2, 4 ... s; at most 60 s."""
    headers = getattr(getattr(error, "response", None), "headers", None) or {}
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        try:
            return min(float(headers[name]) * scale, 60.0)
        except (KeyError, TypeError, ValueError):
            continue
    return min(2.0 ** retry, 60.0)


def _try_once(messages, config, on_progress, watch, started, outcome):
    try:
        outcome["reply"] = _streamed_reply(messages, config, on_progress, watch, started, outcome)
    except ModelBackendError as exc:
        outcome["error"] = exc
    except openai.APIStatusError as exc:
        outcome["error"] = ModelBackendError(f"the model endpoint answered HTTP {exc.status_code}: {_short(exc, config)}")
        if exc.status_code in RETRYABLE or exc.status_code >= 500:
            outcome["retryable"] = exc
    except openai.APITimeoutError as exc:
        outcome["error"] = ModelBackendError(f"the model endpoint did not answer within {config.timeout_s:g} s")
        outcome["retryable"] = exc
    except openai.APIConnectionError as exc:
        gone = SERVERS_GONE.get(config.base_url)
        reason = gone() if gone else ""
        outcome["error"] = ModelBackendError(reason or f"cannot connect to the model endpoint at "
                                                       f"{safe_url(config.base_url) or 'OpenAI'}")
        if not reason:
            outcome["retryable"] = exc
    except Exception as exc:  # noqa: BLE001 - a body that is not a chat completion stream, or a wrong shape
        outcome["error"] = ModelBackendError(f"the model endpoint's answer is not a chat completion "
                                             f"({type(exc).__name__}: {_short(exc, config)})")


WATCH_EVERY = 8  # pieces between two looks of `watch` at the text


def _streamed_reply(messages, config, on_progress, watch, started, outcome):
    stream = _client(config).chat.completions.create(
        model=config.model, messages=messages, temperature=config.temperature, max_tokens=config.max_tokens,
        stream=True, stream_options={"include_usage": True}, **({"seed": config.seed} if config.seed is not None else {}),
        **({"extra_body": dict(config.sampling)} if config.sampling else {}))
    outcome["stream"] = stream  # so that a cancel from the caller's thread can close it
    if outcome.get("cancelled"):
        _close(stream)
    parts, pieces, finish, usage, timings, chunks, kept = [], 0, "", None, None, 0, None
    for chunk in stream:
        chunks += 1
        usage = chunk.usage or usage
        timings = (chunk.model_extra or {}).get("timings") or timings  # llama-server's own figures
        for choice in chunk.choices or []:
            if choice.delta is not None and choice.delta.content:
                parts.append(choice.delta.content)
                pieces += 1
                if on_progress:
                    on_progress(pieces, time.perf_counter() - started)
            finish = choice.finish_reason or finish
        if watch and pieces % WATCH_EVERY == 0 and parts and not finish:
            kept = watch("".join(parts))
            if kept:
                stream.close()  # the server stops generating when the connection goes
                break
    if not chunks:
        raise ModelBackendError("the model endpoint's answer is not a chat completion stream (no events)")
    text, finish = kept or ("".join(parts), finish)
    return Reply(text=text, finish_reason=finish or "",
                 prompt_tokens=getattr(usage, "prompt_tokens", 0) or _estimate(messages),
                 completion_tokens=getattr(usage, "completion_tokens", 0) or pieces,
                 latency_ms=round((time.perf_counter() - started) * 1000, 1), server_timings=timings,
                 cached_tokens=_cached(usage, timings))


def _estimate(messages):
    """Prompt tokens when an answer was stopped before the server reported usage: about 4 characters each."""
    return sum(len(message["content"]) for message in messages) // 4


def _cached(usage, timings):
    """Prompt tokens the server took from its cache: llama-server's cache_n, or OpenAI's cached_tokens."""
    if timings and "cache_n" in timings:
        return timings["cache_n"]
    details = getattr(usage, "prompt_tokens_details", None)
    return getattr(details, "cached_tokens", None) if details else None


def _short(exc, config):
    message = " ".join((getattr(exc, "message", None) or str(exc)).split())
    message = re.sub(r"^Error code: \d+ - ", "", message)
    return redact(message, config.api_key)[:200]


def redact(text, key):
    """`text` with the API key replaced by [key]: some servers echo the key back in their error text. A
    short key is replaced where it stands as a word of its own, so that it does not mangle other words."""
    if not key or key == PLACEHOLDER_KEY:
        return text
    if len(key) >= 8:
        return text.replace(key, "[key]")
    return re.sub(rf"(?<![A-Za-z0-9_-]){re.escape(key)}(?![A-Za-z0-9_-])", "[key]", text)


if __name__ == "__main__":
    cfg = ModelConfig.from_env()
    reply = call_llm([{"role": "user", "content": " ".join(sys.argv[1:]) or "Say hello in five words."}], cfg)
    print(reply.text)
    print(f"[{cfg.model} at {safe_url(cfg.base_url) or 'OpenAI'}: {reply.prompt_tokens} prompt + "
          f"{reply.completion_tokens} completion tokens, {reply.latency_ms:.0f} ms, finish={reply.finish_reason}]")
