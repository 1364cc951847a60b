"""Python source read without running it: one parse at a time, whether two programs are one program, and the
approach a program takes in a few words (`approach`).

`program_key(code)` is the same for two programs that differ only in the names they bind (variables,
helpers and their parameters, imports' aliases; not run_code's parameters, which are called by keyword),
their docstrings, comments, annotations and layout, code that never runs (after a return), whether the
solution is `def run_code` or another function bound to run_code, a value held in a local before it is used
(`n = len(xs)`), assignments that do not depend on each other written in another order (`count = 0` before or
after `best = -inf`), or a choice written as `if c: return a` then `return b` rather than `return a if c else b`.
Such programs return the same output on every input, so they are one voter, not two: a small model sampled
several times often writes one function twice with a variable renamed, and two false successes on HumanEval
seed 1 (/74, /140) rested on exactly that (docs/journal/2026-11.md); /74 again, later, on its sums held in locals. Names the program does not bind (builtins, modules, attributes) are kept:
`sorted(x)` and `reversed(x)` stay different programs.

Run alone:  python -m core.source_code A.py B.py    (prints whether they are one program)
"""
import ast
import copy
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
        tree = _returns_as_expressions(_in_one_order(_values_in_place(_as_run(_reachable(_infinities(parsed(code)))))))
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


def passed_on_to(tree):
    """(run_code's def, the name of the function it hands its arguments to) where run_code only does that,
    taking nothing but `**kwargs` (and `*args`): `def run_code(**kwargs): return f(**kwargs)`; else None. Called
    by position, such a run_code raises (utils/code_checks.py refuses it), while `f`, which names its parameters,
    is the same program for every caller: HumanEval/106's right candidate was refused so in the records, and
    the false claim of another went through (LeetCode 947, 952 and 1155 had such answers too)."""
    functions = {node.name: node for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}
    run = functions.get("run_code")
    if run is None or run.decorator_list or run.args.posonlyargs or run.args.args or run.args.kwonlyargs \
            or run.args.kwarg is None:
        return None
    body = _without_docstring(run.body)
    call = body[0].value if len(body) == 1 and isinstance(body[0], ast.Return) else None
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in functions
            and call.func.id != "run_code"):
        return None
    starred = [arg.value.id for arg in call.args if isinstance(arg, ast.Starred) and isinstance(arg.value, ast.Name)]
    spread = [kw.value.id for kw in call.keywords if kw.arg is None and isinstance(kw.value, ast.Name)]
    if len(starred) != len(call.args) or starred != ([run.args.vararg.arg] if run.args.vararg else []) \
            or len(spread) != len(call.keywords) or spread != [run.args.kwarg.arg]:
        return None
    target = functions[call.func.id].args
    return (run, call.func.id) if target.posonlyargs or target.args else None


def entry_point(tree):
    """What run_code is, in an answer that does not define it: (function name, None) for a top-level function,
    (class name, method node) for a method of a class built with no arguments (LeetCode's `class Solution`, as
    the model often answers; 22 of 1,717 code answers in the 2026-11-29 records were refused without it), or
    None. The solution is a function no other function uses, the last such: helpers are used (8 of those
    answers bound `dfs` or `is_palindrome`, the helper written after the solution, and lost a right program)."""
    # a function that calls run_code is the answer's check of the solution, not the solution (LeetCode 995's
    # `check_solution`, bound in a record of 2026-12-01), unless every one does
    defined = [node for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]
    functions = [node for node in defined if not any(isinstance(name, ast.Name) and name.id == "run_code"
                                                    for name in ast.walk(node))] or defined
    classes = [node for node in tree.body if isinstance(node, ast.ClassDef) and _built_without_arguments(node)]
    methods = [(cls, node) for cls in classes for node in cls.body
               if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not node.name.startswith("_")
               and not node.decorator_list and (node.args.posonlyargs or node.args.args)]
    # a function's or method's own body, nested functions included, as for top-level functions: a method whose inner
    # helper calls it again is not "used" by that helper
    bodies = functions + [node for cls in tree.body if isinstance(cls, ast.ClassDef) for node in cls.body
                          if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]

    def used(name, owner, method=False):  # a method is used as self.name or Class.name
        return any(isinstance(node, ast.Attribute) and node.attr == name and isinstance(node.value, ast.Name)
                   if method else isinstance(node, ast.Name) and node.id == name
                   for body in bodies if body is not owner for node in ast.walk(body))

    unused_functions = [(node.name, None) for node in functions if not used(node.name, node)]
    unused_methods = [(cls.name, node) for cls, node in methods if not used(node.name, node, method=True)]
    found = unused_functions or unused_methods or [(node.name, None) for node in functions] or \
        [(cls.name, node) for cls, node in methods]
    return found[-1] if found else None


