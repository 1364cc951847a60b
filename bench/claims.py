"""Which claims hold on the hidden tests, by what the last round left disputed. Reads benchmark records, prints numbers.

    python -m bench.claims bench-results/DIR [DIR ...]

For every `full` run that ended solved or unconfirmed, the last `evidence` event of its run.json says
which inputs were still disputed, and the last `test_run` what the handed-over code returned on them.
Each run is one of four kinds:

  no trusted test  no statement example and no test of the person's: only programs' agreement backs it
                   (RunTests.anchored: such a run ends unconfirmed since 5d3a1be)
  examples only    settled (or solution+guess), but no counted test beyond the statement's examples was
                   settled by independent programs (oracle, majority, checker, or every program that
                   answered returning the model's guess) or written by the person:
                   what core/verdict.lacks calls "nothing beyond the statement's examples" (issue 27)
  settled          nothing disputed: every model test was settled by execution (or, before 2026-12-01, a guess
                   broke a tie), or only the handed-over code answered it where programs back the code
                   elsewhere (b67bce0)
  solution+guess   every disputed input had no independent voter and the code returns the model's guess
                   there (what RunTests.accept_guesses claims on; an earlier run ended unconfirmed on it)
  disputed         other programs answered some disputed input differently, or the code differs from the guess

Per kind it prints the runs, how many ended solved and unconfirmed, and how many pass the hidden tests:
the numbers behind the claim rules in docs/design.md ("Where truth comes from"). Then, per folder, what
today's rules would claim of the same runs (they act only on the last round's verdict: settled and
solution+guess runs are solved, the others unconfirmed): claims, false successes, correct but not trusted.
"""
import ast
import json
import sys
from collections import Counter
from pathlib import Path

from core.agreement import confirmed_by_guess
from core.cases import TestCase
from core.compare import Comparison
from core.source_code import program_key
from core.verdict import lone_inputs

KINDS = ("no trusted test", "examples only", "settled", "solution+guess", "disputed")


def kind_of(record):
    kind = _kind(record)
    if kind in ("settled", "solution+guess"):
        evidence = [e for e in record["events"] if e["kind"] == "evidence"]
        cases = evidence[-1]["test_cases"] if evidence else []
        backed = any(TestCase.from_record(case).backs_a_claim for case in cases)
        return kind if backed else "examples only"  # as core/verdict.lacks decides it
    return kind


def _kind(record):
    evidence = [e for e in record["events"] if e["kind"] == "evidence"]
    runs = [e for e in record["events"] if e["kind"] == "test_run"]
    if not evidence or not runs:
        return "settled"
    cases, results = evidence[-1]["test_cases"], runs[-1]["results"]
    sources = [case["evidence"]["source"] for case in cases]
    if not {"statement", "user"} & set(sources):
        return "no trusted test"
    if "solution_guess" in sources and "disputed" not in sources:
        return "solution+guess"
    tests = [TestCase.from_record(case) for case in cases]
    outputs = [_recorded(result) for result in results]  # what the handed-over code returned (its repr)
    left = [i for i, source in enumerate(sources) if source == "disputed"]
    lone = lone_inputs(handed_over_source(record), outputs, tests, left)  # left out by today's verdict
    left = [i for i in left if i not in lone]
    if not left:
        return "settled"
    echoed = len(confirmed_by_guess(outputs, tests, left, comparison_of(record))) == len(left)
    return "solution+guess" if echoed else "disputed"


def handed_over_source(record):
    """Which step wrote the handed-over code ("implement" where the record does not say)."""
    final = record.get("final") or {}
    return next((a["source"] for a in final.get("attempts") or () if a["id"] == final.get("attempt")), "implement")


def comparison_of(record):
    """How the run compared outputs (its test_cases event says: any order, and the statement's float tolerance)."""
    event = next((e for e in record["events"] if e["kind"] == "test_cases"), {})
    return Comparison(any_order=event.get("any_order", False),
                      tolerance=(event.get("output_kind") or {}).get("tolerance", 0.0))


def _recorded(result):
    """A test_run result as the sandbox's {"ok", "value"} (not ok when its repr is no literal)."""
    try:
        return {"ok": True, "value": ast.literal_eval(result["actual"])}
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return {"ok": False, "value": None}


CLAIMED_NOW = ("settled", "solution+guess")  # what today's verdict calls solved; the other kinds end unconfirmed


def runs(folder):
    """(results line, kind or None) for every full run in the folder; kind only for solved and unconfirmed."""
    for line in (Path(folder) / "results.jsonl").read_text().splitlines():
        row = json.loads(line)
        record = Path(row["run_dir"]) / "run.json"
        if row["strategy"] != "full":
            continue
        ended = row["status"] in ("solved", "unconfirmed") and record.exists()
        yield row, kind_of(json.loads(record.read_text())) if ended else None


def distinct_runs(folder, wanted, seen):
    """(results line, kind, run.json) for the folder's full runs that `wanted(row, kind)` keeps, each once per
    (dataset, problem, handed-over program) over the calls that share `seen`. OSError without results.jsonl."""
    if not (Path(folder) / "results.jsonl").exists():
        raise OSError("no results.jsonl")
    for row, kind in runs(folder):
        if not wanted(row, kind):
            continue
        record = json.loads((Path(row["run_dir"]) / "run.json").read_text())
        key = (row["dataset"], row["id"], program_key(record["final"].get("function_code") or ""))
        if key not in seen:
            seen.add(key)
            yield row, kind, record


def main(folders):
    counts, today = Counter(), {}
    for folder in folders:
        for row, kind in runs(folder):
            tally = today.setdefault(f"{Path(folder).name} {row['dataset']}", Counter())
            claimed = kind in CLAIMED_NOW
            tally["runs"] += 1
            tally["claims"] += claimed
            tally["false successes"] += claimed and not row["hidden_pass"]
            tally["correct but not trusted"] += not claimed and bool(row["hidden_pass"])
            if kind:
                counts[(kind, row["status"], "runs")] += 1
                counts[(kind, row["status"], "hidden")] += bool(row["hidden_pass"])
    print(f"{'kind':<17} {'status':<12} {'runs':>5} {'hidden pass':>12}")
    for kind in KINDS:
        for status in ("solved", "unconfirmed"):
            if counts[(kind, status, "runs")]:
                print(f"{kind:<17} {status:<12} {counts[(kind, status, 'runs')]:>5} {counts[(kind, status, 'hidden')]:>12}")
    print("\nas today's claim rules decide each recorded run (exact for runs that ended after the extra draw:")
    print("records made since eb1f127; earlier ones claimed with inputs disputed, before that draw existed)")
    columns = ("runs", "claims", "false successes", "correct but not trusted")
    print(f"{'folder and set':<36} " + "  ".join(columns))
    for name, tally in today.items():
        print(f"{name:<36} " + "  ".join(f"{tally[c]:>{len(c)}}" for c in columns))


if __name__ == "__main__":
    if len(sys.argv) < 2 or any(not (Path(folder) / "results.jsonl").exists() for folder in sys.argv[1:]):
        sys.exit("usage: python -m bench.claims OUT_DIR [OUT_DIR ...] (each with the results.jsonl of python -m bench)")
    main(sys.argv[1:])
