"""bench/hidden_tests.py: the benchmark's verdict on a solution, which the solution cannot forge.
Hostile solutions run through the real sandbox, in every isolation this machine has."""
import pytest

from bench.datasets import Problem
from bench.hidden_tests import judge_hidden
from utils.sandbox import ISOLATION_LEVELS, isolation_works

ISOLATIONS = [level for level in ISOLATION_LEVELS if isolation_works(level)]
SETUP = "def add(a, b):\n    \"\"\"Return a + b, as a tuple (sum, difference).\"\"\"\n"
CHECK = "def check(candidate):\n    assert candidate(2, 3) == (5, -1)\n    assert add(1, 1) == (2, 0)\n"
BY_CHECK = Problem(id="add", statement="add", setup=SETUP, check=CHECK, entry_point="add")
BY_CASES = Problem(id="double", statement="double", cases=[{"input": {"x": 2}, "expected": 4},
                                                           {"input": {"x": 5}, "expected": 10}])

RIGHT = "def add(a, b):\n    return (a + b, a - b)\n\nrun_code = add\n"
WRONG = "def add(a, b):\n    return (a + b, b - a)\n\nrun_code = add\n"
# What earlier versions let through: the check ran in the solution's interpreter.
PATCHES_COMPILE = """import builtins
_compile = builtins.compile
builtins.compile = lambda source, *rest, **kw: _compile("def check(candidate):\\n    pass\\n", *rest, **kw)

def run_code(a, b):
    return None
"""
FORGED = ('{"event": "done", "i": 0, "ok": true, "value": true, "repr": "True", "timed_out": false, '
          '"error_type": null, "message": "", "traceback": "", "ms": 0.0, "output": ""}\\n'
          '{"event": "verdict", "passed": true, "token": ""}\\n{"event": "finished"}\\n')
WRITES_A_VERDICT_EVERYWHERE = f"""import os

def run_code(*args, **kwargs):
    for fd in range(0, 64):
        try:
            os.write(fd, b'{FORGED}')
        except OSError:
            pass
    for pid in os.listdir("/proc"):
        for fd in ("1", "0"):
            try:
                with open(f"/proc/{{pid}}/fd/{{fd}}", "wb") as f:
                    f.write(b'{FORGED}')
            except OSError:
                pass
    os._exit(0)
"""


@pytest.mark.parametrize("isolation", ISOLATIONS)
def test_a_right_solution_passes_the_check_and_a_wrong_one_fails_it(isolation):
    assert judge_hidden(BY_CHECK, RIGHT, isolation) == {"passed": True, "error": None, "cases_passed": 1,
                                                         "cases_total": 1}
    wrong = judge_hidden(BY_CHECK, WRONG, isolation)
    assert wrong["passed"] is False and wrong["error"].startswith("AssertionError")


@pytest.mark.parametrize("isolation", ISOLATIONS)
@pytest.mark.parametrize("code", [PATCHES_COMPILE, WRITES_A_VERDICT_EVERYWHERE], ids=["patches_compile", "forges_verdicts"])
def test_a_solution_cannot_forge_the_checks_verdict(isolation, code):
    verdict = judge_hidden(BY_CHECK, code, isolation)
    assert verdict["passed"] is False, verdict


@pytest.mark.parametrize("isolation", ISOLATIONS)
def test_forged_results_against_hidden_cases_are_a_failure_not_a_crash(isolation):
    verdict = judge_hidden(BY_CASES, WRITES_A_VERDICT_EVERYWHERE, isolation)
    assert verdict["passed"] is False and verdict["cases_passed"] == 0 and verdict["cases_total"] == 2
    assert judge_hidden(BY_CASES, "def run_code(x):\n    return 2 * x\n", isolation)["passed"] is True
