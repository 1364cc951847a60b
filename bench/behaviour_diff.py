"""python -m bench.behaviour_diff OLD [NEW]: does a change alter what codeloop does? Scripted runs, two commits.

A fixed set of scenarios (a problem, flags, and the model's answers, scripted by a stub OpenAI-compatible
server on 127.0.0.1) is run through `main.py`, as a user runs it, at two commits: OLD and NEW (a commit, or
`.` for the working tree, the default). For each scenario it compares what a user and a reader of the
record see: the exit code, what the run printed, solution.py, test_solution.py, and run.json's verdict
(status, message, each test with its expected value, guess and evidence, every attempt's status and
score, the attempt handed over). Times, ports and folders are masked. Requests go one at a time
(--parallel 1) so that every run asks in the same order. Prints one line per scenario and the
differences; exits 0 when there are none, 1 when there are.

    python -m bench.behaviour_diff 44f4b8d            # that commit against the working tree
    python -m bench.behaviour_diff 44f4b8d HEAD --keep runs-diff

The scripted answers come from this checkout's tests/ (scripted_answers, stub_openai_server), whatever
commit is run, so both sides answer alike. A scenario a commit cannot run (a flag it lacks) says so.
"""
import argparse
import difflib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from tests import scripted_answers as a
from tests import test_flow as pasted
from tests import test_several_answers as several
from tests.scripted_answers import code_answer
from tests.stub_openai_server import StubOpenAIServer
from tests.test_empty_inputs import GUARDED, RUNNING_MAX, RUNNING_MAX_TESTS, STARTS_AT_FIRST
from tests.test_empty_inputs import ORACLE as RUNNING_MAX_ORACLE
from tests.test_flow import (AGAIN, GUESS_NOBODY_RETURNS, MAKE_TESTS_FIT, RAISES_ON_PAIRS, RETURNS_NOTHING,
                             WRONG_ON_PAIRS, WRONG_ON_TRIPLES, ZERO_ON_PAIRS, ZERO_ON_TRIPLES)
from tests.test_largest_input import ENUMERATE, FAST, SLOW, SLOW_TWICE, TREE_TESTS, TREES

ROOT = Path(__file__).resolve().parent.parent

# Answers used by several scenarios; those tests/test_flow.py has are imported from it as they are
PRIME_TESTS = ("```yaml\nreasoning: Primes are not products of three primes.\ntest_cases:\n"
               "  - {name: two, input: {a: 2}, expected: false}\n  - {name: three, input: {a: 3}, expected: false}\n"
               "  - {name: seven, input: {a: 7}, expected: false}\n```")
STRICT = a.GOOD_CODE.replace("seen = {}", "if len(nums) > 4: raise ValueError('too long')\n    seen = {}")
STRICT_BRUTE = a.BRUTE_FORCE.replace("for i in range", "if len(nums) > 4: raise ValueError('too long')\n    for i in range")
LONG_INPUT = a.TESTS.replace("    input: {nums: [3, 3], target: 6}", "    input: {nums: [3, 3, 1, 2, 0], target: 6}")
TOO_SHORT = a.TESTS.replace("    input: {nums: [3, 3], target: 6}", "    input: {nums: [3], target: 6}")
CONSTRAINED = a.TWO_SUM + "\n\nConstraints:\n- 2 <= nums.length <= 10^4\n- -10^9 <= nums[i] <= 10^9\n"
TWO_EXAMPLES = a.TWO_SUM + "\nExample 2: Input: nums = [3, 2, 4], target = 6 Output: [1, 2]"
USER_TESTS = "- {name: mine, input: {nums: [1, 5, 3], target: 8}, expected: [1, 2]}\n"
BACKWARDS_DRAWS = [a.BACKWARDS_CODE.replace("seen", f"seen_{k}") for k in range(15)]  # five draws at most, each a new attempt (the same text twice is one)
# An input validator for Two Sum's "exactly one solution" (asked before 8531976; a checker is asked since)
ONE_PAIR = code_answer("def is_valid_input(nums, target):\n    return sum(nums[i] + nums[j] == target for i in "
                       "range(len(nums)) for j in range(i + 1, len(nums))) == 1\n")
NO_ORACLE, NO_VARIANTS = ["--no-oracle"], ["--variants", "0"]
MODEL_TESTS = list(a.MODEL_TESTS_FLAGS)


