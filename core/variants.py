"""More test inputs, made from the ones a run already has by small changes that keep their types.

A small model's own inputs cluster: asked for edge cases of "is a a product of 3 primes", it wrote seven
primes, and the two programs that agreed on all of them both counted *distinct* prime factors, wrong for
8 = 2*2*2 (HumanEval/75, a false success). Inputs next to the given ones (a number one larger, one
smaller, doubled or halved, its sign kept and zero never reached; a list reversed, rotated, shuffled,
one item shorter or one item changed; a string reversed, one character shorter or longer, its case
swapped when it mixes cases; never an emptied value) are run on every program like the model's inputs,
so programs that agree only on the inputs someone happened to write disagree on them (AlphaCode and
CodeT generate inputs for the same reason). A list stays sorted, or its items distinct, only when the
statement says so and every given list is: a property the model's inputs merely share is what its code
may wrongly assume. A variant has no expected value and no guess: only the programs' agreement settles
it (core/expected_values.py), which drops an input a program raises on, since a variant may break a
precondition the statement states only in words. Variants that break the constraints the statement
states in its own form (core/constraints.py) are never made.

Run alone:  python -m core.variants '{"a": 7}' '{"nums": [2, 7, 11], "target": 9}'
"""
import json
import random
import re
import sys

from core.cases import TestCase, input_key
from core.constraints import violations
from core.vocabulary import Origin


def variants(inputs, statement="", count=8, seed=0):
    """Up to `count` new inputs (dicts of run_code's arguments), each one argument of one of `inputs`
    changed, none equal to an input given or to another variant. Taken round-robin over the given
    inputs, the statement's examples first as they come first in a run's tests, so every input lends
    some; a fixed seed makes a run repeatable."""
    rng = random.Random(seed)
    seen = {input_key(given) for given in inputs}
    kept = shared_properties(inputs, statement)
    per_input = []
    for given in inputs:
        # an input holding an empty value is an edge case already: its neighbours mostly break a precondition
        # (HumanEval/18: an empty substring, where correct programs answer differently)
        ordinary = not any(value in ("", [], {}) for value in given.values())
        changed = [{**given, name: value} for name in given for value in _near(given[name], rng)
                   if all(holds(value) for holds in kept.get(name, ()))] if ordinary else []
        rng.shuffle(changed)
        per_input.append(changed)
    made = []
    while len(made) < count and any(per_input):
        for changed in per_input:
            while changed:
                candidate = changed.pop()
                if input_key(candidate) not in seen and not violations(statement, candidate):
                    seen.add(input_key(candidate))
                    made.append(candidate)
                    break
            if len(made) == count:
                break
    return made


def variant_cases(inputs, statement="", count=8, sequences=False):
    """The variants of `inputs` as tests: named variant_1.., origin variant, no expected value and no guess.
    `sequences`: the inputs are a design's {operations, arguments} (core/problem_kind.py): sequence_variants."""
    made = sequence_variants(inputs, count) if sequences else variants(inputs, statement, count)
    return [TestCase(f"variant_{k}", made, None, Origin.VARIANT) for k, made in enumerate(made, 1)]


def sequence_variants(inputs, count=8):
    """Variants of a design's operation sequences that stay sequences the class defines: the operations kept
    as they are (a changed name or order is no call of the class), every whole number among the arguments one
    larger, one smaller, doubled or negated, and the sequence cut short by its last operation or two. A variant
    a program raises on (a pop from an empty stack) is dropped like any other."""
    seen, per_input = {input_key(given) for given in inputs}, []
    for given in inputs:
        operations, arguments = given.get("operations"), given.get("arguments")
        if not isinstance(operations, list) or not isinstance(arguments, list) or len(operations) != len(arguments):
            continue
        numbers = [lambda n: n + 1, lambda n: n - 1, lambda n: 2 * n, lambda n: -n]
        changed = [{"operations": operations, "arguments": [[_whole(change, a) for a in args] if isinstance(args, list)
                                                            else args for args in arguments]} for change in numbers]
        changed += [{"operations": operations[:-cut], "arguments": arguments[:-cut]} for cut in (1, 2)
                    if len(operations) > cut + 1]
        per_input.append(changed)
    made = []
    for changed in (variant for variants_of in zip(*per_input) for variant in variants_of) if per_input else ():
        if input_key(changed) not in seen and len(made) < count:
            seen.add(input_key(changed))
            made.append(changed)
    return made


