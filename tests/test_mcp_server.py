"""The MCP server (python main.py --mcp) driven by the real mcp client over stdio, against a scripted model
endpoint on 127.0.0.1 and the real sandbox."""
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import anyio
import pytest

pytest.importorskip("mcp")
from mcp import ClientSession  # noqa: E402
from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: E402

from tests import scripted_answers as a  # noqa: E402
from tests.test_main import MAIN, ROOT, SECRET, cli_env  # noqa: E402

HOSTILE = """import os, socket
def run_code(x):
    found = {k: v for k, v in os.environ.items()}
    try:
        socket.create_connection(("1.1.1.1", 53), timeout=1)
        found["net"] = "reached"
    except OSError as exc:
        found["net"] = type(exc).__name__
    return str(found)
"""


def server_params(stub, *flags, env=None, cwd=ROOT):
    return StdioServerParameters(command=sys.executable, args=[MAIN, "--mcp", *flags], cwd=str(cwd),
                                 env=env or cli_env(stub, CODELOOP_CACHE=os.environ.get("CODELOOP_CACHE", "")))


def with_session(stub, body, *flags, env=None, cwd=ROOT):
    """Run `body(session)` against a fresh server process (started in `cwd`); its result."""
    async def main():
        async with stdio_client(server_params(stub, *flags, env=env, cwd=cwd)) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                return await body(session)
    return anyio.run(main)


def test_the_tools_are_listed_with_schemas_an_agent_can_act_on(stub):
    async def body(session):
        return (await session.list_tools()).tools
    tools = {tool.name: tool for tool in with_session(stub, body)}
    assert set(tools) == {"solve", "run_tests"}
    solve, run_tests = tools["solve"], tools["run_tests"]
    assert solve.input_schema["required"] == ["problem"] and "worked examples" in solve.input_schema["properties"]["problem"]["description"]
    assert {"status", "function_code", "tests", "tests_left_out", "message", "usage", "out_dir", "isolation"} <= set(solve.output_schema["properties"])
    assert "run_code" in run_tests.description and "sandbox" in run_tests.description
    for tool in tools.values():
        assert "\n " not in tool.description, "the docstring's indentation is not part of the description"
        assert tool.input_schema["additionalProperties"] is False, "an argument the tool does not take is refused"


def bounds(schema, name):
    (number, _) = schema["properties"][name]["anyOf"]
    return number["type"], number["minimum"], number["maximum"]


def test_a_test_case_the_bounds_and_what_each_tool_does_to_the_world_are_in_the_schema(stub):
    async def body(session):
        return {tool.name: tool for tool in (await session.list_tools()).tools}
    tools = with_session(stub, body)
    solve, run_tests = tools["solve"].input_schema, tools["run_tests"].input_schema
    case = solve["$defs"]["GivenTest"]
    assert case["required"] == ["input", "expected"] and set(case["properties"]) == {"name", "input", "expected"}
    assert case["properties"]["input"]["type"] == "object" and case["additionalProperties"] is False
    assert run_tests["properties"]["tests"]["items"] == {"$ref": "#/$defs/GivenTest"}
    assert bounds(solve, "time_limit") == ("number", 1, 86_400) and bounds(solve, "max_calls") == ("integer", 1, 1000)
    assert bounds(run_tests, "test_timeout") == ("number", 0.1, 30)
    shown = tools["run_tests"].output_schema["$defs"]["TestResult"]["properties"]
    assert "at most 4,000 characters" in shown["output"]["description"] and "2,000" in shown["traceback"]["description"]
    assert (tools["solve"].annotations.idempotent_hint, tools["solve"].annotations.read_only_hint) == (False, False)
    assert (tools["run_tests"].annotations.read_only_hint, tools["run_tests"].annotations.open_world_hint) == (True, False)


def entry_of(text):
    """The server entry of an MCP client's configuration, as written in a doc or printed."""
    return json.loads(text)["mcpServers"]["codeloop"]


def tools_served_by(stub, entry, cwd):
    """List the tools of a server started from a client's entry, in `cwd` as a client would; the interpreter is
    the entry's own where it exists (a clone's .venv: `make setup`), else this one (a worktree without one)."""
    command = entry["command"] if Path(cwd, entry["command"]).exists() else sys.executable

    async def main():
        params = StdioServerParameters(command=command, args=entry["args"], cwd=str(cwd), env=cli_env(stub))
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                listed = {tool.name for tool in (await session.list_tools()).tools}
                ran = await session.call_tool("run_tests", {"code": "def run_code(x):\n    return x\n",
                                                            "tests": [{"input": {"x": 1}, "expected": 1}]})
                return listed, ran.structured_content
    return anyio.run(main)


