"""Which family of LeetCode problem a statement is, and the contract its tests are run under.

  plain     values in, a value returned by run_code (every problem before issue 79)
  tree      some arguments (or the answer) are LeetCode's TreeNode / ListNode, written in list form:
            `root = [3,9,20,null,null,15,7]` (level order, null for a missing child), `head = [1,2,3]`
  design    a class the statement names (`["MinStack","push","getMin"]`, `[[],[-2],[]]`), tested by
            replaying the operations on a fresh instance; the output is the list of what each returned
  in-place  run_code changes an argument and returns nothing ("Do not return anything, modify nums
            in-place"): the argument after the call is the answer; with `return_too` the answer is
            [the returned k, the argument's first k items] (Remove Duplicates)
  stdio     a contest problem (Codeforces, Kattis): a whole program reads standard input and prints its answer;
            a test is {"stdin": text} and the text expected, compared token by token (core/compare.py)

Tests keep plain JSON lists in every family: the codec that builds nodes and replays operations lives in
the sandbox runner (utils/sandbox_runner.py), which gets `Contract.for_sandbox()`. Read from the
statement's words and its function signature; the person may say the family instead (--kind), and a
statement this cannot honour ends with ProblemKindError, one line saying what is not supported.

Run alone:  python -m core.problem_kind STATEMENT_FILE
"""
import ast
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from core.vocabulary import Word


class Family(Word):
    PLAIN = "plain"
    TREE = "tree"
    DESIGN = "design"
    IN_PLACE = "in-place"
    STDIO = "stdio"


FAMILIES = tuple(str(family) for family in Family)
GIVEN_NAMES = ("TreeNode", "ListNode", "List", "Optional")  # what the sandbox defines for another family's code


class ProblemKindError(ValueError):
    """The statement is of a family codeloop cannot run as written; the message is one line for the user."""


@dataclass(frozen=True)
class Contract:
    family: Family = Family.PLAIN
    trees: tuple = ()         # parameters given as TreeNode (built from their level-order list)
    lists: tuple = ()         # parameters given as ListNode (built from their list)
    returns: str = ""         # "tree" or "list" when the answer is a node, turned back into list form
    design_class: str = ""    # design: the class whose operations a test replays
    in_place: str = ""        # in-place: the argument compared after the call
    return_too: bool = False  # in-place: the answer is [k, the argument's first k items]

    @property
    def plain(self):
        return self.family == Family.PLAIN

    @property
    def solution_name(self):
        """What a code answer must define: run_code, a design's class, or for a whole program nothing ("")."""
        return "" if self.family == Family.STDIO else self.design_class or "run_code"

    def for_sandbox(self):
        """What the sandbox runner's codec needs, as plain data (marshal-able); None for a plain problem, so
        that the runner does exactly what it did before families existed."""
        if self.plain and not (self.trees or self.lists):
            return None
        return {"family": str(self.family), "trees": list(self.trees), "lists": list(self.lists), "returns": self.returns,
                "design_class": self.design_class, "in_place": self.in_place, "return_too": self.return_too}

    def describe(self):
        """One line on how the code is called, for the run's progress."""
        if self.family == Family.STDIO:
            return "a whole program, the test's input on standard input, what it prints compared token by token"
        if self.design_class:
            return f"the class {self.design_class}, its operations replayed"
        parts = [*(f"{name} given as a TreeNode" for name in self.trees), *(f"{name} as a ListNode" for name in self.lists)]
        parts += [f"returns a {'TreeNode' if self.returns == 'tree' else 'ListNode'}"] if self.returns else []
        if self.in_place:
            parts.append(f"{self.in_place} compared after the call" + (" with the returned k" if self.return_too else ""))
        return ", ".join(parts)

    def record(self):
        return {key: value for key, value in (self.for_sandbox() or {"family": "plain"}).items() if value}


# "def maxDepth(self, root: Optional[TreeNode]) -> int", "Function signature: def max_depth(root: TreeNode[int] | None)"
SIGNATURE = re.compile(r"\bdef\s+\w+\s*\((?P<params>[^)]*)\)\s*(?:->\s*(?P<returns>[^:\n]+))?")
LIST_FORM = re.compile(r"\b(?P<name>[A-Za-z_]\w*)\s*=\s*(?P<value>\[[^\[\]]*\])")
OPERATIONS = re.compile(r'(?P<ops>\[\s*"[A-Z]\w*"(?:\s*,\s*"\w+")*\s*\])\s*\n\s*(?P<args>\[.*?\])\s*(?:\n|$)')
NAMED_CLASS = re.compile(r"\bImplement (?:the )?`?(?P<name>[A-Z]\w*)`? class\b")
NO_RETURN = re.compile(r"\bdo not return anything\b|\bmodify (?:the )?`?\w+`? in[- ]place\b", re.IGNORECASE)
MODIFY = re.compile(r"\bmodify (?:the )?`?(?P<name>\w+)`? in[- ]place\b", re.IGNORECASE)
IN_PLACE_WORDS = re.compile(r"\bin[- ]place\b", re.IGNORECASE)
FIRST_K = re.compile(r"\breturn\s+(?:k|the\s+number\s+of)\b|\bfirst k elements\b", re.IGNORECASE)
RETURNS_NODE = re.compile(r"\breturn (?:the |its |a )?(?:\w+ ){0,3}?(?P<what>head|root|linked list|list|tree)\b",
                          re.IGNORECASE)


