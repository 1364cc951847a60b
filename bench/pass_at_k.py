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
each python sample that returns a wrong value on an example is followed by more at its temperature and one
seed: `hinted` (told the example and what the earlier program returned there), `again` (not told), `repair` (shown
its code and the example it gets wrong or raises on, asked to fix it): whether a draw that hears of a failure does
better than one that does not (issue 28: draws after a failed one), and whether fixing a near miss does better
than either (issue 76).

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
from bench.hidden_tests import judge_hidden
from bench.report import line_chart
from core.compare import outputs_match
from core.feedback import compact
from core.prompts import CODE_ANSWER, PYTHON_BLOCK, conversation, implement_request, implement_yaml_request, problem_context
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


def sample(problem, fmt, temperature, k, model, isolation):
    """One fresh candidate, judged: a line of samples.jsonl."""
    examples = statement_examples(problem.statement)
    config = replace(model, temperature=temperature, max_tokens=WORKED_TOKENS if fmt == "worked" else CODE_TOKENS,
                     seed=1000 * k + round(100 * temperature))
    line = {"id": problem.id, "format": fmt, "temperature": temperature, "k": k}
    request = REQUESTS[fmt](examples, problem.statement) if fmt == "stub" else REQUESTS[fmt](examples)
    return asked(problem, examples, request, config, line, isolation)


def asked(problem, examples, request, config, line, isolation):
    """The line of one request asked as ImplementFunction asks it (one call, no retry), with its answer judged."""
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
    """The sample's line with how it did on the statement's examples (and the first it failed, with what it
    returned there: a follow-up's hint) and on the hidden tests."""
    results = run_batch(code, [case.input for case in examples], Limits(), isolation) if code and examples else []
    right = [r["ok"] and outputs_match(r["value"], case.expected) for r, case in zip(results, examples)]
    line.update(examples_passed=sum(right), examples=len(examples))  # how near a failing sample came (an early stop's question)
    wrong = [(case, r) for case, r, ok in zip(examples, results, right) if not ok and r["ok"]]
    if wrong:
        line["failed"] = {"name": wrong[0][0].name, "returned": wrong[0][1]["value"]}
    raised = [(case, r) for case, r in zip(examples, results) if not r["ok"]]
    if raised:  # a repair follow-up is told it
        line["raised"] = {"name": raised[0][0].name, "error": f"{raised[0][1]['error_type']}: {raised[0][1]['message'][:200]}"}
    line["examples_pass"] = bool(code) and sum(right) == len(examples)
    line["hidden_pass"] = bool(code) and judge_hidden(problem, code, isolation)["passed"]
    return line


def repair_request(code, case, returned=None, error=None):
    """A program shown back with the example it gets wrong (what it returned, or raised, and the right answer),
    asked to be fixed in a python block: Revise's idea without its YAML, for the first draws' near misses."""
    did = f"raised {error}" if error else f"returned {compact(returned, 300)}"
    return (f"This run_code is wrong on {case.name} of the problem: run_code(**{compact(case.input, 300)}) {did}, but the "
            f"right answer is {compact(case.expected, 300)}.\n```python\n{code.rstrip()}\n```\n\nRead the problem statement "
            f"again, find the mistake and fix it.\n\n{CODE_ANSWER}")


def follows_up(line, kind):
    """Whether a sample gets this follow-up: a python sample with a wrong value on an example (a repair: or one
    that raised on one, its code shown)."""
    if line["format"] != "python" or not line.get("code") and kind == "repair":
        return False
    return bool(line.get("failed") or kind == "repair" and line.get("raised"))


def follow_up(problem, first, kind, model, isolation):
    """After a python sample that returned a wrong value on an example: one more sample at its temperature,
    `hinted` (told which example an earlier program got wrong and what it returned, not shown its code, which
    a small model copies), `again` (the same request, no hint), or `repair` (shown the code and the example it
    gets wrong, asked to fix it), each with one seed, so the request is the only difference between them."""
    examples = statement_examples(problem.statement)
    request = implement_request(examples)
    if kind == "repair":
        failure = first.get("failed") or first["raised"]
        case = next(case for case in examples if case.name == failure["name"])
        request = repair_request(first["code"], case, failure.get("returned"), failure.get("error"))
    if kind == "hinted":
        case = next(case for case in examples if case.name == first["failed"]["name"])
        request = request.replace("\n\nThis time reply", f"\n\nAn earlier program for this problem returned "
                                  f"{compact(first['failed']['returned'], 300)} on {case.name}, where "
                                  f"{compact(case.expected, 300)} is right: do not repeat its mistake.\n\nThis time reply")
    temperature, k = first["temperature"], first["k"]
    config = replace(model, temperature=temperature, max_tokens=CODE_TOKENS, seed=1000 * k + round(100 * temperature) + 7)
    return asked(problem, examples, request, config, {"id": problem.id, "format": kind, "temperature": temperature, "k": k},
                 isolation)


