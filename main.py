"""codeloop: test-driven code generation. Give it a problem; get a tested solution.

    python main.py "Given an array of integers nums and an integer target, return the indices ..."
    python main.py --problem-file examples/two_sum.md --out runs/two_sum
    cat problem.md | python main.py -
"""
import argparse
import json
import os
import re
import signal
import sys
import traceback
from datetime import datetime

from flow import create_flow
from nodes import Settings
from utils.call_llm import ModelConfig, safe_url
from utils.docs_context import DocsError, read_docs
from utils.export import write_outputs
from utils.llama_server import LlamaServer
from utils.local_model import MODEL_NAME, LocalModelError, ensure_local_model
from utils.problem_input import ProblemInputError, read_problem
from utils.run_record import RunRecord
from utils.sandbox import Limits, SandboxUnavailable, best_isolation, kill_running_sandboxes
from utils.search_tree import POLICIES
from utils.search_tree import render as render_tree
from utils.terminal import NoTerminal, Terminal, require_terminal
from utils.user_tests import UserTestsError, read_user_tests

EXIT_SOLVED, EXIT_UNSOLVED, EXIT_USAGE, EXIT_MODEL, EXIT_INTERNAL, EXIT_INTERRUPTED = 0, 1, 2, 3, 4, 130
EXIT_BY_STATUS = {"solved": EXIT_SOLVED, "unsolved": EXIT_UNSOLVED, "model_failed": EXIT_MODEL,
                  "error": EXIT_INTERNAL, "interrupted": EXIT_INTERRUPTED,
                  "stopped": EXIT_UNSOLVED,  # the person finished early (--interactive)
                  "untested": EXIT_SOLVED}  # no tests to run: the single-shot baseline, or every test deleted

EPILOG = """model endpoint:
  With no OPENAI_BASE_URL, no OPENAI_API_KEY and no --base-url (or with --local), codeloop runs an
  embedded model: Qwen2.5-Coder-1.5B-Instruct on llama.cpp, on 127.0.0.1. The first run builds and
  downloads it (about 8-9 minutes and 1.1 GB, once, into ~/.cache/codeloop); later runs start it in seconds.
  OPENAI_API_KEY     key for the endpoint (never written to disk or logs)
  OPENAI_BASE_URL    any OpenAI-compatible server, e.g. http://127.0.0.1:8080/v1 (or --base-url)
  CODELOOP_MODEL     model name (or --model); default gpt-4o-mini
  CODELOOP_CACHE     where the embedded model lives (default ~/.cache/codeloop)
  CODELOOP_SANDBOX   force the sandbox isolation: bwrap, unshare or process (default: strongest that works)

output (in --out DIR, default runs/<time>-<problem words>/):
  solution.py        the final run_code
  test_solution.py   pytest file of the final test cases
  run.json           the whole record, written as the run goes

trust and search:
  The statement's worked examples ("Input: ... Output: ...", ">>> f(...)" lines) become trusted tests:
  the model may correct its own tests but never these, and a run is solved only when all pass. A
  revision that breaks a test its parent passed is rejected, and an unsolved run hands over its best
  version (most examples passed, then most tests), saying what still fails.

interactive (--interactive, needs a terminal):
  The model may first ask you one question about the problem. Then, after the tests are written and
  after each failed round, you see the tests (and the results and the code) and type a command:
    a  accept and go on          t  edit the tests in $EDITOR     d N  delete test N
    n  add a test                c  edit the code in $EDITOR      f TEXT  feedback for the model
    q  finish now, keeping the best version so far                ?  list the commands
  Tests you write or edit are trusted, like those of --tests FILE.

your tests (--tests FILE):
  YAML or JSON: a list of {name, input: {argument: value}, expected}, or a mapping with tests: [...].
  Or a pytest file with a module-level CASES list (the test_solution.py of an earlier run): it is
  read, never run. Your tests are trusted: the model may not change them. If every test is deleted,
  the code is still checked: it must parse, import and load.

exit codes:
  0    solved: every test passes (or no tests were left and the code loads)
  1    not solved within --max-iterations, or you finished early (--interactive)
  2    bad usage or input (blank problem, missing or binary file, too long, no endpoint configured,
       --docs or --tests missing or malformed, --interactive without a terminal)
  3    the model backend failed after retries, or kept giving unusable answers, or the embedded
       model could not be set up or started
  4    internal error (the sandbox could not start, or a bug); details in run.json
  130  interrupted (Ctrl-C); run.json keeps what was done
"""


