"""core/source_code.py: which programs are one program written twice (one voter), and the parse it reads them with."""
from textwrap import dedent

import pytest

from core.source_code import program_key, repeats
from tests import scripted_answers as a

LOOP = dedent(a.GOOD_FUNCTION)  # Two Sum, one pass with a map from value to index


ONE_PROGRAM = [
    pytest.param(LOOP.replace("seen", "index_of").replace("i, n", "k, v").replace("- n", "- v").replace("[n] = i", "[v] = k")
                 .replace(", i]", ", k]"), id="variables renamed"),
    pytest.param(LOOP.replace("def run_code(nums, target):", 'def run_code(nums: list, target: int) -> list:\n'
                              '    """Two Sum."""  # one pass'), id="docstring, comment and annotations added"),
    pytest.param("import math as m\n" + LOOP, id="an import the code does not use, under an alias"),
    pytest.param("def helper(a, b):\n    return a - b\n\n" + LOOP.replace("target - n", "helper(target, n)"),
                 id="the same helper with other names, both sides"),
    pytest.param(LOOP.replace("def run_code(", "def two_sum(") + "\n\nrun_code = two_sum  # the answer named its function\n",
                 id="the statement's function name bound to run_code"),
    pytest.param(LOOP.replace("return [seen[target - n], i]\n", "return [seen[target - n], i]\n            seen.clear()\n"),
                 id="code after a return, which never runs (HumanEval/49 shown one program)"),
]


@pytest.mark.parametrize("other", ONE_PROGRAM)
def test_programs_that_differ_only_in_names_and_layout_are_one_program(other):
    base = LOOP if "import" not in other else "import math\n" + LOOP
    if "helper" in other:
        base = "def diff(p, q):\n    return p - q\n\n" + LOOP.replace("target - n", "diff(target, n)")
    assert other != base and program_key(other) == program_key(base)


RUNNING_MAX = ("def run_code(arr):\n    chunks, top = 0, float('-inf')\n    for x in arr:\n        top = max(top, x)\n"
               "        chunks += x == top\n    return chunks\n")


@pytest.mark.parametrize("spelling", ["-float('inf')", 'float("-Infinity")', "-math.inf", "float(' -inf ')"])
def test_an_infinity_spelled_another_way_is_one_program(spelling):
    # LeetCode 768's false success (2026-12-01): a majority of two, one program with its maximum started each way
    other = "import math\n" + RUNNING_MAX.replace("float('-inf')", spelling)
    assert program_key(other) == program_key("import math\n" + RUNNING_MAX)
    assert program_key(RUNNING_MAX.replace("float('-inf')", "float('inf')")) != program_key(RUNNING_MAX)
    assert program_key(RUNNING_MAX.replace("float('-inf')", "-float('nan')")) != program_key(RUNNING_MAX)


STARTED = ("def run_code(arr):\n    chunks = 0\n    top = -float('inf')\n    n = len(arr)\n    for x in arr:\n"
           "        top = max(top, x)\n        chunks += x == top\n    return chunks + n\n")


def test_counters_started_in_another_order_are_one_program():
    # LeetCode 768's false success (2026-12-01, live): a majority of two, one program with its counters started each way
    moved = STARTED.replace("    chunks = 0\n    top = -float('inf')\n    n = len(arr)\n",
                            "    n = len(arr)\n    top = float('-inf')\n    chunks = 0\n")
    assert moved != STARTED and program_key(moved) == program_key(STARTED)


@pytest.mark.parametrize("started", [
    pytest.param("    top = -float('inf')\n    chunks = top\n", id="one reads what another assigns"),
    pytest.param("    chunks = arr\n    arr = []\n", id="one assigns what another read"),
    pytest.param("    chunks = arr.pop()\n    top = arr.pop()\n", id="a call that changes what the next one reads"),
])
def test_assignments_whose_order_matters_are_not_moved(started):
    first, second = started.splitlines(keepends=True)
    body = "    for x in arr:\n        top = max(top, x)\n    return chunks, top, arr\n"
    assert program_key("def run_code(arr):\n" + first + second + body) != \
        program_key("def run_code(arr):\n" + second + first + body)


TWO_PROGRAMS = [
    pytest.param(LOOP.replace("enumerate(nums)", "reversed(list(enumerate(nums)))"), id="a builtin changed"),
    pytest.param(LOOP.replace("(nums, target)", "(numbers, target)").replace("nums)", "numbers)"),
                 id="run_code's parameter renamed: it is called by keyword"),
    pytest.param(LOOP.replace("[seen[target - n], i]", "[i, seen[target - n]]"), id="the same names, another order"),
    pytest.param(LOOP.replace("seen[n] = i", "seen[n] = i + 0"), id="one more operation"),
    pytest.param("def nothing(nums, target):\n    return []\n\n\n" + LOOP.replace("def run_code(", "def two_sum(")
                 + "\nrun_code = nothing\n", id="another function bound to run_code"),
    pytest.param(LOOP.replace("        seen[n] = i\n", "        seen[n] = i\n        break\n"),
                 id="a break that cuts the loop short: what comes before it still counts"),
]


