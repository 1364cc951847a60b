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
from core.problem_kind import ProblemKindError, detect
from core.repeats import same_output  # the loop's own test of a repeat by behaviour (core/repeats.py): one definition
from core.source_code import program_key
from utils.sandbox import Limits, best_isolation, run_batch

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
    if problem.time_limit > settings.limits.test_timeout:  # a package's, as main.py --problem-dir takes it
        settings = replace(settings, limits=replace(settings.limits, test_timeout=problem.time_limit))
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
            **({"hidden_missing": hidden["missing"]} if "missing" in hidden else {}),
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


def read_record(run_dir):
    """A run's run.json, or None where it is missing or torn."""
    try:
        with open(os.path.join(run_dir, "run.json"), encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def draws_repeated(record, isolation):
    """How many of a run's draws (ImplementFunction's candidates) are a program the run already had (issue 89):
    `text`, the same code as an earlier attempt (the function_code event's `repeated`: no attempt was made; since
    issue 89's step 2 the loop makes none for the same program_key either) or the same after core/source_code.py's
    program_key (names, comments, layout: older records); `behaviour`, those and the candidates
    whose outputs equal an earlier program's (a candidate, the oracle, a revision) on every test input of the round
    the candidate was first run in (raising the same error type counts as the same output). Every program is run
    again on those inputs in the sandbox: a test_run event holds the results of the round's current attempt only,
    so most candidates' outputs are not in the record. `pairs`: [new attempt (None: not made), earlier, how].
    None for a record without events or final attempts."""
    if not record or not (record.get("final") or {}).get("attempts"):
        return None
    programs = {a["id"]: a["code"] for a in record["final"]["attempts"] if a.get("code") and a.get("source") not in JUDGES}
    draws = draws_of(record.get("events") or [])
    outputs = outputs_of(programs, draws, contract_of_record(record), limits_of_record(record), isolation)
    pairs = []
    for new, inputs, again_of in draws:
        if new is None:  # the code of attempt `again_of` written again: no attempt was made
            pairs.append([None, again_of, "text"])
            continue
        if new not in programs:
            continue
        earlier = [old for old in programs if old < new]
        same_text = next((old for old in earlier if program_key(programs[old]) == program_key(programs[new])), None)
        same_outputs = next((old for old in earlier if inputs and all(
            same_output(outputs[old][key], outputs[new][key]) for key in inputs)), None)
        if same_text is not None or same_outputs is not None:
            pairs.append([new, same_outputs if same_text is None else same_text, "behaviour" if same_text is None else "text"])
    return {"draws": len(draws), "text": sum(how == "text" for *_, how in pairs), "behaviour": len(pairs), "pairs": pairs}


def draws_of(events):
    """Each draw in order: (its new attempt's id, or None where it wrote an attempt's code again; the test inputs in
    force when it was first run, by input_key (the tests of the round's evidence, before its test_run); the attempt
    it wrote again, or None)."""
    tests, waiting, draws = {}, [], []
    for event in events:
        if event.get("kind") in ("test_cases", "evidence"):
            tests = {input_key(case["input"]): case["input"] for case in event.get("test_cases") or []}
        elif event.get("kind") == "function_code":
            waiting += [(new, None) for new in event.get("attempts") or []]
            waiting += [(None, old) for old in event.get("repeated") or []]
        elif event.get("kind") == "test_run" and waiting:
            draws += [(new, dict(tests), old) for new, old in waiting]
            waiting = []
    return draws + [(new, dict(tests), old) for new, old in waiting]  # a run that ended before running them


def outputs_of(programs, draws, contract, limits, isolation):
    """{attempt id: {input key: sandbox result}}: each program up to the last draw, run once on every input any draw
    is compared on."""
    inputs = {key: value for _, keyed, _ in draws for key, value in keyed.items()}
    last = max((new for new, _, _ in draws if new is not None), default=0)
    outputs = {}
    for attempt_id, code in programs.items():
        if attempt_id <= last:
            results = run_batch(code, list(inputs.values()), limits, isolation, contract=contract) if inputs else []
            outputs[attempt_id] = dict(zip(inputs, results))
    return outputs


def input_key(value):
    return json.dumps(value, sort_keys=True)


def contract_of_record(record):
    """The sandbox codec's contract the run called its programs under, from its statement and --kind."""
    try:
        return detect(record.get("problem") or "", kind=(record.get("settings") or {}).get("kind")).for_sandbox()
    except (ProblemKindError, ValueError):
        return None


def limits_of_record(record):
    """The run's own time limits a test and a batch (a program that hung there hangs again: as long, not longer)."""
    sandbox = (record.get("settings") or {}).get("sandbox") or {}
    given = {name: sandbox[name] for name in ("test_timeout", "batch_timeout") if isinstance(sandbox.get(name), (int, float))}
    return Limits(**given)


def count_repeats(lines, isolation, out_dir, say=None):
    """The lines with `repeats` (draws_repeated) filled in from each run's run.json (found where the line says
    or, in a record unpacked elsewhere, at the same place under out_dir). What is counted is kept in repeats.jsonl
    beside results.jsonl (never rewritten: a benchmark may still be appending to it) and read from there next time."""
    path = os.path.join(out_dir, "repeats.jsonl")
    known = {kept_key(entry): entry["repeats"] for entry in kept(path) if "repeats" in entry}
    owed = [line for line in lines if line.get("run_dir") and kept_key(line) not in known]
    if owed and say:  # every program of a run is run again: seconds a run, minutes where programs hang
        say(f"bench: counting repeated draws in {len(owed)} runs (once: kept in {path})")
    for line in owed:
        folders = (line["run_dir"], os.path.join(out_dir, *os.path.normpath(line["run_dir"]).split(os.sep)[-4:]))
        record = next((r for r in map(read_record, folders) if r is not None), None)
        if record is not None:
            known[kept_key(line)] = draws_repeated(record, isolation)
            with open(path, "a", encoding="utf-8") as f:
                f.write(json.dumps({**dict(zip(KEPT_KEY, kept_key(line))), "repeats": known[kept_key(line)]}) + "\n")
    for line in lines:
        if kept_key(line) in known:
            line["repeats"] = known[kept_key(line)]


KEPT_KEY = ("dataset", "strategy", "id", "run_dir")  # a run's entry in judged.jsonl and repeats.jsonl


def kept_key(entry):
    return tuple(entry.get(name) for name in KEPT_KEY)


def kept(path):
    """The entries of a file of what --report-only worked out once (judged.jsonl, repeats.jsonl); a damaged line
    (a write cut short) is skipped and worked out again."""
    if not os.path.exists(path):
        return []
    entries = []
    with open(path, encoding="utf-8") as f:
        for text in f:
            try:
                entry = json.loads(text)
            except ValueError:
                continue
            if isinstance(entry, dict) and all(name in entry for name in KEPT_KEY):
                entries.append(entry)
    return entries


def judge_versions(lines, problems, isolation, out_dir):
    """Lines recorded before `versions` (or `difficulty`) were, with them filled in from each run's run.json and
    the problem set, for `--report-only` on older records. What is judged is kept in `judged.jsonl` beside
    results.jsonl (never rewritten: a benchmark may still be appending to it) and read from there next time."""
    path = os.path.join(out_dir, "judged.jsonl")
    known = {kept_key(entry): entry for entry in kept(path)}
    for line in lines:
        key = kept_key(line)
        problem = problems.get(line["id"])
        if key not in known and problem is not None and "versions" not in line and line.get("run_dir"):
            record = read_record(line["run_dir"])
            if record is None:
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
