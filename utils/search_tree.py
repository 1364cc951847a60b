"""The tree of attempts: every version of run_code, its score, and which one to revise next.

An attempt is a dict in the shared store's `attempts` list (the fields are in docs/design.md). Its
parent is the attempt Revise started from; ImplementFunction's attempts are roots. Revising an
attempt is expanding it; its children's rewards flow back up to it and its ancestors, as in a Monte
Carlo tree search (PromptingTools' airetry!, LATS). How the next attempt to revise is chosen:

  latest    the newest attempt, whatever it scored: the design doc's straight line
  best      the best score so far (trusted tests first, then all tests, then fewer linter findings),
            newest on ties: a
            revision that made things worse is dropped and its parent revised again
  uct       upper confidence bound: mean reward plus an exploration bonus for rarely revised attempts
  thompson  a draw from each attempt's Beta(successes, failures), the largest wins

Rejected attempts (they broke a test that passed before, see nodes.RunTests) and solved ones are
never revised.

Run alone to print the tree of a finished run:  python -m utils.search_tree runs/<run>/run.json
"""
import json
import math
import random
import sys

from utils.feedback import is_trusted

POLICIES = ("latest", "best", "uct", "thompson")
EXPLORATION = 1.0  # UCT's c; rewards lie in [0, 1]


def score(attempt, test_cases):
    """Fill in the attempt's counts and reward from its results on the current tests."""
    results = attempt["results"] = attempt["results"] or []
    trusted = [r["passed"] for case, r in zip(test_cases, results) if is_trusted(case)]
    attempt.update(passed=sum(r["passed"] for r in results), total=len(results),
                   trusted_passed=sum(trusted), trusted_total=len(trusted))
    share = attempt["passed"] / attempt["total"] if attempt["total"] else 0.0
    if trusted:  # the statement's examples weigh as much as all the model's own tests together
        share = (share + attempt["trusted_passed"] / attempt["trusted_total"]) / 2
    attempt["reward"] = round(share, 4)


def rank(attempt):
    """Higher is better: trusted tests passed, then all tests passed, then fewer linter findings (ruff),
    then the newer attempt."""
    return attempt["trusted_passed"], attempt["passed"], -len(attempt.get("lint") or ()), attempt["id"]


def best(attempts):
    usable = [a for a in attempts if a["results"] is not None and a["status"] != "rejected"]
    return max(usable or [a for a in attempts if a["results"] is not None], key=rank, default=None)


def backpropagate(attempts, attempt):
    """One visit with the attempt's reward, counted on it and on each of its ancestors."""
    by_id = {a["id"]: a for a in attempts}
    node = attempt
    while node is not None:
        node["visits"] += 1
        node["value"] = round(node["value"] + attempt["reward"], 4)
        node = by_id.get(node["parent"])


def choose(attempts, policy, rng=None):
    """The attempt to revise next, or None when none is left to revise."""
    open_ = [a for a in attempts if a["status"] == "kept"]
    if not open_:
        return None
    if policy == "latest":
        return max(open_, key=lambda a: a["id"])
    if policy == "best":
        return max(open_, key=rank)
    if policy == "uct":
        total = sum(a["visits"] for a in attempts if a["parent"] is None) or 1
        by_id = {a["id"]: a for a in attempts}

        def uct(a):
            parent_visits = by_id[a["parent"]]["visits"] if a["parent"] in by_id else total
            mean = a["value"] / a["visits"] if a["visits"] else 0.0
            return mean + EXPLORATION * math.sqrt(math.log(max(parent_visits, 1)) / max(a["visits"], 1)), a["id"]
        return max(open_, key=uct)
    if policy == "thompson":
        rng = rng or random.Random(len(attempts))
        return max(open_, key=lambda a: (rng.betavariate(1 + a["value"], 1 + a["visits"] - a["value"]), a["id"]))
    raise ValueError(f"unknown search policy {policy!r}; expected one of {', '.join(POLICIES)}")


def render(attempts):
    """The tree as text lines, children under their parent (like PromptingTools' print_samples)."""
    children = {}
    for a in attempts:
        children.setdefault(a["parent"], []).append(a)
    lines = []

    def walk(node, prefix, last, depth):
        branch = "" if depth == 0 else ("└─ " if last else "├─ ")
        lines.append(prefix + branch + describe(node))
        kids = children.get(node["id"], [])
        for i, kid in enumerate(kids):
            walk(kid, prefix + ("" if depth == 0 else ("   " if last else "│  ")), i == len(kids) - 1, depth + 1)

    for root in children.get(None, []):
        walk(root, "", True, 0)
    return lines


def describe(a):
    if a["status"] == "new":
        return f"attempt {a['id']} ({a['source']}): not run"
    mean = a["value"] / a["visits"] if a["visits"] else 0.0
    trusted = f", statement {a['trusted_passed']}/{a['trusted_total']}" if a["trusted_total"] else ""
    broke = f", broke {', '.join(a['broke'])}" if a.get("broke") else ""
    lint = f", lint {len(a['lint'])}" if a.get("lint") else ""
    return (f"attempt {a['id']} ({a['source']}, round {a['round']}): tests {a['passed']}/{a['total']}{trusted}, "
            f"score {a['reward']:.2f}, visits {a['visits']}, mean {mean:.2f}{lint}, {a['status']}{broke}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python -m utils.search_tree RUN_DIR/run.json")
    with open(sys.argv[1], encoding="utf-8") as f:
        record = json.load(f)
    tree = (record.get("final") or {}).get("attempts") or []
    print("\n".join(render(tree)) or "this run has no attempts")