def scenario(name, problem, flags=(), tests=(), code=(), oracle=(), revise=(), script=(), user_tests=None, checker=(),
             validator=()):
    return {"name": name, "problem": problem, "flags": list(flags), "user_tests": user_tests,
            "routes": {"tests": list(tests), "code": list(code), "oracle": list(oracle), "revise": list(revise),
                       "checker": list(checker), "validator": list(validator)},
            "script": list(script)}


SCENARIOS = [
    scenario("agree_first_round", a.TWO_SUM, tests=[a.TESTS_WITH_A_WRONG_ONE], code=[a.GOOD_CODE] * 3,
             oracle=[a.BRUTE_FORCE]),
    scenario("agree_first_round_no_variants", a.TWO_SUM, NO_VARIANTS, tests=[a.TESTS], code=[a.GOOD_CODE] * 3,
             oracle=[a.BRUTE_FORCE]),
    scenario("code_fixed_by_revise", a.TWO_SUM, NO_VARIANTS, tests=[a.TESTS], code=[a.BUGGY_CODE] * 3 + AGAIN,
             oracle=[a.BRUTE_FORCE], revise=[a.REVISE_CODE] * 3),
    scenario("test_and_code_fixed", a.TWO_SUM, tests=[a.TESTS_WITH_A_WRONG_ONE], code=[a.BUGGY_CODE] * 3 + AGAIN,
             oracle=[a.BRUTE_FORCE], revise=[a.REVISE_BOTH] * 3),
    scenario("no_worked_example_unconfirmed", "Return the indices of two numbers in nums that add up to target.",
             tests=[a.TESTS], code=[a.GOOD_CODE] * 3, oracle=[a.BRUTE_FORCE]),
    # no candidate passes the example in four draws nor after a revision; the oracle does, and is handed over
    scenario("oracle_handed_over_unsolved", a.TWO_SUM, NO_VARIANTS, tests=[a.TESTS],
             code=[a.BACKWARDS_CODE.replace("seen", f"seen_{k}") for k in range(12)], oracle=[a.BRUTE_FORCE],
             revise=[a.REVISE_USELESS] * 3),
    # every version passes the tests; the newest, claimed, is exponential: at n = 19 (the stated bound) it does not
    # return within the default --speed-limit, the older one does and is handed over
    scenario("too_slow_at_the_stated_bounds", TREES, NO_VARIANTS, tests=[TREE_TESTS], code=[FAST, SLOW, SLOW],
             oracle=[ENUMERATE]),
    # every version of the first draw passes the tests and none returns at n = 19 within 1 s: one draw told so,
    # whose first candidate is fast and handed over (before b1fe05d: unconfirmed)
    scenario("too_slow_everywhere_then_a_draw_told_so", TREES, NO_VARIANTS + ["--speed-limit", "1"], tests=[TREE_TESTS],
             code=[SLOW, SLOW_TWICE, SLOW_TWICE, FAST, SLOW, SLOW], oracle=[ENUMERATE]),
    # every version passes the tests; the newest, claimed, raises on an empty list where the older one returns
    # [], which is handed over
    scenario("raises_on_an_emptied_list", RUNNING_MAX, NO_VARIANTS, tests=[RUNNING_MAX_TESTS],
             code=[GUARDED, STARTS_AT_FIRST, STARTS_AT_FIRST], oracle=[RUNNING_MAX_ORACLE]),
    scenario("redraw_when_no_candidate_passes", a.TWO_SUM, tests=[a.TESTS], code=[a.BACKWARDS_CODE] * 3 + [a.GOOD_CODE] * 3,
             oracle=[a.BRUTE_FORCE]),
    scenario("invalid_oracle_disputed", a.TWO_SUM, tests=[a.TESTS_WITH_A_WRONG_ONE], code=[a.GOOD_CODE] * 6,
             oracle=[a.BACKWARDS_CODE] * 2),
    # two candidates and the oracle against two outputs on each input: settled (one against one would not be)
    scenario("settled_test_kept_from_revise", a.TWO_SUM, NO_VARIANTS + ["--samples", "4"], tests=[a.TESTS],
             code=[WRONG_ON_PAIRS, WRONG_ON_TRIPLES, ZERO_ON_PAIRS, ZERO_ON_TRIPLES], oracle=[a.BRUTE_FORCE],
             revise=[MAKE_TESTS_FIT] * 3),
    scenario("dispute_draw_then_unconfirmed", a.TWO_SUM, NO_ORACLE + NO_VARIANTS, tests=[GUESS_NOBODY_RETURNS],
             code=[a.GOOD_CODE, WRONG_ON_PAIRS, ZERO_ON_PAIRS, AGAIN[1], AGAIN[2], a.written_apart(WRONG_ON_PAIRS, 1)]),
    scenario("no_room_for_a_dispute_draw", a.TWO_SUM, NO_ORACLE + NO_VARIANTS + ["--max-calls", "5"],
             tests=[GUESS_NOBODY_RETURNS], code=[a.GOOD_CODE, WRONG_ON_PAIRS, ZERO_ON_PAIRS]),
    # every candidate of both draws fails the example, so no program votes; the revision solves, the draw for
    # the disputed inputs adds no voter either, and the guesses decide
    scenario("solution_guess_claim", a.TWO_SUM, NO_ORACLE + NO_VARIANTS, tests=[a.TESTS],
             code=BACKWARDS_DRAWS, revise=[a.REVISE_CODE] * 3),
    scenario("solution_differs_from_guess", a.TWO_SUM, NO_ORACLE + NO_VARIANTS, tests=[a.TESTS_WITH_A_WRONG_ONE],
             code=BACKWARDS_DRAWS, revise=[a.REVISE_CODE] * 3),
    scenario("raising_on_a_disputed_input_counts", a.TWO_SUM, NO_ORACLE + NO_VARIANTS, tests=[GUESS_NOBODY_RETURNS],
             code=[a.GOOD_CODE, WRONG_ON_PAIRS, RAISES_ON_PAIRS, AGAIN[1], a.written_apart(WRONG_ON_PAIRS, 1),
                   a.written_apart(RAISES_ON_PAIRS, 1)]),
    # one wrong program written twice, a variable renamed: one voter, so it no longer outvotes the guess
    scenario("one_program_written_twice", a.TWO_SUM, NO_ORACLE + NO_VARIANTS, tests=[a.TESTS],
             code=[WRONG_ON_PAIRS, WRONG_ON_PAIRS.replace("seen", "index_of"), RETURNS_NOTHING,
                   WRONG_ON_PAIRS.replace("seen", "s"), RETURNS_NOTHING, RETURNS_NOTHING]),
    scenario("outside_constraints_dropped", CONSTRAINED, tests=[TOO_SHORT], code=[a.GOOD_CODE] * 3, oracle=[a.BRUTE_FORCE]),
    scenario("every_program_raises_dropped", a.TWO_SUM, tests=[LONG_INPUT], code=[STRICT] * 3, oracle=[STRICT_BRUTE]),
    scenario("variants_disputed", a.THREE_PRIMES, tests=[PRIME_TESTS], code=[a.code_answer(a.DISTINCT_FACTORS)] * 6,
             oracle=[a.code_answer(a.WITH_REPEATS)]),
    scenario("variants_settled", a.THREE_PRIMES, tests=[PRIME_TESTS], code=[a.code_answer(a.WITH_REPEATS)] * 3,
             oracle=[a.code_answer(a.WITH_REPEATS_APART)]),
    scenario("anchor_rejects_a_breaking_fix", a.TWO_SUM, MODEL_TESTS,
             script=[a.TESTS, a.BUGGY_CODE, a.REVISE_BREAKS_AN_ANCHOR, a.REVISE_CODE]),
    scenario("no_anchors_latest", a.TWO_SUM, MODEL_TESTS + ["--search", "latest"],
             script=[a.TESTS, a.BUGGY_CODE, a.REVISE_USELESS, a.REVISE_CODE]),
    scenario("trusted_edits_refused_unsolved", TWO_EXAMPLES, MODEL_TESTS + ["--max-iterations", "3"],
             script=[a.TESTS, a.BACKWARDS_CODE, a.REVISE_EVERY_TEST_TO_MATCH, a.REVISE_EVERY_TEST_TO_MATCH]),
    scenario("exhausted_best_kept", a.TWO_SUM, MODEL_TESTS + ["--max-iterations", "3", "--search", "latest"],
             script=[a.TESTS, a.BUGGY_CODE, a.REVISE_USELESS, a.REVISE_USELESS]),
    scenario("call_budget_spent", a.TWO_SUM, MODEL_TESTS + ["--max-calls", "2"],
             script=[a.TESTS, a.BUGGY_CODE, a.REVISE_CODE]),
    scenario("model_failed", a.TWO_SUM, MODEL_TESTS, script=[a.GARBAGE] * 3),
    scenario("import_check_fails", a.TWO_SUM, MODEL_TESTS, script=[a.TESTS, a.NUMPY_CODE, a.REVISE_CODE]),
    scenario("users_tests_trusted", a.TWO_SUM, NO_VARIANTS, tests=[a.TESTS], code=[a.GOOD_CODE] * 3,
             oracle=[a.BRUTE_FORCE], user_tests=USER_TESTS),
    scenario("model_expected_values", a.TWO_SUM, MODEL_TESTS, script=[a.TESTS_WITH_A_WRONG_ONE, a.GOOD_CODE, a.REVISE_TEST]),
    scenario("reflections", a.TWO_SUM, MODEL_TESTS + ["--reflect", "--reflect-failures"],
             script=[a.REFLECTION, a.TESTS, a.BUGGY_CODE, a.FAILURE_ANALYSIS, a.REVISE_CODE]),
    scenario("several_answers_checker", several.FIND_PEAK, tests=[several.TESTS],
             code=[code_answer(several.RIGHT[name]) for name in ("first", "second", "last")],
             oracle=[code_answer(several.HIGHEST)], checker=[several.CHECKER], validator=[several.VALIDATOR]),
    scenario("several_answers_no_checker", several.FIND_PEAK, tests=[several.TESTS],
             code=[code_answer(several.RIGHT[name]) for name in ("first", "second", "last")] * 2,
             oracle=[code_answer(several.HIGHEST)], checker=[a.GARBAGE] * 6, validator=[several.VALIDATOR]),
    scenario("two_sum_pasted_one_wrong_program", pasted.TWO_SUM_PASTED, tests=[pasted.APART],
             code=[pasted.ADJACENT_ONLY, *[pasted.ZEROS.replace("[0, 0]", f"[0, 0 * {k}]") for k in range(5)]],
             oracle=[pasted.ZEROS.replace("[0, 0]", f"[{k}, {k}]") for k in range(2)], validator=[ONE_PAIR], checker=[pasted.PAIR_LISTER]),
    scenario("sum_of_evens_uct", a.SUM_OF_EVENS + " Example: Input: nums = [1, 2, 3, 4] Output: 6",
             tests=[a.SUM_OF_EVENS_TESTS], code=[a.SUM_OF_EVENS_CODE] * 3, oracle=[a.SUM_OF_EVENS_ORACLE]),
]

