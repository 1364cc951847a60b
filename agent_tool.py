"""codeloop as a tool an agent can call.

Two ways in, neither a dependency of codeloop:
  TOOL, call_tool(arguments)   an OpenAI-style function tool: give TOOL to any client or framework
                               that takes JSON-schema tools (the openai client's `tools=[TOOL]`), and
                               answer its tool calls with call_tool(json.loads(call.function.arguments)).
  langchain_tool()             the same as a LangChain StructuredTool, when langchain-core is installed.

The agent gets a short, JSON-ready answer (status, message, code, tests passed); the full record
stays in the run's folder.
"""
from codeloop import CodeloopError, solve

DESCRIPTION = ("Write and test a Python function run_code for a coding problem: the tool writes test cases, "
               "writes the code, runs the tests in a sandbox and revises until they pass. Returns the code "
               "and how many tests pass.")

TOOL = {"type": "function", "function": {
    "name": "codeloop_solve",
    "description": DESCRIPTION,
    "parameters": {
        "type": "object",
        "properties": {
            "problem": {"type": "string", "description": "the problem statement, with its examples"},
            "tests": {"type": "array", "description": "optional test cases the code must pass",
                      "items": {"type": "object", "properties": {
                          "name": {"type": "string"},
                          "input": {"type": "object", "description": "run_code's keyword arguments"},
                          "expected": {"description": "what run_code must return"}},
                          "required": ["input", "expected"]}},
            "max_iterations": {"type": "integer", "minimum": 1, "maximum": 20,
                               "description": "rounds of testing before giving up (default 5)"}},
        "required": ["problem"]}}}


def call_tool(arguments, **options):
    """Answer one call of TOOL. `options` are solve()'s (the model, out, ...), fixed by the caller, not
    the agent. Bad arguments come back as {"status": "error", "message": ...}, never as an exception:
    an agent reads the message and can try again."""
    allowed = set(TOOL["function"]["parameters"]["properties"])
    if not isinstance(arguments, dict) or not isinstance(arguments.get("problem"), str):
        return {"status": "error", "message": "the tool needs a problem (a string)"}
    unknown = sorted(set(arguments) - allowed)
    if unknown:
        return {"status": "error", "message": f"unknown arguments {', '.join(unknown)}; known: {', '.join(sorted(allowed))}"}
    try:
        result = solve(**{**options, **arguments})
    except CodeloopError as exc:
        return {"status": "error", "message": str(exc)}
    return {"status": result.status, "message": result.message, "code": result.code,
            "tests_passed": result.tests_passed, "tests_total": result.tests_total, "out_dir": result.out_dir}


def langchain_tool(**options):
    """TOOL as a LangChain StructuredTool (needs `pip install langchain-core`)."""
    try:
        from langchain_core.tools import StructuredTool
    except ImportError:
        raise ImportError("langchain_tool() needs langchain-core: pip install langchain-core") from None

    def codeloop_solve(problem: str, tests: list[dict] | None = None, max_iterations: int = 5) -> dict:
        arguments = {"problem": problem, "max_iterations": max_iterations}
        return call_tool({**arguments, "tests": tests} if tests else arguments, **options)
    return StructuredTool.from_function(codeloop_solve, name=TOOL["function"]["name"], description=DESCRIPTION)
