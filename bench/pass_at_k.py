"""python -m bench.pass_at_k: how often one fresh sample solves a problem, by temperature and answer format.

For each problem, `--samples` candidates are asked exactly as ImplementFunction asks one (the statement's
examples shown, one request, no retry), at each temperature of `--temperatures` and in each `--formats`
(python: one fenced code block, as the flow asks candidates; yaml: {reasoning, function_code}, as it
asked them until 60da0dd; plan: the python block opening with the plan as comments; terse: the python
block with no comments or docstrings; plain: the python request under a short system message that says nothing of
YAML or tests, the statement after it; stub: the python request with the function to complete, the statement its
docstring, where docstring_stub gives one; bare: the python request with no tests listed, as single-shot asks;
worked: the python block after the first example worked by hand), each with its own
sampling seed. Each sample is judged on the statement's examples and on the hidden tests in the sandbox.
Prints per (format, temperature): pass@1 and pass@k on the hidden tests (the unbiased estimator of Chen
et al. 2021 over n samples), how often a sample that passes the examples passes the hidden tests, tokens
and seconds per sample; writes every sample to --out/samples.jsonl (a rerun skips what is there, and a
finished folder is summarized without a model); `--plot FILE.svg` draws the pass@k curves. With `--follow-ups KINDS`,
each python sample that returns a wrong value on an example is followed by more at its temperature: `hinted` (told
the example and what the earlier program returned there), `again` (the same request, not told), `repair` (shown its
code and every example it gets wrong or raises on, up to 3, with what it printed, asked to fix it): whether a draw
that hears of a failure does better than one that does not (issue 28), and whether fixing a near miss does better
than a fresh draw at equal model time (issues 76 and 89). `--nearest N` follows up only each problem's N nearest
misses (most examples passed, then earliest), every kind on the same samples; `--follow-up-samples K` asks each
kind K times a sample, each with its own seed. `--oracles-from BENCH_DIR` takes the brute-force oracles of a bench
folder's runs that fail a statement example and follows each up with `oracle-repair` (shown its failing examples,
asked to fix it and keep it a brute force) and `oracle-again` (a fresh oracle request). Every follow-up line keeps its
model seconds and tokens; the summary gives, per kind and difficulty, right programs per model-minute, beside the
first draws'. `--dry-run` prints what is still to ask, and the summary, without a model.

    python -m bench.pass_at_k --dataset leetcode --seed 2 --limit 12 --out bench-results/passk-lc2
"""
import argparse
import json
import math
import re
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

import app
from bench.datasets import load, select
from bench.harness import FINAL_STATUSES
from bench.hidden_tests import contract_of, judge_hidden
from bench.report import line_chart
from core.compare import outputs_match
from core.feedback import compact
from core.problem_kind import detect
from core.prompts import (CODE_ANSWER, PYTHON_BLOCK, conversation, implement_request, implement_yaml_request,
                          oracle_request, problem_context)
from core.statement_examples import LEETCODE, MARKUP, SIGNATURE, _signature, statement_examples
from utils.call_llm import ModelBackendError, call_llm
from utils.runaway import watch_code
from utils.sandbox import Limits, best_isolation, run_batch
from utils.yaml_answer import AnswerError, parse_code_answer


def implement_plan_request(test_cases):
    """The python block, asked to open with its plan as comments: a small model thinks in the code's
    comments instead of a YAML reasoning key (measured here before anything in the flow asks it)."""
    return implement_request(test_cases).replace(
        "in one ```python block,", "in one ```python block that opens with the plan in two or three comment lines,")


def implement_terse_request(test_cases):
    """The python block with no comments or docstrings: a seventh of the candidates' characters were
    comments (LeetCode seeds 1 and 4, HumanEval seed 1, the many-answers set: 32,791 of 230,385), and
    every token costs about 0.09 s on 2 cores. Measured here before anything in the flow asks it."""
    return implement_request(test_cases).replace("in one ```python block,", "in one ```python block with no comments or docstrings,")