# What varies from run to run without meaning anything: times, token speeds, ports, folders
MASKS = [(re.compile(r"\d+(?:\.\d+)?(?= ?(?:s|ms|tok/s)\b)"), "N"), (re.compile(r"127\.0\.0\.1:\d+"), "127.0.0.1:PORT"),
         (re.compile(r"\d{8}-\d{6}"), "TIME")]


def mask(text, out):
    text = text.replace(str(out), "<OUT>")
    for pattern, replacement in MASKS:
        text = pattern.sub(replacement, text)
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("writing:"))


def checkout(side, rev, scratch):
    """A folder holding `rev`: the working tree for ".", else a detached worktree in `scratch`."""
    if rev == ".":
        return ROOT
    folder = Path(scratch) / f"{side}-{rev}"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-f", str(folder), rev],
                   check=True, capture_output=True)
    return folder


def run_scenario(source, case, out):
    """Run one scenario at `source`; what a user and the record show, masked."""
    with StubOpenAIServer(case["script"]) as stub:
        for kind, steps in case["routes"].items():
            if steps:
                stub.route(kind, *steps)
        flags = list(case["flags"])
        if case["user_tests"]:
            tests_file = out.parent / f"{case['name']}-tests.yaml"
            tests_file.write_text(case["user_tests"])
            flags += ["--tests", str(tests_file)]
        env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "CODELOOP_"))}
        done = subprocess.run([sys.executable, "main.py", case["problem"], "--base-url", stub.base_url, "--model", "stub",
                               "--parallel", "1", "--out", str(out), *flags], cwd=source, env=env,
                              capture_output=True, text=True, timeout=300)
        asked = len(stub.requests)
    seen = {"exit_code": done.returncode, "model_requests": asked, "stdout": mask(done.stdout, out),
            "stderr": mask(done.stderr, out)}
    for name in ("solution.py", "test_solution.py"):
        path = out / name
        seen[name] = path.read_text() if path.exists() else None
    seen["run.json"] = verdict_of(out / "run.json")
    return seen