def test_the_readmes_entry_for_a_clone_serves_as_written_from_the_clones_folder(stub):
    readme = (ROOT / "README.md").read_text()
    written = [block for block in readme.split("```json\n")[1:] if '"mcpServers"' in block.split("```")[0]]
    entry = entry_of(written[0].split("```")[0])
    assert entry == {"command": ".venv/bin/python", "args": ["main.py", "--mcp"]}
    listed, ran = tools_served_by(stub, entry, ROOT)
    assert listed == {"solve", "run_tests"} and ran["passed"] == 1
    assert '{"command": "codeloop", "args": ["--mcp"]}' in readme, "the installed entry"


def test_make_mcp_config_prints_an_entry_that_serves_from_any_folder(stub, tmp_path):
    if not shutil.which("make"):
        pytest.skip("make is not installed")
    printed = subprocess.run(["make", "-s", "-C", str(ROOT), "mcp-config"], capture_output=True, text=True,
                             cwd=tmp_path, timeout=60, env={**os.environ, "MAKEFLAGS": ""})
    entry = entry_of(printed.stdout)
    assert entry == {"command": str(ROOT / ".venv" / "bin" / "python"), "args": [str(ROOT / "main.py"), "--mcp"]}
    listed, ran = tools_served_by(stub, entry, tmp_path)
    assert listed == {"solve", "run_tests"} and ran["passed"] == 1 and not list(tmp_path.iterdir())


def test_solve_is_solved_with_progress_notifications(stub, tmp_path):
    a.route_defaults(stub)
    heard = []

    async def body(session):
        async def progress(done, total, message):
            heard.append(message)
        return await session.call_tool("solve", {"problem": a.TWO_SUM, "out_dir": str(tmp_path / "run")},
                                       progress_callback=progress)
    result = with_session(stub, body)
    assert not result.is_error, result.content
    found = result.structured_content
    assert found["status"] == "solved" and "def run_code(nums, target)" in found["function_code"]
    assert found["tests"][0]["evidence"] == "from the problem statement" and found["isolation"] in ("bwrap", "unshare", "process")
    assert found["out_dir"] == str(tmp_path / "run") and (tmp_path / "run" / "run.json").exists()
    assert found["page"] == str(tmp_path / "run" / "run.html") and "solved: all" in (tmp_path / "run" / "run.html").read_text()
    assert any(line.startswith("  iteration 1/5") for line in heard) and any("solved: all" in line for line in heard)
    assert SECRET not in json.dumps(found), "no secret of the server's environment in a result"


def test_two_solves_at_once_are_independent(stub, tmp_path):
    slow = lambda answer: {"trickle": 0.002, "text": answer}  # noqa: E731 - a second or so each
    for about, tests, code, oracle in [("two numbers", a.TESTS, a.GOOD_CODE, a.BRUTE_FORCE),
                                       ("even numbers", a.SUM_OF_EVENS_TESTS, a.SUM_OF_EVENS_CODE, a.SUM_OF_EVENS_ORACLE)]:
        stub.route("tests", slow(tests), about=about)
        stub.route("code", *[slow(code)] * 3, about=about)
        stub.route("oracle", slow(oracle), about=about)

    async def body(session):
        found = {}

        async def one(name, problem):
            found[name] = await session.call_tool("solve", {"problem": problem, "out_dir": str(tmp_path / name)})
        async with anyio.create_task_group() as group:
            group.start_soon(one, "two_sum", a.TWO_SUM)
            group.start_soon(one, "evens", a.SUM_OF_EVENS + " Example: Input: nums = [1, 2, 3, 4] Output: 6")
        return found
    found = with_session(stub, body)
    statuses = {name: result.structured_content["status"] for name, result in found.items() if not result.is_error}
    assert len(statuses) == 2 and set(statuses.values()) <= {"solved", "unconfirmed"}, found
    oracles = [(start, end) for kind, start, end in stub.timeline if kind == "oracle"]  # one a run, with its first candidate
    assert len(oracles) == 2 and max(s for s, _ in oracles) < min(e for _, e in oracles), "in flight together"


