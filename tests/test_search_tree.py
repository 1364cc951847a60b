"""core/search_tree.py: an attempt's score, its life in the tree (kept, rejected, notes), rewards flowing
up the tree, and each policy's choice."""
import random

from core.run_outcome import handed_over
from core.search_tree import AttemptTree
from core.round_verdict import keep_or_reject
from tests.scripted_answers import case

TESTS = [case(origin="statement"), case(), case(), case()]


def results(passes):
    return [{"passed": p} for p in passes]


def grow(tree, parent, passes, code=None, anchors=False):
    """Add an attempt under `parent`, score it on TESTS and settle it as a round's verdict would
    (core/round_verdict.keep_or_reject)."""
    attempt = tree.add(code or f"def run_code():\n    return {len(tree)}\n", parent, "revise" if parent else "implement", 0)
    attempt.score(results(passes), TESTS)
    judged = {a.id: a.results for a in tree if a.results is not None}
    tree.settle(attempt, keep_or_reject(attempt, judged, {a.id: a.scored for a in tree}, list(tree), anchors))
    return attempt


def test_score_weighs_statement_examples_as_much_as_all_tests():
    tree = AttemptTree()
    a = grow(tree, None, [True, False, False, False])
    assert (a.passed, a.total, a.trusted_passed, a.trusted_total) == (1, 4, 1, 1)
    assert a.reward == 0.625  # (1/4 + 1/1) / 2
    assert grow(tree, None, [False, True, True, True]).reward == 0.375


def test_the_same_code_twice_is_one_attempt_and_the_parent_hears_of_it():
    tree = AttemptTree()
    root = grow(tree, None, [True] * 4, code="def run_code():\n    return 1\n")
    assert tree.add("def run_code():\n    return 1\n", root.id, "revise", 1) is None and len(tree) == 1
    assert root.notes == ["a revision repeated the code of attempt 1 unchanged"]


def test_a_revision_that_breaks_a_test_its_parent_passes_is_rejected_and_noted():
    tree = AttemptTree()
    root = grow(tree, None, [True, True, False, False])
    child = grow(tree, root.id, [False, True, True, True], anchors=True)
    assert child.status == "rejected" and child.broke == ["test 1"]
    assert tree.branch_notes(child.id) == ["a revision was rejected: it broke test 1, which passed before"]
    assert grow(tree, root.id, [True, True, True, False], anchors=True).status == "kept"
    assert tree.best().id == 3, "a rejected attempt is never handed over"


def test_notes_flow_along_a_branch_only():
    tree = AttemptTree()
    root, sibling = grow(tree, None, [False] * 4), grow(tree, None, [False] * 4)
    child = grow(tree, root.id, [False] * 4)
    tree.note(root.id, "root note")
    tree.note(sibling.id, "sibling note")
    tree.note(child.id, "child note")
    assert tree.branch_notes(child.id) == ["root note", "child note"]


def test_rewards_flow_up_to_every_ancestor():
    tree = AttemptTree()
    root = grow(tree, None, [True] * 2 + [False] * 2)
    child = grow(tree, root.id, [True] * 3 + [False])
    grandchild = grow(tree, child.id, [False] * 4)
    assert [a.visits for a in tree] == [3, 2, 1]
    assert root.value == round(root.reward + child.reward + grandchild.reward, 4)


def test_each_policy_chooses_as_documented():
    tree = AttemptTree()
    good, newer_worse = grow(tree, None, [True, True, False, False]), grow(tree, None, [False, True, False, False])
    rejected = grow(tree, good.id, [False, True, True, True], anchors=True)
    assert rejected.status == "rejected"
    assert tree.choose("latest").id == 2
    assert tree.choose("best").id == 1 and tree.best().id == 1, "the rejected attempt is never chosen"
    assert tree.choose("uct").id in (1, 2)
    picks = {tree.choose("thompson", random.Random(seed)).id for seed in range(40)}
    assert picks == {good.id, newer_worse.id}, "Thompson sampling explores both open attempts"
    only_rejected = AttemptTree()
    grow(only_rejected, None, [False] * 4).status = "rejected"
    assert only_rejected.choose("best") is None


def test_uct_prefers_the_rarely_revised_attempt_when_means_are_equal():
    tree = AttemptTree()
    often, rarely = grow(tree, None, [True, False, True, False]), grow(tree, None, [True, False, True, False])
    often.visits, often.value = 5, 5 * often.reward
    assert tree.choose("uct").id == rarely.id


