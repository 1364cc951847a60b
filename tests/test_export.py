"""utils/export.py: the exported pytest file passes exactly when the solution is right."""
import subprocess
import sys
from dataclasses import replace

from core.cases import Evidence
from core.compare import Comparison
from core.vocabulary import Source
from tests.scripted_answers import case
from utils.export import write_outputs

CASES = [case("pair", {"nums": [2, 7, 11, 15], "target": 9}, [0, 1]),
         case("float", {"nums": [1], "target": 0}, 0.3),
         case("set_result", {"nums": [3, 1], "target": -1}, [1, 3])]
GOOD = """def run_code(nums, target):
    if target == 0:
        return 0.1 + 0.2
    if target < 0:
        return set(nums)
    nums.append(0)  # mutating the input must not change the test's data
    return (0, 1)
"""


def run_pytest(folder):
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_solution.py"],
                          cwd=folder, capture_output=True, text=True)


def test_the_exported_tests_pass_against_a_correct_solution(tmp_path):
    files = write_outputs(str(tmp_path), GOOD, CASES)
    assert sorted(p.rsplit("/", 1)[1] for p in files) == ["solution.py", "test_solution.py"]
    result = run_pytest(tmp_path)
    assert result.returncode == 0 and "3 passed" in result.stdout, result.stdout


def test_the_exported_tests_fail_against_a_wrong_solution(tmp_path):
    write_outputs(str(tmp_path), GOOD.replace("return (0, 1)", "return (1, 0)"), CASES)
    result = run_pytest(tmp_path)
    assert result.returncode == 1 and "1 failed, 2 passed" in result.stdout, result.stdout


def test_nothing_is_written_without_material(tmp_path):
    assert write_outputs(str(tmp_path), None, []) == []


def test_an_any_order_answer_is_judged_as_the_run_judged_it(tmp_path):
    reordered = GOOD.replace("return (0, 1)", "return (1, 0)")
    write_outputs(str(tmp_path), reordered, CASES, Comparison(any_order=True))
    result = run_pytest(tmp_path)
    assert result.returncode == 0 and "3 passed" in result.stdout, result.stdout


NUMPY_LIKE = """class int64:  # stands for a numpy scalar: same module name, same tolist()
    __module__ = "numpy"

    def __init__(self, value):
        self.value = value

    def tolist(self):
        return self.value


def run_code(nums, target):
    return [int64(0), int64(1)] if target > 0 else int64(0.3) if target == 0 else {1, 3}
"""


def test_numpy_values_are_judged_as_plain_data_in_the_sandbox_and_the_export(tmp_path):
    from utils.sandbox import run_batch
    assert [r["value"] for r in run_batch(NUMPY_LIKE, [test.input for test in CASES])] == [[0, 1], 0.3, [1, 3]]
    write_outputs(str(tmp_path), NUMPY_LIKE, CASES)
    result = run_pytest(tmp_path)
    assert result.returncode == 0 and "3 passed" in result.stdout, result.stdout


def test_disputed_inputs_are_listed_not_tested_and_unchecked_variants_are_left_out(tmp_path):
    from core.expected_values import settle
    model = case("guessed", {"nums": [5], "target": 5}, [9], guess=[9])
    split = case("variant_1", {"nums": [6], "target": 6}, None, "variant")
    lone = case("variant_2", {"nums": [7], "target": 7}, None, "variant")
    tests = [case("pair", CASES[0].input, [0, 1], "statement"), model, split, lone]
    ok = [{"ok": True, "value": [0, 1]}]
    found = settle(tests, {1: ok + [{"ok": True, "value": [1]}, {"ok": True, "value": [1]}, {"ok": True, "value": [3]}]},
                   ok + [{"ok": True, "value": [2]}, {"ok": True, "value": [2]}, None])
    assert [evidence.source for evidence, _ in found] == ["statement", "disputed", "disputed", "unchecked"]
    cases = [test.settled(evidence, expected) for test, (evidence, expected) in zip(tests, found)]
    write_outputs(str(tmp_path), GOOD, cases)
    text = (tmp_path / "test_solution.py").read_text()
    assert "#   guessed: run_code(**{\"nums\": [5], \"target\": 5}); the model guessed [9]" in text
    assert "#   variant_1: run_code(**{\"nums\": [6], \"target\": 6}); a variant of the tests' inputs, no guess" in text
    assert "variant_2" not in text, "a variant one program answered is neither tested nor disputed"
    result = run_pytest(tmp_path)
    assert result.returncode == 0 and "1 passed" in result.stdout, result.stdout
    only_mine = replace(cases[1], evidence=Evidence(Source.UNCHECKED, voters=1))  # core/round_verdict.left_out_lone
    write_outputs(str(tmp_path), GOOD, [cases[0], only_mine])
    text = (tmp_path / "test_solution.py").read_text()
    assert "# Inputs only this code answered, otherwise than the model guessed" in text and "# Disputed" not in text
    assert "#   guessed: run_code(**{\"nums\": [5], \"target\": 5}); the model guessed [9]" in text, "listed, not tested"


def test_an_example_the_code_answers_otherwise_with_no_checker_is_listed_not_tested(tmp_path):
    # Find Peak Element with no usable checker: example 2 gives index 5, the code returns index 1 (also a peak)
    first_peak = "def run_code(nums):\n    return next(i for i in range(len(nums)) if nums[i] > nums[i + 1])\n"
    tests = [case("example_1", {"nums": [1, 2, 3, 1]}, 2, "statement"),
             case("example_2", {"nums": [1, 2, 1, 3, 5, 6, 4]}, 5, "statement")]
    write_outputs(str(tmp_path), first_peak, tests, unjudged=["example_2"])
    text = (tmp_path / "test_solution.py").read_text()
    assert "#   example_2: run_code(**{\"nums\": [1, 2, 1, 3, 5, 6, 4]}); the statement gives 5" in text
    result = run_pytest(tmp_path)
    assert result.returncode == 0 and "1 passed" in result.stdout, result.stdout
