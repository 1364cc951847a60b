"""The one YAML parser: `load_yaml` reads whatever YAML a model or a person writes (model answers,
--tests files, the tests a person edits), `dump_yaml` writes what a person edits; the rest pulls a
YAML answer out of a model's reply and checks it against its schema.

Schemas (from docs/design.md):
  tests   {reasoning, test_cases: [{name, input: {param: value}, expected}]}
  code    {reasoning, function_code}                      function_code defines run_code
  revise  {reasoning, test_cases: {1-based index: {name, input, expected}}, function_code}, each optional
  reflection          {goal, inputs, output, edge_cases}     the problem restated (ReflectOnProblem)
  failure reflection  {analysis}                             why the code fails (ReflectOnFailure)

Every failure raises AnswerError with a message written for the model, so that the caller can send it
back and ask again. Values must be plain data (what JSON can hold), because they travel to the sandbox
as JSON and into the exported pytest file as Python literals.
"""
import ast
import copy
import importlib
import json
import keyword
import re

import yaml

from core.source_code import entry_point, passed_on_to, run_code_bindings
from core.vocabulary import Word

FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[^\n]*\n(.*?)(?:```|\Z)", re.DOTALL)


class AnswerError(ValueError):
    """The answer cannot be used; the message says why, in words meant for the model."""


MAX_DEPTH = 100         # nesting; as deep as the sandbox's values may be
MAX_ITEMS = 1_000_000   # scalars, lists and mappings in one document


class YAMLRefused(yaml.YAMLError):
    """YAML that parses but is not taken: too deep or too large."""


# YAML 1.2's core schema (https://yaml.org/spec/1.2.2/#1032-tag-resolution), not PyYAML's YAML 1.1 rules: under 1.1
# a person's `expected: YES` was true, `No` false, `on` true (LeetCode answers "Yes"/"NO" became tests no right program
# passes), `1e-5` the string '1e-5', `0123` octal 83 and `23:59` the number 1439. PyYAML given these resolvers reads
# what the card's packages already hold; a YAML 1.2 loader would have been one more package for six patterns.
CORE_SCHEMA = [  # (tag, pattern, first characters), in the order tried: an integer before a float
    ("null", r"^(?:~|null|Null|NULL|None|)$", ["~", "n", "N", ""]),  # None too: models write Python's word for null
    ("bool", r"^(?:true|True|TRUE|false|False|FALSE)$", "tTfF"),
    ("int", r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$", "-+0123456789"),
    ("float", r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$",
     "-+.0123456789"),
]


def _int(loader, node):
    text = loader.construct_scalar(node)
    try:
        return int(text[2:], 8 if text[1] == "o" else 16) if text[:2] in ("0o", "0x") else int(text)
    except ValueError as exc:  # over 4,300 digits (Python's limit), or `!!int abc`
        raise yaml.constructor.ConstructorError(None, None, f"cannot read {text[:40]!r} as an integer: "
                                                f"{str(exc).split(':')[0]}", node.start_mark) from None


def _float(loader, node):
    text = loader.construct_scalar(node)
    special = {".inf": float("inf"), "+.inf": float("inf"), "-.inf": float("-inf"), ".nan": float("nan")}
    try:
        return special[text.lower()] if text.lower() in special else float(text)
    except ValueError:
        raise yaml.constructor.ConstructorError(None, None, f"cannot read {text[:40]!r} as a number",
                                                node.start_mark) from None


def _other_tag(node):
    """A tag of another schema (!!set, !!binary, !!timestamp): refused, in words a person can act on."""
    tag = node.tag.replace("tag:yaml.org,2002:", "!!")
    raise yaml.constructor.ConstructorError(None, None, f"the tag {tag} is not read (only YAML 1.2's core schema: null, "
                                            "booleans, numbers, strings, lists, mappings)", node.start_mark)


class AnswerLoader(yaml.SafeLoader):
    """YAML as models and people write it, by YAML 1.2's core schema (CORE_SCHEMA), and no more: only its tags
    (null, booleans, integers, floats, strings, lists, mappings) are read, and anchors and aliases (&a, *a) are
    refused, because a few hundred bytes of nested aliases ("a billion laughs") expand to billions of items when
    the data is copied. `noticed`, when a list, gets each plain value YAML 1.1 would read otherwise (yaml11_note)."""
    yaml_implicit_resolvers = {}
    yaml_constructors = {f"tag:yaml.org,2002:{name}": build for name, build in (
        ("null", lambda loader, node: None), ("bool", lambda loader, node: loader.construct_scalar(node).lower() == "true"),
        ("int", _int), ("float", _float), ("str", yaml.SafeLoader.construct_yaml_str),
        ("seq", yaml.SafeLoader.construct_yaml_seq), ("map", yaml.SafeLoader.construct_yaml_map))}
    yaml_constructors[None] = lambda loader, node: _other_tag(node)
    yaml_multi_constructors = {}
    noticed = None

    def compose_node(self, parent, index):
        if self.check_event(yaml.AliasEvent):
            raise yaml.composer.ComposerError(None, None, "YAML aliases (*name) are not accepted: write the value out",
                                              self.peek_event().start_mark)
        return super().compose_node(parent, index)

    def compose_scalar_node(self, anchor):
        event = self.peek_event()
        node = super().compose_scalar_node(anchor)
        if self.noticed is not None and event.tag is None and event.implicit[0]:  # plain: the rules chose its type
            self._compare_with_yaml11(node)
        return node

    def _compare_with_yaml11(self, node):
        older = next((tag for tag, pattern in YAML11_RESOLVERS.get(node.value[:1], []) if pattern.match(node.value)),
                     "tag:yaml.org,2002:str")
        if older == node.tag == "tag:yaml.org,2002:str":
            return
        try:
            then = yaml.SafeLoader.yaml_constructors[older](self, node)
        except Exception:  # noqa: BLE001 - 1.1 could not read it either (2024-13-45, `=`): nothing was read otherwise
            return
        now = self.construct_object(node)
        if (type(now), repr(now)) != (type(then), repr(then)):
            self.noticed.append((node.value, node.start_mark.line + 1, now, then))


for _name, _pattern, _first in CORE_SCHEMA:
    AnswerLoader.add_implicit_resolver(f"tag:yaml.org,2002:{_name}", re.compile(_pattern), list(_first))
YAML11_RESOLVERS = {first: [*resolvers, *(("tag:yaml.org,2002:null", re.compile(r"^None$")),) * (first == "N")]
                    for first, resolvers in yaml.resolver.Resolver.yaml_implicit_resolvers.items()}


def load_yaml(text, noticed=None):
    """The data in a YAML text, for model answers and people's files alike; raises yaml.YAMLError, also for
    aliases, for nesting deeper than MAX_DEPTH and for more than MAX_ITEMS items. `noticed` (a list) gets
    (text, line, value now, value under YAML 1.1) for each plain value the two read differently."""
    loader = AnswerLoader(text)
    loader.noticed = noticed
    try:
        data = loader.get_single_data()
    except RecursionError:
        raise YAMLRefused(f"the YAML is nested too deeply (at most {MAX_DEPTH} levels)") from None
    finally:
        loader.dispose()
    _check_size(data)
    return data


def yaml11_note(where, noticed, limit=4):
    """One line on the values of a person's file that YAML 1.1 (PyYAML's rules before) read otherwise; "" if none."""
    if not noticed:
        return ""
    said = [f"{text} (line {line}) is {_shown(now)}, not {_shown(then)}" for text, line, now, then in noticed[:limit]]
    more = f"; and {len(noticed) - limit} more" if len(noticed) > limit else ""
    return f"{where} is read by YAML 1.2's rules: {'; '.join(said)}{more} (quote a value to keep it a string)"


def _shown(value):
    try:
        return json.dumps(value, allow_nan=False)
    except (TypeError, ValueError):
        return f"the {type(value).__name__} {value}"  # a date (YAML 1.1's timestamps), inf


class _Dumper(yaml.SafeDumper):
    """safe_dump, and a vocabulary word (core/vocabulary.py) written as the plain string it is. A string either
    rule set reads as something else (`YES`, `1e-5`, `None`) is quoted, so that a person's editor shows it as a
    string and it reads back as one, whoever reads it."""


def _represent_str(dumper, text):
    """A string with a line break YAML knows and Python's splitlines does not (NEL, U+2028, U+2029) in double quotes,
    where it is escaped: written as it is, a reader folded it into a space (hypothesis found "\x85")."""
    breaks = any(char in text for char in "\x85\u2028\u2029")
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style='"' if breaks else None)


_Dumper.add_representer(str, _represent_str)
_Dumper.add_multi_representer(Word, lambda dumper, word: _represent_str(dumper, word.value))
for _name, _pattern, _first in CORE_SCHEMA:
    _Dumper.add_implicit_resolver(f"tag:yaml.org,2002:{_name}", re.compile(_pattern), list(_first))


def dump_yaml(data):
    """YAML for a person to read and edit (--interactive), keys in their order."""
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True)


def _check_size(data):
    pending, items = [(data, 0)], 0
    while pending:
        value, depth = pending.pop()
        items += 1
        if depth > MAX_DEPTH:
            raise YAMLRefused(f"the YAML is nested too deeply (at most {MAX_DEPTH} levels)")
        if items > MAX_ITEMS:
            raise YAMLRefused(f"the YAML holds more than {MAX_ITEMS:,} items")
        if isinstance(value, dict):
            pending.extend((v, depth + 1) for pair in value.items() for v in pair)
        elif isinstance(value, list):
            pending.extend((v, depth + 1) for v in value)


def extract_yaml(text):
    """The YAML inside a ```yaml fence, else the first fence that parses as a mapping, else the bare text."""
    fences = FENCE.findall(text or "")
    for lang, body in fences:
        if lang.lower() in ("yaml", "yml"):
            return body
    for lang, body in fences:
        if lang.lower() not in ("python", "py") and _is_mapping(body):
            return body
    return text or ""


FENCE_LINE = re.compile(r"^\s*```[A-Za-z0-9_+-]*\s*$")
SCALAR_LINE = re.compile(r"^([ \t]*(?:-[ \t]+)?(?:reasoning|name)):[ \t]+(?![|>'\"{\[])(.+)$", re.MULTILINE)


# A top-level reasoning that goes on over unindented lines (a numbered list) up to the next top-level key
LONG_REASONING = re.compile(r"^reasoning:[ \t]+(?![|>'\"])(.*\n(?:(?![A-Za-z_]\w*:)[^\n]*\n)+)", re.MULTILINE)


# The first key indented although the next keys are not: " reasoning: ...", then "function_code: |"
INDENTED_FIRST_KEY = re.compile(r"\A(\s*\n)?[ \t]+(?=[A-Za-z_]\w*:)(?=.*\n[A-Za-z_]\w*:)", re.DOTALL)


def repaired_yaml(text):
    """A second reading of an answer whose YAML does not parse, undoing four habits of small models:
    a fence opened inside the YAML fence (```python before function_code), a one-line `reasoning:`
    or test `name:` containing ': ' or ending in ':', a reasoning that continues over unindented
    lines (a numbered list), and a first key indented by a space or two where the others are not.
    Only used when the plain reading fails."""
    start = re.search(r"```[ \t]*(yaml|yml)[^\n]*\n", text or "")
    body = text[start.end():] if start else (text or "")
    body = "\n".join(line for line in body.splitlines() if not FENCE_LINE.match(line)) + "\n"
    body = INDENTED_FIRST_KEY.sub(lambda m: m.group(1) or "", body)
    body = LONG_REASONING.sub(lambda m: "reasoning: |\n" + "".join(f"  {line}\n" for line in m.group(1).splitlines()), body)
    return SCALAR_LINE.sub(lambda m: f"{m.group(1)}: '" + m.group(2).rstrip().replace("'", "''") + "'", body)


def _is_mapping(body):
    try:
        return isinstance(load_yaml(body), dict)
    except yaml.YAMLError:
        return False


def load_mapping(text):
    body = extract_yaml(text)
    if not body.strip():
        raise AnswerError("The answer was empty. Reply with one YAML block.")
    try:
        data = load_yaml(body)
    except yaml.YAMLError as exc:
        data = _load_repaired(text, exc)
    if not isinstance(data, dict):
        raise AnswerError("The answer must be a YAML mapping with the requested keys, not "
                          f"{type(data).__name__}.")
    return data


def _load_repaired(text, original_error):
    try:
        return load_yaml(repaired_yaml(text))
    except yaml.YAMLError:
        pass
    mark = getattr(original_error, "problem_mark", None)
    where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
    problem = getattr(original_error, "problem", None) or str(original_error).splitlines()[0]
    if isinstance(original_error, YAMLRefused) or "aliases" in problem:
        raise AnswerError(f"The YAML cannot be used{where}: {problem}.") from None
    raise AnswerError(f"The YAML does not parse{where}: {problem}. Use block scalars (|) for code "
                      "and quote strings that contain ': ' or start with special characters.") from None


def plain_data(value, where):
    """`value` as JSON would carry it (dict keys become strings); reject what JSON cannot hold."""
    try:
        return json.loads(json.dumps(value, allow_nan=False))
    except (TypeError, ValueError, RecursionError):
        raise AnswerError(f"{where} must be plain data (numbers, strings, booleans, null, lists, mappings); "
                          f"got {value!r:.80}.") from None


def check_test_case(case, where):
    if not isinstance(case, dict):
        raise AnswerError(f"{where} must be a mapping with name, input and expected.")
    missing = [key for key in ("input", "expected") if key not in case]
    if missing:
        raise AnswerError(f"{where} has no {' or '.join(missing)}. Every test needs input and expected.")
    inputs = case["input"]
    if not isinstance(inputs, dict):
        raise AnswerError(f"{where}: input must be a mapping from run_code's parameter names to values, "
                          f"for example {{nums: [1, 2], target: 3}}; got {inputs!r:.80}.")
    for name in inputs:
        if not isinstance(name, str) or not name.isidentifier() or keyword.iskeyword(name):
            raise AnswerError(f"{where}: input key {name!r} is not a valid Python parameter name.")
    return {"name": snake_case(case.get("name")),
            "input": plain_data(inputs, f"{where} input"),
            "expected": plain_data(case["expected"], f"{where} expected")}


def snake_case(name):
    """A test name as an identifier: it is shown back to the model inside YAML, where a name like
    "Edge case 1: negatives" broke the model's next answer, and it becomes a pytest id."""
    return re.sub(r"\W+", "_", str(name or "").strip().lower()).strip("_")[:60]


def check_function_code(code, function="run_code"):
    """The answer's code, parsed and with run_code bound; `function`: what the request asked for, as the
    errors name it (a judge's is_valid: told "run_code", the model added run_code to its parameters); "" for a
    whole program, which is only parsed."""
    if not isinstance(code, str) or not code.strip():
        raise AnswerError("function_code must be the Python source of the solution, as a YAML block scalar (|).")
    code = strip_code_fence(code)
    try:
        tree = ast.parse(code, filename="solution.py")
    except SyntaxError as exc:
        line = (exc.text or "").rstrip("\n")
        caret = " " * max((exc.offset or 1) - 1, 0) + "^"
        raise AnswerError(f"function_code has a syntax error at line {exc.lineno}: {exc.msg}\n"
                          f"    {line}\n    {caret}") from None
    except (ValueError, RecursionError, MemoryError) as exc:
        raise AnswerError(f"function_code cannot be parsed: {exc}") from None
    if not function:  # a whole program (a stdio problem): run as it is written, its entry point called if it never is
        return code.rstrip() + "\n" + uncalled_entry(tree)
    through = None if run_code_bindings(tree) else passed_on_to(tree)
    if through:  # run_code bound, where its def was, to the function it only hands its arguments to: it names them
        run, name = through
        lines = code.splitlines()
        code = "\n".join(lines[:run.lineno - 1] + [f"run_code = {name}  # the answer's run_code passed its arguments "
                                                     f"on to {name}"] + lines[run.end_lineno:]) + "\n"
        tree = ast.parse(code, filename="solution.py")
    if function in {n.name for n in tree.body if isinstance(n, ast.ClassDef)}:  # a design's class (core/problem_kind.py)
        return with_missing_imports(code, tree).rstrip() + "\n"
    functions = [n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    # an answer that binds run_code already is not bound again: a model shown repaired code (Revise, or a draw
    # tried in docs/journal/2026-11.md) copies it, its run_code line and all
    if "run_code" in functions or (functions and run_code_bindings(tree)):
        return with_missing_imports(code, tree).rstrip() + "\n"
    entry = entry_point(tree)
    if entry is None:
        raise AnswerError(f"function_code must define a top-level function named {function}.")
    # Given a statement's own function name, the small model keeps it, even when told to write run_code
    # (docs/bench.md, "Problem sets"), or answers with LeetCode's class Solution. The binding goes right after
    # the function or class: the model's own usage lines below it often call run_code (5 programs of the
    # 2026-12-01 records raised NameError at load so, HumanEval/106's right candidate among them)
    name, method = entry
    binding = f"run_code = {name}  # the answer named its function {name}" if method is None else \
        method_caller(name, method).rstrip()
    last = max(node.end_lineno for node in tree.body if getattr(node, "name", None) == name
               and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)))
    lines = code.rstrip().splitlines()
    rest = lines[last:]
    while rest and not rest[0].strip():
        rest.pop(0)
    code = "\n".join(lines[:last] + ["", "", binding] + (["", ""] + rest if rest else [])) + "\n"
    return with_missing_imports(code, ast.parse(code, filename="solution.py"))


def method_caller(class_name, method):
    """`def run_code(<the method's parameters but self>)` calling the method on a new instance (a new one each
    call: a method may keep state on self), so that run_code's parameters are named as the method names them."""
    args = copy.deepcopy(method.args)
    del (args.posonlyargs or args.args)[0]  # self
    for arg in args.posonlyargs + args.args + args.kwonlyargs + [args.vararg, args.kwarg]:
        if arg is not None:
            arg.annotation = None
    passed = [arg.arg for arg in args.posonlyargs + args.args] + ([f"*{args.vararg.arg}"] if args.vararg else []) + \
        [f"{arg.arg}={arg.arg}" for arg in args.kwonlyargs] + ([f"**{args.kwarg.arg}"] if args.kwarg else [])
    return (f"def run_code({ast.unparse(args)}):  # the answer wrote a method of class {class_name}\n"
            f"    return {class_name}().{method.name}({', '.join(passed)})\n")


# Names the small model uses without importing them, and where they come from. A statement's signature says
# `numbers: List[int]`, the answer copies it and forgets `from typing import List`, and the program cannot even
# load; a breadth-first search calls `deque(...)` with no `from collections import deque` and raises NameError at
# its first call (5 programs of 186 on LeetCode seeds 2 and 3, among them 475's right candidate). A program that
# uses a name it never binds fails wherever it reaches it, so the import can only make it run (how often:
# docs/journal/2026-11.md; a program that cannot run has no vote). Typing's capitalised aliases of callables (Deque,
# DefaultDict) are left out: `Counter` and friends come from collections, whose classes also annotate.
FROM = {"typing": ("Any", "Callable", "Dict", "FrozenSet", "Generator", "Iterable", "Iterator", "List", "Mapping",
                   "Optional", "Sequence", "Set", "Tuple", "Union"),
        "collections": ("Counter", "OrderedDict", "defaultdict", "deque", "namedtuple"),
        "heapq": ("heapify", "heappop", "heappush", "heappushpop", "heapreplace", "nlargest", "nsmallest"),
        "bisect": ("bisect_left", "bisect_right", "insort", "insort_left", "insort_right"),
        "functools": ("cache", "cmp_to_key", "lru_cache", "reduce"),
        "itertools": ("accumulate", "chain", "combinations", "combinations_with_replacement", "groupby",
                      "permutations", "product", "zip_longest"),
        "math": ("ceil", "comb", "factorial", "floor", "gcd", "inf", "isqrt", "lcm", "sqrt")}
SOURCE = {name: module for module, names in FROM.items() for name in names}
MODULES = frozenset({"bisect", "collections", "functools", "heapq", "itertools", "math", "operator", "re", "string"})


def with_missing_imports(code, tree):
    """`code` with the imports added for the names of FROM and MODULES it uses and never binds (by an import,
    a definition, an assignment or a parameter); unchanged when there are none. The imports go after any `from
    __future__` import, which must come first."""
    bound, used, starred = set(), set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (used if isinstance(node.ctx, ast.Load) else bound).add(node.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            bound.update((alias.asname or alias.name).split(".")[0] for alias in node.names if alias.name != "*")
            starred.update(node.module or "." for alias in node.names if alias.name == "*")
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
    if starred - FROM.keys():  # a star import from elsewhere may bind any name: nothing is sure to be missing
        return code
    # `from typing import *` (a common opening of these answers) binds typing's names, not `deque`
    for module in map(importlib.import_module, starred):
        bound.update(getattr(module, "__all__", None) or [name for name in dir(module) if not name.startswith("_")])
    missing = used - bound
    if not missing & (SOURCE.keys() | MODULES):
        return code
    note = "  # added: the answer used these without importing them\n"
    added = [f"import {module}{note}" for module in sorted(missing & MODULES)]
    added += [f"from {module} import {', '.join(sorted(names))}{note}"
              for module in FROM if (names := [name for name in missing if SOURCE.get(name) == module])]
    lines = code.splitlines(keepends=True)
    future = [node.end_lineno for node in tree.body if isinstance(node, ast.ImportFrom) and node.module == "__future__"]
    at = max(future, default=0)
    return "".join(lines[:at] + added + lines[at:])


def strip_code_fence(code):
    match = FENCE.search(code)
    return match.group(2) if match and code.lstrip().startswith("```") else code


def _reasoning(data):
    reasoning = data.get("reasoning", "")
    return reasoning if isinstance(reasoning, str) else str(reasoning)


def parse_tests_answer(text, max_tests):
    data = load_mapping(text)
    cases = data.get("test_cases")
    if not isinstance(cases, list) or not cases:
        raise AnswerError("test_cases must be a non-empty YAML list of tests, each with name, input and expected.")
    cases = cases[:max_tests]  # asked for fewer; keeping the first ones is cheaper than asking again
    checked = [check_test_case(case, f"test case {i}") for i, case in enumerate(cases, 1)]
    for i, case in enumerate(checked, 1):
        case["name"] = case["name"] or f"test_{i}"
    return {"reasoning": _reasoning(data), "test_cases": checked}


# A fence whose body is Python whatever its label: the embedded model answered a judge's YAML request with
# ```yaml around a bare `def is_valid_input(...)` (LeetCode 1898, bench-results/s25-kinds-*): told "no
# function_code key", not what is wrong with its code
PYTHON_BODY = re.compile(r"\s*(?:(?:async\s+)?def|class|import|from\s+\S+\s+import)\s")
PLACEHOLDER = re.compile(r"\A\s*<[^<>\n]*>\s*\Z")


def _code_keys(data):
    """`Reasoning:` and `Function_code:` read as the keys asked for: the embedded model capitalised them in an
    unfenced answer (LeetCode 1376's input validator, bench-results/s25-kinds-*)."""
    named = {str(key).strip().lower().replace(" ", "_"): key for key in data}
    return {**data, **{key: data[named[key]] for key in ("reasoning", "function_code")
                       if key not in data and key in named}}


ENTRY_NAMES = ("run_code", "main", "solve")  # asked for the program "run_code" is, a small model defines it and stops


def uncalled_entry(tree):
    """The line calling a program's entry point where the program defines one and does nothing else (its
    functions, imports and constants only): run_code, main or solve, else its last function, when it takes
    no argument; else ""."""
    body = [node for node in tree.body if not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant))]
    if any(not isinstance(node, (ast.FunctionDef, ast.Import, ast.ImportFrom, ast.Assign, ast.ClassDef)) for node in body):
        return ""
    functions = {node.name: node for node in body if isinstance(node, ast.FunctionDef)}
    name = next((name for name in ENTRY_NAMES if name in functions), list(functions)[-1] if functions else None)
    if name is None or functions[name].args.args or functions[name].args.posonlyargs:
        return ""
    return f"\n\n{name}()  # codeloop: the answer defined {name} and never called it\n"