def _whole(change, value):
    return change(value) if isinstance(value, int) and not isinstance(value, bool) else value


def shared_properties(inputs, statement):
    """argument name -> the properties its variants keep: sorted, or distinct items, when the statement
    promises that in words ("sorted in ascending order", "guaranteed to have unique elements") and every
    given list has it. Correct programs answer differently where such a promise breaks (HumanEval/109: a
    repeated value); a property only the given inputs share is not kept, as the model's inputs share
    what its code assumes (all sorted, where a two-pointer Two Sum needed them to be)."""
    promised = [holds for holds, words in ((is_sorted, SORTED), (is_distinct, DISTINCT)) if words.search(statement)]
    properties = {}
    for name in {name for given in inputs for name in given}:
        lists = [given[name] for given in inputs if isinstance(given.get(name), list) and len(given[name]) > 1]
        properties[name] = [holds for holds in promised if lists and all(holds(v) for v in lists)]
    return properties


SORTED = re.compile(r"\bsorted\b|ascending|non-?decreasing|increasing order", re.IGNORECASE)
DISTINCT = re.compile(r"\bunique\b|\bdistinct\b", re.IGNORECASE)


def is_sorted(value):
    try:
        return not isinstance(value, list) or value == sorted(value)
    except TypeError:
        return False


def is_distinct(value):
    return not isinstance(value, list) or len({input_key(item) for item in value}) == len(value)


def _near(value, rng):
    """Values of the same type next to `value`: the changes a boundary or a misread rule shows up on."""
    if isinstance(value, bool) or value is None:
        return []  # a flag flipped is another question, not a nearby input
    if isinstance(value, int):
        # the sign kept and zero never reached: "a positive integer" is the commonest worded precondition
        return [v for v in {value + 1, value - 1, value * 2, value // 2} if (v > 0) == (value > 0) and (v < 0) == (value < 0)
                and v != value]
    if isinstance(value, float):
        return [value * 2, value / 2, value + 0.5] if value else [0.5, 1.0]
    if isinstance(value, str):
        if not value:
            return []
        # in a fixed order, not a set's: a set of strings iterates in the process's hash order, and a run
        # repeated with --seed would test other inputs
        near = [value[::-1], value + value[-1], value[1:], value[0] + value]
        if value != value.lower() and value != value.upper():
            # a string that already mixes cases says both are allowed; swapped, letters that were only ever
            # written in one case get the other (HumanEval/93: every given vowel lower case, and of two
            # programs passing every test the one handed over mapped 'A' wrongly: a false success)
            near.append(value.swapcase())
        return [v for v in dict.fromkeys(near) if v != value and v]
    if isinstance(value, list):
        if not value:
            return []
        shuffled = value[:]
        rng.shuffle(shuffled)
        # no item repeated at the end: a second answer where the statement promises one (Two Sum's [3, 2, 4, 3])
        changed = [value[::-1], value[1:] + value[:1], shuffled, value[:-1]]
        at = rng.randrange(len(value))
        changed += [value[:at] + [item] + value[at + 1:] for item in _near(value[at], rng)[:2]]
        return [v for v in changed if v != value and v]  # never empty: see variants
    return []


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: python -m core.variants INPUT_JSON [INPUT_JSON ...]")
    for made in variants([json.loads(arg) for arg in sys.argv[1:]]):
        print(json.dumps(made))
