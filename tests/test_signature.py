"""core/signature.py: which tests cannot fit the function they test, read from the statement or the code."""
import pytest

from core.cases import TestCase
from core.signature import first_misfit, of_code, of_statement
from core.statement_examples import statement_examples
from core.vocabulary import Origin


def cases(*inputs):
    return [TestCase(f"t{n}", given, 0, Origin.USER) for n, given in enumerate(inputs, 1)]


@pytest.mark.parametrize("statement, inputs, misfit", [
    ("Write def add(a, b).", [{"a": 1, "b": 2}], ""),
    ("Write def add(a, b).", [{"a": 1, "b": 2}, {"a": 1, "c": 2}], "test t2 names c, which the statement's add(a, b) lacks"),
    ("Write def add(a, b=0).", [{"a": 1}], ""),
    ("Write def add(a, b=0).", [{"b": 1}], "test t1 misses a, which the statement's add(a, b=0) needs"),
    ("class Solution:\n    def twoSum(self, nums: List[int], target: int) -> List[int]:",
     [{"nums": [1], "target": 1}], ""),
    ("class Solution:\n    def twoSum(self, nums: List[int], target: int) -> List[int]:",
     [{"self": 1, "nums": [1], "target": 1}], "test t1 names self, which the statement's twoSum(nums, target) lacks"),
    ("Write def f(x, *, scale).", [{"x": 1}], "test t1 misses scale, which the statement's f(x, *, scale) needs"),
    ("Write def f(**options).", [{"anything": 1}], ""),
    ("Input: nums = [1,2], k = 1\nOutput: 2\n", [{"nums": [1], "k": 1}], ""),
    ("Input: nums = [1,2], k = 1\nOutput: 2\n", [{"nums": [1], "K": 1}],
     "test t1 names K, which run_code(k, nums) (as the statement's examples call it) lacks"),
    ("Return the sum of nums.", [{"whatever": 1}], ""),  # no signature, no example: nothing to check against
])
def test_a_test_fits_the_statements_function_or_is_named_with_what_is_wrong(statement, inputs, misfit):
    signature = of_statement(statement, statement_examples(statement))
    assert first_misfit(cases(*inputs), signature) == misfit


@pytest.mark.parametrize("code, inputs, misfit", [
    ("def run_code(nums, target):\n    return 0\n", {"nums": [1], "target": 2}, ""),
    ("def run_code(nums, target):\n    return 0\n", {"nums": [1]}, "test t1 misses target, which the code's run_code(nums, target) needs"),
    ("def run_code(a, /, b):\n    return 0\n", {"a": 1, "b": 2}, "test t1 names a, which the code's run_code(a, /, b) lacks"),
    ("def run_code(*values):\n    return 0\n", {"x": 1}, "test t1 names x, which the code's run_code(*values) lacks"),
    ("import os\n", {"x": 1}, ""),  # no run_code: the caller refuses that itself
])
def test_a_test_fits_the_codes_run_code_as_the_sandbox_calls_it_by_keyword(code, inputs, misfit):
    assert first_misfit(cases(inputs), of_code(code)) == misfit
