"""The worked examples of a problem statement, read as test cases without asking the model.

A statement's examples are the one source of expected values that the model did not invent, so the
flow trusts them: Revise may not change them and success requires them. The layouts read:

  LeetCode   Input: nums = [2,7,11,15], target = 9      (Output on the same or a following line)
             Output: [0,1]
  doctest    >>> below_zero([1, 2, -4])
             True
  call       move_one_ball([3, 4, 5, 1, 2]) ==> True    (also ==, =>, ->, ➞, "should return", "# returns",
                                                        and "-> 19 - 5 - 6 = 8": the working, then the value)
  equals     choose_num(12, 15) = 14                     (a single "="; see below)
  arrow      nums = [2, 1, 5], k = 2 -> [2, 1.5]         (arguments by name, then =>, ->, ➞ or →)
  prose      For lst = [1,2,3] the output should be 14   (also "the result should be")
  assignment arr = [2, 1, 1]                             (then, after working lines that start
             return ["Two", "One", "One"]                 with an arrow, "return" or "return =")
  design     ["MinStack","push","getMin"]                (a design problem's, core/problem_kind.py: the
             [[],[-2],[]]                                 input {operations, arguments}, one test for the
             Output [null,null,-2]                        whole sequence; the only layout read for it)
  stdio      Sample Input 1 / Sample Output 1           (a contest problem's texts: core/contest_samples.py)
  in-place   Output: 2, nums = [1,2,_]                   (the returned k and the argument's first k items,
                                                          where the contract compares both)

When the statement admits several right answers ("return any of them"), an example's output is one
of them: it stays a trusted test, judged by a checker that must accept it (core/checkers.py,
core/output_kind.py). Values are Python or JSON literals (true/false/null are read too). Positional arguments need the
function's signature ("def name(a, b)" anywhere in the statement) to be named; an argument named
`maxPts` in the example is the signature's `max_pts`. An example that cannot
be read exactly is left out rather than guessed: a wrong trusted test could never be corrected.
A single "=" also writes definitions ("tri(4) = 3" beside "tri(3) = [1, 3, 2, 8]" in a statement whose
function returns the list), so those examples are kept only when their values all have one type.
The function is the one the statement's lines call most (the helpers shown beside it are not).

Run alone to see what a statement yields:  python -m core.statement_examples examples/two_sum.md
"""
import ast
import json
import re
import sys

from core.cases import TestCase, input_key
from core.contest_samples import contest_samples
from core.output_kind import output_kind
from core.vocabulary import Origin

MARKUP = re.compile(r"`|\*\*(?=[A-Z][a-z]*(?: \d+)?:)|(?<=:)\*\*")  # backticks, **Input:**; "l*****e" may be an answer
SIGNATURE = re.compile(r"\bdef\s+([A-Za-z_]\w*)\s*\(([^)]*)\)")
LEETCODE = re.compile(r"\bInput\s*:\s*(?P<input>.+?)\s*\n?\s*Output\s*:\s*(?P<output>[^\n]+)", re.DOTALL)
SEPARATOR = re.compile(r"\s*(==>|==|=>|->|➞|→|should return|returns|#\s*(?:returns|=>|->))\s*")
EQUALS = re.compile(r"\s*=(?!=)\s*")
WORKING = re.compile(r"^(?P<working>[^=]+?)\s*=\s*(?P<value>[^=]+)$")  # "19 - 5 - 6 = 8"
PROSE = re.compile(r"\bFor\s+(?P<input>[A-Za-z_]\w*\s*=(?!=).*?),?\s+the (?:output|result) should be\s+(?P<output>.+?)\s*$",
                   re.IGNORECASE)
def statement_examples(problem, contract=None):
    """Test cases (origin statement) read from the problem's worked examples; `contract` (core/problem_kind.py)
    names the layouts a design or an in-place problem writes its examples in."""
    if contract is not None and contract.family == "stdio":
        return contest_samples(problem or "")  # texts in and out: no markup is stripped from them
    text = MARKUP.sub("", problem or "")
    signature = _signature(text)
    if contract is not None and contract.design_class:
        return _cases(_design_examples(text))
    found = [*(_in_place_examples(text, signature) if contract is not None and contract.return_too else ()),
             *_leetcode_examples(text, signature), *_call_examples(text, signature), *_arrow_examples(text, signature),
             *_prose_examples(text, signature), *_assignment_examples(text, signature),
             *_one_type(list(_call_examples(text, signature, equals=True)))]
    return _cases(found)


def _cases(found):
    cases, seen = [], set()
    for inputs, expected in found:
        key = input_key(inputs)
        if key not in seen:
            seen.add(key)
            cases.append(TestCase(f"example_{len(cases) + 1}", inputs, expected, Origin.STATEMENT))
    return cases


