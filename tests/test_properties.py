"""Properties of the parsers and codecs a person's text goes through (issue 87), tried by hypothesis on generated
input: the YAML loader on unquoted words, times and numbers (YAML 1.2's core schema) and on what it dumps; the
statement's worked examples read back as written; trees and linked lists in list form, built and read back;
a design's operations, read from a statement and replayed.

Each oracle here is written from the rule it checks (the YAML spec's patterns, LeetCode's level order), not
from the code under test. Examples per property: 40 in the suite; `--examples 1000` (or CODELOOP_EXAMPLES=1000)
asks for more (tests/conftest.py)."""
import json
import keyword
import re

import pytest

hypothesis = pytest.importorskip("hypothesis", reason="hypothesis is a test dependency: pip install -r requirements.txt")
from hypothesis import assume, given, strategies as st  # noqa: E402

from core.problem_kind import Contract, Family  # noqa: E402
from core.statement_examples import statement_examples  # noqa: E402
from utils.sandbox_runner import ListNode, TreeNode, build_list, build_tree, chain_values, replay, tree_values  # noqa: E402
from utils.yaml_answer import dump_yaml, load_yaml  # noqa: E402

# --- YAML 1.2's core schema: what a plain (unquoted) scalar is, from the spec's table (10.3.2)
NULLS = {"null", "Null", "NULL", "~", "None"}  # None: codeloop's addition, Python's word for null
BOOLEANS = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
# PyYAML's YAML 1.1 booleans, the rules codeloop read by before (PyYAML leaves out the spec's y and n)
YAML11_BOOLEANS = {"yes", "Yes", "YES", "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF"}


def plain_value(text):
    """What YAML 1.2's core schema makes of a plain word (NULLS and BOOLEANS, else a string)."""
    return None if text in NULLS else BOOLEANS.get(text, text)


words = st.one_of(st.from_regex(r"\A[A-Za-z][A-Za-z0-9_]{0,11}\Z"), st.sampled_from(sorted(
    NULLS | set(BOOLEANS) | YAML11_BOOLEANS | {"y", "Y", "n", "N"})))


@given(words)
def test_an_unquoted_word_is_a_string_unless_the_core_schema_names_it(word):
    noticed = []
    assert load_yaml(f"value: {word}", noticed) == {"value": plain_value(word)}
    assert type(load_yaml(f"- {word}")[0]) is type(plain_value(word))
    if word in YAML11_BOOLEANS:  # read as a boolean before: said so, once
        assert [(text, now) for text, _, now, _ in noticed] == [(word, word)]


times = st.builds(lambda h, m, s: f"{h}:{m:02d}" + (f":{s:02d}" if s is not None else ""),
                  st.integers(0, 99), st.integers(0, 59), st.none() | st.integers(0, 59))
dates = st.dates().map(lambda day: day.isoformat())


@given(st.one_of(times, dates))
def test_an_unquoted_time_or_date_stays_the_string_written(text):
    noticed = []
    assert load_yaml(f"at: {text}\nlist: [{text}, {text}]", noticed) == {"at": text, "list": [text, text]}
    read_by_11 = {then for _, _, _, then in noticed}
    assert all(not isinstance(then, str) for then in read_by_11), "a note names only what 1.1 read otherwise"
    base_60 = re.fullmatch(r"[1-9][0-9]*(:[0-5][0-9])+", text)
    if base_60 or re.fullmatch(r"\d{4}-\d\d-\d\d", text):
        assert len(noticed) == 3  # YAML 1.1 read a number in base 60, or a date, at each of the three


@given(st.integers(-10**30, 10**30), st.integers(0, 3), st.sampled_from(["", "+"]))
def test_an_unquoted_integer_is_its_decimal_value_leading_zeros_and_all(number, zeros, plus):
    written = ("-" if number < 0 else plus) + "0" * zeros + str(abs(number))
    value = load_yaml(f"n: {written}")["n"]
    assert value == number and type(value) is int


@given(st.floats(allow_nan=False, allow_infinity=False), st.sampled_from(["repr", "e", "E"]))
def test_an_unquoted_float_is_the_number_written(number, style):
    written = repr(number) if style == "repr" else f"{number:.17{style}}"
    value = load_yaml(f"x: {written}")["x"]
    assert type(value) is float and value == number


@given(st.integers(0, 10**9))
def test_hexadecimal_and_octal_need_their_prefix(number):
    assert load_yaml(f"[0x{number:x}, 0o{number:o}]") == [number, number]


json_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=20)
plain_data = st.recursive(
    st.none() | st.booleans() | st.integers(-10**20, 10**20) | st.floats(allow_nan=False, allow_infinity=False) | json_text,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.from_regex(r"\A[a-z_][a-z0-9_]{0,8}\Z"), inner, max_size=4),
    max_leaves=12)


@given(plain_data)
def test_what_dump_yaml_writes_loads_back_the_same_with_no_note(data):
    """--interactive shows the tests by dump_yaml and reads the edit back: untouched, nothing changes or is noted."""
    import yaml
    noticed = []
    text = dump_yaml(data)
    assert load_yaml(text, noticed) == data and noticed == []
    assert yaml.safe_load(text) == data, "a YAML 1.1 reader reads it the same"


# --- the statement's worked examples, read back as written
NAMES = st.from_regex(r"\A[a-z][a-z0-9_]{0,7}\Z").filter(lambda name: not keyword.iskeyword(name))
# no backtick or asterisk in strings: the statement's markdown marks (`code`, **Input:**) are taken out before reading
SAFE_TEXT = st.text(st.characters(whitelist_categories=("Lu", "Ll", "Nd", "Zs", "Po"), blacklist_characters="`*\\"),
                    max_size=12)
