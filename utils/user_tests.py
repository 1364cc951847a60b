"""--tests FILE: the person's own test cases, read from YAML/JSON or from a pytest file, never run.

The person knows answers the model can only guess, so their cases are trusted like the statement's
examples. Two kinds of file:

  YAML or JSON   a list of cases, or a mapping with a `tests:` (or `test_cases:`) list; a case is
                 {name (optional), input: {parameter: value}, expected}
  pytest (.py)   a module-level list CASES, TEST_CASES or TESTS of pytest.param(input, expected, id=name),
                 {"name": ..., "input": ..., "expected": ...} or (input, expected): the shape of the
                 test_solution.py that codeloop exports, so a run's tests can be given back to a later run

Either may say how outputs are judged: `output_kind:` and `checker:` (is_valid's source) in a YAML
mapping; OUTPUT_KIND, ANY_ORDER, TOLERANCE and CHECKER_SOURCE constants in a pytest file, as exported.

The pytest file is parsed with `ast` and its values read with `ast.literal_eval` only: it is never
imported, so nothing in it runs, and a case computed by code (a call, a comprehension) is refused
rather than guessed. A case is checked by the same rule as the model's tests (utils/yaml_answer.py).

The file is read by utils/text_files.py's rules and its YAML by the one loader (utils/yaml_answer.py), by YAML
1.2's rules: a value YAML 1.1 read otherwise (`YES`, `1e-5`, `0123`) is said in one line (UserTests.note).
Every refusal is a UserTestsError (an InputError) whose message is one line for the user, naming the file.

Run alone:  python -m utils.user_tests my_tests.yaml
"""
import ast
import json
import os
import sys
from dataclasses import dataclass

import yaml

from core.cases import TestCase
from core.vocabulary import Origin
from utils.text_files import InputError, read_text_file
from utils.yaml_answer import AnswerError, YAMLRefused, check_test_case, load_yaml, yaml11_note

MAX_CASES = 200  # each case is a sandbox run per attempt; past this it is a data set, not a test file
MAX_FILE_CHARS = 2_000_000
LIST_NAMES = ("CASES", "TEST_CASES", "TESTS")  # in the order preferred when a file has several
LITERAL_ERRORS = (ValueError, TypeError, SyntaxError, RecursionError, MemoryError)


class UserTestsError(InputError):
    """The test file cannot be used; the message is one line for the user."""


@dataclass(frozen=True)
class UserTests:
    """What a --tests file says: its cases, and how outputs are judged when it says so."""
    cases: list
    output_kind: str | None = None  # `output_kind:` (YAML), OUTPUT_KIND or ANY_ORDER (pytest)
    checker: str = ""               # `checker:` (YAML), CHECKER_SOURCE (pytest): is_valid's source
    note: str = ""                  # one line on values YAML 1.1 read otherwise (utils/yaml_answer.yaml11_note)


def read_user_tests(path):
    """The file's cases as TestCases of origin user, in file order; [] for an empty list."""
    return read_user_file(path).cases


def read_user_file(path):
    """The file's cases, output kind and checker (a run's exported test_solution.py gives all three back)."""
    path = os.fspath(path)
    where = f"--tests {path}"
    text = read_text_file(path, where, MAX_FILE_CHARS)
    if path.endswith(".py"):
        tree = _syntax_tree(text, path)
        strings = _module_strings(tree, ("CHECKER_SOURCE", "OUTPUT_KIND"))
        kind = strings.get("OUTPUT_KIND") or ("any" if strings.get("CHECKER_SOURCE") else None) or \
            ("unordered" if _module_constant(tree, "ANY_ORDER") is True else None) or \
            ("float" if _module_constant(tree, "TOLERANCE") else None)  # the statement's tolerance comes back with it
        return UserTests(_checked(_pytest_cases(tree, text, path), where), kind, strings.get("CHECKER_SOURCE") or "")
    noticed = []
    data = _yaml_data(text, path, noticed)
    options = data if isinstance(data, dict) else {}
    kind, checker = options.get("output_kind"), options.get("checker") or ""
    if kind is not None and kind not in ("exact", "unordered", "float", "any"):
        raise UserTestsError(f"{where}: output_kind must be exact, unordered, float or any, not {kind!r}")
    if not isinstance(checker, str):
        raise UserTestsError(f"{where}: checker must be the Python source of is_valid, as a YAML block scalar (|)")
    return UserTests(cases_from_data(_yaml_list(data, path), where), kind or ("any" if checker else None), checker,
                     "" if _is_json(text) else yaml11_note(where, noticed))


