"""Every prompt the flow sends, in one place.

Layout matters for speed: the system message (instructions, then the problem) is the same text in
every call of a run, so a server that caches prompt prefixes (llama-server does) reads it once.
Only the user message after it changes from node to node. Keep feedback short: on a small local
model the prompt length is the main cost of a call.

No sample problem or sample values appear in the instructions: the 1.5B model copied a sample Two Sum
test into other problems, and a sample "count the vowels" test into Two Sum.
"""
import json

SYSTEM = """You are an expert Python programmer who solves LeetCode-style problems test-first.

The solution is one Python function named run_code. Its parameters follow the problem: use the
parameter names of the problem's function signature or examples.
It returns the answer; it does not print it or read input. Use only the Python standard library.

A test case has a name, an input (a mapping of run_code's parameter names to argument values for
this problem) and the exact value run_code must return for that input.

Always reply with exactly one YAML block inside a ```yaml fence, with the keys asked for and nothing
after it. Put code in a block scalar (function_code: |) indented by two spaces. Keep reasoning short.

The problem:
"""


def system_message(problem):
    return {"role": "system", "content": SYSTEM + problem.strip() + "\n"}


def conversation(problem, request):
    return [system_message(problem), {"role": "user", "content": request}]


def write_tests_request(min_tests, max_tests):
    return f"""Write {min_tests} to {max_tests} test cases for run_code. Start with the examples given in the
problem, then add edge cases (smallest inputs, duplicates, negative numbers, boundaries). Keep inputs
small, and work out each expected value by hand from the problem statement.

Reply in this form:
```yaml
reasoning: <one or two sentences>
test_cases:
  - name: <snake_case>
    input: {{<param>: <value>}}
    expected: <value>
```"""


def implement_request(test_cases):
    must_pass = f" It must pass these tests:\n{format_tests(test_cases)}" if test_cases else ""
    return f"""Implement run_code so that it solves the problem.{must_pass}

Reply in this form, with the whole function under function_code:
```yaml
reasoning: <the approach, in one sentence>
function_code: |
  <the complete Python code of run_code>
```"""


def revise_request(test_cases, function_code, test_results):
    return f"""run_code fails some tests. The code:
```python
{function_code.rstrip()}
```

Results:
{format_results(test_cases, test_results)}

For each failing test decide, from the problem statement, whether the test's expected value is wrong
(then correct the test) or the code is wrong (then fix the code), or both. Recompute expected values
by hand; do not copy run_code's output.

Reply in this form. Leave out test_cases if no test is wrong, and function_code if the code is right:
```yaml
reasoning: <which are wrong, and why, in one sentence>
test_cases:
  <test number>: {{name: <name>, input: {{<param>: <value>}}, expected: <corrected value>}}
function_code: |
  <the complete corrected Python code of run_code>
```"""


def retry_request(error):
    return (f"Your answer could not be used: {error}\n"
            "Reply again with the complete answer as one ```yaml block.")


def format_tests(test_cases):
    return "\n".join(f"{i}. {case['name']}: run_code(**{_compact(case['input'])}) == {_compact(case['expected'])}"
                     for i, case in enumerate(test_cases, 1))


def format_results(test_cases, test_results):
    lines = []
    for i, (case, result) in enumerate(zip(test_cases, test_results), 1):
        head = f"{i}. {case['name']}: input {_compact(case['input'])}, expected {_compact(case['expected'])}"
        if result["passed"]:
            lines.append(f"{head} -> PASS")
        elif result["error_type"]:
            tail = result["traceback"].splitlines()[-3:] if result["traceback"] else []
            detail = "\n     ".join(tail) or f"{result['error_type']}: {result['message']}"
            lines.append(f"{head} -> FAIL, {result['error_type']}: {result['message'][:200]}\n     {detail}")
        else:
            lines.append(f"{head} -> FAIL, got {result['actual'][:200]}")
    return "\n".join(lines)


def _compact(value, limit=300):
    text = json.dumps(value, separators=(", ", ": "))
    return text if len(text) <= limit else text[:limit] + " ...(cut)"
