"""python -m bench.empty_check_replay DIR... : the empty-input check (TryEmptyInputs) replayed on recorded runs.

For every result line in the benchmark folders given (their results.jsonl) whose run.json is still there and
whose problem allows an emptied input (core/empty_inputs.py), the version handed over and up to two other
versions that passed the same tests (the best ranked first) run on the emptied inputs in the sandbox, by
the node's own exec. Prints one line per run the check would change: the version handed over now and the
one it would hand over, each with whether it passes the hidden tests; then how many runs it looked at, how
many it would change, and how many of those changes turn a failing hand-over into a passing one. No model is
needed.

    python -m bench.empty_check_replay bench-results
"""
import argparse
import glob
import json
import os

from bench.datasets import load
from bench.hidden_tests import judge_hidden
from core.empty_inputs import emptied_inputs
from nodes import TryEmptyInputs
from utils.sandbox import Limits, best_isolation

SOLVING = ("kept", "solved")


def would_hand_over(run, isolation):
    """(claim id, the id the check hands over, the inputs), or None when the check has nothing to run."""
    final = run.get("final") or {}
    tests, attempts = final.get("test_cases") or [], final.get("attempts") or []
    examples = [case["input"] for case in tests if case.get("origin") == "statement"] or [case["input"] for case in tests]
    made = emptied_inputs(run.get("problem", ""), examples[0]) if examples else []
    claim = next((a for a in attempts if a["id"] == final.get("attempt")), None)
    if not made or claim is None:
        return None
    others = sorted((a for a in attempts if a["source"] in ("implement", "revise", "user") and a["status"] in SOLVING
                     and a["total"] and a["passed"] == a["total"] and a["id"] != claim["id"]),
                    key=lambda a: (a["trusted_passed"], a["passed"], -len(a.get("lint") or ()), a["id"]), reverse=True)
    raised = TryEmptyInputs().exec({"inputs": made, "versions": [(a["id"], a["code"]) for a in [claim, *others[:2]]],
                                    "limits": Limits(test_timeout=2, batch_timeout=20), "isolation": isolation,
                                    "packages": None, "sandboxes": None})
    return claim["id"], raised[-1][0] if raised[-1][1] < raised[0][1] else claim["id"], made


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench.empty_check_replay", description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", metavar="DIR")
    args = parser.parse_args(argv)
    isolation, problems, runs, looked, changed, fixed = best_isolation(), {}, 0, 0, 0, 0
    for path in sorted(p for folder in args.folders for p in glob.glob(os.path.join(folder, "**", "results.jsonl"), recursive=True)):
        with open(path, encoding="utf-8") as f:
            rows = {row["run_dir"]: row for row in map(json.loads, filter(str.strip, f)) if row.get("run_dir")}
        for run_dir, row in sorted(rows.items()):
            record = os.path.join(run_dir, "run.json")
            if not os.path.exists(record):
                continue
            with open(record, encoding="utf-8") as f:
                run = json.load(f)
            runs += 1
            outcome = would_hand_over(run, isolation)
            if outcome is None:
                continue
            looked += 1
            claim, kept, made = outcome
            if kept == claim:
                continue
            if row["dataset"] not in problems:
                problems[row["dataset"]] = {problem.id: problem for problem in load(row["dataset"])[0]}
            code = {a["id"]: a["code"] for a in run["final"]["attempts"]}
            passes = {i: judge_hidden(problems[row["dataset"]][row["id"]], code[i], isolation)["passed"] for i in (claim, kept)}
            changed += 1
            fixed += passes[kept] and not passes[claim]
            print(f"{os.path.dirname(path)} {row['id']} {row['status']}: attempt {claim} (hidden {passes[claim]}) raised on "
                  f"{json.dumps(made)}, attempt {kept} (hidden {passes[kept]}) would be handed over")
    print(f"runs: {runs}; with an emptied input: {looked}; the check changes {changed}; a failing hand-over made passing: {fixed}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
