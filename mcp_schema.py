"""What codeloop's MCP tools take and return, as their JSON Schemas tell a client: the arguments with their
bounds (settings.py's, so every way in refuses the same values), a test case, the results with the size of
each text a failing test carries, and the tools' annotations. `tool(fn, annotations)` makes a tool of a
function with its docstring, unindented, as the description; `StrictServer` holds the tools to their
schemas: an argument a tool does not take is refused (it was ignored: a misspelt `time_limt` ran with the
default), and a refused argument is said in one line that names it, as the tool does, never as a flag.

`mcp` is an optional dependency (requirements-mcp.txt), imported only here and in mcp_server.py.
"""
import inspect
import re
from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.server.mcpserver.tools import Tool
from mcp.types import ToolAnnotations
from pydantic import BeforeValidator, ConfigDict, Field, ValidationError, with_config
from pydantic_core import PydanticCustomError
from typing_extensions import NotRequired, TypedDict  # pydantic reads a TypedDict's schema only from here before 3.12

from core.problem_kind import Family
from settings import MAX_CALLS, TEST_TIMEOUT_S, TIME_LIMIT_S
from utils.sandbox import Limits

DEFAULT_TIME_LIMIT = 900.0  # seconds a solve may take unless the client says otherwise


def described(kind, text, **bounds):
    if bounds:  # a number: pydantic would take true as 1 (time_limit: true ran a solve of 1 s)
        return Annotated[kind, Field(description=text, **bounds), BeforeValidator(not_a_bool)]
    return Annotated[kind, Field(description=text, **bounds)]


def not_a_bool(value):
    if isinstance(value, bool):
        raise PydanticCustomError("number_type", "input should be a number")
    return value


@with_config(ConfigDict(extra="forbid"))  # a misspelt "expect" is refused, not a test with no expected value
class GivenTest(TypedDict):
    """A test the code must pass, trusted as given."""
    name: NotRequired[described(str, "a name for it (default: user_1, user_2, ...)")]
    input: described(dict[str, Any], "run_code's keyword arguments: {argument name: value}")
    expected: described(Any, "what run_code must return (as JSON: a list for a tuple or a set)")


# The arguments; numbers within settings.py's bounds. A number may come as a string ("30"): the MCP Inspector's CLI
# sends a value so when the schema's type is a union (a number or null), and Claude Desktop is known to.
Problem = described(str, 'the problem statement, with its worked examples ("Input: ... Output: ..." or calls '
                         'like f(1) == 2)')
Tests = described(list[GivenTest], "tests run_code must pass, trusted as given")
SolveTests = described(list[GivenTest] | None, "tests of yours the code must pass, trusted as given; they count "
                                                "as much as the statement's examples")
MaxCalls = described(int | None, "at most this many model calls (default: the server's, else no limit)",
                     ge=MAX_CALLS[0], le=MAX_CALLS[1])
TimeLimit = described(float | None, f"seconds the solve may take (default: the server's, else {DEFAULT_TIME_LIMIT:g})",
                      ge=TIME_LIMIT_S[0], le=TIME_LIMIT_S[1])
Model = described(str | None, "the endpoint's model (the embedded one has one)")
OutDir = described(str | None, "the folder for the run's files, which must not hold another run's run.json; "
                               "relative: under the server's runs folder (default: a new folder there)")
Kind = described(Family | None, "the problem's family: plain (values in, a value returned), tree (TreeNode / ListNode "
                                "arguments or answer, in list form in the tests), design (a class; a test's input is "
                                "{operations, arguments}, its expected value the list of returns), in-place (an "
                                "argument modified, returning nothing) or stdio (a contest problem: a whole program "
                                "reads standard input; a test's input is {stdin: text}, its expected value the text "
                                "printed, compared token by token) (default: read from the statement, or the code)")
Code = described(str, "Python source defining run_code (for a design problem: the class; for stdio: the whole program)")
Checker = described(str | None, "Python source of is_valid(<the inputs>, output) -> bool, for problems with "
                                "several right answers: it judges each output instead of equality")
TestTimeout = described(float | None, f"seconds each test may take (default {Limits.test_timeout:g}); all of them "
                                      f"together take at most {Limits.batch_timeout:g}",
                        ge=TEST_TIMEOUT_S[0],
                        le=Limits.batch_timeout)  # past the batch's deadline a test's own limit never applies

# What a failing test says, each text cut to this many characters (the cut said at its end), so that a result
# stays small whatever the code printed: what the sandbox keeps (utils/sandbox.Limits), the error shorter
SHOWN = {"actual": Limits.repr_chars, "error": 500, "traceback": 2 * Limits.message_chars, "output": Limits.output_chars}


class TestResult(TypedDict):
    name: str
    passed: bool
    expected: described(Any, "the expected value the test gave")
    actual: described(str, f"the repr of what run_code returned; empty when it raised (at most {SHOWN['actual']:,} "
                           "characters)")
    error: described(str, "Type: message of the exception, the timeout, or that the checker did not accept the "
                          f"output; empty when none (at most {SHOWN['error']:,} characters)")
    traceback: described(str, "the traceback's last lines, frames of the code (solution.py) only (at most "
                              f"{SHOWN['traceback']:,} characters)")
    output: described(str, f"what the code printed during the test (at most {SHOWN['output']:,} characters)")


class RunTestsResult(TypedDict):
    isolation: described(str, "how the code was run: bwrap, unshare or process (no real isolation)")
    passed: int
    total: int
    results: list[TestResult]


