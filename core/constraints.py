"""The statement's stated constraints on the inputs, read without the model, to check the model's test inputs.

A small model's "edge cases" are often outside what the problem allows (an empty array where the
statement says 1 <= nums.length): every program then fails or disagrees on them, for nothing. LeetCode
states its constraints in one form, read here as the web page shows it and as it reads once pasted:

    Constraints:
    - 1 <= nums.length <= 10^4          a length
    -10^9 <= nums[i] <= 10^9            every element (nums[i][j]: every element of every element); a line
                                        may start with its negative bound, with or without a bullet
    - 1 <= n, k <= 30                   several names at once
    - 0 <= k <= n <= 10^4               a chain; a bound that is itself a name is checked when it is an input
    - n == points.length                an alias: n means points.length
    - 0 <= w_i <= 100                   a place in every element, named where the statement defines it
                                        (times[i] = (u_i, v_i, w_i): w_i is times[i][2])
    - isConnected[i][j] == isConnected[j][i]   elements paired by a shared index (or isConnected[i][i], the
                                        diagonal), or two places of one element (start_i <= end_i): a
                                        promise for the input validator, not checked here

Bounds are numbers (10^4, 10<sup>4</sup>, 2^31 - 1, 2 * 10^4, 1e5) or names of other inputs. Copied from
the web page as text, a superscript loses its mark: 10^4 reads `104`, 2^31 - 1 reads `231 - 1`. Such a
number (10 followed by an exponent from 2 to 18, or 2 followed by 8, 10, 12, 14, 15, 16, 20, 28, 30, 31,
32, 63 or 64) may be either, so it is read both ways and a constraint holds when either reading allows
the value: a bound that reads like a lost power never drops a test on its own. Names are matched to
run_code's parameters whatever their case or underscores (maxPts is max_pts). What cannot be read
exactly (words, "nums[i] != nums[i + 1]", unknown names) is not checked: a constraint is never guessed;
nor is a line the statement's own examples break (read alone it does not say what the statement means).
Two promises in words about a whole list are read too, the two LeetCode states most: that its items (a
string's characters) differ, 72 of its 1,074 problems ("All the values of nums are unique", "All elements of
candidates are distinct", "nums contains distinct values"), and that they come in order, 22 ("nums is sorted in
non-decreasing order", "stones is sorted in a strictly increasing order"); a line about an item or a pair ("All
the values of graph[u] are unique", "All the pairs (ui, vi) are distinct", "nums[i] is sorted") is left to the
input validator. Each violation names the line it breaks.

Run alone:  python -m core.constraints STATEMENT_FILE '{"nums": [], "target": 3}'
"""
import ast
import functools
import json
import operator
import re
import sys
from dataclasses import dataclass
from itertools import pairwise

from core.cases import input_key
from core.statement_examples import statement_examples

SECTION = re.compile(r"Constraints\s*:?\s*\n(?P<body>(?:[^\n]*\S[^\n]*\n?)+?)(?:\n\s*\n|\Z)", re.IGNORECASE)
BULLET = re.compile(r"^\s*(?:[*•]\s*|-\s+|\d+\.\s+)")  # "-10^9 <= x" starts with a minus, not a bullet
COMPARISON = re.compile(r"(<=|>=|==|≤|≥|<|>)")
TERM = re.compile(r"^(?P<name>[A-Za-z_]\w*)(?P<index>(?:\[\s*[a-z]\s*\])*)(?P<length>\.length)?$")
# the powers of two LeetCode's statements state (2^8 in 3011, 2^28 in 454, 2^10 to 2^30 of trees) and the usual others
LOST_POWER = re.compile(r"(?<![\d.])(?:10(?P<ten>[2-9]|1[0-8])|2(?P<two>8|10|12|14|15|16|20|28|30|31|32|63|64))(?![\d.])")
# "times[i] = (u_i, v_i, w_i)", "points[i] = [x_i, y_i]" (subscripts as pasted: ui, vi, wi)
ELEMENT = re.compile(r"\b(?P<array>[A-Za-z_]\w*)\[(?P<index>[a-z])\]\s*=\s*[\[(](?P<names>[^\])\n]*)[\])]")
LOWER = {"<=": True, "≤": True, "<": True, ">=": False, "≥": False, ">": False}  # the right side bounds from above
_AND = r",\s*|,?\s+and\s+"  # between the names of a line that speaks of several ("nums1 and nums2")
_NAMES = rf"[A-Za-z_]\w*(?:(?:{_AND})[A-Za-z_]\w*)*"
DISTINCT = re.compile(r"^all (?:the )?(?:given )?(?:(?:values|integers|numbers|elements|strings|words|characters|arrays|"
                      rf"pairs|points|positions) (?:of|in) )?(?P<names>{_NAMES}) are (?:all )?(?:unique|distinct)\b"
                      r"|^(?P<name>[A-Za-z_]\w*) (?:contains|has|consists of) (?:only )?(?:unique|distinct)\b", re.IGNORECASE)
