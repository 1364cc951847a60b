"""Every family of LeetCode problem through the real CLI (main.py in a subprocess, a scripted model on the stub
server, the real sandbox): a tree, a linked list, a class design and an in-place answer are each solved, and each
exported test_solution.py passes with the right code and fails with a wrong one under plain pytest; a statement
of a family codeloop cannot run ends with one line, exit 2, nothing written."""
import json
import subprocess
import sys

import pytest

from tests.test_main import codeloop

MAX_DEPTH = """Maximum Depth of Binary Tree

Given the root of a binary tree, return its maximum depth: the number of nodes along the longest path from the
root node down to the farthest leaf node.

Example 1:
Input: root = [3,9,20,null,null,15,7]
Output: 3

Example 2:
Input: root = [1,null,2]
Output: 2

Constraints:
The number of nodes in the tree is in the range [0, 10^4].

Function signature: def max_depth(root: TreeNode[int] | None) -> int"""

MAX_DEPTH_CODE = """```python
def run_code(root: Optional[TreeNode]) -> int:
    if root is None:
        return 0
    return 1 + max(run_code(root.left), run_code(root.right))
```"""

MAX_DEPTH_ORACLE = """```python
def run_code(root):
    depth, level = 0, [root] if root else []
    while level:
        depth += 1
        level = [child for node in level for child in (node.left, node.right) if child]
    return depth
```"""

MAX_DEPTH_WRONG = "def run_code(root):\n    return 1 if root else 0\n"

REVERSE = """Reverse Linked List

Given the head of a singly linked list, reverse the list, and return the reversed list.

Example 1:
Input: head = [1,2,3,4,5]
Output: [5,4,3,2,1]

Example 2:
Input: head = [1,2]
Output: [2,1]

Constraints:
The number of nodes in the list is in the range [0, 5000]."""

REVERSE_CODE = """```python
def run_code(head):
    previous = None
    while head:
        head.next, previous, head = previous, head, head.next
    return previous
```"""

REVERSE_ORACLE = """```python
def run_code(head):
    values = []
    while head:
        values.append(head.val)
        head = head.next
    result = None
    for value in values:
        result = ListNode(value, result)
    return result
```"""

REVERSE_WRONG = "def run_code(head):\n    return head\n"

MIN_STACK = """Min Stack

Design a stack that supports push, pop, top, and retrieving the minimum element in constant time.

Implement the MinStack class:
- MinStack() initializes the stack object.
- void push(int val) pushes the element val onto the stack.
- void pop() removes the element on the top of the stack.
- int top() gets the top element of the stack.
- int getMin() retrieves the minimum element in the stack.

Example 1:
Input
["MinStack","push","push","push","getMin","pop","top","getMin"]
[[],[-2],[0],[-3],[],[],[],[]]

Output
[null,null,null,null,-3,null,0,-2]"""

MIN_STACK_CODE = """```python
class MinStack:
    def __init__(self):
        self.items = []

    def push(self, val):
        self.items.append((val, min(val, self.items[-1][1]) if self.items else val))

    def pop(self):
        self.items.pop()

    def top(self):
        return self.items[-1][0]

    def getMin(self):
        return self.items[-1][1]
```"""

MIN_STACK_ORACLE = """```python
class MinStack:
    def __init__(self):
        self.items = []

    def push(self, val):
        self.items.append(val)

    def pop(self):
        self.items.pop()

    def top(self):
        return self.items[-1]

    def getMin(self):
        return min(self.items)
```"""

MIN_STACK_WRONG = MIN_STACK_ORACLE.strip("`").replace("python\n", "", 1).replace("min(self.items)", "max(self.items)")

MIN_STACK_TESTS = """```yaml
reasoning: A push after a pop, and equal values.
test_cases:
  - name: min_returns_after_pop
    input: {operations: ["MinStack", "push", "push", "getMin", "pop", "getMin"], arguments: [[], [3], [1], [], [], []]}
    expected: [null, null, null, 1, null, 3]
  - name: equal_values
    input: {operations: ["MinStack", "push", "push", "pop", "getMin", "top"], arguments: [[], [2], [2], [], [], []]}
    expected: [null, null, null, null, 2, 2]
```"""

