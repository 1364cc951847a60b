"""Write the run's deliverables: solution.py (the final run_code) and test_solution.py (a pytest file),
each atomically (utils/text_files.write_atomically).

The pytest file stands alone: it loads solution.py from its own folder and judges with the same rule
as the run, because it carries the source of core/compare.py itself (it must not import codeloop); for a
tree, design or in-place problem it carries the sandbox runner's codec too (utils/sandbox_runner.py, between
its "codec" marks), so its tests stay in list form and are called as the run called them.
Note that pytest runs the solution in the pytest process, without codeloop's sandbox; a stdio problem's program
(PROGRAM_HEAD) runs as `python solution.py` in a subprocess per test, its printed text compared token by token.
"""
import json
import os
import pprint
from pathlib import Path

from core import compare
from core.expected_values import describe
from core.checkers import checker_source, output_name
from core.vocabulary import Source
from utils.text_files import write_atomically

# core/compare.py without its module docstring: its imports, tolerances and outputs_match()
COMPARISON_RULE = Path(compare.__file__).read_text().split('"""', 2)[2].strip() + "\n"

# utils/sandbox_runner.py's codec: TreeNode, ListNode, building and reading them, a design's replay, contract_call
CODEC = Path(__file__).with_name("sandbox_runner.py").read_text().split("# --- codec: begin")[1].split("# --- codec: end")[0]
CODEC = CODEC.split("\n", 1)[1].strip() + "\n"

TEST_FILE_HEAD = '''"""Test cases written and checked by codeloop for solution.py. Run: pytest test_solution.py"""
import copy
import importlib.util
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location("solution", Path(__file__).with_name("solution.py"))
solution = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(solution)


def plain(value):
    """What codeloop's sandbox sends back: tuples as lists, sets as sorted lists, numpy values as lists and numbers."""
    if type(value).__module__ == "numpy" and hasattr(value, "tolist"):
        return plain(value.tolist())
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, (set, frozenset)):
        items = [plain(v) for v in value]
        try:
            return sorted(items)
        except TypeError:
            return sorted(items, key=repr)
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    return value


'''

TEST_FILE_TAIL = '''

@pytest.mark.parametrize("kwargs, expected", CASES)
def test_run_code(kwargs, expected):
    assert outputs_match(plain(solution.run_code(**copy.deepcopy(kwargs))), expected, Comparison(ANY_ORDER, TOLERANCE))
'''


CHECKED_TAIL = '''

# Several answers are right: the run judged each output with this checker, and so does this file
_checker = {}
exec(CHECKER_SOURCE, _checker)


@pytest.mark.parametrize("kwargs, expected", CASES)
def test_run_code(kwargs, expected):
    output = plain(solution.run_code(**copy.deepcopy(kwargs)))
    assert bool(_checker["is_valid"](**copy.deepcopy(kwargs), **{OUTPUT_NAME: output})), f"rejected: {output!r}"
'''


LOAD_SOLUTION = """_spec = importlib.util.spec_from_file_location("solution", Path(__file__).with_name("solution.py"))
solution = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(solution)
"""

FAMILY_TAIL = '''

@pytest.mark.parametrize("kwargs, expected", CASES)
def test_run_code(kwargs, expected):
    function = contract_function(vars(solution), CONTRACT)
    output = plain(contract_call(function, (), copy.deepcopy(kwargs), CONTRACT))
    assert outputs_match(output, expected, Comparison(ANY_ORDER, TOLERANCE))
'''


PROGRAM_HEAD = '''"""Test cases written and checked by codeloop for solution.py, a program reading standard input.
Run: pytest test_solution.py (each test runs `python solution.py` with its input on standard input)"""
import subprocess
import sys
from pathlib import Path

import pytest

SOLUTION = Path(__file__).with_name("solution.py")
TIME_LIMIT_S = 60  # per test: generous, as the machine running pytest may be slower than codeloop's
'''

PROGRAM_TAIL = '''

@pytest.mark.parametrize("given, expected", CASES)
def test_solution(given, expected):
    ran = subprocess.run([sys.executable, str(SOLUTION)], input=given["stdin"], capture_output=True, text=True,
                         timeout=TIME_LIMIT_S)
    assert ran.returncode == 0, f"solution.py exited with status {ran.returncode}: {ran.stderr[-2000:]}"
    assert outputs_match(ran.stdout, expected, Comparison(tolerance=TOLERANCE, tokens=True)), \\
        f"printed {ran.stdout[:500]!r}, expected {expected[:500]!r}"
'''


