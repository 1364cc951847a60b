"""core/statement_examples.py: worked examples read as trusted tests, in each layout, without guessing."""
from core.cases import records
from core.statement_examples import statement_examples


def inputs_and_expected(text):
    return [(case.input, case.expected) for case in statement_examples(text)]


def test_leetcode_layout_on_one_line_or_two_with_json_literals():
    text = """Example 1:
**Input:** nums = [2,7,11,15], target = 9
**Output:** [0,1]
Example 2: Input: s = "a, b", flag = true Output: null"""
    assert inputs_and_expected(text) == [({"nums": [2, 7, 11, 15], "target": 9}, [0, 1]),
                                         ({"s": "a, b", "flag": True}, None)]
    assert all(case.origin == "statement" for case in statement_examples(text))
    assert [case.name for case in statement_examples(text)] == ["example_1", "example_2"]


def test_spaces_inside_an_examples_strings_are_kept_and_an_input_may_span_lines():
    # LeetCode 794 and 8: a board of three-character rows, a number after spaces. Read with each run of spaces
    # made one, as before, the board's rows were one or two characters long and a right program failed it
    text = """Example 1:
Input: board = ["O  ","   ","   "]
Output: false
Example 2:
Input: s = "   -042"
Output: -42
Example 3:
Input: grid = [[1, 2],
               [3, 4]], k = 2
Output: 10"""
    assert inputs_and_expected(text) == [({"board": ["O  ", "   ", "   "]}, False), ({"s": "   -042"}, -42),
                                         ({"grid": [[1, 2], [3, 4]], "k": 2}, 10)]


def test_doctest_and_arrow_calls_are_named_by_the_signature():
    text = """Return the sum of a and b times c.
>>> mul_add(1, 2)
3
>>> mul_add(1, 2, c=3)
9
mul_add(0, 5) ==> 5
mul_add(2, 2) ➞ 4.
Function signature: def mul_add(a, b, c=1)"""
    assert inputs_and_expected(text) == [({"a": 1, "b": 2}, 3), ({"a": 1, "b": 2, "c": 3}, 9),
                                         ({"a": 0, "b": 5}, 5), ({"a": 2, "b": 2}, 4)]


def test_what_cannot_be_read_exactly_is_left_out():
    text = """def f(a, b):
f(1) == 2
f(1, 2, 3) == 6
f(x) == 1
f({1, 2}, 3) == 3
Input: a = 1, b = 2
Output: 3 (because 1 + 2)
f(3, 4) == 7"""
    assert inputs_and_expected(text) == [({"a": 3, "b": 4}, 7)], "missing, extra, unknown and non-JSON arguments"


def test_no_signature_means_only_named_inputs():
    assert inputs_and_expected("sum_two(1, 2) == 3") == []
    assert inputs_and_expected("Input: x = 1\nOutput: 2") == [({"x": 1}, 2)]


def test_a_statement_with_several_right_answers_keeps_its_examples_whose_outputs_a_checker_must_accept():
    text = "Input: s = \"tree\"\nOutput: \"eert\"\nIf there are multiple answers, return any of them."
    assert inputs_and_expected(text) == [({"s": "tree"}, "eert")]


def test_the_same_input_twice_is_one_test_and_markup_inside_values_is_kept():
    text = 'Input: s = "l*****e"\nOutput: "a**b"\nInput: s = "l*****e"\nOutput: "a**b"'
    assert inputs_and_expected(text) == [({"s": "l*****e"}, "a**b")]


def test_arguments_by_name_and_an_arrow_are_an_example():
    from pathlib import Path
    import json
    problem = json.loads(Path(__file__).resolve().parent.parent.joinpath("examples", "bench_problems.jsonl")
                         .read_text().splitlines()[1])
    statement = problem["statement"] + "\n\nFunction signature: " + problem["signature"]
    assert records(statement_examples(statement)) == [{"name": "example_1", "input": {"nums": [2, 1, 5]},
                                              "expected": [2, 1.5, 2], "origin": "statement"}]
    assert records(statement_examples("Add them.\n- a = 1, b = 2 → 3\nThe rule y = f(x) -> y is not an example")) == [
        {"name": "example_1", "input": {"a": 1, "b": 2}, "expected": 3, "origin": "statement"}]