def test_render_draws_children_under_their_parent():
    from core.search_tree import render
    tree = AttemptTree()
    root = grow(tree, None, [True, False, False, False])
    grow(tree, root.id, [True, True, False, False])
    grow(tree, root.id, [False] * 4, anchors=True)
    lines = render(tree.records())
    assert lines[0].startswith("attempt 1 (implement, round 0): tests 1/4, statement 1/1, score 0.62")
    assert lines[1].startswith("├─ attempt 2 (revise") and lines[2].startswith("└─ attempt 3 (revise")
    assert lines[2].endswith("rejected, broke test 1")


def oracle(tree, passes):
    attempt = tree.add(f"def run_code():\n    return 'oracle {len(tree)}'\n", None, "oracle", 0)
    attempt.check = "ok"
    attempt.score(results(passes), TESTS)
    tree.settle(attempt, keep_or_reject(attempt, {}, {attempt.id: attempt.scored}, list(tree), False))
    return attempt


def test_an_unsolved_run_hands_over_the_oracle_only_where_it_passes_the_examples_and_no_candidate_does():
    tree = AttemptTree()
    grow(tree, None, [False, True, True, True])
    wrong_oracle = oracle(tree, [False, True, True, True])
    assert handed_over(tree).source == "implement", "an oracle failing an example is no better"
    right_oracle = oracle(tree, [True, True, False, False])
    assert handed_over(tree) is right_oracle is not wrong_oracle, "it passes the example no candidate passes"
    grow(tree, None, [True, False, False, False])
    assert handed_over(tree).source == "implement", "a candidate passing the example is handed over before it"


def test_an_oracle_passing_every_counted_test_is_handed_over_before_a_candidate_failing_one():
    """LeetCode 2579: every candidate passed the examples and failed the model's guesses the oracle returned."""
    tree = AttemptTree()
    grow(tree, None, [True, True, False, False])
    partial_oracle = oracle(tree, [True, True, True, False])
    assert handed_over(tree).source == "implement", "an oracle failing a counted test too is no better"
    full_oracle = oracle(tree, [True, True, True, True])
    assert handed_over(tree) is full_oracle is not partial_oracle, "it fails nothing where the candidate fails two"
    grow(tree, None, [True, True, True, True])
    assert handed_over(tree).source == "implement", "a candidate failing nothing is handed over before it"


def test_a_draw_adds_no_attempt_for_a_program_the_run_has_and_remembers_what_it_brought():
    tree = AttemptTree()
    oracle = tree.add("def run_code(x):\n    return x * 2\n", None, "oracle", 0)
    drawn = tree.draw(["def run_code(x):\n    y = x * 2\n    return y\n", "def run_code(x):\n    return x + x\n",
                       "def run_code(x):\n    return x+x  # again\n"], 1)
    new = drawn[1][0]
    assert [(attempt and attempt.id, earlier and earlier.id) for attempt, earlier in drawn] == \
        [(None, oracle.id), (2, None), (None, 2)]
    assert len(tree) == 2 and new.source == "implement" and new.round == 1
    assert tree.last_draw == [(1, True), (2, False), (2, True)]


def test_a_draw_missed_when_it_brought_no_new_program_or_none_passing_the_trusted_tests():
    tree = AttemptTree()
    assert not tree.last_draw_missed(), "no draw yet"
    [(first, _)] = tree.draw(["def run_code():\n    return 1\n"], 0)
    first.check = "ok"
    first.score(results([True, False, False, False]), TESTS)
    assert not tree.last_draw_missed(), "a new program passing the statement's example"
    tree.draw(["def run_code():\n    return  1\n"], 1)
    assert tree.last_draw_missed(), "the same program again, passing as it may"
    [(second, _)] = tree.draw(["def run_code():\n    return 2\n"], 2)
    second.check = "ok"
    second.score(results([False, True, True, True]), TESTS)
    assert tree.last_draw_missed(), "a new program, failing the example"
    [(third, _)] = tree.draw(["def run_code():\n    return 3\n"], 3)
    third.check, third.repeat_of = "ok", first.id  # the verdict found it returns what attempt 1 returns
    third.score(results([True, False, False, False]), TESTS)
    assert tree.last_draw_missed(), "a repeat by behaviour"
