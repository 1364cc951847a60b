"""python -m bench.one_sided DIR [DIR ...]: the claims whose evidence beyond the examples gives one answer only.

A claim needs inputs beyond the statement's examples that independent programs settled (core/verdict.py).
Where every such input settled to the same output while the examples show two or more, those inputs tried
one side of the problem only: LeetCode 593 (Valid Square) was claimed on 14 variants all settled `false`,
and both programs behind them answer `true` for four equal points (bench-results/s36-lc4, a false success).
Prints each solved run whose counted inputs beyond the trusted tests give one output (how many inputs, that
output, whether the examples give more than one, the hidden verdict), then the totals. A reader for
deciding whether such evidence should count; it changes nothing. Reads records only; asks no model and runs
no code. A folder that is not there, or a record it cannot read, is one line on stderr and exit 2.

    python -m bench.one_sided bench-results/s36-lc4 bench-results/s35-he1
"""
import argparse
import json
import os
import sys

from bench.vote_accuracy import last_round_tests, runs
from core.cases import TestCase


def one_sided(records):
    """(the inputs beyond the trusted tests that back a claim, as core/verdict.lacks counts them; their one
    output as JSON; the trusted tests' distinct outputs) when those inputs give one output only; None
    otherwise or when there are none."""
    tests = [TestCase.from_record(record) for record in records]
    beyond = [case for case in tests if case.backs_a_claim and not case.trusted]
    outputs = {json.dumps(case.expected, sort_keys=True) for case in beyond}
    if len(outputs) != 1:
        return None
    given = {json.dumps(case.expected, sort_keys=True) for case in tests if case.trusted}
    return len(beyond), outputs.pop(), len(given)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench.one_sided", description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", metavar="DIR")
    args = parser.parse_args(argv)
    claims, found = 0, []
    for folder in args.folders:
        try:
            if not os.path.isdir(folder):
                raise OSError("no such folder")
            for run_dir, row in sorted(runs([folder]).items()):
                if row["status"] != "solved":
                    continue
                claims += 1
                with open(os.path.join(run_dir, "run.json"), encoding="utf-8") as f:
                    sided = one_sided(last_round_tests(json.load(f)))
                if sided:
                    found.append((folder, row, *sided))
        except (OSError, ValueError, KeyError) as exc:
            print(f"one_sided: {folder}: cannot read its records ({exc})", file=sys.stderr)
            return 2
    for folder, row, count, output, given in found:
        print(f"{folder}: {row['id']}: {count} input(s) beyond the examples, all {output}; the examples give "
              f"{given} answer(s); hidden {'pass' if row.get('hidden_pass') else 'FAIL'}")
    varied = [item for item in found if item[4] > 1]
    print(f"{claims} claims; {len(found)} with one answer beyond the examples, {len(varied)} where the examples give more "
          f"(hidden fail {sum(1 for item in varied if not item[1].get('hidden_pass'))}); of those with two or more such "
          f"inputs: {sum(1 for item in varied if item[2] >= 2)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
