"""python -m bench.validator_quality: how often the model's input validator can be used, and whether it keeps
the inputs it should.

Where a statement promises something of its inputs (core/judges.input_promises: "it is guaranteed that ...",
a constraint in words), ImplementFunction asks for `is_valid_input` beside the draw's candidates, again with
each draw while none passed its checks. This asks that request as the flow builds it (the statement's
examples as the inputs it must accept), once per `--temperatures` entry, in each form:

  asked         as the flow asks it now: core/prompts.validator_request, the answer one ```python block
  yaml          as it was asked until 2026-11-28: a {reasoning, function_code} YAML answer, the reasoning
                saying how each promise is checked (measured: docs/benchmarks.md; not kept)

Each validator runs in the sandbox on the statement's examples (the flow uses it only if it accepts all:
core/judges.validator_in_use), on the variant inputs the flow makes from them (core/variants.py: the inputs
a validator is there to judge; one that drops none does nothing, `return True` included), and on the set's
first hidden inputs, which keep the statement's promises (bench.statement_audit lists the few that do not):
a validator that rejects one would drop a right test. Prints one line per answer and, per form: usable,
used by the flow, used and keeping every hidden input, of these dropping a variant, seconds and completion
tokens per answer (the first answer asked of a problem also reads its prompt: compare seconds at a later
temperature). Appends each line, with the code, to --out (JSON lines). Needs a
model: the embedded one unless an endpoint is set. Problems: the tuning seeds' LeetCode problems whose
statement makes a promise (issue 28 tunes on seeds 2 and 3).

    python -m bench.validator_quality --seeds 2,3 --limit 12 --temperatures 0,0.8 --out FILE
    python -m bench.validator_quality --rescore FILE     # the recorded validators scored again, no model
"""
import argparse
import json
import sys
from collections import Counter, defaultdict
from dataclasses import replace

import app
from bench.datasets import hidden_inputs, leetcode, select
from core.judges import VALIDATOR_SHIM, input_promises
from core.prompts import conversation, problem_context, validator_request
from core.statement_examples import statement_examples
from core.variants import variants
from settings import Settings
from utils.call_llm import call_llm
from utils.runaway import watch_code
from utils.sandbox import run_batch
from utils.yaml_answer import AnswerError, parse_judge_answer

HIDDEN_INPUTS = 20
FORMS = ("asked", "yaml")
YAML_ANSWER = """Reply in this form, with the whole function under function_code:
```yaml
reasoning: <how to check each promise, in one sentence>
function_code: |
  <the complete Python code of is_valid_input>
```"""


def request_in(form, promises, examples):
    request = validator_request(promises, examples)
    return request[:request.rindex("Reply with")] + YAML_ANSWER if form == "yaml" else request


def problems(seeds, limit, ids):
    """(id, statement, promises, examples, hidden inputs by name) of each chosen problem with a promise."""
    chosen = select(leetcode(), ids=ids) if ids else [p for seed in seeds for p in select(leetcode(), seed=seed, limit=limit)]
    for problem in chosen:
        promises = input_promises(problem.statement)
        if not promises:
            continue
        yield (problem.id, problem.statement, promises, statement_examples(problem.statement),
               hidden_inputs(problem, HIDDEN_INPUTS))


def score(code, statement, examples, hidden):
    """Whether the flow would use this validator, how many of the variant inputs the flow makes from the
    examples it drops (the work it does: one that drops none changes nothing), and how many hidden inputs it
    rejects (each a right input it would drop)."""
    made = variants([case.input for case in examples], statement, Settings().variants)
    inputs = [case.input for case in examples] + made + hidden
    said = [result["ok"] and result["value"] is True for result in run_batch(code + VALIDATOR_SHIM, inputs)]
    used = bool(examples) and all(said[:len(examples)])
    return {"used": used, "variants": len(made), "drops_variants": said[len(examples):len(examples) + len(made)].count(False),
            "hidden": len(hidden), "rejects_hidden": said[len(examples) + len(made):].count(False)}


def asked(chosen, forms, temperatures, out_path):
    endpoint, embedded = app.choose_endpoint()
    with app.model_server(endpoint, embedded, lambda text: print(text, file=sys.stderr)) as (model, _), \
            open(out_path, "a") as out:
        for problem_id, statement, promises, examples, hidden in chosen:
            for form in forms:
                messages = conversation(problem_context(statement), request_in(form, promises, examples))
                for k, temperature in enumerate(float(t) for t in temperatures.split(",")):
                    reply = call_llm(messages, replace(model, temperature=temperature, seed=k + 1), watch=watch_code())
                    line = {"problem": problem_id, "form": form, "temperature": temperature, "usable": False,
                            "seconds": round(reply.latency_ms / 1000, 1), "tokens": reply.completion_tokens}
                    try:
                        code = parse_judge_answer(reply.text, function="is_valid_input")["function_code"]
                        line.update(usable=True, **score(code, statement, examples, hidden), code=code)
                    except AnswerError as exc:
                        line["error"] = str(exc).splitlines()[0]
                    out.write(json.dumps(line) + "\n")
                    out.flush()
                    yield line


def rescored(path, chosen):
    """The recorded lines of the chosen problems, each usable validator scored again."""
    by_id = {problem[0]: problem for problem in chosen}
    with open(path) as f:
        recorded = [json.loads(text) for text in f if text.strip()]
    for line in recorded:
        if line["problem"] in by_id:
            if line["usable"]:
                _, statement, _, examples, hidden = by_id[line["problem"]]
                line.update(score(line["code"], statement, examples, hidden))
            yield line


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench.validator_quality", description=__doc__.splitlines()[0])
    parser.add_argument("--forms", default=",".join(FORMS))
    parser.add_argument("--seeds", default="2,3")
    parser.add_argument("--limit", type=int, default=12, help="problems per seed, before those without a promise are left out")
    parser.add_argument("--ids", default="", help="LeetCode ids, comma-separated, instead of the seeds")
    parser.add_argument("--temperatures", default="0,0.8")
    parser.add_argument("--out", default="validator-quality.jsonl")
    parser.add_argument("--rescore", metavar="FILE", help="score the validators recorded in FILE (an --out of an "
                        "earlier run) again, without the model")
    args = parser.parse_args(argv)
    forms = args.forms.split(",")
    if unknown := [form for form in forms if form not in FORMS]:
        parser.error(f"unknown form {unknown[0]!r}: use {', '.join(FORMS)}")
    chosen = list(problems([int(s) for s in args.seeds.split(",")], args.limit, [i for i in args.ids.split(",") if i]))
    lines = rescored(args.rescore, chosen) if args.rescore else asked(chosen, forms, args.temperatures, args.out)
    totals = defaultdict(Counter)
    for line in lines:
        print(json.dumps({k: v for k, v in line.items() if k != "code"}), flush=True)
        used = line.get("used", False)
        totals[line["form"]].update(asked=1, usable=int(line["usable"]), used=int(used),
                                    keeps=int(used and line["rejects_hidden"] == 0),
                                    works=int(used and line["rejects_hidden"] == 0 and line["drops_variants"] > 0),
                                    seconds=line["seconds"], tokens=line["tokens"])
    for form, t in totals.items():
        print(f"{form:<13} {t['asked']} asked, {t['usable']} usable, the flow would use {t['used']}, {t['keeps']} of "
              f"them keep every hidden input, {t['works']} of these drop a variant input; {t['seconds'] / t['asked']:.1f} s and {t['tokens'] / t['asked']:.0f} "
              f"tokens an answer")
    return 0


if __name__ == "__main__":
    sys.exit(main())