def solve_in_pairs(stub, pairs, runs):
    """`pairs` pairs of solves of Two Sum through one connection, the two of a pair sent together (most pairs
    start in one second, the case where their default folders once collided); every result, in order."""
    for _ in range(2 * pairs):
        a.route_defaults(stub)

    async def body(session):
        results = []
        for _ in range(pairs):
            pair = [None, None]

            async def one(k):
                pair[k] = await session.call_tool("solve", {"problem": a.TWO_SUM})
            async with anyio.create_task_group() as group:
                group.start_soon(one, 0)
                group.start_soon(one, 1)
            results += pair
        return results
    return with_session(stub, body, "--out", str(runs))


def assert_each_right_in_a_folder_of_its_own(results):
    found = [result.structured_content for result in results if not result.is_error]
    assert len(found) == len(results), [result.content for result in results if result.is_error]
    assert all(one["status"] == "solved" and "seen[target - n]" in one["function_code"] for one in found), found
    assert len({one["out_dir"] for one in found}) == len(found), "a folder of its own for each solve"
    for one in found:
        record = json.loads(Path(one["out_dir"], "run.json").read_text())
        assert record["status"] == "solved" and record["finished_at"] and record["final"]["out_dir"] == one["out_dir"]
        assert record["final"]["function_code"] == one["function_code"], "its own record, not the other's"


PAIRS = 5  # the acceptance ran 50 pairs with solve_in_pairs (docs/mcp.md); 5 keep the suite short


def test_pairs_of_solves_of_one_problem_sent_together_each_get_their_own_folder_and_record(stub, tmp_path):
    assert_each_right_in_a_folder_of_its_own(solve_in_pairs(stub, PAIRS, tmp_path))


def test_a_relative_out_dir_is_under_the_runs_folder_and_one_holding_a_run_is_refused(stub, tmp_path):
    a.route_defaults(stub)
    (tmp_path / "started_in").mkdir()
    asked = []

    async def body(session):
        first = await session.call_tool("solve", {"problem": a.TWO_SUM, "out_dir": "mine"})
        asked.append(len(stub.requests))
        again = await session.call_tool("solve", {"problem": a.TWO_SUM, "out_dir": str(tmp_path / "runs" / "mine")})
        return first, again
    first, again = with_session(stub, body, "--out", str(tmp_path / "runs"), cwd=tmp_path / "started_in")
    assert not first.is_error and first.structured_content["out_dir"] == str(tmp_path / "runs" / "mine"), first.content
    assert json.loads((tmp_path / "runs" / "mine" / "run.json").read_text())["status"] == "solved"
    assert not list((tmp_path / "started_in").iterdir()), "nothing where the server was started"
    assert again.is_error and "holds another run already (its run.json)" in again.content[0].text
    assert len(stub.requests) == asked[0], "the refused solve asked the model nothing"
    assert json.loads((tmp_path / "runs" / "mine" / "run.json").read_text())["status"] == "solved", "left as it was"


def test_a_cancelled_solve_stops_its_calls_and_keeps_its_record(stub, tmp_path):
    stub.route("code", {"trickle": 0.05, "text": a.GOOD_CODE * 50})  # minutes of streaming, were it all written
    stub.route("oracle", {"trickle": 0.05, "text": a.BRUTE_FORCE * 50})

    async def body(session):
        with anyio.move_on_after(3):
            await session.call_tool("solve", {"problem": a.TWO_SUM, "out_dir": str(tmp_path / "run")})
        record = tmp_path / "run" / "run.json"
        for _ in range(100):  # the run writes its record as it ends: until then it says "running"
            if record.exists() and json.loads(record.read_text())["status"] != "running":
                break
            await anyio.sleep(0.1)
        return json.loads(record.read_text())
    record = with_session(stub, body)
    assert record["status"] == "interrupted" and record["message"] == "cancelled by the client"
    assert record["model_calls"], "the cancelled call is in the record"
    writing = [end - start for kind, start, end in stub.timeline if kind in ("code", "oracle")]
    assert writing and max(writing) < 30, "the stream was closed, not written to its end"


