"""codeloop as a library: the same run as `python main.py`, called from Python.

    from codeloop import solve

    result = solve("Return the sum of the even numbers in the list nums.", max_iterations=3)
    print(result.status, result.tests_passed, "/", result.tests_total)
    print(result.code)

solve() takes the CLI's options as keyword arguments, named as the flags without dashes
(`max_iterations=3` for `--max-iterations 3`, `reflect=True` for `--reflect`, `docs=["api.md"]`,
`lint=False` for `--no-lint`, `token_budget=20000`); they are checked by the same rules as the flags.
`tests=` takes a file (as --tests) or the cases themselves: [{name, input, expected}, ...].
Bad options or input raise CodeloopError with the CLI's one-line message and exit code; a run that
ends unsolved is not an error: read `result.status`.
"""
import inspect
import sys
from dataclasses import dataclass, field, fields

import app
from settings import Settings
from core.feedback import passed_count

# Settings the library does not take as options: they come from the input (docs, tests), from
# the machine (the model endpoint's config, the sandbox) or from the entry point (whose words messages use).
DERIVED = {"model", "docs", "tests", "limits", "isolation", "caller"}


class CodeloopError(Exception):
    """The run could not start: bad options or input, or no sandbox or model. `exit_code` is the CLI's."""

    def __init__(self, message, exit_code):
        super().__init__(message)
        self.exit_code = exit_code


@dataclass(frozen=True)
class Result:
    status: str            # solved, unsolved, unconfirmed, stopped, model_failed, untested, interrupted, error
    message: str           # one line, as the CLI prints it
    code: str | None       # the final run_code (the best version when not solved)
    tests: list            # [{name, input, expected, origin}], origin statement, user or model
    results: list          # one per test: {passed, actual, error_type, message, timed_out, ms, ...}
    usage: dict            # model_calls, prompt_tokens, completion_tokens, model_seconds
    iterations: int
    exit_code: int         # what main.py would exit with
    out_dir: str           # solution.py, test_solution.py and run.json are here
    attempts: list = field(default_factory=list)  # every version tried (the search tree)
    confidence: dict | None = None  # how likely `code` is right: value, threshold, features (core/confidence.py)

    @property
    def solved(self):
        return self.status == "solved"

    @property
    def tests_passed(self):
        return passed_count(self.results)

    @property
    def tests_total(self):
        return len(self.results)


def options():
    """The keyword arguments solve() takes."""
    named = [name for name in inspect.signature(app.prepare).parameters if name not in ("problem", "options")]
    return sorted(set(named) | {item.name for item in fields(Settings)} - DERIVED)


def solve(problem=None, *, progress=False, **keywords):
    """Run codeloop on one problem (text, or problem_file=PATH) and return a Result.
    progress=True prints the run's progress to stderr as the CLI does."""
    unknown = sorted(set(keywords) - set(options()))
    if unknown:
        raise TypeError(f"solve() got unknown options {', '.join(unknown)}; known: {', '.join(options())}")
    say = (lambda text: print(text, file=sys.stderr, flush=True)) if progress else None
    try:
        final = app.run(app.prepare(problem, **keywords), echo=say, announce=say)
    except Exception as exc:
        code, message = app.failure(exc) or (None, None)
        if code is None:
            raise
        raise CodeloopError(message, code) from None
    return Result(status=final["status"], message=final["message"], code=final["function_code"],
                  tests=final["test_cases"], results=final["test_results"], usage=final["usage"],
                  iterations=final["iterations"], exit_code=final["exit_code"], out_dir=final["out_dir"],
                  attempts=final["attempts"], confidence=final.get("confidence"))
