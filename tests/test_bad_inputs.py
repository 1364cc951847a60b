"""Bad or tricky inputs, one row each, across the ways text reaches codeloop (issue 87): a person's --tests file and
problem file (main.py as a subprocess), the MCP tools' arguments (the real server over stdio, one session for all its
rows), and the model's answers (the parsers a run uses). Each row gets the right value, or one line and exit 2 (MCP:
a tool error), and no run folder is left behind, whole or half-written.

A row is (id, where, given, want): `want` is a value (what the input reads as, with the one-line note, if any, that
says YAML 1.1 read it otherwise) or Refused(text the one line holds)."""
import json
import os
import subprocess
import sys
from dataclasses import dataclass

import anyio
import pytest

import app
from tests.test_main import MAIN, ROOT, cli_env
from utils.yaml_answer import AnswerError, parse_tests_answer

NOWHERE = "http://127.0.0.1:9/v1"  # no model is asked: every refusal comes before the run
TWO_SUM = (ROOT / "examples" / "two_sum.md").read_text()  # run_code(nums, target), as its examples call it


@dataclass(frozen=True)
class Refused:
    says: str


@dataclass(frozen=True)
class Read:
    value: object     # the expected value of the file's one test, or the answer's
    note: str = ""    # what the one line about YAML 1.1 says ("" : no line)


def case(expected, **inputs):
    """A --tests file of one test for Two Sum (nums, target), its expected value written as given."""
    inputs = inputs or {"nums": "[1, 2]", "target": "3"}
    return "- name: t\n  input: {" + ", ".join(f"{k}: {v}" for k, v in inputs.items()) + "}\n  expected: " + expected + "\n"


TESTS_FILES = [  # (id, file name, text, want)
    ("yes-stays-a-string", "t.yaml", case("YES"), Read("YES", 'YES (line 3) is "YES", not true')),
    ("No-stays-a-string", "t.yaml", case("No"), Read("No", 'No (line 3) is "No", not false')),
    ("on-stays-a-string", "t.yaml", case("on"), Read("on", 'on (line 3) is "on", not true')),
    ("1e-5-is-a-number", "t.yaml", case("1e-5"), Read(1e-05, '1e-5 (line 3) is 1e-05, not "1e-5"')),
    ("leading-zero-is-not-octal", "t.yaml", case("0123"), Read(123, "0123 (line 3) is 123, not 83")),
    ("no-base-60", "t.yaml", case("[23:59, 00:00]"), Read(["23:59", "00:00"], '23:59 (line 3) is "23:59", not 1439')),
    ("no-dates", "t.yaml", case("2024-01-01"), Read("2024-01-01", '2024-01-01 (line 3) is "2024-01-01", not the date')),
    ("an-impossible-date-is-a-string", "t.yaml", case("2024-13-45"), Read("2024-13-45")),  # 1.1: a ValueError, a traceback
    ("quoted-yes-says-nothing", "t.yaml", case("'YES'"), Read("YES")),
    ("json-says-nothing", "t.json", '[{"input": {"nums": [1, 2], "target": 3}, "expected": 1e-5}]', Read(1e-05)),
    ("true-is-still-true", "t.yaml", case("true"), Read(True)),
    ("an-argument-the-signature-lacks", "t.yaml", case("[0, 1]", nums="[1, 2]", tgt="3"),
     Refused("test t names tgt, which run_code(nums, target) (as the statement's examples call it) lacks")),
    ("an-argument-missing", "t.yaml", case("[0, 1]", nums="[1, 2]"),
     Refused("test t misses target, which run_code(nums, target) (as the statement's examples call it) needs")),
    ("a-tag-of-another-schema", "t.yaml", case("!!set {1}"), Refused("the tag !!set is not read")),
    ("an-integer-too-long", "t.yaml", case("9" * 5000), Refused("as an integer: Exceeds the limit (4300 digits)")),
    ("an-alias", "t.yaml", "- &t {input: {nums: [1], target: 1}, expected: 0}\n- *t\n", Refused("YAML aliases (*name)")),
    ("not-a-number", "t.yaml", case(".nan"), Refused("expected must be plain data")),
    ("nested-too-deeply", "t.yaml", case("[" * 120 + "]" * 120), Refused("nested too deeply (at most 100 levels)")),
    ("a-key-not-a-parameter-name", "t.yaml", case("1", **{"not a name": "1"}), Refused("is not a valid Python parameter")),
    ("a-pytest-file-computing-its-cases", "t.py", "CASES = [({'nums': [i], 'target': i}, 0) for i in range(3)]\n",
     Refused("CASES at line 1 is not a literal list")),
]

