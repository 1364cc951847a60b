"""One benchmark problem, start to end, and the results file.

run_one: the strategy's flow gets only the statement; once it ends, its final code meets the hidden
tests in the sandbox; the answer is one flat JSON-able dict (a line of results.jsonl).
Results: results.jsonl is appended to, one line per finished (strategy, problem), flushed at once, so
an interrupted benchmark loses only the problems in flight; a rerun skips the lines already there.
"""
import json
import os
import shutil
import subprocess
import tempfile
import threading
import time
from collections import Counter
from dataclasses import replace
from datetime import datetime, timezone

from bench.hidden_tests import judge_hidden
from bench.strategies import STRATEGIES
from app import run_problem
from utils.sandbox import best_isolation

# Outcomes that are the problem's result. "error" (a bug or a sandbox that would not start) and
# "interrupted" are not: a rerun tries those problems again.
FINAL_STATUSES = {"solved", "unsolved", "unconfirmed", "untested", "model_failed"}
PROJECT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run_one(problem, strategy, model, isolation, run_dir, overrides=None):
    """Solve one problem with one strategy, judge it on the hidden tests; the results line. Whatever goes
    wrong with one problem is that problem's line (status "error", run again on resume), never the end of
    the benchmark."""
    try:
        return _run_one(problem, strategy, model, isolation, run_dir, overrides or {})
    except Exception as exc:  # noqa: BLE001 - one bad problem (or a bug it hits) must not stop the others
        return {"id": problem.id, "strategy": strategy, "status": "error", "hidden_pass": False,
                "hidden_error": f"internal error: {type(exc).__name__}: {exc}"[:300], "hidden_cases_passed": 0,
                "hidden_cases_total": 0, "self_pass": None, "iterations": 0, "tests_passed": 0, "tests_total": 0,
                "model_calls": 0, "prompt_tokens": 0, "completion_tokens": 0, "wall_s": 0.0, "model_s": 0.0,
                "outside_s": 0.0, "code": None, "settings": None,
                "finished_at": datetime.now(timezone.utc).isoformat(timespec="seconds")}


def _run_one(problem, strategy, model, isolation, run_dir, overrides):
    settings, flow = STRATEGIES[strategy][1](model, isolation)
    settings = replace(settings, **overrides)  # --time-limit, --sampling-seed
    if problem.family:  # the set says the family: the run is held to the contract its hidden tests call it under
        settings = replace(settings, kind=problem.family)
    os.makedirs(run_dir, exist_ok=True)
    started = time.monotonic()
    final = run_problem(problem.statement, settings, run_dir, flow=flow)
    wall = time.monotonic() - started
    if final["status"] == "interrupted":
        raise KeyboardInterrupt
    hidden = judge_hidden(problem, final["function_code"], isolation)
    oracles = [a["code"] for a in final["attempts"] if a.get("source") == "oracle"]
    oracle_pass = judge_hidden(problem, oracles[-1], isolation)["passed"] if oracles else None
    usage = final["usage"]
    return {"id": problem.id, "difficulty": problem.difficulty, "family": problem.family or "plain",
            "strategy": strategy, "status": final["status"],
            "hidden_pass": hidden["passed"], "hidden_error": hidden["error"],
            "hidden_cases_passed": hidden["cases_passed"], "hidden_cases_total": hidden["cases_total"],
            "self_pass": None if final["status"] == "untested" else final["status"] == "solved",
            "iterations": final["iterations"], "tests_passed": final["tests_passed"], "tests_total": final["tests_total"],
            "model_calls": usage["model_calls"], "prompt_tokens": usage["prompt_tokens"],
            "completion_tokens": usage["completion_tokens"], "wall_s": round(wall, 2),
            "model_s": round(usage["model_seconds"], 2), "outside_s": round(max(0.0, wall - usage["model_seconds"]), 2),
            "evidence": dict(Counter((case.get("evidence") or {}).get("source", case.get("origin", "model"))
                                     for case in final["test_cases"])),
            "oracle_hidden_pass": oracle_pass, **runaways(run_dir),
            "confidence": (final.get("confidence") or {}).get("value"),
            "versions": versions_judged(problem, final["attempts"], isolation),
            "code": final["function_code"], "settings": settings.describe(),
            "finished_at": datetime.now(timezone.utc).isoformat(timespec="seconds")}


def versions_judged(problem, attempts, isolation):
    """How many of the run's programs (candidates, revisions, the oracle; judges aside; each text once) pass the
    hidden tests, of how many: where an unsolved run's failure lies. None right: no right program was ever
    written (generation); some right but not handed over: selection."""
    codes = {a["code"] for a in attempts if a.get("code") and a.get("source") not in JUDGES}
    return {"right": sum(judge_hidden(problem, code, isolation)["passed"] for code in codes), "programs": len(codes)}


JUDGES = ("checker", "validator")  # programs that judge outputs or inputs, not solutions