def test_the_function_is_the_one_the_examples_call_not_a_helper_shown_after_it():
    text = """Find the shortest palindrome that begins with a supplied string.
>>> make_palindrome('cat')
'catac'
Function signature: def make_palindrome(string: str) -> str
Code given with the problem:
def is_palindrome(string: str) -> bool:
    return string == string[::-1]"""
    assert inputs_and_expected(text) == [({"string": "cat"}, "catac")]


def test_comment_arrows_and_working_shown_before_the_value():
    text = """fruit(\"5 apples\", 19) ->19 - 5 = 14
to_bin(15)   # returns "db1111db"
Function signature: def fruit(s, n)"""
    assert inputs_and_expected(text) == [({"s": "5 apples", "n": 19}, 14)], "to_bin is not the signature"
    assert inputs_and_expected("to_bin(15)   # returns \"db1111db\"\ndef to_bin(decimal)") == [({"decimal": 15}, "db1111db")]


def test_prose_examples_the_output_or_result_should_be():
    text = """For lst = [1,2,3] the output should be 14.
For lst = [], c = "ae", the result should be ('bcd',False)
For lst = [150], the sum of digits will be 6 the output should be "110".
def f(lst, c=None)"""
    assert inputs_and_expected(text) == [({"lst": [1, 2, 3]}, 14), ({"lst": [], "c": "ae"}, ["bcd", False])], \
        "the sentence's full stop is not part of 14; working between input and output is not read"


def test_a_single_equals_sign_counts_only_when_every_value_has_one_type():
    assert inputs_and_expected("choose(12, 15) = 14\nchoose(13, 12) = -1\ndef choose(x, y)") == \
        [({"x": 12, "y": 15}, 14), ({"x": 13, "y": 12}, -1)]
    definitions = """tri(2) = 1 + (2 / 2) = 2
tri(4) = 3
Examples: tri(3) = [1, 3, 2, 8]
def tri(n)"""
    assert inputs_and_expected(definitions) == [], "a term of the sequence is not what the function returns"


def test_camel_case_argument_names_are_the_signatures_snake_case_parameters():
    # LeetCode statements name arguments as its Java signature does; the Python signature is snake_case
    text = """Example 1:
Input: n = 10, k = 1, maxPts = 10
Output: 1.00000

Function signature: def new21_game(n: int, k: int, max_pts: int) -> float"""
    assert inputs_and_expected(text) == [({"n": 10, "k": 1, "max_pts": 10}, 1.0)]


def test_an_argument_name_two_parameters_could_stand_for_is_left_out():
    text = """Input: maxPts = 10
Output: 1
def f(max_pts=0, maxpts=0):"""
    assert inputs_and_expected(text) == [], "both parameters are optional: only the ambiguity leaves it out"
    assert inputs_and_expected(text.replace(", maxpts=0", "")) == [({"max_pts": 10}, 1)]


def test_an_assignment_then_return_with_working_lines_between():
    # HumanEval/105's layout; its examples unread, two candidates agreeing on digits outvoted the names
    text = """For example:
  arr = [2, 1, 1]
        -> sort arr -> [1, 1, 2]
        -> reverse arr -> [2, 1, 1]
  return ["Two", "One", "One"]

  If the array is empty, return an empty array:
  arr = []
  return []
  arr = [1, -1]
  return = ['One']
  total = 3
  this line is no return
  return 3
Function signature: def by_length(arr)"""
    assert inputs_and_expected(text) == [({"arr": [2, 1, 1]}, ["Two", "One", "One"]), ({"arr": []}, []),
                                         ({"arr": [1, -1]}, ["One"])]


def test_a_design_statement_yields_its_whole_operation_sequence_as_one_test():
    from core.problem_kind import detect
    statement = ('Implement the MinStack class.\n\nInput\n["MinStack","push","getMin"]\n[[],[-2],[]]\n\nOutput\n'
                 '[null,null,-2]')
    assert [(case.input, case.expected) for case in statement_examples(statement, detect(statement))] == [
        ({"operations": ["MinStack", "push", "getMin"], "arguments": [[], [-2], []]}, [None, None, -2])]


def test_an_in_place_example_with_a_returned_k_yields_k_and_the_first_k_items():
    from core.problem_kind import detect
    statement = ("Remove the duplicates in-place, then return the number of unique elements in nums.\n\n"
                 "Input: nums = [1,1,2]\nOutput: 2, nums = [1,2,_]\n\nFunction signature: def f(nums: list[int]) -> int")
    assert [(case.input, case.expected) for case in statement_examples(statement, detect(statement))] == [
        ({"nums": [1, 1, 2]}, [2, [1, 2]])]
