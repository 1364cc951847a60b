"""Two checks on a new version of run_code before its tests, each run in the sandbox, each with its own
feedback (as the LangGraph code assistant checks imports, then execution):

  import check      only the code's import statements: does every module it needs exist here?
  execution check   the whole file, without calling run_code: does it load (module-level code included)?

Either check runs a stand-in run_code() that returns None, appended after the code, so the sandbox's
usual one-test batch says whether loading worked. Imports guarded by `try/except ImportError` are left
out of the import check: the code has a fallback for them.

Run alone:  python -m utils.code_checks "import numpy"
"""
import ast
import sys

from utils.sandbox import Limits, run_batch

STAND_IN = "\n\n\ndef run_code():  # codeloop's check: loading the code is the whole test\n    return None\n"


def check_code(code, limits=Limits(), isolation=None, packages=None, group=None):
    """None when both checks pass, else {"check": "import" or "execution", error_type, message, traceback}.
    `packages`: the run's folder of installed third-party packages (--allow-install), if any; `group` the
    run's SandboxGroup."""
    imports = import_lines(code)
    if imports:
        failure = _load(imports, limits, isolation, packages, group)
        if failure:
            return {"check": "import", **failure}
    failure = _load(code, limits, isolation, packages, group)
    return {"check": "execution", **failure} if failure else None


def import_lines(code):
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return ""
    guarded = {id(node) for handler in ast.walk(tree) if isinstance(handler, ast.Try)
               for node in ast.walk(handler) if isinstance(node, (ast.Import, ast.ImportFrom))}
    return "\n".join(ast.unparse(node) for node in ast.walk(tree)
                     if isinstance(node, (ast.Import, ast.ImportFrom)) and id(node) not in guarded and not getattr(node, "level", 0))


def _load(source, limits, isolation, packages, group):
    result = run_batch(source + STAND_IN, [{}], limits, isolation, packages, group)[0]
    if result["ok"]:
        return None
    return {"error_type": result["error_type"] or "Error", "message": result["message"] or "",
            "traceback": result["traceback"] or ""}


if __name__ == "__main__":
    print(check_code(sys.argv[1] if len(sys.argv) > 1 else sys.stdin.read()) or "both checks pass")