MOVE_ZEROES = """Move Zeroes

Given an integer array nums, move all 0's to the end of it while maintaining the relative order of the
non-zero elements. Do not return anything, modify nums in-place instead.

Example 1:
Input: nums = [0,1,0,3,12]
Output: [1,3,12,0,0]

Example 2:
Input: nums = [0]
Output: [0]

Constraints:
1 <= nums.length <= 10^4"""

MOVE_ZEROES_CODE = """```python
def run_code(nums):
    write = 0
    for value in nums:
        if value != 0:
            nums[write] = value
            write += 1
    for i in range(write, len(nums)):
        nums[i] = 0
```"""

MOVE_ZEROES_ORACLE = """```python
def run_code(nums):
    kept = [value for value in nums if value != 0]
    nums[:] = kept + [0] * (len(nums) - len(kept))
```"""

MOVE_ZEROES_WRONG = "def run_code(nums):\n    return sorted(nums, key=lambda n: n == 0)\n"

FAMILIES = {
    "tree": (MAX_DEPTH, MAX_DEPTH_CODE, MAX_DEPTH_ORACLE, MAX_DEPTH_WRONG, None),
    "linked-list": (REVERSE, REVERSE_CODE, REVERSE_ORACLE, REVERSE_WRONG, None),
    "design": (MIN_STACK, MIN_STACK_CODE, MIN_STACK_ORACLE, MIN_STACK_WRONG, MIN_STACK_TESTS),
    "in-place": (MOVE_ZEROES, MOVE_ZEROES_CODE, MOVE_ZEROES_ORACLE, MOVE_ZEROES_WRONG, None),
}


def exported_pytest(folder):
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_solution.py"],
                          cwd=folder, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("family", FAMILIES)
def test_each_family_is_solved_and_its_exported_tests_judge_the_code_under_plain_pytest(family, stub, tmp_path):
    statement, code, oracle, wrong, tests = FAMILIES[family]
    stub.route("code", code, code, code, code, code, code)
    stub.route("oracle", oracle)
    stub.route("tests", *([tests] if tests else []))
    out = tmp_path / "run"
    result = codeloop(statement, "--out", str(out), stub=stub)
    assert result.returncode == 0, result.stderr
    record = json.loads((out / "run.json").read_text())
    assert record["status"] == "solved"
    kinds = [event for event in record["events"] if event["kind"] == "problem_kind"]
    assert kinds[0]["family"] == ("tree" if family == "linked-list" else family), "the record says how the code was called"
    passing = exported_pytest(out)
    assert passing.returncode == 0 and " passed" in passing.stdout, passing.stdout + passing.stderr
    (out / "solution.py").write_text(wrong)
    failing = exported_pytest(out)
    assert failing.returncode == 1 and " failed" in failing.stdout, failing.stdout + failing.stderr


def test_the_design_problem_is_told_to_write_its_class_and_the_plain_prompt_is_not_told_of_families(stub, tmp_path):
    stub.route("code", *[MIN_STACK_CODE] * 6)
    stub.route("oracle", MIN_STACK_ORACLE)
    stub.route("tests", MIN_STACK_TESTS)
    codeloop(MIN_STACK, "--out", str(tmp_path / "run"), stub=stub)
    system = stub.requests[0]["messages"][0]["content"]
    assert "write the class MinStack" in system and "TreeNode" not in system


@pytest.mark.parametrize("statement, says", [
    ("Given the root of a binary tree, return its depth.\n\nInput: root = [1,,2]\nOutput: 2",
     "the list form [1,,2] does not parse as a tree"),
    ('Implement the MinStack class.\n\nInput\n["MinStack","push","getMin"]\n[[],[1]]\nOutput\n[null,null,1]',
     "the design example has 3 operations but 2 argument lists"),
])
def test_a_statement_codeloop_cannot_run_ends_in_one_line_exit_2_and_writes_nothing(statement, says, stub, tmp_path):
    out = tmp_path / "run"
    result = codeloop(statement, "--out", str(out), stub=stub)
    assert result.returncode == 2 and says in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and not out.exists() and not stub.requests


def test_kind_says_the_family_where_the_statement_does_not(stub, tmp_path):
    result = codeloop(MOVE_ZEROES, "--kind", "design", "--out", str(tmp_path / "run"), stub=stub)
    assert result.returncode == 2 and "--kind design: the statement names no class" in result.stderr