def cases_from_data(data, source):
    """Checked cases from a list of {name?, input, expected} mappings: a parsed file, the library's
    tests=[...], or the person's edit of the tests (--interactive). `source` starts every error message."""
    if not isinstance(data, list):
        raise UserTestsError(f"{source}: expected a list of test cases, not {type(data).__name__}")
    if len(data) > MAX_CASES:
        raise UserTestsError(f"{source} has {len(data)} test cases; at most {MAX_CASES} are allowed")
    return _checked([(f"case {i}", case) for i, case in enumerate(data, 1)], source)


def _checked(found, source):
    cases, taken = [], set()
    for i, (where, raw) in enumerate(found, 1):
        try:
            case = check_test_case(raw, where)
        except AnswerError as exc:
            raise UserTestsError(f"{source}: {str(exc).removesuffix('.')}") from None
        cases.append(TestCase(_unique(case["name"] or f"user_{i}", taken), case["input"], case["expected"], Origin.USER))
    return cases


def _is_json(text):
    """JSON reads the same by YAML 1.2's rules as by its own: nothing to say about it."""
    try:
        json.loads(text)
        return True
    except (ValueError, RecursionError):
        return False


def _yaml_data(text, path, noticed=None):
    try:
        return load_yaml(text, noticed)
    except YAMLRefused as exc:
        raise UserTestsError(f"--tests {path} cannot be used: {exc}") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise UserTestsError(f"--tests {path} does not parse as YAML or JSON{where}: {problem}") from None


def _yaml_list(data, path):
    if isinstance(data, dict):
        keys = [key for key in ("tests", "test_cases") if key in data]
        if len(keys) == 2:
            raise UserTestsError(f"--tests {path} has both tests: and test_cases:; keep one list")
        if keys:
            data = data[keys[0]]
            if not isinstance(data, list):
                raise UserTestsError(f"--tests {path}: {keys[0]}: must be a list of test cases, "
                                     f"not {type(data).__name__}")
    if not isinstance(data, list):
        raise UserTestsError(f"--tests {path} has no list of test cases: give a list, or a mapping with "
                             "tests: [{name, input: {parameter: value}, expected}, ...]")
    _check_count(len(data), path)
    return data


def _syntax_tree(text, path):
    try:
        return ast.parse(text, filename=path)
    except SyntaxError as exc:
        raise UserTestsError(f"--tests {path} has a Python syntax error at line {exc.lineno}: {exc.msg}") from None
    except (ValueError, RecursionError, MemoryError) as exc:
        raise UserTestsError(f"--tests {path} cannot be parsed as Python: {exc}") from None


def _module_strings(tree, names):
    """{name: value} of the module-level assignments of string literals to these names."""
    return {name: value for name in names for value in [_module_constant(tree, name)] if isinstance(value, str)}


def _module_constant(tree, name):
    """The literal value last assigned to `name` at module level, or None."""
    found = None
    for statement in tree.body:
        if isinstance(statement, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in statement.targets):
            try:
                found = ast.literal_eval(statement.value)
            except LITERAL_ERRORS:
                found = None
    return found


def _pytest_cases(tree, text, path):
    """[(where, case)] from the file's CASES list, read from its syntax tree without running anything."""
    name, value = _case_list(tree, path)
    if not isinstance(value, (ast.List, ast.Tuple)):
        raise UserTestsError(f"--tests {path}: {name} at line {value.lineno} is not a literal list "
                             "(the file is read, not run, so the cases must be written out)")
    _check_count(len(value.elts), path)
    return [(f"case {i} (line {node.lineno})", _pytest_case(node, f"case {i} (line {node.lineno})", text, path))
            for i, node in enumerate(value.elts, 1)]


