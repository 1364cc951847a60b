"""utils/search_tree.py: scores, rewards flowing up the tree, and each policy's choice."""
import random

from utils.search_tree import backpropagate, best, choose, render, score

TESTS = [{"origin": "statement"}, {"origin": "model"}, {"origin": "model"}, {"origin": "model"}]


def attempt(id_, parent, passes, status="kept"):
    a = {"id": id_, "parent": parent, "source": "revise" if parent else "implement", "round": 0, "status": status,
         "results": [{"passed": p} for p in passes], "visits": 0, "value": 0.0, "broke": []}
    score(a, TESTS)
    return a


def test_score_weighs_statement_examples_as_much_as_all_tests():
    a = attempt(1, None, [True, False, False, False])
    assert (a["passed"], a["total"], a["trusted_passed"], a["trusted_total"]) == (1, 4, 1, 1)
    assert a["reward"] == 0.625  # (1/4 + 1/1) / 2
    assert attempt(2, None, [False, True, True, True])["reward"] == 0.375


def test_rewards_flow_up_to_every_ancestor():
    root, child, grandchild = attempt(1, None, [True] * 2 + [False] * 2), attempt(2, 1, [True] * 3 + [False]), \
        attempt(3, 2, [False] * 4)
    tree = [root, child, grandchild]
    for a in tree:
        backpropagate(tree, a)
    assert [a["visits"] for a in tree] == [3, 2, 1]
    assert root["value"] == round(root["reward"] + child["reward"] + grandchild["reward"], 4)


def test_each_policy_chooses_as_documented():
    good, newer_worse = attempt(1, None, [True, True, False, False]), attempt(2, None, [False, True, False, False])
    rejected = attempt(3, 1, [True, True, True, False], status="rejected")
    tree = [good, newer_worse, rejected]
    for a in tree:
        backpropagate(tree, a)
    assert choose(tree, "latest")["id"] == 2
    assert choose(tree, "best")["id"] == 1 and best(tree)["id"] == 1, "the rejected attempt is never chosen"
    assert choose(tree, "uct")["id"] in (1, 2)
    picks = {choose(tree, "thompson", random.Random(seed))["id"] for seed in range(40)}
    assert picks == {1, 2}, "Thompson sampling explores both open attempts"
    assert choose([rejected], "best") is None


def test_uct_prefers_the_rarely_revised_attempt_when_means_are_equal():
    often, rarely = attempt(1, None, [True, False, True, False]), attempt(2, None, [True, False, True, False])
    often["visits"], often["value"] = 5, 5 * often["reward"]
    rarely["visits"], rarely["value"] = 1, rarely["reward"]
    assert choose([often, rarely], "uct")["id"] == 2


def test_render_draws_children_under_their_parent():
    tree = [attempt(1, None, [True, False, False, False]), attempt(2, 1, [True, True, False, False]),
            attempt(3, 1, [False] * 4, status="rejected")]
    tree[2]["broke"] = ["test 1"]
    lines = render(tree)
    assert lines[0].startswith("attempt 1 (implement, round 0): tests 1/4, statement 1/1, score 0.62")
    assert lines[1].startswith("├─ attempt 2 (revise") and lines[2].startswith("└─ attempt 3 (revise")
    assert lines[2].endswith("rejected, broke test 1")
