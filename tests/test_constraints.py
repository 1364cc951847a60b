"""core/constraints.py: each form a statement states its constraints in, as the web page shows them and
as they read once pasted (bullets and superscripts lost), one row each."""
import re

import pytest

from core.constraints import violations


def broken(lines, **inputs):
    return violations("Do it.\n\nConstraints:\n" + "\n".join(lines) + "\n", inputs)


FORMS = [  # (the constraint lines, an input that keeps them, an input that breaks them)
    pytest.param(["- 1 <= nums.length <= 10^4"], {"nums": [1]}, {"nums": []}, id="a length, bulleted, 10^4"),
    pytest.param(["1 <= nums.length <= 10<sup>4</sup>"], {"nums": [1]}, {"nums": [0] * 10_001}, id="10<sup>4</sup>"),
    pytest.param(["- -10^9 <= nums[i] <= 10^9"], {"nums": [-10**9]}, {"nums": [-10**9 - 1]}, id="a bullet then a negative bound"),
    pytest.param(["-10^9 <= nums[i] <= 10^9"], {"nums": [-5, 10**9]}, {"nums": [10**9 + 1]}, id="a negative bound without a bullet"),
    pytest.param(["-1000 <= x <= 1000"], {"x": -1000}, {"x": -1001}, id="a plain negative number first"),
    pytest.param(["-2^31 <= x <= 2^31 - 1"], {"x": -2**31}, {"x": 2**31}, id="powers of two"),
    pytest.param(["• 1 <= n, k <= 30"], {"n": 30, "k": 1}, {"n": 31, "k": 1}, id="several names, a bullet dot"),
    pytest.param(["1. 0 <= k <= n <= 2 * 10^4"], {"k": 3, "n": 3}, {"k": 4, "n": 3}, id="a numbered chain, a name as bound"),
    pytest.param(["n == points.length", "1 <= n <= 3"], {"points": [1, 2]}, {"points": []}, id="an alias"),
    pytest.param(["1 <= grid[i][j] <= 9"], {"grid": [[1, 9]]}, {"grid": [[1], [10]]}, id="every element of every element"),
    pytest.param(["1 <= s.length <= 1e5"], {"s": "ab"}, {"s": ""}, id="1e5"),
    # pasted from the web page: the superscript's mark is lost, so 10^4 reads 104, and either reading holds
    pytest.param(["1 <= nums.length <= 104"], {"nums": [0] * 5000}, {"nums": []}, id="pasted 104"),
    pytest.param(["-109 <= nums[i] <= 109"], {"nums": [-10**9, 10**9]}, {"nums": [-10**9 - 1]}, id="pasted -109 .. 109"),
    pytest.param(["1 <= n <= 2 * 104"], {"n": 20_000}, {"n": 20_001}, id="pasted 2 * 104"),
    pytest.param(["-231 <= x <= 231 - 1"], {"x": -2**31}, {"x": 2**31}, id="pasted -231 .. 231 - 1"),
    pytest.param(["1 <= nums[i] <= 106"], {"nums": [10**6]}, {"nums": [0]}, id="pasted 106"),
    pytest.param(["1 <= nums[i] <= 28"], {"nums": [200]}, {"nums": [257]}, id="pasted 2^8 (LeetCode 3011)"),
    pytest.param(["-228 <= nums1[i] <= 228"], {"nums1": [-2**28]}, {"nums1": [2**28 + 1]}, id="pasted -2^28 .. 2^28 (LeetCode 454)"),
    # the promise in words LeetCode states most: a list's items (a string's characters) differ
    pytest.param(["- All the values of nums are unique"], {"nums": [4, 6]}, {"nums": [1, 1, 1, 1]}, id="values of nums unique (952)"),
    pytest.param(["All elements of candidates are distinct"], {"candidates": [2, 3]}, {"candidates": [2, 3, 2]}, id="elements distinct"),
    pytest.param(["nums contains distinct values sorted in ascending order"], {"nums": [1, 2]}, {"nums": [1, 1]},
                 id="contains distinct values"),
    pytest.param(["All the given points are unique"], {"points": [[0, 0], [0, 1]]}, {"points": [[0, 1], [0, 1]]},
                 id="points: items that are lists"),
    pytest.param(["All the characters of jewels are unique"], {"jewels": "aA"}, {"jewels": "aAa"}, id="a string's characters"),
    pytest.param(["All integers in nums1 and nums2 are unique"], {"nums1": [1], "nums2": [2, 3]}, {"nums1": [1], "nums2": [3, 3]},
                 id="two names"),
    pytest.param(["All the values of nums are unique"], {"nums": [None, 1]}, {"nums": [None, None]}, id="an item that is None"),
    pytest.param(["All the strings of wordList are unique"], {"word_list": ["a", "b"]}, {"word_list": ["a", "a"]},
                 id="a name written in camel case"),
    # and the second: they come in order
    pytest.param(["nums is sorted in ascending order"], {"nums": [1, 1, 2]}, {"nums": [1, 3, 2]}, id="sorted, equal neighbours allowed"),
    pytest.param(["numbers is sorted in non-decreasing order"], {"numbers": [-3, 0, 0]}, {"numbers": [0, -3]}, id="non-decreasing"),
    pytest.param(["stones is sorted in a strictly increasing order"], {"stones": [0, 1, 3]}, {"stones": [0, 1, 1]},
                 id="strictly increasing"),
    pytest.param(["days is in strictly increasing order"], {"days": [1, 4]}, {"days": [4, 1]}, id="in strictly increasing order"),
    pytest.param(["nums1 and nums2 both are sorted in non-decreasing order"], {"nums1": [1, 2], "nums2": [1]},
                 {"nums1": [1, 2], "nums2": [2, 1]}, id="two lists sorted"),
    pytest.param(["letters is sorted in non-decreasing order"], {"letters": ["c", "f", "j"]}, {"letters": ["f", "c"]},
                 id="letters in order"),
]


