"""python -m bench.vote_accuracy DIR... : how often a vote's largest output is right, and the claims split votes made.

Six readings of the benchmark folders given (their results.jsonl and each run's run.json), no model:

1. Votes. For every HumanEval run, the programs that voted at its end (candidates passing every trusted
   test, the valid oracle) run again in the sandbox on each input that is not a trusted test, and so does
   the package's canonical solution, which says what is right. Per input, the largest output (none where
   two tie) is counted by its size, how many voters answered, and whether the oracle is in it; printed
   with how often its value is the canonical one. LeetCode's package ships no solution, so its runs are
   left out here.
2. Split claims. For every run that ended solved, any input that some round settled by the oracle or a
   majority while a voter returned something else (its evidence: agree below voters), by source and
   size (`oracle 2/3`), with whether the claim passes the hidden tests.
3. Disputes with the guess alone. For every run whose problem has a known answer program (as in 4), the
   model's tests its last round left disputed with one voter (the one program that answered returned
   another value than the model's guess; from `b67bce0` such an input at a claim that programs back
   elsewhere is `unchecked`): the hand-over and the answer program run on them, and per run whether the
   hand-over was right there, the guess was, whether programs back the run's code on other inputs
   (a counted input the oracle, a majority, a witness or the checker settled, none dissenting), and
   whether the hand-over passes the hidden tests. Whether a claim could pass over such a dispute is
   what this tells (core/verdict.left_out_lone).
4. Programs against the guess. For every run whose problem has a known answer program (HumanEval: the
   canonical solution; LeetCode: the code a recorded run of the same problem handed over that passed the
   hidden tests, a stand-in checked on the set's 18-odd cases), the model's tests its last round settled
   by the oracle or a majority while the model's guess was another value: which of the two the answer
   program returns, by the vote's source and size. Whether the guess should ever outweigh programs is
   what this tells.
5. Revise's rewrites. For every run whose problem has a known answer program, each model test a Revise
   answer rewrote, by the evidence the test had in the round before (a guess a program returned:
   `guess, a program returned it`): whether the old value was right and whether the new one is. Whether
   the model may change such a value is what this tells (core/cases.TestCase.protected).
6. Guesses settled. For every run whose problem has a known answer program, each model test some round settled
   by the model's guess, once per problem and input: where programs that answered tied and the guess broke the
   tie (agree below voters; records before 2026-12-01) and where every program that answered returned it
   (uncontested), whether the guess was right. Whether the guess may break a tie is what this tells
   (core/agreement._guess_alone).

    python -m bench.vote_accuracy bench-results
"""
import argparse
import collections
import glob
import json
import os

from bench.datasets import humaneval_rows
from core.agreement import _clusters
from core.cases import TestCase, input_key
from core.compare import EXACT, outputs_match
from core.verdict import backed_by_programs
from utils.sandbox import Limits, best_isolation, run_batch

LIMITS = Limits(test_timeout=2, batch_timeout=60)


def runs(folders):
    """{run_dir: result line} of every line whose run.json is still there (the last line of a run wins)."""
    found = {}
    for path in sorted(p for folder in folders for p in glob.glob(os.path.join(folder, "**", "results.jsonl"), recursive=True)):
        with open(path, encoding="utf-8") as f:
            for row in map(json.loads, filter(str.strip, f)):
                if row.get("run_dir") and os.path.exists(os.path.join(row["run_dir"], "run.json")):
                    found[row["run_dir"]] = row
    return found


def passes_trusted(attempt):
    """Whether a recorded attempt loads and passes every trusted test (the statement's examples, the person's)."""
    return attempt.get("check") == "ok" and bool(attempt.get("trusted_total")) \
        and attempt["trusted_passed"] == attempt["trusted_total"]


def voters(run):
    """(source, code) of the programs that vote at the run's end."""
    return [(a["source"], a["code"]) for a in run["final"]["attempts"] if a["source"] in ("implement", "oracle")
            and passes_trusted(a)]


def largest(values):
    """(value, size, whether the oracle returned it) of the largest output among [(source, value)], clustered
    as the verdict clusters them (core/agreement.py); None where two tie."""
    clusters = sorted(_clusters([value for _, value in values], EXACT), key=lambda cluster: len(cluster[1]), reverse=True)
    if len(clusters) > 1 and len(clusters[0][1]) == len(clusters[1][1]):
        return None
    value, members = clusters[0]
    return value, len(members), any(source == "oracle" and outputs_match(other, value) for source, other in values)


def vote_rows(run, solution, isolation):
    """[(size, answered, oracle in it, right)] for each input of the run that is not a trusted test."""
    tests = [case for case in run["final"]["test_cases"] if case["origin"] not in ("statement", "user")]
    programs = voters(run)
    if not tests or len(programs) < 2:
        return []
    inputs = [case["input"] for case in tests]
    truth = run_batch(solution, inputs, LIMITS, isolation)
    outputs = [(source, run_batch(code, inputs, LIMITS, isolation)) for source, code in programs]
    rows = []
    for k, right in enumerate(truth):
        values = [(source, results[k]["value"]) for source, results in outputs if results[k]["ok"]]
        top = largest(values) if right["ok"] and len(values) >= 2 else None
        if top:
            value, size, oracle_in = top
            rows.append((size, len(values), oracle_in, outputs_match(value, right["value"])))
    return rows