PROBLEM_FILES = [  # (id, problem file's bytes, --tests file or None, extra flags, want)
    ("an-empty-problem", b"  \n\n", None, (), Refused("is empty")),
    ("a-binary-problem", b"Two Sum\x00\x01", None, (), Refused("is binary, not text")),
    ("a-problem-not-utf8", "Deux sommes: é".encode("latin-1"), None, (), Refused("is not UTF-8 text")),
    ("a-def-the-tests-do-not-fit", b"Write def add(a, b=0) returning a + b. add(1, 2) == 3", case("3", a="1", c="2"),
     (), Refused("test t names c, which the statement's add(a, b=0) lacks")),
    ("a-keyword-only-argument-missing", b"Write def scale(x, *, by) returning x * by.", case("2", x="1"), (),
     Refused("test t misses by, which the statement's scale(x, *, by) needs")),
    ("a-family-the-statement-is-not", TWO_SUM.encode(), None, ("--kind", "tree"),
     Refused("--kind tree: the statement names no TreeNode or ListNode argument")),
]


def codeloop_in(folder, *args):
    """main.py run in `folder` (so that a default runs/ folder would land there), with no model endpoint to reach."""
    return subprocess.run([sys.executable, MAIN, *args], capture_output=True, text=True, cwd=folder, timeout=120,
                          env=cli_env(OPENAI_BASE_URL=NOWHERE, OPENAI_API_KEY="sk-unused"))


def assert_refused_in_one_line(result, says, folder):
    assert result.returncode == 2, result.stderr
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("codeloop: error: ") and says in result.stderr, \
        result.stderr
    assert sorted(os.listdir(folder)) == sorted(name for name in os.listdir(folder) if name.startswith(("t.", "p."))), \
        "no run folder (runs/ or --out) is made for input that is refused"


@pytest.mark.parametrize("name, text, want", [row[1:] for row in TESTS_FILES], ids=[row[0] for row in TESTS_FILES])
def test_a_tests_file(tmp_path, name, text, want):
    path = tmp_path / name
    path.write_text(text)
    if isinstance(want, Refused):
        result = codeloop_in(tmp_path, "--problem-file", str(ROOT / "examples" / "two_sum.md"), "--tests", str(path))
        assert_refused_in_one_line(result, want.says, tmp_path)
        return
    job = app.prepare(TWO_SUM, tests=str(path), out=str(tmp_path / "out"))  # the CLI's own reading of the file
    assert [test.expected for test in job.settings.tests] == [want.value]
    assert type(job.settings.tests[0].expected) is type(want.value)
    if want.note:
        assert job.notes == (f"--tests {path} is read by YAML 1.2's rules: {job.notes[0].split(': ', 1)[1]}",)
        assert want.note in job.notes[0] and job.notes[0].endswith("(quote a value to keep it a string)")
    else:
        assert job.notes == ()


@pytest.mark.parametrize("problem, tests, flags, want", [row[1:] for row in PROBLEM_FILES], ids=[r[0] for r in PROBLEM_FILES])
def test_a_problem_file(tmp_path, problem, tests, flags, want):
    (tmp_path / "p.md").write_bytes(problem)
    if tests:
        (tmp_path / "t.yaml").write_text(tests)
        flags = (*flags, "--tests", str(tmp_path / "t.yaml"))
    result = codeloop_in(tmp_path, "--problem-file", str(tmp_path / "p.md"), *flags)
    assert_refused_in_one_line(result, want.says, tmp_path)


def test_a_missing_problem_file_is_one_line(tmp_path):
    assert_refused_in_one_line(codeloop_in(tmp_path, "--problem-file", str(tmp_path / "p.md")), "no such file", tmp_path)


