"""Running one problem, for every entry point: main.py (the CLI), codeloop.py (the library) and bench.

    job = prepare(problem_text, max_iterations=3, tests="mine.yaml")   # reads input; checks every option
    final = run(job, echo=print)                                        # the flow, with the model it needs

`prepare` takes the options by their flag names (`--max-iterations` -> max_iterations) and builds the
Settings; `run` starts the embedded model when no endpoint is configured, runs the flow on a fresh
shared store, and always leaves run.json, solution.py and test_solution.py behind, and run.html, the
run's page, made from run.json as the run ends. `failure(exc)` maps what can stop a run before or
around the flow to an exit code and a one-line message, for all entry points alike.
"""
import argparse
import ast
import itertools
import os
import re
import signal
import tempfile
import traceback
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime

from core.budget import Budget
from core.confidence import Calibration, CalibrationError, load as load_calibration
from core.seeds import Seeds
from core.cases import records
from core.feedback import passed_count
from core.output_kind import OutputKind, chosen, text_kind
from core.problem_kind import Family, ProblemKindError, detect
from core.prompts import instructions
from core.search_tree import AttemptTree
from core.signature import first_misfit, of_statement
from core.statement_examples import statement_examples
from core.vocabulary import Caller, RunStatus
from flow import create_flow
from pages.run_page import write_run_page
from settings import Settings, SettingsError
from utils.call_llm import SERVERS_GONE, ModelConfig, safe_url
from utils.docs_context import read_docs
from utils.lint import lint_off
from utils.export import write_outputs
from utils.llama_server import LlamaServer, LocalModelError
from utils.local_model import MODEL_NAME, WHEEL, engine, ensure_local_model, is_set_up
from utils.problem_input import read_problem
from utils.problem_package import read_package
from utils.run_record import RunRecord
from utils.sandbox import Limits, SandboxGroup, SandboxUnavailable, best_isolation
from utils.progress import Progress
from utils.terminal import NoTerminal, Terminal, require_terminal
from utils.text_files import InputError, WriteError, read_text_file
from utils.user_tests import UserTests, cases_from_data, read_user_file

EXIT_SOLVED, EXIT_UNSOLVED, EXIT_USAGE, EXIT_MODEL, EXIT_INTERNAL, EXIT_INTERRUPTED = 0, 1, 2, 3, 4, 130
EXIT_BY_STATUS = {RunStatus.SOLVED: EXIT_SOLVED, RunStatus.UNSOLVED: EXIT_UNSOLVED, RunStatus.MODEL_FAILED: EXIT_MODEL,
                  RunStatus.ERROR: EXIT_INTERNAL, RunStatus.INTERRUPTED: EXIT_INTERRUPTED,
                  RunStatus.STOPPED: EXIT_UNSOLVED,  # the person finished early (--interactive)
                  RunStatus.UNCONFIRMED: EXIT_UNSOLVED,  # passes the counted tests; inputs disputed or none trusted
                  RunStatus.UNTESTED: EXIT_UNSOLVED}  # no tests to run (the single-shot baseline, every test deleted): no claim


def first_run(served_by):
    """The line a first run says before setting up the embedded model; `served_by` the engine (utils/local_model)."""
    how = ("llama.cpp is prebuilt (the xllamacpp wheel) and 1.1 GB of weights are downloaded into ~/.cache/codeloop "
           "(about a minute)" if served_by == WHEEL else "llama-server is built from source and 1.1 GB of weights "
           "are downloaded into ~/.cache/codeloop (about 5 minutes on 2 cores)")
    return ("no model endpoint is configured (OPENAI_BASE_URL, OPENAI_API_KEY or --base-url), so the embedded model "
            f"is set up now, once: {how}. To use an endpoint instead, press Ctrl-C and set OPENAI_BASE_URL (and "
            "OPENAI_API_KEY).")


RUNS = "runs"  # where a run's own folder is made when --out names none (relative: the working folder)


class UsageError(Exception):
    """Bad usage; the message is one line for the user (exit 2)."""


