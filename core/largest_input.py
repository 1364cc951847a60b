"""The statement's largest input, for a claim's check on time alone.

Every test a run writes is small, so a right but exponential program passes them all: LeetCode 96 ("1 <= n
<= 19", the number of binary search trees) was claimed solved twice by a plain recursion that takes
minutes at n = 19, where the hidden tests time out (docs/journal/2026-11.md). Judges test at the stated bounds.
When every argument of run_code is an integer and each has an upper bound in the Constraints section
(core/constraints.py), each is set to its bound: a number (the smaller reading when a superscript was
lost, `104` read as 104 rather than 10^4, so the input is within the bounds either way), or another
argument's value (`0 <= k <= n <= 10^4`: n = 10^4, then k = 10^4); a strict bound one less. The input
must keep every stated constraint, else there is none. Lists and strings are left alone: a list at its
largest length needs items, and items chosen without the statement's promises in words ("exactly one
solution", sorted) may send a right program down a path no real input takes.

Run alone:  python -m core.largest_input STATEMENT_FILE '{"n": 3}'
"""
import json
import sys

from core.constraints import Bound, Name, constraints, normal_name, violations

TOO_SLOW = "too slow at the stated bounds"  # what a claim lacks when no version passes the speed check (a lack, as in core/round_verdict.py)
UPPER = {"<=": False, "≤": False, "<": True}  # left <= right; the value: strict bounds one less
LOWER = {">=": False, "≥": False, ">": True}  # left >= right: the right side is bounded above by the left


def largest_input(statement, example):
    """run_code's arguments (names and types as in `example`, one input of the run) each at its largest stated
    value, or None when an argument is not an integer, has no upper bound read, or the result breaks a
    constraint."""
    if not example or not all(isinstance(value, int) and not isinstance(value, bool) for value in example.values()):
        return None
    names = {normal_name(name): name for name in example}
    bounds = {}  # normalised name -> [(Bound or Name, strict)]
    for constraint in constraints(statement):
        if constraint.op in UPPER:
            small, big, strict = constraint.left, constraint.right, UPPER[constraint.op]
        elif constraint.op in LOWER:
            small, big, strict = constraint.right, constraint.left, LOWER[constraint.op]
        else:
            continue
        if _plain(small) and small.name in names:
            bounds.setdefault(small.name, []).append((big, strict))
    values = {}
    for _ in names:  # a bound that is another argument waits for that argument's value
        for name in names.keys() - values.keys():
            limits = [_limit(big, strict, values) for big, strict in bounds.get(name, [])]
            if limits and None not in limits:
                values[name] = min(limits)
    if values.keys() != names.keys():
        return None
    made = {names[name]: value for name, value in values.items()}
    return None if violations(statement, made) else made


def _plain(term):
    return isinstance(term, Name) and not term.depth and not term.length


def _limit(big, strict, values):
    """The largest value `big` allows, or None while it is an argument without a value yet (or not an argument)."""
    if isinstance(big, Bound):
        return int(big.lo) - strict
    if _plain(big) and big.name in values:
        return values[big.name] - strict
    return None


def shown(made):
    """The input as the terminal shows it: n = 19, k = 30."""
    return ", ".join(f"{name} = {value}" for name, value in made.items())


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: python -m core.largest_input STATEMENT_FILE INPUT_JSON")
    with open(sys.argv[1], encoding="utf-8") as f:
        found = largest_input(f.read(), json.loads(sys.argv[2]))
    print(json.dumps(found) if found is not None else "no largest input: an argument is not an integer or has no bound")
