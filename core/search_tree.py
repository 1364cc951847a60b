"""The tree of attempts: every version of run_code, its score, and which one to revise next.

`Attempt` is one version; `AttemptTree` (the shared store's `attempts`) owns every change to them:
`add` (a new version, or None when the same code was tried before), `draw` (a draw's candidates, none for a
program the run has: core/repeats.py), `take` (a round's verdict,
core/round_verdict.py: each attempt's results on the current tests, which new ones are kept or rejected for
breaking an anchor, which one solved), `note` (feedback for its next revision), and the choice of
what to revise next. An attempt's parent is the attempt Revise
started from; ImplementFunction's attempts are roots. Revising an attempt is expanding it; its
children's rewards flow back up to it and its ancestors, as in a Monte Carlo tree search
(PromptingTools' airetry!, LATS). How the next attempt to revise is chosen:

  latest    the newest attempt, whatever it scored: the design doc's straight line
  best      the best score so far (trusted tests first, then all tests, then fewer linter findings),
            newest on ties: a revision that made things worse is dropped and its parent revised again
  uct       upper confidence bound: mean reward plus an exploration bonus for rarely revised attempts
  thompson  a draw from each attempt's Beta(successes, failures), the largest wins

Rejected attempts (they broke a test their parent passes) and solved ones are never revised. The
oracle (source "oracle": a brute-force program used only to settle expected values) is in the tree for
its record but is never revised, handed over or counted as solving.

Run alone to print the tree of a finished run:  python -m core.search_tree runs/<run>/run.json
"""
import json
import math
import random
import sys
from dataclasses import asdict, dataclass, field

from core.repeats import written_before
from core.vocabulary import AttemptStatus, Author

POLICIES = ("latest", "best", "uct", "thompson")
EXPLORATION = 1.0  # UCT's c; rewards lie in [0, 1]
NOTES_KEPT = 3     # feedback notes an attempt carries into its next revision


@dataclass(frozen=True)
class Score:
    """Counts of the tests that count (trusted or settled; a result's own `counted` flag says), and a reward
    in [0, 1] in which the trusted tests weigh as much as all of them together."""
    passed: int = 0
    total: int = 0
    trusted_passed: int = 0
    trusted_total: int = 0
    reward: float = 0.0
    unjudged: int = 0  # outputs no test could judge (several answers right, no checker): neither passed nor failed

    @classmethod
    def of(cls, results, test_cases):
        counted = [r for r in results if r.get("counted", True)]
        trusted = [r["passed"] for case, r in zip(test_cases, results) if case.trusted and not r.get("unjudged")]
        passed, total, trusted_passed = sum(r["passed"] for r in counted), len(counted), sum(trusted)
        share = passed / total if total else 0.0
        if trusted:
            share = (share + trusted_passed / len(trusted)) / 2
        return cls(passed, total, trusted_passed, len(trusted), round(share, 4), sum(bool(r.get("unjudged")) for r in results))

    def rank(self, lint_findings, attempt_id):
        """Higher is better: trusted tests passed, then all tests passed, then fewer linter findings (ruff),
        then the newer attempt."""
        return self.trusted_passed, self.passed, -lint_findings, attempt_id

    @property
    def passes_trusted(self):
        """Every trusted test (a statement example, the person's) passes; true when there is none."""
        return self.trusted_passed == self.trusted_total

    @property
    def fails_nothing(self):
        """Every counted test passes, and there was something to judge: a counted test, or an output only a
        checker could have judged (then no test contradicts the attempt, though none confirms it)."""
        return self.passed == self.total and (self.total > 0 or self.unjudged > 0)


