"""codeloop where coding agents work: an MCP server (`python main.py --mcp`) with two tools.

  solve(problem, tests, max_calls, time_limit, model, out_dir)  codeloop's run: tests, candidates, verdicts
  run_tests(code, tests, checker, test_timeout)                a program on tests, in the sandbox

Stdout carries the protocol and nothing else: what codeloop says goes to stderr, or to the client as
progress notifications. The embedded model (when no endpoint is configured) is set up and started when
the server starts, never inside a tool call: a solve before it is ready is refused with a clear message;
if the model server dies it is started again on the same port, and a solve in flight retries or ends
with the model's error. Each solve is its own run (its own sandboxes, its own stop): several run at once
on one model server with a slot each (--mcp-slots); a cancelled solve stops its model calls and
sandboxes and keeps its record. Code runs only in the sandbox; without real isolation (bubblewrap or
unshare) run_tests refuses unless --mcp-allow-weak-sandbox says otherwise. Results hold what the run
made and how it was isolated: never the server's environment.

`mcp` is an optional dependency (requirements-mcp.txt), imported only here and in mcp_schema.py (what the
tools take and return).
"""
import ast
import contextlib
import os
import queue
import sys
import tempfile
import threading
from dataclasses import replace

import anyio
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.transport_security import TransportSecuritySettings

import app
from mcp_schema import (DEFAULT_TIME_LIMIT, RUN_TESTS, SOLVE, Checker, Code, Kind, LeftOutTest, MaxCalls, Model, OutDir,
                        Problem, RunTestsResult, SolvedTest, SolveResult, SolveTests, StrictServer, TestResult, Tests,
                        TestTimeout, TimeLimit, clip, tool)
from core.expected_values import describe
from core.cases import Evidence, TestCase
from core.compare import EXACT, Comparison, judge
from core.checkers import CHECKER_SHIM
from core.problem_kind import Family, ProblemKindError, from_code
from core.signature import first_misfit, of_code
from core.prompts import instructions
from core.vocabulary import Caller, Source
from utils.llama_server import LlamaServer, LocalModelError, cache_dir
from utils.local_model import MODEL_NAME, ensure_local_model
from utils.sandbox import Limits, SandboxGroup, best_isolation, run_batch
from utils.text_files import InputError
from utils.user_tests import cases_from_data

WEAK = "process"            # the isolation that is no isolation: a plain child process
END = object()            # the last of a run's progress lines


def say(text):
    print(text, file=sys.stderr, flush=True)


class ModelHost:
    """The model every solve uses: the endpoint configured in the environment, or the embedded model,
    set up and started in the background when the server starts, and started again should it die."""

    def __init__(self, slots=2, model=None, base_url=None, local=False):
        self.endpoint, self.embedded = app.choose_endpoint(model, base_url, local)
        self.slots, self.server, self.problem, self.ready = slots, None, "", threading.Event()
        self.closing = threading.Event()
        if not self.embedded:
            self.ready.set()

    def start(self):
        if self.embedded:
            threading.Thread(target=self._start_and_watch, name="embedded model", daemon=True).start()

    def _start_and_watch(self):
        try:
            binary, weights = ensure_local_model(lambda text: say(f"codeloop mcp: {text}"))
            self.server = LlamaServer(binary, weights, slots=self.slots, prompt_prefix=instructions())
            self.server.start()
        except LocalModelError as exc:
            self.problem = "the embedded model could not be started"
            say(f"codeloop mcp: {self.problem}: {exc}")
            return
        say(f"codeloop mcp: embedded model ready in {self.server.start_seconds:.1f} s ({self.slots} slots; "
            f"{self.server.name}, pid {self.server.proc.pid})")
        self.ready.set()
        while not self.closing.wait(1.0):
            if self.server.proc.poll() is not None:  # it died: start it again where the solves in flight look
                self.ready.clear()
                say("codeloop mcp: the embedded model stopped; starting it again")
                try:
                    self.server = LlamaServer(binary, weights, port=self.server.port, slots=self.slots,
                                              prompt_prefix=instructions())
                    self.server.start()
                    self.ready.set()
                    say(f"codeloop mcp: embedded model ready again ({self.server.name}, pid {self.server.proc.pid})")
                except LocalModelError as exc:
                    self.problem = "the embedded model stopped and could not be started again"
                    say(f"codeloop mcp: {self.problem}: {exc}")
                    return

    def config(self, model=None):
        """The ModelConfig for a solve, or a ToolError saying why there is none yet."""
        if self.problem:  # why, and what to run (the CLI's --setup-local), is for whoever runs the server
            raise ToolError(f"{self.problem}; the server's stderr says why")
        if not self.ready.is_set():
            raise ToolError("the embedded model is still being set up or started (see the server's stderr); "
                            "try again in a minute")
        if self.embedded:  # four retries (waiting 1+2+4+8 s) outlast a restart: a solve in flight goes on
            return replace(self.server.model_config(MODEL_NAME), max_retries=4)
        return replace(self.endpoint, model=model or self.endpoint.model)

    def close(self):
        self.closing.set()
        if self.server:
            self.server.stop()


