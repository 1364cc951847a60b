"""core/variants.py: inputs made from the given ones by small changes that keep their types."""
import os
import subprocess
import sys
from pathlib import Path

from core.variants import variants

ROOT = Path(__file__).resolve().parent.parent

TWO_SUM_CONSTRAINTS = """Return the indices of the two numbers that add up to target.
Constraints:
- 2 <= nums.length <= 4
- -10 <= nums[i] <= 10
"""


def test_each_variant_changes_one_argument_and_keeps_every_type():
    given = [{"nums": [2, 7, 11], "target": 9, "word": "abc", "flag": True}]
    made = variants(given, count=50)
    assert made, "an ordinary input has neighbours"
    for inputs in made:
        assert inputs.keys() == given[0].keys() and inputs["flag"] is True, "a flag is never flipped"
        changed = [name for name in inputs if inputs[name] != given[0][name]]
        assert len(changed) == 1
        assert all(type(inputs[name]) is type(given[0][name]) for name in inputs)


def test_variants_repeat_no_given_input_and_no_other_variant_and_stop_at_count():
    given = [{"a": 7}, {"a": 8}, {"a": 30}]
    made = variants(given, count=5)
    keys = [inputs["a"] for inputs in made]
    assert len(made) == 5 and len(set(keys)) == 5 and not {7, 8, 30} & set(keys)
    assert variants(given, count=5) == made, "a fixed seed makes a run repeatable"


def test_every_given_input_lends_variants_in_turn():
    made = variants([{"a": 100}, {"a": -50}], count=2)
    assert [inputs["a"] > 0 for inputs in made] == [True, False], "one from each, numbers keep their sign"


def test_nothing_is_emptied_and_inputs_with_an_empty_value_lend_none():
    made = variants([{"s": "a", "t": "xy"}, {"s": "", "t": "abc"}], count=50)
    assert made and all(inputs["s"] and inputs["t"] for inputs in made)
    assert all(inputs["t"] != "abc"[::-1] for inputs in made), "the input with an empty string lends nothing"


def test_lists_stay_sorted_or_distinct_when_the_statement_says_so_and_every_given_one_is():
    given = [{"nums": [1, 2, 5]}, {"nums": [3, 4, 9, 10]}]
    made = variants(given, "nums is sorted in ascending order and its values are distinct", count=50)
    assert made and all(inputs["nums"] == sorted(inputs["nums"]) for inputs in made)
    assert all(len(set(inputs["nums"])) == len(inputs["nums"]) for inputs in made)
    unsaid = variants(given, "Return the indices of two numbers that add up to target.", count=50)
    assert any(inputs["nums"] != sorted(inputs["nums"]) for inputs in unsaid), \
        "sorted only because the model wrote them so: a two-pointer search must meet an unsorted list"
    unsorted = variants([{"nums": [5, 1, 2]}], "sorted", count=50)
    assert any(inputs["nums"] == [2, 1, 5] for inputs in unsorted), "reversed, when the given list was not sorted"


def test_variants_keep_the_statements_stated_constraints():
    made = variants([{"nums": [9, 10, 1, 2], "target": 3}], TWO_SUM_CONSTRAINTS, count=50)
    assert made and all(2 <= len(inputs["nums"]) <= 4 and all(-10 <= n <= 10 for n in inputs["nums"]) for inputs in made)
    assert any(inputs["nums"] == [2, 1, 10, 9] for inputs in made)


def test_a_string_that_mixes_cases_is_also_tried_with_its_case_swapped_and_no_other_string_changes_case():
    made = [inputs["s"] for inputs in variants([{"s": "This is a message"}], count=50)]
    assert "tHIS IS A MESSAGE" in made, "vowels only ever given in lower case meet upper case ones"
    lower = [inputs["s"] for inputs in variants([{"s": "abc"}, {"s": "a1b"}], count=50)]
    upper = [inputs["s"] for inputs in variants([{"s": "XYZ"}], count=50)]
    assert lower and upper and all(s == s.lower() for s in lower) and all(s == s.upper() for s in upper), \
        "a statement whose strings hold one case may promise it (\"lowercase English letters\")"


def test_string_variants_are_the_same_in_every_process():
    """A run repeated with --seed must see the same variants: they once came out of a set of strings, whose
    order follows each process's hash seed, so two runs of one commit tested different inputs."""
    script = [sys.executable, "-m", "core.variants", '{"s": "abc", "words": ["ab", "cd", "ef"]}']
    made = {subprocess.run(script, cwd=ROOT, env={**os.environ, "PYTHONHASHSEED": str(seed)}, capture_output=True,
                           text=True, check=True).stdout for seed in (1, 2, 3, 4)}
    assert len(made) == 1 and made.pop().count("\n") == 8


def test_a_design_sequence_varies_its_numbers_and_its_length_never_its_operations():
    from core.variants import sequence_variants
    given = {"operations": ["MinStack", "push", "push", "getMin", "pop"], "arguments": [[], [-2], [0], [], []]}
    made = sequence_variants([given], count=16)
    assert {"operations": given["operations"], "arguments": [[], [-1], [1], [], []]} in made
    assert {"operations": given["operations"], "arguments": [[], [2], [0], [], []]} in made
    assert {"operations": given["operations"][:-1], "arguments": given["arguments"][:-1]} in made
    assert all(variant["operations"] == given["operations"][:len(variant["operations"])] for variant in made)
    assert given not in made and len(made) == len({str(variant) for variant in made})
