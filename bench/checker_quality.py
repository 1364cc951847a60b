"""python -m bench.checker_quality: how often the model's checker agrees with a true validity check.

The problems are the "many answers" set (bench/many_answers.py, whose validity checks are the truth) and
the README's Two Sum (a checker for its one-answer promise, built on the model's list of every answer).
For each, the checker request is built as ImplementFunction builds it (the statement's examples as the
outputs it must accept) and asked once per `--temperatures` entry, in each form that applies:

  asked             as the flow asks it now: core/prompts.checker_request where several answers are right,
                    answers_request (every answer listed, the checker built on the list) where one is promised
  items-from-input  several answers: the wording before 2026-11-26, "that its items come from the input",
                    no line on what the output holds
  is-valid          one answer promised: is_valid asked for, as before 2026-11-27
  listed            several answers: every right answer listed, as where one answer is promised, each
                    example's output one item of the list (several_listed; measured 2026-11-27, not kept)
  python-block      several answers: is_valid in a ```python block, what the output holds said in a comment,
                    instead of the {reasoning, function_code} YAML answer (in_python_block; measured
                    2026-11-27, not kept)

Each checker runs in the sandbox on the statement's examples and on the first hidden inputs, each with a
right output (bench/many_answers.RIGHT_ANSWER's; Two Sum's written here) and outputs
changed from it (reversed, two items swapped, one dropped, one off by one), each judged by the validity
check. A checker is `right` when it agrees on every one; `used` when the flow would use it
(core/judges.checker_in_use on the examples: it accepts their outputs, rejects the outputs wrong by
construction, and tells them from the outputs next to them). Prints one line per checker and, per form,
how many loaded, accepted the examples' outputs, were right, and were used and right; appends every line
(with the checker's code) to --out (JSON lines). Needs a model: the embedded one unless an endpoint is set;
--rescore FILE scores the checkers an earlier run recorded again, without the model (a rule's change).

    python -m bench.checker_quality --temperatures 0,0.8,0.8,0.8 --out bench-results/checker-quality.jsonl
    python -m bench.checker_quality --ids two_sum --forms asked,is-valid --temperatures 0,0.4,0.8 --out FILE
    python -m bench.checker_quality --rescore bench-results/checker-quality.jsonl
    python -m bench.checker_quality --runs bench-results/any-run-1 bench-results/any-run-2

--runs DIR... scores the checkers that benchmark runs wrote (every checker attempt of each run.json under
DIR, form `run`), as --rescore does, without the model.
"""
import argparse
import copy
import inspect
import json
import sys
from collections import Counter, defaultdict
from dataclasses import replace
from pathlib import Path

import app
from bench.datasets import leetcode, package_cases
from bench.many_answers import RIGHT_ANSWER, VALIDITY
from core.cases import input_key
from core.compare import Comparison
from core.judges import (LISTED, Checker, calls_to_check, checked_input, checker_in_use, checker_shim,
                         checker_source, output_name, promised_only, promises_one_answer)
from core.output_kind import OutputKind, output_kind
from core.prompts import PYTHON_BLOCK, answers_request, checker_request, compact, conversation, problem_context
from core.search_tree import Attempt
from core.statement_examples import statement_examples
from core.vocabulary import Author
from utils.call_llm import call_llm
from utils.runaway import watch_code
from utils.sandbox import run_batch
from utils.yaml_answer import AnswerError, parse_judge_answer

ROOT = Path(__file__).resolve().parent.parent
HIDDEN_INPUTS = 6  # hidden inputs per problem: with their changed outputs, 12 to 36 judgements a checker


def before(request):
    """The request as it was worded before it asked what the output holds."""
    start = request.index("First say what")
    end = request.index("without assuming one particular answer.")
    old = ("Check every condition the problem\nsets on an answer (its type and length, that its items come from the "
           "input, the order or property it\nmust have, that it is as good as the best answer) ")
    reasoning = request[request.index("reasoning: <"):request.index("\n", request.index("reasoning: <"))]
    return (request[:start] + old + request[end:]).replace(
        reasoning, "reasoning: <the conditions a right answer must meet, in one sentence>")


def one_answer_is_valid(examples, name):
    """The is_valid request as it was asked where one answer is promised, before answers_request."""
    return checker_request(examples, name).replace(
        "This problem has more than one right answer for some inputs.",
        "This problem promises one right answer for each input; a checker finds the inputs that break that promise.")


def several_listed(examples):
    """answers_request where several answers are right: each example's given output is one item of the list.
    Asked on the many-answers set, 1 list in 48 was right and the flow would have used 5, against 6 and 12
    of the is_valid checkers asked beside them (scored with the rules of fd95781): the model's lists hold one
    answer, its first or one construction (docs/benchmarks.md)."""
    request = answers_request(examples)
    shown = "\n".join(f"{i}. {compact(case.expected, 300)} in all_answers(**{compact(case.input, 300)})"
                      for i, case in enumerate(examples, 1))
    promise = request[request.index(" The\nproblem promises"):request.index("\n\nReply with")]
    return request.replace(promise, "\nSome inputs have more than one right answer: the list holds each of them, so on "
                                    f"its examples:\n{shown}")


