"""Every prompt the flow sends, in one place.

Layout matters for speed: the system message (instructions, then the problem) is the same text in
every call of a run, so a server that caches prompt prefixes (llama-server does) reads it once.
Only the user message after it changes from node to node. Keep feedback short: on a small local
model the prompt length is the main cost of a call.

No sample problem or sample values appear in the instructions: the 1.5B model copied a sample Two Sum
test into other problems, and a sample "count the vowels" test into Two Sum.
"""
import re

from core.feedback import check_failure, classify, compact, failure_line, is_counted, trusted_label
from core.source_code import approach
from core.vocabulary import Source

SYSTEM = """You are an expert Python programmer who solves LeetCode-style problems test-first.

The solution is one Python function named run_code. Its parameters follow the problem: use the
parameter names of the problem's function signature or examples.
It returns the answer; it does not print it or read input. {libraries}

A test case has a name, an input (a mapping of run_code's parameter names to argument values for
this problem) and the exact value run_code must return for that input.

Always reply with exactly one YAML block inside a ```yaml fence, with the keys asked for and nothing
after it. Put code in a block scalar (function_code: |) indented by two spaces. Keep reasoning short.

The problem:
"""


# A contest problem's (a stdio problem, core/problem_kind.py): the same shape of instructions for a whole program
PROGRAM_SYSTEM = """You are an expert Python programmer who solves programming contest problems test-first.

The solution is one whole Python program. It reads the input from standard input exactly as the problem's
Input section describes and prints the answer to standard output exactly as its Output section says, and
nothing else: no prompts, no extra words. Put the code at the top level, or in a function the program
calls at its end. {libraries}

A test case has a name, an input (the text given on standard input) and the exact text the program must print.

Always reply with exactly one YAML block inside a ```yaml fence, with the keys asked for and nothing
after it. Put code in a block scalar (function_code: |) indented by two spaces. Keep reasoning short.

The problem:
"""


# In words, not code: shown as LeetCode's one-line comment form, the classes were copied into answers as
# `class TreeNode:  def __init__(...)`, a syntax error (18 of the 182 answers of record r79-families-fix).
NODE_CLASSES = ("TreeNode and ListNode are already defined, as on LeetCode: a TreeNode has val, left and right, "
                "a ListNode has val and next, and both are made as TreeNode(val) or ListNode(val). "
                "Use them; do not define or import them.")


def family_note(contract):
    """What a tree, design or in-place problem asks of the code, said after the statement in the system message
    (the instructions before it stay one text for every problem, and the requests after it keep their words);
    '' for a plain problem, whose prompts are as they always were. The tests stay in the statement's list form:
    the sandbox builds the nodes and replays the operations (utils/sandbox_runner.py)."""
    if contract is None or contract.plain and not (contract.trees or contract.lists):
        return ""
    if contract.family == "stdio":
        return ("Read all input from standard input (input() or sys.stdin) and print only what the Output section "
                "asks for. A test's input is {stdin: <the text on standard input>}; its expected value is the printed text.")
    if contract.design_class:
        name = contract.design_class
        return (f"This is a class design: write the class {name} with the methods the statement names (where a request "
                f"says run_code, it means the class {name}). A test's input is {{operations: [...], arguments: [...]}} as in "
                f"the statement's example, the first operation making a new {name}; its expected value is the list of "
                "what each operation returns, null for the constructor and for methods that return nothing.")
    lines = []
    nodes = [*(f"{name} as a TreeNode (None for an empty tree)" for name in contract.trees),
             *(f"{name} as a ListNode (None for an empty list)" for name in contract.lists)]
    if nodes or contract.returns:
        lines.append(NODE_CLASSES)
    if nodes:
        lines.append(f"run_code receives {', '.join(nodes)}. In a test, write a tree in LeetCode's level-order list "
                     "form ([3,9,20,null,null,15,7], null for a missing child) and a linked list as a list ([1,2,3]).")
    if contract.returns:
        lines.append(f"run_code returns a {'TreeNode' if contract.returns == 'tree' else 'ListNode'}; "
                     "a test's expected value is it in list form ([] for None).")
    if contract.in_place:
        what = (f"[k, the first k items of {contract.in_place}] after the call, k being what run_code returns"
                if contract.return_too else f"{contract.in_place} after the call; what run_code returns is ignored")
        lines.append(f"run_code modifies {contract.in_place} in place. A test's expected value is {what}.")
    return "\n".join(lines)