def _built_without_arguments(cls):
    init = next((node for node in cls.body if isinstance(node, ast.FunctionDef) and node.name == "__init__"), None)
    if init is None:
        return not cls.bases  # a base class may want arguments
    args = init.args
    return len(args.args) - 1 <= len(args.defaults) and all(default is not None for default in args.kw_defaults)


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


class _Infinities(ast.NodeTransformer):
    """`float('-inf')`, `-float('inf')`, `float("-infinity")` and `-math.inf` as one constant: LeetCode 768's false
    success of 2026-12-01 rested on a majority of two candidates, one program with its running maximum started at
    `float('-inf')` in one and `-float('inf')` in the other."""
    def visit_Call(self, node):
        self.generic_visit(node)
        if isinstance(node.func, ast.Name) and node.func.id == "float" and len(node.args) == 1 and not node.keywords:
            arg = node.args[0]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and \
                    arg.value.strip().lower().lstrip("+-") in ("inf", "infinity"):
                return ast.Constant(float(arg.value))
        return node

    def visit_Attribute(self, node):
        self.generic_visit(node)
        if isinstance(node.value, ast.Name) and node.value.id == "math" and node.attr == "inf":
            return ast.Constant(float("inf"))
        return node

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        if isinstance(node.op, (ast.USub, ast.UAdd)) and isinstance(node.operand, ast.Constant) and \
                isinstance(node.operand.value, float) and node.operand.value in (float("inf"), float("-inf")):
            return ast.Constant(-node.operand.value if isinstance(node.op, ast.USub) else node.operand.value)
        return node


def _infinities(tree):
    return _Infinities().visit(tree)


def _reachable(tree):
    """The tree without statements after a return, raise, break or continue in the same block: code that never
    runs (asked for another way in a draw tried, docs/journal/2026-11.md, the model wrote the program it was shown
    again with other versions after its `return`)."""
    ends = (ast.Return, ast.Raise, ast.Break, ast.Continue)
    for node in ast.walk(tree):
        for field, block in list(_blocks(node)):
            end = next((i for i, statement in enumerate(block) if isinstance(statement, ends)), None)
            if end is not None:
                setattr(node, field, block[:end + 1])
    return tree


def _blocks(node):
    """(field, statements) for each block of statements the node holds: its body, else and finally."""
    for field in ("body", "orelse", "finalbody"):
        block = getattr(node, field, None)
        if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
            yield field, block


def _in_one_order(tree):
    """Consecutive assignments that do not depend on each other in one order, whatever order they were written in:
    `chunks = 0; best = -inf` is `best = -inf; chunks = 0` (LeetCode 768's false success of 2026-12-01: a
    majority of two candidates, one program with its two counters started in the other order). Only assignments
    of a name from an expression that cannot change anything (constants, names, containers of them, arithmetic,
    `len(...)`) that reads no name the others assign, and assigns none they read, are moved."""
    for node in ast.walk(tree):
        for field, block in list(_blocks(node)):
            setattr(node, field, _sorted_runs(block))
    return tree


