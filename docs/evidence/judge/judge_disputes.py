"""The judge experiment (issue 14, sixth pass): can the model itself say which value a disputed input must give?

Issue 14 offered two ways to treat an input the programs do not settle: one model call that shows the
input and the competing values and asks which is right, or leaving the input out of the verdict. This
script measures the first on every recorded run that ended with such inputs, before building it into
the flow. For each disputed input where the final code's value differs from the model's guess, it asks
twice, the two values lettered A and B in one order and then in the other, and never says which came
from a program. A claim would stand only if both answers pick the code's value on every disputed input.

    python docs/evidence/judge/judge_disputes.py collect bench-results/DIR [DIR ...]   -> cases.json
    python docs/evidence/judge/judge_disputes.py ask        (embedded model, or OPENAI_BASE_URL)  -> answers.jsonl
    python docs/evidence/judge/judge_disputes.py report

Truth for an input: HumanEval's own canonical solution, run in the sandbox; LeetCode has none in its
package, so its inputs count in the per-run table (hidden tests) only. `ask` resumes: answers already in
answers.jsonl are skipped. Kept as evidence, not as a feature: see docs/benchmarks.md for why.
"""
import ast
import json
import os
import sys
from collections import Counter, defaultdict
from dataclasses import replace

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(HERE))))

import app  # the project's modules, found from this folder
from bench.datasets import humaneval_rows
from utils.call_llm import call_llm
from core.feedback import compact, is_variant
from core.prompts import conversation
from utils.sandbox import run_batch
from utils.yaml_answer import AnswerError, load_mapping

CASES, ANSWERS = os.path.join(HERE, "cases.json"), os.path.join(HERE, "answers.jsonl")

REQUEST = """Different values are proposed for what run_code must return on the same input:

run_code(**{inputs})

value A: {a}
value B: {b}

Which value does the problem ask for? Trust none of them: follow the problem statement step by step
for this input, work the value out yourself, then compare.

Reply in this form:
```yaml
reasoning: |
  <your working, a few short lines>
right: <A, B or neither>
```"""


