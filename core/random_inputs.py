"""Fresh small inputs shaped like a run's own, for telling apart two programs that pass the same tests.

Two candidates may pass every test a run has and still differ: LeetCode 947 (stones on a grid) was claimed
solved with a union-find that mixes row and column numbers, beside a right candidate; both agreed on the
statement's examples and on every variant (core/variants.py), because variants stay next to the given inputs
and never move a zero, and the two differ first on two stones such as (0, 1) and (1, 0). S* looks for inputs
on which two candidates differ and lets execution decide between them; AlphaCode and CodeT draw inputs at
random for the same reason. Here the inputs are drawn without a model: each argument keeps its type and
nesting; a list gets a length between 1 and the longest of that argument's lists at that depth (or its one
length, when every such list has the same: a pair stays a pair); an integer or float falls in the range the
argument's numbers span at that depth; a string is made of that argument's letters. Lists keep "sorted" or
"distinct" only where the statement promises it and every given list has it (as variants do), and an input
that breaks a stated constraint (core/constraints.py) is never made. Small on purpose: an oracle written as
a brute force answers small inputs in time.

Run alone:  python -m core.random_inputs '{"stones": [[0, 0], [0, 1], [1, 2]]}' '{"stones": [[0, 0]]}'
"""
import json
import random
import sys

from core.cases import input_key
from core.compare import EXACT, outputs_match
from core.constraints import violations
from core.variants import is_sorted, shared_properties

MAX_LENGTH = 8  # longer lists tell programs apart no better here, and a brute-force oracle may time out on them


def shaped_inputs(inputs, statement="", count=32, seed=0, tries=8):
    """Up to `count` new inputs (dicts of run_code's arguments), each shaped like one of `inputs` (taken in
    turn), none equal to a given input or to another made one. A fixed seed makes a run repeatable."""
    inputs = [given for given in inputs if isinstance(given, dict) and given]
    if not inputs:
        return []
    rng = random.Random(seed)
    ranges = {name: _ranges([given[name] for given in inputs if name in given]) for name in {n for g in inputs for n in g}}
    kept = shared_properties(inputs, statement)
    seen = {input_key(given) for given in inputs}
    made = []
    for attempt in range(count * tries):
        if len(made) == count:
            break
        template = inputs[attempt % len(inputs)]
        candidate = {name: _kept(_drawn(value, ranges[name], 0, rng), kept.get(name, ())) for name, value in template.items()}
        if input_key(candidate) not in seen and not violations(statement, candidate):
            seen.add(input_key(candidate))
            made.append(candidate)
    return made


def telling_apart(mine, others, comparison=EXACT):
    """The indices of the inputs on which `mine` and one of `others` (each a list of sandbox results, one per
    input) both return and return different values (compared as the tests compare)."""
    return [i for i, result in enumerate(mine) if result["ok"] and any(
        theirs[i]["ok"] and not outputs_match(result["value"], theirs[i]["value"], comparison) for theirs in others)]


def raised_where_others_return(ran):
    """For each version's results (lists of sandbox results, one per input): on how many inputs it raised where
    another version returned."""
    return [sum(not mine[i]["ok"] and any(theirs[i]["ok"] for theirs in ran) for i in range(len(mine))) for mine in ran]


def _ranges(values):
    """depth -> what the argument's values at that depth span: (low, high) for numbers, letters, list lengths."""
    found = {}

    def walk(value, depth):
        spans = found.setdefault(depth, {"int": [], "float": [], "letters": set(), "text_lengths": [], "lengths": []})
        if isinstance(value, bool) or value is None:
            return
        if isinstance(value, int):
            spans["int"].append(value)
        elif isinstance(value, float):
            spans["float"].append(value)
        elif isinstance(value, str):
            spans["letters"].update(value)
            spans["text_lengths"].append(len(value))
        elif isinstance(value, list):
            spans["lengths"].append(len(value))
            for item in value:
                walk(item, depth + 1)

    for value in values:
        walk(value, 0)
    return found


def _drawn(template, ranges, depth, rng):
    """A value of `template`'s type and nesting, drawn within `ranges` (see _ranges)."""
    spans = ranges.get(depth, {})
    if isinstance(template, bool):
        return rng.random() < 0.5
    if isinstance(template, int) and spans.get("int"):
        return rng.randint(min(spans["int"]), max(spans["int"]))
    if isinstance(template, float) and spans.get("float"):
        return round(rng.uniform(min(spans["float"]), max(spans["float"])), 2)
    if isinstance(template, str) and spans.get("letters"):
        letters = sorted(spans["letters"])  # sorted: a set's order changes with the process's hash seed
        return "".join(rng.choice(letters) for _ in range(rng.randint(1, max(spans["text_lengths"]))))
    if isinstance(template, list) and template:
        lengths = spans["lengths"]
        if len(set(lengths)) == 1 and len(lengths) > 1:
            length = lengths[0]  # every list here has this length: a pair, a row of a square grid
        else:
            length = rng.randint(1, max(1, min(MAX_LENGTH, max(lengths))))
        return [_drawn(rng.choice(template), ranges, depth + 1, rng) for _ in range(length)]
    return template  # empty values, dicts, None: kept as given


def _kept(value, properties):
    """`value` with the promised properties restored: sorted, or its repeated items left out."""
    for holds in properties:
        if holds(value):
            continue
        if holds is is_sorted:
            value = sorted(value)
        else:
            value = list({input_key(item): item for item in value}.values())
    return value


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: python -m core.random_inputs INPUT_JSON [INPUT_JSON ...]")
    for made in shaped_inputs([json.loads(arg) for arg in sys.argv[1:]], count=8):
        print(json.dumps(made))
