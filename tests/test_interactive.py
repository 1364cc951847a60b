"""--interactive: each thing the person can do at a review, through the whole flow (scripted model over
HTTP, the real sandbox, a real $EDITOR process), and main.py in a pseudo-terminal."""
import io
import json
import os
import pty
import select
import subprocess
import sys
import time
from dataclasses import replace

import pytest

from flow import create_flow
from tests import scripted_answers as a
from tests.scripted_answers import events_of, handed_over
from tests.test_main import MAIN, ROOT, cli_env
from utils.terminal import Terminal

NO_QUESTION = "```yaml\nquestion: none\n```"
QUESTION = "```yaml\nquestion: If two pairs add up to target, which one should be returned?\n```"


def interactive_run(make_shared, typed, **settings):
    """The scripts hold one answer per model step (a.MODEL_TESTS) unless a test says otherwise."""
    shared = make_shared(interactive=True, **{**a.MODEL_TESTS, **settings})
    screen = io.StringIO()
    shared["services"] = replace(shared["services"], terminal=Terminal(stdin=io.StringIO(typed), stdout=screen))
    create_flow(shared["services"].settings).run(shared)
    shared["screen"] = screen.getvalue()
    return shared


@pytest.fixture
def editor(tmp_path, monkeypatch):
    """$EDITOR is a real program: it replaces the file it is given with the text prepared for it."""
    replacement = tmp_path / "replacement.txt"
    script = tmp_path / "editor.py"
    script.write_text("import shutil, sys\nshutil.copy(sys.argv[1], sys.argv[2])\n")

    def will_write(text):
        replacement.write_text(text)
        monkeypatch.setenv("EDITOR", f"{sys.executable} {script} {replacement}")
        monkeypatch.delenv("VISUAL", raising=False)
    return will_write


def test_accepting_everything_runs_the_usual_loop(make_shared, stub):
    stub.add(NO_QUESTION, a.TESTS, a.BUGGY_CODE, a.REVISE_CODE)
    shared = interactive_run(make_shared, "a\na\n")
    assert shared["status"] == "solved" and shared["iteration"] == 2
    assert [r["stage"] for r in events_of(shared, "review")] == ["tests", "round"]
    assert all(r["actions"] == ["accept"] for r in events_of(shared, "review"))
    assert "1. example_1" in shared["screen"] and "FAIL: got" in shared["screen"], "the round shows the results"
    assert len(stub.requests) == 4


def test_feedback_goes_into_the_next_prompt(make_shared, stub):
    stub.add(NO_QUESTION, a.TESTS, a.GOOD_CODE)
    shared = interactive_run(make_shared, "f keep a dictionary of the numbers seen so far\na\n")
    assert shared["status"] == "solved"
    implement_prompt = stub.requests[2]["messages"][0]["content"]
    assert "keep a dictionary of the numbers seen so far" in implement_prompt
    assert "keep a dictionary" not in stub.requests[1]["messages"][0]["content"], "not in the prompt before it"


def test_deleting_a_test_removes_it_before_any_code(make_shared, stub):
    stub.add(NO_QUESTION, a.TESTS_WITH_A_WRONG_ONE, a.GOOD_CODE)
    shared = interactive_run(make_shared, "d 3\na\n")
    assert [case.name for case in shared["test_cases"]] == ["example_1", "pair_at_the_end"]
    assert shared["status"] == "solved" and len(stub.requests) == 3, "no revision needed once the wrong test is gone"


def test_an_added_test_is_trusted_and_run(make_shared, stub):
    stub.add(NO_QUESTION, a.TESTS, a.GOOD_CODE)
    shared = interactive_run(make_shared, "n\n{nums: [1, 5, 5], target: 10}\n[1, 2]\na\n")
    added = shared["test_cases"][-1]
    assert added.input == {"nums": [1, 5, 5], "target": 10} and added.expected == [1, 2]
    assert added.origin == "user" and len(handed_over(shared).results) == 4 and shared["status"] == "solved"


def test_a_malformed_added_test_is_refused_with_a_reason(make_shared, stub):
    stub.add(NO_QUESTION, a.TESTS, a.GOOD_CODE)
    shared = interactive_run(make_shared, "n\n[1, 2]\n3\na\n")
    assert len(shared["test_cases"]) == 3 and "not added: " in shared["screen"]


