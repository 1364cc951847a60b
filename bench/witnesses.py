"""Would programs that fail a statement example have confirmed the runs that ended unconfirmed? Reads benchmark
records, runs the recorded programs in the sandbox, prints numbers (the measurement behind the `witness`
rule of core/agreement.py).

    python -m bench.witnesses bench-results/DIR [DIR ...]

A program that fails a trusted test has no vote. In many unconfirmed runs one program passed the examples
and nothing else answered its other inputs (`unchecked`), or only the model's guess did, differently
(`disputed` by one voter). Such a run still wrote other programs: the oracle and candidates that fail an
example. A *witness* of the handed-over code is one of them that is not that code written again
(core/source_code.program_key) and returns the code's value on an open input. Two readings:

  any witness         an open input is settled when some witness returns the code's value there
  consistent witness  only by a witness that returns the code's value on every untrusted input both
                      answer and answers at least half of the code's (core/agreement.consistent_witnesses,
                      the rule adopted)

A run is claimed when no input stays disputed (programs that disagree, two voters or more, block it) and
something backs the claim. Each unconfirmed run is read once per distinct (problem, handed-over code); the
table says how many would be claimed, and how many of those pass the hidden tests (a claim of wrong code
would be a false success).
"""
import argparse
import sys
from collections import Counter
from pathlib import Path

from bench.claims import comparison_of, distinct_runs
from core.agreement import consistent_witnesses
from core.cases import TestCase
from core.compare import outputs_match
from core.source_code import program_key
from core.vocabulary import Source
from utils.sandbox import best_isolation, run_batch

VOTING_SOURCES = ("implement", "oracle")  # independent programs; a revision votes with its parent
READINGS = ("any witness", "consistent witness")


def witnesses(record, isolation):
    """{reading: whether the run would be claimed}, with the number of inputs a witness settles."""
    evidence = [e for e in record["events"] if e["kind"] == "evidence"]
    cases = [TestCase.from_record(case) for case in (evidence[-1]["test_cases"] if evidence else [])]
    comparison = comparison_of(record)
    trusted = [i for i, case in enumerate(cases) if case.trusted]
    claimed = record["final"]["attempt"]
    attempts = {a["id"]: a for a in record["final"]["attempts"] if a.get("check") == "ok" and a.get("code")
                and (a.get("source") in VOTING_SOURCES or a["id"] == claimed)}
    if claimed not in attempts or not trusted:
        return {reading: False for reading in READINGS}, 0
    # what a witness may settle: an input nothing answered but the code (unchecked), or one where only
    # the code answered and the model's guess differs (disputed by one voter)
    open_ = [i for i, case in enumerate(cases) if case.evidence.source == Source.UNCHECKED or (
        case.evidence.source == Source.DISPUTED and case.evidence.voters <= 1)]
    blocked = any(case.evidence.source == Source.DISPUTED and case.evidence.voters > 1 for case in cases)
    backed = any(case.backs_a_claim for case in cases)
    if blocked or not open_:
        return {reading: False for reading in READINGS}, 0
    inputs = [case.input for case in cases]
    outputs = {aid: run_batch(a["code"], inputs, isolation=isolation) for aid, a in attempts.items()}
    mine = outputs[claimed]

    def right(result, i):
        return result["ok"] and outputs_match(result["value"], cases[i].expected, comparison)

    def same(result, i):
        return result["ok"] and mine[i]["ok"] and outputs_match(result["value"], mine[i]["value"], comparison)
    key = program_key(attempts[claimed]["code"])
    failing = [outputs[aid] for aid in attempts if aid != claimed and program_key(attempts[aid]["code"]) != key
               and not all(right(outputs[aid][i], i) for i in trusted)]
    found = {}
    for reading, who in (("any witness", failing),
                         ("consistent witness", consistent_witnesses(cases, mine, failing, comparison))):
        settled = {i for i in open_ for theirs in who if same(theirs[i], i)}
        disputed_left = any(cases[i].evidence.source == Source.DISPUTED and i not in settled for i in open_)
        found[reading] = not disputed_left and (backed or bool(settled))
    return found, len({i for i in open_ for theirs in failing if same(theirs[i], i)})


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench.witnesses", description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", metavar="DIR", help="benchmark output folders (each with results.jsonl)")
    args = parser.parse_args(argv)
    isolation = best_isolation()
    seen, tally = set(), Counter()
    print(f"{'run':<48} {'kind':<14} {'hidden':>6}  settled  " + "  ".join(READINGS))
    for folder in args.folders:
        try:
            wanted = lambda row, kind: row["status"] == "unconfirmed" and kind not in (None, "no trusted test")
            for row, kind, record in distinct_runs(folder, wanted, seen):
                claims, settled = witnesses(record, isolation)
                hidden = bool(row["hidden_pass"])
                print(f"{Path(folder).name + ' ' + row['id'][:30]:<48} {kind:<14} {str(hidden):>6}  {settled:>7}  "
                      + "  ".join(f"{str(claims[r]):>{len(r)}}" for r in READINGS))
                tally["unconfirmed", hidden] += 1
                for reading in READINGS:
                    tally[reading, hidden] += claims[reading]
        except (OSError, ValueError, KeyError) as exc:
            print(f"witnesses: {folder}: cannot read its records ({exc})", file=sys.stderr)
            return 2
    print(f"\n{'':<28} {'runs':>5} {'right':>6} {'wrong':>6}   (the handed-over code on the hidden tests)")
    for reading in ("unconfirmed",) + READINGS:
        right, wrong = tally[reading, True], tally[reading, False]
        label = "unconfirmed runs" if reading == "unconfirmed" else f"claimed, {reading}"
        print(f"{label:<28} {right + wrong:>5} {right:>6} {wrong:>6}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
