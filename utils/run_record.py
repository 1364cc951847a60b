"""run.json: the whole record of a run, rewritten after every event so an interrupted run keeps its past.

The file is replaced atomically (write a temporary file, then rename), so a reader or a crash never
sees half a file. It holds the problem, the settings, every version of the tests and the code, every
test run, every model call with its prompt, answer, tokens and latency, node timings and the outcome.
`echo`, when given, receives a one-line progress message for each event that has one.
"""
import json
import os
import time
from datetime import datetime, timezone


class RunRecord:
    def __init__(self, path, problem, settings, echo=None):
        self.path, self.echo = path, echo
        self.started = time.monotonic()
        self.data = {"status": "running", "message": "", "started_at": _now(), "finished_at": None,
                     "problem": problem, "settings": settings, "final": None,
                     "events": [], "model_calls": [], "node_timings": []}
        self.save()

    def elapsed(self):
        return round(time.monotonic() - self.started, 3)

    def event(self, kind, say=None, **fields):
        self.data["events"].append({"at_s": self.elapsed(), "kind": kind, **fields})
        self.save()
        if say and self.echo:
            self.echo(say)

    def model_call(self, node, call):
        self.data["model_calls"].append({"at_s": self.elapsed(), "node": node, **call})
        self.save()

    def node_timing(self, node, started_s, seconds):
        self.data["node_timings"].append({"node": node, "started_at_s": started_s, "seconds": round(seconds, 3)})
        self.save()

    def finish(self, status, message, final):
        self.data.update(status=status, message=message, final=final, finished_at=_now(),
                         usage=self.usage(), wall_s=self.elapsed())
        self.save()

    def usage(self):
        calls = self.data["model_calls"]
        return {"model_calls": len(calls),
                "prompt_tokens": sum(c.get("prompt_tokens") or 0 for c in calls),
                "completion_tokens": sum(c.get("completion_tokens") or 0 for c in calls),
                "model_seconds": round(sum(c.get("latency_ms") or 0 for c in calls) / 1000, 3)}

    def save(self):
        temporary = f"{self.path}.tmp"
        with open(temporary, "w", encoding="utf-8") as f:
            json.dump(self.data, f, indent=1, ensure_ascii=False)
        os.replace(temporary, self.path)


def _now():
    return datetime.now(timezone.utc).isoformat(timespec="seconds")