def _sorted_runs(block):
    """The block with each run of independent plain assignments sorted by what they assign (ties as written)."""
    out, run, assigned, read = [], [], set(), set()
    for statement in block + [None]:
        independent = statement is not None and _plain_assignment(statement)
        name = statement.targets[0].id if independent else None
        reads = {node.id for node in ast.walk(statement.value) if isinstance(node, ast.Name)} if independent else set()
        if not independent or name in assigned or name in read or reads & assigned:
            out.extend(sorted(run, key=lambda assignment: ast.dump(assignment.value)))
            run, assigned, read = [], set(), set()
        if independent:
            run.append(statement)
            assigned.add(name)
            read |= reads
        elif statement is not None:
            out.append(statement)
    return out


_PURE = (ast.Constant, ast.Name, ast.Load, ast.List, ast.Tuple, ast.Set, ast.Dict, ast.UnaryOp, ast.BinOp,
         ast.unaryop, ast.operator)


def _plain_assignment(statement):
    """`name = <an expression that changes nothing>`."""
    if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Name)):
        return False
    for node in ast.walk(statement.value):
        if isinstance(node, ast.Call):
            if not (isinstance(node.func, ast.Name) and node.func.id == "len" and len(node.args) == 1
                    and not node.keywords):
                return False
        elif not isinstance(node, _PURE):
            return False
    return True


def _values_in_place(tree):
    """Each function's local assigned once, at the top of its body, from an expression whose names never change
    there, replaced by that expression where it is read: `total = sum(a); return total` is `return sum(a)`
    (HumanEval/74's false success: two voters, one of them the other with its sums held in locals). An
    expression that calls a method (`xs.pop()`) may change what it reads, and a name whose object is changed in
    place is not its first value, so these stay."""
    for func in [node for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]:
        if any(isinstance(node, (ast.Global, ast.Nonlocal)) for node in ast.walk(func)):
            continue
        while (found := _inlinable(func)) is not None:
            index, name, value = found
            del func.body[index]
            for statement in func.body[index:]:
                _put_value(statement, name, value)
    return tree


def _inlinable(func):
    """(index, name, expression) of the first assignment in func's body that _values_in_place may inline."""
    parameters = {arg.arg for arg in ast.walk(func) if isinstance(arg, ast.arg)}  # its own and nested functions'
    anywhere, outside = _bindings(ast.walk(func)), _bindings(_outside_comprehensions(func))
    # an object changed in place (`seen[n] = i`, `xs.append(x)`) is not its first value: such names stay
    mutated = {node.value.id for node in ast.walk(func) if isinstance(node, (ast.Attribute, ast.Subscript))
               and isinstance(node.value, ast.Name) and (isinstance(node, ast.Attribute) or not isinstance(node.ctx, ast.Load))}
    for index, statement in enumerate(func.body):
        if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1
                and isinstance(statement.targets[0], ast.Name)):
            continue
        name, value = statement.targets[0].id, statement.value
        own = _bindings(ast.walk(value))  # a comprehension's own variables
        reads = {node.id for node in ast.walk(value) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)}
        changes = any(isinstance(node, (ast.NamedExpr, ast.Yield, ast.YieldFrom, ast.Await, ast.Lambda))
                      or isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) for node in ast.walk(value))
        if anywhere.get(name) == 1 and name not in parameters and not changes and name not in mutated \
                and not any(outside.get(read) for read in reads - set(own)):
            return index, name, value
    return None


def _bindings(nodes):
    """name -> how often the nodes bind it (assigned, deleted, defined, imported, an exception caught as it)."""
    counts = {}
    for node in nodes:
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            name = node.id
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            name = node.name
        elif isinstance(node, ast.alias):
            name = node.asname or node.name.split(".")[0]
        elif isinstance(node, ast.ExceptHandler) and node.name:
            name = node.name
        else:
            continue
        counts[name] = counts.get(name, 0) + 1
    return counts


def _outside_comprehensions(node):
    """node and what it holds, but of a comprehension only what it iterates over (its variables are its own)."""
    yield node
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            for generator in child.generators:
                yield from _outside_comprehensions(generator.iter)
        else:
            yield from _outside_comprehensions(child)


