"""Feedback on failed tests, one short line per failure, worded for the kind of failure.

On a small local model the prompt's length is the main cost of a call, and a wall of tracebacks buries
the one fact that matters. So each failure is classified and said in the fewest words that let the
model act (the kinds, after PromptingTools' AICode feedback):

  import_error   the code imports a module that is not there: use the standard library
  load_error     the code fails while loading, before any test (the execution check)
  exception      type, message and the line of run_code that raised
  timeout        the limit, and the likely cause (an endless loop, or too slow)
  wrong_answer   input, expected, actual, and where they first differ

("no code found" and "syntax error, line and caret" are said when an answer is parsed: utils/yaml_answer.py.)
"""
import ast
import json

from core.vocabulary import Origin, Source

CODE_FILE = "solution.py"  # the file name the sandbox gives the code in tracebacks


def classify(result):
    if result["passed"]:
        return "passed"
    if result.get("check") == "import":
        return "import_error"
    if result.get("check") in ("execution", "signature"):
        return "load_error"
    if result["timed_out"]:
        return "timeout"
    if result["error_type"]:
        return "exception"
    return "wrong_answer"


def failure_line(number, case, result, code, test_timeout):
    """`number. name: what went wrong`, for a failed test; trusted tests are marked as such."""
    kind = classify(result)
    call = f"run_code(**{compact(case.input)})"
    head = f"{number}. {case.name}{trusted_label(case)}: "
    if kind == "timeout":
        return (head + f"{call} did not finish within the {test_timeout:g} s limit: probably an endless "
                "loop, or too slow for this input")
    if kind == "exception":
        return head + f"{call} raised {result['error_type']}: {result['message'][:160]}{offending_line(result, code)}"
    return (head + f"{call} returned {result['actual'][:160]}, expected {compact(case.expected)}{who_agreed(case)}"
            f"{difference(case.expected, result)}")


def check_failure(result, code):
    """What the signature, import or execution check found, said once instead of once per test."""
    error = f"{result['error_type']}: {result['message'][:200]}"
    if result.get("check") == "signature":
        return (f"The signature check failed: {result['message']}. Write def run_code(<the parameters of the "
                "problem's function, by name>); callers pass them by position as well as by keyword.")
    if result.get("check") == "import":
        return (f"The import check failed: {error}. That module is not available here; "
                "rewrite run_code with the Python standard library.")
    return f"The code fails while loading, before any test runs: {error}{offending_line(result, code)}"


def offending_line(result, code):
    """', at line N: `source`' for the deepest frame of the traceback that is in the code, else ''."""
    number = None
    for line in (result.get("traceback") or "").splitlines():
        line = line.strip()
        if line.startswith(f'File "{CODE_FILE}", line '):
            number = int(line.split(", line ")[1].split(",")[0])
    lines = (code or "").splitlines()
    if number is None or not 1 <= number <= len(lines):
        return ""
    return f", at line {number}: `{lines[number - 1].strip()[:120]}`"


def difference(expected, result):
    """Where a wrong answer first differs from the expected one, when that is short to say."""
    try:
        actual = ast.literal_eval(result["actual"]) if result["actual"] else None  # a repr from the sandbox
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return ""
    if isinstance(expected, list) and isinstance(actual, list):
        if len(expected) != len(actual):
            return f" ({len(actual)} items instead of {len(expected)})"
        for i, (want, got) in enumerate(zip(expected, actual)):
            if want != got:
                return f" (first difference at index {i}: {compact(got, 60)} instead of {compact(want, 60)})"
    if isinstance(expected, str) and isinstance(actual, str):
        i = next((i for i, (a, b) in enumerate(zip(expected, actual)) if a != b), min(len(expected), len(actual)))
        return f" (first difference at character {i})"
    if type(expected) is not type(actual) and not (_number(expected) and _number(actual)):
        return f" (a {_kind(actual)} instead of a {_kind(expected)})"
    return ""


def is_counted(case, result=None):
    """A test the verdict counts: every test, unless execution left its expected value disputed; a result's
    own flag (core/round_verdict.py) says so for one attempt: raising on a disputed input counts against it."""
    if result is not None and "counted" in result:
        return result["counted"]
    return case.counted


def passed_count(results):
    """Tests passed among those the verdict counts: a test left out (disputed, or a variant one program
    answered) is never "passed", though an unsettled variant's expected None matches code returning None."""
    return sum(result["passed"] and result.get("counted", True) for result in results)


def trusted_label(case):
    """How prompts mark a test the model may not change ("" for the model's own guesses)."""
    if case.trusted:
        return {Origin.STATEMENT: " (from the problem statement)", Origin.USER: " (from the user)"}[case.origin]
    if case.agreed:
        return " (agreed by running programs)"
    return " (a variant input: running programs decide it)" if case.protected else ""


def who_agreed(case):
    """For a wrong answer: who says the expected value is right, when programs settled it."""
    evidence = case.evidence
    if evidence and evidence.source == Source.ORACLE:
        return f" (the oracle and {evidence.agree - 1} of {evidence.voters - 1} candidates returned it)"
    if evidence and evidence.source == Source.MAJORITY:
        return f" ({evidence.agree} of {evidence.voters} candidates returned it)"
    if evidence and evidence.source == Source.WITNESS:
        return " (the one candidate that passes the examples and a program that fails one returned it)"
    return ""


def compact(value, limit=200):
    text = json.dumps(value, separators=(", ", ": "))
    return text if len(text) <= limit else text[:limit] + " ...(cut)"


def _number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _kind(value):
    return {dict: "mapping", list: "list", str: "string", bool: "boolean", type(None): "null"}.get(
        type(value), "number" if _number(value) else type(value).__name__)