@pytest.mark.parametrize("lines, keeps, breaks", FORMS)
def test_each_stated_form_keeps_an_input_inside_and_names_the_line_an_input_outside_breaks(lines, keeps, breaks):
    assert broken(lines, **keeps) == []
    found = broken(lines, **breaks)
    written = [re.sub(r"<sup>(.*?)</sup>", r"^\1", re.sub(r"^(?:[*•]\s*|-\s+|\d+\.\s+)", "", line)) for line in lines]
    assert found and any(f"the line `{line}`" in found[0].text and found[0].line == line for line in written), found


def test_what_cannot_be_read_exactly_is_not_checked():
    assert broken(["- nums[i] != nums[i + 1]", "- 1 <= k <= the length of nums", "- All the values are unique."],
                  nums=[1, 1], k=99) == []
    # an item's or a pair's promise, or one about a single value, is the input validator's (core/checkers.py)
    assert broken(["All the values of graph[u] are unique", "All the pairs (ui, vi) are distinct",
                   "The largest element in nums is unique", "The input is generated such that the answer is unique",
                   "nums[i] is sorted in ascending order", "intervals is sorted by starti in ascending order",
                   "nums is sorted and rotated between 1 and n times"],
                  graph=[[1, 1]], nums=[5, 5, 1], edges=[[0, 1], [0, 1]], intervals=[[3, 4], [1, 2]]) == []
    assert broken(["nums is sorted in ascending order"], nums=[[1], "a"]) == [], "items that do not compare: not read"
    assert violations("No constraints here: 1 <= n <= 3", {"n": 9}) == []


def test_elements_paired_by_a_shared_index_are_a_promise_not_checked_element_by_element():
    from core.constraints import unread_lines
    matrix = [[1, 1, 0], [1, 1, 0], [0, 0, 1]]  # LeetCode 547's Example 1: symmetric, ones on the diagonal
    lines = ["n == isConnected.length", "isConnected[i][j] is 1 or 0", "isConnected[i][i] == 1",
             "isConnected[i][j] == isConnected[j][i]"]
    assert broken(lines, is_connected=matrix) == []
    jobs = ["1 <= startTime.length == endTime.length <= 5 * 10^4", "1 <= startTime[i] < endTime[i] <= 10^9"]
    assert broken(jobs, start_time=[1, 5], end_time=[3, 6]) == [], "5 < 3 pairs two jobs' times, not one job's"
    assert broken(jobs, start_time=[0, 5], end_time=[3, 6]) != [], "the line's other bounds are still checked"
    statement = "Do it.\n\nConstraints:\n" + "\n".join(lines + jobs) + "\n"
    assert unread_lines(statement) == lines[1:] + jobs[1:], "for an input validator to check"
    assert broken(["workers[i].length == bikes[j].length == 2"], workers=[[0, 0]], bikes=[[1]]) != [], \
        "indices that differ are every element against every element, as before"