VALUES = st.recursive(st.integers(-10**6, 10**6) | st.booleans() | st.none() | SAFE_TEXT,
                      lambda inner: st.lists(inner, max_size=5), max_leaves=10)
EXAMPLES = st.lists(st.tuples(VALUES, VALUES), min_size=1, max_size=4)


@given(st.lists(NAMES, min_size=1, max_size=3, unique=True), st.data())
def test_leetcode_examples_are_read_back_as_written(names, data):
    examples = data.draw(st.lists(st.tuples(st.tuples(*[VALUES] * len(names)), VALUES), min_size=1, max_size=4))
    statement = "Do the thing.\n\n" + "".join(
        f"Example {n}:\nInput: {', '.join(f'{name} = {json.dumps(value)}' for name, value in zip(names, inputs))}\n"
        f"Output: {json.dumps(output)}\n\n" for n, (inputs, output) in enumerate(examples, 1))
    assume(all(not isinstance(value, str) or "Output" not in value for inputs, _ in examples for value in inputs))
    read = [(case.input, case.expected) for case in statement_examples(statement)]
    unique = list({json.dumps(dict(zip(names, inputs)), sort_keys=True): (dict(zip(names, inputs)), output)
                   for inputs, output in reversed(examples)}.values())[::-1]
    assert read == [(inputs, output) for inputs, output in unique] or read == _first_of_each(examples, names)


def _first_of_each(examples, names):
    """The examples in order, an input given twice kept once (its first output): the parser's rule for repeats."""
    seen, kept = set(), []
    for inputs, output in examples:
        key = json.dumps(dict(zip(names, inputs)), sort_keys=True)
        if key not in seen:
            seen.add(key)
            kept.append((dict(zip(names, inputs)), output))
    return kept


@given(NAMES, st.lists(NAMES, min_size=1, max_size=3, unique=True), st.data())
def test_calls_of_the_statements_function_are_read_back_by_its_parameter_names(function, names, data):
    assume(function not in names)
    examples = data.draw(st.lists(st.tuples(st.tuples(*[VALUES] * len(names)), VALUES), min_size=1, max_size=4))
    statement = f"Write def {function}({', '.join(names)}).\n\n" + "".join(
        f"    {function}({', '.join(repr(value) for value in inputs)}) == {output!r}\n" for inputs, output in examples)
    read = [(case.input, case.expected) for case in statement_examples(statement)]
    assert read == _first_of_each(examples, names)


# --- trees and linked lists in list form (the sandbox codec, utils/sandbox_runner.py)
trees = st.recursive(st.none() | st.builds(lambda v: (v, None, None), st.integers(-99, 99)),
                     lambda inner: st.builds(lambda v, left, right: (v, left, right), st.integers(-99, 99), inner, inner),
                     max_leaves=40)


def level_order(tree):
    """LeetCode's list form of a (value, left, right) tree: level order, null for a missing child, trailing nulls
    dropped; written here from its definition, to check the codec against."""
    values, level = [], [tree]
    while any(node is not None for node in level):
        values += [None if node is None else node[0] for node in level]
        level = [child for node in level if node is not None for child in node[1:]]
    while values and values[-1] is None:
        values.pop()
    return values


def same_shape(node, tree):
    if tree is None:
        return node is None
    return isinstance(node, TreeNode) and node.val == tree[0] and same_shape(node.left, tree[1]) and \
        same_shape(node.right, tree[2])


@given(trees)
def test_a_tree_in_list_form_is_built_as_drawn_and_read_back_the_same(tree):
    values = level_order(tree)
    built = build_tree(values)
    assert same_shape(built, tree)
    assert tree_values(built) == values


@given(st.lists(st.integers() | st.text(max_size=5) | st.none(), max_size=60))
def test_a_linked_list_in_list_form_is_built_in_order_and_read_back_the_same(values):
    head = build_list(values)
    walked, node = [], head
    while node is not None:
        assert isinstance(node, ListNode)
        walked.append(node.val)
        node = node.next
    assert walked == values and chain_values(head) == values


# --- a design's operations: read from the statement, replayed on the class
class MinStack:
    """A design as a LeetCode statement names it (camelCase methods), checked against a plain list below."""

    def __init__(self):
        self.items = []

    def push(self, value):
        self.items.append(value)

    def pop(self):
        self.items.pop()

    def top(self):
        return self.items[-1]

    def get_min(self):  # the operation is named getMin: the codec finds the snake-case method too
        return min(self.items)


operations = st.lists(st.one_of(st.tuples(st.just("push"), st.integers(-10**6, 10**6)), st.just(("pop",)),
                                st.just(("top",)), st.just(("getMin",))), max_size=25)


@given(operations)
def test_a_designs_operations_are_read_from_the_statement_and_replayed_as_a_list_would_answer(steps):
    stack, names, arguments, expected = [], ["MinStack"], [[]], [None]
    for step in steps:
        if step[0] != "push" and not stack:
            continue  # LeetCode promises these are called on a non-empty stack
        names.append(step[0])
        arguments.append(list(step[1:]))
        if step[0] == "push":
            stack.append(step[1])
        elif step[0] == "pop":
            stack.pop()
        expected.append({"push": None, "pop": None, "top": stack[-1] if stack else None,
                         "getMin": min(stack) if stack else None}[step[0]])
    statement = (f"Implement the MinStack class.\n\nExample 1:\nInput\n{json.dumps(names)}\n{json.dumps(arguments)}\n"
                 f"Output\n{json.dumps(expected)}\n")
    [case] = statement_examples(statement, Contract(Family.DESIGN, design_class="MinStack"))
    assert case.input == {"operations": names, "arguments": arguments} and case.expected == expected
    assert replay(MinStack, names, arguments) == expected
