"""python -m bench.statement_audit [--rendering md|pasted]: where codeloop's reading of a LeetCode statement
disagrees with the set's own judge, without a model.

Every statement of the LeetCode set (bench/datasets.py) is read as a run reads it, and set against what the
set knows to be right:
  kind        the output kind read from the words (core/output_kind.py) against the kind the set's assert
              compares by (sorted or set(...): unordered; abs or isclose: float; else exact). "judged
              unordered, read exact" can fail a right program on its own example; "judged exact, read
              unordered" can pass a wrong one.
  constraint  a constraint line (core/constraints.py) that one of the statement's own examples or one of
              the set's hidden inputs breaks: either the set's input is outside what the statement says
              (the set's doing), or the line is misread and right inputs are dropped (ours).
Prints one line per finding, then counts. Runs no code; asks no model.
"""
import argparse
import re
from collections import Counter

from bench.datasets import hidden_inputs, leetcode, pasted
from core.constraints import violations
from core.output_kind import output_kind
from core.statement_examples import statement_examples


def judged_kind(assert_body):
    """The kind the set's assert compares by."""
    if re.search(r"abs\(|isclose|approx", assert_body):
        return "float"
    return "unordered" if re.search(r"sorted\(|set\(|Counter|sort\(", assert_body) else "exact"


def assert_body(problem):
    """The set's assert, as bench/datasets.py put it into the problem's hidden check."""
    return problem.check.split("def assert_answer", 1)[1].split("\nCASES = [", 1)[0]


def findings(problem, statement):
    """(what, detail) for one problem."""
    found = []
    read = output_kind(statement).kind.value
    judged = judged_kind(assert_body(problem))
    if read != judged and read != "any_valid":  # a checker judges any_valid answers, whatever the set compares by
        found.append(("kind", f"judged {judged}, read {read}"))
    hidden = [("hidden", inputs) for inputs in hidden_inputs(problem)]
    for origin, inputs in [("example", e.input) for e in statement_examples(statement)] + hidden:
        for violation in violations(statement, inputs):
            found.append((f"constraint ({origin})", violation.text))
            break
    return found


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench.statement_audit", description=__doc__.splitlines()[0])
    parser.add_argument("--rendering", choices=("md", "pasted"), default="md",
                        help="the statements as the set writes them, or as text pasted from the web page reads")
    args = parser.parse_args(argv)
    counts, problems = Counter(), 0
    for problem in leetcode():
        problems += 1
        statement = pasted(problem.statement) if args.rendering == "pasted" else problem.statement
        seen = set()
        for what, detail in findings(problem, statement):
            if (what, detail) not in seen:
                seen.add((what, detail))
                counts[what] += 1
                print(f"{problem.id}  {what}: {detail}")
    print(f"{problems} statements ({args.rendering}): " + (", ".join(f"{n} {what}" for what, n in sorted(counts.items()))
                                                           or "no finding"))


if __name__ == "__main__":
    main()