class OneLineParser(argparse.ArgumentParser):
    """argparse, but a usage error is one line (and exit 2) instead of the usage dump, and a flag is taken only
    as written: no prefix of it (`--problem TEXT` read as --problem-file, "problem file TEXT: no such file")."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, allow_abbrev=False, **kwargs)

    def error(self, message):
        raise UsageError(f"{message} (see --help)")


def failure(exc):
    """(exit code, one-line message) for an exception that stops a run outside the flow; None for a bug."""
    if isinstance(exc, (UsageError, InputError, SettingsError, NoTerminal, ProblemKindError, CalibrationError)):
        return EXIT_USAGE, str(exc)
    if isinstance(exc, LocalModelError):
        return EXIT_MODEL, str(exc)
    if isinstance(exc, (SandboxUnavailable, WriteError)):
        return EXIT_INTERNAL, str(exc)
    return None


class Terminated(KeyboardInterrupt):
    """SIGTERM: ends the run like Ctrl-C (the embedded server stops, the record is kept), said as what it is."""


def stop_on_sigterm():
    def terminate(signum, frame):
        raise Terminated
    signal.signal(signal.SIGTERM, terminate)


@dataclass(frozen=True)
class Job:
    problem: str
    settings: Settings
    out_dir: str
    embedded: bool  # the model is the embedded one, to be started for the run
    notes: tuple = ()  # one line each on the person's input read otherwise than before (YAML 1.2's rules)


def prepare(problem=None, *, problem_file=None, problem_dir=None, docs=(), tests=None, out=None, model=None, base_url=None,
            local=False, test_timeout=None, checker=None, output_kind=None, **options):
    """A Job from the user's input and options; raises what failure() maps to exit 2 on bad input.
    `problem_dir` a Kattis problem package (a stdio problem: its statement and samples, its time limit and
    tolerance); `tests` is a file (--tests) or the cases themselves; `checker` a file (--checker) or is_valid's
    source; `docs` lists files or folders; `options` are Settings fields (max_iterations, samples, lint, ...)."""
    if problem_dir is not None:
        if problem is not None or problem_file is not None:
            raise InputError("give the problem either as text, with --problem-file or with --problem-dir, not two of them")
        text, test_timeout, options["kind"] = package_problem(problem_dir, test_timeout, options.get("kind"))
    else:
        text = read_problem(problem, problem_file)
    endpoint, embedded = choose_endpoint(model, base_url, local)
    caller = options.get("caller", Caller.CLI)
    listed = "tests=" if caller == Caller.CLI else caller.option("tests")  # the library's tests=[...], or MCP's
    given = UserTests(cases_from_data(list(tests), listed)) if isinstance(tests, (list, tuple)) else \
        read_user_file(tests) if tests else UserTests([])
    checker = read_checker(checker, caller.option("checker")) if checker else given.checker
    limits = Limits() if test_timeout is None else Limits(test_timeout=test_timeout)
    settings = Settings(model=endpoint, docs=read_docs(docs), tests=tuple(given.cases), limits=limits,
                        isolation=best_isolation(), checker=checker,
                        output_kind=output_kind or given.output_kind or ("any" if checker else None), **options)
    if settings.interactive:
        require_terminal()
    load_calibration(settings.calibration)  # one that does not load is refused before any folder is made
    # a statement of a family codeloop cannot run is refused before any folder is made, as are tests that cannot fit it
    contract = detect(text, kind=settings.kind, option=settings.caller.option("kind"))
    misfit = "" if contract.design_class else first_misfit(given.cases, of_statement(text, statement_examples(text, contract)))
    if misfit:
        raise InputError(f"{listed if isinstance(tests, (list, tuple)) else f'--tests {os.fspath(tests)}'}: {misfit}")
    out_dir = os.fspath(out) if out else new_out_dir(RUNS, text)
    try:
        os.makedirs(out_dir, exist_ok=True)
        with tempfile.TemporaryFile(dir=out_dir):  # can we write there at all (a read-only folder, a full disk)?
            pass
    except OSError as exc:
        raise UsageError(f"cannot write to the output folder {out_dir}: {exc.strerror or exc}") from None
    return Job(text, settings, out_dir, embedded, tuple(filter(None, [given.note])))


def package_problem(folder, test_timeout=None, kind=None):
    """(the statement, the test time limit, "stdio") of the Kattis package in `folder` (utils/problem_package.py):
    its tolerance said in the statement's words, as a pasted statement would; its time limit, where it states
    one above the sandbox's default, for each test (Python is slower than the jury's solutions the limit is
    set from, so never below the default); --test-timeout wins."""
    if kind not in (None, "stdio"):
        raise InputError(f"--problem-dir reads a contest problem (--kind stdio), not --kind {kind}")
    package = read_package(folder, hidden=False)
    text = package.statement
    if package.float_tolerance:
        text += (f"\n\n(The judge accepts numbers within an absolute or relative error of {package.float_tolerance:g}.)"
                 if not text_kind(text).tolerance else "")
    if test_timeout is None and package.time_limit and package.time_limit > Limits().test_timeout:
        test_timeout = package.time_limit
    return text, test_timeout, "stdio"


def read_checker(checker, label="--checker"):
    """A checker's source, from a file (--checker FILE) or given as it is (the library's checker=): it must
    define is_valid; it is only ever run in the sandbox. `label` names the option in messages."""
    source = checker if "\n" in checker or "def " in checker else read_text_file(checker, f"{label} {checker}", 200_000)
    return checker_source(source, label)


def checker_source(source, label="--checker"):
    """A checker's source, as it is: it must parse and define is_valid."""
    try:
        defined = {node.name for node in ast.parse(source).body if isinstance(node, ast.FunctionDef)}
    except (SyntaxError, ValueError) as exc:
        raise InputError(f"{label}: the checker does not parse as Python: {exc}") from None
    if "is_valid" not in defined:
        raise InputError(f"{label}: the checker must define is_valid(<the inputs>, output) -> bool")
    return source


