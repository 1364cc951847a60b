"""Decide whether what run_code returned matches a test's expected output.

Runs in the parent, on plain data the sandbox sent back (lists, dicts, numbers, strings, booleans,
None). Numbers compare with a tolerance when either side is a float; a boolean only equals a
boolean (True is not 1 here, though Python says it is); tuples already arrived as lists. How else
outputs compare is the problem's Comparison (from its output kind, core/output_kind.py): when the
statement says the answer may come "in any order", the returned list's items are compared as a
multiset (its top level only: [[1, 2]] still differs from [[2, 1]]); when it says answers "within
10^-5 of the actual answer are accepted", floats that close are the same answer (its examples print
the answer rounded: LeetCode 837's 0.73278 is 0.7327777..., which the default tolerance refused).
`judge` turns one sandbox result into a test's verdict; the expected value never leaves this process.
The exported pytest file embeds this file's code (utils/export.py), so it judges exactly as the run did;
keep this file self-contained: standard library only.
"""
import json
import math
from dataclasses import dataclass

REL_TOL = 1e-6
ABS_TOL = 1e-9


@dataclass(frozen=True)
class Comparison:
    any_order: bool = False  # the top-level list is a multiset
    tolerance: float = 0.0   # the statement's own: floats this close (absolutely or relatively) are one answer
    tokens: bool = False     # printed texts (a stdio problem): token by token, as a contest's default judge


EXACT = Comparison()


def outputs_match(actual, expected, comparison=EXACT):
    if comparison.tokens and isinstance(actual, str) and isinstance(expected, str):
        return texts_match(actual, expected, comparison.tolerance)
    if comparison.any_order and isinstance(actual, list) and isinstance(expected, list):
        actual, expected = sorted(actual, key=_order_key), sorted(expected, key=_order_key)
    inner = Comparison(tolerance=comparison.tolerance)  # "any order" is the top level's alone
    if isinstance(actual, bool) or isinstance(expected, bool):
        return isinstance(actual, bool) and isinstance(expected, bool) and actual == expected
    if isinstance(actual, (int, float)) and isinstance(expected, (int, float)):
        if isinstance(actual, float) or isinstance(expected, float):
            return math.isclose(actual, expected, rel_tol=max(REL_TOL, comparison.tolerance),
                                abs_tol=max(ABS_TOL, comparison.tolerance))
        return actual == expected
    if isinstance(actual, list) and isinstance(expected, list):
        return len(actual) == len(expected) and all(outputs_match(a, e, inner) for a, e in zip(actual, expected))
    if isinstance(actual, dict) and isinstance(expected, dict):
        return actual.keys() == expected.keys() and all(outputs_match(actual[k], expected[k], inner) for k in actual)
    return type(actual) is type(expected) and actual == expected


def texts_match(printed, expected, tolerance=0.0):
    """Two printed texts as Kattis's and Codeforces' default judges read them: the same tokens whatever the
    whitespace between them, letters in either case; with a tolerance, two numbers within it (absolutely or
    relatively) are one token, and without one "1.0" is not "1"."""
    got, want = printed.split(), expected.split()
    if len(got) != len(want):
        return False
    for a, e in zip(got, want):
        if a.lower() == e.lower():
            continue
        if not tolerance:
            return False
        try:
            x, y = float(a), float(e)
        except ValueError:
            return False
        if not (math.isfinite(x) and math.isfinite(y)) or abs(x - y) > tolerance * max(1.0, abs(y)):
            return False
    return True


def _order_key(value):
    return json.dumps(value, sort_keys=True)


def judge(result, expected, comparison=EXACT):
    """A sandbox result (utils/sandbox.run_batch) and the verdict on it against `expected`."""
    return {"passed": bool(result["ok"]) and outputs_match(result["value"], expected, comparison),
            "actual": result["repr"], "error_type": result["error_type"], "message": result["message"],
            "traceback": result["traceback"], "timed_out": result["timed_out"], "ms": result["ms"],
            "output": result["output"]}