def parse_code_answer(text, function="run_code"):
    try:
        data, yaml_problem = _code_keys(load_mapping(text)), None
    except AnswerError as exc:
        data, yaml_problem = {}, exc
    if "function_code" not in data:
        # Small models often answer with a bare ```python block; take it if it defines a function.
        for lang, body in FENCE.findall(text or ""):
            if (lang.lower() in ("python", "py", "") or PYTHON_BODY.match(body)) and ("def " in body or not function):
                return {"reasoning": "", "function_code": check_function_code(body, function)}
        if yaml_problem is None or "```yaml" in (text or ""):  # the answer was YAML: say what is wrong with it
            raise yaml_problem or AnswerError("The answer has no function_code key.")
        raise AnswerError(f"The answer has no ```python block that defines {function}." if function else
                          "The answer has no ```python block holding the program.")
    if isinstance(data["function_code"], str) and PLACEHOLDER.match(data["function_code"]):
        # the request's template copied back (3 of the 14 input validators that could not be used in
        # bench-results/s25-*, each the retry of an answer in prose), which were told only of a syntax error
        raise AnswerError(f"function_code holds the template's placeholder {data['function_code'].strip()}: write "
                          f"the Python code of {function} itself in its place.")
    return {"reasoning": _reasoning(data), "function_code": check_function_code(data["function_code"], function)}


