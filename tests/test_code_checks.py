"""utils/code_checks.py: the import check and the execution check, in the real sandbox."""
from utils.code_checks import check_code, import_lines


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