@dataclass
class Attempt:
    id: int
    parent: int | None
    source: Author              # which step wrote it: implement, revise, user (--interactive) or oracle
    round: int                  # the iteration it was written in
    code: str
    outputs: dict = field(default_factory=dict)  # what it returned (sandbox results), by test input
    results: list | None = None  # one verdict per current test, with "counted"
    check: object = None        # "ok", or the failed import/execution check (utils/code_checks.py)
    lint: list | None = None    # ruff's findings (utils/lint.py); None when not linted
    status: AttemptStatus = AttemptStatus.NEW
    passed: int = 0
    total: int = 0
    trusted_passed: int = 0
    trusted_total: int = 0
    reward: float = 0.0
    unjudged: int = 0
    visits: int = 0
    value: float = 0.0
    broke: list = field(default_factory=list)  # "test N" for each anchor it broke
    notes: list = field(default_factory=list)
    repeat_of: int | None = None  # a candidate that returned what this earlier program returns (core/repeats.py)

    def score(self, results, test_cases):
        """Take verdicts on the current tests and the score they make (Score.of)."""
        self.results = list(results)
        scored = Score.of(self.results, test_cases)
        self.passed, self.total, self.reward = scored.passed, scored.total, scored.reward
        self.trusted_passed, self.trusted_total, self.unjudged = scored.trusted_passed, scored.trusted_total, scored.unjudged

    def unjudged_tests(self, test_cases):
        """Names of the tests whose output only a checker could have judged (Score.unjudged)."""
        return [case.name for case, result in zip(test_cases, self.results or []) if result.get("unjudged")]

    @property
    def scored(self):
        return Score(self.passed, self.total, self.trusted_passed, self.trusted_total, self.reward, self.unjudged)

    def rank(self):
        return self.scored.rank(len(self.lint or ()), self.id)

    @property
    def solves(self):
        return self.status in (AttemptStatus.KEPT, AttemptStatus.SOLVED) and self.passed == self.total > 0

    @property
    def is_candidate(self):
        """A version that may be handed over: everything but the oracle."""
        return self.source not in (Author.ORACLE, Author.CHECKER, Author.VALIDATOR)

    def record(self):
        """The attempt as run.json's final tree keeps it: each test's outcome in brief (what it returned, or
        how it failed), so that the run's page can show every version's output on every test; the sandbox's
        full results (tracebacks, printed output, timings) stay in the test_run events."""
        kept = {k: v for k, v in asdict(self).items() if k not in ("results", "outputs")}
        return {**kept, "results": [brief(result) for result in self.results or []]}

    def summary(self):
        """The attempt in a test_run event."""
        return {k: getattr(self, k) for k in ("id", "parent", "passed", "total", "trusted_passed", "trusted_total",
                                              "reward", "status", "broke")}


BRIEF = ("name", "passed", "counted", "actual", "error_type", "timed_out", "unjudged")


def brief(result):
    """One test's result as the final tree keeps it: the outcome, and an error's first 200 characters."""
    kept = {key: result[key] for key in BRIEF if key in result}
    return {**kept, "message": str(result.get("message") or "")[:200]} if result.get("error_type") else kept


