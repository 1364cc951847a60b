"""Checks on a new version of run_code before its tests, each with its own feedback (as the LangGraph code
assistant checks imports, then execution):

  signature check   (read, not run; for solutions only) does run_code name its parameters? `def
                    run_code(**params)` passes codeloop's tests, which call it by keyword, and fails every
                    caller that passes arguments by position (LeetCode 1155 was claimed so, issue 28)
  import check      only the code's import statements: does every module it needs exist here?
  execution check   the whole file, without calling run_code: does it load (module-level code included)?

Either check runs a stand-in run_code() that returns None, appended after the code, so the sandbox's
usual one-test batch says whether loading worked. Imports guarded by `try/except ImportError` are left
out of the import check: the code has a fallback for them.

Run alone:  python -m utils.code_checks "import numpy"
"""
import ast
import sys

from core.source_code import parsed
from utils.sandbox import Limits, run_batch

STAND_IN = "\n\n\ndef run_code():  # codeloop's check: loading the code is the whole test\n    return None\n"


def check_code(code, limits=Limits(), isolation=None, packages=None, group=None, solution=False, contract=None):
    """None when the checks pass, else {"check": "signature", "import" or "execution", error_type, message,
    traceback}. `packages`: the run's folder of installed third-party packages (--allow-install), if any;
    `group` the run's SandboxGroup; `solution`: the code is a solution (not a judge, whose run_code is
    codeloop's own shim taking **arguments), so its signature is checked too (a stdio program's: its imports and
    syntax only, as running it needs a test's input). `contract`: a tree, design or
    in-place problem's (core/problem_kind.Contract.for_sandbox()), whose code may use TreeNode, ListNode, List
    and Optional undefined, as on LeetCode: the sandbox defines them for it."""
    program = bool(contract) and contract["family"] == "stdio"  # a whole program: loading it is running it, on a test
    loading = contract and not program and {**contract, "family": "loading", "trees": [], "lists": [], "returns": "",
                                            "in_place": ""}
    unnamed = solution and unnamed_parameters(code)
    if unnamed:
        return {"check": "signature", "error_type": "TypeError", "traceback": "",
                "message": f"run_code takes {unnamed} instead of naming the problem's parameters"}
    imports = import_lines(code)
    if imports:
        failure = _load(imports, limits, isolation, packages, group, loading)
        if failure:
            return {"check": "import", **failure}
    if program:  # its syntax, then: the tests run it with their input
        try:
            compile(code, "solution.py", "exec")
        except (SyntaxError, ValueError) as exc:
            return {"check": "execution", "error_type": type(exc).__name__, "message": str(exc), "traceback": ""}
        return None
    failure = _load(code, limits, isolation, packages, group, loading)
    return {"check": "execution", **failure} if failure else None


def import_lines(code):
    try:
        tree = parsed(code)
    except SyntaxError:
        return ""
    guarded = {id(node) for handler in ast.walk(tree) if isinstance(handler, ast.Try)
               for node in ast.walk(handler) if isinstance(node, (ast.Import, ast.ImportFrom))}
    return "\n".join(ast.unparse(node) for node in ast.walk(tree)
                     if isinstance(node, (ast.Import, ast.ImportFrom)) and id(node) not in guarded and not getattr(node, "level", 0))


def unnamed_parameters(code):
    """'*args' or '**params' when the function run_code is bound to takes only those, else ''."""
    try:
        tree = parsed(code)
    except SyntaxError:
        return ""  # the execution check says where
    functions = {node.name: node for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}
    name = "run_code"
    for node in tree.body:  # `run_code = solve`: the repair that binds the answer's own function
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "run_code" for t in node.targets) \
                and isinstance(node.value, ast.Name):
            name = node.value.id
    args = functions[name].args if name in functions else None
    if args is None or args.posonlyargs or args.args or args.kwonlyargs:
        return ""
    return " and ".join(f"{star}{a.arg}" for star, a in (("*", args.vararg), ("**", args.kwarg)) if a)


def _load(source, limits, isolation, packages, group, contract=None):
    """`contract` here gives the code the sandbox's names only: loading is the whole test, run_code the stand-in."""
    result = run_batch(source + STAND_IN, [{}], limits, isolation, packages, group, contract)[0]
    if result["ok"]:
        return None
    return {"error_type": result["error_type"] or "Error", "message": result["message"] or "",
            "traceback": result["traceback"] or ""}


if __name__ == "__main__":
    print(check_code(sys.argv[1] if len(sys.argv) > 1 else sys.stdin.read()) or "both checks pass")
