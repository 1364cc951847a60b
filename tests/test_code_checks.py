"""utils/code_checks.py: the signature check, the import check and the execution check, in the real sandbox."""
import pytest

from utils.code_checks import check_code, import_lines, unnamed_parameters


def test_a_missing_module_fails_the_import_check():
    failure = check_code("import numpy as np\ndef run_code(x):\n    return x\n")
    assert failure["check"] == "import" and failure["error_type"] == "ModuleNotFoundError"


def test_module_level_code_that_raises_fails_the_execution_check():
    failure = check_code("import math\nvalue = math.sqrt(-1)\ndef run_code(x):\n    return x\n")
    assert failure["check"] == "execution" and failure["error_type"] == "ValueError"


def test_good_code_passes_both_and_run_code_is_not_called():
    assert check_code("from typing import List\ndef run_code(x: List[int]):\n    raise RuntimeError\n") is None


def test_guarded_and_relative_imports_are_not_checked():
    code = "try:\n    import numpy\nexcept ImportError:\n    numpy = None\nfrom . import x\nimport json\n"
    assert import_lines(code) == "import json"


@pytest.mark.parametrize("code, unnamed", [
    ("def run_code(**params):\n    return params['n']\n", "**params"),
    ("def run_code(*args, **kwargs):\n    return 0\n", "*args and **kwargs"),
    ("def solve(**p):\n    return 0\n\n\nrun_code = solve  # the answer named its function solve\n", "**p"),
    ("def run_code(n, k, target):\n    return 0\n", ""),
    ("def run_code(n, **more):\n    return 0\n", ""),
    ("def run_code(\n", ""),  # the execution check reports a syntax error
], ids=["kwargs", "args-and-kwargs", "bound-by-repair", "named", "named-and-more", "syntax-error"])
def test_a_solution_must_name_its_parameters(code, unnamed):
    assert unnamed_parameters(code) == unnamed
    failure = check_code(code, solution=True)
    if unnamed:
        assert failure["check"] == "signature" and unnamed in failure["message"]
    else:
        assert failure is None or failure["check"] != "signature"


def test_a_judge_keeps_codeloops_own_keyword_shim():
    from core.checkers import CHECKER_SHIM
    assert check_code("def is_valid(nums, output):\n    return True\n" + CHECKER_SHIM) is None