def test_a_solve_cut_by_its_time_limit_says_so_and_advises_in_the_tools_words(stub, tmp_path):
    from tests.test_time_and_seeds import route_an_oracle_too_slow_for_the_limit
    route_an_oracle_too_slow_for_the_limit(stub)

    async def body(session):
        return await session.call_tool("solve", {"problem": a.TWO_SUM, "time_limit": 5, "out_dir": str(tmp_path / "run")})
    found = with_session(stub, body).structured_content
    assert found["status"] == "unconfirmed" and found["message"].startswith("not confirmed (the time limit of 5 s ran out)")
    assert "add tests of your own with the tests argument; confidence 0." in found["message"] and "--" not in found["message"]
    assert json.loads((tmp_path / "run" / "run.json").read_text())["message"] == found["message"]


def test_tests_that_never_counted_are_listed_apart_with_why(stub, tmp_path):
    stub.route("code", *[SLOW_CODE] * 3)  # no program comes back before the time runs out: nothing is settled
    stub.route("oracle", SLOW_CODE)

    async def body(session):
        return await session.call_tool("solve", {"problem": a.TWO_SUM, "time_limit": 3, "out_dir": str(tmp_path / "run")})
    found = with_session(stub, body).structured_content
    assert found["status"] == "unsolved" and found["message"] == "not solved: the time limit of 3 s ran out"
    assert [(test["name"], test["expected"], test["evidence"]) for test in found["tests"]] == [
        ("example_1", [0, 1], "from the problem statement")], "only the statement's example counted"
    record = json.loads((tmp_path / "run" / "run.json").read_text())["final"]["test_cases"]
    assert [test["name"] for test in found["tests_left_out"]] == [test["name"] for test in record[1:]] != []
    assert all(test["why"] == "not settled: the run ended before programs ran on it" and test["origin"] == "variant"
               and test["guess"] is None for test in found["tests_left_out"])


def test_a_blank_problem_is_a_tool_error_and_the_server_keeps_serving(stub, tmp_path):
    a.route_defaults(stub)

    async def body(session):
        blank = await session.call_tool("solve", {"problem": "   "})
        good = await session.call_tool("solve", {"problem": a.TWO_SUM, "out_dir": str(tmp_path / "run")})
        return blank, good
    blank, good = with_session(stub, body)
    assert blank.is_error and "the problem is blank" in blank.content[0].text
    assert not good.is_error and good.structured_content["status"] == "solved"


def test_run_tests_takes_a_tree_or_design_problems_tests_in_list_form_with_kind(stub):
    depth = ("def run_code(root: TreeNode) -> int:\n"
             "    return 0 if root is None else 1 + max(run_code(root.left), run_code(root.right))\n")
    counter = "class Counter:\n    def __init__(self, start):\n        self.n = start\n\n    def add(self):\n        self.n += 1\n        return self.n\n"

    async def body(session):
        return [await session.call_tool("run_tests", arguments) for arguments in (
            {"code": depth, "kind": "tree", "tests": [{"input": {"root": [3, 9, 20, None, None, 15, 7]}, "expected": 3}]},
            {"code": counter, "kind": "design", "tests": [{"input": {"operations": ["Counter", "add", "add"],
                                                                    "arguments": [[5], [], []]}, "expected": [None, 6, 7]}]})]
    tree, design = with_session(stub, body, "--mcp-allow-weak-sandbox")
    assert tree.structured_content["passed"] == 1 and design.structured_content["passed"] == 1, (tree, design)


def test_run_tests_runs_a_stdio_program_on_texts_and_compares_what_it_prints_token_by_token(stub):
    program = "a, b = map(int, input().split())\nprint(a + b)\n"
    tests = [{"input": {"stdin": "1 2\n"}, "expected": "3"}, {"input": {"stdin": "5 5\n"}, "expected": "11\n"}]

    async def body(session):
        return [await session.call_tool("run_tests", {"code": program, "kind": "stdio", "tests": tests}),
                await session.call_tool("run_tests", {"code": program, "kind": "stdio",
                                                      "tests": [{"input": {"a": 1}, "expected": "1"}]})]
    ran, misfit = with_session(stub, body, "--mcp-allow-weak-sandbox")
    assert [r["passed"] for r in ran.structured_content["results"]] == [True, False]
    assert misfit.is_error and "a stdio test is {input: {stdin: text}, expected: text}" in misfit.content[0].text