def choose_endpoint(model=None, base_url=None, local=False):
    """(ModelConfig, embedded): the endpoint configured (flags, then OPENAI_BASE_URL / OPENAI_API_KEY), or
    the embedded model when none is configured or --local asks for it (its address is known once started)."""
    if local and base_url:
        raise UsageError("--local and --base-url contradict each other")
    endpoint = ModelConfig.from_env(model=model, base_url=base_url)
    embedded = local or (not endpoint.base_url and "OPENAI_API_KEY" not in os.environ)
    return (replace(endpoint, model=model or MODEL_NAME) if embedded else endpoint), embedded


def new_out_dir(parent, problem, now=None):
    """A new folder for one run under `parent`, made here: <time>-<the problem's first words>, or that with -2,
    -3, ... when it exists. os.mkdir refuses a folder that exists, so two runs started in the same second (in
    threads of one process, as the MCP server's solves, or in two processes) never get the same one; looking
    first and making it later let both in, and one run's files overwrote the other's."""
    words = "-".join(re.findall(r"[a-z0-9]+", problem.lower())[:5])[:60]  # a word may be long: a name has a limit
    base = os.path.join(parent, (now or datetime.now()).strftime("%Y%m%d-%H%M%S") + "-" + (words.strip("-") or "problem"))
    try:
        os.makedirs(parent, exist_ok=True)
        for n in itertools.count(1):
            path = base if n == 1 else f"{base}-{n}"
            try:
                os.mkdir(path)
                return path
            except FileExistsError:
                continue
    except OSError as exc:
        raise UsageError(f"cannot write to the output folder {parent}: {exc.strerror or exc}") from None


def claim_out_dir(out_dir):
    """Make `out_dir` (a folder that exists) this run's alone, for a caller that must never overwrite another
    run (the MCP server): refused with a UsageError when it holds a run.json already, of a run that ended or
    of one still running. The run.json made here (O_EXCL: of two runs claiming one folder at once, exactly one
    succeeds) says only that a run starts; the run's record replaces it at once."""
    path = os.path.join(out_dir, "run.json")
    try:
        claimed = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    except FileExistsError:
        raise UsageError(f"the output folder {out_dir} holds another run already (its run.json): give a folder "
                         "of its own to each run, or none for a new one") from None
    except OSError as exc:
        raise UsageError(f"cannot write to the output folder {out_dir}: {exc.strerror or exc}") from None
    with open(claimed, "w", encoding="utf-8") as f:
        f.write('{"status": "running"}\n')


def run(job, echo=None, flow=None, announce=None):
    """Run the job (with the embedded model when it needs it); the final summary, as --json prints it.
    `echo` gets the run's progress lines; `announce` what the embedded model's set-up and start say, and, when
    there is no progress (--json), the notes on the person's input, which are never silent."""
    for note in job.notes if announce and not echo else ():
        announce(f"codeloop: note: {note}")
    with model_server(job.settings.model, job.embedded, announce, slots=job.settings.embedded_slots) as (model, notes):
        return run_problem(job.problem, replace(job.settings, model=model), job.out_dir, echo, flow, notes,
                           input_notes=job.notes)


