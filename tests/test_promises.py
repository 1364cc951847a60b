"""What a statement promises of its inputs (core/checkers.promises), one row per way it says it, and a
promise said in a sentence at work: HumanEval/19's "Valid choices are 'zero', ..." with a model whose
tests write digits (as the embedded model's did in every recorded run), a scripted model over HTTP, the
real sandbox."""
import pytest

from core.checkers import input_promises, promises
from flow import create_flow
from tests.scripted_answers import code_answer, why_dropped

TWO_SUM = ("Return the indices of the two numbers that add up to target.\n\n"
           "You may assume that each input has exactly one solution.")
SORT_WORDS = """Input is a space-delimited string of numberals from 'zero' to 'nine'.
Valid choices are 'zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight' and 'nine'.
Return the string with numbers sorted from smallest to largest
>>> sort_numbers('three one five')
'one three five'

Function signature: def sort_numbers(numbers: str) -> str
"""
DIGITS = "Given a list of strings, where each string consists of only digits, return the number of odd digits in each."
WITH_SECTION = DIGITS + "\n\nConstraints:\n- 1 <= lst.length <= 100\n- each string has at most 9 digits\n"

ROWS = [  # (statement, the promises read from it)
    pytest.param(TWO_SUM, ["You may assume that each input has exactly one solution"], id="you may assume"),
    pytest.param("It is guaranteed that s is a valid roman numeral.", ["It is guaranteed that s is a valid roman numeral"],
                 id="guaranteed"),
    pytest.param(SORT_WORDS, ["Valid choices are 'zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight' "
                              "and 'nine'"], id="valid choices are, in a sentence"),
    pytest.param(DIGITS, ["Given a list of strings, where each string consists of only digits, return the number of odd "
                          "digits in each"], id="consists of only, in a sentence"),
    # a Constraints section says what inputs hold line by line: its words are read, not the sentences
    pytest.param(WITH_SECTION, ["each string has at most 9 digits"], id="a Constraints section instead"),
    pytest.param("Return the sum of nums.\n\nConstraints:\n- nums[i] != nums[i + 1]\n\"\"\"\n",
                 ["nums[i] != nums[i + 1]"], id="a docstring's closing quotes in the section are no promise"),
    pytest.param("Return the sum of nums, which contains only one zero... or none.\n\nConstraints:\n- 1 <= n <= 9\n", [],
                 id="no promise"),
]


@pytest.mark.parametrize("statement, said", ROWS)
def test_each_way_a_statement_promises_something_of_its_inputs_is_read(statement, said):
    assert promises(statement) == said


def test_the_promise_of_one_answer_is_the_checkers_not_the_input_validators():
    assert promises(TWO_SUM) and input_promises(TWO_SUM) == []


WORDS = """def run_code(numbers):
    value = {name: i for i, name in enumerate(
        ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"])}
    return " ".join(sorted(numbers.split(), key=lambda word: value[word]))
"""
BY_INDEX = """NAMES = "zero one two three four five six seven eight nine".split()


def run_code(numbers):
    return " ".join(NAMES[i] for i in sorted(NAMES.index(word) for word in numbers.split()))
"""
CHARACTERS = "def run_code(numbers):\n    return ''.join(sorted(numbers))\n"  # fails the example
VALIDATOR = code_answer("""def is_valid_input(numbers):
    return all(word in ("zero one two three four five six seven eight nine").split() for word in numbers.split())
""")
TESTS = """```yaml
reasoning: digits, a single number, nothing
test_cases:
  - {name: digits, input: {numbers: "3 1 2"}, expected: "1 2 3"}
  - {name: single, input: {numbers: "seven"}, expected: "seven"}
  - {name: empty, input: {numbers: ""}, expected: ""}
```"""


def test_a_test_outside_the_values_a_sentence_allows_is_dropped_and_right_code_is_solved(make_shared, stub):
    stub.route("tests", TESTS)
    stub.route("code", code_answer(WORDS), code_answer(BY_INDEX), code_answer(CHARACTERS))
    stub.route("oracle", code_answer(WORDS))
    stub.route("validator", VALIDATOR)
    shared = make_shared(SORT_WORDS, first_draw=None)  # three candidates at once: the majorities below
    create_flow(shared["services"].settings).run(shared)
    assert shared["status"] == "solved" and shared["iteration"] == 1, shared["message"]
    why = why_dropped(shared)
    assert why.pop("digits") == "broken_promise", "every right program raises on digits: the input breaks the promise"
    assert set(why.values()) <= {"broken_promise", "rejected"} and all(name.startswith("variant_") for name in why), why
    source = {case.name: case.source for case in shared["test_cases"] if case.origin == "model"}
    assert source == {"single": "majority", "empty": "majority"}, source


def test_the_checker_built_on_a_list_of_every_answer_looks_the_output_up_under_its_own_name():
    # one answer promised: the model lists every answer (core/prompts.answers_request) and this shim makes the
    # list a checker (the pairs listed as tuples are the lists a program returns); an input already named
    # `output` moves the output to `returned` (core/checkers.output_name)
    from core.checkers import lister_shim
    from utils.sandbox import run_batch
    code = "def all_answers(output, k):\n    return [(i, i + k) for i in output if i + k in output]\n"
    calls = [{"output": [1, 2, 3], "k": 1, "returned": [1, 2]}, {"output": [1, 2, 3], "k": 1, "returned": [2, 3]},
             {"output": [1, 2, 3], "k": 1, "returned": [1, 3]}, {"output": [1, 2, 3], "k": 1, "returned": None}]
    assert [result["value"] for result in run_batch(code + lister_shim("returned"), calls)] == [True, True, False, False]


def test_the_checker_built_on_a_list_makes_each_inputs_list_once():
    # the checker is called once per output judged, several times an input, in one sandbox process: a list
    # that changed from call to call (here: it grows) shows how often all_answers ran
    from core.checkers import lister_shim
    from utils.sandbox import run_batch
    code = ("made = []\n\n\ndef all_answers(n):\n    made.append(n)\n    return [[n, len(made)]]\n")
    calls = [{"n": 5, "output": [5, 1]}, {"n": 5, "output": [5, 1]}, {"n": 6, "output": [6, 2]},
             {"n": 5, "output": [5, 1]}]
    assert [result["value"] for result in run_batch(code + lister_shim("output"), calls)] == [True, True, True, True]


def test_without_the_validator_setting_no_validator_is_asked_and_the_programs_raising_drop_the_test(make_shared, stub):
    # the bench strategy no-validator (Settings.validator False) measures what the validator is worth: here the
    # programs that pass the example all raise on digits (CHARACTERS, failing it, answers), so it is dropped as
    # outside what they allow, not as a broken promise; with one right program answering there it would stay
    from tests.stub_openai_server import request_kind
    stub.route("tests", TESTS)
    stub.route("code", code_answer(WORDS), code_answer(BY_INDEX), code_answer(CHARACTERS))
    stub.route("oracle", code_answer(WORDS))
    stub.route("validator", VALIDATOR)
    shared = make_shared(SORT_WORDS, first_draw=None, validator=False)
    create_flow(shared["services"].settings).run(shared)
    assert "validator" not in [request_kind(body) for body in stub.requests]
    source = {case.name: case.source for case in shared["test_cases"] if case.origin == "model"}
    assert why_dropped(shared).get("digits") == "rejected" and "digits" not in source, source