def docstring_stub(problem):
    """The function the problem asks for, with the statement before its `def` line as the docstring, when the
    statement is written as a docstring (no LeetCode Input:/Output: blocks); else "". The embedded model copies
    the docstring and writes the body under it: pass@1 0.73 against 0.59 on HumanEval seed 2, 0.69 against 0.66
    on seed 3, at 2.2 times the answer tokens; live on HumanEval seed 1 it solved as many (17 and 18 of 24 at
    sampling seeds 6 and 1) in 1.7-1.8 times the time, so the flow does not ask it (docs/journal/2026-12.md, 2026-12-02)."""
    text = problem or ""  # markup kept: its fences are the code given with the problem, left out below
    plain = MARKUP.sub("", text)
    signature = _signature(plain)
    if signature is None or LEETCODE.search(plain):
        return ""
    match = next(m for m in SIGNATURE.finditer(text) if m.group(1) == signature[0])
    line_start = text.rfind("\n", 0, match.start()) + 1
    prose = re.sub(r"```.*?```", "", text[:line_start], flags=re.DOTALL).strip().replace('"""', "'''")
    if not prose:  # the statement is the function already
        return ""
    line_end = text.find("\n", match.end())
    first = text[match.start():None if line_end < 0 else line_end].strip().rstrip(":") + ":"
    body = "\n".join(f"    {line}" if line.strip() else "" for line in prose.splitlines())
    return f'```python\n{first}\n    """\n{body}\n    """\n```'


def implement_stub_request(test_cases, statement):
    """The candidate's request with the function to complete after its tests (the wording measured live)."""
    stub = docstring_stub(statement)
    complete = f"\n\nComplete this function and name it run_code (or set run_code to it):\n{stub}" if stub else ""
    return implement_request(test_cases).replace(f"\n\n{CODE_ANSWER}", f"{complete}\n\n{CODE_ANSWER}")


def implement_bare_request(test_cases):
    """The request with no tests listed, as the single-shot strategy asks it (its first draw has no tests yet): the
    statement shows the examples already; does listing them again change what a greedy answer is?"""
    return implement_request([])


def implement_worked_request(test_cases):
    """The python block after the statement's first example worked by hand: a small model that misreads a new
    problem may see its misreading while it works the example (issue 76's candidate, measured here first)."""
    return implement_request(test_cases).replace(
        f"\n\n{CODE_ANSWER}", "\n\nFirst work the first example by hand, following the statement's rules exactly: "
        "its input, each step, its output, in a few short lines. Then write the complete Python code of run_code in "
        f"{PYTHON_BLOCK}, and nothing after the block.")


FOLLOW_UPS = ("hinted", "again", "repair")
ORACLE = "oracle"  # a line of a bench run's oracle that fails an example (--oracles-from): no new sample, followed up
ORACLE_FOLLOW_UPS = ("oracle-repair", "oracle-again")
REQUESTS = {"yaml": implement_yaml_request, "python": implement_request, "plan": implement_plan_request,
            "bare": implement_bare_request, "worked": implement_worked_request,
            "terse": implement_terse_request, "plain": implement_request, "stub": implement_stub_request}  # stub: also the statement
# the flow's system message tells every call to answer in YAML and explains test cases, and a candidate's request
# then asks for a python block instead: does a small model write better code without that preamble?
PLAIN_SYSTEM = ("You are an expert Python programmer. Write the solution as one Python function named run_code with "
                "the parameters of the problem's function signature; it returns the answer. Use only the Python "
                "standard library.\n\nThe problem:\n")
CODE_TOKENS = 900  # as ImplementFunction asks
WORKED_TOKENS = 1400  # the example's working comes first
SHOWN_FAILURES = 3  # failing examples a repair is shown: the statements have two or three
PRINTED_CHARS = 300  # of what a failing example printed, kept in the line and shown to a repair


def examples_of(problem):
    """The statement's examples as the flow reads them, in the layout of the problem's family (a design's
    operations, an in-place answer): the trusted tests a sample is judged on."""
    contract = None if problem.family in ("", "plain") else detect(problem.statement, kind=problem.family)
    return statement_examples(problem.statement, contract)


def sample(problem, fmt, temperature, k, model, isolation):
    """One fresh candidate, judged: a line of samples.jsonl."""
    examples = examples_of(problem)
    config = replace(model, temperature=temperature, max_tokens=WORKED_TOKENS if fmt == "worked" else CODE_TOKENS,
                     seed=1000 * k + round(100 * temperature))
    line = {"id": problem.id, "format": fmt, "temperature": temperature, "k": k}
    request = REQUESTS[fmt](examples, problem.statement) if fmt == "stub" else REQUESTS[fmt](examples)
    return asked(problem, examples, request, config, line, isolation)