# "ascending" and "non-decreasing" allow equal neighbours (LeetCode says "unique" on a line of its own where it means it)
SORTED = re.compile(rf"^(?P<names>{_NAMES}) (?:both )?(?:is|are) (?:both )?(?:sorted )?in (?:a )?(?P<strictly>strictly )?"
                    r"(?:ascending|increasing|non-?decreasing) order\b", re.IGNORECASE)


@dataclass(frozen=True)
class Bound:
    """A number as the statement writes it: lo == hi, unless a lost superscript allows two readings."""
    lo: float
    hi: float
    text: str = ""  # as written


@dataclass(frozen=True)
class Constraint:
    left: object   # a Bound or a Name
    op: str
    right: object
    line: str      # as the statement writes it, for the person who reads why a test was dropped


@dataclass(frozen=True)
class Listed:
    """A promise about the items of each named list (the characters of a string): they differ from one another
    ("distinct"), or each is at least ("sorted") or more than ("strictly sorted") the one before."""
    names: tuple  # normalised, as Name.name
    promise: str
    line: str


@dataclass(frozen=True)
class Violation:
    text: str  # "2 <= nums.length does not hold (2 <= 1; the line `2 <= nums.length <= 10^4`)"
    line: str  # the line broken, as the statement writes it

    def __str__(self):
        return self.text


@dataclass(frozen=True)
class Name:
    name: str      # normalised: no underscores, lower case
    depth: int     # how many [i] follow it
    length: bool   # .length follows it
    at: int | None = None  # a place in every element: w_i of times[i] = [u_i, v_i, w_i] is times[i][2]


def constraint_lines(statement):
    """The lines of the statement's Constraints section, bullets taken off."""
    match = SECTION.search(_plain(statement))
    return [BULLET.sub("", line).strip().rstrip(".") for line in match.group("body").splitlines()] if match else []


def unread_lines(statement):
    """The Constraints lines not read as bounds: promises in words ("nums[i] != nums[i + 1] for all valid i",
    "Only one valid answer exists"), for an input validator (core/checkers.py) to check."""
    elements = element_names(statement)
    # a line with no word in it says nothing (a docstring's closing quotes, as HumanEval/122's section ends)
    return [line for line in constraint_lines(statement) if re.search(r"\w", line) and not _wholly_read(line, elements)]


def element_names(statement):
    """normalised name -> the place it names in every element of an array, from the statement's own definition:
    `times[i] = (u_i, v_i, w_i)` makes w_i times[i][2]. LeetCode states the bounds of such places by these names
    (`0 <= w_i <= 100`), which otherwise name no input: neither checked nor left to the input validator (the
    model's tests of 743 gave an edge a negative time). Only names that carry the definition's index (u_i for
    [i]) are read; a name defined twice is left out."""
    found, seen = {}, set()
    for match in ELEMENT.finditer(_plain(statement or "")):
        names = [piece.strip() for piece in match.group("names").split(",")]
        if len(names) < 2 or not all(re.fullmatch(r"[A-Za-z]\w*", name) and name.endswith(match.group("index"))
                                      and len(name) > 1 for name in names):
            continue
        for at, name in enumerate(names):
            key = normal_name(name)
            if key in seen:
                found.pop(key, None)
                continue
            seen.add(key)
            found[key] = Name(normal_name(match.group("array")), 1, False, at)
    return found


def _wholly_read(line, elements=None):
    """Every comparison of the line is checked (none skipped as a pairing of elements)."""
    read = _read(line, elements)
    return read is not None and len(read) == len(COMPARISON.findall(line))


def _read(line, elements=None):
    """[(left terms, operator, right terms)] of one line, or None when it is not read exactly; a name of a place
    in every element (element_names) read as that place."""
    parts = [part.strip() for part in COMPARISON.split(line)]
    if len(parts) < 3:
        return None
    terms = [[_term(piece) for piece in part.split(",")] for part in parts[0::2]]
    if any(t is None for group in terms for t in group):
        return None  # words, or an expression that is not read exactly: not checked
    terms = [[(elements or {}).get(t.name, t) if _plain_name(t) else t for t in group] for group in terms]
    letters = [[_index_letters(piece) for piece in part.split(",")] for part in parts[0::2]]
    if any(len(set(found)) < len(found) for group in letters for found in group):
        return None  # isConnected[i][i] == 1: the diagonal, not every element
    return [(left, op, right) for left, op, right, left_letters, right_letters
            in zip(terms, parts[1::2], terms[1:], letters, letters[1:])
            if not _paired(left, op, right, left_letters, right_letters)]


