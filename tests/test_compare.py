"""core/compare.py: the rule that decides whether an actual output matches the expected one."""
import pytest

from core.compare import outputs_match


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
    assert outputs_match([1, 0], [0, 1], any_order=True)
    assert outputs_match([[3, 4], [1.0000000001, 2]], [[1, 2], [3, 4]], any_order=True)
    assert not outputs_match([[2, 1]], [[1, 2]], any_order=True), "only the top level"
    assert not outputs_match([1, 1, 0], [0, 1, 0], any_order=True), "counts matter"
    assert not outputs_match([1, 0], [0, 1]), "order matters unless the statement says otherwise"
