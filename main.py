"""codeloop: test-driven code generation. Give it a problem; get a tested solution.

    python main.py "Given an array of integers nums and an integer target, return the indices ..."
    python main.py --problem-file examples/two_sum.md --out runs/two_sum
    cat problem.md | python main.py -
    python main.py show runs/two_sum        # the run's page (run.html), written again and opened
"""
import argparse
import importlib.util
import json
import sys

import app
from settings import MODEL_TESTS, Settings
from utils.llama_server import LocalModelError
from utils.local_model import ensure_local_model
from utils.sandbox import Limits
from core.problem_kind import FAMILIES
from core.search_tree import POLICIES
from core.search_tree import render as render_tree
from pages.run_page import write_run_page
from utils.browser import can_open, open_page

EPILOG = """model endpoint:
  With no OPENAI_BASE_URL, no OPENAI_API_KEY and no --base-url (or with --local), codeloop runs an
  embedded model: Qwen2.5-Coder-1.5B-Instruct on llama.cpp, on 127.0.0.1. The first run builds and
  downloads it (about 8-9 minutes and 1.1 GB, once, into ~/.cache/codeloop); later runs start it in seconds.
  OPENAI_API_KEY     key for the endpoint (never written to disk or logs)
  OPENAI_BASE_URL    any OpenAI-compatible server, e.g. http://127.0.0.1:8080/v1 (or --base-url)
  CODELOOP_MODEL     model name (or --model); default gpt-4o-mini
  CODELOOP_CACHE     where the embedded model lives (default $XDG_CACHE_HOME/codeloop or ~/.cache/codeloop)
  CODELOOP_LLAMA_SERVER, CODELOOP_MODEL_FILE   another llama-server binary or GGUF file to use
  CODELOOP_LLAMA_BUILD  portable: skip the CPU-tuned build of llama-server at set-up
  CODELOOP_SANDBOX   force the sandbox isolation: bwrap, unshare or process (default: strongest that works)
  CODELOOP_SANDBOX_PYTHON  the sandbox's interpreter (default /usr/bin/python3)
  CODELOOP_PACKAGES  the --allow-install package cache (default codeloop-packages-<uid> in the temp dir)
  A model call that has no complete answer within 300 s (15 minutes for the embedded model), the
  client's retries included (4 on errors and timeouts; 1 for the embedded model), fails: exit 3.

output (in --out DIR, default runs/<time>-<problem words>/):
  solution.py        the final run_code (a contest problem's: the whole program)
  test_solution.py   pytest file of the final test cases
  run.json           the whole record, written as the run goes
  run.html           the run as a page, made from run.json as the run ends: the ending, every test with where
                     its expected value came from, every version's output and code; `codeloop show RUN_DIR`
                     (python main.py show RUN_DIR) writes it again from any run.json and opens it

trust and agreement:
  The statement's worked examples ("Input: ... Output: ...", ">>> f(...)" lines) become trusted tests:
  the model may never change them, and a run is solved only when all pass (with no example and no
  --tests, a run ends unconfirmed: nothing but agreement backs it). The model's own tests give inputs
  and a guess, asked (--model-tests when-needed) only once the first candidate and the oracle settle
  no claim on those tests and their variants and a candidate passes them; their expected values are
  settled by running candidates (--first-draw of them first) and an oracle (a brute-force program):
  the oracle siding with more candidates than any other output has, over half of the voters, else a
  clear majority of candidates, else (one candidate alone passing the examples) a program failing one
  that returns that candidate's outputs on every other input, else the guess where the one program that
  answered returns it; otherwise (programs that differ) the input is disputed and left out, and the run
  ends unconfirmed. A value settled while a program that passes the examples returned another (a
  split vote) judges the code but backs no claim: unconfirmed too, with no draw. "Solved" also needs
  evidence beyond the statement's examples: an input settled by independent programs (the oracle, a
  majority, a checker, such a program failing an example) or one of your tests; without it the run
  draws more candidates once (the model's tests and the first draw's others first), then ends
  unconfirmed.
  --variants more inputs, each a given one changed a little (a number one larger, a list reversed),
  have no guess: the programs' agreement settles them, and programs that differ dispute them. An input
  that breaks what the statement promises ("exactly one solution", a constraint in words) is dropped,
  when an input validator the model wrote and that accepts every example says so. A revision that
  breaks a test its parent passed is rejected, and an unsolved run hands over its best version: the
  oracle where only it passes the examples, or every test that counts. Revise may correct the model's
  guesses, never one that an independent program returned too.

several right answers ("return any of them", --output-kind any):
  The model also writes a checker, is_valid(<the inputs>, output); it is used only if it accepts every
  output of the statement's examples and rejects outputs wrong by construction (None, another type, a
  list one item short, an index out of range). Then it judges every output. Without one, equality with
  an example's answer or the programs' agreed one judges, and code answering otherwise ends
  unconfirmed. --checker FILE gives yours. The exported tests carry the checker.

contest problems (stdin/stdout; --kind stdio, or read from the statement):
  A statement with Input and Output sections (Markdown, plain text, or Kattis's LaTeX \\section*{Input})
  and samples ("Sample Input 1" / "Sample Output 1", fenced or not; Codeforces' input/output lines) is a
  contest problem: the solution is a whole program, run as `python solution.py < input.txt`. Each test
  gives it its input on standard input, with the test time limit and 4,000,000 printed characters at
  most; what it prints is compared token by token (whitespace and letter case aside), numbers within the
  error the statement states ("an absolute or relative error of at most 10^-6"). The samples are the
  trusted tests; more inputs come from an input generator the model writes (run on 16 seeds), kept where
  an input validator it also writes, and that accepts every sample, accepts them; their expected outputs
  are settled by agreement, as for functions. --problem-dir DIR reads a Kattis problem package: the
  statement (problem_statement/problem.en.tex), its samples (data/sample/*.in, *.ans), its time limit
  (for each test when above the default) and float_tolerance. A package judged by its own validator
  (validation: custom, or interactive) is refused: codeloop compares printed tokens only.

interactive (--interactive, needs a terminal):
  The model may first ask you one question about the problem. Then, after the tests are written and
  after each failed round, you see the tests (and the results and the code) and type a command:
    a  accept and go on          t  edit the tests in $EDITOR     d N  delete test N
    n  add a test                c  edit the code in $EDITOR      f TEXT  feedback for the model
    q  finish now, keeping the best version so far                ?  list the commands
  Tests you write or edit are trusted, like those of --tests FILE.

your tests (--tests FILE):
  YAML or JSON: a list of {name, input: {argument: value}, expected}, or a mapping with tests: [...].
  YAML is read by YAML 1.2's rules: only true/false are booleans (YES, No, on stay strings), 1e-5 is a
  number, 0123 is 123, 23:59 a string; a value YAML 1.1 read otherwise is named in one line.
  Or a pytest file with a module-level CASES list (the test_solution.py of an earlier run): it is
  read, never run. Your tests are trusted: the model may not change them. A test naming an argument
  the statement's function (its def, else the names its examples use) lacks, or missing one it needs,
  is refused before the run. If every test is deleted, the code is still checked: it must parse,
  import and load.

exit codes:
  0    solved: every test that counts passes, and something beyond the statement's examples backs it
  1    not solved within --max-iterations, not confirmed (the code passes every test that counts, but
       programs disagree on some inputs, only the statement's examples back it, no test is an example
       or yours, or no checker judged its other right answers: check those), untested (no test was left;
       the code loads), or you finished early (--interactive)
  2    bad usage or input (blank problem, missing or binary file, too long, --docs or --tests missing
       or malformed, a test naming an argument the statement's function lacks or missing one it needs,
       a --problem-dir package without a statement or samples, with a sample missing its answer, or
       with a custom or interactive validator, an output folder that cannot be written, --interactive
       without a terminal): nothing is written
  3    the model backend failed after retries, or kept giving unusable answers, or the embedded
       model could not be set up or started
  4    internal error: the sandbox could not start, an output file could not be written (a full disk:
       the message names the file and the error), or a bug; details in run.json when it can be written
  130  interrupted (Ctrl-C); run.json keeps what was done
"""