class AttemptTree:
    def __init__(self):
        self.attempts = []
        self.last_draw = []  # the latest draw's candidates: (attempt id, whether it was written before by text)

    def __iter__(self):
        return iter(self.attempts)

    def __len__(self):
        return len(self.attempts)

    def __getitem__(self, index):
        return self.attempts[index]

    def get(self, attempt_id):
        return next((a for a in self.attempts if a.id == attempt_id), None)

    def add(self, code, parent, source, round_):
        """A new attempt, or None (and a note on the parent) when the same code was tried before."""
        same = self.with_code(code)
        if same is not None:
            if parent is not None:
                self.note(parent, f"a revision repeated the code of attempt {same.id} unchanged")
            return None
        attempt = Attempt(id=len(self.attempts) + 1, parent=parent, source=source, round=round_, code=code)
        self.attempts.append(attempt)
        return attempt

    def draw(self, codes, round_):
        """A draw's candidates: [(the new attempt, None), or (None, the earlier attempt) where the code is a program the
        run already has by text (core/repeats.py): no attempt, no vote]. Remembered for the next draw (last_draw)."""
        drawn = []
        for code in codes:
            earlier = written_before(code, self.attempts)
            drawn.append((None, earlier) if earlier else (self.add(code, None, Author.IMPLEMENT, round_), None))
        self.last_draw = [(earlier.id, True) if earlier else (attempt.id, False) for attempt, earlier in drawn]
        return drawn

    def last_draw_missed(self):
        """The latest draw brought no new program (each candidate one the run had, by text or, once run, by
        behaviour), or none of its candidates passes the trusted tests: the next draw asks for another approach."""
        if not self.last_draw:
            return False
        mine = [(self.get(attempt_id), before) for attempt_id, before in self.last_draw]
        repeats = all(before or attempt.repeat_of is not None for attempt, before in mine)
        return repeats or not any(attempt.check == "ok" and attempt.results is not None and attempt.scored.passes_trusted
                                  for attempt, _ in mine)

    def with_code(self, code):
        """The attempt whose code this is (add() keeps one attempt per distinct code)."""
        return next((a for a in self.attempts if a.code == code), None)

    def checked(self, attempt_id, failure, findings):
        """CheckCode's findings: "ok" or the failed check (core/round_verdict.py fails every test on it), ruff's findings."""
        attempt = self.get(attempt_id)
        attempt.check, attempt.lint = failure or "ok", findings

    def ran(self, attempt_id, outputs):
        """What the attempt returned on more inputs: (input key, sandbox result) pairs."""
        self.get(attempt_id).outputs.update(outputs)

    def note(self, attempt_id, text):
        """Feedback for the next revision of this attempt; the last few are kept."""
        attempt = self.get(attempt_id)
        if attempt is not None:
            attempt.notes = (attempt.notes + [text])[-NOTES_KEPT:]

    def branch_notes(self, attempt_id, last=4):
        """The notes of the attempt and its ancestors, oldest first: feedback flows along a branch only."""
        notes, node = [], self.get(attempt_id)
        while node is not None:
            notes = node.notes + notes
            node = self.get(node.parent)
        return notes[-last:]

    def take(self, verdict):
        """A round's verdict (core/round_verdict.py): every judged attempt's results on the settled tests, what
        becomes of each new one, and the one that solved."""
        for attempt_id, results in verdict.judged.items():
            self.get(attempt_id).score(results, verdict.tests)
        for attempt_id, settlement in verdict.settled.items():
            self.settle(self.get(attempt_id), settlement)
        for attempt_id, earlier in verdict.repeated.items():
            self.get(attempt_id).repeat_of = earlier
        if verdict.solved is not None:
            self.get(verdict.solved).status = AttemptStatus.SOLVED

    def hand_over(self, attempt_id):
        """Another version passing the same tests becomes the one a solved run hands over (the speed check)."""
        self.withdraw_claim()
        self.get(attempt_id).status = AttemptStatus.SOLVED

    def withdraw_claim(self):
        """No attempt is the solved one any more: a claim's last check sends the run back for more candidates."""
        for attempt in self.attempts:
            if attempt.status == AttemptStatus.SOLVED:
                attempt.status = AttemptStatus.KEPT

    def settle(self, attempt, settlement):
        """A new attempt kept, rejected (its parent hears which anchor it broke) or an oracle; its reward then
        counts on the attempt and each of its ancestors (an oracle's counts nowhere)."""
        attempt.status, attempt.broke = settlement.status, list(settlement.broke)
        if settlement.status == AttemptStatus.REJECTED:
            self.note(attempt.parent, f"a revision was rejected: it broke {', '.join(attempt.broke)}, which passed before")
        if settlement.reward is None:
            return
        node = attempt
        while node is not None:
            node.visits += 1
            node.value = round(node.value + settlement.reward, 4)
            node = self.get(node.parent)

    def best(self):
        """The attempt to hand over: the best ranked that was not rejected (any judged one if all were)."""
        judged = [a for a in self.attempts if a.results is not None and a.is_candidate]
        return max([a for a in judged if a.status != AttemptStatus.REJECTED] or judged, key=Attempt.rank, default=None)

    def choose(self, policy, rng=None):
        """The attempt to revise next, or None when none is left to revise."""
        open_ = [a for a in self.attempts if a.status == AttemptStatus.KEPT]
        if not open_:
            return None
        if policy == "latest":
            return max(open_, key=lambda a: a.id)
        if policy == "best":
            return max(open_, key=Attempt.rank)
        if policy == "uct":
            total = sum(a.visits for a in self.attempts if a.parent is None) or 1

            def uct(a):
                parent = self.get(a.parent)
                parent_visits = parent.visits if parent else total
                mean = a.value / a.visits if a.visits else 0.0
                return mean + EXPLORATION * math.sqrt(math.log(max(parent_visits, 1)) / max(a.visits, 1)), a.id
            return max(open_, key=uct)
        if policy == "thompson":
            rng = rng or random.Random(len(self.attempts))
            return max(open_, key=lambda a: (rng.betavariate(1 + a.value, 1 + a.visits - a.value), a.id))
        raise ValueError(f"unknown search policy {policy!r}; expected one of {', '.join(POLICIES)}")

    def records(self):
        return [a.record() for a in self.attempts]


def render(records):
    """The tree as text lines, children under their parent (like PromptingTools' print_samples).
    Takes attempt records (dicts), as run.json's final tree holds them."""
    children = {}
    for a in records:
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
    if a["status"] == AttemptStatus.NEW:
        return f"attempt {a['id']} ({a['source']}): not run"
    mean = a["value"] / a["visits"] if a["visits"] else 0.0
    trusted = f", statement {a['trusted_passed']}/{a['trusted_total']}" if a["trusted_total"] else ""
    broke = f", broke {', '.join(a['broke'])}" if a.get("broke") else ""
    lint = f", lint {len(a['lint'])}" if a.get("lint") else ""
    return (f"attempt {a['id']} ({a['source']}, round {a['round']}): tests {a['passed']}/{a['total']}{trusted}, "
            f"score {a['reward']:.2f}, visits {a['visits']}, mean {mean:.2f}{lint}, {a['status']}{broke}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python -m core.search_tree RUN_DIR/run.json")
    with open(sys.argv[1], encoding="utf-8") as f:
        record = json.load(f)
    tree = (record.get("final") or {}).get("attempts") or []
    print("\n".join(render(tree)) or "this run has no attempts")
