"""Would fresh random inputs have told apart the programs behind the recorded claims? Reads benchmark records,
runs the recorded programs in the sandbox, prints numbers (the measurement behind core/random_inputs.py's use).

    python -m bench.tell_apart bench-results/DIR [DIR ...]

For each claimed run (read once per problem and claimed code), the versions that passed every counted test
and are not the claim written again (core/source_code.program_key), and with --oracle the oracle when it
passes the trusted tests, run beside the claim on inputs drawn
like the run's own (core/random_inputs.shaped_inputs). An input where the claim and such a version both
return and differ is one the run never tested and on which one of them is wrong. Each such input is then
settled as the run would settle a variant (core/agreement.settle: the candidates that pass the trusted
tests and the valid oracle vote; an input validator the run trusted drops what it rejects):

  same         nothing tells the programs apart: the claim stands as it did
  stands       every such input settled with the claim's value
  against      some input settled with another value: the claim fails a counted test
  open         some input disputed or unchecked, none against: the run would draw again, else end unconfirmed

With the claimed code's hidden-test result beside it: a false success read `against` or `open` is caught,
a right claim read so is a cost (a redraw, or a run unconfirmed).

With --raises, the reading behind core/verdict.claim_order's tie-break instead: for each solved or unconfirmed
run whose versions passing every counted test (one per program) raise on different numbers of fresh inputs
where another returns, each such version with that number and whether it passes the hidden tests; then how
often the one raising least passes them while another does not, and the reverse.
"""
import argparse
import sys
from collections import Counter
from pathlib import Path

from bench.claims import comparison_of, distinct_runs
from bench.hidden_tests import judge_hidden
from bench.revise_yield import problems_of
from core.agreement import settle
from core.cases import TestCase
from core.compare import outputs_match
from core.judges import VALIDATOR_SHIM
from core.random_inputs import raised_where_others_return, shaped_inputs, telling_apart
from core.source_code import program_key
from core.vocabulary import Origin, Source
from utils.sandbox import best_isolation, run_batch

READINGS = ("same", "stands", "against", "open")


def told_apart(record, isolation, count=64, with_oracle=False):
    """(reading, how many inputs told the claim apart from another version passing every counted test)."""
    cases, fresh = tests_and_fresh_inputs(record, count)
    claimed = record["final"]["attempt"]
    attempts = {a["id"]: a for a in record["final"]["attempts"] if a.get("check") == "ok" and a.get("code")}
    if claimed not in attempts or not cases:
        return "same", 0
    comparison = comparison_of(record)
    key = program_key(attempts[claimed]["code"])
    rivals = [a for a in passing_versions(record) if program_key(a["code"]) != key]
    trusted = [case for case in cases if case.trusted]
    inputs = [case.input for case in trusted] + fresh
    outputs = {a["id"]: run_batch(a["code"], inputs, isolation=isolation) for a in attempts.values()
               if a["source"] in ("implement", "oracle") or a in rivals or a["id"] == claimed}
    oracle = next((a for a in attempts.values() if a["source"] == "oracle"), None)
    if with_oracle and oracle and all(r["ok"] and outputs_match(r["value"], case.expected, comparison)
                      for r, case in zip(outputs[oracle["id"]], trusted)):
        rivals.append(oracle)  # where the valid oracle differs from the claim, one of them is wrong
    mine, at = outputs[claimed], len(trusted)
    apart = [at + i for i in telling_apart(mine[at:], [outputs[rival["id"]][at:] for rival in rivals], comparison)]
    if not apart:
        return "same", 0
    tests = trusted + [TestCase(f"apart_{k}", inputs[i], None, Origin.VARIANT) for k, i in enumerate(apart, 1)]
    kept = list(range(at)) + apart
    voters = {aid: [results[i] for i in kept] for aid, results in outputs.items() if attempts[aid]["source"] == "implement"}
    validator = next((a for a in reversed(list(attempts.values())) if a["source"] == "validator"), None)
    judged = settle(tests, voters, [outputs[oracle["id"]][i] for i in kept] if oracle else None, comparison)
    inputs = [case.input for case in tests]
    if validator:  # trusted only when it accepts every trusted input, as core/judges.validator_in_use
        says = run_batch(validator["code"] + VALIDATOR_SHIM, inputs, isolation=isolation)
        if all(r["ok"] and r["value"] is True for r in says[:len(trusted)]):
            judged = [(ev, value) if says[i]["ok"] and says[i]["value"] is not False else (None, None)
                      for i, (ev, value) in enumerate(judged)]
    readings = set()
    for k, i in enumerate(apart):
        ev, value = judged[at + k]
        if ev is None or ev.source == Source.REJECTED:
            continue
        if ev.source in (Source.ORACLE, Source.MAJORITY, Source.WITNESS):
            readings.add("stands" if outputs_match(mine[i]["value"], value, comparison) else "against")
        else:
            readings.add("open")
    reading = "against" if "against" in readings else "open" if "open" in readings else "stands" if readings else "same"
    return reading, len(apart)