def _case_list(tree, path):
    """(name, value node) of the last module-level assignment to the first of LIST_NAMES assigned."""
    assigned = {}
    for statement in tree.body:
        if isinstance(statement, ast.Assign):
            targets = statement.targets
        elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
            targets = [statement.target]
        else:
            continue
        for target in targets:
            if isinstance(target, ast.Name) and target.id in LIST_NAMES:
                assigned[target.id] = statement.value
    for name in LIST_NAMES:
        if name in assigned:
            return name, assigned[name]
    raise UserTestsError(f"--tests {path} has no module-level {', '.join(LIST_NAMES[:-1])} or {LIST_NAMES[-1]} "
                         "list (only such a list is read; the file is not run)")


def _pytest_case(node, where, text, path):
    """A case mapping from pytest.param(input, expected, id=name), a dict literal or (input, expected)."""
    if isinstance(node, ast.Call):
        function = node.func
        is_param = (isinstance(function, ast.Attribute) and function.attr == "param"
                    and isinstance(function.value, ast.Name) and function.value.id == "pytest"
                    or isinstance(function, ast.Name) and function.id == "param")
        if not is_param:
            raise UserTestsError(f"--tests {path}: {where} is a call to {_source(function, text)}, not "
                                 "pytest.param(input, expected, id=name)")
        extra = [keyword.arg or "**" for keyword in node.keywords if keyword.arg != "id"]
        if len(node.args) != 2 or extra:
            raise UserTestsError(f"--tests {path}: {where} must be pytest.param(input, expected, id=name)"
                                 + (f"; {', '.join(extra)} is not read" if extra else ""))
        name = next((keyword.value for keyword in node.keywords if keyword.arg == "id"), None)
        return {"input": _literal(node.args[0], where, text, path),
                "expected": _literal(node.args[1], where, text, path),
                "name": None if name is None else _literal(name, where, text, path)}
    value = _literal(node, where, text, path)
    if isinstance(value, dict):
        return value
    if isinstance(value, tuple) and len(value) == 2:
        return {"input": value[0], "expected": value[1]}
    raise UserTestsError(f"--tests {path}: {where} must be pytest.param(input, expected, id=name), "
                         "a dict with input and expected, or an (input, expected) tuple")


def _literal(node, where, text, path):
    try:
        return ast.literal_eval(node)
    except LITERAL_ERRORS:
        raise UserTestsError(f"--tests {path}: {where} is not a literal: {_source(_first_non_literal(node), text)} "
                             "(the file is read, not run, so values must be written out)") from None


def _first_non_literal(node):
    """The innermost part of a container that literal_eval refuses, so the message points at it."""
    children = [*filter(None, node.keys), *node.values] if isinstance(node, ast.Dict) else getattr(node, "elts", [])
    for child in children:
        try:
            ast.literal_eval(child)
        except LITERAL_ERRORS:
            return _first_non_literal(child)
    return node


def _source(node, text):
    source = " ".join((ast.get_source_segment(text, node) or ast.dump(node)).split())
    return source if len(source) <= 60 else source[:60] + "..."


def _check_count(count, path):
    if count > MAX_CASES:
        raise UserTestsError(f"--tests {path} has {count} test cases; at most {MAX_CASES} are allowed")


def _unique(name, taken):
    """`name`, or name_2, name_3, ... when it is taken: names identify tests in feedback and pytest ids."""
    candidate, n = name, 1
    while candidate in taken:
        n += 1
        candidate = f"{name}_{n}"
    taken.add(candidate)
    return candidate


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python -m utils.user_tests FILE")
    try:
        for case in read_user_tests(sys.argv[1]):
            print(f"{case.name}: run_code(**{json.dumps(case.input)}) == {json.dumps(case.expected)}")
    except UserTestsError as exc:
        sys.exit(f"error: {exc}")