DESIGN = re.compile(r'(?P<ops>\[\s*"[A-Z]\w*"[^\n]*\])[ \t]*\n\s*(?P<args>\[[^\n]*\])\s*Output\s*:?\s*(?P<output>\[[^\n]*\])')
KEPT_FIRST_K = re.compile(r"\bInput\s*:\s*(?P<input>[^\n]+?)\s*\n\s*Output\s*:\s*(?P<k>\d+)\s*,\s*\w+\s*=\s*(?P<kept>\[[^\]]*\])")


def _design_examples(text):
    """`["MinStack","push"]` over `[[],[-2]]`, then `Output [null,null]`: the whole sequence is one test."""
    for match in DESIGN.finditer(text):
        operations, arguments, output = (_literal(match.group(name)) for name in ("ops", "args", "output"))
        if _UNREADABLE not in (operations, arguments, output) and len(operations) == len(arguments) == len(output):
            yield {"operations": operations, "arguments": arguments}, output


def _in_place_examples(text, signature):
    """`Output: 2, nums = [1,2,_]`: the returned k and the first k items (the underscores are what is left over)."""
    for match in KEPT_FIRST_K.finditer(text):
        call = _parse_call(f"f({match.group('input')})")
        kept = _literal(re.sub(r",?\s*_\s*(?=[,\]])", "", match.group("kept")))
        if call is not None and kept is not _UNREADABLE:
            inputs = _named(call, signature)
            if inputs is not None:
                yield inputs, [int(match.group("k")), kept[:int(match.group("k"))]]


def _signature(text):
    """(function name, [parameter names], number of required parameters) of the statement's function, or None."""
    found = _function_def(text)
    if found is None:
        return None
    name, args = found
    names = [a.arg for a in args.posonlyargs + args.args if a.arg != "self"]
    return name, names, len(names) - len(args.defaults)


def function_def(problem):
    """(name, ast.arguments) of the statement's function, whose parameters its examples are read by, or None."""
    return _function_def(MARKUP.sub("", problem or ""))


def _function_def(text):
    """The `def` whose name the text calls most (the last one shown among equals)."""
    found = []
    for match in SIGNATURE.finditer(text):
        try:
            args = ast.parse(f"def f({match.group(2)}): pass").body[0].args
        except (SyntaxError, ValueError, RecursionError):
            continue
        calls = len(re.findall(rf"(?<![\w.])(?<!def ){re.escape(match.group(1))}\s*\(", text))
        found.append((calls, match.start(), match.group(1), args))
    return max(found, key=lambda item: item[:2])[2:] if found else None


def _leetcode_examples(text, signature):
    for match in LEETCODE.finditer(text):
        raw_input = match.group("input").strip()
        if "Input" in raw_input:  # an Input: without its Output:, swallowed the next example
            continue
        call = _parse_call(f"f({raw_input})")
        value = _literal(match.group("output"))
        if call is not None and value is not _UNREADABLE:
            inputs = _named(call, signature)
            if inputs is not None:
                yield inputs, value


def _call_examples(text, signature, equals=False):
    """`name(args) <separator> value` lines, and doctest pairs; with `equals`, `name(args) = value` lines only."""
    if signature is None:
        return
    name = signature[0]
    lines = text.splitlines()
    for number, line in enumerate(lines):
        for start in (m.start() for m in re.finditer(rf"(?<![\w.]){re.escape(name)}\s*\(", line)):
            end = _closing_paren(line, line.index("(", start))
            if end is None:
                continue
            call = _parse_call("f" + line[line.index("(", start):end + 1])
            rest = line[end + 1:]
            separator = (EQUALS if equals else SEPARATOR).match(rest)
            if separator:
                value = _literal(rest[separator.end():])
                working = None if equals else WORKING.match(rest[separator.end():].strip())
                if value is _UNREADABLE and working and _is_expression(working.group("working")):
                    value = _literal(working.group("value"))
            elif not equals and line.lstrip().startswith(">>>") and not rest.strip() and number + 1 < len(lines):
                value = _literal(lines[number + 1])
            else:
                continue
            if call is not None and value is not _UNREADABLE:
                inputs = _named(call, signature)
                if inputs is not None:
                    yield inputs, value


ARROW = re.compile(r"^\s*(?:[-*]\s*)?(?:Example\s*\d*\s*:\s*)?(?P<input>[A-Za-z_]\w*\s*=(?!=).*?)\s*(?:=>|->|➞|→)\s*"
                   r"(?P<output>.+?)\s*$", re.IGNORECASE)


def _arrow_examples(text, signature):
    """`nums = [2, 1, 5] -> [2, 1.5, 2]` lines: arguments by name, an arrow, the value."""
    return _named_examples(text, signature, ARROW.match, lambda output: output)


def _prose_examples(text, signature):
    """`For lst = [1,2,3] the output should be 14.` lines (the sentence's full stop: "be 1." is 1)."""
    return _named_examples(text, signature, PROSE.search, lambda output: re.sub(r"\.$", "", output))