@pytest.mark.parametrize("other", TWO_PROGRAMS)
def test_programs_that_compute_differently_are_two_programs(other):
    assert other != LOOP and program_key(other) != program_key(LOOP)


def test_code_that_does_not_parse_is_its_own_text():
    assert program_key("def run_code(:\n") == "def run_code(:\n"
    assert program_key("def run_code(:\n") != program_key("def run_code(x:\n")


def test_repeats_names_each_program_written_again_and_the_one_it_repeats():
    renamed = LOOP.replace("seen", "d")
    other = LOOP.replace("enumerate(nums)", "reversed(list(enumerate(nums)))")
    assert repeats({1: LOOP, 2: renamed, 3: other, 4: other.replace("seen", "s")}) == {2: 1, 4: 3}
    assert repeats({1: LOOP, 2: other}, besides={9: renamed}) == {1: 9}, "a candidate the oracle already is"


TOTAL_MATCH = """def run_code(lst1, lst2):
    return lst1 if sum(len(s) for s in lst1) <= sum(len(s) for s in lst2) else lst2
"""

ONE_PROGRAM_BY_VALUE = [
    pytest.param("""def run_code(lst1, lst2):
    chars1 = sum(len(s) for s in lst1)
    chars2 = sum(len(s) for s in lst2)
    if chars1 <= chars2:
        return lst1
    else:
        return lst2
""", id="sums held in locals, the choice an if with two returns (HumanEval/74's two voters)"),
    pytest.param("""def run_code(lst1, lst2):
    first = sum(len(s) for s in lst1)
    if first <= sum(len(s) for s in lst2):
        return lst1
    return lst2
""", id="one sum held in a local, the second return after the if"),
]


@pytest.mark.parametrize("other", ONE_PROGRAM_BY_VALUE)
def test_programs_that_only_hold_values_in_locals_or_put_a_choice_another_way_are_one_program(other):
    assert program_key(other) == program_key(TOTAL_MATCH)


TWO_PROGRAMS_BY_VALUE = [
    pytest.param(("def run_code(x):\n    a = []\n    b = []\n    a.append(x)\n    return a\n",
                  "def run_code(x):\n    a = []\n    b = []\n    a.append(x)\n    return b\n"),
                 id="a list changed in place is not its first value"),
    pytest.param(("def run_code(x):\n    d = {}\n    d[x] = 1\n    return d\n",
                  "def run_code(x):\n    d = {}\n    e = {}\n    d[x] = 1\n    return e\n"),
                 id="a dict filled by subscript is not its first value"),
    pytest.param(("def run_code(x):\n    m = x\n    x = x + 1\n    return m\n",
                  "def run_code(x):\n    x = x + 1\n    return x\n"),
                 id="a value whose names change later stays a local"),
    pytest.param(("def run_code(x):\n    if x:\n        return 1\n    x = 0\n    return 2\n",
                  "def run_code(x):\n    return 1 if x else 2\n"),
                 id="a return that does not follow the if is not its else"),
    pytest.param(("def run_code(x):\n    t = x + 1\n    def f(t):\n        return t\n    return f(0)\n",
                  "def run_code(x):\n    def f(t):\n        return x + 1\n    return f(0)\n"),
                 id="a nested function's parameter of the same name is another name"),
    pytest.param(("def run_code(x):\n    e = x\n    try:\n        return 1 // 0\n    except ZeroDivisionError as e:\n"
                  "        return str(e)\n",
                  "def run_code(x):\n    try:\n        return 1 // 0\n    except ZeroDivisionError as e:\n        return str(x)\n"),
                 id="an exception caught under the name binds it again"),
]


@pytest.mark.parametrize("pair", TWO_PROGRAMS_BY_VALUE)
def test_programs_whose_values_differ_stay_two_programs(pair):
    first, second = pair
    assert program_key(first) != program_key(second)


@pytest.mark.parametrize("code, words", [
    (a.BRUTE_FORCE, "two nested loops"),
    (a.GOOD_CODE, "a dict, simple loops"),
    ("```python\ndef run_code(nums):\n    return sorted(set(nums))[:2]\n```", "sorting, a set, a direct formula, no loop"),
    ("```python\nimport heapq\ndef run_code(nums, k):\n    return [x * 2 for x in heapq.nlargest(k, nums)]\n```",
     "a heap, simple loops"),
    ("```python\ndef run_code(n):\n    return n if n < 2 else run_code(n - 1) + run_code(n - 2)\n```", "recursion"),
    (("```python\ndef run_code(n):\n    dp = [1] * (n + 1)\n    for i in range(2, n + 1):\n        for j in range(i):\n"
      "            for k in range(j):\n                dp[i] += dp[k]\n    return dp[n]\n```"),
     "a table of subresults, three or more nested loops"),
    ("def run_code(:", "a program that does not parse")])
def test_an_approach_is_named_by_the_tools_it_reaches_for_and_how_deep_its_loops_nest(code, words):
    from core.source_code import approach
    body = code.split("```python\n")[-1].split("```")[0]
    assert approach(body) == words
