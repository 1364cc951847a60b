"""python -m bench.speed_check_replay DIR... : the speed check (TimeLargestInput) replayed on recorded runs.

For every LeetCode result line in the benchmark folders given (their results.jsonl) whose problem has a
largest input (core/largest_input.py), the code the run handed over is run once there in the sandbox, with
--limit seconds (the check's default). Prints one line per distinct (problem, code): the folder, the problem,
how the run ended, whether it passed the hidden tests, the input, and the seconds taken or TIMEOUT; then
the claims (solved runs) that time out and those that return, each with how many passed the hidden tests.
No model is needed: it tells what the check would have done to runs made before it existed.

    python -m bench.speed_check_replay docs/evidence bench-results
"""
import argparse
import glob
import json
import os

from bench.datasets import load
from core.largest_input import largest_input
from core.statement_examples import statement_examples
from utils.sandbox import Limits, best_isolation, run_batch


def replay(folders, limit):
    problems = {problem.id: problem for problem in load("leetcode")[0]}
    seen, claims = set(), {"TIMEOUT": [], "returned": []}
    lines = sorted(path for folder in folders for path in glob.glob(os.path.join(folder, "**", "results.jsonl"), recursive=True))
    for path in lines:
        with open(path, encoding="utf-8") as f:
            rows = [json.loads(line) for line in f if line.strip()]
        for row in rows:
            problem = problems.get(row["id"])
            if problem is None or not row.get("code") or (row["id"], row["code"]) in seen:
                continue
            examples = statement_examples(problem.statement)
            made = largest_input(problem.statement, examples[0].input) if examples else None
            if made is None:
                continue
            seen.add((row["id"], row["code"]))
            result = run_batch(row["code"], [made], Limits(test_timeout=limit, batch_timeout=limit + 10), best_isolation())[0]
            took = "TIMEOUT" if result["timed_out"] else f"{result['ms'] / 1000:.2f} s {result.get('error_type') or ''}"
            print(f"{os.path.relpath(os.path.dirname(path))}  {row['id']}  {row['status']}  hidden "
                  f"{'pass' if row['hidden_pass'] else 'fail'}  {json.dumps(made)}  {took}", flush=True)
            if row["status"] == "solved":
                claims["TIMEOUT" if result["timed_out"] else "returned"].append(row["hidden_pass"])
    for outcome, hidden in claims.items():
        print(f"claims {outcome}: {len(hidden)}, {sum(hidden)} of them pass the hidden tests")


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench.speed_check_replay", description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", help="benchmark folders (searched for results.jsonl)")
    parser.add_argument("--limit", type=float, default=10.0, help="seconds the code may take (default 10)")
    args = parser.parse_args(argv)
    replay(args.folders, args.limit)


if __name__ == "__main__":
    main()