def in_python_block(request):
    """checker_request answered as candidates answer (a python block), what the output holds and the
    conditions said in a comment at the top of its body rather than a YAML reasoning line. On the many-answers
    set 44 of 48 loaded (42 asked as YAML), but the flow would use 3, none right, against 8 and 4: the
    reasoning line does work here (docs/benchmarks.md)."""
    said = request[request.index("First say what"):request.index(" Then check every condition")]
    in_comment = said.replace("First say what", "Start its body with a comment that says what")
    return request[:request.index("\n\nReply in this form")].replace(said, in_comment) + \
        f"\n\nThis time reply with the complete function in {PYTHON_BLOCK}, not YAML, and nothing after the block."


FORMS = ("asked", "items-from-input", "is-valid", "listed", "python-block")


def request_in(form, several, examples, name):
    """(the request, the function it asks for) in this form, or None where the form does not apply."""
    if form == "asked":
        return (checker_request(examples, name), "is_valid") if several else (answers_request(examples), "all_answers")
    if form == "items-from-input":
        return (before(checker_request(examples, name)), "is_valid") if several else None
    if form == "listed":
        return (several_listed(examples), "all_answers") if several else None
    if form == "python-block":
        return (in_python_block(checker_request(examples, name)), "is_valid") if several else None
    return None if several else (one_answer_is_valid(examples, name), "is_valid")


def valid_two_sum(nums, target, output):  # two increasing indices whose values add up to target
    return (isinstance(output, list) and len(output) == 2 and all(type(i) is int for i in output)
            and 0 <= output[0] < output[1] < len(nums) and nums[output[0]] + nums[output[1]] == target)


TWO_SUM_CASES = [([2, 7, 11, 15], 9, [0, 1]), ([3, 2, 4], 6, [1, 2]), ([-4, -3, -2, -1], -5, [0, 3]),
                 ([-4, -3, -2, -1], -5, [1, 2]), ([1, 5, 9], 10, [0, 2]), ([0, 4, 3, 0], 0, [0, 3])]


def problems():
    """(id, statement, validity check, [(arguments..., a right output)], several answers?)."""
    by_id = {problem.id: problem for problem in leetcode()}
    for problem_id, valid in VALIDITY.items():
        inputs = [case[:-1] for case in package_cases(by_id[problem_id])[:HIDDEN_INPUTS]]
        cases = [(*arguments, RIGHT_ANSWER[problem_id](*copy.deepcopy(arguments))) for arguments in inputs]
        yield problem_id, by_id[problem_id].statement, valid, cases, True
    yield "two_sum", (ROOT / "examples" / "two_sum.md").read_text(), valid_two_sum, TWO_SUM_CASES, False


def changed(output):
    """Outputs near a right one; the validity check says which are right."""
    if isinstance(output, bool):
        return [not output]
    if isinstance(output, int):
        return [output + 1, output - 1]
    if isinstance(output, (str, list)):
        near = [output[::-1], output[1:2] + output[:1] + output[2:], output[:-1]] if len(output) > 1 else []
        if isinstance(output, list) and output and type(output[0]) is int:
            near.append([output[0] + 1] + output[1:])
        return near + ([] if output else [[0] if isinstance(output, list) else "a"])
    return []


def judgements(valid, cases):
    """(arguments by name, output, right?) for each hidden input's right output and its changed ones."""
    names = list(inspect.signature(valid).parameters)[:-1]
    found = []
    for case in cases:
        arguments, right = dict(zip(names, case[:-1])), case[-1]
        for output in [right] + changed(copy.deepcopy(right)):
            found.append((arguments, output, bool(valid(*copy.deepcopy(case[:-1]), copy.deepcopy(output)))))
    return found