def parse_judge_answer(text, function):
    """A judge's code (core/checkers.py: a checker is_valid, an input validator is_valid_input), answered like
    code ({reasoning, function_code}, or a bare python block): it must define `function`; an answer that
    named it otherwise gets `function = <its last function>`."""
    answer = parse_code_answer(text, function)
    code = answer["function_code"]
    if f"run_code = {function}  #" in code:  # check_function_code named it run_code too: not needed here
        code = code[:code.index(f"run_code = {function}  #")].rstrip() + "\n"
    defined = [node.name for node in ast.parse(code).body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]
    if function not in defined:
        if not defined:
            raise AnswerError(f"function_code must define a function named {function}.")
        code = code.rstrip() + f"\n\n\n{function} = {defined[-1]}  # the answer named its function {defined[-1]}\n"
    return {"reasoning": answer["reasoning"], "function_code": code}


def parse_reflection_answer(text):
    """The restatement as short text, one line per key, for the system message of later calls."""
    data = load_mapping(text)
    keys = ("goal", "inputs", "output", "edge_cases")
    missing = [key for key in keys if not str(data.get(key) or "").strip()]
    if missing:
        raise AnswerError(f"The restatement needs {', '.join(keys)}; {', '.join(missing)} missing or empty.")
    return "\n".join(f"{key.replace('_', ' ')}: {' '.join(str(data[key]).split())[:400]}" for key in keys)