ASSIGNMENT = re.compile(r"^\s*(?P<input>[A-Za-z_]\w*\s*=(?!=).*?)\s*$")
RETURN = re.compile(r"^\s*return\s*(?:=(?!=)\s*)?(?P<output>.+?)\s*$")


def _assignment_examples(text, signature):
    """`arr = [2, 1]` on one line, `return ["Two", "One"]` (or `return = ...`) on the next, with only
    working lines that start with an arrow between them."""
    lines = text.splitlines()
    for number, line in enumerate(lines):
        match = ASSIGNMENT.match(line)
        if not match:
            continue
        following = next((later for later in lines[number + 1:] if not re.match(r"\s*(?:->|=>|→)", later)), "")
        returned = RETURN.match(following)
        if not returned:
            continue
        call = _parse_call(f"f({match.group('input')})")
        value = _literal(returned.group("output"))
        if call is not None and not call[0] and value is not _UNREADABLE:
            inputs = _named(call, signature)
            if inputs is not None:
                yield inputs, value


def _named_examples(text, signature, find, clean):
    """Lines `find` matches, with arguments by name in the group `input` and the value in `output`."""
    for line in text.splitlines():
        match = find(line)
        if not match:
            continue
        call = _parse_call(f"f({match.group('input')})")
        value = _literal(clean(match.group("output")))
        if call is not None and not call[0] and value is not _UNREADABLE:
            inputs = _named(call, signature)
            if inputs is not None:
                yield inputs, value


def _one_type(found):
    """The examples, if their values all have one JSON type (bool apart from numbers), else none."""
    kinds = {type(value).__name__ if not isinstance(value, (int, float)) or isinstance(value, bool) else "number"
             for _, value in found}
    return found if len(kinds) <= 1 else []


def _is_expression(text):
    try:
        ast.parse(text.strip(), mode="eval")
        return True
    except (SyntaxError, ValueError, RecursionError):
        return False


def _closing_paren(line, opening):
    depth, quote = 0, None
    for i in range(opening, len(line)):
        char = line[i]
        if quote:
            quote = None if char == quote and line[i - 1] != "\\" else quote
        elif char in "'\"":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
            if depth == 0:
                return i
    return None


_UNREADABLE = object()
_JSON_NAMES = {"true": True, "false": False, "null": None, "None": None, "True": True, "False": False}


class _JsonNames(ast.NodeTransformer):
    def visit_Name(self, node):
        if node.id in _JSON_NAMES:
            return ast.copy_location(ast.Constant(_JSON_NAMES[node.id]), node)
        return node


def _value(node):
    """A literal syntax node as plain JSON data, or _UNREADABLE (names, sets, calls, NaN...)."""
    try:
        value = ast.literal_eval(_JsonNames().visit(node))
        return json.loads(json.dumps(value, allow_nan=False))
    except (ValueError, TypeError, SyntaxError, RecursionError):
        return _UNREADABLE


def _literal(text):
    for candidate in (text.strip(), text.strip().rstrip(".,;")):
        try:
            return _value(ast.parse(candidate, mode="eval").body)
        except (SyntaxError, ValueError, RecursionError):
            continue
    return _UNREADABLE


def _parse_call(source):
    """([positional values], {keyword: value}) of a call written as f(...), or None if any is not a literal."""
    try:
        call = ast.parse(source, mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return None
    if not isinstance(call, ast.Call) or any(k.arg is None for k in call.keywords):
        return None
    positional = [_value(arg) for arg in call.args]
    keywords = {k.arg: _value(k.value) for k in call.keywords}
    if _UNREADABLE in positional or _UNREADABLE in keywords.values():
        return None
    return positional, keywords


def _named(call, signature):
    """The call's arguments keyed by parameter name, or None when they cannot be matched to the signature."""
    positional, keywords = call
    if signature is None:
        return keywords if keywords and not positional else None
    _, names, required = signature
    keywords = {_spelled_as(k, names): value for k, value in keywords.items()}
    if len(positional) > len(names) or any(k not in names for k in keywords):
        return None
    inputs = dict(zip(names, positional))
    if set(inputs) & set(keywords):
        return None
    inputs.update(keywords)
    return inputs if all(name in inputs for name in names[:required]) else None


def _spelled_as(keyword, names):
    """The parameter a statement's argument name stands for: LeetCode writes `maxPts = 10` where the Python
    signature says `max_pts`. Names match when they differ only in case and underscores, and only one does."""
    if keyword in names:
        return keyword
    matching = [name for name in names if _bare(name) == _bare(keyword)]
    return matching[0] if len(matching) == 1 else keyword


def _bare(name):
    return name.replace("_", "").lower()


if __name__ == "__main__":
    statement = open(sys.argv[1], encoding="utf-8").read() if len(sys.argv) > 1 else sys.stdin.read()
    for case in statement_examples(statement):
        print(f"{case.name}: run_code(**{json.dumps(case.input)}) == {json.dumps(case.expected)}")
    print(f"the answer: {output_kind(statement)}")
