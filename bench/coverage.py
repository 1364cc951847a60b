"""What variant inputs (core/variants.py) would have done to recorded claims. Reads benchmark records, runs
the recorded programs in the sandbox, prints numbers.

    python -m bench.coverage [--variants N] bench-results/DIR [DIR ...]   (N: 16 by default, as in a run)

For every `full` run today's claim rules call solved (bench.claims: settled or solution+guess), the run's
final tests plus N variants of their inputs are run on every program the run wrote (its candidates, the
oracle, the revisions), and utils/agreement.settle settles the variants as RunTests would. The claim

  stands    when no variant is disputed and the claimed code passes every variant settled,
  is lost   otherwise: a variant the programs answer differently (RunTests draws once more, then ends
            unconfirmed), or one the claimed code fails (RunTests would revise).

Lost is an upper bound: the live flow draws once more before giving up a claim, and more voters can
settle a variant either way. A run that made variants itself is replayed on fresh ones made from its
final written tests (the same ones when those did not change: the seed is fixed).
"""
import argparse
import json
from collections import Counter
from pathlib import Path

from bench.claims import CLAIMED_NOW, comparison_of, runs
from bench.datasets import load
from bench.hidden_tests import judge_hidden
from settings import Settings
from core.agreement import settle
from core.cases import TestCase
from core.compare import outputs_match
from core.source_code import repeats
from core.variants import variant_cases
from core.vocabulary import Source
from utils.sandbox import best_isolation, run_batch


def replay(record, count, isolation):
    """("stands" | "disputed" | "fails", {attempt id: passes every counted variant}, what was found)."""
    evidence = [e for e in record["events"] if e["kind"] == "evidence"]
    written = [TestCase.from_record({k: v for k, v in case.items() if k != "evidence"}) for case in
               (evidence[-1]["test_cases"] if evidence else record["final"]["test_cases"])]
    cases = [case for case in written if not case.is_variant]
    comparison = comparison_of(record)
    tests = cases + variant_cases([case.input for case in cases], record["problem"], count)
    programs = [a for a in record["final"]["attempts"] if a.get("check") == "ok" and a.get("code")]
    outputs = {a["id"]: run_batch(a["code"], [t.input for t in tests], isolation=isolation) for a in programs}
    oracles = [a for a in programs if a["source"] == "oracle"]
    candidates = {a["id"]: a["code"] for a in programs if a["source"] == "implement"}
    again = repeats(candidates, besides={oracles[-1]["id"]: oracles[-1]["code"]} if oracles else None)
    voters = {i: outputs[i] for i in candidates if i not in again}  # one voter per program, as in a run
    found = settle(tests, voters, outputs[oracles[-1]["id"]] if oracles else None, comparison)
    variant_at = range(len(cases), len(tests))
    sources = Counter(found[i][0].source for i in variant_at)

    def passes_one(attempt_id, i):
        return outputs[attempt_id][i]["ok"] and outputs_match(outputs[attempt_id][i]["value"], found[i][1], comparison)

    def passes(attempt_id):
        return all(passes_one(attempt_id, i) for i in variant_at if found[i][0].counted)
    claimed = record["final"]["attempt"]
    if sources[Source.DISPUTED]:
        verdict = "disputed"
    else:
        verdict = "stands" if claimed in outputs and passes(claimed) else "fails"
    others = [a["id"] for a in programs if a["id"] != claimed and a["source"] != "oracle" and a.get("status") == "solved"]
    telling = [json.dumps(tests[i].input)[:60] for i in variant_at if found[i][0].source == Source.DISPUTED or (
        found[i][0].counted and claimed in outputs and not passes_one(claimed, i))]
    return verdict, {a: passes(a) for a in others} if verdict == "fails" else {}, dict(sources), telling


def main(folders, count):
    isolation = best_isolation()
    tally, problems, per_folder = Counter(), {}, {}
    print(f"{'run':<44} {'hidden':>6}  verdict   variants settled")
    for folder in folders:
        for row, kind in runs(folder):
            # per folder: (claims, false successes, correct but not trusted) today, then with variants
            today, varied = per_folder.setdefault(f"{Path(folder).name} {row['dataset']}", (Counter(), Counter()))
            was_right = bool(row["hidden_pass"])
            if kind not in CLAIMED_NOW:
                today["trusted not"] += was_right
                varied["trusted not"] += was_right
                continue
            record = json.loads((Path(row["run_dir"]) / "run.json").read_text())
            verdict, switch, sources, telling = replay(record, count, isolation)
            right = was_right
            if verdict == "fails" and any(switch.values()):  # RunTests would claim the other solving attempt
                dataset = problems.setdefault(row["dataset"], {p.id: p for p in load(row["dataset"])[0]})
                other = next(a for a, ok in switch.items() if ok)
                code = next(a["code"] for a in record["final"]["attempts"] if a["id"] == other)
                right, verdict = judge_hidden(dataset[row["id"]], code, isolation)["passed"], "switches"
            kept = verdict in ("stands", "switches")
            tally[(verdict, was_right, right)] += 1
            today.update({"claims": 1, "false": not was_right})
            varied.update({"claims": kept, "false": kept and not right, "trusted not": not kept and was_right})
            print(f"{Path(folder).name + ' ' + row['id']:<44} {was_right!s:>6}  {verdict:<9} {sources}")
            for inputs in telling[:3]:
                print(f"    {inputs}")
    claims = sum(tally.values())
    kept = {key: n for key, n in tally.items() if key[0] in ("stands", "switches")}
    print(f"\n{claims} claims replayed with {count} variants each:")
    print(f"  stand: {sum(n for k, n in kept.items() if k[0] == 'stands')}, switch to another solving attempt: "
          f"{sum(n for k, n in kept.items() if k[0] == 'switches')}; of those right on the hidden tests: "
          f"{sum(n for k, n in kept.items() if k[2])}, false successes: {sum(n for k, n in kept.items() if not k[2])}")
    lost = {key: n for key, n in tally.items() if key not in kept}
    print(f"  lost: {sum(lost.values())} (a variant disputed: {sum(n for k, n in lost.items() if k[0] == 'disputed')}, "
          f"failed: {sum(n for k, n in lost.items() if k[0] == 'fails')}); of those, false successes caught: "
          f"{sum(n for k, n in lost.items() if not k[1])}, right claims lost: {sum(n for k, n in lost.items() if k[1])}")
    print("\nper folder: claims, false successes, correct but not trusted; today's rules, then with variants")
    print(f"{'folder and set':<36} {'today':>22}   {'with variants':>22}")
    for name, (today, varied) in per_folder.items():
        print(f"{name:<36} " + "   ".join(" ".join(f"{c[key]:>6}" for key in ("claims", "false", "trusted not"))
                                         for c in (today, varied)))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m bench.coverage", description=__doc__.split("\n\n")[0])
    parser.add_argument("--variants", type=int, default=Settings.variants,
                        help=f"variant inputs per run (default {Settings.variants}, as in a run)")
    parser.add_argument("folders", nargs="+", metavar="OUT_DIR", help="a folder with the results.jsonl of python -m bench")
    args = parser.parse_args()
    missing = [folder for folder in args.folders if not (Path(folder) / "results.jsonl").exists()]
    if missing:
        parser.error(f"no results.jsonl in {missing[0]}")
    main(args.folders, args.variants)