STANDARD_LIBRARY_ONLY = "Use only the Python standard library."  # the measured default prompt
PACKAGES_ALLOWED = ("Prefer the Python standard library; a package from PyPI may be imported when it really helps: "
                    "it is installed for the tests.")


def problem_context(problem, docs="", reflection="", guidance=(), family=""):
    """The problem as every call shows it: the statement, then what its family asks of the code (family_note;
    nothing for a plain problem), the user's docs, the model's own restatement and what the person said
    (--interactive) when there are any. They change rarely, so the prompt cache keeps them."""
    text = problem.strip()
    if family:
        text += f"\n\n{family}"
    if docs:
        text += f"\n\nDocumentation the user gave for this problem:\n{docs.strip()}"
    if reflection:
        text += f"\n\nThe problem restated before solving it:\n{reflection.strip()}"
    if guidance:
        text += "\n\nWhat the user said about it (follow this):\n" + "\n".join(f"- {g}" for g in guidance)
    return text


def instructions(allow_install=False, program=False):
    """The start of every call's prompt, the same for every problem of a family: the embedded server keeps it read
    (utils/llama_server.py, `prompt_prefix`), so a run's first call does not read it again. `program`: a stdio
    problem's, whose solution is a whole program reading standard input."""
    return (PROGRAM_SYSTEM if program else SYSTEM).format(libraries=PACKAGES_ALLOWED if allow_install else STANDARD_LIBRARY_ONLY)


def system_message(problem, allow_install=False, program=False):
    return {"role": "system", "content": instructions(allow_install, program) + problem.strip() + "\n"}


def conversation(problem, request, allow_install=False, program=False):
    """`program`: a stdio problem, whose requests (one text for every family) say "the program" for run_code."""
    if program:
        for said, meant in PROGRAM_WORDS:
            request = re.sub(said, meant, request)
    return [system_message(problem, allow_install, program), {"role": "user", "content": request}]


# the requests' words for run_code, for a whole program ("This run_code is wrong on" reads "This program ...")
PROGRAM_WORDS = ((r"\b(This|this|brute-force|final|Its) run_code\b", r"\1 program"),
                 (r"\brun_code\(\*\*", "the program given "), (r"\brun_code\b", "the program"))


def write_tests_request(min_tests, max_tests, examples=(), from_user=False):
    """Beside tests it already has, the model is asked for inputs they lack. Asked only for "more test
    cases" it repeated a shown input in 26 of 123 tests over 42 requests, and runs where every test was a
    repeat ended on the examples alone (HumanEval/77, LeetCode 947 right and unconfirmed; 593 a false
    success). Told to use other inputs it repeats as often (26 of 125), but over 65 paired replays this
    request made 41 claims to 38, 10 correct-but-not-trusted to 13, false successes 3 = 3, 2.6% fewer
    completion tokens: kept as measured, the gain within sampling noise (docs/journal/2026-11.md, 2026-11-29)."""
    how_many = f"{max_tests}" if min_tests >= max_tests else f"{min_tests} to {max_tests}"
    cases = f"{how_many} {'more ' if examples else ''}test case{'s' * (max_tests != 1)} for run_code"
    if examples:
        given = "The user's tests and the problem's examples are" if from_user else "The problem's own examples are"
        start = (f"{given} already tests:\n{format_tests(examples)}\n\n"
                 f"Write {cases}, with the same parameter names and inputs that none "
                 "of the tests above has: edge cases (smallest inputs, duplicates, negative numbers, boundaries).")
    else:
        start = (f"Write {cases}. Start with the examples given in the "
                 "problem, then add edge cases (smallest inputs, duplicates, negative numbers, boundaries).")
    return f"""{start} Keep inputs small and within the problem's constraints, and work out each expected value by hand
from the problem statement.

Reply in this form:
```yaml
reasoning: <one or two sentences>
test_cases:
  - name: <snake_case>
    input: {{<param>: <value>}}
    expected: <value>
```"""


PYTHON_BLOCK = "one ```python block"  # how a code answer is asked for; afresh_retry_request asks for it again
CODE_ANSWER = (f"This time reply with the complete Python code of run_code in {PYTHON_BLOCK}, not YAML, and nothing\n"
               "after the block.")