NOT_SETTLED = "not settled: the run ended before programs ran on it"


def solve_result(final, isolation):
    """The run's summary for the caller: `tests` are those that counted (a trusted one counts as given, from the
    start); the others, disputed, unchecked, dropped or never run, are listed apart, as run.json keeps them."""
    tests = [TestCase.from_record(case) for case in final["test_cases"]]
    counted = [case.evidence.counted if case.evidence else case.trusted for case in tests]
    confidence = final.get("confidence") or {}
    return SolveResult(status=str(final["status"]), message=final["message"], function_code=final["function_code"],
                       confidence=confidence.get("value"), confidence_needed=confidence.get("threshold"),
                       confidence_reading=confidence.get("reading") or "", confidence_rests_on=confidence.get("words") or "",
                       confidence_backed_by=confidence.get("backed_by") or "",
                       tests=[SolvedTest(name=case.name, input=case.input, expected=case.expected, origin=str(case.origin),
                                         evidence=describe(case.evidence or Evidence(Source(case.origin))))
                              for case, counts in zip(tests, counted) if counts],
                       tests_left_out=[LeftOutTest(name=case.name, input=case.input, origin=str(case.origin),
                                                   guess=None if case.is_variant else case.model_guess,
                                                   why=describe(case.evidence) if case.evidence else NOT_SETTLED)
                                       for case, counts in zip(tests, counted) if not counts],
                       usage=final["usage"], out_dir=final["out_dir"], isolation=isolation,
                       page=next((path for path in final["files"] if path.endswith("run.html")), None))


def runs_folder(options):
    """Where solves' folders go: the server's --out (made absolute when it starts), else the user's cache."""
    return options.get("out") or os.path.join(cache_dir(), "mcp-runs")


def prepared(problem, tests, max_calls, time_limit, out_dir, options, kind=None):
    """app.prepare with the tool's arguments over the server's options (its command line's flags), in a folder
    that is the solve's alone: a new one under the runs folder, or `out_dir` (relative: to the runs folder, not
    to wherever the client started the server) unless it holds another run. A bad argument is a ToolError
    with a one-line message."""
    if not isinstance(problem, str) or problem.strip() in ("", "-"):  # "-" would read the server's stdin: the protocol
        raise ToolError("the problem is blank: give the problem statement, with its examples")
    runs, fresh = runs_folder(options), None
    # None: not given, the server's default
    given = {"tests": tests, "max_calls": max_calls, "time_limit": time_limit, "kind": kind and str(kind)}
    try:
        fresh = None if out_dir else app.new_out_dir(runs, problem)
        chosen = {**options, "time_limit": options.get("time_limit") or DEFAULT_TIME_LIMIT,
                  **{name: value for name, value in given.items() if value is not None},
                  "out": fresh or os.path.join(runs, os.path.expanduser(out_dir)), "caller": Caller.MCP}
        job = app.prepare(problem, **chosen)
        app.claim_out_dir(job.out_dir)
        return job
    except Exception as exc:  # noqa: BLE001 - app.failure says which are the caller's and how
        if fresh:
            with contextlib.suppress(OSError):
                os.rmdir(fresh)  # made for this solve, still empty
        found = app.failure(exc)
        if found is None:
            raise
        raise ToolError(found[1]) from None


async def relay_progress(lines, ctx):
    """Send what the run says as progress notifications, from whatever thread said it, until END."""
    count = 0
    while (line := await anyio.to_thread.run_sync(lines.get, abandon_on_cancel=True)) is not END:
        count += 1
        try:
            await ctx.report_progress(count, None, line)
        except Exception:  # noqa: BLE001 - a client that stopped listening does not stop the run
            pass


