"""run.json: the whole record of a run, rewritten after every event so an interrupted run keeps its past.

The file is replaced atomically (write a temporary file, then rename), so a reader or a crash never
sees half a file; when it cannot be written (a full disk), WriteError says so in one line. `echo`, when given, receives a one-line progress message for each event that has one.

  status, message, started_at, finished_at, wall_s, problem
  settings      Settings.describe(): the model without its key (with `embedded`, `server_start_s` for
                the embedded model), every option, the sandbox's limits and isolation
  events[]      {at_s, kind, ...}: node_started, test_cases, function_code, check_failed, test_run (every
                result, each judged attempt's summary), revision (reasoning, changed tests and code,
                refused entries, new attempts), reflection, failure_reflection, question, review,
                packages, *_skipped, budget_spent, model_failed, error (with the traceback),
                page_failed (run.html could not be written, after the run)
  model_calls[] {at_s, node, attempt, messages, answer, finish_reason, prompt_tokens, completion_tokens,
                latency_ms, server_timings (llama-server's own), error}, journaled as each call returns,
                so an interrupted run keeps every call that happened
  node_timings[], usage {model_calls, prompt_tokens, completion_tokens, model_seconds}
  final         what --json prints: the outcome, the tests and results, and the attempt tree with each
                version's results in brief (`python -m core.search_tree run.json` draws it; run.html shows it)
"""
import json
import threading
import time
from datetime import datetime, timezone

from utils.text_files import WriteError, write_atomically


class RunRecord:
    def __init__(self, path, problem, settings, echo=None):
        self.path, self.echo = path, echo
        self.lock = threading.RLock()  # model calls are journaled from several threads at once
        self.started = time.monotonic()
        self.data = {"status": "running", "message": "", "started_at": _now(), "finished_at": None,
                     "problem": problem, "settings": settings, "final": None,
                     "events": [], "model_calls": [], "node_timings": []}
        self.save()

    def elapsed(self):
        return round(time.monotonic() - self.started, 3)

    def event(self, kind, say=None, **fields):
        with self.lock:
            self.data["events"].append({"at_s": self.elapsed(), "kind": kind, **fields})
            self.save()
        if say and self.echo:
            self.echo(say)

    def model_call(self, node, call):
        with self.lock:
            self.data["model_calls"].append({"at_s": self.elapsed(), "node": node, **call})
            self.save()

    def node_timing(self, node, started_s, seconds):
        with self.lock:
            self.data["node_timings"].append({"node": node, "started_at_s": started_s, "seconds": round(seconds, 3)})
            self.save()

    def finish(self, status, message, final):
        """The outcome. When the full record no longer fits (a full disk), a compact one is written instead:
        every call's prompt and answer are left out (they are most of the file), the rest is kept; failing
        that, a minimal one (the outcome, the final code, usage and settings; no events, calls or tests); and
        if even that finds no room beside the old file, it overwrites the old file in place."""
        with self.lock:
            self.data.update(status=status, message=message, final=final, finished_at=_now(),
                             usage=self.usage(), wall_s=self.elapsed())
        try:
            self.save()
            return
        except WriteError:
            pass
        calls = [{k: v for k, v in call.items() if k not in ("messages", "answer")} for call in self.data["model_calls"]]
        compact = {**self.data, "model_calls": calls, "compacted": "the disk was full: prompts and answers are left out"}
        kept = {k: v for k, v in (final or {}).items() if k not in ("attempts", "test_results", "test_cases")}
        minimal = {**{k: v for k, v in self.data.items() if k not in ("events", "model_calls", "node_timings")},
                   "final": kept, "compacted": "the disk was full: events, calls and tests are left out"}
        texts = [json.dumps(record, indent=1, ensure_ascii=False) for record in (compact, minimal)]
        for text in texts:
            try:
                write_atomically(self.path, text)
                return
            except WriteError:
                continue
        try:
            with open(self.path, "w", encoding="utf-8") as f:
                f.write(texts[-1])
        except OSError:
            raise WriteError(f"cannot write {self.path}: no room even for a compact record") from None

    def usage(self):
        with self.lock:
            calls = list(self.data["model_calls"])
        return {"model_calls": len(calls),
                "prompt_tokens": sum(c.get("prompt_tokens") or 0 for c in calls),
                "completion_tokens": sum(c.get("completion_tokens") or 0 for c in calls),
                "model_seconds": round(sum(c.get("latency_ms") or 0 for c in calls) / 1000, 3)}

    def save(self):
        with self.lock:
            write_atomically(self.path, json.dumps(self.data, indent=1, ensure_ascii=False))


def _now():
    return datetime.now(timezone.utc).isoformat(timespec="seconds")
