"""utils/progress.py: a model call in flight is never silent for long, and its end is one line."""
import time

from utils.progress import Progress


def test_a_call_in_flight_is_reported_every_few_seconds_and_its_end_in_one_line():
    lines = []
    progress = Progress(lines.append, live=False, every_s=0.2)
    on_progress, end = progress.start("ImplementFunction candidate 1")
    other, other_end = progress.start("ImplementFunction oracle")
    for tokens in range(1, 11):
        on_progress(tokens, tokens * 0.05)
        other(2 * tokens, tokens * 0.05)
        time.sleep(0.05)
    end()
    other_end("unusable")
    writing = [line for line in lines if line.startswith("  writing:")]
    assert writing and "ImplementFunction candidate 1" in writing[-1] and "tok/s" in writing[-1]
    assert lines[-2].startswith("  ImplementFunction candidate 1: 10 tokens in")
    assert lines[-1] == "  ImplementFunction oracle: unusable"
    time.sleep(0.5)
    assert len([line for line in lines if line.startswith("  writing:")]) == len(writing), "quiet when nothing is in flight"


def test_a_reask_is_one_line():
    lines = []
    Progress(lines.append, live=False).note("GenerateTestCases: unusable answer (no YAML); asking again")
    assert lines == ["  GenerateTestCases: unusable answer (no YAML); asking again"]