async def run_in_thread(work, on_cancel):
    """`work` in a worker thread; on the client's cancel, `on_cancel()` stops it and the cancel goes on."""
    try:
        return await anyio.to_thread.run_sync(work, abandon_on_cancel=True)
    except anyio.get_cancelled_exc_class():
        on_cancel()
        raise


def build_server(host, allow_weak_sandbox=False, options=None):
    async def solve(problem: Problem, ctx: Context, tests: SolveTests = None, max_calls: MaxCalls = None,
                    time_limit: TimeLimit = None, model: Model = None, out_dir: OutDir = None,
                    kind: Kind = None) -> SolveResult:
        """Write tests and a function run_code for a problem, run them in a sandbox and revise until they pass.
        Returns the status (solved, unconfirmed, unsolved, ...), the code, the tests that counted with where
        each expected value came from (the others apart, with why), a one-line message saying how far to trust
        it, usage and the folder with solution.py, test_solution.py and run.json (a new one unless out_dir
        names one)."""
        model_config = host.config(model)  # before a folder is made for the solve: the model may not be ready
        job = prepared(problem, tests, max_calls, time_limit, out_dir, options or {}, kind)
        settings = replace(job.settings, model=model_config)
        lines, handle = queue.Queue(), {}

        def work():
            try:
                final = app.run_problem(job.problem, settings, job.out_dir, echo=lines.put, input_notes=job.notes,
                                        on_start=lambda services: handle.update(services=services))
                lines.put(final["message"])
                return final
            except Exception as exc:  # noqa: BLE001 - one app.failure knows (run.json unwritable) is told the caller
                if app.failure(exc) is None:
                    raise
                return exc
            finally:
                lines.put(END)
        async with anyio.create_task_group() as group:
            group.start_soon(relay_progress, lines, ctx)
            final = await run_in_thread(work, lambda: handle.get("services") and
                                        handle["services"].stop("cancelled by the client"))
        if isinstance(final, Exception):
            raise ToolError(app.failure(final)[1])
        return solve_result(final, settings.isolation)

    async def run_tests(code: Code, tests: Tests, checker: Checker = None, test_timeout: TestTimeout = None,
                        kind: Kind = None) -> RunTestsResult:
        """Run code's run_code on each test in the sandbox (never in this server's process) and judge each
        output: equal to expected (floats within a tolerance), or accepted by the checker. Returns per test
        whether it passed, the expected value, what it returned (actual), the error, the traceback and what it
        printed (each cut to a stated size), and how the code was isolated."""
        isolation = checked_isolation(allow_weak_sandbox)
        cases = checked_tests(code, tests, kind)
        contract = checked_contract(code, kind)
        source = checked_checker(checker) if checker else None
        group = SandboxGroup()
        limits = Limits() if test_timeout is None else Limits(test_timeout=test_timeout)
        outputs = await run_in_thread(lambda: run_batch(code, [case.input for case in cases], limits, isolation,
                                                        group=group, contract=contract), group.kill)
        accepted = await run_in_thread(lambda: checked_outputs(source, cases, outputs, isolation, group),
                                       group.kill) if source else None
        return judged(cases, outputs, accepted, isolation, Comparison(tokens=kind == Family.STDIO))

    return StrictServer("codeloop", log_level="WARNING", tools=[tool(solve, SOLVE), tool(run_tests, RUN_TESTS)],
                        instructions=(
        "Give solve a programming problem (statement and examples; a function named run_code is written) to get "
        "tested code back: the expected values of its tests come from running programs, not from a model's word. "
        "Give run_tests your own code and tests to run them in a sandbox."))


def checked_isolation(allow_weak_sandbox):
    isolation = best_isolation()
    if isolation == WEAK and not allow_weak_sandbox:
        raise ToolError("this machine gives the sandbox no real isolation (neither bubblewrap nor unshare works), "
                        "so run_tests will not run code here unless whoever starts this server allows a weak sandbox "
                        "(docs/mcp.md, Safety)")
    return isolation


def checked_contract(code, kind):
    """What the sandbox's codec needs for code of the family the client named (core/problem_kind.from_code)."""
    try:
        return from_code(code, kind and str(kind), Caller.MCP.option("kind")).for_sandbox()
    except ProblemKindError as exc:
        raise ToolError(str(exc)) from None