def detect(statement, signature=None, kind=None, option="--kind"):
    """The statement's Contract; `signature` a `def` line when the caller has one apart from the statement;
    `kind` the family the person named (--kind), which wins over the statement's words; `option`: how the
    caller names that option in a message (MCP's `kind`)."""
    text = (statement or "").replace("`", "")
    params, returned = _signature(signature or text)
    family = Family(kind) if kind else None
    if family == Family.PLAIN:
        return Contract()
    if family == Family.STDIO:
        return Contract(Family.STDIO)
    design = _design(text)
    if family is None and design is None and not params and reads_standard_input(statement or ""):
        return Contract(Family.STDIO)
    if design is not None and family in (None, Family.DESIGN):
        if "TreeNode" in text or "ListNode" in text:
            raise ProblemKindError("a class design whose methods take or return TreeNode / ListNode is not supported")
        return Contract(Family.DESIGN, design_class=design)
    if family == Family.DESIGN:
        raise ProblemKindError(f"{option} design: the statement names no class to implement "
                               '("Implement the X class", or an operation list like ["X","push"])')
    trees, lists, returns = _nodes(text, params, returned)
    in_place = _in_place(text, params, returned, named=family == Family.IN_PLACE)
    if family == Family.TREE and not (trees or lists or returns):
        raise ProblemKindError(f"{option} tree: the statement names no TreeNode or ListNode argument "
                               "(root = [...], head = [...])")
    if family == Family.IN_PLACE and not in_place:
        raise ProblemKindError(f"{option} in-place: the statement names no argument to modify (modify nums in-place)")
    if in_place and family in (None, Family.IN_PLACE):
        return Contract(Family.IN_PLACE, trees, lists, returns, in_place=in_place,
                        return_too=bool(FIRST_K.search(text)) and returned not in ("None", ""))
    if trees or lists or returns:
        return Contract(Family.TREE, trees, lists, returns)
    return Contract()


def from_code(code, kind, option="--kind"):
    """The contract of code given without its statement (MCP's run_tests), in the family the caller names: a
    design's class is the code's last class; a tree's nodes and an in-place argument are read from run_code's
    signature (the first list or node parameter is changed in place; returning an int, k is compared too)."""
    family = Family(kind) if kind else Family.PLAIN
    if family in (Family.PLAIN, Family.STDIO):
        return Contract(family)
    body = ast.parse(code).body
    if family == Family.DESIGN:
        classes = [node.name for node in body if isinstance(node, ast.ClassDef)]
        if not classes:
            raise ProblemKindError(f"{option} design: the code defines no class")
        return Contract(Family.DESIGN, design_class=classes[-1])
    run = next((node for node in body if isinstance(node, ast.FunctionDef) and node.name == "run_code"), None)
    if run is None:
        return Contract()  # the caller says that run_code is missing
    returns = f" -> {ast.unparse(run.returns)}" if run.returns else ""
    params, returned = _signature(f"def run_code({ast.unparse(run.args)}){returns}")
    trees, lists, returns = _nodes("", params, returned)
    if family == Family.TREE:
        if not (trees or lists or returns):
            raise ProblemKindError(f"{option} tree: annotate run_code's node parameters (root: TreeNode, head: ListNode)")
        return Contract(Family.TREE, trees, lists, returns)
    listed = [name for name, annotation in params.items() if re.search(r"list|List|TreeNode|ListNode", annotation)]
    changed = (listed or list(params) or [""])[0]
    if not changed:
        raise ProblemKindError(f"{option} in-place: run_code takes no argument to change")
    return Contract(Family.IN_PLACE, trees, lists, returns, in_place=changed, return_too=returned == "int")


# A contest statement's sections: "Input" and "Output" as headings (Markdown's #, bold, LaTeX's \section*{Input}),
# or as bare lines where a sample is named too ("Sample Input 1"): LeetCode writes "Input: nums = [..]" with a
# colon and a value, and its class designs "Input" and "Output" alone above their lists, with no sample named
HEADED = r"^[ \t]*(?:#{{1,6}}[ \t]*{0}[ \t]*:?|\*\*{0}:?\*\*)[ \t]*$|\\(?:sub)*section\*?\{{{0}\}}"
INPUT_HEADING = re.compile(HEADED.format("Input"), re.IGNORECASE | re.MULTILINE)
OUTPUT_HEADING = re.compile(HEADED.format("Output"), re.IGNORECASE | re.MULTILINE)
BARE_SECTIONS = re.compile(r"^[ \t]*Input[ \t]*$.*^[ \t]*Output[ \t]*$", re.MULTILINE | re.DOTALL)
SAMPLE_NAMED = re.compile(r"^[ \t#*]*(?:Sample|Example)[ \t]*\d*[ \t]*Input\b|\bstandard input\b|\bstdin\b",
                          re.IGNORECASE | re.MULTILINE)