def parse_rules_answer(text):
    """The statement's rules as short lines (nodes.ReadAgain): at least one, at most MAX_RULES."""
    data = load_mapping(text)
    rules = data.get("rules")
    if not isinstance(rules, list):
        raise AnswerError("The answer needs rules: a list of the statement's rules, one short line each.")
    lines = [" ".join(str(rule).split())[:200] for rule in rules if rule is not None and str(rule).strip()]
    if not lines:
        raise AnswerError("The rules list is empty: list every rule the statement sets, one short line each.")
    return lines[:MAX_RULES]


MAX_RULES = 12  # a longer list is a runaway; the restated program's prompt stays short


def parse_prose(text, key, needs, limit=600):
    """A few sentences under `key` ({key: ...}); prose without YAML is taken as it is (the model often
    answers a "why" in prose). `needs` says what the answer needs, for the model when it is empty."""
    try:
        data = load_mapping(text)
    except AnswerError:
        data = {key: text}
    prose = " ".join(str(data.get(key) or (text if not FENCE.search(text or "") else "")).split())
    if not prose:
        raise AnswerError(f"The answer needs {needs}.")
    return prose[:limit]


def parse_failure_reflection(text):
    """The analysis of a failure (ReflectOnFailure)."""
    return parse_prose(text, "analysis", "an analysis: at most three sentences on why the code fails")