def last_round_tests(run):
    """The tests as the run's last judged round settled them (its last `evidence` event), or []."""
    rounds = [event for event in run["events"] if event["kind"] == "evidence"]
    return rounds[-1]["test_cases"] if rounds else []


def vote(case):
    """A settled test's evidence in short: 'majority 2/3'."""
    return f"{case['evidence']['source']} {case['evidence']['agree']}/{case['evidence']['voters']}"


def guess_disputes(run, solution, isolation):
    """[(hand-over right, guess right)] on each model test the run's last round left disputed with one voter."""
    cases = [case for case in last_round_tests(run) if case["origin"] == "model"
             and case["evidence"]["source"] in ("disputed", "unchecked") and case["evidence"]["voters"] == 1]
    if not cases or not run["final"].get("function_code"):
        return []
    inputs = [case["input"] for case in cases]
    truth = run_batch(solution, inputs, LIMITS, isolation)
    handed = run_batch(run["final"]["function_code"], inputs, LIMITS, isolation)
    return [(got["ok"] and outputs_match(got["value"], right["value"]),
             outputs_match(case["expected"], right["value"]))
            for case, right, got in zip(cases, truth, handed) if right["ok"]]


def backed_elsewhere(run):
    """Whether the run's last round has a counted input independent programs settled with none dissenting (or a
    test of the person's): core/verdict.backed_by_programs on the recorded tests."""
    return backed_by_programs([TestCase.from_record(case) for case in last_round_tests(run)])


def against_guess(run, solution, isolation):
    """[(evidence as 'majority 2/3', programs right, guess right)] on each model test the run's last round
    settled by programs where the model had guessed another value."""
    cases = [case for case in last_round_tests(run) if case["origin"] == "model"
             and "guess" in case and case["evidence"]["source"] in ("oracle", "majority")
             and not outputs_match(case["guess"], case["expected"])]
    if not cases:
        return []
    truth = run_batch(solution, [case["input"] for case in cases], LIMITS, isolation)
    return [(vote(case), outputs_match(case["expected"], right["value"]), outputs_match(case["guess"], right["value"]))
            for case, right in zip(cases, truth) if right["ok"]]


def rewrites(run, solution, isolation):
    """[(the test's evidence before, old value right, new value right)] for each model test a revision rewrote."""
    before, rows = {}, []
    for event in run["events"]:
        if event["kind"] == "evidence":
            before = {case["name"]: case for case in event["test_cases"]}
        for case in (event.get("revised_tests") or {}).values() if event["kind"] == "revision" else ():
            old = before.get(case["name"])
            if old and old["origin"] == "model" and old["input"] == case["input"] and old.get("evidence"):
                truth = run_batch(solution, [case["input"]], LIMITS, isolation)[0]
                returned = ", a program returned it" if old["evidence"]["agree"] else ""
                if truth["ok"]:
                    rows.append((old["evidence"]["source"] + returned, outputs_match(old["expected"], truth["value"]),
                                 outputs_match(case["expected"], truth["value"])))
    return rows


def guesses_settled(run, problem, solution, isolation, seen):
    """[(contested, right)] for each model test any round settled by the guess that `seen` (a set of (problem,
    input, contested), updated) does not hold yet: contested where a program that answered returned another value."""
    cases = {}
    for event in run["events"]:
        for case in event["test_cases"] if event["kind"] == "evidence" else ():
            evidence = case["evidence"]
            if case["origin"] == "model" and evidence["source"] == "guess":
                key = (problem, input_key(case["input"]), evidence["agree"] < evidence["voters"])
                if key not in seen:
                    seen.add(key)
                    cases[key] = case
    truth = run_batch(solution, [case["input"] for case in cases.values()], LIMITS, isolation) if cases else []
    return [(key[2], outputs_match(case["expected"], right["value"]))
            for (key, case), right in zip(cases.items(), truth) if right["ok"]]


def passing_hand_overs(found):
    """problem id -> the code a recorded run handed over that passed the hidden tests (the first found): a
    program known to answer a set that ships no solution."""
    programs = {}
    for row in found.values():
        if row.get("hidden_pass") and row.get("code"):
            programs.setdefault(row["id"], row["code"])
    return programs


def split_settlements(run):
    """{'oracle 2/3', ...}: the inputs some round settled by programs while a voter dissented."""
    return {vote(case) for event in run["events"] if event["kind"] == "evidence" for case in event["test_cases"]
            if case["evidence"]["source"] in ("oracle", "majority") and case["evidence"]["agree"] < case["evidence"]["voters"]}