# Flags about this terminal, not the run; every other flag is an option of app.prepare(), by the same name.
TERMINAL_ONLY = ("json", "show_tree", "setup_local", "mcp", "mcp_http", "mcp_slots", "mcp_allow_weak_sandbox")


SHOW_EPILOG = """The page opens in your browser only at a terminal with a display (DISPLAY or WAYLAND_DISPLAY on
Linux), outside CI; elsewhere (a script, a test, a server) its path is printed and nothing is launched.
It is one file with no network: the style is inline, there is no script.

exit codes:
  0    the page is written (its path printed)
  2    no run.json there, or one that cannot be read: not JSON, cut off while written, or not a run's record
       (one line names the file and what is wrong; nothing is written)
  4    the page could not be written (the message names the file and the error)
"""


def show(argv):
    """`codeloop show RUN_DIR`: the run's page made again from its run.json, of any age (pages/run_page.py); opened
    where a person's browser can be (utils/browser.can_open), its path printed either way."""
    parser = app.OneLineParser(prog="codeloop show", description="Write a run's page (run.html) again from its "
                               "run.json, and open it in a browser.", epilog=SHOW_EPILOG,
                               formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("run", metavar="RUN_DIR", help="a run's folder (or its run.json)")
    parser.add_argument("--out", metavar="FILE", help="write the page here (default: run.html beside run.json)")
    parser.add_argument("--no-open", dest="open", action="store_false", help="only write the page and print its path")
    args = parser.parse_args(argv)
    page = write_run_page(args.run, args.out)
    print(page)
    if args.open and can_open() and not open_page(page):
        say("codeloop: no browser took the page; open the path above")
    return app.EXIT_SOLVED


def parse_args(argv):
    return build_parser().parse_args(argv)


def build_parser():
    parser = app.OneLineParser(description="Write tests and a solution for a coding problem, "
                               "run them in a sandbox and revise until they pass.", epilog=EPILOG,
                               formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("problem", nargs="?", help="the problem text, or - to read it from stdin")
    parser.add_argument("--problem-file", metavar="FILE", help="read the problem from FILE")
    parser.add_argument("--problem-dir", metavar="DIR", help="a Kattis problem package (problem.yaml, problem_statement/, "
                        "data/sample/): a contest problem read from standard input (--kind stdio)")
    parser.add_argument("--out", metavar="DIR", help="output folder (default: a new folder under runs/)")
    parser.add_argument("--docs", action="append", metavar="PATH", default=[],  # repeated, so it cannot swallow the problem
                        help="a documentation file or folder (.md, .txt, .rst) given to the model as context; "
                        "repeat for several")
    for add in (model_flags, judging_flags, loop_flags, terminal_flags, mcp_flags):
        add(parser)
    return parser


def mcp_flags(parser):
    group = parser.add_argument_group("as a server for coding agents (MCP; pip install -r requirements-mcp.txt)")
    group.add_argument("--mcp", action="store_true",
                       help="serve the tools solve and run_tests over the Model Context Protocol on stdio (or HTTP)")
    group.add_argument("--mcp-http", type=int, metavar="PORT",
                       help="with --mcp: streamable HTTP on 127.0.0.1:PORT/mcp instead of stdio, local Origins only")
    group.add_argument("--mcp-slots", type=int, default=2, metavar="N",
                       help="with --mcp: solves the embedded model answers at once (default 2)")
    group.add_argument("--mcp-allow-weak-sandbox", action="store_true",
                       help="with --mcp: let run_tests run code even where the sandbox has no real isolation")


def model_flags(parser):
    group = parser.add_argument_group("the model")
    group.add_argument("--model", help="model name (default: $CODELOOP_MODEL or gpt-4o-mini)")
    group.add_argument("--base-url", metavar="URL", help="OpenAI-compatible endpoint (default: $OPENAI_BASE_URL)")
    group.add_argument("--local", action="store_true", help="use the embedded local model even if an endpoint is configured")
    group.add_argument("--setup-local", action="store_true",
                       help="only build and download the embedded model (once), then exit")
    group.add_argument("--parallel", type=int, metavar="N",
                       help="model requests sent at once (default: one per candidate and the oracle; for the "
                       "embedded model 1, which is as fast on 2 cores and reads the shared prompt once)")
    group.add_argument("--max-calls", type=int, metavar="N", help="stop after N model calls")
    group.add_argument("--time-limit", type=float, metavar="SECONDS",
                       help="end the run after this long (requests in flight are cancelled) with the best verdict it "
                       "has, its last line saying the time limit ended it; the embedded model's set-up and start do "
                       "not count")
    group.add_argument("--seed", type=int, metavar="N",
                       help="send each model request a sampling seed made from N, so that a run can be repeated "
                       "(when the endpoint honours seeds, as llama-server does)")
    group.add_argument("--token-budget", type=int, metavar="N", help="stop after N tokens (prompt + completion) in all")
    group.add_argument("--max-tokens", type=int, metavar="N", help="the old name of --token-budget; it goes in the next release")


def judging_flags(parser):
    group = parser.add_argument_group("tests and how they judge")
    group.add_argument("--tests", metavar="FILE",
                       help="your own test cases (YAML, JSON or a pytest file with CASES); trusted: the model "
                       "may not change them")
    group.add_argument("--output-kind", choices=("exact", "unordered", "float", "any"),
                       help="how an output is judged: exact, unordered (a list in any order), float (within the statement's "
                       "stated tolerance, else 10^-5) or "
                       "any (several answers are right: a checker judges them); default: read from the statement")
    group.add_argument("--kind", choices=FAMILIES,
                       help="the problem's family: plain (values in, a value returned), tree (TreeNode / ListNode "
                       "arguments or answer, tests in list form), design (a class the statement names, tests as "
                       "operation and argument lists) or in-place (an argument modified, returning nothing); "
                       "default: read from the statement")
    group.add_argument("--checker", metavar="FILE",
                       help="your checker, a Python file defining is_valid(<the inputs>, output) -> bool: it judges "
                       "outputs where several answers are right (implies --output-kind any); trusted, and run only "
                       "in the sandbox")
    group.add_argument("--calibration", default="", metavar="FILE",
                       help="how the evidence of an ending is weighed into its confidence, refitted for your model "
                       "(python -m bench.calibrate); default: the shipped one, fitted on the embedded model's runs")
    group.add_argument("--test-timeout", type=float, default=Limits.test_timeout, metavar="SECONDS",
                       help=f"time limit per test (default {Limits.test_timeout:g})")
    group.add_argument("--speed-limit", type=float, default=Settings.speed_limit, metavar="SECONDS",
                       help="before a claim, the solution runs once on the statement's largest input (every integer "
                       "argument at its stated bound) and must return within this long, else another version passing "
                       "the same tests that does is handed over, or once a run candidates told so are drawn, or none is "
                       f"claimed; 0 for no check (default {Settings.speed_limit:g})")
    group.add_argument("--samples", type=int, default=Settings.samples, metavar="N",
                       help=f"candidates per code-writing step, asked at the same time (default {Settings.samples})")
    group.add_argument("--first-draw", type=int, default=Settings.first_draw, metavar="N",
                       help=f"of a run's first draw, candidates asked with the oracle; the others only when these "
                            f"settle no claim (default {Settings.first_draw}; as many as --samples: all at once)")
    group.add_argument("--max-draws", type=int, default=Settings.max_draws, metavar="N",
                       help="draws of fresh candidates while none passes the statement's examples (one that brings no new "
                       "program is not counted: core/repeats.py); then the run ends "
                       f"unsolved, its best version handed over (default {Settings.max_draws}; fewer gives up sooner on "
                       "a problem the model cannot do, and solves a few less)")
    group.add_argument("--confidence-draws", type=int, default=Settings.confidence_draws, metavar="N",
                       help="draws of fresh candidates before a claim that one program alone backs, or whose confidence "
                       "falls short of what a claim needs: the confidence tells right from wrong by how many programs "
                       f"passing the statement's examples agree (default {Settings.confidence_draws}; 0: none)")
    group.add_argument("--no-oracle", dest="oracle", action="store_false",
                       help="do not ask for a brute-force oracle to settle expected values")
    group.add_argument("--second-reading", action="store_true",
                       help="before a claim that would stand, ask for a brute force written from the statement's rules "
                       "listed in words (where it passes the examples and returns otherwise, no claim); "
                       "off by default: on the embedded model it never disagreed with a claim, false ones included")
    group.add_argument("--model-expected", dest="agreement", action="store_false",
                       help="take the model's own expected values as the truth, as codeloop did before (no agreement)")
    group.add_argument("--variants", type=int, default=Settings.variants, metavar="N",
                       help="inputs made by small changes to the tests' inputs (a number one larger, a list reversed), "
                       "run on every program and settled only by their agreement; before a claim, 64 fresh inputs shaped like "
                       "the tests' on the claim and other versions passing every test, those they differ on added as "
                       f"variants; 0 for neither (default {Settings.variants})")
    group.add_argument("--model-tests", choices=MODEL_TESTS, default=Settings.model_tests,
                       help="when the model writes its own tests where the statement has examples: first (before any "
                       "code), when-needed (only once the first candidate and the oracle settle no claim on the examples "
                       f"and their variants, and a candidate passes the examples) or never (default {Settings.model_tests})")


def loop_flags(parser):
    group = parser.add_argument_group("the loop")
    group.add_argument("--max-iterations", type=int, default=Settings.max_iterations, metavar="N",
                       help="rounds of testing before giving up, so at most N-1 revisions (default 5)")
    group.add_argument("--search", choices=POLICIES, default=Settings.search,
                       help=f"which attempt to revise next: latest, best, uct or thompson (default {Settings.search})")
    group.add_argument("--reflect", action="store_true",
                       help="have the model restate the problem (goal, inputs, output, edge cases) first")
    group.add_argument("--reflect-failures", action="store_true",
                       help="have the model explain each failure before it revises")
    group.add_argument("--explain", action="store_true",
                       help="when the run ends, have the model explain the final code in a few sentences "
                       "(explanation.md, and run.json)")
    group.add_argument("--allow-install", action="store_true",
                       help="install third-party packages the code imports, into a cached folder for this run's "
                       "sandbox (never into your environment); without it the model must use the standard library")
    group.add_argument("--no-lint", dest="lint", action="store_false",
                       help="do not run ruff on the code (its findings otherwise go into the feedback; the pinned ruff "
                       "first, and where none runs, one line says lint is off)")


def terminal_flags(parser):
    group = parser.add_argument_group("you and the terminal")
    group.add_argument("--interactive", action="store_true",
                       help="review the tests and each failed round yourself: accept, edit, delete or add tests, "
                       "edit the code, give feedback, or finish (needs a terminal)")
    group.add_argument("--show-tree", action="store_true",
                       help="print the tree of attempts (id, score, visits, tests passed) at the end")
    group.add_argument("--json", action="store_true", help="print the result as JSON on stdout; no progress")


def options(args):
    """The parsed flags as app.prepare()'s options: the same names, less those about the terminal."""
    chosen = {name: value for name, value in vars(args).items() if name not in TERMINAL_ONLY}
    old_budget = chosen.pop("max_tokens")
    if old_budget is not None:
        say("codeloop: note: --max-tokens is now --token-budget (a budget for the whole run); "
            "the old name goes in the next release")
        chosen["token_budget"] = chosen["token_budget"] or old_budget
    return chosen


def say(text):
    print(text, file=sys.stderr, flush=True)


def serve_mcp(args):
    """--mcp: the other flags are every solve's defaults; the problems come from the client."""
    chosen = options(args)
    if any(chosen.pop(name) is not None for name in ("problem", "problem_file", "problem_dir")):
        raise app.UsageError("--mcp takes no problem: each one comes from the client's call to solve")
    if chosen.get("interactive"):
        raise app.UsageError("--mcp and --interactive contradict each other: the server has no terminal")
    try:
        import mcp_server  # mcp is optional: only this path needs it
    except ImportError as exc:
        raise app.UsageError(mcp_import_failure(exc)) from None
    return mcp_server.serve(args.mcp_http, args.mcp_slots, args.mcp_allow_weak_sandbox, chosen)


def installed(package):
    try:
        return importlib.util.find_spec(package) is not None
    except (ImportError, ValueError):
        return False


def mcp_import_failure(exc):
    """One line naming what is missing: the mcp package itself, or the module that failed to import (a part of
    another mcp release, or a package mcp needs), which "needs mcp" hid."""
    missing = exc.name or ""
    if isinstance(exc, ModuleNotFoundError) and missing.split(".")[0] == "mcp" and not installed("mcp"):
        return ("--mcp needs the mcp package: pip install -r requirements-mcp.txt in a clone; installed, "
                "install codeloop with its mcp extra: pipx install '.[mcp]' in codeloop's folder")
    what = f"the module {missing} is missing" if isinstance(exc, ModuleNotFoundError) and missing else str(exc).split("(")[0].strip()
    return (f"--mcp cannot start: {what} ({type(exc).__name__}); the server needs mcp as requirements-mcp.txt pins it, "
            "and what it imports: pip install -r requirements-mcp.txt")


def setup_only():
    try:
        binary, weights = ensure_local_model(say)
    except LocalModelError as exc:
        say(f"codeloop: error: {exc}")
        return app.EXIT_MODEL
    say(f"embedded model ready: {binary}, {weights}")
    return app.EXIT_SOLVED


def main(argv=None):
    app.stop_on_sigterm()
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        if argv[:1] == ["show"]:  # the one command besides solving; a problem that reads "show": --problem-file
            return show(argv[1:])
        args = parse_args(argv)
        if args.setup_local:
            return setup_only()
        if args.mcp:
            return serve_mcp(args)
        final = app.run(app.prepare(**options(args)), echo=None if args.json else say, announce=say)
    except KeyboardInterrupt:
        return app.EXIT_INTERRUPTED
    except Exception as exc:
        code, message = app.failure(exc) or (None, None)
        if code is None:
            raise
        say(f"codeloop: error: {message}")
        return code
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