def implement_request(test_cases, too_slow="", tried=()):
    """A candidate is asked for plain code. Measured against the {reasoning, function_code} YAML answer
    (bench/pass_at_k.py; docs/journal/2026-11.md): as often right at one sample (23 of 120 either way on
    LeetCode seed 2; pass@1 0.51 against 0.46 on HumanEval seed 2) in about half the time, with fewer
    unusable answers. Its samples of one problem are more alike (HumanEval seed 2 pass@4 0.62 against
    0.83), but reasoned later candidates (b1a1038) did not raise the scored sets' solve rate. Asked for no
    comments, it wrote 4-10% fewer tokens and was right less often (HumanEval seed 2 pass@4 0.67 against 0.79).
    `too_slow` (speed_note) says that a program passing these tests was too slow at the stated bounds; `tried`, the
    run's programs so far, after a draw that brought none new or none passing the examples (tried_note)."""
    must_pass = f" It must pass these tests:\n{format_tests(test_cases)}" if test_cases else ""
    faster = f"\n\n{too_slow}" if too_slow else ""
    another = f"\n\n{tried_note(tried)}" if tried else ""
    return f"""Implement run_code so that it solves the problem.{must_pass}{faster}{another}

{CODE_ANSWER}"""


TRIED_SHOWN = 3  # approaches named, the latest: a short request for a small model


def tried_note(codes):
    """What a draw is told after one that brought no new program or none passing the examples: the approaches of the
    programs tried, each in a few words read from its syntax (core/source_code.approach: its tools and loops), and
    a request for another. Words rather than the programs' first lines: shown code, a small model writes it again
    (as speed_note keeps the slow program out), and what the next draw needs is what to do differently."""
    named = list(dict.fromkeys(approach(code) for code in codes))[-TRIED_SHOWN:]
    listed = "".join(f"\n- {words}" for words in named)
    return (f"Approaches already tried for this problem:{listed}\nWrite a different one: for example simulate the "
            "statement's steps directly, try every possible answer (brute force), or use another data structure.")


def speed_note(largest, limit_s):
    """What a draw after a failed speed check (nodes.TimeLargestInput) is told: only the fact and the bound, not
    the slow program, which a small model would copy."""
    return (f"A program that passes these tests did not return within {limit_s:g} s at {largest}, the largest input "
            "the constraints allow. Use an algorithm whose running time fits the constraints.")


def implement_yaml_request(test_cases):
    """implement_request as it was until the measurement above: kept for bench/pass_at_k.py's comparison."""
    must_pass = f" It must pass these tests:\n{format_tests(test_cases)}" if test_cases else ""
    return f"""Implement run_code so that it solves the problem.{must_pass}

Reply in this form, with the whole function under function_code:
```yaml
reasoning: <the approach, in one sentence>
function_code: |
  <the complete Python code of run_code>
```"""


def oracle_request(test_cases):
    """The oracle answers like a candidate: plain code (see implement_request)."""
    must_pass = f" It must pass these tests:\n{format_tests(test_cases)}" if test_cases else ""
    return f"""Write the simplest program that is obviously correct for this problem, as run_code: try every
possibility (brute force, exhaustive search, direct simulation), with no care for speed; it only runs on
small inputs. Prefer plain loops over clever tricks.{must_pass}

{CODE_ANSWER}"""


def rules_request():
    """A claim's second reading (nodes.ReadAgain), first step: the statement's rules in words, before any code. On
    recent problems the false claims were shared misreadings (a tie rule, adjacency, a neighbour condition ignored
    by every program of the run); listing the rules is a reading that does not start from the candidates' prompt."""
    return """Before any code, read the problem statement again, slowly. List every rule it sets on the answer,
one short line each: what exactly is returned (a count, an index, a value, a list and its order), how ties
are broken, conditions on neighbouring or adjacent items, what counts at the boundaries (first and last
items, empty or single-item inputs, inclusive or exclusive ranges), and what to return when nothing
qualifies.

Reply in this form:
```yaml
rules:
  - <one rule>
```"""


def restated_request(rules, test_cases):
    """The second reading's program: a brute force written from the rules listed (rules_request), not from the
    candidates' request."""
    listed = "\n".join(f"- {rule}" for rule in rules)
    must_pass = f"\nIt must pass these tests:\n{format_tests(test_cases)}" if test_cases else ""
    return f"""Write the simplest program that is obviously correct for this problem, as run_code, following
every one of these rules of the statement exactly:
{listed}

Try every possibility (brute force, direct simulation of the statement's steps), with no care for speed.{must_pass}

{CODE_ANSWER}"""


