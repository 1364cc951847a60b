"""Model answers for Two Sum, as a model would write them, for the scripted flow and CLI tests: candidates and
oracles a python block (as they are asked), the other steps YAML."""
import subprocess
import sys
from textwrap import dedent

TWO_SUM = """Given an array of integers nums and an integer target, return the indices of the two numbers
that add up to target, in increasing order. Example: Input: nums = [2,7,11,15], target = 9 Output: [0,1]"""

TESTS = """```yaml
reasoning: The examples first, then small edge cases.
test_cases:
  - name: example_1
    input: {nums: [2, 7, 11, 15], target: 9}
    expected: [0, 1]
  - name: pair_at_the_end
    input: {nums: [3, 2, 4], target: 6}
    expected: [1, 2]
  - name: duplicates
    input: {nums: [3, 3], target: 6}
    expected: [0, 1]
```"""

# the third expected value is wrong: [0, 1] is right for nums [3, 3]
TESTS_WITH_A_WRONG_ONE = TESTS.replace("""    input: {nums: [3, 3], target: 6}
    expected: [0, 1]""", """    input: {nums: [3, 3], target: 6}
    expected: [1, 1]""")

GOOD_FUNCTION = """  def run_code(nums, target):
      seen = {}
      for i, n in enumerate(nums):
          if target - n in seen:
              return [seen[target - n], i]
          seen[n] = i
"""

GOOD_CODE = f"""```python
{dedent(GOOD_FUNCTION)}```"""

# reuses an element: fails when the target is twice an element that appears once before the pair
BUGGY_CODE = """```python
def run_code(nums, target):
    for i in range(len(nums)):
        for j in range(len(nums)):
            if nums[i] + nums[j] == target:
                return [i, j]
```"""

# pairs the first number only: passes the example, raises (ValueError) on pair_at_the_end, where the oracle alone
# answers, as the model guessed: a counted test it fails (programs that differ would dispute the input instead)
FIRST_ONLY_CODE = """```python
def run_code(nums, target):
    return [0, nums.index(target - nums[0], 1)]
```"""

REVISE_CODE = f"""```yaml
reasoning: The code reused an element; one pass with a map from value to index.
function_code: |
{GOOD_FUNCTION}```"""

REVISE_TEST = """```yaml
reasoning: Test 3 is wrong; the two 3s are at indices 0 and 1.
test_cases:
  3: {name: duplicates, input: {nums: [3, 3], target: 6}, expected: [0, 1]}
```"""

REVISE_BOTH = f"""```yaml
reasoning: Test 3 expected [1, 1], which uses one element twice; and the code reuses elements.
test_cases:
  3: {{input: {{nums: [3, 3], target: 6}}, expected: [0, 1]}}
function_code: |
{GOOD_FUNCTION}```"""

REVISE_USELESS = """```yaml
reasoning: I think the code is wrong.
function_code: |
  def run_code(nums, target):
      return [0, 0]
```"""

GARBAGE = "Sure! Here are some tests: test 1 - nums is two seven"

# pair_at_the_end only: a "fix" of BUGGY_CODE that breaks the example BUGGY_CODE passed
REVISE_BREAKS_AN_ANCHOR = """```yaml
reasoning: The answer for three numbers is [1, 2].
function_code: |
  def run_code(nums, target):
      return [1, 2]
```"""

# gives each pair backwards: [1, 0] where [0, 1] is right
BACKWARDS_CODE = GOOD_CODE.replace("return [seen[target - n], i]", "return [i, seen[target - n]]")


def wrong_on_the_example(k):
    """The k-th of many distinct wrong programs: each fails the statement's example, which wants [0, 1]."""
    return f"```python\ndef run_code(nums, target):\n    return [{k}, {k}]\n```"

# every test rewritten to what BACKWARDS_CODE returns, the statement's example included
REVISE_EVERY_TEST_TO_MATCH = """```yaml
reasoning: The tests expect the wrong order.
test_cases:
  1: {name: example_1, input: {nums: [2, 7, 11, 15], target: 9}, expected: [1, 0]}
  2: {name: pair_at_the_end, input: {nums: [3, 2, 4], target: 6}, expected: [2, 1]}
  3: {name: duplicates, input: {nums: [3, 3], target: 6}, expected: [1, 0]}
```"""

NUMPY_CODE = """```python
import numpy as np
def run_code(nums, target):
    return [0, 1]
```"""

REFLECTION = """```yaml
goal: find the two positions whose numbers add up to target
inputs: nums, a list of integers; target, an integer
output: the two indices, smaller first
edge_cases: equal numbers, negative numbers
```"""

FAILURE_ANALYSIS = """```yaml
analysis: The inner loop starts at 0, so an element is paired with itself.
```"""

SUM_OF_EVENS = "Return the sum of the even numbers in the list nums."

SUM_OF_EVENS_TESTS = """```yaml
reasoning: An empty list, no evens, negatives.
test_cases:
  - name: empty
    input: {nums: []}
    expected: 0
  - name: negatives
    input: {nums: [-2, 3]}
    expected: -2
```"""

