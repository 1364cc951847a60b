"""Whether a person's tests fit the function they test: a test naming an argument the function lacks, or
missing one it needs, fails on every program (the sandbox calls run_code by keyword), so it is refused before
the run, in one line naming the test, the argument and the signature, rather than found after the model's time
is spent (issue 87: `--tests`, the library's tests=, MCP's solve and run_tests).

The signature is the statement's `def` (the one its examples are read by, core/statement_examples.py), else the
argument names its examples all use, else unknown (nothing is refused); for run_tests, the code's run_code.
A design problem's tests replay operations on a class: they have no arguments of their own to check.
"""
import ast
import copy
from dataclasses import dataclass

from core.statement_examples import function_def


@dataclass(frozen=True)
class Signature:
    shown: str              # as the message shows it: "the statement's twoSum(nums, target)"
    names: tuple            # the parameters a test may name (by keyword)
    required: tuple         # those of them without a default
    any_name: bool = False  # **kwargs: a name it does not list is taken too

    def misfit(self, inputs):
        """What is wrong with a test's inputs, as the end of a sentence, or ""."""
        unknown = [name for name in inputs if name not in self.names] if not self.any_name else []
        if unknown:
            return f"names {_listed(unknown)}, which {self.shown} lacks"
        missing = [name for name in self.required if name not in inputs]
        return f"misses {_listed(missing)}, which {self.shown} needs" if missing else ""


def _listed(names):
    return ", ".join(names)


def from_arguments(name, args, whose):
    """The Signature of `def name(args)` (an ast.arguments; a method's `self` left out)."""
    args = copy.deepcopy(args)
    if (args.posonlyargs or args.args) and (args.posonlyargs or args.args)[0].arg == "self":
        del (args.posonlyargs or args.args)[0]
    defaulted = len(args.defaults)
    positional = args.posonlyargs + args.args
    required = [a.arg for a in positional[:len(positional) - defaulted] if a not in args.posonlyargs]
    required += [a.arg for a, default in zip(args.kwonlyargs, args.kw_defaults) if default is None]
    required += [a.arg for a in args.posonlyargs]  # by position only: a test, given by keyword, never fills one
    for arg in positional + args.kwonlyargs + [args.vararg, args.kwarg]:
        if arg is not None:
            arg.annotation = None
    names = tuple(a.arg for a in args.args + args.kwonlyargs)
    return Signature(f"{whose}{name}({ast.unparse(args)})", names, tuple(required), args.kwarg is not None)


def of_statement(problem, examples):
    """The statement's function, or run_code as its examples all call it, or None (unknown)."""
    found = function_def(problem)
    if found is not None:
        return from_arguments(*found, "the statement's ")
    named = {tuple(sorted(case.input)) for case in examples}
    if len(named) != 1:
        return None
    (names,) = named
    return Signature(f"run_code({', '.join(names)}) (as the statement's examples call it)", names, names)


def of_code(code):
    """The code's top-level run_code, or None when it has none (a design's class; the caller refuses the rest)."""
    try:
        body = ast.parse(code).body
    except (SyntaxError, ValueError, RecursionError):
        return None
    run = next((node for node in body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                and node.name == "run_code"), None)
    return from_arguments("run_code", run.args, "the code's ") if run else None


def first_misfit(cases, signature):
    """'test NAME names x, which ... lacks' for the first case that does not fit, or ""."""
    for case in cases if signature is not None else ():
        wrong = signature.misfit(case.input)
        if wrong:
            return f"test {case.name} {wrong}"
    return ""