def signature(function, test_cases, *more):
    """The judge's first line, its parameters spelled out: the embedded model, told only "the parameters of
    run_code and one more", wrote `is_valid(output, run_code_input)` or the like, all four times it was asked
    for Two Sum's checker, and the sandbox calls it with keywords."""
    names = list(test_cases[0].input) if test_cases else []
    return f"def {function}({', '.join(names + list(more))}):" if names else ""


def checker_request(test_cases, name):
    """The checker's request, where several answers are right. It asks first what the output holds: told
    instead that "its items come from the input", the embedded model checked Two Sum's indices as values or
    added the indices themselves. Over the many-answers set and Two Sum, 2 of its 52 checkers agreed with a
    true validity check on every output judged, against 6 of 50 asked this way; at temperature 0, 0 of 13
    against 3 of 13 (docs/journal/2026-11.md, bench.checker_quality at 97a7d49)."""
    shown = f" These outputs are right, so it must return True for them:\n{format_tests(test_cases)}" if test_cases else ""
    first = signature("is_valid", test_cases, name)
    return f"""This problem has more than one right answer for some inputs. Write a checker instead of a
solution: a function is_valid with the parameters of run_code and one more, {name}, that returns True
when {name} is a right answer for those inputs and False otherwise{f" (its first line: `{first}`)" if first else ""}. First say what
{name} holds (values from the input, indices into it, a count, new values). Then check every condition the
problem sets on an answer (its type and length, what its items must be, the order or property it must have,
that it is as good as the best answer) without assuming one particular answer.{shown}

Reply in this form, with the whole function under function_code:
```yaml
reasoning: <what {name} holds, then the conditions a right answer must meet, in one sentence>
function_code: |
  <the complete Python code of is_valid>
```"""


def answers_request(test_cases):
    """Where the statement promises one answer: a program that lists every right answer (a brute force), from
    which the checker is built (core/checkers.lister_shim). Asked for is_valid instead, the embedded model
    wrote Two Sum's checker right 2 times in 12 (indices checked as values, the order left unchecked) and the
    README's Two Sum ended not confirmed in 9 runs of 10; asked this way, 9 lists of 12 were right, none of
    the others passed the checker's checks, and the README's Two Sum was solved in 20 runs of 20
    (docs/journal/2026-11.md, bench.checker_quality at 97a7d49)."""
    first = signature("all_answers", test_cases)
    first = f" (its first line: `{first}`)" if first else ""
    shown = "\n".join(f"{i}. all_answers(**{compact(case.input, 300)}) == [{compact(case.expected, 300)}]"
                      for i, case in enumerate(test_cases[:PROMPT_TESTS], 1))
    shown = f", so on its examples:\n{shown}" if shown else "."
    return f"""Write a function all_answers with the parameters of run_code{first} that
returns a list of every right answer for those inputs, each as run_code would return it. Try every
possibility (a brute force is fine: the inputs are small) and do not stop at the first answer. The
problem promises one answer for each input{shown}

Reply with the complete function in one ```python block."""


def validator_request(promises, test_cases):
    """Answered in a python block, as candidates and all_answers are: on the LeetCode tuning seeds' 15
    problems with a promise (bench.validator_quality at 97a7d49, two temperatures), the flow would use 24 of 30 either
    way, 19 of them keeping every hidden input against 21 asked with a YAML reasoning line (4 against 4 also
    dropping a variant input), in 44 completion tokens an answer against 82, and all 30 usable against 29
    (docs/journal/2026-11.md). Unlike the checker's, the reasoning line bought nothing measurable here. Replayed on
    LeetCode seed 4, one run changed: 743's new validator rightly dropped an input breaking `0 <= w`, whose
    dispute had drawn the candidates that outvoted a wrong majority, and the run became a false success."""
    given = "\n".join(f"- {promise}" for promise in promises)
    shown = f" These inputs keep them, so it must return True for them:\n{format_tests(test_cases)}" if test_cases else ""
    first = signature("is_valid_input", test_cases)
    first = f" (its first line: `{first}`)" if first else ""
    return f"""The problem promises this about its inputs:
{given}

Write a function is_valid_input with the parameters of run_code{first} that returns True when an input
keeps every one of these promises and False when it breaks one.{shown}

Reply with the complete function in {PYTHON_BLOCK}, and nothing after the block."""