def test_tests_edited_in_the_editor_are_the_persons(make_shared, stub, editor):
    edited = ("- {name: example_1, input: {nums: [2, 7, 11, 15], target: 9}, expected: [0, 1]}\n"
              "- {name: duplicates, input: {nums: [3, 3], target: 6}, expected: [0, 1]}\n")
    editor(edited)
    stub.add(NO_QUESTION, a.TESTS_WITH_A_WRONG_ONE, a.GOOD_CODE)
    shared = interactive_run(make_shared, "t\na\n")
    assert [(c.name, c.expected, c.origin) for c in shared["test_cases"]] == [
        ("example_1", [0, 1], "model"), ("duplicates", [0, 1], "user")], "unchanged keeps its origin; changed is theirs"
    assert shared["status"] == "solved"


def test_an_edit_holding_values_yaml_1_1_read_otherwise_says_so_in_one_line(make_shared, stub, editor):
    editor("- {name: example_1, input: {nums: [2, 7, 11, 15], target: 9}, expected: [0, 1]}\n"
           "- {name: float_target, input: {nums: [3, 7], target: 1e1}, expected: [0, 1]}\n")
    stub.add(NO_QUESTION, a.TESTS, a.GOOD_CODE)
    shared = interactive_run(make_shared, "t\na\n")
    assert shared["test_cases"][1].input == {"nums": [3, 7], "target": 10.0} and shared["status"] == "solved"
    notes = [line.split("review> ")[-1] for line in shared["screen"].splitlines() if "note: " in line]
    assert notes == ["note: your edit is read by YAML 1.2's rules: 1e1 (line 2) is 10.0, not \"1e1\" "
                     "(quote a value to keep it a string)"]


def test_an_added_test_yes_stays_the_string_and_is_named_in_a_note(make_shared, stub):
    stub.add(NO_QUESTION, a.TESTS, a.GOOD_CODE)
    shared = interactive_run(make_shared, "n\n{nums: [1, 5, 5], target: 10, mode: YES}\n[1, 2]\nd 4\na\n")
    assert "note: your test is read by YAML 1.2's rules: YES (line 1) is \"YES\", not true" in shared["screen"]
    assert "added test 4: user_4" in shared["screen"]
    assert 'mode: \'YES\'' not in shared["screen"]


def test_a_broken_edit_of_the_tests_changes_nothing(make_shared, stub, editor):
    editor("- {name: x, input: [1, 2]}\n")
    stub.add(NO_QUESTION, a.TESTS, a.GOOD_CODE)
    shared = interactive_run(make_shared, "t\na\n")
    assert len(shared["test_cases"]) == 3 and "tests unchanged: " in shared["screen"]


def test_code_edited_in_the_editor_is_tested_without_asking_the_model(make_shared, stub, editor):
    editor(a.GOOD_FUNCTION.replace("\n  ", "\n").strip() + "\n")
    stub.add(NO_QUESTION, a.TESTS, a.BUGGY_CODE)  # no revision in the script: the person fixes the code
    shared = interactive_run(make_shared, "a\nc\n")
    assert shared["status"] == "solved" and len(stub.requests) == 3
    solved = next(x for x in shared["attempts"] if x.status == "solved")
    assert solved.source == "user" and solved.parent == 1


def test_finishing_after_a_round_hands_over_the_best_version(make_shared, stub):
    stub.add(NO_QUESTION, a.TESTS, a.BUGGY_CODE)
    shared = interactive_run(make_shared, "a\nq\n")
    assert shared["status"] == "stopped" and len(stub.requests) == 3
    assert shared["message"].startswith("stopped by the user after 1 iteration(s): the best version (attempt 1)")
    assert "range(len(nums))" in handed_over(shared).code


def test_end_of_input_finishes_like_q(make_shared, stub):
    stub.add(NO_QUESTION, a.TESTS)
    shared = interactive_run(make_shared, "")
    assert shared["status"] == "stopped" and shared["message"] == "stopped by the user: finished before any code was written"