def tests_and_fresh_inputs(record, count):
    """The run's last settled tests (core.cases.TestCase) and `count` fresh inputs drawn from their inputs with the
    run's seed, as its first TellApart drew them."""
    evidence = [e for e in record["events"] if e["kind"] == "evidence"]
    cases = [TestCase.from_record(case) for case in (evidence[-1]["test_cases"] if evidence else [])]
    statement = record["problem"] if isinstance(record["problem"], str) else record["problem"].get("statement", "")
    seed = (record.get("settings") or {}).get("seed") or 0
    return cases, shaped_inputs([case.input for case in cases], statement, count, seed=seed)


def passing_versions(record):
    """The run's versions (candidates, revisions) that passed every counted test, one per program."""
    versions, keys = [], set()
    for a in record["final"]["attempts"]:
        if a["source"] in ("implement", "revise") and a.get("check") == "ok" and a.get("code") and a.get("total") \
                and a.get("passed") == a.get("total") and program_key(a["code"]) not in keys:
            keys.add(program_key(a["code"]))
            versions.append(a)
    return versions


def raises(record, problem, isolation, count=64):
    """[(version id, fresh inputs it raised on where another returned, passes the hidden tests)], or [] where
    fewer than two versions pass every counted test or they all raise alike (nodes.TellApart's counts)."""
    cases, fresh = tests_and_fresh_inputs(record, count)
    versions = passing_versions(record)
    if len(versions) < 2 or not cases:
        return []
    ran = [run_batch(a["code"], fresh, isolation=isolation) for a in versions]
    raised = raised_where_others_return(ran)
    if len(set(raised)) == 1:
        return []
    return [(a["id"], n, judge_hidden(problem, a["code"], isolation)["passed"]) for a, n in zip(versions, raised)]


def main_raises(folders, count, isolation):
    """The --raises reading; 2 when a folder could not be read (the others are read all the same), else 0."""
    seen, tally, unreadable = set(), Counter(), False
    for folder in folders:
        try:
            for row, _, record in distinct_runs(folder, lambda row, kind: row["status"] in ("solved", "unconfirmed"), seen):
                problem = problems_of(row["dataset"]).get(row["id"])
                found = raises(record, problem, isolation, count) if problem is not None else []
                if found:
                    tally[_least_raising(found)] += 1
                    print(f"{Path(folder).name} {row['id'][:30]} {row['status']}: "
                          + ", ".join(f"{i} raised {n}, hidden {hidden}" for i, n, hidden in found))
        except (OSError, ValueError, KeyError) as exc:
            print(f"tell_apart: {folder}: cannot read its records ({exc})", file=sys.stderr)
            unreadable = True
    for reading in ("least raising right, another wrong", "least raising wrong, another right", "alike"):
        print(f"{reading:<36} {tally[reading]:>4}")
    return 2 if unreadable else 0


def _least_raising(found):
    least = min(n for _, n, _ in found)
    right = {hidden for _, n, hidden in found if n == least}, {hidden for _, n, hidden in found if n > least}
    return ("least raising right, another wrong" if right == ({True}, {False}) else
            "least raising wrong, another right" if right == ({False}, {True}) else "alike")


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench.tell_apart", description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", metavar="DIR", help="benchmark output folders (each with results.jsonl)")
    parser.add_argument("--count", type=int, default=64, help="inputs drawn per run (default 64, as nodes.TellApart)")
    parser.add_argument("--oracle", action="store_true", help="the valid oracle is a version to tell apart too")
    parser.add_argument("--raises", action="store_true", help="the versions that raise on different numbers of fresh "
                        "inputs, and which pass the hidden tests")
    args = parser.parse_args(argv)
    isolation = best_isolation()
    if args.raises:
        return main_raises(args.folders, args.count, isolation)
    seen, tally, unreadable = set(), Counter(), False
    print(f"{'run':<48} {'hidden':>6} {'apart':>5}  reading")
    for folder in args.folders:
        try:
            for row, _, record in distinct_runs(folder, lambda row, kind: row["status"] == "solved", seen):
                reading, apart = told_apart(record, isolation, args.count, args.oracle)
                hidden = bool(row["hidden_pass"])
                print(f"{Path(folder).name + ' ' + row['id'][:30]:<48} {str(hidden):>6} {apart:>5}  {reading}")
                tally[reading, hidden] += 1
        except (OSError, ValueError, KeyError) as exc:  # the other folders are still read; the exit code says so
            print(f"tell_apart: {folder}: cannot read its records ({exc})", file=sys.stderr)
            unreadable = True
    print(f"\n{'reading':<10} {'right claims':>12} {'false successes':>16}")
    for reading in READINGS:
        print(f"{reading:<10} {tally[reading, True]:>12} {tally[reading, False]:>16}")
    return 2 if unreadable else 0


if __name__ == "__main__":
    sys.exit(main())