def test_run_tests_reports_a_wrong_programs_failures(stub):
    async def body(session):
        return await session.call_tool("run_tests", {"code": "def run_code(nums, target):\n    return [0, 0]\n",
                                                     "tests": [{"input": {"nums": [3, 2, 4], "target": 6}, "expected": [1, 2]},
                                                               {"input": {"nums": [1, 1], "target": 2}, "expected": [0, 0]}]})
    result = with_session(stub, body, "--mcp-allow-weak-sandbox")
    found = result.structured_content
    assert (found["passed"], found["total"]) == (1, 2) and found["results"][0]["actual"] == "[0, 0]"
    assert not found["results"][0]["passed"] and found["results"][1]["passed"]


SLOW_CODE = {"trickle": 0.05, "text": a.GOOD_CODE * 40}  # minutes of streaming, were it all written

NOISY = """def run_code(nums, target):
    print("looking at", nums)
    if len(nums) > 2:
        return nums[10]
    return [0, 0]
"""


def test_a_failing_test_comes_back_with_expected_actual_error_traceback_and_what_it_printed(stub):
    async def body(session):
        return await session.call_tool("run_tests", {"code": NOISY, "tests": [
            {"name": "three", "input": {"nums": [3, 2, 4], "target": 6}, "expected": [1, 2]},
            {"name": "two", "input": {"nums": [1, 2], "target": 3}, "expected": [0, 1]}]})
    raised, wrong = with_session(stub, body, "--mcp-allow-weak-sandbox").structured_content["results"]
    assert (raised["name"], raised["passed"], raised["expected"]) == ("three", False, [1, 2])
    assert raised["error"] == "IndexError: list index out of range" and raised["actual"] == ""
    assert 'File "solution.py", line 4, in run_code' in raised["traceback"] and "return nums[10]" in raised["traceback"]
    assert raised["output"] == "looking at [3, 2, 4]\n"
    assert (wrong["actual"], wrong["expected"], wrong["error"], wrong["traceback"]) == ("[0, 0]", [0, 1], "", "")
    assert wrong["output"] == "looking at [1, 2]\n"


def test_what_a_test_printed_and_its_traceback_are_cut_to_their_stated_sizes(stub):
    code = "def run_code(n):\n    print('x' * n)\n    raise ValueError('y' * n)\n"

    async def body(session):
        return await session.call_tool("run_tests", {"code": code, "tests": [{"input": {"n": 100_000}, "expected": 0}]})
    (result,) = with_session(stub, body, "--mcp-allow-weak-sandbox").structured_content["results"]
    for field, size in (("output", 4000), ("traceback", 2000), ("error", 500)):
        assert size - 100 < len(result[field]) <= size, (field, len(result[field]))
    assert result["output"].startswith("x" * 1000) and result["output"].endswith("more characters]")
    assert result["error"].startswith("ValueError: yyy") and result["error"].endswith("more characters]")
    assert result["traceback"].startswith('  File "solution.py", line 3, in run_code')
    assert result["traceback"].endswith("more characters]"), "a traceback cut says so, as the others do"
    # each note counts all that is not shown, what the sandbox cut before included: the code wrote 100,001
    # characters, its message is 100,000 long (the error adds "ValueError: ", 12) and the traceback holds it
    for field, written in (("output", 100_001), ("error", 100_012)):
        shown, note = result[field].rsplit("\n... [", 1)
        assert len(shown) + int(note.split()[0].replace(",", "")) == written, (field, note)
    assert int(result["traceback"].rsplit("\n... [", 1)[1].split()[0].replace(",", "")) > 100_000 - 2000


def test_the_caller_sets_each_tests_time_limit(stub):
    slow = "import time\ndef run_code(x):\n    time.sleep(0.6)\n    return x\n"

    async def body(session):
        tests = [{"input": {"x": 1}, "expected": 1}]
        short = await session.call_tool("run_tests", {"code": slow, "tests": tests, "test_timeout": 0.2})
        ample = await session.call_tool("run_tests", {"code": slow, "tests": tests, "test_timeout": 5})
        return short.structured_content["results"][0], ample.structured_content["results"][0]
    short, ample = with_session(stub, body, "--mcp-allow-weak-sandbox")
    assert not short["passed"] and short["error"] == "Timeout: run_code did not return within 0.2 s"
    assert ample["passed"] and ample["error"] == ""


GOOD = "def run_code(x):\n    return x\n"
ONE = [{"input": {"x": 1}, "expected": 1}]


