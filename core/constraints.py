"""The statement's stated constraints on the inputs, read without the model, to check the model's test inputs.

A small model's "edge cases" are often outside what the problem allows (an empty array where the
statement says 1 <= nums.length): every program then fails or disagrees on them, for nothing. LeetCode
states its constraints in one form, read here:

    Constraints:
    - 1 <= nums.length <= 10^4          a length
    - -10^9 <= nums[i] <= 10^9          every element (nums[i][j]: every element of every element)
    - 1 <= n, k <= 30                   several names at once
    - 0 <= k <= n <= 10^4               a chain; a bound that is itself a name is checked when it is an input
    - n == points.length                an alias: n means points.length

Bounds are numbers (10^4, 10<sup>4</sup>, 2^31 - 1, 2 * 10^4, 1e5) or names of other inputs. Names are
matched to run_code's parameters whatever their case or underscores (maxPts is max_pts). What cannot
be read exactly (words, "nums[i] != nums[i + 1]", unknown names) is not checked: a constraint is never
guessed.

Run alone:  python -m core.constraints STATEMENT_FILE '{"nums": [], "target": 3}'
"""
import ast
import json
import operator
import re
import sys

SECTION = re.compile(r"Constraints\s*:?\s*\n(?P<body>(?:[ \t]*(?:[-*•]|\d+\.)?[^\n]*\n?)+?)(?:\n\s*\n|\Z)", re.IGNORECASE)
COMPARISON = re.compile(r"(<=|>=|==|≤|≥|<|>)")
TERM = re.compile(r"^(?P<name>[A-Za-z_]\w*)(?P<index>(?:\[\s*[a-z]\s*\])*)(?P<length>\.length)?$")
OPERATORS = {"<=": operator.le, "≤": operator.le, "<": operator.lt, ">=": operator.ge, "≥": operator.ge,
             ">": operator.gt, "==": operator.eq}


def constraints(statement):
    """[(left term, operator, right term)], each term a number or ("name", depth of [i], has .length)."""
    match = SECTION.search(_plain(statement))
    if not match:
        return []
    found, aliases = [], {}
    for line in match.group("body").splitlines():
        line = re.sub(r"^\s*(?:[-*•]|\d+\.)\s*", "", line).strip().rstrip(".")
        parts = [part.strip() for part in COMPARISON.split(line)]
        if len(parts) < 3:
            continue
        terms = [[_term(piece) for piece in part.split(",")] for part in parts[0::2]]
        if any(t is None for group in terms for t in group):
            continue  # words, or an expression that is not read exactly: not checked
        for (left, op, right) in zip(terms, parts[1::2], terms[1:]):
            for a in left:
                for b in right:
                    if op == "==" and isinstance(a, tuple) and isinstance(b, tuple):
                        aliases[a[0]] = b
                        aliases[b[0]] = a
                    found.append((a, op, b))
    return [(aliases.get(a[0], a) if isinstance(a, tuple) and a[0] in aliases and not a[1] and not a[2] else a, op,
             aliases.get(b[0], b) if isinstance(b, tuple) and b[0] in aliases and not b[1] and not b[2] else b)
            for a, op, b in found]


def violations(statement, inputs):
    """What in `inputs` (run_code's arguments) breaks the statement's constraints, in words; [] if nothing."""
    by_name = {_normal(name): value for name, value in inputs.items()}
    broken = []
    for left, op, right in constraints(statement):
        for a in _values(left, by_name):
            for b in _values(right, by_name):
                if a is None or b is None:
                    continue
                try:
                    if not OPERATORS[op](a, b):
                        broken.append(f"{_show(left)} {op} {_show(right)} does not hold ({a!r} {op} {b!r})")
                except TypeError:
                    continue
    return list(dict.fromkeys(broken))


def _plain(text):
    text = re.sub(r"<sup>\s*(.*?)\s*</sup>", r"^\1", text)
    text = re.sub(r"</?(?:sub|code|strong|em|b|i)>", "", text)
    return text.replace("`", "").replace("**", "").replace("\u2212", "-")


def _term(piece):
    piece = piece.strip()
    match = TERM.match(piece.replace(" ", ""))
    if match and match.group("name") not in ("e",):
        return _normal(match.group("name")), match.group("index").count("["), bool(match.group("length"))
    return _number(piece)


def _number(text):
    text = text.replace("^", "**").replace(" ", "")
    if not re.fullmatch(r"[-+*0-9.e()]+", text) or "***" in text:
        return None
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError:
        return None
    return _evaluate(tree.body)


def _evaluate(node):
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        value = _evaluate(node.operand)
        return None if value is None else (-value if isinstance(node.op, ast.USub) else value)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.Pow)):
        left, right = _evaluate(node.left), _evaluate(node.right)
        if left is None or right is None or (isinstance(node.op, ast.Pow) and abs(right) > 64):
            return None
        return {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Pow: operator.pow}[type(node.op)](left, right)
    return None


def _values(term, by_name):
    """The numbers a term stands for in these inputs: a number itself, a length, every element, or none."""
    if not isinstance(term, tuple):
        return [term]
    name, depth, length = term
    if name not in by_name:
        return []
    values = [by_name[name]]
    for _ in range(depth):
        values = [item for value in values if isinstance(value, (list, str)) for item in value]
    if length:
        return [len(value) for value in values if isinstance(value, (list, str))]
    return [value for value in values if isinstance(value, (int, float)) and not isinstance(value, bool)]


def _normal(name):
    return name.replace("_", "").lower()


def _show(term):
    if not isinstance(term, tuple):
        return repr(term)
    name, depth, length = term
    return name + "[i]" * depth + (".length" if length else "")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: python -m core.constraints STATEMENT_FILE INPUT_JSON")
    with open(sys.argv[1], encoding="utf-8") as f:
        statement = f.read()
    print("\n".join(violations(statement, json.loads(sys.argv[2]))) or "within the constraints")
