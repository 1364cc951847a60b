"""utils/user_tests.py: the person's own tests, from YAML, JSON or a pytest file that is read but never run."""
import json

import pytest

from utils.export import pytest_source
from utils.text_files import InputError
from core.cases import records
from core.compare import Comparison
from tests.scripted_answers import case as case_from
from utils.user_tests import MAX_CASES, UserTestsError, read_user_tests

TWO_SUM = {"nums": [2, 7, 11, 15], "target": 9}


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_a_yaml_list_of_cases(tmp_path):
    path = write(tmp_path, "mine.yaml", """
- name: Pair at the start!
  input: {nums: [2, 7, 11, 15], target: 9}
  expected: [0, 1]
- input: {nums: [3, 3], target: 6}
  expected: [0, 1]
""")
    assert records(read_user_tests(path)) == [
        {"name": "pair_at_the_start", "input": TWO_SUM, "expected": [0, 1], "origin": "user"},
        {"name": "user_2", "input": {"nums": [3, 3], "target": 6}, "expected": [0, 1], "origin": "user"}]


@pytest.mark.parametrize("key", ["tests", "test_cases"])
def test_a_mapping_holding_the_list(tmp_path, key):
    path = write(tmp_path, "mine.yml", f"{key}:\n  - input: {{s: abc}}\n    expected: cba\n")
    assert records(read_user_tests(path)) == [{"name": "user_1", "input": {"s": "abc"}, "expected": "cba", "origin": "user"}]


def test_json_is_read_as_yaml_whatever_the_file_is_called(tmp_path):
    cases = {"tests": [{"name": "none", "input": {"x": None, "flag": True}, "expected": {"1": 2.5}}]}
    path = write(tmp_path, "cases.txt", json.dumps(cases))
    assert records(read_user_tests(path)) == [{**cases["tests"][0], "origin": "user"}]


def test_names_are_made_unique(tmp_path):
    path = write(tmp_path, "mine.yaml", """
- {name: same, input: {a: 1}, expected: 1}
- {name: Same, input: {a: 2}, expected: 2}
- {name: user_4, input: {a: 3}, expected: 3}
- {input: {a: 4}, expected: 4}
""")
    assert [case.name for case in read_user_tests(path)] == ["same", "same_2", "user_4", "user_4_2"]


def test_an_empty_list_is_no_tests_not_an_error(tmp_path):
    assert read_user_tests(write(tmp_path, "none.yaml", "tests: []\n")) == []
    assert read_user_tests(write(tmp_path, "none.py", "CASES = []\n")) == []


def test_a_pytest_file_in_each_case_shape(tmp_path):
    path = write(tmp_path, "test_mine.py", """
import pytest
from pytest import param

TEST_CASES = [
    pytest.param({"nums": [2, 7, 11, 15], "target": 9}, [0, 1], id="pair"),
    param({"nums": (-1, 1)}, None),
    {"name": "as dict", "input": {"nums": []}, "expected": -1.5},
    ({"nums": [0]}, {"k": (1, 2)}),
]

@pytest.mark.parametrize("kwargs, expected", TEST_CASES)
def test_it(kwargs, expected):
    assert False
""")
    assert records(read_user_tests(path)) == [
        {"name": "pair", "input": TWO_SUM, "expected": [0, 1], "origin": "user"},
        {"name": "user_2", "input": {"nums": [-1, 1]}, "expected": None, "origin": "user"},
        {"name": "as_dict", "input": {"nums": []}, "expected": -1.5, "origin": "user"},
        {"name": "user_4", "input": {"nums": [0]}, "expected": {"k": [1, 2]}, "origin": "user"}]


