"""Test cases written and checked by codeloop for solution.py. Run: pytest test_solution.py"""
import copy
import importlib.util
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location("solution", Path(__file__).with_name("solution.py"))
solution = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(solution)


def plain(value):
    """What codeloop's sandbox sends back: tuples as lists, sets as sorted lists, numpy values as lists and numbers."""
    if type(value).__module__ == "numpy" and hasattr(value, "tolist"):
        return plain(value.tolist())
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, (set, frozenset)):
        items = [plain(v) for v in value]
        try:
            return sorted(items)
        except TypeError:
            return sorted(items, key=repr)
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    return value



# The comparison rule codeloop used (its utils/compare.py)
import json
import math

REL_TOL = 1e-6
ABS_TOL = 1e-9


def outputs_match(actual, expected, any_order=False):
    if any_order and isinstance(actual, list) and isinstance(expected, list):
        actual, expected = sorted(actual, key=_order_key), sorted(expected, key=_order_key)
    if isinstance(actual, bool) or isinstance(expected, bool):
        return isinstance(actual, bool) and isinstance(expected, bool) and actual == expected
    if isinstance(actual, (int, float)) and isinstance(expected, (int, float)):
        if isinstance(actual, float) or isinstance(expected, float):
            return math.isclose(actual, expected, rel_tol=REL_TOL, abs_tol=ABS_TOL)
        return actual == expected
    if isinstance(actual, list) and isinstance(expected, list):
        return len(actual) == len(expected) and all(map(outputs_match, actual, expected))
    if isinstance(actual, dict) and isinstance(expected, dict):
        return actual.keys() == expected.keys() and all(outputs_match(actual[k], expected[k]) for k in actual)
    return type(actual) is type(expected) and actual == expected


def _order_key(value):
    return json.dumps(value, sort_keys=True)


def judge(result, expected, any_order=False):
    """A sandbox result (utils/sandbox.run_batch) and the verdict on it against `expected`."""
    return {"passed": bool(result["ok"]) and outputs_match(result["value"], expected, any_order),
            "actual": result["repr"], "error_type": result["error_type"], "message": result["message"],
            "traceback": result["traceback"], "timed_out": result["timed_out"], "ms": result["ms"],
            "output": result["output"]}


# True when the statement says the answer may come in any order
ANY_ORDER = False

CASES = [
    # from the problem statement
    pytest.param({'arr': [111, 21, 3, 4000, 5, 6, 7, 8, 9], 'k': 4}, 24, id='example_1'),
    # agreed by 3 of 3 candidates
    pytest.param({'arr': [1, 2, 3, 4, 5], 'k': 5}, 15, id='edge_case_1'),
    # agreed by 3 of 3 candidates
    pytest.param({'arr': [100, 200, 300, 400, 500], 'k': 5}, 0, id='edge_case_2'),
    # agreed by 3 of 3 candidates
    pytest.param({'arr': [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 'k': 10}, 55, id='edge_case_3'),
    # agreed by 3 of 3 candidates
    pytest.param({'arr': [10, 20, 30, 40, 50, 60, 70, 80, 90, 100], 'k': 10}, 450, id='edge_case_4'),
    # agreed by 3 of 3 candidates
    pytest.param({'arr': [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20], 'k': 20}, 210, id='edge_case_5'),
    # agreed by 3 of 3 candidates
    pytest.param({'arr': [111, 21, 3, 4000, 5, 6, 7, 9, 9], 'k': 4}, 24, id='variant_1'),
    # agreed by 3 of 3 candidates
    pytest.param({'arr': [1, 2, 3, 4, 5], 'k': 2}, 3, id='variant_2'),
    # agreed by 3 of 3 candidates
    pytest.param({'arr': [30, 60, 20, 70, 80, 10, 100, 50, 40, 90], 'k': 10}, 450, id='variant_5'),
    # agreed by 3 of 3 candidates
    pytest.param({'arr': [1, 2, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20], 'k': 20}, 209, id='variant_6'),
    # agreed by 3 of 3 candidates
    pytest.param({'arr': [111, 21, 3, 4000, 5, 6, 7, 8], 'k': 4}, 24, id='variant_7'),
    # agreed by 3 of 3 candidates
    pytest.param({'arr': [1, 2, 3, 4, 5], 'k': 4}, 10, id='variant_8'),
    # agreed by 3 of 3 candidates
    pytest.param({'arr': [500, 400, 300, 200, 100], 'k': 5}, 0, id='variant_9'),
    # agreed by 3 of 3 candidates
    pytest.param({'arr': [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 1], 'k': 20}, 210, id='variant_12'),
    # agreed by 3 of 3 candidates
    pytest.param({'arr': [8, 6, 21, 4000, 5, 3, 111, 9, 7], 'k': 4}, 35, id='variant_13'),
    # agreed by 3 of 3 candidates
    pytest.param({'arr': [2, 3, 4, 5, 1], 'k': 5}, 15, id='variant_14'),
    # agreed by 3 of 3 candidates
    pytest.param({'arr': [100, 200, 300, 400, 500], 'k': 2}, 0, id='variant_15'),
    # agreed by 3 of 3 candidates
    pytest.param({'arr': [2, 3, 4, 5, 6, 7, 8, 9, 10, 1], 'k': 10}, 55, id='variant_16'),
]


@pytest.mark.parametrize("kwargs, expected", CASES)
def test_run_code(kwargs, expected):
    assert outputs_match(plain(solution.run_code(**copy.deepcopy(kwargs))), expected, any_order=ANY_ORDER)