SUM_OF_EVENS_CODE = """```python
def run_code(nums):
    return sum(n for n in nums if n % 2 == 0)
```"""

# An oracle as the model writes one: every pair, no care for speed
BRUTE_FORCE = """```python
def run_code(nums, target):
    for i in range(len(nums)):
        for j in range(i + 1, len(nums)):
            if nums[i] + nums[j] == target:
                return [i, j]
    return []
```"""

# A claim's second reading (nodes.ReadAgain): Two Sum's rules in words, then a brute force written from them
RULES = """```yaml
rules:
  - return the indices of the two numbers that add up to target
  - the indices are in increasing order
  - each input has exactly one solution
```"""
RESTATED = """```python
def run_code(nums, target):
    for j in range(len(nums)):
        for i in range(j):
            if nums[i] + nums[j] == target:
                return [i, j]
    return []
```"""

# Two Sum read as "do the first two numbers add up to target": passes the example, not pair_at_the_end
READ_FIRST_TWO = """```python
def run_code(nums, target):
    return [0, 1] if nums[0] + nums[1] == target else []
```"""

# Settings for a test that scripts one answer per model step, as the flow ran before expected values came
# from execution: one candidate, no oracle, the model's expected values as the truth.
MODEL_TESTS = {"samples": 1, "oracle": False, "agreement": False}
MODEL_TESTS_FLAGS = ("--samples", "1", "--no-oracle", "--model-expected")


def route_defaults(stub, tests=TESTS, candidates=(GOOD_CODE,), oracle=BRUTE_FORCE, samples=3, reading=RESTATED):
    """Answers for a run with the shipped defaults: the tests, `samples` candidates (the last one given
    repeats), the oracle and a claim's second reading, routed by kind because they are asked at the same time."""
    stub.route("tests", tests)
    stub.route("code", *[candidates[min(k, len(candidates) - 1)] for k in range(samples)])
    if oracle is not None:
        stub.route("oracle", oracle)
    if reading is not None:
        stub.route("rules", RULES)
        stub.route("restated", reading)

SUM_OF_EVENS_ORACLE = """```python
def run_code(nums):
    total = 0
    for n in nums:
        if n % 2 == 0:
            total = total + n
    return total
```"""


# Two programs that agree on primes and on 30, and differ where a prime repeats (8 = 2*2*2, 60 = 2*2*3*5):
# the case variant inputs (core/variants.py) are for.
THREE_PRIMES = """Return true when a is the product of exactly three prime numbers, a prime may repeat.
Example: Input: a = 30 Output: true"""
DISTINCT_FACTORS = """def run_code(a):
    found = [p for p in range(2, a + 1) if a % p == 0 and all(p % q for q in range(2, p))]
    return len(found) == 3
"""
WITH_REPEATS = """def run_code(a):
    count, p = 0, 2
    while a > 1:
        while a % p == 0:
            a, count = a // p, count + 1
        p += 1
    return count == 3
"""
# WITH_REPEATS written another way: a second program (not a renamed copy) that agrees with it everywhere
WITH_REPEATS_APART = """def run_code(a):
    factors, d = [], 2
    while d * d <= a:
        while a % d == 0:
            factors.append(d)
            a //= d
        d += 1
    if a > 1:
        factors.append(a)
    return len(factors) == 3
"""


def written_apart(code, k):
    """`code` (one holding `seen = {}`, as GOOD_CODE) written another way with the same behaviour, k = 0, 1 or 2:
    an independent sample agreeing with it. A copy with names changed would be the same program, one voter
    (core/source_code.py)."""
    return code.replace("seen = {}", ("seen = dict()", "seen = dict({})", "seen = {}\n    seen.clear()")[k])


def code_answer(source, reasoning="Written for the test."):
    """A model's answer holding `source` as its function_code."""
    body = "".join(f"  {line}\n" for line in source.splitlines())
    return f"```yaml\nreasoning: {reasoning}\nfunction_code: |\n{body}```"


def function_of(source):
    """The test's own copy of a scripted program, to say what it returns (trusted code: ours)."""
    namespace = {}
    exec(source, namespace)
    return namespace["run_code"]



def case(name="t", input=None, expected=None, origin="model", **more):
    """A TestCase from its run.json form (origin, guess, evidence as run.json writes them)."""
    from core.cases import TestCase
    return TestCase.from_record({"name": name, "input": input if input is not None else {}, "expected": expected,
                                 "origin": origin, **more})


def handed_over(shared):
    """The current attempt of a store: the version the run hands over."""
    return shared["attempts"].get(shared["current"])


def events_of(shared, kind):
    """The run record's events of one kind, in order."""
    return [e for e in shared["services"].record.data["events"] if e["kind"] == kind]


def why_dropped(shared):
    """{test name: why it was dropped} over the run record's events."""
    events = shared["services"].record.data["events"]
    return {name: why for e in events for name, why in e.get("why_dropped", {}).items()}


def exported_result(folder, code):
    """pytest run on a run's exported test_solution.py in `folder`, with `code` as its solution.py."""
    (folder / "solution.py").write_text(code)
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_solution.py"],
                          cwd=folder, capture_output=True, text=True)