def runaways(run_dir):
    """Answers stopped as loops or cut at the token cap without anything salvaged, and their tokens; and
    whether the time limit or a budget ended the run (a `budget_spent` event)."""
    try:
        with open(os.path.join(run_dir, "run.json"), encoding="utf-8") as f:
            record = json.load(f)
        calls, events = record["model_calls"], record["events"]
    except (OSError, ValueError, KeyError):
        return {"runaways": None, "runaway_tokens": None, "ended_by_budget": None}
    lost = [c for c in calls if c.get("finish_reason") in ("length", "repetition") and not c.get("salvaged")]
    return {"runaways": len(lost),
            "runaway_tokens": sum((c.get("prompt_tokens") or 0) + (c.get("completion_tokens") or 0) for c in lost),
            "ended_by_budget": any(event.get("kind") == "budget_spent" for event in events)}


def judge_versions(lines, problems, isolation, out_dir):
    """Lines recorded before `versions` (or `difficulty`) were, with them filled in from each run's run.json and
    the problem set, for `--report-only` on older records. What is judged is kept in `judged.jsonl` beside
    results.jsonl (never rewritten: a benchmark may still be appending to it) and read from there next time."""
    path = os.path.join(out_dir, "judged.jsonl")
    known = {}
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for text in f:
                try:
                    entry = json.loads(text)
                    known[(entry["dataset"], entry["strategy"], entry["id"], entry["run_dir"])] = entry
                except (ValueError, KeyError):
                    continue
    for line in lines:
        key = (line["dataset"], line["strategy"], line["id"], line.get("run_dir"))
        problem = problems.get(line["id"])
        if key not in known and problem is not None and "versions" not in line and line.get("run_dir"):
            try:
                with open(os.path.join(line["run_dir"], "run.json"), encoding="utf-8") as f:
                    record = json.load(f)
            except (OSError, ValueError):
                continue
            known[key] = {"dataset": line["dataset"], "strategy": line["strategy"], "id": line["id"],
                          "run_dir": line["run_dir"], "difficulty": problem.difficulty,
                          "versions": versions_judged(problem, (record.get("final") or {}).get("attempts", []), isolation),
                          **runaways(line["run_dir"])}
            with open(path, "a", encoding="utf-8") as f:
                f.write(json.dumps(known[key]) + "\n")
        if key in known:
            line.update({name: value for name, value in known[key].items() if name not in line})
        elif problem is not None and "difficulty" not in line:
            line["difficulty"] = problem.difficulty


def run_one_elsewhere(problem, strategy, model, overrides=None):
    """run_one for a machine that does not share our disk (a Ray worker): the run's files come back as text."""
    folder = tempfile.mkdtemp(prefix="codeloop-bench-")
    try:
        isolation = best_isolation()  # this machine's, which may differ from the driver's
        line = {**run_one(problem, strategy, model, isolation, folder, overrides), "isolation": isolation}
        files = {}
        for name in os.listdir(folder):
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                files[name] = f.read()
        return line, files
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def code_version():
    """The git commit the numbers were made with, and whether tracked files differed from it."""
    def git(*args):
        return subprocess.run(["git", "-C", PROJECT, *args], capture_output=True, text=True, timeout=10)
    try:
        head = git("rev-parse", "HEAD")
        dirty = git("diff", "--quiet", "HEAD").returncode != 0
    except (OSError, subprocess.TimeoutExpired):
        return {"git_commit": None, "git_dirty": None}
    if head.returncode != 0:
        return {"git_commit": None, "git_dirty": None}
    return {"git_commit": head.stdout.strip(), "git_dirty": dirty}


class Results:
    """results.jsonl in the output folder: read for resuming, appended to by any thread."""

    def __init__(self, out_dir):
        self.path = os.path.join(out_dir, "results.jsonl")
        self.lock = threading.Lock()
        self.lines = []
        if os.path.exists(self.path):
            self._drop_torn_line()
            with open(self.path, encoding="utf-8", errors="replace") as f:
                for text in f:
                    try:
                        self.lines.append(json.loads(text))
                    except (ValueError, RecursionError):  # a damaged line: that problem runs again
                        continue

    def _drop_torn_line(self):
        """A crash mid-write leaves a last line without its newline: cut it off, so that the next result
        starts a line of its own (that problem runs again)."""
        with open(self.path, "rb+") as f:
            data = f.read()
            if data and not data.endswith(b"\n"):
                f.truncate(data.rfind(b"\n") + 1)

    def done(self, dataset, strategy, problem_id):
        return any(line["dataset"] == dataset and line["strategy"] == strategy and line["id"] == problem_id
                   and line["status"] in FINAL_STATUSES for line in self.lines)

    def add(self, line):
        with self.lock:
            self.lines.append(line)
            with open(self.path, "a", encoding="utf-8") as f:
                f.write(json.dumps(line, ensure_ascii=False) + "\n")
                f.flush()
                os.fsync(f.fileno())

    def latest(self, datasets=None):
        """The last finished line per (dataset, strategy, problem): what the summary counts."""
        chosen = {}
        for line in self.lines:
            if line["status"] in FINAL_STATUSES and (datasets is None or line["dataset"] in datasets):
                chosen[(line["dataset"], line["strategy"], line["id"])] = line
        return list(chosen.values())
