"""Python source read without running it: one parse at a time, and whether two programs are one program.

`program_key(code)` is the same for two programs that differ only in the names they bind (variables,
helpers and their parameters, imports' aliases; not run_code's parameters, which are called by keyword),
their docstrings, comments, annotations and layout, code that never runs (after a return), or whether the
solution is `def run_code` or another function bound to run_code. Such programs return the same output on
every input, so they are one voter, not two: a small model sampled several times often writes one function
twice with a variable renamed, and two false successes on HumanEval seed 1 (/74, /140) rested on exactly
that (docs/benchmarks.md). Names the program does not bind (builtins, modules, attributes) are kept:
`sorted(x)` and `reversed(x)` stay different programs.

Run alone:  python -m core.source_code A.py B.py    (prints whether they are one program)
"""
import ast
import functools
import sys
import threading

# rounds check versions in threads and bench workers share a process, and CPython 3.11's AST constructor can
# fail when two threads build trees at once ("SystemError: AST constructor recursion depth mismatch",
# python/cpython#106905; seen once in the suite): one parse at a time
_PARSING = threading.Lock()


def parsed(code):
    with _PARSING:
        return ast.parse(code)


def repeats(codes, besides=None):
    """{id: the id of the program it repeats} for each of `codes` ({id: source}, in the order written) that is
    one written before it or one of `besides` ({id: source}: the oracle): one voter per program."""
    first = {program_key(code): attempt_id for attempt_id, code in (besides or {}).items()}
    again = {}
    for attempt_id, code in codes.items():
        again_of = first.setdefault(program_key(code), attempt_id)
        if again_of != attempt_id:
            again[attempt_id] = again_of
    return again


@functools.lru_cache(maxsize=4096)  # a round asks again for every attempt of the run
def program_key(code):
    """A text equal for programs that differ only in bound names, docstrings, annotations and layout; the code
    itself when it does not parse."""
    try:
        tree = _as_run(_reachable(parsed(code)))
    except (SyntaxError, ValueError):
        return code
    # run_code is called by keyword: its parameters' names are part of what it does
    called = {arg.arg for node in tree.body if isinstance(node, ast.FunctionDef) and node.name == "run_code"
              for arg in node.args.args + node.args.kwonlyargs}
    bound = _bound_names(tree) - called
    renamed = {}

    def rename(name):
        return renamed.setdefault(name, f"_{len(renamed)}") if name in bound else name

    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            node.id = rename(node.id)
        elif isinstance(node, ast.arg):
            node.arg, node.annotation = rename(node.arg), None
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if node.name != "run_code":
                node.name = rename(node.name)
            node.body = _without_docstring(node.body)
            if not isinstance(node, ast.ClassDef):
                node.returns = None
        elif isinstance(node, ast.alias):
            node.asname = rename(node.asname or node.name.split(".")[0])
        elif isinstance(node, ast.ExceptHandler) and node.name:
            node.name = rename(node.name)
        elif isinstance(node, ast.AnnAssign) and node.value is None:
            node.annotation = ast.Constant(None)
    tree.body = _without_docstring(tree.body)
    return ast.dump(tree, annotate_fields=False)


def run_code_bindings(tree):
    """The module's top-level assignments that bind run_code (`run_code = modp`, the repair of an answer that
    kept the statement's name: utils/yaml_answer.py)."""
    return [node for node in tree.body if isinstance(node, ast.Assign)
            and any(isinstance(target, ast.Name) and target.id == "run_code" for target in node.targets)]


def _as_run(tree):
    """The tree with its solution named run_code: `def modp(...)` plus `run_code = modp` is the program
    `def run_code(...)` is."""
    defined = {node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}
    aliases = [node for node in run_code_bindings(tree) if isinstance(node.value, ast.Name) and len(node.targets) == 1]
    if "run_code" in defined or not aliases or aliases[-1].value.id not in defined:
        return tree
    name = aliases[-1].value.id
    tree.body = [node for node in tree.body if node not in aliases]
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
            node.name = "run_code"
        elif isinstance(node, ast.Name) and node.id == name:
            node.id = "run_code"
    return tree


def _reachable(tree):
    """The tree without statements after a return, raise, break or continue in the same block: code that never
    runs (asked for another way in a draw tried, docs/benchmarks.md, the model wrote the program it was shown
    again with other versions after its `return`)."""
    ends = (ast.Return, ast.Raise, ast.Break, ast.Continue)
    for node in ast.walk(tree):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                end = next((i for i, statement in enumerate(block) if isinstance(statement, ends)), None)
                if end is not None:
                    setattr(node, field, block[:end + 1])
    return tree


def _bound_names(tree):
    """The names the program binds itself: assigned, parameters, functions and classes it defines, imports."""
    bound = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            bound.add(node.id)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, ast.alias):
            bound.add(node.asname or node.name.split(".")[0])
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound.add(node.name)
    return bound


def _without_docstring(body):
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str) and len(body) > 1:
        return body[1:]
    return body


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: python -m core.source_code A.py B.py")
    first, second = (open(path, encoding="utf-8").read() for path in sys.argv[1:])
    print("one program" if program_key(first) == program_key(second) else "two programs")