def score(code, examples, name, pairs, statement="", function="is_valid"):
    """What a checker's code says on the examples' outputs and on the judged pairs, against the truth; and
    whether the flow would use it: core/judges.checker_in_use on the calls the flow makes (calls_to_check:
    the examples' outputs, the outputs wrong by construction and those next to them), the statement's
    promise of one answer and its output kind read as the flow reads them."""
    checker = Attempt(1, None, Author.CHECKER, 1, code + checker_shim(function, name), check="ok")  # as the flow does
    own = calls_to_check(examples, [], checker, name)
    asked = own + [checked_input(arguments, output, name) for arguments, output, _ in pairs]
    results = run_batch(checker.code, asked)
    checker.outputs = {input_key(call): result for call, result in zip(asked, results)}
    kind = output_kind(statement).kind
    one_answer = promised_only(kind, promises_one_answer(statement))
    used = checker_in_use([checker], examples, False, one_answer, Comparison(any_order=kind == OutputKind.UNORDERED))[0] is not None
    said = [result["ok"] and result["value"] is True for result in results[len(own):]]
    agree = [accepted == right for accepted, (_, _, right) in zip(said, pairs)]
    accepts = all(Checker(checker, name, False).accepts(case.input, case.expected) is True for case in examples)
    return {"accepts_examples": accepts, "used": used, "agree": sum(agree), "judged": len(pairs),
            "right": accepts and all(agree)}


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench.checker_quality", description=__doc__.splitlines()[0])
    parser.add_argument("--forms", default=",".join(FORMS))
    parser.add_argument("--temperatures", default="0,0.8,0.8,0.8")
    parser.add_argument("--ids", default="", help="problem ids, comma-separated (default: all 13)")
    parser.add_argument("--out", default="checker-quality.jsonl")
    parser.add_argument("--rescore", metavar="FILE", help="score the checkers recorded in FILE (an --out of an "
                        "earlier run) again, with the flow's rule as it is now, without the model")
    parser.add_argument("--runs", nargs="+", metavar="DIR", help="score the checkers in the run records under DIR "
                        "(bench --out directories) with the flow's rule as it is now, without the model")
    args = parser.parse_args(argv)
    forms = args.forms.split(",")
    if unknown := [form for form in forms if form not in FORMS]:
        parser.error(f"unknown form {unknown[0]!r}: use {', '.join(FORMS)}")
    chosen = {p[0]: p for p in problems() if not args.ids or p[0] in args.ids.split(",")}
    if args.rescore or args.runs:
        lines = rescored(_recorded(args.rescore) if args.rescore else checkers_in_runs(args.runs), chosen)
    else:
        lines = asked(chosen, forms, args.temperatures, args.out)
    totals = defaultdict(Counter)
    for line in lines:
        print(json.dumps({k: v for k, v in line.items() if k != "code"}), flush=True)
        used = line.get("used", False)
        totals[line["form"]].update(asked=1, usable=int(line["usable"]), accepts=int(line.get("accepts_examples", False)),
                                    used=int(used), used_right=int(used and line["right"]),
                                    right=int(line.get("right", False)), agree=line.get("agree", 0),
                                    judged=line.get("judged", 0))
    for form, t in totals.items():
        print(f"{form:<16} {t['right']}/{t['asked']} right, {t['accepts']} accept the examples' outputs, "
              f"{t['usable']} usable, {t['agree']}/{t['judged']} judgements agree; the flow would use {t['used']}, "
              f"{t['used_right']} of them right")
    return 0


def asked(chosen, forms, temperatures, out_path):
    """Ask the model for each checker and score it; each line is appended to out_path as it comes."""
    endpoint, embedded = app.choose_endpoint()
    with app.model_server(endpoint, embedded, lambda text: print(text, file=sys.stderr)) as (model, _), \
            open(out_path, "a") as out:
        for problem_id, statement, valid, cases, several in chosen.values():
            examples, pairs = statement_examples(statement), judgements(valid, cases)
            name = output_name(examples)
            for form in forms:
                if not (asking := request_in(form, several, examples, name)):
                    continue
                request, function = asking
                messages = conversation(problem_context(statement), request)
                for k, temperature in enumerate(float(t) for t in temperatures.split(",")):
                    config = replace(model, temperature=temperature, seed=k + 1)
                    reply = call_llm(messages, config, watch=watch_code())
                    line = {"problem": problem_id, "form": form, "function": function, "temperature": temperature,
                            "seconds": round(reply.latency_ms / 1000, 1), "usable": False}
                    try:
                        code = parse_judge_answer(reply.text, function=function)["function_code"]
                        line.update(usable=True, **score(code, examples, name, pairs, statement, function), code=code)
                    except AnswerError:
                        pass
                    out.write(json.dumps(line) + "\n")
                    yield line


def _recorded(path):
    with open(path) as f:
        return [json.loads(text) for text in f if text.strip()]


def checkers_in_runs(directories):
    """A line per checker attempt of every run record under the directories, its code as the model wrote it."""
    for directory in directories:
        for record in sorted(Path(directory).rglob("run.json")):
            final = json.loads(record.read_text()).get("final") or {}
            for attempt in final.get("attempts", []):
                if attempt["source"] == Author.CHECKER and attempt["check"] == "ok":
                    code, lister, _ = checker_source(attempt["code"]).partition(LISTED[:LISTED.index("(")])
                    function = "all_answers" if lister else "is_valid"
                    yield {"problem": record.parent.name, "form": "run", "function": function, "usable": True,
                           "record": f"{record.parent} attempt {attempt['id']}", "code": code}


def rescored(recorded, chosen):
    """The recorded lines of the chosen problems, each usable checker scored again."""
    for line in recorded:
        if line["problem"] not in chosen:
            continue
        if line.get("usable"):
            _, statement, valid, cases, _ = chosen[line["problem"]]
            examples = statement_examples(statement)
            line.update(score(line["code"], examples, output_name(examples), judgements(valid, cases), statement,
                              line.get("function", "is_valid")))
        yield line


if __name__ == "__main__":
    sys.exit(main())