class SolvedTest(TypedDict):
    name: str
    input: dict[str, Any]
    expected: Any
    origin: described(str, "who wrote it: statement, user (yours), model or variant (a given input changed a little)")
    evidence: described(str, "where the expected value came from")


class LeftOutTest(TypedDict):
    name: str
    input: dict[str, Any]
    origin: str
    guess: described(Any, "the model's expected value; null for a variant")
    why: described(str, "why it did not count: disputed, unchecked, dropped, or not settled before the run ended")


class SolveResult(TypedDict):
    status: described(str, "solved, unconfirmed, unsolved, untested, model_failed, interrupted or error")
    message: described(str, "one line: how far to trust the code, and why")
    confidence: described(float | None, "how likely the code is right (0-1), from its evidence; 'solved' needs "
                          "confidence_needed and a second program agreeing")
    confidence_needed: described(float | None, "the confidence a claim needs (chosen on held-out labelled runs: "
                                 "confidence_backed_by says how often such runs were right)")
    confidence_reading: described(str, "likely right, uncertain or likely wrong: how runs scored alike did on held-out "
                                  "problems ('' where too few were scored alike); a not confirmed run that reads likely "
                                  "right is the one to check first")
    confidence_rests_on: described(str, "what the confidence rests on, in words: how many programs passing the "
                                   "statement's examples agree with the code, the oracle or the first candidate among them")
    confidence_backed_by: described(str, "how many held-out runs scored alike, and how many of them were right")
    function_code: described(str | None, "the code handed over (run_code), or null")
    tests: described(list[SolvedTest], "the tests that counted, each with where its expected value came from")
    tests_left_out: described(list[LeftOutTest], "the other tests, apart")
    usage: described(dict[str, Any], "model calls, prompt and completion tokens, model seconds")
    out_dir: described(str, "the run's folder: solution.py, test_solution.py, run.json")
    page: described(str | None, "the run's page, run.html in out_dir, to open in a browser: the ending, every test with "
                    "where its expected value came from, every version's output and code; null if not written")
    isolation: described(str, "how the code was run: bwrap, unshare or process")


# solve writes a new folder of its own and asks a model, maybe a hosted one; run_tests changes nothing of the
# caller's: its code runs in a sandbox's private folder, without network where the isolation is real
SOLVE = ToolAnnotations(title="Solve a programming problem with tested code", read_only_hint=False,
                        destructive_hint=False, idempotent_hint=False, open_world_hint=True)
RUN_TESTS = ToolAnnotations(title="Run code on tests in a sandbox", read_only_hint=True, idempotent_hint=True,
                            open_world_hint=False)


# how the sandbox says it cut a text already (utils/sandbox_runner.py: cut, CappedText)
SANDBOX_CUT = re.compile(r"\n\.\.\. \[([\d,]+) more characters(?: dropped)?\]\Z")


def clip(text, field):
    """`text` cut to SHOWN[field] characters, the cut said at its end (within the size), counting what the
    sandbox had cut already: the note says how much of what the code wrote is not shown."""
    size, before = SHOWN[field], SANDBOX_CUT.search(text)
    if len(text) <= size and not before:
        return text
    left_out = int(before.group(1).replace(",", "")) if before else 0
    text = text[:before.start()] if before else text
    kept = min(len(text), size - 40)  # room for the note, which is shorter
    return text[:kept] + f"\n... [{len(text) - kept + left_out:,} more characters]"


def tool(fn, annotations):
    """`fn` as a tool described by its docstring without the docstring's indentation and wrapping, that refuses arguments
    it does not take (additionalProperties: false in its schema, too)."""
    paragraphs = re.sub(r"(?<!\n)\n(?!\n)", " ", inspect.cleandoc(fn.__doc__))  # wrapped lines are the client's to wrap
    made = Tool.from_function(fn, description=paragraphs, annotations=annotations)
    model = made.fn_metadata.arg_model
    refusing = type(model.__name__, (model,), {"model_config": ConfigDict(extra="forbid")})
    made.fn_metadata.arg_model = refusing  # mcp's FuncMetadata reads it at every call
    made.parameters = refusing.model_json_schema(by_alias=True)
    return made


class StrictServer(MCPServer):
    """An MCPServer that says a refused argument in one line naming it, not in pydantic's report."""

    def __init__(self, *args, tools, **kwargs):
        super().__init__(*args, tools=tools, **kwargs)
        self.arguments = {made.name: ", ".join(made.parameters["properties"]) for made in tools}

    async def call_tool(self, name, arguments, context=None):
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            if isinstance(exc, UnexpectedToolError) or not isinstance(exc.__cause__, ValidationError):
                raise
            said = "; ".join(argument_problem(problem, self.arguments[name]) for problem in exc.__cause__.errors())
            raise ToolError(f"Error executing tool {name}: {said}") from exc.__cause__


def argument_problem(problem, known):
    """One of pydantic's errors in words: 'time_limit: input should be greater than or equal to 1, not 0'."""
    name = ".".join(str(part) for part in problem["loc"])
    if problem["type"] == "extra_forbidden":
        return f"{name} is not an argument of this tool (its arguments: {known})" if "." not in name else \
            f"{name} is not a field of a test (a test has name, input and expected)"
    if problem["type"] == "missing":
        return f"{name} is missing"
    given = repr(problem["input"])
    return f"{name}: {problem['msg'][:1].lower()}{problem['msg'][1:]}, not {given[:60]}{'...' * (len(given) > 60)}"