def asked(problem, examples, request, config, line, isolation):
    """The line of one request asked as ImplementFunction asks it (one call, no retry), with its answer judged;
    `seconds` is the model call's alone (the sandbox's judging after it is not model time)."""
    messages = conversation(problem_context(problem.statement), request)
    if line["format"] == "plain":
        messages[0]["content"] = PLAIN_SYSTEM + problem_context(problem.statement) + "\n"
    started = time.monotonic()
    try:
        reply = call_llm(messages, config, watch=watch_code())
        code = parse_code_answer(reply.text)["function_code"] if reply.finish_reason == "stop" else None
        line.update(tokens=reply.prompt_tokens + reply.completion_tokens, completion_tokens=reply.completion_tokens,
                    finish=reply.finish_reason)
    except (ModelBackendError, AnswerError) as exc:
        code = None
        line.update(error=str(exc)[:200])
    line["seconds"] = round(time.monotonic() - started, 2)
    line["code"] = code  # a repair follow-up shows it
    return judged(problem, examples, code, isolation, line)


def judged(problem, examples, code, isolation, line):
    """The sample's line with how it did on the statement's examples (every example it failed, with what it
    returned or raised and printed there: what a repair is shown; the first wrong value and the first raise as
    before, a hinted follow-up's hint) and on the hidden tests."""
    results = run_on_examples(problem, examples, code, isolation)
    right = [r["ok"] and outputs_match(r["value"], case.expected) for r, case in zip(results, examples)]
    line.update(examples_passed=sum(right), examples=len(examples))  # how near a failing sample came (an early stop's question)
    failures = failures_of(examples, results)
    if failures:
        line["failures"] = failures
    wrong = [failure for failure in failures if "returned" in failure]
    if wrong:
        line["failed"] = {"name": wrong[0]["name"], "returned": wrong[0]["returned"]}
    raised = [failure for failure in failures if "error" in failure]
    if raised:
        line["raised"] = {"name": raised[0]["name"], "error": raised[0]["error"]}
    line["examples_pass"] = bool(code) and sum(right) == len(examples)
    line["hidden_pass"] = bool(code) and judge_hidden(problem, code, isolation)["passed"]
    return line


def run_on_examples(problem, examples, code, isolation):
    """The sandbox's results of the code on the statement's examples, called as the problem's family calls it."""
    if not (code and examples):
        return []
    return run_batch(code, [case.input for case in examples], Limits(), isolation, contract=contract_of(problem))


def failures_of(examples, results):
    """Every example the results fail: its name, what the code returned (or the error it raised) and, when it
    printed something, the start of that (a program's own debugging prints often say where it went wrong)."""
    failures = []
    for case, result in zip(examples, results):
        if result["ok"] and outputs_match(result["value"], case.expected):
            continue
        failure = {"name": case.name}
        if result["ok"]:
            failure["returned"] = result["value"]
        else:
            failure["error"] = f"{result['error_type']}: {(result['message'] or '')[:200]}"
        printed = (result.get("output") or "").strip()
        if printed:
            failure["printed"] = printed[:PRINTED_CHARS]
        failures.append(failure)
    return failures


def failures_shown(problem, examples, first, isolation):
    """The examples a near miss fails, as its line keeps them; a line written before it kept them all (only the
    first wrong value and the first raise) has its code run on the examples again, so an old record can be
    followed up without drawing its samples again."""
    if "failures" in first:
        return first["failures"]
    return failures_of(examples, run_on_examples(problem, examples, first["code"], isolation))