def follow_up_kinds(parser, given):
    kinds = [kind.strip() for kind in given.split(",") if kind.strip()]
    if set(kinds) - set(FOLLOW_UPS):
        parser.error(f"--follow-ups: choose from {', '.join(FOLLOW_UPS)}")
    return kinds


def follow_up_summary(lines):
    """How the follow-ups of the samples that failed an example did, hinted against again."""
    for kind in FOLLOW_UPS:
        runs = [line for line in lines if line["format"] == kind]
        if runs:
            print(f"after a wrong value on an example, {kind}: {len(runs)} samples, {sum(r['examples_pass'] for r in runs)} "
                  f"pass the examples, {sum(r['hidden_pass'] for r in runs)} the hidden tests, over "
                  f"{len({r['id'] for r in runs})} problems ({len({r['id'] for r in runs if r['hidden_pass']})} reached)")


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


def plot(lines, samples, title):
    """The pass@k curves as an SVG line chart, one line per (format, temperature)."""
    series = {f"{fmt} T={temperature:g}": curve(problems, samples) for (fmt, temperature), problems in groups_of(lines).items()}
    return line_chart(title, "k (fresh samples)", "pass@k, hidden tests", series)


def main(argv=None):
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
                        help="after each python sample that returns a wrong value on an example, ask these follow-ups "
                        f"({', '.join(FOLLOW_UPS)}; alone: hinted,again)")
    args = parser.parse_args(argv)
    ids = [i.strip() for i in args.ids.split(",") if i.strip()] if args.ids else None
    problems = select(load(args.dataset)[0], ids=ids, seed=args.seed, limit=args.limit)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    path = out / "samples.jsonl"
    lines = [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []
    done = {(line["id"], line["format"], line["temperature"], line["k"]) for line in lines}
    todo = [(problem, fmt, temperature, k) for problem in problems for fmt in args.formats.split(",")
            for temperature in map(float, args.temperatures.split(",")) for k in range(args.samples)
            if (problem.id, fmt, temperature, k) not in done]
    by_id = {problem.id: problem for problem in problems}
    asked = {(line["id"], line["temperature"], line["k"], line["format"]) for line in lines}
    kinds = follow_up_kinds(parser, args.follow_ups)
    follow = [(by_id[line["id"]], line, kind) for line in list(lines) if line["id"] in by_id for kind in kinds
              if follows_up(line, kind) and (line["id"], line["temperature"], line["k"], kind) not in asked]
    if todo or follow:  # a finished folder is summarized (and plotted) without starting a model
        endpoint, embedded = app.choose_endpoint()
        isolation = best_isolation()
        with app.model_server(endpoint, embedded, lambda text: print(text, file=sys.stderr)) as (model, _):
            for problem, fmt, temperature, k in todo:
                line = sample(problem, fmt, temperature, k, model, isolation)
                lines.append(line)
                with path.open("a") as f:
                    f.write(json.dumps(line) + "\n")
                print(f"{problem.id} {fmt} T={temperature} #{k}: examples {line['examples_pass']}, "
                      f"hidden {line['hidden_pass']}, {line['seconds']} s", file=sys.stderr, flush=True)
                follow += [(problem, line, kind) for kind in kinds if follows_up(line, kind)]
            for problem, first, kind in follow:
                line = follow_up(problem, first, kind, model, isolation)
                lines.append(line)
                with path.open("a") as f:
                    f.write(json.dumps(line) + "\n")
                print(f"{problem.id} {kind} T={first['temperature']} #{first['k']}: examples {line['examples_pass']}, "
                      f"hidden {line['hidden_pass']}, {line['seconds']} s", file=sys.stderr, flush=True)
    firsts = [line for line in lines if line["format"] not in FOLLOW_UPS and line["id"] in by_id]  # follow-ups: no pass@k
    summary(firsts, args.samples)
    difficulties = dict.fromkeys(problem.difficulty for problem in problems if problem.difficulty)
    for difficulty in difficulties if len(difficulties) > 1 else ():
        print(f"\n{difficulty}:")
        summary([line for line in firsts if by_id[line["id"]].difficulty == difficulty], args.samples)
    follow_up_summary(lines)
    if args.plot:
        Path(args.plot).write_text(plot(firsts, args.samples, f"pass@k, {args.dataset} seed {args.seed}, {len(problems)} problems"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