def print_guess_disputes(guessed):
    """The third reading: [(problem, run_dir, hidden pass, [(hand-over right, guess right)], backed elsewhere)]."""
    inputs = [pair for *_, disputes, _ in guessed for pair in disputes]
    backed = [hidden for _, _, hidden, _, elsewhere in guessed if elsewhere]
    print(f"inputs disputed between one program and the model's guess: {len(inputs)} in {len(guessed)} runs; "
          f"the hand-over right on {sum(p for p, _ in inputs)}, the guess on {sum(g for _, g in inputs)}; "
          f"{sum(not hidden for _, _, hidden, *_ in guessed)} of the runs hand over code failing the hidden tests; "
          f"{backed.count(False)} of the {len(backed)} that programs back elsewhere")
    for problem, run_dir, hidden, disputes, elsewhere in guessed:
        print(f"  {problem} ({run_dir}): hand-over right on {sum(p for p, _ in disputes)} of {len(disputes)}, "
              f"guess on {sum(g for _, g in disputes)}; {'backed by programs elsewhere; ' * elsewhere}"
              f"hidden {'pass' if hidden else 'FAIL'}")


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench.vote_accuracy", description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", metavar="DIR")
    args = parser.parse_args(argv)
    isolation = best_isolation()
    found = runs(args.folders)
    solutions = {row["task_id"]: f"{row['prompt']}{row['canonical_solution']}\n\nrun_code = {row['entry_point']}\n"
                 for row in humaneval_rows()}
    answers = {**passing_hand_overs(found), **solutions}  # HumanEval's own solution first
    votes, split, guessed, outvoted, rewritten = collections.Counter(), [], [], [], collections.Counter()
    guesses, seen = [], set()
    for run_dir, row in sorted(found.items()):
        with open(os.path.join(run_dir, "run.json"), encoding="utf-8") as f:
            run = json.load(f)
        if row["id"] in solutions:
            for size, answered, oracle_in, right in vote_rows(run, solutions[row["id"]], isolation):
                key = (size == answered, size, answered, oracle_in)
                votes[key + (None,)] += 1
                votes[key + (right,)] += 1
        if row["id"] in answers:
            disputes = guess_disputes(run, answers[row["id"]], isolation)
            if disputes:
                guessed.append((row["id"], run_dir, row["hidden_pass"], disputes, backed_elsewhere(run)))
            settled = against_guess(run, answers[row["id"]], isolation)
            if settled:
                outvoted.append((row["id"], run_dir, row["hidden_pass"], settled))
            rewritten.update((evidence, old, new, row["id"])
                             for evidence, old, new in rewrites(run, answers[row["id"]], isolation))
            guesses += guesses_settled(run, row["id"], answers[row["id"]], isolation, seen)
        settled = split_settlements(run) if row["status"] == "solved" else set()
        if settled:
            split.append((row["id"], run_dir, row["hidden_pass"], sorted(settled)))
    print(f"runs: {len(found)}; HumanEval votes (largest output, voters that answered, the oracle in it: right of inputs)")
    for unanimous, size, answered, oracle_in in sorted({key[:4] for key in votes}, reverse=True):
        key = (unanimous, size, answered, oracle_in)
        print(f"  {size} of {answered}, {'oracle in it' if oracle_in else 'no oracle'}: {votes[key + (True,)]} of {votes[key + (None,)]}")
    print(f"claims with an input settled over a dissenting voter: {len(split)}, "
          f"{sum(not hidden for _, _, hidden, _ in split)} failing the hidden tests")
    for problem, run_dir, hidden, settled in split:
        print(f"  {problem} ({run_dir}): {', '.join(settled)}; hidden {'pass' if hidden else 'FAIL'}")
    print_guess_disputes(guessed)
    inputs = [row for *_, settled in outvoted for row in settled]
    print(f"inputs settled by programs against the model's guess: {len(inputs)} in {len(outvoted)} runs; "
          f"the programs right on {sum(p for _, p, _ in inputs)}, the guess on {sum(g for *_, g in inputs)}")
    for vote in sorted({vote for vote, *_ in inputs}):
        rows = [row for row in inputs if row[0] == vote]
        print(f"  {vote}: programs right on {sum(p for _, p, _ in rows)} of {len(rows)}, the guess on {sum(g for *_, g in rows)}")
    for problem, run_dir, hidden, settled in outvoted:
        print(f"  {problem} ({run_dir}): programs right on {sum(p for _, p, _ in settled)} of {len(settled)}, "
              f"guess on {sum(g for *_, g in settled)}; hidden {'pass' if hidden else 'FAIL'}")
    print(f"model tests a revision rewrote: {sum(rewritten.values())}, by the evidence they had (old value right "
          "-> new value right)")
    for evidence, old, new, problem in sorted(rewritten, key=str):
        print(f"  {evidence}: {'right' if old else 'wrong'} -> {'right' if new else 'wrong'}: "
              f"{rewritten[evidence, old, new, problem]} ({problem})")
    tied, alone = ([right for contested, right in guesses if contested is side] for side in (True, False))
    print(f"model tests the guess settled, once per problem and input: a tie it broke, right on {sum(tied)} of "
          f"{len(tied)}; every program that answered returned it, right on {sum(alone)} of {len(alone)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
