"""python -m bench.revise_yield DIR [DIR ...]: what a Revise round buys, against a fresh draw, per token.

From benchmark records (each `full` run's run.json), every version of the code is judged again on the
problem's hidden tests. A revision *fixes* when the version it revised fails them and one of its new
versions passes; it *breaks* when the version it revised passes and none of its new ones does. Fresh
candidates (ImplementFunction's) are counted alike: how many pass. Tokens are the calls' own: Revise's
for revisions, ImplementFunction's for candidates (the oracle and the judges asked with them included).
Prints, per folder and dataset: revisions, fixes, breaks, tokens per fix; candidates, passing ones,
tokens per passing candidate. Reads records and runs code in the sandbox; asks no model.
"""
import argparse
import json
import sys
from collections import Counter
from pathlib import Path

from bench.datasets import DatasetError, load
from bench.hidden_tests import judge_hidden
from utils.sandbox import best_isolation

KNOWN_SETS = ("humaneval", "leetcode", "leetcode-any", "leetcode-pasted")


def problems_of(dataset, cache={}):
    if dataset not in cache:
        known = dataset in KNOWN_SETS or (dataset.endswith(".jsonl") and Path(dataset).is_file())
        cache[dataset] = {problem.id: problem for problem in load(dataset)[0]} if known else {}
    return cache[dataset]


def tokens(calls, node):
    return sum((c.get("prompt_tokens") or 0) + (c.get("completion_tokens") or 0) for c in calls if c["node"] == node)


def tally_run(record, problem, isolation, tally):
    attempts = {a["id"]: a for a in (record.get("final") or {}).get("attempts") or []}
    passes = {}

    def passed(attempt_id):
        if attempt_id not in passes:
            code = attempts[attempt_id].get("code")
            passes[attempt_id] = bool(code) and judge_hidden(problem, code, isolation)["passed"]
        return passes[attempt_id]
    for event in record["events"]:
        if event["kind"] != "revision" or event.get("attempt") not in attempts:
            continue
        children = [child for child in event.get("new_attempts") or [] if child in attempts]
        tally["revisions"] += 1
        tally["fixes"] += not passed(event["attempt"]) and any(passed(child) for child in children)
        tally["breaks"] += passed(event["attempt"]) and bool(children) and not any(passed(child) for child in children)
    candidates = [a["id"] for a in attempts.values() if a.get("source") == "implement"]
    tally["candidates"] += len(candidates)
    tally["passing candidates"] += sum(passed(c) for c in candidates)
    tally["revise tokens"] += tokens(record["model_calls"], "Revise")
    tally["draw tokens"] += tokens(record["model_calls"], "ImplementFunction")


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench.revise_yield", description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", metavar="DIR", help="benchmark folders (--out of python -m bench)")
    parser.add_argument("--strategies", default="full", help="the strategies' runs to count, comma-separated")
    args = parser.parse_args(argv)
    strategies = args.strategies.split(",")
    isolation = best_isolation()
    print(f"{'folder and set':<36} {'revisions':>9} {'fixes':>5} {'breaks':>6} {'tok/fix':>8} "
          f"{'candidates':>10} {'passing':>7} {'tok/passing':>11}")
    for folder in args.folders:
        tallies = {}
        for line in (Path(folder) / "results.jsonl").read_text().splitlines():
            row = json.loads(line)
            record = Path(row.get("run_dir", "")) / "run.json"
            try:
                problem = problems_of(row["dataset"]).get(row["id"])
            except DatasetError:
                problem = None
            if row["strategy"] not in strategies or problem is None or not record.exists():
                continue
            tally_run(json.loads(record.read_text()), problem, isolation,
                      tallies.setdefault(f"{Path(folder).name} {Path(row['dataset']).stem} {row['strategy']}", Counter()))
        for name, t in tallies.items():
            per_fix = t["revise tokens"] / t["fixes"] if t["fixes"] else float("inf")
            per_pass = t["draw tokens"] / t["passing candidates"] if t["passing candidates"] else float("inf")
            print(f"{name:<36} {t['revisions']:>9} {t['fixes']:>5} {t['breaks']:>6} {per_fix:>8.0f} "
                  f"{t['candidates']:>10} {t['passing candidates']:>7} {per_pass:>11.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