def checked_tests(code, tests, kind=None):
    if not isinstance(code, str) or not code.strip():
        raise ToolError("the code is empty: give Python source defining run_code")
    try:
        defined = {node.name for node in ast.parse(code).body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}
    except (SyntaxError, ValueError) as exc:
        raise ToolError(f"the code does not parse as Python: {exc}") from None
    if "run_code" not in defined and kind not in (Family.DESIGN, Family.STDIO):  # a design's code is its class, stdio's a program
        raise ToolError("the code defines no function run_code: name the function to test run_code")
    try:
        cases = cases_from_data(tests, Caller.MCP.option("tests"))
    except InputError as exc:
        raise ToolError(str(exc)) from None
    if kind == Family.STDIO:  # a test of a program is a pair of texts
        wrong = next((case.name for case in cases if list(case.input) != ["stdin"] or not isinstance(case.input["stdin"], str)
                      or not isinstance(case.expected, str)), None)
        if wrong:
            raise ToolError(f"{Caller.MCP.option('tests')}: {wrong}: a stdio test is {{input: {{stdin: text}}, expected: text}}")
        return cases
    misfit = "" if kind == Family.DESIGN else first_misfit(cases, of_code(code))  # before any code runs
    if misfit:
        raise ToolError(f"{Caller.MCP.option('tests')}: {misfit}")
    return cases


def checked_checker(checker):
    """The client's checker source (never a path: the client names no file of this machine)."""
    try:
        return app.checker_source(checker, Caller.MCP.option("checker"))
    except InputError as exc:
        raise ToolError(str(exc)) from None


def checked_outputs(source, cases, outputs, isolation, group):
    """The checker's verdict on each output, run in the sandbox like any program."""
    calls = [{**case.input, "output": result["value"]} for case, result in zip(cases, outputs)]
    said = run_batch(source + CHECKER_SHIM, calls, Limits(), isolation, group=group)
    return [result["ok"] and result["value"] is True for result in said]


def judged(cases, outputs, accepted, isolation, comparison=EXACT):
    results = []
    for k, (case, raw) in enumerate(zip(cases, outputs)):
        verdict = judge(raw, case.expected, comparison)
        passed = bool(raw["ok"] and accepted[k]) if accepted is not None else verdict["passed"]
        error = f"{raw['error_type']}: {raw['message']}" if raw["error_type"] else \
            "the checker did not accept it" if raw["ok"] and not passed and accepted is not None else ""
        results.append(TestResult(name=case.name, passed=passed, expected=case.expected, actual=clip(raw["repr"], "actual"),
                                  error=clip(error, "error"), traceback=clip(raw["traceback"], "traceback"),
                                  output=clip(raw["output"], "output")))
    return RunTestsResult(isolation=isolation, passed=sum(r["passed"] for r in results), total=len(results),
                          results=results)


def serve(http_port=None, slots=2, allow_weak_sandbox=False, options=None):
    """Serve on stdio (or streamable HTTP on 127.0.0.1:http_port) until the client goes. `options` are
    app.prepare's (the command line's other flags): every solve's defaults, checked here first, so that a
    bad one stops the server with the CLI's message; `out` is the folder the runs go under."""
    options = dict(options or {})
    if options.get("out"):  # a solve's relative out_dir is taken from here, whatever the server's working folder later
        options["out"] = os.path.abspath(options["out"])
    with tempfile.TemporaryDirectory() as folder:
        app.prepare("Check the server's options.", **{**options, "out": folder})
    host = ModelHost(slots, options.get("model"), options.get("base_url"), options.get("local", False))
    host.start()
    server = build_server(host, allow_weak_sandbox, options)
    say(f"codeloop mcp: serving on {'stdio' if http_port is None else f'http://127.0.0.1:{http_port}/mcp'}")
    try:
        if http_port is None:
            server.run()
        else:
            local = [f"127.0.0.1:{http_port}", f"localhost:{http_port}"]
            server.run("streamable-http", host="127.0.0.1", port=http_port, transport_security=TransportSecuritySettings(
                allowed_hosts=local, allowed_origins=[f"http://{name}" for name in local]))
    finally:
        host.close()
    return 0


if __name__ == "__main__":
    sys.exit(serve())