@contextmanager
def model_server(model, embedded, say=None, slots=1, prefix="codeloop"):
    """Yields (the ModelConfig to use, notes for the record). For the embedded model, the server is set up
    if needed, started, and stopped however the block ends."""
    if not embedded:
        yield model, {}
        return
    if say and not is_set_up():
        say(f"{prefix}: {first_run(engine())}")
    binary, weights = ensure_local_model(say or (lambda text: None))
    with LlamaServer(binary, weights, slots=slots, prompt_prefix=instructions()) as server:
        if say:
            say(f"{prefix}: embedded model ready in {server.start_seconds:.1f} s ({server.name}, pid {server.proc.pid}"
                + (f", {slots} slots)" if slots > 1 else ")"))
        SERVERS_GONE[server.base_url] = server.gone  # a server that dies mid-run ends it in one line naming it
        try:
            yield server.model_config(model.model), {"embedded": True, "server_start_s": round(server.start_seconds, 2),
                                                     "prompt_prefix": server.prefix_note,
                                                     "engine": "xllamacpp wheel" if server.wheel else "llama-server"}
        finally:
            SERVERS_GONE.pop(server.base_url, None)


def run_problem(problem, settings, out_dir, echo=None, flow=None, model_notes=None, on_start=None, input_notes=()):
    """Run a flow (the product's by default) on one problem; run.json and the exports land in out_dir.
    `on_start(services)` gets the run's services as it starts (the MCP server keeps them, to stop the run);
    `input_notes` (Job.notes) are said and recorded first, as is lint being off where ruff cannot run."""
    described = settings.describe()
    described["model"].update(model_notes or {})
    record = RunRecord(os.path.join(out_dir, "run.json"), problem, described, echo)
    if echo:
        echo(f"codeloop: model {settings.model.model} at {safe_url(settings.model.base_url) or 'OpenAI'}; "
             f"sandbox {settings.isolation}; output in {out_dir}")
    for note in input_notes:
        record.event("input_note", say=f"codeloop: note: {note}", note=note)
    off = settings.lint and lint_off()
    if off:  # lint is advice: the run goes on without it, but says so once
        record.event("lint_off", say=f"codeloop: lint is off: {off}; the run goes on without it", reason=off)
    shared = new_store(problem, settings, record, Progress(echo) if echo else None)
    contract = shared["contract"]
    if not contract.plain:  # said and kept: its tests are in list form, and the sandbox calls the code as it says
        record.event("problem_kind", say=f"  a {contract.family} problem: {contract.describe()}", **contract.record())
    if on_start:
        on_start(shared["services"])
    try:
        (flow or create_flow(settings)).run(shared)
    except KeyboardInterrupt as stop:
        shared["services"].sandboxes.kill()
        shared["status"] = RunStatus.INTERRUPTED
        shared["message"] = "terminated (SIGTERM)" if isinstance(stop, Terminated) else "interrupted by the user (Ctrl-C)"
    except WriteError as exc:  # run.json could not be written (a full disk): stop, keep what is in memory
        shared["status"], shared["message"] = RunStatus.ERROR, str(exc)
    except Exception as exc:  # noqa: BLE001 - a bug must still leave a complete record behind
        shared["status"], shared["message"] = RunStatus.ERROR, f"internal error: {type(exc).__name__}: {exc}"
        _unless_unwritable(record.event, "error", traceback=traceback.format_exc())
    budget = shared["services"].budget
    if budget.stop_event.is_set() and shared["status"] not in (RunStatus.SOLVED, RunStatus.ERROR):
        shared["status"], shared["message"] = RunStatus.INTERRUPTED, budget.stop_reason  # stopped by a client
    return finish(shared, record, out_dir)