def wrong_on(program, failures, examples):
    """`program is wrong on ...:` and a line per failing example shown: the call, what it returned or raised,
    the right answer, and what it printed."""
    cases = {case.name: case for case in examples}
    shown = [failure for failure in failures if failure["name"] in cases][:SHOWN_FAILURES]
    more = f" (the first {len(shown)} here)" if len(shown) < len(failures) else ""
    lines = [f"{program} is wrong on {len(failures)} of the problem's {len(examples)} examples{more}:"]
    for failure in shown:
        case = cases[failure["name"]]
        did = f"raised {failure['error']}" if "error" in failure else f"returned {compact(failure['returned'], 300)}"
        printed = f" It printed: {compact(failure['printed'], PRINTED_CHARS)}" if failure.get("printed") else ""
        lines.append(f"- {case.name}: run_code(**{compact(case.input, 300)}) {did}, but the right answer is "
                     f"{compact(case.expected, 300)}.{printed}")
    return "\n".join(lines)


def repair_request(code, failures, examples):
    """A program shown back with every example it gets wrong (up to SHOWN_FAILURES), asked to be fixed in a python
    block: Revise's idea without its YAML, for the first draws' near misses."""
    return (f"{wrong_on('This run_code', failures, examples)}\n```python\n{code.rstrip()}\n```\n\nRead the problem "
            f"statement again, find the mistake and fix it.\n\n{CODE_ANSWER}")


def oracle_repair_request(code, failures, examples):
    """The oracle's repair: its failing examples shown, and what it was asked to be (oracle_request's words), so that
    the fix stays a brute force, whose value is being obviously right, not fast."""
    asked_for = oracle_request([]).split("\n\n")[0].replace("\n", " ")
    return (f"{wrong_on('This brute-force run_code', failures, examples)}\n```python\n{code.rstrip()}\n```\n\n"
            f"Read the problem statement again, find the mistake and fix it. It must stay what it was asked to be: "
            f"{asked_for}\n\n{CODE_ANSWER}")


def follows_up(line, kind):
    """Whether a sample gets this follow-up when every miss is followed up (no --nearest): a python sample with a
    wrong value on an example (a repair: or one that raised on one, its code shown); an oracle line, the oracle
    kinds."""
    if line["format"] == ORACLE:
        return kind in ORACLE_FOLLOW_UPS and is_miss(line)
    if line["format"] != "python" or kind in ORACLE_FOLLOW_UPS or not line.get("code") and kind == "repair":
        return False
    return bool(line.get("failed") or kind == "repair" and line.get("raised"))


def is_miss(line):
    """A program that fails at least one of the statement's examples."""
    return bool(line.get("code")) and line.get("examples", 0) > line.get("examples_passed", 0)


def nearest_misses(lines, nearest):
    """Each problem's `nearest` nearest misses (python samples and oracle lines apart, per temperature): the most
    examples passed first, then the earliest; the ones a repair has the best chance with."""
    groups = {}
    for line in lines:
        if line["format"] in ("python", ORACLE) and is_miss(line):
            groups.setdefault((line["id"], line["format"], line["temperature"]), []).append(line)
    return [line for group in groups.values() for line in sorted(group, key=lambda r: (-r["examples_passed"], r["k"]))[:nearest]]


def follow_ups_owed(lines, kinds, nearest, per_sample):
    """(first line, kind, j) of every follow-up not yet in `lines`: the misses chosen (every one, or each problem's
    nearest), each kind that applies `per_sample` times. Under --nearest every kind follows the same samples (a
    hinted one only where an example returned a wrong value), so repair and again get as many requests."""
    asked_already = {(line["id"], line["temperature"], line["k"], line["format"], line.get("follow_up", 0))
                     for line in lines}
    firsts = [line for line in lines if line["format"] in REQUESTS or line["format"] == ORACLE]
    if nearest is None:
        pairs = [(line, kind) for line in firsts for kind in kinds if follows_up(line, kind)]
    else:
        pairs = [(line, kind) for line in nearest_misses(firsts, nearest) for kind in kinds
                 if (kind in ORACLE_FOLLOW_UPS) == (line["format"] == ORACLE) and (kind != "hinted" or line.get("failed"))]
    return [(line, kind, j) for line, kind in pairs for j in range(per_sample)
            if (line["id"], line["temperature"], line["k"], kind, j) not in asked_already]


def follow_up_seed(k, temperature, j):
    """The j-th follow-up's seed of sample k: the same for every kind (the request is the only difference), never
    a first sample's (those are multiples of 1000 plus 100 times the temperature)."""
    return 1000 * k + round(100 * temperature) + 7 + 10 * j