def parse_question_answer(text):
    """The clarifying question for the user, or "" when the model finds the problem clear."""
    try:
        data = load_mapping(text)
    except AnswerError:
        data = {"question": text if "?" in (text or "") and not FENCE.search(text) else ""}
    question = " ".join(str(data.get("question") or "").split())
    if question.lower().rstrip(".") in ("", "none", "no", "n/a", "null", "no question"):
        return ""
    return question[:300]


def parse_revise_answer(text, test_names, max_tests, trusted=(), function="run_code"):
    """Corrections keyed by 1-based test number; small models often key them by test name, accepted too.

    Numbers just past the last test add new tests, up to max_tests in all. An entry that cannot be used
    (no such test, a malformed test, a change to a `trusted` test) is dropped and reported in "ignored",
    so that one bad entry does not throw away the rest of a revision; only an answer with nothing usable
    is rejected, with the reasons, so the model is asked again.
    """
    data = load_mapping(text)
    cases = data.get("test_cases") or {}
    if isinstance(cases, list):  # a list of corrected tests is usable when each names an existing test
        if not all(isinstance(case, dict) and snake_case(case.get("name")) in test_names for case in cases):
            raise AnswerError("In a revision, test_cases maps test numbers to corrected tests, for example "
                              "{2: {name: ..., input: ..., expected: ...}}.")
        cases = {snake_case(case["name"]): case for case in cases}
    if not isinstance(cases, dict):
        raise AnswerError("test_cases must map test numbers to corrected tests.")
    revised, ignored = {}, []
    for key, case in cases.items():
        try:
            index = _test_index(key, test_names, max_tests)
            if index in trusted:
                raise AnswerError(f"Test {index + 1} is trusted (from the problem statement or the user, or agreed by "
                                  "running programs, or a variant input only programs decide) and cannot be changed; "
                                  "if the code fails it, fix the code.")
            revised[index] = check_test_case(case, f"revised test {index + 1}")
        except AnswerError as exc:
            ignored.append(str(exc))
    next_new = len(test_names)
    for index in sorted(i for i in revised if i >= len(test_names)):
        if index != next_new:
            ignored.append(f"New test {index + 1} was dropped: new tests are numbered on from "
                           f"{len(test_names) + 1} without gaps.")
            del revised[index]
        else:
            next_new += 1
    code = data.get("function_code")
    code = check_function_code(code, function) if code not in (None, "") else None
    if not revised and code is None:
        raise AnswerError(_refusals(ignored) or
                          "The revision changes nothing: give corrected test_cases, a new function_code, or both.")
    return {"reasoning": _reasoning(data), "test_cases": revised, "function_code": code, "ignored": ignored}


