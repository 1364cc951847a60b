"""utils/problem_package.py: a Kattis problem package read from disk, its statement as Markdown, its refusals.
The packages are built here, small and synthetic, in the layout ICPC contests publish."""
import os
import subprocess
import sys

import pytest

from core.contest_samples import contest_samples
from utils.problem_package import read_package, statement_text
from utils.text_files import InputError

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

STATEMENT = r"""\problemname{Adding Up}
\newcommand{\maxn}{1000}
% a comment the reader never sees
You are given \emph{two} numbers; see \href{https://example.org}{the page} and \texttt{this}.
Costs are in \% of a coin.

\section*{Input}
\begin{itemize}
  \item One line with integers $a$ and $b$ ($1 \le a, b \le \maxn$, $a \ne 10^{9}$).
\end{itemize}

\section*{Output}
Output $a+b$. Your answer should have an absolute or relative error of at most $10^{-6}$.
"""


def make_package(root, yaml="name: Adding Up\n", samples=(("1", "1 2\n", "3\n"), ("2", "5 5\n", "10\n")),
                 secret=(("group1/a", "1 1\n", "2\n"), ("b", "2 2\n", "4\n")), statement=STATEMENT, extra=()):
    root.mkdir(parents=True, exist_ok=True)
    (root / "problem.yaml").write_text(yaml)
    if statement is not None:
        (root / "problem_statement").mkdir(exist_ok=True)
        (root / "problem_statement" / "problem.en.tex").write_text(statement)
    for where, tests in (("sample", samples), ("secret", secret)):
        for name, given, answer in tests:
            path = root / "data" / where / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.with_suffix(".in").write_text(given)
            if answer is not None:
                path.with_suffix(".ans").write_text(answer)
    for name, text in extra:
        (root / name).write_text(text)
    return root


def test_a_package_gives_its_name_samples_in_natural_order_hidden_tests_and_flags(tmp_path):
    folder = make_package(tmp_path / "adding", yaml="name: Adding Up\nvalidator_flags: float_tolerance 1e-6\n",
                          samples=[(str(k), f"{k} 0\n", f"{k}\n") for k in (10, 2, 1)],
                          secret=[("group1/a", "1 1\n", "2\n"), ("b", "2 2\n", "4\n"), ("c", "3 3\n", None)])
    package = read_package(folder)
    assert package.name == "Adding Up" and package.float_tolerance == 1e-6
    assert [test.name for test in package.samples] == ["1", "2", "10"]
    assert sorted(test.name for test in package.hidden) == ["b", "group1/a"] and package.missing == 1
    assert read_package(folder, hidden=False).hidden == ()


@pytest.mark.parametrize("extra, expected", [
    ([("problem.yaml", "name: X\nlimits:\n  time_limit: 3\n")], 3.0),
    ([(".timelimit", "2.5\n")], 2.5),
    ([("domjudge-problem.ini", "name = 'X'\ntimelimit = '4'\n")], 4.0),
    ([], None),
])
def test_the_time_limit_comes_from_wherever_the_package_states_it(tmp_path, extra, expected):
    assert read_package(make_package(tmp_path / "p", extra=extra)).time_limit == expected


def test_the_statement_is_markdown_and_its_samples_read_back_as_the_trusted_tests(tmp_path):
    package = read_package(make_package(tmp_path / "adding"))
    assert package.statement.startswith("# Adding Up\n")
    assert "## Sample Input 1\n\n```\n1 2\n```\n\n## Sample Output 1\n\n```\n3\n```\n" in package.statement
    cases = contest_samples(package.statement)
    assert [(c.input["stdin"], c.expected) for c in cases] == [("1 2\n", "3\n"), ("5 5\n", "10\n")]


def test_latex_becomes_text_a_person_would_paste():
    text = statement_text(STATEMENT)
    assert "## Input" in text and "## Output" in text and "- One line with integers a and b" in text
    assert "1 <= a, b <= 1000" in text and "10^9" in text and "10^-6" in text
    assert "two numbers; see the page and `this`" in text and "in % of a coin" in text
    assert "comment" not in text and "\\" not in text and "{" not in text


def test_a_name_given_per_language_is_read_in_english(tmp_path):
    assert read_package(make_package(tmp_path / "p", yaml="name:\n  de: Klompen\n  en: Clogs\n")).name == "Clogs"


@pytest.mark.parametrize("change, words", [
    (dict(yaml="name: X\nvalidation: custom\n"), "validation: custom"),
    (dict(yaml="name: X\nvalidation: custom interactive\n"), "interactive"),
    (dict(statement=None), "no statement"),
    (dict(samples=()), "no samples"),
    (dict(samples=(("1", "1 2\n", None),)), "has no answer file 1.ans"),
    (dict(yaml="- a list\n"), "must be a mapping"),
    (dict(yaml="name: [unclosed\n"), "does not parse as YAML"),
], ids=["custom", "interactive", "no-statement", "no-samples", "sample-without-answer", "not-a-mapping", "bad-yaml"])
def test_a_package_codeloop_cannot_run_is_refused_with_one_line(tmp_path, change, words):
    with pytest.raises(InputError) as refused:
        read_package(make_package(tmp_path / "p", **change))
    assert words in str(refused.value) and "\n" not in str(refused.value)


def test_a_folder_that_is_not_a_package_is_refused(tmp_path):
    with pytest.raises(InputError, match="no problem.yaml"):
        read_package(tmp_path)
    with pytest.raises(InputError, match="no such folder"):
        read_package(tmp_path / "absent")


def test_run_alone_it_prints_the_statement_or_one_line_and_exit_2(tmp_path):
    good = subprocess.run([sys.executable, "-m", "utils.problem_package", str(make_package(tmp_path / "p"))], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert good.returncode == 0 and good.stdout.startswith("# Adding Up") and "2 samples, 2 hidden tests" in good.stdout
    bad = subprocess.run([sys.executable, "-m", "utils.problem_package", str(make_package(
        tmp_path / "q", yaml="validation: custom\n"))], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "Traceback" not in bad.stderr