def follow_up(problem, first, kind, j, model, isolation):
    """The j-th follow-up of one kind to a sample (or an oracle line) that failed an example, at its temperature:
    `hinted` (told which example an earlier program got wrong and what it returned, not shown its code, which a
    small model copies), `again` (the same request, no hint), `repair` (shown the code and the examples it gets
    wrong, asked to fix it), `oracle-again` (the oracle's request afresh) or `oracle-repair` (the oracle shown its
    failures)."""
    examples = examples_of(problem)
    request = follow_up_request(problem, first, kind, examples, isolation)
    temperature, k = first["temperature"], first["k"]
    config = replace(model, temperature=temperature, max_tokens=CODE_TOKENS, seed=follow_up_seed(k, temperature, j))
    line = {"id": problem.id, "format": kind, "temperature": temperature, "k": k, "follow_up": j}
    return asked(problem, examples, request, config, line, isolation)


def follow_up_request(problem, first, kind, examples, isolation):
    if kind == "oracle-again":
        return oracle_request(examples)
    if kind in ("repair", "oracle-repair"):
        write = repair_request if kind == "repair" else oracle_repair_request
        return write(first["code"], failures_shown(problem, examples, first, isolation), examples)
    request = implement_request(examples)
    if kind == "hinted":
        case = next(case for case in examples if case.name == first["failed"]["name"])
        request = request.replace("\n\nThis time reply", f"\n\nAn earlier program for this problem returned "
                                  f"{compact(first['failed']['returned'], 300)} on {case.name}, where "
                                  f"{compact(case.expected, 300)} is right: do not repeat its mistake.\n\nThis time reply")
    return request


def oracle_lines(bench_dir, problems, lines, temperature, isolation):
    """New lines for the oracles of a bench folder's runs (run.json's final attempts of source "oracle") that fail
    a statement example in the run, one per program a problem: its code judged like a sample's, and the model
    seconds and tokens of the run's oracle requests, at `temperature` (its follow-ups'). Lines already there are
    not made again."""
    have = {(line["id"], line.get("run"), line.get("attempt")) for line in lines if line["format"] == ORACLE}
    made = []
    for problem in problems:
        for run_dir, record in runs_of(bench_dir, problem.id):
            codes = {line["code"] for line in lines + made if line["id"] == problem.id and line["format"] == ORACLE}
            for attempt in failing_oracles(record):
                if (problem.id, run_dir, attempt["id"]) in have or attempt["code"] in codes:
                    continue
                k = sum(line["id"] == problem.id and line["format"] == ORACLE for line in lines + made)
                line = {"id": problem.id, "format": ORACLE, "temperature": temperature, "k": k, "run": run_dir,
                        "attempt": attempt["id"], **oracle_cost(record), "code": attempt["code"]}
                made.append(judged(problem, examples_of(problem), attempt["code"], isolation, line))
                codes.add(attempt["code"])
    return made


def runs_of(bench_dir, problem_id):
    """(run folder, run.json) of each finished run of the problem in a bench folder (results.jsonl), found where
    the line says or, for a record unpacked elsewhere, at the same place under `bench_dir`."""
    path = Path(bench_dir) / "results.jsonl"
    found = []
    for text in path.read_text(encoding="utf-8").splitlines() if path.exists() else []:
        try:
            line = json.loads(text)
        except ValueError:  # a torn last line: a run still being written
            continue
        if line.get("id") != problem_id or line.get("status") not in FINAL_STATUSES or not line.get("run_dir"):
            continue
        for folder in (Path(line["run_dir"]), Path(bench_dir, *Path(line["run_dir"]).parts[-4:])):
            if (folder / "run.json").is_file():
                found.append((str(folder), json.loads((folder / "run.json").read_text(encoding="utf-8"))))
                break
    return found


def failing_oracles(record):
    """The run's oracle attempts that fail one of its trusted tests (the statement's examples)."""
    attempts = (record.get("final") or {}).get("attempts") or []
    return [a for a in attempts if a.get("source") == ORACLE and a.get("code")
            and (a.get("trusted_passed") or 0) < (a.get("trusted_total") or 0)]