def generator_request(test_cases):
    """A stdio problem's inputs beyond its samples: their format is free text that only the statement describes,
    so they cannot be varied the way arguments are; the model writes a program printing one input per seed."""
    shown = f"\nThe problem's samples, for the format:\n{format_tests(test_cases)}\n" if test_cases else ""
    return f"""Write an input generator for this problem: a Python program that reads one integer seed from standard
input, calls random.seed(seed), and prints one random valid input for the problem in exactly the format of its
Input section. Keep it small: sizes and counts from 1 to 6, values small (up to 20 where the bounds allow),
always inside every stated bound and promise. Different seeds should give different inputs.{shown}
Reply with the complete program in {PYTHON_BLOCK}, and nothing after the block."""


def input_checker_request(test_cases):
    """A stdio problem's input validator: a program that refuses an input breaking the Input section's rules."""
    shown = f"\nThese samples are valid, so it must accept them:\n{format_tests(test_cases)}\n" if test_cases else ""
    return f"""Write an input validator for this problem: a Python program that reads one input from standard input and
checks it against the Input section: the format, every stated bound and promise. It prints nothing; when the
input breaks a rule it raises an AssertionError (use assert).{shown}
Reply with the complete program in {PYTHON_BLOCK}, and nothing after the block."""


def failing_code(function_code, failure_report):
    """The code and its results, as Revise and ReflectOnFailure both open their request."""
    return f"""run_code fails some tests. The code:
```python
{function_code.rstrip()}
```

Results:
{failure_report}"""


def revise_request(function_code, failure_report, notes=(), trusted_labels=()):
    marks = " or ".join(sorted({label.strip() for label in trusted_labels}))
    trusted = f"Tests marked {marks} are right: never change them; fix the code.\n" if marks else ""
    earlier = "".join(f"- {note}\n" for note in notes)
    return f"""{failing_code(function_code, failure_report)}
{f"{chr(10)}Earlier on this code:{chr(10)}{earlier}" if earlier else ""}
{trusted}For each failing test decide, from the problem statement, whether the test's expected value is wrong
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


def reflect_request():
    return """Before any code: restate the problem in your own words.

Reply in this form, each value one or two short sentences:
```yaml
goal: <what run_code must compute>
inputs: <each parameter, its type and limits>
output: <what run_code returns, its type and format>
edge_cases: <the tricky inputs: empty, one element, duplicates, negatives, ties, ...>
```"""


def failure_reflection_request(function_code, failure_report):
    return f"""{failing_code(function_code, failure_report)}

Do not write code yet. Explain in at most three sentences why the code fails: which step is wrong,
or which test's expected value contradicts the problem statement.

Reply in this form:
```yaml
analysis: <at most three sentences>
```"""


def explain_request(function_code, outcome):
    return f"""The run has ended ({outcome}). Its final run_code:
```python
{function_code.rstrip()}
```

Explain in at most five sentences how this code solves the problem: the idea, why it gives the right
answer, and how its running time grows with the input. Do not repeat the code.

Reply in this form:
```yaml
explanation: <at most five sentences>
```"""


def clarify_request():
    return """Before any tests: does the problem leave something open, so that two careful readers would write
different expected values for the same input? Do not ask what the statement or its examples already
answer. If something is open, ask the user one short question about it; otherwise the question is none.

