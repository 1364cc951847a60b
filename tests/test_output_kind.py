"""core/output_kind.py: the kind of answer a statement's words give, one row per way it is said."""
import pytest

from core.output_kind import chosen, output_kind

KINDS = [
    ("You may return the answer in **any order**.", "unordered"),
    ("You can return the answer in any order.", "unordered"),
    ("Return the indices in increasing order.", "exact"),
    ("Notice that the order of the output and the order of the triplets does not matter.", "unordered"),  # 3Sum
    ("The order of the answer doesn't matter.", "unordered"),
    ("The order of the input does not matter.", "exact"),
    ("The accounts themselves can be returned in any order.", "unordered"),  # LeetCode 721
    ("You can order the deck in any order you want. Return an ordering of the deck.", "exact"),  # LeetCode 950
    ("Rearrange the elements of arr to be in any order. Return the maximum value.", "exact"),
    ("The input is not given in any order.", "exact"),  # LeetCode 593, Valid Square: the input's order
    ("The edges are given in any order. Return the nodes sorted.", "exact"),
    ("If the array contains multiple peaks, return the index to **any of the peaks**.", "any_valid"),
    ("Your function can return either index number 1 or index number 5.", "any_valid"),
    ("If there are multiple answers, return *any of them*.", "any_valid"),
    ("If there are multiple answers, you may return any one of them.", "any_valid"),
    ("Given the integer n, return any **beautiful** array nums of length n.", "any_valid"),
    ('Output: "bab"  Explanation: "aba" is also a valid answer.', "any_valid"),
    ("Output: [9,4]  Explanation: [4,9] is also accepted.", "any_valid"),
    ("Any valid answer that sorts the array within 10 * arr.length flips will be judged as correct.", "any_valid"),
    ("Answers within 10^-5 of the actual answer will be accepted.", "float"),
    ("Answers within 10-5 of the actual answer are considered accepted.", "float"),  # pasted: the ^ lost
    ("If there are multiple answers, return the lexicographically smallest.", "exact"),
    ("If there are multiple answers, return the answer that occurs last in the input.", "exact"),
    ("In one step, you can walk in any of the four directions.", "exact"),
    ("you can move to any of the neighbor cells", "exact"),
    ("Count All Valid Pickup and Delivery Options", "exact"),
]


@pytest.mark.parametrize("statement, kind", KINDS, ids=[statement[:50] for statement, _ in KINDS])
def test_the_statements_words_give_the_kind(statement, kind):
    found = output_kind(statement)
    assert found.kind == kind and found.by == "statement"
    if kind != "exact":
        assert found.reason.startswith('the statement says "')


def test_the_person_may_say_it_instead():
    assert chosen("any", "Return the sum.").kind == "any_valid" and chosen("any", "x").by == "user"
    assert chosen(None, "Return any of them.").kind == "any_valid"
    assert chosen("exact", "Return any of them.").kind == "exact"


@pytest.mark.parametrize("statement, tolerance", [
    ("Answers within 10^-5 of the actual answer will be accepted.", 1e-5),
    ("Answers within `10-5` of the actual answer are considered accepted.", 1e-5),  # pasted: the ^ lost
    ("Answers within 10<sup>-6</sup> of the actual answer are accepted.", 1e-6),
    ("Answers within 10 ^ -2 of the correct answer are accepted.", 1e-2),
    ("Return the sum.", 0.0),
])
def test_a_stated_tolerance_is_how_close_two_numbers_must_be(statement, tolerance):
    found = output_kind(statement)
    assert found.tolerance == tolerance and found.comparison.tolerance == tolerance
    assert found.record().get("tolerance") == (tolerance or None), "run.json keeps a float answer's tolerance"


def test_the_person_saying_float_takes_the_statements_tolerance_or_ten_to_the_minus_five():
    assert chosen("float", "Answers within 10^-6 of the actual answer are accepted.").tolerance == 1e-6
    assert chosen("float", "Return the average.").tolerance == 1e-5
    assert chosen("exact", "Answers within 10^-6 of the actual answer are accepted.").tolerance == 0.0