def test_the_note_on_a_tests_file_is_one_line_of_the_run_and_in_its_record(stub, tmp_path):
    from tests import scripted_answers as a
    (tmp_path / "t.yaml").write_text(case("[0, 1]", nums="[1, 2]", target="3.0e0"))
    stub.add(a.GOOD_CODE)
    result = subprocess.run([sys.executable, MAIN, "--problem-file", str(ROOT / "examples" / "two_sum.md"), "--tests",
                             str(tmp_path / "t.yaml"), "--out", str(tmp_path / "run"), "--model-tests", "never",
                             "--samples", "1", "--no-oracle", "--variants", "0"],
                            capture_output=True, text=True, cwd=tmp_path, env=cli_env(stub), timeout=120)
    notes = [line for line in result.stderr.splitlines() if "YAML 1.2" in line]
    assert notes == [f"codeloop: note: --tests {tmp_path / 't.yaml'} is read by YAML 1.2's rules: 3.0e0 (line 2) is 3.0, "
                     "not \"3.0e0\" (quote a value to keep it a string)"], result.stderr
    record = json.loads((tmp_path / "run" / "run.json").read_text())
    assert [e["note"] for e in record["events"] if e["kind"] == "input_note"] == [notes[0].removeprefix("codeloop: note: ")]


MODEL_ANSWERS = [  # (id, a test list the model wrote, want: the expected value read, or Refused(the message it is sent))
    ("model-yes", "expected: YES", Read("YES")),
    ("model-1e-5", "expected: 1e-5", Read(1e-05)),
    ("model-octal-looking", "expected: 0755", Read(755)),
    ("model-none", "expected: None", Read(None)),
    ("model-python-object", "expected: !!python/object:os.system {}", Refused("The YAML does not parse")),
    ("model-integer-too-long", "expected: " + "7" * 5000, Refused("as an integer")),
    ("model-alias", "expected: &x [1]\n    guess: *x", Refused("cannot be used")),
]


@pytest.mark.parametrize("line, want", [row[1:] for row in MODEL_ANSWERS], ids=[row[0] for row in MODEL_ANSWERS])
def test_a_model_answer(line, want):
    answer = f"```yaml\ntest_cases:\n  - name: t\n    input: {{n: 1}}\n    {line}\n```"
    if isinstance(want, Refused):
        with pytest.raises(AnswerError, match=want.says) as refused:
            parse_tests_answer(answer, 8)
        assert "\n" not in str(refused.value).split("\n    ")[0]
        return
    expected = parse_tests_answer(answer, 8)["test_cases"][0]["expected"]
    assert expected == want.value and type(expected) is type(want.value)


def test_an_unreachable_endpoint_under_a_time_limit_is_named_not_only_the_time_limit(tmp_path):
    # tries at about 0, 1, 3 and 7 s, then a pause of 8 s (utils/call_llm.py): the limit falls in a pause, however
    # slowly a loaded machine makes the first tries
    result = codeloop_in(tmp_path, TWO_SUM, "--time-limit", "10", "--out", str(tmp_path / "run"))
    assert result.returncode == 3 and "Traceback" not in result.stderr, result.stderr
    assert (f"the model failed: cannot connect to the model endpoint at {NOWHERE}; then the time limit of 10 s ran out "
            "before the next try") in result.stderr


def test_the_mcp_servers_import_error_names_the_module_that_is_missing(tmp_path):
    shadow = tmp_path / "shadow" / "mcp"
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text("")  # an mcp without its server: another package of that name, say
    env = {**cli_env(), "PYTHONPATH": str(tmp_path / "shadow")}
    result = subprocess.run([sys.executable, MAIN, "--mcp"], capture_output=True, text=True, timeout=60, env=env,
                            stdin=subprocess.DEVNULL)
    assert result.returncode == 2 and result.stderr.count("\n") == 1, result.stderr
    assert "--mcp cannot start: the module mcp.server is missing (ModuleNotFoundError)" in result.stderr