def _index_letters(piece):
    return re.findall(r"\[\s*([a-z])\s*\]", piece)


def _paired(left, op, right, left_letters, right_letters):
    """Indexed terms on both sides that share an index pair their elements: graph[i][j] == graph[j][i] (LeetCode
    924), startTime[i] < endTime[i] (1235). An indexed term stands for every element, one at a time, so such a
    comparison would set every element against every other: every right input broke it, and the model's tests
    were dropped. It is a promise, not checked here. (workers[i].length == bikes[j].length == 2 shares no index,
    and edges1[i].length == edges2[i].length == 2 sets two arrays' lengths equal: both read as before.)"""
    shared = any(set(a) & set(b) for a in left_letters for b in right_letters)
    same_array = any(a.name == b.name for a in left for b in right if isinstance(a, Name) and isinstance(b, Name))
    # two places of one element (start_i <= end_i of intervals[i] = [start_i, end_i]) pair it with itself likewise
    places = any(a.at is not None and b.at is not None for a in left for b in right
                 if isinstance(a, Name) and isinstance(b, Name))
    return places or (shared and (op != "==" or same_array))


def _plain_name(term):
    return isinstance(term, Name) and not term.depth and not term.length


def constraints(statement):
    """The Constraints the statement states, aliases (n == nums.length) resolved."""
    found, aliases, elements = [], {}, element_names(statement)
    for line in constraint_lines(statement):
        read = _read(line, elements)
        if read is None:
            continue
        for left, op, right in read:
            for a in left:
                for b in right:
                    if op == "==" and isinstance(a, Name) and isinstance(b, Name):
                        aliases[a.name] = b
                        aliases[b.name] = a
                    found.append(Constraint(a, op, b, line))

    def resolved(term):
        return aliases.get(term.name, term) if _plain_name(term) else term
    return [Constraint(resolved(c.left), c.op, resolved(c.right), c.line) for c in found]


def violations(statement, inputs):
    """What in `inputs` (run_code's arguments) breaks the statement's constraints: Violations, [] if nothing."""
    return _broken(checked_constraints(statement), inputs)


@functools.lru_cache(maxsize=32)
def checked_constraints(statement):
    """The constraints an input is checked against: those the statement's own examples keep. A line an example
    breaks is not read as the statement means it, so it is never checked: LeetCode 1376's `0 <= manager[i] < n`
    (the head's manager is -1, as another line and both examples say) dropped every right input of the model's."""
    found = constraints(statement) + listed_lines(statement)
    misread = {v.line for example in statement_examples(statement) for v in _broken(found, example.input)}
    return [c for c in found if c.line not in misread]


def listed_lines(statement):
    """The Constraints lines that promise a list's items differ or come in order, as Listed. Such a line also
    stays among the input validator's promises (unread_lines): the model's validator may check it, but is not
    sure to (the one for LeetCode 952 checked the bounds alone, and the model's [1, 1, 1, 1] stayed, disputed, in
    two runs whose right code it left unconfirmed: docs/journal/2026-12.md)."""
    found = []
    for line in constraint_lines(statement):
        distinct, ordered = DISTINCT.search(line), SORTED.search(line)
        if distinct:
            found.append(Listed(_names(distinct.group("names") or distinct.group("name")), "distinct", line))
        if ordered:
            found.append(Listed(_names(ordered.group("names")), "strictly sorted" if ordered.group("strictly") else "sorted", line))
    return found


def _broken(found, inputs):
    by_name = {normal_name(name): value for name, value in inputs.items()}
    given = {normal_name(name): name for name in inputs}
    broken = []
    for constraint in found:
        if isinstance(constraint, Listed):
            broken += [Violation(f"{given[name]} {what} (the line `{constraint.line}`)", constraint.line)
                       for name in constraint.names for what in _unkept(constraint.promise, by_name.get(name))]
            continue
        for a in _values(constraint.left, by_name):
            for b in _values(constraint.right, by_name):
                if not _holds(a, constraint.op, b):
                    broken.append(Violation(f"{_show(constraint.left)} {constraint.op} {_show(constraint.right)} does "
                                            f"not hold ({_shown(a)} {constraint.op} {_shown(b)}; the line "
                                            f"`{constraint.line}`)", constraint.line))
    return list(dict.fromkeys(broken))


