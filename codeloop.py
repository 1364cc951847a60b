"""codeloop as a library: the same run as `python main.py`, called from Python.

    from codeloop import solve

    result = solve("Return the sum of the even numbers in the list nums.", max_iterations=3)
    print(result.status, result.tests_passed, "/", result.tests_total)
    print(result.code)

solve() takes the CLI's options as keyword arguments, spelled as the flags without dashes
(`max_iterations=3` for `--max-iterations 3`, `reflect=True` for `--reflect`, `docs=["api.md"]`,
`lint=False` for `--no-lint`); they are checked by the CLI's own parser, so they mean exactly what the
flags mean. `tests=` takes a file (as --tests) or the cases themselves: [{name, input, expected}, ...].
Bad options or input raise CodeloopError with the CLI's one-line message; a run that ends unsolved
is not an error: read `result.status`.
"""
import os
from dataclasses import dataclass, field

import main
from utils.local_model import LocalModelError
from utils.sandbox import SandboxUnavailable
from utils.user_tests import UserTestsError, cases_from_data

CLI_ONLY = {"help", "problem", "problem_file", "json", "show_tree", "setup_local"}  # about the terminal, not the run


class CodeloopError(Exception):
    """The run could not start: bad options or input, or no sandbox or model. `exit_code` is the CLI's."""

    def __init__(self, message, exit_code):
        super().__init__(message)
        self.exit_code = exit_code


@dataclass(frozen=True)
class Result:
    status: str            # solved, unsolved, stopped, model_failed, untested, interrupted, error
    message: str           # one line, as the CLI prints it
    code: str | None       # the final run_code (the best version when not solved)
    tests: list            # [{name, input, expected, origin}], origin statement, user or model
    results: list          # one per test: {passed, actual, error_type, message, timed_out, ms, ...}
    usage: dict            # model_calls, prompt_tokens, completion_tokens, model_seconds
    iterations: int
    exit_code: int         # what main.py would exit with
    out_dir: str           # solution.py, test_solution.py and run.json are here
    attempts: list = field(default_factory=list)  # every version tried (the search tree)

    @property
    def solved(self):
        return self.status == "solved"

    @property
    def tests_passed(self):
        return sum(result["passed"] for result in self.results)

    @property
    def tests_total(self):
        return len(self.results)


def cli_options():
    """The CLI's options solve() takes (by keyword name), minus those about the terminal."""
    return {action.dest: action for action in main.build_parser()._actions if action.dest not in CLI_ONLY}


def options():
    """The keyword arguments solve() takes."""
    return sorted(cli_options())


def solve(problem=None, *, problem_file=None, tests=None, out=None, progress=False, **settings):
    """Run codeloop on one problem (text, or problem_file=PATH) and return a Result.
    progress=True prints the run's progress to stderr as the CLI does."""
    known = cli_options()
    unknown = sorted(set(settings) - set(known))
    if unknown:
        raise TypeError(f"solve() got unknown options {', '.join(unknown)}; known: {', '.join(sorted(known))}")
    cases = None
    if isinstance(tests, (list, tuple)):
        try:
            cases = cases_from_data(list(tests), "tests=")
        except UserTestsError as exc:
            raise CodeloopError(str(exc), main.EXIT_USAGE) from None
        tests = None
    argv = as_flags({**settings, "tests": tests, "out": out}, known)
    try:
        args = main.parse_args(argv)
    except main.UsageError as exc:
        raise CodeloopError(str(exc), main.EXIT_USAGE) from None
    args.problem, args.problem_file, args.quiet = problem, problem_file, not progress
    if cases is not None:
        args.user_tests = cases
    try:
        prepared = main.prepare(args)
        final = main.run(args, *prepared)
    except main.UsageError as exc:
        raise CodeloopError(str(exc), main.EXIT_USAGE) from None
    except SandboxUnavailable as exc:
        raise CodeloopError(str(exc), main.EXIT_INTERNAL) from None
    except LocalModelError as exc:
        raise CodeloopError(str(exc), main.EXIT_MODEL) from None
    return Result(status=final["status"], message=final["message"], code=final["function_code"],
                  tests=final["test_cases"], results=final["test_results"], usage=final["usage"],
                  iterations=final["iterations"], exit_code=final["exit_code"], out_dir=final["out_dir"],
                  attempts=final["attempts"])


def as_flags(values, actions):
    """Keyword arguments as the CLI flags that mean the same; None means "the default". A flag
    without a value (--reflect, --no-lint) is given when the value is the one the flag sets."""
    argv = []
    for name, value in values.items():
        if value is None:
            continue
        flag = actions[name].option_strings[0]
        if actions[name].nargs == 0:
            argv += [flag] if value == actions[name].const else []
        elif isinstance(value, (list, tuple)):
            for item in value:
                argv += [flag, os.fspath(item)]
        else:
            argv += [flag, os.fspath(value) if isinstance(value, os.PathLike) else str(value)]
    return argv