def oracle_cost(record):
    """The model seconds and tokens of the run's oracle requests (an unusable answer asked again included): what
    the oracle cost the run, against what its follow-ups cost."""
    calls = [call for call in record.get("model_calls") or [] if ORACLE_OPENING in str(call.get("messages"))]
    prompt = sum(call.get("prompt_tokens") or 0 for call in calls)
    completion = sum(call.get("completion_tokens") or 0 for call in calls)
    return {"seconds": round(sum(call.get("latency_ms") or 0 for call in calls) / 1000, 2),
            "tokens": prompt + completion, "completion_tokens": completion}


ORACLE_OPENING = oracle_request([]).split(" that ")[0]  # "Write the simplest program": only the oracle's request says it


def follow_up_kinds(parser, given):
    kinds = [kind.strip() for kind in given.split(",") if kind.strip()]
    if set(kinds) - set(FOLLOW_UPS):
        parser.error(f"--follow-ups: choose from {', '.join(FOLLOW_UPS)}")
    return kinds


def pass_at_k(n, c, k):
    """The chance that at least one of k samples drawn from n, c of them right, is right."""
    if n - c < k:
        return 1.0
    return 1.0 - math.prod((n - c - i) / (n - i) for i in range(k))


def groups_of(lines):
    """{(format, temperature): {problem id: [its samples]}}."""
    groups = {}
    for line in lines:
        groups.setdefault((line["format"], line["temperature"]), {}).setdefault(line["id"], []).append(line)
    return dict(sorted(groups.items()))


def curve(problems, samples):
    """pass@1 .. pass@samples on the hidden tests, averaged over the problems (up to the fewest samples
    a problem has: pass@k of n < k samples is not known)."""
    top = min([samples] + [len(runs) for runs in problems.values()])
    return [statistics.mean(pass_at_k(len(runs), sum(r["hidden_pass"] for r in runs), k) for runs in problems.values())
            for k in range(1, top + 1)]


def summary(lines, samples):
    print(f"{'format':<7} {'T':>4} {'problems':>8} " + " ".join(f"pass@{k:<3}" for k in range(1, samples + 1))
          + "  examples->hidden  tok/sample  answer tok  s/sample")
    for (fmt, temperature), problems in groups_of(lines).items():
        flat = [r for runs in problems.values() for r in runs]
        passing = [r for r in flat if r["examples_pass"]]
        held = f"{sum(r['hidden_pass'] for r in passing)}/{len(passing)}"
        print(f"{fmt:<7} {temperature:>4} {len(problems):>8} " + " ".join(f"{rate:<8.2f}" for rate in curve(problems, samples)).ljust(9 * samples - 1)
              + f"  {held:>16}  {statistics.mean(r.get('tokens', 0) for r in flat):>10.0f}"
              f"  {statistics.mean(r.get('completion_tokens', 0) for r in flat):>10.0f}"
              f"  {statistics.mean(r['seconds'] for r in flat):>8.1f}")


def kind_of(line):
    """A line's row in the follow-up table: a first draw's format (the baseline), the runs' oracles, or a follow-up."""
    if line["format"] in REQUESTS:
        return f"{line['format']} (first draws)"
    return "oracle (runs' misses)" if line["format"] == ORACLE else line["format"]


def follow_up_rows(lines, difficulty_of):
    """Per kind (first draws first, then the follow-ups) and difficulty ("all" last): how many were asked, passed
    the examples, were right (the hidden tests), on how many problems, in how many model seconds, and right
    programs per model-minute: what a repair and a fresh draw buy for the same model time."""
    order = {kind: k for k, kind in enumerate(FOLLOW_UPS + ("oracle (runs' misses)",) + ORACLE_FOLLOW_UPS)}
    difficulties = sorted({difficulty_of(line) for line in lines}, key=lambda d: ({"easy": 0, "medium": 1, "hard": 2}.get(d, 3), d))
    groups = {}
    for line in lines:
        for difficulty in ([difficulty_of(line)] if len(difficulties) > 1 else []) + ["all"]:
            groups.setdefault((kind_of(line), difficulty), []).append(line)
    rank = {d: k for k, d in enumerate(difficulties + ["all"])}
    rows = []
    for (kind, difficulty), group in sorted(groups.items(), key=lambda item: (order.get(item[0][0], -1), item[0][0], rank[item[0][1]])):
        seconds = sum(line.get("seconds") or 0 for line in group)
        right = sum(line["hidden_pass"] for line in group)
        rows.append({"kind": kind, "difficulty": difficulty, "asked": len(group),
                     "examples": sum(line["examples_pass"] for line in group), "right": right,
                     "problems": len({line["id"] for line in group if line["hidden_pass"]}),
                     "seconds": seconds, "per_minute": 60 * right / seconds if seconds else None})
    return rows


