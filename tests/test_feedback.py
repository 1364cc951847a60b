"""core/feedback.py: each kind of failure in one short line that says what the model needs to act."""
from dataclasses import replace

from core.feedback import check_failure, classify, failure_line, trusted_label
from tests.scripted_answers import case

CODE = "def run_code(nums):\n    total = 0\n    return nums[5]\n"
CASE = case("short", {"nums": [1, 2]}, [1, 2, 3])


def result(**fields):
    return {"passed": False, "actual": "", "error_type": None, "message": "", "traceback": "", "timed_out": False,
            **fields}


def test_wrong_answer_says_input_expected_actual_and_where_they_differ():
    line = failure_line(2, CASE, result(actual="[1, 2, 4]"), CODE, 2)
    assert line == ('2. short: run_code(**{"nums": [1, 2]}) returned [1, 2, 4], expected [1, 2, 3] '
                    "(first difference at index 2: 4 instead of 3)")
    assert "(2 items instead of 3)" in failure_line(1, CASE, result(actual="[1, 2]"), CODE, 2)
    assert "(a string instead of a list)" in failure_line(1, CASE, result(actual="'x'"), CODE, 2)
    assert "(first difference at character 1)" in failure_line(1, replace(CASE, expected="abc"), result(actual="'axc'"), CODE, 2)


def test_an_exception_names_the_line_of_the_code_that_raised():
    traceback = ('  File "solution.py", line 3, in run_code\n    return nums[5]\nIndexError: list index out of range')
    failed = result(error_type="IndexError", message="list index out of range", traceback=traceback)
    assert classify(failed) == "exception"
    assert failure_line(1, CASE, failed, CODE, 2).endswith(
        "raised IndexError: list index out of range, at line 3: `return nums[5]`")


def test_a_timeout_states_the_limit_and_the_likely_cause():
    line = failure_line(1, CASE, result(timed_out=True, error_type="Timeout"), CODE, 1.5)
    assert "did not finish within the 1.5 s limit: probably an endless loop, or too slow" in line


def test_trusted_tests_are_marked():
    line = failure_line(1, case("short", {"nums": [1, 2]}, [1, 2, 3], "statement"), result(actual="[]"), CODE, 2)
    assert line.startswith("1. short (from the problem statement): ")


def test_failed_checks_are_said_once_with_their_own_advice():
    imported = result(check="import", error_type="ModuleNotFoundError", message="No module named 'numpy'")
    assert classify(imported) == "import_error"
    assert check_failure(imported, CODE).startswith("The import check failed: ModuleNotFoundError: No module named "
                                                    "'numpy'. That module is not available here; rewrite run_code with the Python "
                                                    "standard library.")
    loading = result(check="execution", error_type="NameError", message="name 'x' is not defined",
                     traceback='  File "solution.py", line 2, in <module>\nNameError')
    assert classify(loading) == "load_error"
    assert check_failure(loading, CODE) == ("The code fails while loading, before any test runs: NameError: "
                                            "name 'x' is not defined, at line 2: `total = 0`")


def test_a_disputed_input_is_an_open_question_unless_the_code_raised_there():
    from core.prompts import classified_results
    disputed = case("pair", {"nums": [3, 3]}, [5, 5], evidence={"source": "disputed", "agree": 0, "voters": 2})
    returned = {"passed": False, "actual": "[1, 0]", "error_type": None, "message": "", "traceback": "",
                "timed_out": False, "counted": False}
    raised = {"passed": False, "actual": "", "error_type": "IndexError", "message": "list index out of range",
              "traceback": "", "timed_out": False, "counted": True}
    assert classified_results([disputed], [returned], "", 1).startswith("No settled test fails, but these inputs are disputed")
    report = classified_results([disputed], [raised], "", 1)
    assert report.startswith("1. pair: run_code(**{\"nums\": [3, 3]}) raised IndexError") and "disputed" not in report


def test_a_variant_is_never_the_models_to_change_and_its_label_says_who_decides_it():
    open_variant = case("variant_1", {"x": 1}, None, "variant", evidence={"source": "disputed", "agree": 0, "voters": 2})
    settled_variant = case("variant_1", {"x": 1}, None, "variant", evidence={"source": "oracle", "agree": 2, "voters": 2})
    assert open_variant.protected and settled_variant.protected
    assert trusted_label(open_variant) == " (a variant input: running programs decide it)"
    assert trusted_label(settled_variant) == " (agreed by running programs)"


def variant_case(k, source):
    return case(f"variant_{k}", {"x": k}, 7 if source == "oracle" else None, "variant",
                evidence={"source": source, "agree": 2, "voters": 2})


def test_variant_failures_are_shown_a_few_at_a_time_and_passing_ones_counted():
    from core.prompts import VARIANT_LINES, classified_results
    cases = [variant_case(k, "oracle") for k in range(1, 8)]
    wrong = {"passed": False, "actual": "8", "error_type": None, "message": "", "traceback": "", "timed_out": False}
    right = {**wrong, "passed": True, "actual": "7"}
    report = classified_results(cases, [wrong] * 5 + [right] * 2, "", 1)
    assert sum(line[0].isdigit() for line in report.splitlines()) == VARIANT_LINES
    assert f"... and {5 - VARIANT_LINES} more variant inputs fail." in report
    assert report.endswith("Tests that pass: 2 variant inputs.")


def test_a_disputed_variant_is_an_open_question_without_a_guess():
    from core.prompts import classified_results
    returned = {"passed": False, "actual": "3", "error_type": None, "message": "", "traceback": "", "timed_out": False,
                "counted": False}
    report = classified_results([variant_case(1, "disputed"), variant_case(2, "unchecked")], [returned] * 2, "", 1)
    assert "1. variant_1: run_code(**{\"x\": 1}) returned 3; the programs disagree here (a variant input: no guess)" in report
    assert "variant_2" not in report and "guess was" not in report, "an unchecked variant is no question"


def test_a_test_left_out_of_the_verdict_is_never_counted_as_passed():
    from core.feedback import passed_count
    results = [{"passed": True, "counted": True}, {"passed": True, "counted": False}, {"passed": False}, {"passed": True}]
    assert passed_count(results) == 2


def test_a_wrong_answer_on_a_value_a_witness_settled_says_who_returned_it():
    witnessed = case("short", {"nums": [1, 2]}, [1, 2, 3], evidence={"source": "witness", "agree": 2, "voters": 2})
    assert ("expected [1, 2, 3] (the one candidate that passes the examples and a program that fails one returned it)"
            in failure_line(1, witnessed, result(actual="[1, 2, 4]"), CODE, 2))
