"""core/contest_samples.py: a contest statement's samples read as trusted tests of texts in and out."""
from core.contest_samples import contest_samples
from tests.test_contest_problems import SUM


def test_fenced_samples_pair_by_number_and_keep_their_lines():
    cases = contest_samples(SUM)
    assert [(c.name, c.input, c.expected, str(c.origin)) for c in cases] == [
        ("sample_1", {"stdin": "3\n1 2 3\n"}, "6\n", "statement"), ("sample_2", {"stdin": "1\n-5\n"}, "-5\n", "statement")]


def test_unfenced_and_indented_samples_end_at_a_blank_line():
    text = ("Sample Input\n    2\n    1 2\n\nSample Output\n3\n\nExplanation: one and two make three.\n\n"
            "**Sample Input 2:**\n1\n7\n\n**Sample Output 2:**\n7\n")
    assert [(c.input["stdin"], c.expected) for c in contest_samples(text)] == [("2\n1 2\n", "3\n"), ("1\n7\n", "7\n")]


def test_codeforces_bare_input_and_output_lines_are_samples():
    text = "Examples\ninput\n3\n1 1 1\noutput\n3\ninput\n1\n5\noutput\n5\n"
    assert [(c.input["stdin"], c.expected) for c in contest_samples(text)] == [("3\n1 1 1\n", "3\n"), ("1\n5\n", "5\n")]


def test_a_sample_input_without_its_output_is_left_out_rather_than_guessed():
    text = "## Sample Input 1\n```\n1\n```\n## Sample Input 2\n```\n2\n```\n## Sample Output 2\n```\n4\n```\n"
    assert [(c.input["stdin"], c.expected) for c in contest_samples(text)] == [("2\n", "4\n")]


def test_the_statements_input_section_is_not_a_sample():
    assert contest_samples("## Input\nOne line with n.\n\n## Output\nPrint n.\n") == []