def family_head(contract):
    """TEST_FILE_HEAD for a tree, design or in-place problem: the codec, then solution.py loaded with the names
    the sandbox gives such code (TreeNode, ListNode, List, Optional)."""
    loading = LOAD_SOLUTION.replace("_spec.loader.exec_module", "solution.__dict__.update(TreeNode=TreeNode, "
                                    "ListNode=ListNode, List=List, Optional=Optional)\n_spec.loader.exec_module")
    return TEST_FILE_HEAD.replace("from pathlib import Path\n", "from pathlib import Path\nfrom typing import List, Optional\n") \
        .replace(LOAD_SOLUTION, f"# The contract of this {contract['family']} problem, and codeloop's codec "
                 "(its utils/sandbox_runner.py)\n"
                 f"CONTRACT = {contract!r}\n\n\n{CODEC}\n\n{loading}")


def pytest_source(test_cases, comparison=compare.EXACT, checker=None, unjudged=(), by_equality=False, contract=None):
    """The tests as a pytest file: the tests the verdict counted, each under a comment saying where its
    expected value came from; disputed inputs, and those only the code answered (Verdict.lone), are listed in
    comments, not tested. With a checker (several right answers) the file carries its source and judges each
    output with it: `expected` is one right answer.
    `unjudged`: names of examples whose given answer is one of several right ones, where the code returns
    another and no checker could judge it: listed in a comment, not tested. `by_equality`: several answers
    are right and no checker judged them, which the file says at its head. `contract`: Contract.for_sandbox() of
    a tree, design or in-place problem, whose codec the file carries."""
    counted = [case for case in test_cases if case.counted and case.name not in unjudged]
    disputed = [case for case in test_cases if case.source == Source.DISPUTED]
    lone = [case for case in test_cases if case.lone]
    cases = "\n".join((f"    # {describe(case.evidence)}\n" if case.evidence else "") +
                      f"    pytest.param({pprint.pformat(case.input, width=10**6)}, "
                      f"{pprint.pformat(case.expected, width=10**6)}, id={case.name!r}),"
                      for case in counted)
    for listed, heading in ((disputed, "Disputed inputs (the programs disagreed, so they were left out of the verdict)"),
                            (lone, "Inputs only this code answered, otherwise than the model guessed (left out of the "
                                   "verdict; independent programs back it on the others)")):
        if listed:
            cases += f"\n    # {heading}:\n" + "\n".join(
                f"    #   {case.name}: run_code(**{json.dumps(case.input)}); {_guessed(case)}" for case in listed)
    if unjudged:
        cases += ("\n    # Several answers are right and no checker could judge them; the code returns another answer"
                  " than these examples give:\n" + "\n".join(f"    #   {case.name}: run_code(**{json.dumps(case.input)}); the "
                  f"statement gives {json.dumps(case.expected)}" for case in test_cases if case.name in unjudged))
    program = bool(contract) and contract["family"] == "stdio"  # a whole program, run as `python solution.py < input`
    head = ((PROGRAM_HEAD if program else family_head(contract) if contract else TEST_FILE_HEAD)
            + "\n# The comparison rule codeloop used (its core/compare.py)\n" + COMPARISON_RULE
            + f"\n\n# True when the statement says the answer may come in any order\nANY_ORDER = {comparison.any_order}\n"
            + f"# How close two floats must be to be one answer, as the statement says (0: the rule's own tolerance)\n"
            f"TOLERANCE = {comparison.tolerance!r}\n")
    if by_equality and not checker:
        head += ("\n# Several answers are right, and no checker passed codeloop's checks: each expected value is the"
                 "\n# answer the statement gives or independent programs agreed on, compared by equality, so another"
                 "\n# right program may fail a test here. Give a checker (codeloop --checker FILE) to judge any answer.\n")
    if checker:
        head += (f"\n# The checker: is_valid(<the inputs>, {output_name(test_cases)}) is True for a right output\n"
                 f"CHECKER_SOURCE = {checker_source(checker)!r}\nOUTPUT_NAME = {output_name(test_cases)!r}\n")
    tail = CHECKED_TAIL if checker else PROGRAM_TAIL if program else FAMILY_TAIL if contract else TEST_FILE_TAIL
    return head + f"\nCASES = [\n{cases}\n]\n" + tail


def _guessed(case):
    if case.is_variant:
        return "a variant of the tests' inputs, no guess"
    return f"the model guessed {json.dumps(case.expected)}"


def write_outputs(out_dir, function_code, test_cases, comparison=compare.EXACT, checker=None, unjudged=(), by_equality=False,
                  contract=None):
    """Write whichever of the two files the run has material for; return the paths written. `checker`: the
    checker's code, when the run judged outputs with one; `unjudged`, `by_equality`, `contract`: as pytest_source
    takes them."""
    written = []
    if function_code:
        written.append(_write(os.path.join(out_dir, "solution.py"), function_code))
    if test_cases:
        written.append(_write(os.path.join(out_dir, "test_solution.py"),
                              pytest_source(test_cases, comparison, checker, unjudged, by_equality, contract)))
    return written


def _write(path, text):
    write_atomically(path, text)
    return path
