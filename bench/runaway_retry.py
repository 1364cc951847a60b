"""python -m bench.runaway_retry RUN_DIR [RUN_DIR ...]: how a test list's retry after a runaway is best asked.

Each RUN_DIR is a run whose first test-list answer (GenerateTestCases) was stopped as a runaway or cut
at its cap. Its recorded first request is sent again to the model, at the retry temperature with seeds
`--seeds`, and watched as the flow watches a test list, in four forms:

  shown-back   as the flow retried until 7497dca: the loop sent back with "write a shorter answer"
               (the recorded second request; skipped when the run has none)
  afresh       the first request again and the note the flow sends now (core/prompts.runaway_retry_request)
  afresh-yaml  the same with a note that names the yaml block and the test_cases key
  no-reasoning the first request with the reasoning line taken out of its answer form

Prints one line per answer and, per form, how many answers were a usable list and the seconds per answer;
appends every answer to --out (JSON lines). Needs a model: the embedded one unless an endpoint is set.

    python -m bench.runaway_retry bench-results/score-lc1/runs/leetcode/full/837-new_21_game ...
"""
import argparse
import json
import sys
from collections import defaultdict
from dataclasses import replace
from pathlib import Path

import app
from core.prompts import runaway_retry_request
from utils.ask_model import RETRY_TEMPERATURE
from utils.call_llm import call_llm
from utils.runaway import complete_tests, watch_tests
from utils.yaml_answer import AnswerError, parse_tests_answer

TESTS_ASKED = 5  # the flow asks for up to max_tests less the statement's examples; 5 for these runs
YAML_NOTE = ("Your answer could not be used: it started repeating itself and was stopped.\n"
             "Reply again as one ```yaml block with the test_cases key only, no reasoning.")


def forms(run_dir):
    """{form: messages} for one recorded run."""
    calls = [call for call in json.loads((Path(run_dir) / "run.json").read_text())["model_calls"]
             if call["node"] == "GenerateTestCases"]
    first = calls[0]["messages"]
    asked = first[-1]["content"].replace("reasoning: <one or two sentences>\n", "")
    made = {"afresh": first + [{"role": "user", "content": runaway_retry_request()}],
            "afresh-yaml": first + [{"role": "user", "content": YAML_NOTE}],
            "no-reasoning": first[:-1] + [{"role": "user", "content": asked}]}
    return ({"shown-back": calls[1]["messages"]} if len(calls) > 1 else {}) | made


def usable_tests(reply):
    text = reply.text if reply.finish_reason == "stop" else complete_tests(reply.text)
    try:
        return len(parse_tests_answer(text, TESTS_ASKED)["test_cases"]) if text else 0
    except AnswerError:
        return 0


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench.runaway_retry", description=__doc__.splitlines()[0])
    parser.add_argument("run_dirs", nargs="+", metavar="RUN_DIR")
    parser.add_argument("--seeds", default="11,12,13")
    parser.add_argument("--out", default="runaway-retry.jsonl")
    args = parser.parse_args(argv)
    for run_dir in args.run_dirs:
        if not (Path(run_dir) / "run.json").is_file():
            parser.error(f"{run_dir} has no run.json")
    totals = defaultdict(lambda: [0, 0, 0.0])
    endpoint, embedded = app.choose_endpoint()
    with app.model_server(endpoint, embedded, lambda text: print(text, file=sys.stderr)) as (model, _), \
            open(args.out, "a") as out:
        for run_dir in args.run_dirs:
            for form, messages in forms(run_dir).items():
                for seed in map(int, args.seeds.split(",")):
                    config = replace(model, temperature=RETRY_TEMPERATURE, max_tokens=700, seed=seed)
                    reply = call_llm(messages, config, watch=watch_tests(TESTS_ASKED))
                    line = {"run": Path(run_dir).name, "form": form, "seed": seed, "finish": reply.finish_reason,
                            "tokens": reply.completion_tokens, "tests": usable_tests(reply),
                            "seconds": round(reply.latency_ms / 1000, 1)}
                    print(json.dumps(line), flush=True)
                    out.write(json.dumps(line) + "\n")
                    totals[form][0] += 1
                    totals[form][1] += line["tests"] > 0
                    totals[form][2] += line["seconds"]
    for form, (answers, usable, seconds) in totals.items():
        print(f"{form:<13} {usable}/{answers} usable lists, {seconds / answers:.1f} s an answer")
    return 0


if __name__ == "__main__":
    sys.exit(main())