def follow_up_summary(lines, difficulty_of):
    """The follow-up table, printed: one row per kind and difficulty."""
    print(f"{'kind':<22} {'difficulty':<10} {'asked':>6} {'examples':>8} {'right':>6} {'problems':>8} "
          f"{'model s':>9} {'right/model-min':>15}")
    for row in follow_up_rows(lines, difficulty_of):
        rate = "-" if row["per_minute"] is None else f"{row['per_minute']:.3f}"
        print(f"{row['kind']:<22} {row['difficulty']:<10} {row['asked']:>6} {row['examples']:>8} {row['right']:>6} "
              f"{row['problems']:>8} {row['seconds']:>9.0f} {rate:>15}")
    print("(examples: pass the statement's examples; right: pass the hidden tests; problems: with a right one; model s: "
          "the requests' seconds in all)")


def plot(lines, samples, title):
    """The pass@k curves as an SVG line chart, one line per (format, temperature)."""
    series = {f"{fmt} T={temperature:g}": curve(problems, samples) for (fmt, temperature), problems in groups_of(lines).items()}
    return line_chart(title, "k (fresh samples)", "pass@k, hidden tests", series)


def parse_args(argv):
    parser = argparse.ArgumentParser(prog="python -m bench.pass_at_k", description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", required=True)
    parser.add_argument("--seed", type=int)
    parser.add_argument("--limit", type=int)
    parser.add_argument("--ids", metavar="ID,ID", help="only these problem ids (before --seed and --limit)")
    parser.add_argument("--temperatures", default="0.2,0.7,1.0")
    parser.add_argument("--formats", default="yaml,python")
    parser.add_argument("--samples", type=int, default=5)
    parser.add_argument("--out", required=True)
    parser.add_argument("--plot", metavar="SVG", help="also draw the pass@k curves into this SVG file")
    parser.add_argument("--follow-ups", nargs="?", const="hinted,again", default="", metavar="KINDS",
                        help="after each python sample that returns a wrong value on an example (with --nearest: after "
                        f"each problem's nearest misses), ask these follow-ups ({', '.join(FOLLOW_UPS)}; alone: hinted,again)")
    parser.add_argument("--nearest", type=int, metavar="N", help="follow up only each problem's N nearest misses (most "
                        "examples passed, then earliest), every kind on the same samples")
    parser.add_argument("--follow-up-samples", type=int, default=1, metavar="K",
                        help="follow-ups of each kind per sample followed up, each with its own seed (default 1)")
    parser.add_argument("--oracles-from", metavar="BENCH_DIR", help="also follow up the oracles of this bench folder's "
                        "runs that fail a statement example: oracle-repair and oracle-again, at the first temperature")
    parser.add_argument("--dry-run", action="store_true", help="print what is still to ask, and the summary; no model")
    args = parser.parse_args(argv)
    args.kinds = follow_up_kinds(parser, args.follow_ups) + (list(ORACLE_FOLLOW_UPS) if args.oracles_from else [])
    if (args.nearest is not None and args.nearest < 1) or args.follow_up_samples < 1:
        parser.error("--nearest and --follow-up-samples must be at least 1")
    if args.oracles_from and not (Path(args.oracles_from) / "results.jsonl").is_file():
        parser.error(f"--oracles-from: no results.jsonl in {args.oracles_from}")
    return args


def main(argv=None):
    args = parse_args(argv)
    ids = [i.strip() for i in args.ids.split(",") if i.strip()] if args.ids else None
    problems = select(load(args.dataset)[0], ids=ids, seed=args.seed, limit=args.limit)
    temperatures = list(map(float, args.temperatures.split(",")))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    path = out / "samples.jsonl"
    lines = [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []
    done = {(line["id"], line["format"], line["temperature"], line["k"]) for line in lines}
    todo = [(problem, fmt, temperature, k) for problem in problems for fmt in args.formats.split(",")
            for temperature in temperatures for k in range(args.samples)
            if (problem.id, fmt, temperature, k) not in done]
    by_id = {problem.id: problem for problem in problems}
    if args.oracles_from:  # no model needed: the runs' oracles are judged in the sandbox and kept as lines
        write(path, lines, oracle_lines(args.oracles_from, problems, lines, temperatures[0], best_isolation()))
    ours = [line for line in lines if line["id"] in by_id]
    owed = follow_ups_owed(ours, args.kinds, args.nearest, args.follow_up_samples)
    if args.dry_run:
        print(planned(todo, owed, args.kinds, ours))
    elif todo or owed:  # a finished folder is summarized (and plotted) without starting a model
        ask_everything(args, todo, by_id, lines, path)
    report(args, lines, problems)
    return 0


def planned(todo, owed, kinds, lines):
    """What a run would still ask, and about how much model time that is at the first draws' mean."""
    seconds = [line["seconds"] for line in lines if line["format"] in REQUESTS]
    mean = statistics.mean(seconds) if seconds else 0
    each = ", ".join(f"{kind} {sum(o[1] == kind for o in owed)}" for kind in kinds) or "none"
    return (f"dry run: {len(todo)} samples to draw (then the follow-ups of their misses); follow-ups owed now: {each}; "
            f"about {(len(todo) + len(owed)) * mean / 60:.0f} model-minutes at the first draws' {mean:.1f} s a request")


def ask_everything(args, todo, by_id, lines, path):
    """Draw the samples still to draw, then the follow-ups owed once they are in (the nearest misses of a problem
    are known only when all its samples are), each line written as it comes."""
    endpoint, embedded = app.choose_endpoint()
    isolation = best_isolation()
    with app.model_server(endpoint, embedded, lambda text: print(text, file=sys.stderr)) as (model, _):
        for problem, fmt, temperature, k in todo:
            line = sample(problem, fmt, temperature, k, model, isolation)
            write(path, lines, [line])
            print(f"{problem.id} {fmt} T={temperature} #{k}: examples {line['examples_pass']}, "
                  f"hidden {line['hidden_pass']}, {line['seconds']} s", file=sys.stderr, flush=True)
        ours = [line for line in lines if line["id"] in by_id]
        for first, kind, j in follow_ups_owed(ours, args.kinds, args.nearest, args.follow_up_samples):
            line = follow_up(by_id[first["id"]], first, kind, j, model, isolation)
            write(path, lines, [line])
            print(f"{first['id']} {kind} T={first['temperature']} #{first['k']}.{j}: examples {line['examples_pass']}, "
                  f"hidden {line['hidden_pass']}, {line['seconds']} s", file=sys.stderr, flush=True)


def write(path, lines, new):
    """Append lines to samples.jsonl as they come (a rerun resumes after the last)."""
    lines.extend(new)
    with path.open("a") as f:
        f.writelines(json.dumps(line) + "\n" for line in new)


def report(args, lines, problems):
    """The pass@k table (all, then per difficulty), the follow-up table when there are follow-ups, the plot."""
    by_id = {problem.id: problem for problem in problems}
    firsts = [line for line in lines if line["format"] in REQUESTS and line["id"] in by_id]  # follow-ups: no pass@k
    difficulties = dict.fromkeys(problem.difficulty for problem in problems if problem.difficulty)
    if firsts:  # an oracles-only folder has no fresh samples
        summary(firsts, args.samples)
    for difficulty in difficulties if len(difficulties) > 1 and firsts else ():
        print(f"\n{difficulty}:")
        summary([line for line in firsts if by_id[line["id"]].difficulty == difficulty], args.samples)
    ours = [line for line in lines if line["id"] in by_id]
    if args.kinds or any(line["format"] not in REQUESTS for line in ours):  # the first draws' row is the baseline
        print()
        follow_up_summary(ours, lambda line: by_id[line["id"]].difficulty or "-")
    if args.plot:
        Path(args.plot).write_text(plot(firsts, args.samples, f"pass@k, {args.dataset} seed {args.seed}, {len(problems)} problems"))


if __name__ == "__main__":
    sys.exit(main())
