"""core/problem_kind.py: which family a statement is, the contract its tests run under, and what it refuses."""
import pytest

from core.problem_kind import Contract, Family, ProblemKindError, detect

MAX_DEPTH = """Given the root of a binary tree, return its maximum depth.

Input: root = [3,9,20,null,null,15,7]
Output: 3

Function signature: def max_depth(root: TreeNode[int] | None) -> int"""

REVERSE = """Given the head of a singly linked list, reverse the list, and return the reversed list.

Input: head = [1,2,3,4,5]
Output: [5,4,3,2,1]"""

MIN_STACK = """Design a stack that supports push, pop, top, and retrieving the minimum element in constant time.

Implement the MinStack class:

Input
["MinStack","push","push","push","getMin","pop","top","getMin"]
[[],[-2],[0],[-3],[],[],[],[]]
Output
[null,null,null,null,-3,null,0,-2]"""

MOVE_ZEROES = """Given an integer array nums, move all 0's to the end of it while maintaining the relative order of the
non-zero elements. Do not return anything, modify nums in-place instead.

Input: nums = [0,1,0,3,12]
Output: [1,3,12,0,0]"""

REMOVE_DUPLICATES = """Given an integer array nums sorted in non-decreasing order, remove the duplicates in-place. Then return
the number of unique elements in nums.

Input: nums = [1,1,2]
Output: 2, nums = [1,2,_]

Function signature: def remove_duplicates(nums: list[int]) -> int"""


def test_a_tree_parameter_is_read_from_the_signature_and_an_int_answer_stays_plain():
    assert detect(MAX_DEPTH) == Contract(Family.TREE, trees=("root",))


def test_a_linked_list_without_a_signature_is_read_from_its_list_form_and_its_returned_list():
    assert detect(REVERSE) == Contract(Family.TREE, lists=("head",), returns="list")


def test_a_design_statement_names_the_class_its_operations_start_with():
    assert detect(MIN_STACK) == Contract(Family.DESIGN, design_class="MinStack")


def test_do_not_return_anything_makes_the_modified_argument_the_answer():
    assert detect(MOVE_ZEROES) == Contract(Family.IN_PLACE, in_place="nums")


def test_remove_duplicates_compares_the_returned_k_and_the_first_k_items():
    assert detect(REMOVE_DUPLICATES) == Contract(Family.IN_PLACE, in_place="nums", return_too=True)


def test_a_plain_problem_has_the_plain_contract_and_sends_nothing_to_the_sandbox():
    contract = detect("Given an array of integers nums and an integer target, return indices of the two numbers.")
    assert contract == Contract() and contract.for_sandbox() is None


def test_the_person_may_say_plain_over_the_statements_words():
    assert detect(MIN_STACK, kind="plain") == Contract()


def test_a_named_family_the_statement_does_not_support_is_refused_in_one_line():
    with pytest.raises(ProblemKindError, match="--kind design: the statement names no class"):
        detect(MOVE_ZEROES, kind="design")
    with pytest.raises(ProblemKindError, match="--kind tree"):
        detect(MOVE_ZEROES, kind="tree")


def test_a_list_form_that_does_not_parse_as_a_tree_is_refused():
    with pytest.raises(ProblemKindError, match=r"the list form \[1,,2\] does not parse as a tree"):
        detect("Given the root of a binary tree, return its depth.\n\nInput: root = [1,,2]\nOutput: 2")


def test_a_design_example_whose_operations_and_arguments_differ_in_length_is_refused():
    with pytest.raises(ProblemKindError, match="3 operations but 2 argument lists"):
        detect('Implement the MinStack class.\n\nInput\n["MinStack","push","getMin"]\n[[],[1]]\nOutput\n[null,null,1]')


def test_a_design_class_whose_methods_take_trees_is_refused_as_unsupported():
    statement = ('Implement the BSTIterator class: BSTIterator(TreeNode root) initializes it.\n\nInput\n'
                 '["BSTIterator","next"]\n[[[7,3,15]],[]]\nOutput\n[null,3]')
    with pytest.raises(ProblemKindError, match="not supported"):
        detect(statement)


def test_every_message_is_one_line():
    for statement in ("Input: root = [1,,2] of a binary tree", 'Implement the A class\n["A","b"]\n[[]]\n'):
        with pytest.raises(ProblemKindError) as caught:
            detect(statement)
        assert "\n" not in str(caught.value)


def test_a_plain_problem_is_told_nothing_more_and_each_family_what_its_code_must_do():
    from core.prompts import family_note, problem_context
    assert family_note(detect("Return the sum of nums.")) == ""
    assert problem_context("Sum nums.", family=family_note(Contract())) == problem_context("Sum nums.")
    assert "run_code receives root as a TreeNode" in family_note(detect(MAX_DEPTH))
    assert "run_code returns a ListNode" in family_note(detect(REVERSE))
    assert "write the class MinStack" in family_note(detect(MIN_STACK))
    assert "[k, the first k items of nums]" in family_note(detect(REMOVE_DUPLICATES))


def test_the_node_classes_are_told_in_words_so_no_answer_copies_a_definition_that_does_not_compile():
    # record r79-families-fix: answers copied the note's one-line `class TreeNode:  def __init__(...)`
    from core.prompts import family_note
    note = family_note(detect(MAX_DEPTH))
    assert "class TreeNode" not in note and "def __init__" not in note
    assert "a TreeNode has val, left and right" in note and "a ListNode has val and next" in note


CONTEST = """Print the sum of n integers.

## Input
The first line holds $n$ ($1 \\le n \\le 10^5$), the second the integers.

## Output
One integer.

## Sample Input 1
```
2
1 2
```
## Sample Output 1
```
3
```"""


def test_a_statement_with_input_and_output_sections_and_no_signature_is_a_stdio_problem():
    assert detect(CONTEST).family == Family.STDIO
    assert detect("\\section*{Input}\nOne line with $n$.\n\\section*{Output}\nOutput $n$.").family == Family.STDIO


def test_leetcodes_input_and_output_lines_are_not_sections():
    assert detect("Return the sum of nums.\nExample 1:\nInput: nums = [1,2]\nOutput: 3\n").family == Family.PLAIN
    assert detect(CONTEST + "\n\nFunction signature: def total(nums: List[int]) -> int").family == Family.PLAIN


def test_kind_stdio_makes_any_statement_a_whole_program():
    contract = detect("Read two numbers and print their sum.", kind="stdio")
    assert contract.family == Family.STDIO and contract.solution_name == "" and contract.for_sandbox()["family"] == "stdio"