def reads_standard_input(statement):
    """Whether a statement without a function signature is a contest problem: Input and Output headings, or
    Input and Output lines with a sample named ("Sample Input 1") or standard input said."""
    text = statement.replace("`", "")
    if INPUT_HEADING.search(text) and OUTPUT_HEADING.search(text):
        return True
    return bool(SAMPLE_NAMED.search(text) and (BARE_SECTIONS.search(text) or OUTPUT_HEADING.search(text)))


def _signature(text):
    """({parameter: annotation}, the return annotation or "") of the last `def` in the text."""
    found = list(SIGNATURE.finditer(text))
    if not found:
        return {}, ""
    match = found[-1]
    params = {}
    for part in _top_level(match.group("params")):
        name, _, annotation = part.partition(":")
        name = name.split("=")[0].strip().lstrip("*")
        if name and name != "self":
            params[name] = annotation.strip()
    return params, (match.group("returns") or "").strip()


def _top_level(inside):
    depth, parts, current = 0, [], ""
    for char in inside + ",":  # split on top-level commas only: Dict[int, int] has its own
        depth += (char in "[(") - (char in "])")
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    return parts


def _design(text):
    """The class a design statement names, or None; its examples' operation and argument lists must pair up."""
    named = NAMED_CLASS.search(text)
    examples = list(OPERATIONS.finditer(text))
    for example in examples:
        try:
            operations, arguments = json.loads(example.group("ops")), json.loads(example.group("args"))
        except ValueError:
            raise ProblemKindError(f"the design example's argument list does not parse: {example.group('args')[:80]}") from None
        if not isinstance(arguments, list) or len(operations) != len(arguments):
            raise ProblemKindError(f"the design example has {len(operations)} operations but "
                                   f"{len(arguments) if isinstance(arguments, list) else 'no list of'} argument lists")
    if examples:
        return json.loads(examples[0].group("ops"))[0]
    return named.group("name") if named and named.group("name") != "Solution" else None


def _nodes(text, params, returned):
    """(tree parameters, list parameters, "tree"/"list"/"") read from the signature, else from the examples."""
    trees = tuple(name for name, annotation in params.items() if "TreeNode" in annotation)
    lists = tuple(name for name, annotation in params.items() if "ListNode" in annotation)
    returns = "tree" if "TreeNode" in returned else "list" if "ListNode" in returned else ""
    if not params:  # no signature: LeetCode's own names for the list forms, where the statement speaks of nodes
        named = {match.group("name") for match in LIST_FORM.finditer(text)}
        if "TreeNode" in text or "binary tree" in text.lower():
            trees = tuple(sorted(name for name in named if name in ("root", "root1", "root2", "tree", "original", "cloned")))
        if "ListNode" in text or "linked list" in text.lower():
            lists = tuple(sorted(name for name in named if name in ("head", "list1", "list2", "l1", "l2", "headA", "headB")))
        said = RETURNS_NODE.search(text)
        if said and (trees or lists):
            what = said.group("what").lower()
            returns = "tree" if what in ("root", "tree") and trees else "list" if what != "tree" and lists else ""
    for name in trees:
        for match in LIST_FORM.finditer(text):
            if match.group("name") == name:
                _tree_values(match.group("value"))
    return trees, lists, returns


def _tree_values(written):
    """The level-order list a statement writes, checked: JSON with null (or None) for a missing child."""
    try:
        values = json.loads(re.sub(r"\bNone\b", "null", written))
    except ValueError:
        raise ProblemKindError(f"the list form {written[:80]} does not parse as a tree "
                               "(level order, null for a missing child)") from None
    if values and values[0] is None:
        raise ProblemKindError(f"the list form {written[:80]} does not parse as a tree: its root is null")
    return values


def _in_place(text, params, returned, named=False):
    """The argument the statement says to modify in place, or ""; `named`: the person said the family, so a
    signature returning None is enough without the words "in-place"."""
    said = MODIFY.search(text)
    if said and (not params or said.group("name") in params):
        return said.group("name")
    if not (IN_PLACE_WORDS.search(text) or named and returned == "None") or not params:
        return ""
    if returned == "None" or NO_RETURN.search(text) or FIRST_K.search(text):
        listed = [name for name, annotation in params.items() if re.search(r"list|List|TreeNode|ListNode", annotation)]
        return listed[0] if listed else ""
    return ""


if __name__ == "__main__":
    print(detect(Path(sys.argv[1]).read_text(encoding="utf-8") if len(sys.argv) > 1 else sys.stdin.read()).record())