def test_a_runs_exported_test_file_reads_back_as_the_same_tests(tmp_path):
    cases = [{"name": "pair", "input": TWO_SUM, "expected": [0, 1]},
             {"name": "example_1", "input": {"s": "ünï\"'\n", "n": -3}, "expected": 0.1 + 0.2},
             {"name": "nested", "input": {"grid": [[1, None], [True, False]], "opts": {"k": "v"}},
              "expected": {"a": [1, {"b": None}]}},
             {"name": "empty", "input": {}, "expected": ""}]
    path = write(tmp_path, "test_solution.py", pytest_source([case_from(**c) for c in cases], Comparison(any_order=True)))
    assert records(read_user_tests(path)) == [{**case, "origin": "user"} for case in cases]


def test_an_exported_file_with_a_stated_tolerance_reads_back_as_a_float_answer(tmp_path):
    from utils.user_tests import read_user_file
    path = write(tmp_path, "test_solution.py", pytest_source([case_from("ex", {"n": 21}, 0.73278)], Comparison(tolerance=1e-5)))
    assert read_user_file(path).output_kind == "float"
    exact = write(tmp_path, "test_exact.py", pytest_source([case_from("ex", {"n": 21}, 0.73278)]))
    assert read_user_file(exact).output_kind is None


def test_a_pytest_file_is_never_run(tmp_path):
    marker = tmp_path / "ran.txt"
    path = write(tmp_path, "test_evil.py", f"""
open({str(marker)!r}, "w").write("imported")
CASES = [({{"a": 1}}, 1)]
if __name__ == "__main__":
    open({str(marker)!r}, "w").write("run")
""")
    assert records(read_user_tests(path)) == [{"name": "user_1", "input": {"a": 1}, "expected": 1, "origin": "user"}]
    assert not marker.exists()


def test_a_computed_case_is_refused_not_evaluated(tmp_path):
    marker = tmp_path / "ran.txt"
    path = write(tmp_path, "test_evil.py", f'CASES = [({{"a": open({str(marker)!r}, "w").write("x")}}, 1)]\n')
    with pytest.raises(UserTestsError, match=r"case 1 \(line 1\) is not a literal: open\("):
        read_user_tests(path)
    assert not marker.exists()


@pytest.mark.parametrize("name, text, complaint", [
    ("bad.yaml", "tests:\n  - input: {a: 1\n", r"does not parse as YAML or JSON at line 3"),
    ("bad.json", '{"tests": [{"input": {"a": 1} "expected": 1}]}', r"does not parse as YAML or JSON at line 1"),
    ("prose.yaml", "just some words", r"has no list of test cases"),
    ("other.yaml", "cases:\n  - {input: {a: 1}, expected: 1}\n", r"has no list of test cases"),
    ("both.yaml", "tests: []\ntest_cases: []\n", r"has both tests: and test_cases:"),
    ("scalar.yaml", "tests: 3\n", r"tests: must be a list of test cases, not int"),
    ("blank.yaml", "  \n\n", r"is empty"),
    ("no_input.yaml", "- {input: {a: 1}, expected: 1}\n- {expected: 2}\n", r"case 2 has no input"),
    ("no_expected.yaml", "- {input: {a: 1}}\n", r"case 1 has no expected"),
    ("not_case.yaml", "- 3\n", r"case 1 must be a mapping"),
    ("list_input.yaml", "- {input: [1, 2], expected: 3}\n", r"case 1: input must be a mapping"),
    ("bad_key.yaml", "- {input: {not a name: 1}, expected: 3}\n", r"input key 'not a name' is not a valid"),
    ("inf.yaml", "- {input: {x: .inf}, expected: 1}\n", r"case 1 input must be plain data"),
    ("set.yaml", "- {input: {x: !!set {1}}, expected: 1}\n", r"does not parse as YAML or JSON at line 1, column 15: the tag !!set is not read \(only YAML 1.2's core schema"),
    ("no_list.py", "import pytest\n\ndef test_x():\n    assert True\n", r"has no module-level CASES, TEST_CASES or TESTS"),
    ("comprehension.py", "CASES = [({'a': i}, i) for i in range(3)]\n", r"CASES at line 1 is not a literal list"),
    ("syntax.py", "CASES = [\n  ({'a': 1}, 1\n", r"Python syntax error at line"),
    ("call.py", "CASES = [make_case(1)]\n", r"case 1 \(line 1\) is a call to make_case"),
    ("marks.py", "CASES = [pytest.param({'a': 1}, 1, marks=pytest.mark.skip)]\n", r"marks is not read"),
    ("three.py", "CASES = [({'a': 1}, 1, 'name')]\n", r"case 1 \(line 1\) must be pytest.param"),
    ("complex.py", "CASES = [({'a': 1j}, 1)]\n", r"case 1 \(line 1\) input must be plain data"),
    ("nan.py", "CASES = [({'a': 1}, float('nan'))]\n", r"case 1 \(line 1\) is not a literal: float\('nan'\)"),
])
def test_refusals_are_one_line_naming_the_file(tmp_path, name, text, complaint):
    with pytest.raises(InputError, match=complaint) as refused:  # a UserTestsError is an InputError
        read_user_tests(write(tmp_path, name, text))
    assert name in str(refused.value) and "\n" not in str(refused.value)