def _refusals(ignored):
    """The reasons a revision was refused, each said once: several trusted tests in one sentence."""
    trusted = [re.match(r"Test (\d+) is trusted", text) for text in ignored]
    numbers = [match.group(1) for match in trusted if match]
    others = list(dict.fromkeys(text for text, match in zip(ignored, trusted) if not match))
    if len(numbers) > 1:
        others.insert(0, f"Tests {', '.join(numbers)} are trusted (from the problem statement or the user, or agreed "
                         "by running programs) and cannot be changed; if the code fails them, fix the code.")
    elif numbers:
        others.insert(0, next(text for text, match in zip(ignored, trusted) if match))
    return " ".join(others)


def _test_index(key, test_names, max_tests):
    """The 0-based index that a revision's key names: a 1-based number, or a test's (unique) name."""
    text = str(key).strip()
    if text.isdigit():
        number = int(text)
        if not 1 <= number <= max(max_tests, len(test_names)):
            raise AnswerError(f"There is no test {number}: tests are numbered 1 to {len(test_names)}, "
                              f"and there may be at most {max_tests}.")
        return number - 1
    if test_names.count(snake_case(text)) == 1:
        return test_names.index(snake_case(text))
    raise AnswerError(f"test_cases key {key!r} is neither a test number (1 to {len(test_names)}) nor a test's name.")
