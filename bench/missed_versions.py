"""python -m bench.missed_versions DIR [DIR ...]: runs whose hand-over fails the hidden tests while another
version of the same run passes them.

From benchmark records (each `full` run's run.json), every version of the code of a run whose final code
fails the hidden tests is judged on them again. Such a run lost a solve to the verdict or the hand-over,
not to the model: the version that passes is what a better rule would have handed over. Prints one line
per such run (its status, and each passing version with its source and how many of the run's trusted
tests and of all its tests it passed), then how many runs failed and how many of them had such a version.
Reads records and runs code in the sandbox; asks no model.
"""
import argparse
import json
from pathlib import Path

from bench.datasets import DatasetError
from bench.hidden_tests import judge_hidden
from bench.revise_yield import problems_of
from bench.side_by_side import results
from utils.sandbox import best_isolation


def passing_versions(record, problem, isolation):
    """The run's versions whose code passes the hidden tests, as recorded (dicts of run.json's attempts)."""
    attempts = (record.get("final") or {}).get("attempts") or []
    return [a for a in attempts if a.get("code") and judge_hidden(problem, a["code"], isolation)["passed"]]


def describe(version):
    return (f"{version['id']} ({version.get('source')}, trusted {version.get('trusted_passed')}/"
            f"{version.get('trusted_total')}, all {version.get('passed')}/{version.get('total')})")


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench.missed_versions", description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", metavar="DIR", help="benchmark folders (--out of python -m bench)")
    args = parser.parse_args(argv)
    isolation = best_isolation()
    failing = missed = 0
    for folder in args.folders:
        for row in results(folder, "full").values():  # a problem run again: its last line counts
            record = Path(row.get("run_dir", "")) / "run.json"
            if row.get("hidden_pass") or not record.exists():
                continue
            try:
                problem = problems_of(row["dataset"]).get(row["id"])
            except DatasetError:
                problem = None
            if problem is None:
                continue
            failing += 1
            found = passing_versions(json.loads(record.read_text()), problem, isolation)
            missed += bool(found)
            if found:
                print(f"{Path(folder).name} {row['id']} {row['status']}: passing {', '.join(map(describe, found))}")
    print(f"runs failing the hidden tests: {failing}, with another version that passes them: {missed}")


if __name__ == "__main__":
    main()