def test_a_missing_file_or_a_directory_is_refused(tmp_path):
    with pytest.raises(InputError, match=r"missing\.yaml: no such file"):
        read_user_tests(tmp_path / "missing.yaml")
    with pytest.raises(InputError, match="is a directory"):
        read_user_tests(tmp_path)


def test_a_file_that_is_not_utf8_text_is_refused(tmp_path):
    latin = tmp_path / "latin.yaml"
    latin.write_bytes("- {input: {s: caf\xe9}, expected: 1}\n".encode("latin-1"))
    with pytest.raises(InputError, match=r"latin\.yaml is not UTF-8 text"):
        read_user_tests(latin)
    binary = tmp_path / "cases.py"
    binary.write_bytes(b"CASES = []\x00\x01")
    with pytest.raises(InputError, match=r"cases\.py is binary"):
        read_user_tests(binary)


def test_a_byte_order_mark_is_dropped(tmp_path):
    path = tmp_path / "bom.yaml"
    path.write_bytes("\ufeff- {input: {a: 1}, expected: 1}\n".encode("utf-8"))
    assert records(read_user_tests(path)) == [{"name": "user_1", "input": {"a": 1}, "expected": 1, "origin": "user"}]


def test_a_bare_none_is_null_as_in_the_models_answers(tmp_path):
    # the model's `expected: None` is null (utils/yaml_answer.py); a person's must be the same, not "None"
    path = write(tmp_path, "none.yaml", "- {input: {nums: []}, expected: None}\n- {input: {nums: [1]}, expected: 'None'}\n")
    assert [case.expected for case in read_user_tests(path)] == [None, "None"]


def test_an_alias_bomb_in_a_tests_file_is_one_line_refusal(tmp_path):
    from tests.test_yaml_answer import alias_bomb
    path = write(tmp_path, "bomb.yaml", "tests:\n" + alias_bomb().replace("test_cases:\n", ""))
    with pytest.raises(UserTestsError, match=r"bomb\.yaml does not parse as YAML or JSON at line \d+, column \d+: "
                                             r"YAML aliases \(\*name\) are not accepted"):
        read_user_tests(path)


def test_more_than_the_maximum_of_cases_is_refused(tmp_path):
    cases = [{"input": {"a": i}, "expected": i} for i in range(MAX_CASES + 1)]
    with pytest.raises(UserTestsError, match=rf"many\.json has {MAX_CASES + 1} test cases; at most {MAX_CASES}"):
        read_user_tests(write(tmp_path, "many.json", json.dumps(cases)))
    path = write(tmp_path, "test_many.py", pytest_source([case_from(f"t{i}", c["input"], c["expected"]) for i, c in enumerate(cases)]))
    with pytest.raises(UserTestsError, match=rf"has {MAX_CASES + 1} test cases"):
        read_user_tests(path)