def verdict_of(path):
    """run.json's verdict: what was decided, not when or how fast."""
    if not path.exists():
        return None
    record = json.loads(path.read_text())
    final = record.get("final") or {}
    attempts = [{k: v for k, v in attempt.items() if k in ("id", "parent", "source", "round", "status", "passed",
                                                          "total", "trusted_passed", "trusted_total", "reward",
                                                          "visits", "value", "broke", "notes")}
                for attempt in final.get("attempts") or []]
    return {"status": record.get("status"), "message": record.get("message"), "attempt": final.get("attempt"),
            "exit_code": final.get("exit_code"), "iterations": final.get("iterations"),
            "tests_passed": final.get("tests_passed"), "tests_total": final.get("tests_total"),
            "function_code": final.get("function_code"), "test_cases": final.get("test_cases"),
            "passed": [r.get("passed") for r in final.get("test_results") or []],
            "counted": [r.get("counted") for r in final.get("test_results") or []], "attempts": attempts,
            "events": [event["kind"] for event in record.get("events", []) if event["kind"] != "node_started"]}


def differences(old, new):
    """Lines saying where two scenario outcomes differ."""
    lines = []
    for key in old:
        if old[key] == new.get(key):
            continue
        before = json.dumps(old[key], indent=1, sort_keys=True) if not isinstance(old[key], str) else old[key]
        after = json.dumps(new.get(key), indent=1, sort_keys=True) if not isinstance(new.get(key), str) else new.get(key)
        diff = difflib.unified_diff(str(before).splitlines(), str(after).splitlines(), f"old {key}", f"new {key}", lineterm="", n=1)
        lines += [f"    {line}" for line in diff]
    return lines


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench.behaviour_diff", description=__doc__.splitlines()[0])
    parser.add_argument("old", help="the commit to compare against")
    parser.add_argument("new", nargs="?", default=".", help="the commit to compare (default: the working tree)")
    parser.add_argument("--only", metavar="NAME,NAME", help="only these scenarios")
    parser.add_argument("--keep", metavar="DIR", help="keep each side's outcomes (JSON) and runs in DIR")
    args = parser.parse_args(argv)
    chosen = [case for case in SCENARIOS if not args.only or case["name"] in args.only.split(",")]
    scratch = tempfile.mkdtemp(prefix="codeloop-behaviour-")
    keep = Path(args.keep) if args.keep else Path(scratch)
    sources = {}
    try:
        sources = {side: checkout(side, rev, scratch) for side, rev in (("old", args.old), ("new", args.new))}
        differing = 0
        for case in chosen:
            seen = {}
            for side, source in sources.items():
                out = keep / side / case["name"]
                shutil.rmtree(out, ignore_errors=True)
                out.parent.mkdir(parents=True, exist_ok=True)
                seen[side] = run_scenario(source, case, out)
                (keep / side / f"{case['name']}.json").write_text(json.dumps(seen[side], indent=1))
            lines = differences(seen["old"], seen["new"])
            differing += bool(lines)
            outcome = seen["new"]["run.json"] or {}
            print(f"{case['name']:<36} {'DIFFERS' if lines else 'same':<8} exit {seen['new']['exit_code']}, "
                  f"{outcome.get('status')}, {seen['new']['model_requests']} requests", flush=True)
            print("\n".join(lines), flush=True) if lines else None
        print(f"{len(chosen) - differing} of {len(chosen)} scenarios the same at {args.old} and {args.new}")
        return 1 if differing else 0
    finally:
        for rev, source in zip((args.old, args.new), sources.values()):
            if source != ROOT:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(source)], capture_output=True)
        if not args.keep:
            shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
