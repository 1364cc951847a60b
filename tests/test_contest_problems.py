"""Contest problems (the stdio family, core/problem_kind.py) through the real CLI: main.py in a subprocess, a
scripted model on the stub server, the real sandbox. A pasted statement with Input/Output sections and samples is
solved by a whole program, its inputs beyond the samples printed by the model's input generator and kept where
its input validator accepts them, expected values from agreement; the exported test_solution.py runs
`python solution.py` under plain pytest. A Kattis package is read with --problem-dir; bad input ends with one
line, exit 2."""
import json
import subprocess
import sys

from tests.test_main import codeloop

SUM = """# Sum of a list

Given a list of integers, print their sum.

## Input

The first line holds an integer $n$ ($1 \\le n \\le 10$). The second line holds $n$ integers $a_i$ ($|a_i| \\le 100$).

## Output

Print the sum of the integers.

## Sample Input 1

```
3
1 2 3
```

## Sample Output 1

```
6
```

## Sample Input 2

```
1
-5
```

## Sample Output 2

```
-5
```
"""

SUM_CODE = """```python
import sys

data = sys.stdin.read().split()
n = int(data[0])
print(sum(int(x) for x in data[1:1 + n]))
```"""

SUM_ORACLE = """```python
n = int(input())
total = 0
for value in input().split()[:n]:
    total += int(value)
print(total)
```"""

# right on the samples, wrong on a list with an even count of items: the generator's inputs tell
SUM_WRONG = """```python
n = int(input())
values = list(map(int, input().split()))
print(sum(values) if n % 2 else sum(values[:-1]))
```"""

GENERATOR = """```python
import random

random.seed(int(input()))
n = random.randint(1, 6)
print(n)
print(" ".join(str(random.randint(-20, 20)) for _ in range(n)))
```"""

VALIDATOR = """```python
lines = open(0).read().split("\\n")
n = int(lines[0])
assert 1 <= n <= 10
values = lines[1].split()
assert len(values) == n and all(abs(int(v)) <= 100 for v in values)
```"""


def exported_pytest(folder):
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_solution.py"],
                          cwd=folder, capture_output=True, text=True, timeout=300)


def solve_sum(stub, tmp_path, generator, code=SUM_CODE, *flags, oracle=None):
    """SUM through the CLI with these answers scripted (the oracle: the candidates' code unless given)."""
    tmp_path.mkdir(exist_ok=True)
    problem = tmp_path / "sum.md"
    problem.write_text(SUM)
    stub.route("code", *[code] * 12)
    stub.route("oracle", oracle or code)
    stub.route("generator", generator)
    stub.route("input_validator", VALIDATOR)
    out = tmp_path / "out"
    return codeloop("--problem-file", str(problem), "--out", str(out), *flags, stub=stub), out


def test_a_pasted_contest_problem_is_solved_by_a_program_and_its_tests_pass_under_pytest(stub, tmp_path):
    result, out = solve_sum(stub, tmp_path, GENERATOR, oracle=SUM_ORACLE)
    assert result.returncode == 0, result.stderr
    assert "a stdio problem" in result.stderr and "an input generator printed" in result.stderr
    record = json.loads((out / "run.json").read_text())
    assert record["status"] == "solved"
    generated = [case for case in record["final"]["test_cases"] if case["name"].startswith("generated_")]
    assert generated and all(set(case["input"]) == {"stdin"} for case in generated)
    ran = subprocess.run([sys.executable, "solution.py"], input="4\n1 2 3 4\n", cwd=out, capture_output=True, text=True)
    assert ran.stdout.strip() == "10"
    exported = exported_pytest(out)
    assert exported.returncode == 0, exported.stdout
    (out / "solution.py").write_text(SUM_WRONG.split("\n", 1)[1].rsplit("```", 1)[0])
    assert exported_pytest(out).returncode == 1  # the exported tests tell a wrong program


def test_a_generator_that_prints_nothing_leaves_the_samples_to_judge_and_says_so(stub, tmp_path):
    result, out = solve_sum(stub, tmp_path, "```python\nseed = int(input())\n```")
    assert "an input generator printed 0 inputs for 16 seeds" in result.stderr
    assert result.returncode == 1 and "Traceback" not in result.stderr  # only the samples back it: not confirmed
    assert json.loads((out / "run.json").read_text())["status"] == "unconfirmed"


