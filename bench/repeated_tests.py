"""python -m bench.repeated_tests DIR [DIR ...]: how often the model's own tests repeat an input it was shown.

Asked for more tests beside the statement's examples (or the person's tests), the embedded model often
copies them: a repeat adds nothing (GenerateTestCases drops it), and a run whose every test is a repeat
has no input beyond the examples for its programs to settle, so its claim rests on the examples and their
variants. Prints, per folder, the test requests read, the tests they returned, how many repeat a trusted
input, and each run where all of them did (its status and whether its code passed the hidden tests).
Reads records only; asks no model and runs no code. A folder that is not there, or a record it cannot
read, is one line on stderr and exit 2.

    python -m bench.repeated_tests bench-results/s35-lc1 bench-results/s36-lc4
"""
import argparse
import json
import os
import sys

from bench.vote_accuracy import runs
from core.cases import TestCase, input_key
from utils.yaml_answer import AnswerError, parse_tests_answer


def trusted_inputs(run):
    """The inputs of the trusted tests (statement examples, the person's) the run started from, as
    GenerateTestCases compares a written test's input with them (TestCase.key)."""
    for event in run["events"]:
        if event["kind"] == "test_cases":
            return {case.key for case in map(TestCase.from_record, event["test_cases"]) if case.trusted}
    return set()


def written_tests(run):
    """[[input key, ...] of each test request's answer] (answers that do not read as tests left out)."""
    lists = []
    for call in run["model_calls"]:
        if call["node"] != "GenerateTestCases" or not call.get("answer"):
            continue
        try:
            tests = parse_tests_answer(call["answer"], max_tests=99)["test_cases"]
        except AnswerError:
            continue
        lists.append([input_key(test["input"]) for test in tests])
    return lists


def count(folder):
    """(requests, tests, repeats, [(id, status, hidden pass) of each run whose tests all repeat])."""
    requests = tests = repeats = 0
    all_repeats = []
    for run_dir, row in sorted(runs([folder]).items()):
        with open(os.path.join(run_dir, "run.json"), encoding="utf-8") as f:
            run = json.load(f)
        shown = trusted_inputs(run)
        for written in written_tests(run):
            again = sum(1 for test in written if test in shown)
            requests, tests, repeats = requests + 1, tests + len(written), repeats + again
            if shown and again == len(written):
                all_repeats.append((row["id"], row["status"], row.get("hidden_pass")))
    return requests, tests, repeats, all_repeats


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench.repeated_tests", description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", metavar="DIR")
    args = parser.parse_args(argv)
    totals = [0, 0, 0]
    for folder in args.folders:
        try:
            if not os.path.isdir(folder):
                raise OSError("no such folder")
            requests, tests, repeats, all_repeats = count(folder)
        except (OSError, ValueError, KeyError) as exc:
            print(f"repeated_tests: {folder}: cannot read its records ({exc})", file=sys.stderr)
            return 2
        totals = [totals[0] + requests, totals[1] + tests, totals[2] + repeats]
        print(f"{folder}: {requests} test requests, {tests} tests, {repeats} repeat an input shown")
        for run_id, status, hidden in all_repeats:
            print(f"  every test repeated: {run_id} ({status}, hidden {'pass' if hidden else 'fail'})")
    print(f"all: {totals[0]} test requests, {totals[1]} tests, {totals[2]} repeat an input shown")
    return 0


if __name__ == "__main__":
    sys.exit(main())