def finish(shared, record, out_dir):
    """Write the outputs and finalise run.json, as far as the disk allows; the final summary either way
    (a file that could not be written is not among its `files`, and the message says why)."""
    files, current = [], shared["attempts"].get(shared["current"])
    try:
        checker = shared["attempts"].get(shared["checker"])  # the exported tests judge as the run did
        tests = shared["test_cases"]  # and leave out the examples the run could not judge the code on
        unjudged = current.unjudged_tests(tests) if current else []
        several = shared["output_kind"].kind == OutputKind.ANY_VALID
        files = write_outputs(out_dir, current and current.code, tests, shared["output_kind"].comparison,
                              checker and checker.code, unjudged, by_equality=several and checker is None,
                              contract=shared["contract"].for_sandbox())
    except WriteError as exc:
        if shared["status"] != RunStatus.ERROR:
            shared["status"], shared["message"] = RunStatus.ERROR, str(exc)
    page = os.path.join(out_dir, "run.html")
    final = result_summary(shared, out_dir, files + [record.path, page], record.usage())
    if not _unless_unwritable(record.finish, shared["status"], shared["message"], final):
        final["files"] = files
    elif (failure := write_page(record.path)) is not None:  # a page that fails costs the run nothing else
        final["files"].remove(page)  # before the event saves run.json again: it names only the files there are
        _unless_unwritable(record.event, "page_failed", **failure)
    return final


def write_page(record_path):
    """run.html from the finished run.json (pages/run_page.py); None, or why it could not be written (a bug's
    traceback included)."""
    try:
        write_run_page(record_path)
        return None
    except WriteError as exc:
        return {"message": str(exc)}
    except Exception as exc:  # noqa: BLE001 - the run's result and files stand whatever the page does
        return {"message": f"{type(exc).__name__}: {exc}", "traceback": traceback.format_exc()}


def _unless_unwritable(write, *args, **kwargs):
    """Call a RunRecord method; False when run.json could not be written."""
    try:
        write(*args, **kwargs)
        return True
    except WriteError:
        return False


@dataclass(frozen=True)
class Services:
    """What every node may use besides the run's data: one object, so that several runs can share a process.
    `stop` ends one run without touching another's."""
    settings: Settings
    record: RunRecord        # run.json; nodes add events, model calls are journaled as they return
    budget: Budget           # --max-calls / --token-budget / --time-limit, held before every request; its stop
    seeds: Seeds             # --seed: each request's sampling seed
    out_dir: str             # where the run's files go: run.json, solution.py, test_solution.py, ...
    progress: Progress | None = None   # the live line of the calls in flight (none under --json)
    terminal: Terminal | None = None   # the person's terminal, with --interactive only
    sandboxes: SandboxGroup = field(default_factory=SandboxGroup)  # this run's sandbox processes
    calibration: Calibration | None = None  # weighs the evidence of the ending (core/confidence.py)

    def stop(self, reason):
        """End this run now (a client's cancel): no more requests, calls in flight cancelled, its sandboxes
        killed; the flow ends with what it has, and its record is kept."""
        self.budget.stop(reason)
        self.sandboxes.kill()


def new_store(problem, settings, record, progress=None):
    """The shared store at the start of a run; docs/design.md documents every key."""
    budget = Budget(settings.max_calls, settings.token_budget, record.usage, settings.time_limit, settings.caller)
    contract = detect(problem, kind=settings.kind)
    services = Services(settings, record, budget, Seeds(settings.seed), os.path.dirname(record.path), progress,
                        Terminal() if settings.interactive else None, calibration=load_calibration(settings.calibration))
    return {"problem": problem, "services": services, "reflection": "", "guidance": [], "packages": None,
            "test_cases": [], "output_kind": text_kind(problem) if contract.family == Family.STDIO else
            chosen(settings.output_kind, problem), "attempts": AttemptTree(), "contract": contract,
            "current": None, "checker": None, "iteration": 0, "dispute_draws": 0, "draw_rest": 0, "tests_owed": False,
            "too_slow": None, "told_apart": [], "raised_fresh": {}, "lacks": None, "status": RunStatus.RUNNING,
            "message": "", "second_reading": None, "confidence": None}


def result_summary(shared, out_dir, files, usage):
    current = shared["attempts"].get(shared["current"])
    results = (current and current.results) or []
    return {"status": shared["status"], "solved": shared["status"] == RunStatus.SOLVED, "message": shared["message"],
            "exit_code": EXIT_BY_STATUS[shared["status"]], "iterations": shared["iteration"],
            "tests_passed": passed_count(results), "tests_total": len(results),
            "out_dir": out_dir, "files": files, "usage": usage,
            "function_code": current and current.code, "test_cases": records(shared["test_cases"]),
            "output_kind": shared["output_kind"].record(), "checker": shared["checker"],
            "test_results": results, "attempt": shared["current"], "attempts": shared["attempts"].records(),
            "second_reading": shared["second_reading"], "confidence": shared["confidence"] and shared["confidence"].record()}