Reply in this form:
```yaml
question: <one short question, or none>
```"""


def afresh_retry_request(error, request=""):
    """Sent after the first request again, without the unusable answer (utils/ask_model.py: shown its own
    answer, the small model copies it, error and all), and naming the block the request asked for: asked
    for yaml after a python-block request, the model would switch formats mid-run."""
    block = "python" if PYTHON_BLOCK in request else "yaml"
    return (f"Your answer could not be used: {error}\n"
            f"Reply again from the start with the complete answer as one ```{block} block.")


def runaway_retry_request():
    """Sent after the first request again, without the looping answer (utils/ask_model.py)."""
    return ("Your answer could not be used: it started repeating itself and was stopped. Reply again from the "
            "start, shorter, and leave out the reasoning.")


PROMPT_TESTS = 12  # tests listed in a prompt; a long --tests file would not fit a small model's context


def format_tests(test_cases):
    lines = [_program_test(i, case) if set(case.input) == {"stdin"} and isinstance(case.expected, (str, type(None)))
             else f"{i}. {case.name}: run_code(**{compact(case.input, 300)}) == {compact(case.expected, 300)}"
             for i, case in enumerate(test_cases[:PROMPT_TESTS], 1)]
    more = len(test_cases) - PROMPT_TESTS
    return "\n".join(lines + ([f"... and {more} more tests like these."] if more > 0 else []))


def _program_test(i, case):
    """A stdio test as a contest shows a sample: the input's lines, then the output's (each cut at 300 characters)."""
    def cut(text):
        return text if len(text) <= 300 else text[:300] + "...\n"
    expected = "" if case.expected is None else f"expected output:\n{cut(case.expected).rstrip()}"
    return f"{i}. {case.name}, standard input:\n{cut(case.input['stdin']).rstrip()}\n{expected}".rstrip()


def classified_results(test_cases, test_results, function_code, test_timeout):
    """Failures one short line each, by kind (core/feedback.py); passing tests only by number. Tests whose
    expected value is disputed are not failures (unless the code raises there while other programs return a
    value): when nothing else fails, they are listed as open questions. Variant inputs (core/variants.py)
    fail alike in bulk: at most VARIANT_LINES of them are shown, the rest counted."""
    numbered = list(enumerate(zip(test_cases, test_results), 1))
    failed = [(i, case, result) for i, (case, result) in numbered if not result["passed"] and is_counted(case, result)]
    if failed and all(classify(result) in ("import_error", "load_error") for _, _, result in failed):
        return check_failure(failed[0][2], function_code) + f" No test ran ({len(failed)} tests)."
    shown, hidden = _few_variants(failed)
    lines = [failure_line(i, case, result, function_code, test_timeout) for i, case, result in shown]
    if hidden:
        lines.append(f"... and {hidden} more variant inputs fail.")
    passed = [(i, case) for i, (case, result) in numbered if result["passed"] and is_counted(case, result)]
    passing = [f"{i}{trusted_label(case)}" for i, case in passed if not case.is_variant]
    passing_variants = sum(case.is_variant for _, case in passed)
    passing += [f"{passing_variants} variant inputs"] if passing_variants else []
    if not failed:
        disputed = [(i, case, result) for i, (case, result) in numbered
                    if not is_counted(case, result) and case.source == Source.DISPUTED]
        lines = [f"{i}. {case.name}: run_code(**{compact(case.input)}) returned {result['actual'][:160] or result['error_type']};"
                 + (" the programs disagree here (a variant input: no guess)" if case.is_variant else
                    f" the candidates disagree here, and your own guess was {compact(case.expected)}")
                 for i, case, result in _few_variants(disputed)[0]]
        lines = (["No settled test fails, but these inputs are disputed: decide from the statement what run_code "
                  "must return, and fix the code if it is wrong."] + lines) if lines else lines
    return "\n".join(lines + ([f"Tests that pass: {', '.join(passing)}."] if passing else []))


VARIANT_LINES = 3  # a code wrong on one variant is usually wrong on many in the same way


def _few_variants(entries):
    """(number, case, result) entries to show, in order: every written test and the first VARIANT_LINES
    variants; and how many variants are left out."""
    shown, variants = [], 0
    for entry in entries:
        variants += entry[1].is_variant
        if not entry[1].is_variant or variants <= VARIANT_LINES:
            shown.append(entry)
    return shown, max(0, variants - VARIANT_LINES)


def format_results(test_cases, test_results):
    """Every test with its result: the design doc's plain feedback, kept for comparison (feedback=plain)."""
    lines = []
    for i, (case, result) in enumerate(zip(test_cases, test_results), 1):
        head = f"{i}. {case.name}{trusted_label(case)}: input {compact(case.input, 300)}, expected {compact(case.expected, 300)}"
        if result["passed"]:
            lines.append(f"{head} -> PASS")
        elif result["error_type"]:
            tail = result["traceback"].splitlines()[-3:] if result["traceback"] else []
            detail = "\n     ".join(tail) or f"{result['error_type']}: {result['message']}"
            lines.append(f"{head} -> FAIL, {result['error_type']}: {result['message'][:200]}\n     {detail}")
        else:
            lines.append(f"{head} -> FAIL, got {result['actual'][:200]}")
    return "\n".join(lines)