def test_without_mcp_the_server_says_it_needs_the_package(monkeypatch, capsys):
    import main
    for name in [name for name in sys.modules if name.startswith(("mcp.", "mcp_server", "mcp_schema"))]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "mcp", None)  # `import mcp` fails as it does where mcp is not installed
    assert main.main(["--mcp"]) == 2
    assert capsys.readouterr().err.startswith("codeloop: error: --mcp needs the mcp package: pip install -r "
                                              "requirements-mcp.txt")


RUN_CODE = "def run_code(nums, target):\n    return [0, 1]\n"
MCP_CALLS = [  # (id, tool, arguments, want: what the result holds, or Refused(the tool error's text))
    ("run_tests-an-argument-run_code-lacks", "run_tests",
     {"code": RUN_CODE, "tests": [{"name": "odd", "input": {"nums": [1, 2], "tgt": 3}, "expected": [0, 1]}]},
     Refused("tests: test odd names tgt, which the code's run_code(nums, target) lacks")),
    ("run_tests-an-argument-missing", "run_tests",
     {"code": RUN_CODE, "tests": [{"name": "short", "input": {"nums": [1, 2]}, "expected": [0, 1]}]},
     Refused("tests: test short misses target, which the code's run_code(nums, target) needs")),
    ("run_tests-keyword-only-with-default", "run_tests",
     {"code": "def run_code(nums, *, target=3):\n    return sum(nums) == target\n",
      "tests": [{"input": {"nums": [1, 2]}, "expected": True}]}, {"passed": 1, "total": 1}),
    ("run_tests-any-keyword", "run_tests",
     {"code": "def run_code(**given):\n    return sorted(given)\n", "tests": [{"input": {"b": 1, "a": 2}, "expected": ["a", "b"]}]},
     {"passed": 1, "total": 1}),
    ("run_tests-a-misspelt-key", "run_tests",
     {"code": RUN_CODE, "tests": [{"input": {"nums": [1], "target": 1}, "expect": [0]}]}, Refused("expect")),
    ("run_tests-no-run_code", "run_tests", {"code": "def solve(x):\n    return x\n", "tests": []},
     Refused("the code defines no function run_code")),
    ("solve-tests-that-do-not-fit", "solve",
     {"problem": TWO_SUM, "tests": [{"name": "odd", "input": {"numbers": [1, 2], "target": 3}, "expected": [0, 1]}]},
     Refused("tests: test odd names numbers, which run_code(nums, target) (as the statement's examples call it) lacks")),
    ("solve-a-blank-problem", "solve", {"problem": "  "}, Refused("the problem is blank")),
    ("solve-a-time-limit-of-true", "solve", {"problem": TWO_SUM, "time_limit": True}, Refused("time_limit")),
    ("solve-a-family-the-statement-is-not", "solve", {"problem": TWO_SUM, "kind": "design"},
     Refused("kind design: the statement names no class to implement")),
]


@pytest.fixture(scope="module")
def mcp_results(tmp_path_factory):
    """Every MCP row's result, from one server process; and what its runs folder holds afterwards."""
    pytest.importorskip("mcp")
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client
    runs = tmp_path_factory.mktemp("mcp-runs")
    params = StdioServerParameters(command=sys.executable, args=[MAIN, "--mcp", "--mcp-allow-weak-sandbox", "--out",
                                                                 str(runs)], cwd=str(ROOT),
                                   env=cli_env(OPENAI_BASE_URL=NOWHERE, OPENAI_API_KEY="sk-unused"))

    async def main():
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                return {row: await session.call_tool(tool, arguments) for row, tool, arguments, _ in MCP_CALLS}
    return anyio.run(main), runs


@pytest.mark.parametrize("row, want", [(row[0], row[3]) for row in MCP_CALLS], ids=[row[0] for row in MCP_CALLS])
def test_an_mcp_argument(mcp_results, row, want):
    results, runs = mcp_results
    result = results[row]
    if isinstance(want, Refused):
        text = result.content[0].text
        assert result.is_error and want.says in text and "\n" not in text.strip(), text
        assert os.listdir(runs) == [], "a refused solve leaves no folder in the runs folder"
    else:
        assert not result.is_error, result.content
        assert {key: result.structured_content[key] for key in want} == want
