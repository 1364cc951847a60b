"""The one model client: chat completions from any OpenAI-compatible endpoint, through the `openai` package.

Configuration follows the usual conventions: OPENAI_API_KEY and OPENAI_BASE_URL from the environment,
CODELOOP_MODEL for the model name, each overridable from the command line. The `openai` client does
the retrying (exponential backoff with jitter, honouring Retry-After) on connection errors, timeouts,
408/409/429 and 5xx; what still fails after that becomes one ModelBackendError with a one-line message.
The API key is held only in memory: it is never part of a record, a log line or an error message.

Run alone to check an endpoint:  python utils/call_llm.py "Say hello"
"""
import os
import re
import sys
import time
from dataclasses import dataclass, field
from functools import lru_cache
from urllib.parse import urlsplit, urlunsplit

import openai

DEFAULT_MODEL = "gpt-4o-mini"
PLACEHOLDER_KEY = "no-key"  # local servers ignore the key, but the client insists on having one


class ModelBackendError(RuntimeError):
    """The endpoint could not give an answer, even after the client's retries."""


@dataclass(frozen=True)
class ModelConfig:
    model: str = DEFAULT_MODEL
    base_url: str | None = None          # None means OpenAI's own API
    api_key: str = field(default=PLACEHOLDER_KEY, repr=False)
    temperature: float = 0.0
    max_tokens: int = 1500               # every answer is capped: a runaway answer is cut, then retried
    timeout_s: float = 120.0
    max_retries: int = 4

    @classmethod
    def from_env(cls, model=None, base_url=None, **overrides):
        return cls(model=model or os.environ.get("CODELOOP_MODEL") or DEFAULT_MODEL,
                   base_url=base_url or os.environ.get("OPENAI_BASE_URL") or None,
                   api_key=os.environ.get("OPENAI_API_KEY") or PLACEHOLDER_KEY, **overrides)

    def describe(self):
        """What may be written to a record: everything but the key, and no credentials inside the URL."""
        return {"model": self.model, "base_url": safe_url(self.base_url), "temperature": self.temperature,
                "max_tokens": self.max_tokens, "timeout_s": self.timeout_s, "max_retries": self.max_retries}


@dataclass
class Reply:
    text: str
    finish_reason: str
    prompt_tokens: int
    completion_tokens: int
    latency_ms: float
    server_timings: dict | None = None  # llama-server's own prompt/generation timings, when it sends them


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
                         timeout=config.timeout_s, max_retries=config.max_retries)


def call_llm(messages, config):
    """Send chat `messages`; return the Reply, or raise ModelBackendError."""
    started = time.perf_counter()
    try:
        response = _client(config).chat.completions.create(
            model=config.model, messages=messages, temperature=config.temperature, max_tokens=config.max_tokens)
    except openai.APIStatusError as exc:
        raise ModelBackendError(f"the model endpoint answered HTTP {exc.status_code}: {_short(exc, config)}") from None
    except openai.APITimeoutError:
        raise ModelBackendError(f"the model endpoint did not answer within {config.timeout_s:g} s "
                                f"({config.max_retries} retries)") from None
    except openai.APIConnectionError:
        raise ModelBackendError(f"cannot connect to the model endpoint at {safe_url(config.base_url) or 'OpenAI'} "
                                f"({config.max_retries} retries)") from None
    except openai.OpenAIError as exc:
        raise ModelBackendError(f"the model endpoint failed: {_short(exc, config)}") from None
    latency_ms = (time.perf_counter() - started) * 1000
    if not response.choices:
        raise ModelBackendError("the model endpoint returned no choices")
    choice = response.choices[0]
    usage = response.usage
    return Reply(text=choice.message.content or "", finish_reason=choice.finish_reason or "",
                 prompt_tokens=getattr(usage, "prompt_tokens", 0) or 0,
                 completion_tokens=getattr(usage, "completion_tokens", 0) or 0,
                 latency_ms=round(latency_ms, 1), server_timings=(response.model_extra or {}).get("timings"))


def _short(exc, config):
    message = " ".join((getattr(exc, "message", None) or str(exc)).split())
    message = re.sub(r"^Error code: \d+ - ", "", message)
    if len(config.api_key) >= 8:  # some servers echo the key back in their error text
        message = message.replace(config.api_key, "[key]")
    return message[:200]


if __name__ == "__main__":
    cfg = ModelConfig.from_env()
    reply = call_llm([{"role": "user", "content": " ".join(sys.argv[1:]) or "Say hello in five words."}], cfg)
    print(reply.text)
    print(f"[{cfg.model} at {safe_url(cfg.base_url) or 'OpenAI'}: {reply.prompt_tokens} prompt + "
          f"{reply.completion_tokens} completion tokens, {reply.latency_ms:.0f} ms, finish={reply.finish_reason}]")
