"""core/compare.py: the rule that decides whether an actual output matches the expected one."""
import pytest

from core.compare import Comparison, outputs_match

IN_ANY_ORDER = Comparison(any_order=True)


@pytest.mark.parametrize("actual, expected", [
    ([0, 1], [0, 1]), (0.1 + 0.2, 0.3), (2, 2.0), ({"a": [1.0000000001]}, {"a": [1]}), (None, None), ("x", "x"),
    (True, True),
])
def test_matches(actual, expected):
    assert outputs_match(actual, expected)


@pytest.mark.parametrize("actual, expected", [
    ([1, 0], [0, 1]), (0.31, 0.3), (1, True), (True, 1), (0, False), ("1", 1), ([1], [1, 2]),
    ({"a": 1}, {"a": 1, "b": 2}), (None, 0), ([[1]], [1]),
])
def test_mismatches(actual, expected):
    assert not outputs_match(actual, expected)


def test_in_any_order_compares_the_top_level_list_as_a_multiset():
    assert outputs_match([1, 0], [0, 1], IN_ANY_ORDER)
    assert outputs_match([[3, 4], [1.0000000001, 2]], [[1, 2], [3, 4]], IN_ANY_ORDER)
    assert not outputs_match([[2, 1]], [[1, 2]], IN_ANY_ORDER), "only the top level"
    assert not outputs_match([1, 1, 0], [0, 1, 0], IN_ANY_ORDER), "counts matter"
    assert not outputs_match([1, 0], [0, 1]), "order matters unless the statement says otherwise"


STATED = Comparison(tolerance=1e-5)  # "answers within 10^-5 of the actual answer are accepted"


@pytest.mark.parametrize("actual, expected, within", [
    (0.7327777870686082, 0.73278, True),   # LeetCode 837's Example 3, printed to five places
    (0.7327777870686082, 0.7328, False),   # off by 2.2e-5
    ([0.2357947691, 1.0], [0.23579, 1.0], True),  # inside a list too
    ({"p": 0.2357947691}, {"p": 0.23579}, True),
    (123456.7, 123457.0, True),            # relatively close enough
    (3, 4, False), (True, 1.0, False),     # integers stay exact, booleans stay booleans
])
def test_a_stated_tolerance_makes_numbers_that_close_one_answer(actual, expected, within):
    assert outputs_match(actual, expected, STATED) == within
    if within:
        assert not outputs_match(actual, expected), "the default tolerance alone refuses it"


@pytest.mark.parametrize("printed, expected, tolerance, same", [
    ("6\n", "6", 0.0, True),
    ("1  2\n3\n", "1 2 3\n", 0.0, True),        # whitespace between tokens does not matter
    ("YES\n", "yes\n", 0.0, True),             # nor a letter's case, as Kattis's default judge
    ("1.0\n", "1\n", 0.0, False),              # without a tolerance a number is its text
    ("0.3333333\n", "0.333333333\n", 1e-6, True),
    ("0.334\n", "0.333333333\n", 1e-6, False),
    ("1 2\n", "1 2 3\n", 0.0, False),
    ("nan\n", "nan\n", 1e-6, True),            # equal text before any number
    ("inf\n", "1e309\n", 1e-6, False),
])
def test_printed_texts_compare_token_by_token_with_the_stated_tolerance(printed, expected, tolerance, same):
    assert outputs_match(printed, expected, Comparison(tokens=True, tolerance=tolerance)) is same
