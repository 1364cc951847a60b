"""python -m bench.error_retry RUN_DIR [RUN_DIR ...]: how a retry after an unusable code answer is best asked.

Each RUN_DIR is a recorded run. Every first answer of ImplementFunction or Revise that came back whole
(not cut, not a runaway) but could not be used (a syntax error, no run_code, YAML that does not parse;
not "the revision changes nothing", which the record cannot check again) is asked again, at the retry temperature (unless the form says otherwise) with seeds `--seeds`, in two forms:

  shown-back  as the flow retried until now: the unusable answer sent back with the error (the recorded
              second request)
  afresh      the first request again with a note that names the error, the unusable answer left out
              (core/prompts.afresh_retry_request)
  afresh-hot  the same, sampled at the candidates' temperature (utils/ask_model.SAMPLE_TEMPERATURE)

Prints one line per answer and, per form, how many answers were usable, how many repeated the unusable
answer word for word, and the seconds per answer; appends every answer to --out (JSON lines). Needs a
model: the embedded one unless an endpoint is set.

    python -m bench.error_retry bench-results/speed-lc1/runs/leetcode/full/* ...
"""
import argparse
import json
import sys
from collections import defaultdict
from dataclasses import replace
from functools import partial
from pathlib import Path

import app
from core.prompts import afresh_retry_request
from nodes import CODE_TOKENS, REVISE_TOKENS
from utils.ask_model import RETRY_TEMPERATURE, SAMPLE_TEMPERATURE
from utils.call_llm import call_llm
from utils.runaway import watch_code
from utils.yaml_answer import AnswerError, check_function_code, load_mapping, parse_code_answer, parse_judge_answer

NODES = {"ImplementFunction": CODE_TOKENS, "Revise": REVISE_TOKENS}
TEMPERATURE = {"afresh-hot": SAMPLE_TEMPERATURE}


def parser_for(node, request):
    """The check the flow applied to the answer. A revision's is approximated: its YAML loads and any
    function_code in it compiles (the flow also checks its test names, which the record does not keep)."""
    if node == "Revise":
        return revision_loads
    for function in ("is_valid_input", "is_valid"):
        if f"def {function}(" in request:
            return partial(parse_judge_answer, function=function)
    return parse_code_answer


def revision_loads(text):
    data = load_mapping(text)
    if "function_code" in data:
        check_function_code(data["function_code"])
    return data


def cases(run_dir):
    """(name, node, first answer, {form: messages}) for each unusable whole first answer with a recorded retry."""
    calls = json.loads((Path(run_dir) / "run.json").read_text())["model_calls"]
    for i, call in enumerate(calls):
        if call["node"] in NODES and call.get("attempt") == 1 and call.get("error") and call.get("finish_reason") == "stop":
            retry = next((later for later in calls[i + 1:] if later["node"] == call["node"] and later.get("attempt") == 2
                          and later["messages"][:len(call["messages"])] == call["messages"]), None)
            if retry is None:
                continue
            first = call["messages"]
            request = first[-1]["content"]
            parse = parser_for(call["node"], request)
            if usable(parse, call["answer"]):  # the check cannot tell (a revision that changed nothing)
                continue
            afresh = first + [{"role": "user", "content": afresh_retry_request(call["error"], request)}]
            yield (f"{Path(run_dir).name}#{i}", call["node"], call["answer"], parse,
                   {"shown-back": retry["messages"], "afresh": afresh, "afresh-hot": afresh})


def usable(parse, text):
    try:
        return bool(parse(text))
    except AnswerError:
        return False


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench.error_retry", description=__doc__.splitlines()[0])
    parser.add_argument("run_dirs", nargs="+", metavar="RUN_DIR")
    parser.add_argument("--seeds", default="11,12")
    parser.add_argument("--out", default="error-retry.jsonl")
    args = parser.parse_args(argv)
    for run_dir in args.run_dirs:
        if not (Path(run_dir) / "run.json").is_file():
            parser.error(f"{run_dir} has no run.json")
    found = [case for run_dir in args.run_dirs for case in cases(run_dir)]
    print(f"{len(found)} unusable first answers with a recorded retry", file=sys.stderr)
    totals = defaultdict(lambda: [0, 0, 0, 0.0])
    endpoint, embedded = app.choose_endpoint()
    with app.model_server(endpoint, embedded, lambda text: print(text, file=sys.stderr)) as (model, _), \
            open(args.out, "a") as out:
        for name, node, unusable, parse, forms in found:
            for form, messages in forms.items():
                for seed in map(int, args.seeds.split(",")):
                    config = replace(model, temperature=TEMPERATURE.get(form, RETRY_TEMPERATURE), max_tokens=NODES[node], seed=seed)
                    reply = call_llm(messages, config, watch=watch_code())
                    line = {"case": name, "node": node, "form": form, "seed": seed, "finish": reply.finish_reason,
                            "tokens": reply.completion_tokens,
                            "usable": reply.finish_reason == "stop" and usable(parse, reply.text),
                            "same": reply.text == unusable,
                            "seconds": round(reply.latency_ms / 1000, 1)}
                    print(json.dumps(line), flush=True)
                    out.write(json.dumps(line) + "\n")
                    total = totals[form]
                    total[0] += 1
                    total[1] += line["usable"]
                    total[2] += line["same"]
                    total[3] += line["seconds"]
    for form, (answers, used, same, seconds) in totals.items():
        print(f"{form:<11} {used}/{answers} usable, {same} the unusable answer again, {seconds / answers:.1f} s an answer")
    return 0


if __name__ == "__main__":
    sys.exit(main())