def read_json(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def read_lines(path):
    """The JSON lines of `path`, or none when it does not exist."""
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def plain(value):
    return json.loads(json.dumps(value))


def canonical_values(row, inputs):
    """HumanEval's canonical solution (its package's row) on each input, in the sandbox: its value, or None
    where it raises."""
    code = f"{row['prompt']}{row['canonical_solution']}\n\nrun_code = {row['entry_point']}\n"
    return [r["value"] if r["ok"] else None for r in run_batch(code, inputs)]


def collect(folders):
    cases, seen = [], set()
    humaneval = {row["task_id"]: row for row in humaneval_rows()}
    for folder in folders:
        for row in read_lines(os.path.join(folder, "results.jsonl")):
            record_path = os.path.join(row["run_dir"], "run.json")
            if row["strategy"] != "full" or row["status"] not in ("solved", "unconfirmed") or not os.path.exists(record_path):
                continue
            record = read_json(record_path)
            evidence = [e for e in record["events"] if e["kind"] == "evidence"]
            runs = [e for e in record["events"] if e["kind"] == "test_run"]
            if not evidence or not runs or len(evidence[-1]["test_cases"]) != len(runs[-1]["results"]):
                continue
            items = []
            for case, result in zip(evidence[-1]["test_cases"], runs[-1]["results"]):
                if case["evidence"]["source"] != "disputed" or is_variant(case) or "guess" not in case:
                    continue
                try:
                    code_value = plain(ast.literal_eval(result["actual"]))
                except (ValueError, SyntaxError):
                    continue  # the code raised there: nothing to compare
                if code_value != plain(case["guess"]):
                    items.append({"name": case["name"], "input": case["input"], "code": code_value, "guess": plain(case["guess"])})
            key = (row["id"], (record.get("final") or {}).get("function_code"), json.dumps([i["input"] for i in items]))
            if not items or key in seen:
                continue
            seen.add(key)
            if row["id"].startswith("HumanEval/"):
                for item, truth in zip(items, canonical_values(humaneval[row["id"]], [i["input"] for i in items])):
                    item["truth"] = plain(truth)
            cases.append({"folder": os.path.basename(os.path.normpath(folder)), "id": row["id"], "status": row["status"],
                          "hidden_pass": row["hidden_pass"], "problem": record["problem"], "items": items})
    with open(CASES, "w", encoding="utf-8") as f:
        json.dump(cases, f, indent=1)
    print(f"{len(cases)} runs, {sum(len(c['items']) for c in cases)} disputed inputs -> {CASES}")


def pick(text, values):
    """The index in `values` of the value the answer calls right, None for neither, "?" when unusable. The
    model sometimes writes the value itself instead of its letter: taken when it names exactly one."""
    try:
        right = load_mapping(text).get("right")
    except AnswerError:
        return "?"
    word = str(right if right is not None else "").strip().strip(".").upper()
    if word == "NEITHER":
        return None
    if word in ("A", "B"):
        return "AB".index(word)
    named = [i for i, value in enumerate(values) if json.dumps(right) == json.dumps(value)]
    return named[0] if len(named) == 1 else "?"


def ask():
    cases = read_json(CASES)
    done = {(r["folder"], r["id"], r["name"], r["order"]) for r in read_lines(ANSWERS)}
    endpoint, embedded = app.choose_endpoint()
    with app.model_server(endpoint, embedded, print) as (model, _), open(ANSWERS, "a", encoding="utf-8") as out:
        model = replace(model, max_tokens=600, temperature=0.0)
        for case in cases:
            for item in case["items"]:
                for order in ("code_first", "guess_first"):
                    if (case["folder"], case["id"], item["name"], order) in done:
                        continue
                    values = [item["code"], item["guess"]][::1 if order == "code_first" else -1]
                    request = REQUEST.format(inputs=compact(item["input"], 300), a=compact(values[0], 300), b=compact(values[1], 300))
                    reply = call_llm(conversation(case["problem"], request), model)
                    out.write(json.dumps({"folder": case["folder"], "id": case["id"], "name": item["name"], "order": order,
                                          "tokens": reply.completion_tokens, "s": round(reply.latency_ms / 1000, 1),
                                          "text": reply.text}) + "\n")
                    out.flush()
                    print(case["id"], item["name"], order, flush=True)


def report():
    cases = {(c["folder"], c["id"]): c for c in read_json(CASES)}
    chosen = defaultdict(dict)  # (folder, id, name) -> order -> "code" | "guess" | "neither" | "?"
    first, decided = 0, 0
    for answer in read_lines(ANSWERS):
        item = next(i for i in cases[(answer["folder"], answer["id"])]["items"] if i["name"] == answer["name"])
        names = ["code", "guess"][::1 if answer["order"] == "code_first" else -1]
        k = pick(answer["text"], [item[names[0]], item[names[1]]])
        chosen[(answer["folder"], answer["id"], answer["name"])][answer["order"]] = \
            "?" if k == "?" else "neither" if k is None else names[k]
        if isinstance(k, int):
            decided, first = decided + 1, first + (k == 0)
    answers = sum(len(orders) for orders in chosen.values())
    print(f"{len(chosen)} disputed inputs, {answers} answers: {answers - decided} without a usable letter or value, "
          f"{decided} picked A or B, of which the value listed first {first} times ({first / max(decided, 1):.0%})")
    table = Counter()
    for (folder, pid, name), orders in chosen.items():
        item = next(i for i in cases[(folder, pid)]["items"] if i["name"] == name)
        truth = "unknown" if "truth" not in item else "code" if item["truth"] == item["code"] else \
            "guess" if item["truth"] == item["guess"] else "neither"
        both = orders.get("code_first"), orders.get("guess_first")
        table[(truth, both[0] if both[0] == both[1] else "inconsistent")] += 1
    print("\ntruth (canonical solution)  both orders pick   inputs")
    for (truth, picked), n in sorted(table.items()):
        print(f"{truth:<27} {picked:<17} {n:>6}")
    print("\nrun                                        status       hidden  claim under the two-order rule")
    for (folder, pid), case in cases.items():
        picks = [chosen[(folder, pid, i["name"])] for i in case["items"]]
        claim = all(p.get("code_first") == "code" and p.get("guess_first") == "code" for p in picks)
        print(f"{folder + ' ' + pid[:30]:<42} {case['status']:<12} {'pass' if case['hidden_pass'] else 'fail':<7} "
              f"{'claimed' if claim else '-'}")


if __name__ == "__main__":
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    if command == "collect" and len(sys.argv) > 2:
        collect(sys.argv[2:])
    elif command in ("ask", "report") and len(sys.argv) == 2:
        ask() if command == "ask" else report()
    else:
        sys.exit(__doc__.split("\n\n")[2])