def test_a_generator_that_never_ends_is_stopped_in_bounded_time(stub, tmp_path):
    result, out = solve_sum(stub, tmp_path, "```python\nwhile True:\n    pass\n```", SUM_CODE, "--test-timeout", "0.5")
    assert "an input generator printed 0 inputs for 16 seeds" in result.stderr and "Traceback" not in result.stderr
    assert json.loads((out / "run.json").read_text())["status"] == "unconfirmed"


def test_generated_inputs_past_the_size_bound_are_dropped_and_counted(stub, tmp_path):
    from nodes import GENERATED_CHARS
    # odd seeds pad their input past the bound on a line the validator does not read: only the size drops them
    oversized = ("```python\nseed = int(input())\nprint(1)\nprint(seed)\n"
                 "if seed % 2:\n    print(' '.join(['0'] * 6000))\n```")
    result, out = solve_sum(stub, tmp_path, oversized)
    assert "an input generator printed 16 inputs for 16 seeds (8 repeated, a sample or too large)" in result.stderr
    assert "8 new inputs kept" in result.stderr and "Traceback" not in result.stderr
    cases = json.loads((out / "run.json").read_text())["final"]["test_cases"]
    generated = [case["input"]["stdin"] for case in cases if case["name"].startswith("generated_")]
    assert len(generated) == 8 and all(len(text) <= GENERATED_CHARS for text in generated)


def test_programs_that_read_past_their_input_or_print_megabytes_fail_their_tests_with_a_named_error(stub, tmp_path):
    reads_past = "```python\nwhile True:\n    input()\n```"
    result, out = solve_sum(stub, tmp_path, GENERATOR, reads_past, "--max-iterations", "1", "--max-draws", "1")
    assert result.returncode in (1, 3) and "Traceback" not in result.stderr
    record = json.loads((out / "run.json").read_text())
    errors = {r["error_type"] for a in record["final"]["attempts"] for r in a.get("results") or []}
    assert "EOFError" in errors
    megabytes = "```python\nwhile True:\n    print('x' * 10000)\n```"
    result, out = solve_sum(stub, tmp_path / "2", GENERATOR, megabytes, "--max-iterations", "1", "--max-draws", "1")
    record = json.loads((out / "run.json").read_text())
    errors = {r["error_type"] for a in record["final"]["attempts"] for r in a.get("results") or []}
    assert "PrintedTooMuch" in errors and "Traceback" not in result.stderr


ADD_CODE = "```python\na, b = map(int, input().split())\nprint(a + b)\n```"
ADD_GENERATOR = ("```python\nimport random\nrandom.seed(int(input()))\n"
                 "print(random.randint(1, 20), random.randint(1, 20))\n```")
ADD_ORACLE = "```python\nimport sys\nprint(sum(int(word) for word in sys.stdin.read().split()))\n```"
ADD_VALIDATOR = "```python\na, b = map(int, input().split())\nassert 1 <= a <= 1000 and 1 <= b <= 1000\n```"


def test_a_kattis_package_given_with_problem_dir_is_solved_and_its_program_answers_new_inputs(stub, tmp_path):
    from tests.test_problem_package import make_package
    folder = make_package(tmp_path / "adding")
    stub.route("code", *[ADD_CODE] * 8)
    stub.route("oracle", ADD_ORACLE)
    stub.route("generator", ADD_GENERATOR)
    stub.route("input_validator", ADD_VALIDATOR)
    out = tmp_path / "out"
    result = codeloop("--problem-dir", str(folder), "--out", str(out), stub=stub)
    assert result.returncode == 0, result.stderr
    record = json.loads((out / "run.json").read_text())
    assert record["problem"].startswith("# Adding Up") and "Sample Input 2" in record["problem"]
    assert record["settings"]["kind"] == "stdio"
    ran = subprocess.run([sys.executable, "solution.py"], input="400 600\n", cwd=out, capture_output=True, text=True)
    assert ran.stdout.strip() == "1000"
    assert exported_pytest(out).returncode == 0


def test_a_package_with_a_custom_validator_is_refused_with_one_line_exit_2_and_nothing_written(stub, tmp_path):
    from tests.test_problem_package import make_package
    folder = make_package(tmp_path / "adding", yaml="name: X\nvalidation: custom\n")
    out = tmp_path / "out"
    result = codeloop("--problem-dir", str(folder), "--out", str(out), stub=stub)
    assert result.returncode == 2 and result.stderr.count("\n") == 1 and "validation: custom" in result.stderr
    assert not out.exists() and not stub.requests