def _put_value(node, name, value):
    """node with every read of name replaced by a copy of value."""
    for parent in ast.walk(node):
        for field, current in ast.iter_fields(parent):
            if isinstance(current, ast.Name) and current.id == name and isinstance(current.ctx, ast.Load):
                setattr(parent, field, copy.deepcopy(value))
            elif isinstance(current, list):
                current[:] = [copy.deepcopy(value) if isinstance(item, ast.Name) and item.id == name
                              and isinstance(item.ctx, ast.Load) else item for item in current]


def _returns_as_expressions(node):
    """`if c: return a` then `else: return b` (or a `return b` after the if) written as `return a if c else b`:
    one program, whichever way the model put its choice. Inner blocks first, so that an elif chain joins
    from its end; only statements hold blocks, so expressions are not walked."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.stmt, ast.excepthandler, ast.match_case)):
            _returns_as_expressions(child)
    for field, block in list(_blocks(node)):
        setattr(node, field, _joined_returns(block))
    return node


def _joined_returns(block):
    joined = []
    for statement in reversed(block):
        if isinstance(statement, ast.If):
            otherwise = statement.orelse or joined[-1:]
            if _one_return(statement.body) and _one_return(otherwise):
                if not statement.orelse:
                    joined.pop()
                statement = ast.Return(ast.IfExp(statement.test, _returned(statement.body), _returned(otherwise)))
        joined.append(statement)
    return joined[::-1]


def _one_return(block):
    return len(block) == 1 and isinstance(block[0], ast.Return)


def _returned(block):
    return block[0].value if block[0].value is not None else ast.Constant(None)


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


# what a program reaches for, by the names it calls or binds, in the words a later draw reads (approach)
TOOLS = (("sorting", {"sorted", "sort"}), ("a heap", {"heapq", "heappush", "heappop", "heapify", "nlargest", "nsmallest"}),
         ("binary search", {"bisect", "bisect_left", "bisect_right", "mid"}), ("a queue", {"deque"}),
         ("a stack", {"stack"}), ("counting", {"Counter", "count"}), ("a dict", {"dict", "defaultdict"}),
         ("a set", {"set"}), ("every combination", {"permutations", "combinations", "product"}),
         ("a table of subresults", {"dp", "memo", "lru_cache", "cache"}))
LOOPS = ("a direct formula, no loop", "simple loops", "two nested loops", "three or more nested loops")


def approach(code):
    """The program's approach in a few words, read from its syntax alone: the tools it reaches for (TOOLS: sorting,
    a dict, a heap...), how deep its loops nest (comprehensions counted) and whether it recurses. What a later draw
    is told was tried (core/prompts.tried_note): words, not code, which a small model copies (speed_note)."""
    try:
        tree = parsed(code)
    except (SyntaxError, ValueError):
        return "a program that does not parse"
    names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    names |= {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    names |= {alias.name.split(".")[-1] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) for alias in node.names}
    if any(isinstance(node, (ast.Dict, ast.DictComp)) for node in ast.walk(tree)):
        names.add("dict")
    if any(isinstance(node, (ast.Set, ast.SetComp)) for node in ast.walk(tree)):
        names.add("set")
    functions = [node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)]
    recursion = any(isinstance(call, ast.Call) and _called_name(call) == function.name
                    for function in functions for call in ast.walk(function))
    depth = _loop_depth(tree)
    words = [word for word, hints in TOOLS if names & hints]
    words += ([LOOPS[min(depth, len(LOOPS) - 1)]] if depth or not recursion else []) + ["recursion"] * recursion
    return ", ".join(words)


def _loop_depth(node):
    """How deep loops nest under `node`: a for or while is one level, a comprehension one per `for` it holds."""
    inner = max((_loop_depth(child) for child in ast.iter_child_nodes(node)), default=0)
    if isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
        return inner + 1
    if isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
        return inner + len(node.generators)
    return inner


def _called_name(call):
    return call.func.id if isinstance(call.func, ast.Name) else call.func.attr if isinstance(call.func, ast.Attribute) else None


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