def refusals(folder):
    """(tool, arguments, what the one-line message says) for every way an MCP caller's arguments are refused."""
    (folder / "taken").mkdir()
    (folder / "taken" / "run.json").write_text('{"status": "solved"}')
    (folder / "a_file").write_text("not a folder")
    (folder / "unwritable" / "run.json.tmp").mkdir(parents=True)  # the record cannot be written there
    return [
        ("solve", {"problem": "   "}, "the problem is blank"),
        ("solve", {"problem": "-"}, "the problem is blank"),
        ("solve", {"problem": "x" * 60_000}, "the problem argument is longer than 50,000 characters"),
        ("solve", {}, "problem is missing"),
        ("solve", {"problem": 7}, "problem: input should be a valid string, not 7"),
        ("solve", {"problem": a.TWO_SUM, "tests": {"x": 1}}, "tests: input should be a valid list"),
        ("solve", {"problem": a.TWO_SUM, "tests": [{"input": 1}]}, "tests.0.input: input should be a valid dictionary, "
                                                                   "not 1; tests.0.expected is missing"),
        ("solve", {"problem": a.TWO_SUM, "tests": [{"input": {"x": 1}, "expect": 1}]}, "tests.0.expected is missing; "
         "tests.0.expect is not a field of a test (a test has name, input and expected)"),
        ("solve", {"problem": a.TWO_SUM, "tests": [{"input": {"": 1}, "expected": 1}]}, "tests: case 1"),
        ("solve", {"problem": a.TWO_SUM, "tests": ONE * 201}, "tests has 201 test cases; at most 200 are allowed"),
        ("solve", {"problem": a.TWO_SUM, "max_calls": 0}, "max_calls: input should be greater than or equal to 1, not 0"),
        ("solve", {"problem": a.TWO_SUM, "max_calls": -3}, "max_calls: input should be greater than or equal to 1"),
        ("solve", {"problem": a.TWO_SUM, "max_calls": 1001}, "max_calls: input should be less than or equal to 1000"),
        ("solve", {"problem": a.TWO_SUM, "max_calls": "many"}, "max_calls: input should be a valid integer, unable to "
                                                                "parse string as an integer, not 'many'"),
        ("solve", {"problem": a.TWO_SUM, "max_calls": 2.5}, "max_calls: input should be a valid integer"),
        ("solve", {"problem": a.TWO_SUM, "time_limit": 0}, "time_limit: input should be greater than or equal to 1, not 0"),
        ("solve", {"problem": a.TWO_SUM, "time_limit": -5}, "time_limit: input should be greater than or equal to 1"),
        ("solve", {"problem": a.TWO_SUM, "time_limit": 86_401}, "time_limit: input should be less than or equal to 86400"),
        ("solve", {"problem": a.TWO_SUM, "time_limit": True}, "time_limit: input should be a number, not True"),  # not 1 s
        ("solve", {"problem": a.TWO_SUM, "max_calls": True}, "max_calls: input should be a number, not True"),
        ("solve", {"problem": a.TWO_SUM, "time_limt": 30}, "time_limt is not an argument of this tool (its arguments: "
                                                           "problem, tests, max_calls, time_limit, model, out_dir, kind)"),
        ("solve", {"problem": a.TWO_SUM, "model": 3}, "model: input should be a valid string"),
        ("solve", {"problem": a.TWO_SUM, "kind": "forest"}, "kind: input should be 'plain', 'tree', 'design', 'in-place' or 'stdio'"),
        ("solve", {"problem": a.TWO_SUM, "kind": "design"}, "kind design: the statement names no class to implement"),
        ("run_tests", {"code": GOOD, "tests": ONE, "kind": "tree"}, "kind tree: annotate run_code's node parameters"),
        ("solve", {"problem": a.TWO_SUM, "out_dir": str(folder / "taken")}, "holds another run already (its run.json)"),
        ("solve", {"problem": a.TWO_SUM, "out_dir": str(folder / "a_file")}, "cannot write to the output folder"),
        ("solve", {"problem": a.TWO_SUM, "out_dir": str(folder / "unwritable")}, "run.json: Is a directory"),
        ("run_tests", {"code": " ", "tests": ONE}, "the code is empty"),
        ("run_tests", {"code": "def run_code(:", "tests": ONE}, "the code does not parse as Python"),
        ("run_tests", {"code": "def solve(x):\n    return x\n", "tests": ONE}, "defines no function run_code"),
        ("run_tests", {"code": GOOD}, "tests is missing"),
        ("run_tests", {"code": GOOD, "tests": [{"input": {"x": 1}}]}, "tests.0.expected is missing"),
        ("run_tests", {"code": GOOD, "tests": ONE, "checker": "def is_valid(:"}, "checker: the checker does not parse"),
        ("run_tests", {"code": GOOD, "tests": ONE, "checker": "def ok(x, output):\n    return True\n"},
         "checker: the checker must define is_valid"),
        ("run_tests", {"code": GOOD, "tests": ONE, "test_timeout": 0}, "test_timeout: input should be greater than or "
                                                                      "equal to 0.1, not 0"),
        ("run_tests", {"code": GOOD, "tests": ONE, "test_timeout": -1}, "test_timeout: input should be greater than"),
        ("run_tests", {"code": GOOD, "tests": ONE, "test_timeout": 31}, "test_timeout: input should be less than or "
                                                                       "equal to 30"),
        ("run_tests", {"code": GOOD, "tests": ONE, "test_timeout": False}, "test_timeout: input should be a number"),
        ("run_tests", {"code": GOOD, "tests": ONE, "timeout": 5}, "timeout is not an argument of this tool"),
    ]


