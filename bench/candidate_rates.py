"""python -m bench.candidate_rates DIR [DIR ...]: how often one drawn candidate of each problem is right.

From benchmark records (each `full` run's run.json), every candidate ImplementFunction drew (not the oracle,
not a revision) is counted per problem: how many pass the statement's examples and, of those, how many pass
the hidden tests (judged again in the sandbox). A problem whose candidates are rarely right is lost to the
model, not to the verdict; `more` is the chance that another `--more` candidates bring at least one right
one, at the problem's measured rate (as if each were drawn alone; samples of one problem are alike, so it is
an upper bound). Prints one line per problem whose rate is below `--below`, fewest first. Reads records
and runs code in the sandbox; asks no model.

    python -m bench.candidate_rates bench-results/s41-he1-ss1-c bench-results/s42-he1-ss5 --below 0.25
"""
import argparse
import json
from collections import defaultdict
from pathlib import Path

from bench.datasets import DatasetError
from bench.hidden_tests import judge_hidden
from bench.revise_yield import problems_of
from bench.side_by_side import results
from bench.vote_accuracy import passes_trusted
from core.vocabulary import Author
from utils.sandbox import best_isolation


def tally(folders, isolation):
    """{problem id: [runs, runs right, candidates, passing the examples, of those right]}."""
    counts = defaultdict(lambda: [0, 0, 0, 0, 0])
    for folder in folders:
        for row in results(folder, "full").values():  # a problem run again: its last line counts
            record = Path(row.get("run_dir", "")) / "run.json"
            try:
                problem = problems_of(row["dataset"]).get(row["id"])
            except DatasetError:
                problem = None
            if problem is None or not record.exists():
                continue
            count = counts[row["id"]]
            count[0], count[1] = count[0] + 1, count[1] + bool(row.get("hidden_pass"))
            for attempt in (json.loads(record.read_text()).get("final") or {}).get("attempts") or []:
                if attempt.get("source") != Author.IMPLEMENT:
                    continue
                count[2] += 1
                if passes_trusted(attempt):
                    count[3] += 1
                    count[4] += bool(judge_hidden(problem, attempt["code"], isolation)["passed"])
    return counts


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench.candidate_rates", description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", metavar="DIR", help="benchmark folders (--out of python -m bench)")
    parser.add_argument("--below", type=float, default=1.0, help="only problems whose candidates are right less often")
    parser.add_argument("--more", type=int, default=12, help="candidates more, for the `more` column (four draws: 12)")
    args = parser.parse_args(argv)
    counts = tally(args.folders, best_isolation())
    rate = {name: (right / drawn if drawn else 0.0) for name, (_, _, drawn, _, right) in counts.items()}
    print(f"{'problem':46} {'runs':>4} {'right':>5} {'drawn':>5} {'examples':>8} {'right':>5} {'rate':>5} {'more':>5}")
    for name in sorted((n for n in counts if rate[n] < args.below), key=lambda n: (rate[n], n)):
        runs, runs_right, drawn, passing, right = counts[name]
        more = 1 - (1 - rate[name]) ** args.more
        print(f"{name[:46]:46} {runs:>4} {runs_right:>5} {drawn:>5} {passing:>8} {right:>5} {rate[name]:>5.0%} {more:>5.0%}")


if __name__ == "__main__":
    main()