def test_with_every_test_deleted_the_code_is_still_checked(make_shared, stub):
    stub.add(NO_QUESTION, a.TESTS, a.NUMPY_CODE, a.REVISE_CODE)
    shared = interactive_run(make_shared, "d 1 2 3\na\na\n")
    assert shared["test_cases"] == [] and shared["status"] == "untested"
    assert shared["message"].startswith("no tests to run: the code parses, imports and loads")
    revise_prompt = stub.requests[3]["messages"][1]["content"]
    assert "The import check failed: ModuleNotFoundError" in revise_prompt, "the failed check is the feedback"
    assert "seen = {}" in handed_over(shared).code


def test_the_clarifying_answer_reaches_every_later_prompt(make_shared, stub):
    stub.add(QUESTION, a.TESTS, a.GOOD_CODE)
    shared = interactive_run(make_shared, "the first pair found\na\n")
    assert "which one should be returned?" in shared["screen"]
    for request in stub.requests[1:]:
        assert "the user answered: the first pair found" in request["messages"][0]["content"]
    assert shared["status"] == "solved"


def test_no_question_means_nothing_is_asked(make_shared, stub):
    stub.add(NO_QUESTION, a.TESTS, a.GOOD_CODE)
    shared = interactive_run(make_shared, "a\n")
    assert "the model asks" not in shared["screen"] and shared["guidance"] == []


def test_interactive_without_a_terminal_is_refused_in_one_line(stub, tmp_path):
    result = subprocess.run([sys.executable, MAIN, "--interactive", a.TWO_SUM, "--out", str(tmp_path)],
                            input="a\n", capture_output=True, text=True, cwd=ROOT, env=cli_env(stub), timeout=60)
    assert result.returncode == 2 and stub.requests == []
    assert result.stderr.strip() == ("codeloop: error: --interactive needs a terminal, but standard input is not one; "
                                     "run without --interactive (give your tests with --tests FILE instead)")


def test_main_in_a_pseudo_terminal(stub, tmp_path):
    """The person types at a real terminal: accept the tests, then finish after the failed round (the shipped
    defaults: three candidates and an oracle)."""
    stub.route("question", NO_QUESTION)
    a.route_defaults(stub, candidates=[a.FIRST_ONLY_CODE])
    leader, follower = pty.openpty()
    proc = subprocess.Popen([sys.executable, MAIN, "--interactive", a.TWO_SUM, "--out", str(tmp_path)],
                            stdin=follower, stdout=follower, stderr=follower, cwd=ROOT, env=cli_env(stub), close_fds=True)
    os.close(follower)
    screen = b""
    try:
        for answer in (b"a\n", b"q\n"):
            screen = read_until(leader, screen, b"review> ")
            os.write(leader, answer)
        screen = read_until(leader, screen, b"files:")
        assert proc.wait(timeout=60) == 1
    finally:
        proc.kill()
        os.close(leader)
    text = screen.decode()
    assert "tests (3):" not in text and "3. duplicates: run_code(" in text and "stopped by the user after 1 iteration(s)" in text
    assert "4. variant_1 [variant]: run_code(" in text and "== ? (whatever the programs agree on)" in text
    record = json.loads((tmp_path / "run.json").read_text())
    assert record["status"] == "stopped" and (tmp_path / "solution.py").exists()


def read_until(fd, screen, marker, timeout=60):
    start = len(screen)
    deadline = time.monotonic() + timeout
    while marker not in screen[start:]:
        if time.monotonic() > deadline:
            raise AssertionError(f"waited for {marker!r}; the screen shows:\n{screen.decode(errors='replace')}")
        if select.select([fd], [], [], 0.5)[0]:
            try:
                screen += os.read(fd, 4096)
            except OSError:  # the program ended and closed the terminal
                raise AssertionError(f"ended before {marker!r}:\n{screen.decode(errors='replace')}")
    return screen


def test_help_lists_the_commands_again_and_an_unknown_command_is_named(make_shared, stub):
    stub.add(NO_QUESTION, a.TESTS, a.GOOD_CODE)
    shared = interactive_run(make_shared, "?\nzz\n\na\n")
    assert shared["screen"].count("edit the tests in $EDITOR") == 2 and shared["status"] == "solved"
    assert "unknown command 'zz'; ? lists the commands" in shared["screen"]
    assert "type a command (? for the list); a to accept" in shared["screen"], "an empty line accepts nothing"