def test_every_refused_argument_is_a_one_line_tool_error_in_the_tools_words_not_the_clis(stub, tmp_path):
    cases = refusals(tmp_path)

    async def body(session):
        said = [await session.call_tool(tool, arguments) for tool, arguments, _ in cases]
        return said, await session.call_tool("run_tests", {"code": GOOD, "tests": ONE})
    said, after = with_session(stub, body, "--mcp-allow-weak-sandbox", "--out", str(tmp_path / "runs"))
    for (tool, arguments, message), result in zip(cases, said):
        text = result.content[0].text
        assert result.is_error and message in text, (tool, list(arguments), text)
        assert text.startswith(f"Error executing tool {tool}: ") and "\n" not in text, text
        assert "--" not in text, f"a flag of the command line, told an MCP caller: {text}"
    assert stub.requests == [], "no refused call asked the model anything"
    assert not after.is_error and after.structured_content["passed"] == 1, "and the server goes on serving"
    assert not list((tmp_path / "runs").iterdir()), "no folder left behind by a refused solve"


def test_hostile_code_runs_sandboxed_and_nothing_of_the_servers_environment_comes_back(stub):
    async def body(session):
        return await session.call_tool("run_tests", {"code": HOSTILE, "tests": [{"input": {"x": 1}, "expected": "?"}]})
    result = with_session(stub, body, "--mcp-allow-weak-sandbox")
    found = result.structured_content
    assert SECRET not in json.dumps(found) and "OPENAI_API_KEY" not in json.dumps(found)
    if found["isolation"] != "process":
        assert "reached" not in found["results"][0]["actual"], "no network in the sandbox"


def test_the_servers_flags_are_every_solves_defaults(stub, tmp_path):
    a.route_defaults(stub, samples=1)

    async def body(session):
        return await session.call_tool("solve", {"problem": a.TWO_SUM})
    result = with_session(stub, body, "--samples", "1", "--variants", "3", "--max-iterations", "2", "--out", str(tmp_path))
    assert not result.is_error and result.structured_content["status"] == "solved", result.content
    assert Path(result.structured_content["out_dir"]).parent == tmp_path, "--out: the folder runs go under"
    settings = json.loads(Path(result.structured_content["out_dir"], "run.json").read_text())["settings"]
    assert (settings["samples"], settings["variants"], settings["max_iterations"]) == (1, 3, 2)
    assert settings["time_limit"] == 900, "the default time limit applies"


@pytest.mark.parametrize("flags, message", [
    (["Two Sum"], "--mcp takes no problem"), (["--interactive"], "contradict each other"),
    (["--samples", "0"], "--samples")])
def test_a_problem_or_a_bad_flag_stops_the_server_with_one_line(stub, flags, message):
    done = subprocess.run([sys.executable, MAIN, "--mcp", *flags], capture_output=True, text=True, cwd=ROOT,
                          env=cli_env(stub), timeout=60, stdin=subprocess.DEVNULL)
    assert done.returncode == 2 and message in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert done.stdout == "", "stdout is the protocol's"