def _names(text):
    """("nums1", "nums2") of "nums1 and nums2", normalised."""
    return tuple(normal_name(name) for name in re.split(_AND, text))


def _unkept(promise, value):
    """[how a list (a string) breaks the promise: "repeats 3", "has 5 before 3"], or [] where it keeps it."""
    items = list(value) if isinstance(value, (list, str)) else []
    if promise == "distinct":
        seen = set()
        for item in items:
            key = input_key(item)  # [1, 2] and [1, 2] repeat, as points do
            if key in seen:
                return [f"repeats {_shown(item)}"]
            seen.add(key)
        return []
    for before, after in pairwise(items):
        try:
            if after < before or (promise == "strictly sorted" and after == before):
                return [f"has {_shown(before)} before {_shown(after)}"]
        except TypeError:  # items that do not compare: the promise is not read for them
            return []
    return []


def _holds(a, op, b):
    """a OP b for some reading of each side (a number, or a Bound's lo..hi)."""
    a_lo, a_hi = (a.lo, a.hi) if isinstance(a, Bound) else (a, a)
    b_lo, b_hi = (b.lo, b.hi) if isinstance(b, Bound) else (b, b)
    try:
        if op == "==":
            return a_lo <= b_hi and b_lo <= a_hi
        compare = {"<=": operator.le, "≤": operator.le, "<": operator.lt, ">=": operator.ge, "≥": operator.ge,
                   ">": operator.gt}[op]
        return compare(a_lo, b_hi) if LOWER[op] else compare(a_hi, b_lo)
    except TypeError:
        return True  # not comparable: nothing is checked


def _plain(text):
    text = re.sub(r"<sup>\s*(.*?)\s*</sup>", r"^\1", text)
    text = re.sub(r"</?(?:sub|code|strong|em|b|i)>", "", text)
    return text.replace("`", "").replace("**", "").replace("\u2212", "-")


def _term(piece):
    piece = piece.strip()
    match = TERM.match(piece.replace(" ", ""))
    if match and match.group("name") not in ("e",):
        return Name(normal_name(match.group("name")), match.group("index").count("["), bool(match.group("length")))
    return _number(piece)


def _number(text):
    """A Bound for an arithmetic expression of numbers, or None; a lost superscript gives both readings."""
    text = text.replace(" ", "")
    if not re.fullmatch(r"[-+*^0-9.e()]+", text) or "***" in text.replace("^", "**"):
        return None
    readings = {_evaluate(text.replace("^", "**")), _evaluate(LOST_POWER.sub(_as_power, text).replace("^", "**"))}
    if None in readings:
        return None
    return Bound(min(readings), max(readings), text)


def _as_power(match):
    return f"10^{match.group('ten')}" if match.group("ten") else f"2^{match.group('two')}"


def _evaluate(text):
    try:
        return _arithmetic(ast.parse(text, mode="eval").body)
    except (SyntaxError, ValueError, RecursionError):
        return None


def _arithmetic(node):
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        value = _arithmetic(node.operand)
        return None if value is None else (-value if isinstance(node.op, ast.USub) else value)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.Pow)):
        left, right = _arithmetic(node.left), _arithmetic(node.right)
        if left is None or right is None or (isinstance(node.op, ast.Pow) and abs(right) > 64):
            return None
        return {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Pow: operator.pow}[type(node.op)](left, right)
    return None


def _values(term, by_name):
    """What a term stands for in these inputs: a Bound itself, a length, every element, or nothing."""
    if not isinstance(term, Name):
        return [term]
    if term.name not in by_name:
        return []
    values = [by_name[term.name]]
    for _ in range(term.depth):
        values = [item for value in values if isinstance(value, (list, str)) for item in value]
    if term.at is not None:
        values = [value[term.at] for value in values if isinstance(value, list) and len(value) > term.at]
    if term.length:
        return [len(value) for value in values if isinstance(value, (list, str))]
    return [value for value in values if isinstance(value, (int, float)) and not isinstance(value, bool)]


def normal_name(name):
    return name.replace("_", "").lower()


def _show(term):
    if isinstance(term, Bound):
        return term.text
    return term.name + "[i]" * term.depth + (f"[{term.at}]" if term.at is not None else "") + (".length" if term.length else "")


def _shown(value):
    return value.text if isinstance(value, Bound) else repr(value)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: python -m core.constraints STATEMENT_FILE INPUT_JSON")
    with open(sys.argv[1], encoding="utf-8") as f:
        statement = f.read()
    print("\n".join(map(str, violations(statement, json.loads(sys.argv[2])))) or "within the constraints")
