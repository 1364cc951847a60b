"""Inputs with one list or string emptied, for a claim's check that it does not raise where others return.

The model rarely writes an empty input and the variants never empty a value (core/variants.py: programs
answer an emptied argument differently, HumanEval/18), so a program that raises on `[]` can pass every test
of a run. HumanEval/9 (rolling maximum) was claimed solved by such a program while the two other candidates,
passing the same tests, returned [] for [] as the hidden tests expect (docs/journal/2026-11.md). An emptied input
is made only when the statement allows it: no constraint breaks (`1 <= nums.length` forbids it) and no
word says the value is never empty.

Run alone:  python -m core.empty_inputs STATEMENT_FILE '{"numbers": [1, 2, 3]}'
"""
import json
import re
import sys

from core.constraints import violations

NEVER_EMPTY = re.compile(r"\bnon-?empty\b|\bnot empty\b|\bnever empty\b|\bat least one\b", re.IGNORECASE)


def emptied_inputs(statement, example):
    """`example` (run_code's arguments) once for each non-empty list or string argument, that argument
    emptied; none when the statement says in words that something is never empty, and none that breaks a
    stated constraint."""
    if not example or NEVER_EMPTY.search(statement or ""):
        return []
    made = [{**example, name: type(value)()} for name, value in example.items()
            if isinstance(value, (list, str)) and value]
    return [inputs for inputs in made if not violations(statement, inputs)]


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: python -m core.empty_inputs STATEMENT_FILE INPUT_JSON")
    with open(sys.argv[1], encoding="utf-8") as f:
        text = f.read()
    for inputs in emptied_inputs(text, json.loads(sys.argv[2])):
        print(json.dumps(inputs))