def test_without_real_isolation_run_tests_refuses_unless_the_server_allows_it(stub):
    env = cli_env(stub, CODELOOP_SANDBOX="process")

    async def body(session):
        return await session.call_tool("run_tests", {"code": "def run_code(x):\n    return x\n",
                                                     "tests": [{"input": {"x": 1}, "expected": 1}]})
    refused = with_session(stub, body, env=env)
    assert refused.is_error and "no real isolation" in refused.content[0].text and "--" not in refused.content[0].text
    allowed = with_session(stub, body, "--mcp-allow-weak-sandbox", env=env)
    assert allowed.structured_content["isolation"] == "process" and allowed.structured_content["passed"] == 1


def lines_of(path):
    return path.read_text() if path.exists() else ""


async def until_said(path, text, seconds):
    """Wait until the server's stderr holds `text` (the server says so as it happens)."""
    for _ in range(int(seconds * 10)):
        if text in lines_of(path):
            return
        await anyio.sleep(0.1)
    raise AssertionError(f"the server never said {text!r}: {lines_of(path)[-2000:]}")


@pytest.mark.real_model
def test_the_embedded_model_is_started_with_the_server_and_again_when_killed_under_a_solve(tmp_path):
    import signal
    errors = tmp_path / "stderr.txt"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "CODELOOP_MODEL"))}
    killed = []

    async def main():
        with errors.open("w") as errlog:
            params = StdioServerParameters(command=sys.executable, args=[MAIN, "--mcp"], cwd=str(ROOT), env=env)
            async with stdio_client(params, errlog=errlog) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    early = await session.call_tool("solve", {"problem": a.TWO_SUM, "out_dir": str(tmp_path / "early")})
                    await until_said(errors, "embedded model ready", 300)
                    pid = int(lines_of(errors).split("embedded model ready")[1].split(" pid ")[1].split(")")[0])

                    async def kill_once_writing(done, total, message):  # the model is answering this solve
                        if not killed and message.startswith("  writing:"):
                            os.kill(pid, signal.SIGKILL)
                            killed.append(message)
                    during = await session.call_tool("solve", {"problem": a.TWO_SUM, "out_dir": str(tmp_path / "during"),
                                                               "time_limit": 300}, progress_callback=kill_once_writing)
                    return early, during
    early, during = anyio.run(main)
    assert early.is_error is False or "still being set up or started" in early.content[0].text
    assert killed and "embedded model ready again" in lines_of(errors), lines_of(errors)[-2000:]
    assert not during.is_error and during.structured_content["status"] in ("solved", "unconfirmed", "unsolved"), \
        during.structured_content or during.content


def test_streamable_http_serves_on_loopback_and_refuses_a_foreign_origin(stub):
    import socket
    import subprocess
    import urllib.error
    import urllib.request
    from mcp.client.streamable_http import streamable_http_client
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([sys.executable, MAIN, "--mcp", "--mcp-http", str(port)], cwd=str(ROOT),
                              env=cli_env(stub), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    try:
        for _ in range(300):  # until it listens (or has died)
            assert server.poll() is None, server.stderr.read().decode()
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        url = f"http://127.0.0.1:{port}/mcp"

        async def tools():
            async with streamable_http_client(url) as (read, write, *_):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    return {tool.name for tool in (await session.list_tools()).tools}
        assert anyio.run(tools) == {"solve", "run_tests"}
        hello = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "page", "version": "1"}}}).encode()
        request = urllib.request.Request(url, data=hello, method="POST", headers={
            "Origin": "http://evil.example", "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream"})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=10)
        assert refused.value.code == 403
    finally:
        os.killpg(server.pid, 9)
        server.wait()


def test_an_embedded_model_that_cannot_start_is_told_the_caller_without_the_operators_flags(tmp_path):
    missing = tmp_path / "no-such-llama-server"
    errors = tmp_path / "stderr.txt"
    env = cli_env(CODELOOP_CACHE=str(tmp_path / "cache"), CODELOOP_LLAMA_SERVER=str(missing))

    async def main():
        with errors.open("w") as errlog:
            params = StdioServerParameters(command=sys.executable, args=[MAIN, "--mcp"], cwd=str(ROOT), env=env)
            async with stdio_client(params, errlog=errlog) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    await until_said(errors, "could not be started", 60)
                    return await session.call_tool("solve", {"problem": a.TWO_SUM, "out_dir": str(tmp_path / "run")})
    result = anyio.run(main)
    assert result.is_error and result.content[0].text.endswith(
        "the embedded model could not be started; the server's stderr says why"), result.content[0].text
    assert f"CODELOOP_LLAMA_SERVER names {missing}" in lines_of(errors), "the operator reads why on stderr"