def test_a_line_the_statements_own_example_breaks_is_not_checked():
    # LeetCode 1376: the head has no manager (-1), which "0 <= manager[i] < n" read alone forbids
    statement = """Return the minutes needed to inform all employees.

Example 1:
Input: n = 2, headID = 0, manager = [-1,0], informTime = [1,0]
Output: 1

Constraints:
- 1 <= n <= 10^5
- 0 <= headID < n
- manager.length == n
- 0 <= manager[i] < n
- manager[headID] == -1
"""
    assert violations(statement, {"n": 3, "head_id": 1, "manager": [1, -1, 1], "inform_time": [0, 2, 0]}) == []
    assert [v.line for v in violations(statement, {"n": 0, "head_id": 0, "manager": [], "inform_time": []})] == \
        ["1 <= n <= 10^5", "0 <= headID < n"], "the lines the examples keep are still checked"


def test_a_promise_of_distinct_items_the_statements_own_example_breaks_is_not_checked():
    # as any line an example breaks: read alone it does not say what the statement means
    statement = "Count.\n\nExample 1:\nInput: nums = [3,3]\nOutput: 1\n\nConstraints:\n- All the values of nums are unique\n"
    assert violations(statement, {"nums": [2, 2]}) == []
    assert violations(statement.replace("[3,3]", "[3,4]"), {"nums": [2, 2]}) != []


def test_a_lost_superscript_alone_never_drops_an_input_the_power_would_keep():
    assert broken(["1 <= n <= 105"], n=50_000) == [], "105 may be 10^5"
    assert broken(["1 <= n <= 100"], n=101) != [], "100 is no lost power: it is checked as it reads"


def test_a_name_the_statement_gives_to_a_place_of_every_element_is_read_as_that_place():
    from core.constraints import unread_lines
    # LeetCode 743, as the page shows it and as it reads pasted: w_i is times[i][2]
    for sub in ("<sub>i</sub>", "i"):
        statement = (f"times[i] = (u{sub}, v{sub}, w{sub}) is a directed edge taking w{sub} to travel.\n\n"
                     f"Constraints:\n- 1 <= k <= n <= 100\n- 1 <= u{sub}, v{sub} <= n\n- u{sub} != v{sub}\n"
                     f"- 0 <= w{sub} <= 100\n")
        assert violations(statement, {"times": [[2, 1, 0], [2, 3, 100]], "n": 3, "k": 2}) == []
        assert [v.text for v in violations(statement, {"times": [[2, 1, -1]], "n": 2, "k": 2})] == \
            ["0 <= times[i][2] does not hold (0 <= -1; the line `0 <= wi <= 100`)"]
        assert [v.line for v in violations(statement, {"times": [[2, 4, 1]], "n": 3, "k": 2})] == ["1 <= ui, vi <= n"]
        assert unread_lines(statement) == ["ui != vi"], "words and != stay the input validator's"


def test_two_places_of_one_element_are_a_promise_and_names_without_the_index_are_not_read():
    from core.constraints import unread_lines
    statement = ("intervals[i] = [start_i, end_i]\n\nConstraints:\n- 0 <= start_i <= end_i <= 10^4\n")
    assert violations(statement, {"intervals": [[1, 3], [6, 9]]}) == []
    assert violations(statement, {"intervals": [[6, 9], [1, 3]]}) == [], "one interval's start against another's end"
    assert [v.line for v in violations(statement, {"intervals": [[-1, 3]]})] == ["0 <= start_i <= end_i <= 10^4"]
    assert unread_lines(statement) == ["0 <= start_i <= end_i <= 10^4"], "start_i <= end_i: for the input validator"
    plain = "edges[i] = [a, b]\n\nConstraints:\n- 0 <= a, b < 5\n"
    assert violations(plain, {"edges": [[7, 9]]}) == [], "a and b carry no index: not read as places"