def interrupt(signum, frame):
    raise KeyboardInterrupt


class CliParser(argparse.ArgumentParser):
    def error(self, message):  # one line and exit 2, instead of argparse's usage dump
        raise UsageError(f"{message} (see --help)")


class UsageError(Exception):
    pass


def parse_args(argv):
    return build_parser().parse_args(argv)


def build_parser():
    parser = CliParser(prog="main.py", description="Write tests and a solution for a coding problem, "
                       "run them in a sandbox and revise until they pass.", epilog=EPILOG,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("problem", nargs="?", help="the problem text, or - to read it from stdin")
    parser.add_argument("--problem-file", metavar="FILE", help="read the problem from FILE")
    parser.add_argument("--out", metavar="DIR", help="output folder (default: a new folder under runs/)")
    parser.add_argument("--max-iterations", type=positive_int, default=5, metavar="N",
                        help="rounds of testing before giving up, so at most N-1 revisions (default 5)")
    parser.add_argument("--model", help="model name (default: $CODELOOP_MODEL or gpt-4o-mini)")
    parser.add_argument("--base-url", metavar="URL", help="OpenAI-compatible endpoint (default: $OPENAI_BASE_URL)")
    parser.add_argument("--test-timeout", type=positive_float, default=Limits.test_timeout, metavar="SECONDS",
                        help=f"time limit per test (default {Limits.test_timeout:g})")
    parser.add_argument("--reflect", action="store_true",
                        help="have the model restate the problem (goal, inputs, output, edge cases) first")
    parser.add_argument("--reflect-failures", action="store_true",
                        help="have the model explain each failure before it revises")
    parser.add_argument("--docs", action="append", metavar="PATH", default=[],  # repeated, so it cannot swallow the problem
                        help="a documentation file or folder (.md, .txt, .rst) given to the model as context; "
                        "repeat for several")
    parser.add_argument("--tests", metavar="FILE",
                        help="your own test cases (YAML, JSON or a pytest file with CASES); trusted: the model "
                        "may not change them")
    parser.add_argument("--interactive", action="store_true",
                        help="review the tests and each failed round yourself: accept, edit, delete or add tests, "
                        "edit the code, give feedback, or finish (needs a terminal)")
    parser.add_argument("--allow-install", action="store_true",
                        help="install third-party packages the code imports, into a cached folder for this run's "
                        "sandbox (never into your environment); without it the model must use the standard library")
    parser.add_argument("--no-lint", dest="lint", action="store_false",
                        help="do not run ruff on the code (its findings otherwise go into the feedback)")
    parser.add_argument("--samples", type=positive_int, default=Settings.samples, metavar="N",
                        help=f"candidates per code-writing step, scored by the tests (default {Settings.samples})")
    parser.add_argument("--search", choices=POLICIES, default=Settings.search,
                        help=f"which attempt to revise next: latest, best, uct or thompson (default {Settings.search})")
    parser.add_argument("--max-calls", type=positive_int, metavar="N", help="stop after N model calls")
    parser.add_argument("--max-tokens", type=positive_tokens, metavar="N",
                        help="stop after N tokens (prompt + completion) in all")
    parser.add_argument("--show-tree", action="store_true",
                        help="print the tree of attempts (id, score, visits, tests passed) at the end")
    parser.add_argument("--json", action="store_true", help="print the result as JSON on stdout; no progress")
    parser.add_argument("--local", action="store_true", help="use the embedded local model even if an endpoint is configured")
    parser.add_argument("--setup-local", action="store_true",
                        help="only build and download the embedded model (once), then exit")
    return parser


def positive_int(text):
    if not text.isdigit() or not 1 <= int(text) <= 1000:
        raise argparse.ArgumentTypeError(f"expected a whole number from 1 to 1000, not {text!r}")
    return int(text)


def positive_tokens(text):
    if not text.isdigit() or not 1 <= int(text) <= 10**9:
        raise argparse.ArgumentTypeError(f"expected a whole number of tokens, not {text!r}")
    return int(text)


def positive_float(text):
    try:
        value = float(text)
    except ValueError:
        value = -1
    if not 0 < value <= 600:
        raise argparse.ArgumentTypeError(f"expected seconds between 0 and 600, not {text!r}")
    return value


def default_out_dir(problem):
    words = re.findall(r"[a-z0-9]+", problem.lower())[:5]
    base = os.path.join("runs", datetime.now().strftime("%Y%m%d-%H%M%S") + "-" + ("-".join(words) or "problem"))
    path, n = base, 1
    while os.path.exists(path):
        n += 1
        path = f"{base}-{n}"
    return path


def say(text):
    print(text, file=sys.stderr, flush=True)


def uses_embedded_model(model, local):
    """The embedded model runs when asked (--local) or when no endpoint and no key are configured."""
    return local or (not model.base_url and "OPENAI_API_KEY" not in os.environ)


def prepare(args):
    """Everything that can fail because of the user's input; raises UsageError with a one-line message."""
    try:
        problem = read_problem(args.problem, args.problem_file)
    except ProblemInputError as exc:
        raise UsageError(str(exc)) from None
    model = ModelConfig.from_env(model=args.model, base_url=args.base_url)
    if args.local and args.base_url:
        raise UsageError("--local and --base-url contradict each other")
    use_embedded = uses_embedded_model(model, args.local)
    try:
        args.docs_text = read_docs(args.docs)
        if not isinstance(getattr(args, "user_tests", None), list):  # the library may pass the cases themselves
            args.user_tests = read_user_tests(args.tests) if args.tests else []
        if args.interactive:
            require_terminal()
    except (DocsError, UserTestsError, NoTerminal) as exc:
        raise UsageError(str(exc)) from None
    out_dir = args.out or default_out_dir(problem)
    try:
        os.makedirs(out_dir, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"cannot create the output folder {out_dir}: {exc.strerror or exc}") from None
    return problem, model, use_embedded, out_dir


def run(args, problem, model, use_embedded, out_dir):
    """Run the flow, with the embedded model if asked; the server is stopped however the run ends."""
    if not use_embedded:
        return run_flow(args, problem, model, out_dir)
    binary, weights = ensure_local_model(say)
    with LlamaServer(binary, weights) as server:
        say(f"codeloop: embedded model ready in {server.start_seconds:.1f} s")
        local = server.model_config(args.model or MODEL_NAME)
        return run_flow(args, problem, local, out_dir, {"embedded": True, "server_start_s": round(server.start_seconds, 2)})


def run_flow(args, problem, model, out_dir, model_notes=None):
    settings = Settings(model=model, max_iterations=args.max_iterations, reflect=args.reflect,
                        reflect_on_failures=args.reflect_failures, docs=args.docs_text, samples=args.samples,
                        search=args.search, max_calls=args.max_calls, max_total_tokens=args.max_tokens,
                        user_tests=tuple(args.user_tests), interactive=args.interactive,
                        allow_install=args.allow_install, lint=args.lint,
                        limits=Limits(test_timeout=args.test_timeout), isolation=best_isolation())
    quiet = args.json or getattr(args, "quiet", False)
    return solve(problem, settings, out_dir, echo=None if quiet else say, model_notes=model_notes)


def solve(problem, settings, out_dir, echo=None, model_notes=None, flow=None):
    """Run a flow (the product's by default) on one problem; run.json and the exports land in out_dir."""
    described = settings.describe()
    described["model"].update(model_notes or {})
    record = RunRecord(os.path.join(out_dir, "run.json"), problem, described, echo)
    if echo:
        echo(f"codeloop: model {settings.model.model} at {safe_url(settings.model.base_url) or 'OpenAI'}; "
             f"sandbox {settings.isolation}; output in {out_dir}")
    shared = new_store(problem, settings, record)
    if settings.interactive:
        shared["terminal"] = Terminal()
    try:
        (flow or create_flow(settings)).run(shared)
    except KeyboardInterrupt:
        kill_running_sandboxes()
        shared["status"], shared["message"] = "interrupted", "interrupted by the user"
    except Exception as exc:  # noqa: BLE001 - a bug must still leave a complete record behind
        shared["status"], shared["message"] = "error", f"internal error: {type(exc).__name__}: {exc}"
        record.event("error", traceback=traceback.format_exc())
    finally:
        files = write_outputs(out_dir, shared["function_code"], shared["test_cases"], shared["any_order"])
        final = result_summary(shared, out_dir, files + [record.path], record.usage())
        record.finish(shared["status"], shared["message"], final)
    return final


def new_store(problem, settings, record):
    """The shared store at the start of a run; docs/design.md documents every key."""
    return {"problem": problem, "settings": settings, "record": record, "reflection": "", "guidance": [],
            "terminal": None, "packages": None, "test_cases": [], "tests_version": 0, "any_order": False,
            "attempts": [], "current": None, "function_code": None, "test_results": [], "iteration": 0,
            "status": "running", "message": ""}


def result_summary(shared, out_dir, files, usage):
    results = shared["test_results"]
    return {"status": shared["status"], "solved": shared["status"] == "solved", "message": shared["message"],
            "exit_code": EXIT_BY_STATUS[shared["status"]], "iterations": shared["iteration"],
            "tests_passed": sum(r["passed"] for r in results), "tests_total": len(results),
            "out_dir": out_dir, "files": files, "usage": usage,
            "function_code": shared["function_code"], "test_cases": shared["test_cases"], "test_results": results,
            "attempt": shared["current"], "attempts": [{k: v for k, v in a.items() if k != "results"}
                                                       for a in shared["attempts"]]}


def setup_only():
    try:
        binary, weights = ensure_local_model(say)
    except LocalModelError as exc:
        say(f"codeloop: error: {exc}")
        return EXIT_MODEL
    say(f"embedded model ready: {binary}, {weights}")
    return EXIT_SOLVED


def main(argv=None):
    signal.signal(signal.SIGTERM, interrupt)  # a polite kill also stops the embedded server and keeps the record
    try:
        args = parse_args(argv)
        if args.setup_local:
            return setup_only()
        problem, model, use_embedded, out_dir = prepare(args)
    except UsageError as exc:
        say(f"codeloop: error: {exc}")
        return EXIT_USAGE
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    try:
        final = run(args, problem, model, use_embedded, out_dir)
    except SandboxUnavailable as exc:
        say(f"codeloop: error: {exc}")
        return EXIT_INTERNAL
    except LocalModelError as exc:
        say(f"codeloop: error: {exc}")
        return EXIT_MODEL
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    if args.show_tree:
        say("attempts:\n" + ("\n".join(render_tree(final["attempts"])) or "none"))
    if args.json:
        print(json.dumps(final, indent=1))
    else:
        usage = final["usage"]
        say(f"{final['message']}\n  files: {', '.join(final['files'])}\n  model: {usage['model_calls']} calls, "
            f"{usage['prompt_tokens']:,} prompt + {usage['completion_tokens']:,} completion tokens, "
            f"{usage['model_seconds']:.1f} s")
    return final["exit_code"]


if __name__ == "__main__":
    sys.exit(main())
