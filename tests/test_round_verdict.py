"""core/round_verdict.py as a table: one row per rule of the verdict, readable as its specification.

Each row is a round: the tests (a statement example `ex`, the person's test `mine`, the model's test `t`
with its guess, a variant `v`), the programs with what each returned on each test in order (a value,
RAISES, TIMEOUT), and what the verdict must say. Nothing runs: the verdict only reads what programs
returned, so the rows give it directly.
"""
import pytest

from core.cases import input_key
from core.checkers import calls_to_check, output_name
from core.output_kind import OutputKind
from core.search_tree import AttemptTree
from core.round_verdict import RoundFacts, Rules, judge_round
from tests.scripted_answers import case

RAISES = {"ok": False, "value": None, "repr": "", "error_type": "ValueError", "message": "no", "traceback": "",
          "timed_out": False, "ms": 1.0, "output": ""}
TIMEOUT = {**RAISES, "error_type": "Timeout", "timed_out": True}


def ex(x, expected):
    return case(f"example_{x}", {"x": x}, expected, "statement")


def mine(x, expected):
    return case(f"mine_{x}", {"x": x}, expected, "user")


def t(x, guess):
    return case(f"t_{x}", {"x": x}, guess, guess=guess)


def v(x):
    return case(f"variant_{x}", {"x": x}, None, "variant")


def returned(value):
    if isinstance(value, dict) and "error_type" in value:
        return value
    return {**RAISES, "ok": True, "value": value, "repr": repr(value), "error_type": None, "message": ""}


class Round:
    """A round to judge: programs are added in order (ids 1, 2, ...), each with what it returned per test."""

    def __init__(self, *tests):
        self.tests, self.tree, self.judges = list(tests), AttemptTree(), {}

    def program(self, source, *outputs, parent=None, status="new", check="ok", code=None):
        attempt = self.tree.add(code or f"def run_code(x):\n    return {len(self.tree) + 1}\n", parent, source, 0)
        self.tree.checked(attempt.id, None if check == "ok" else check, [])
        self.tree.ran(attempt.id, [(test.key, returned(out)) for test, out in zip(self.tests, outputs) if out is not None])
        attempt.status = status
        return self

    def candidate(self, *outputs, **more):
        return self.program("implement", *outputs, **more)

    def oracle(self, *outputs, **more):
        return self.program("oracle", *outputs, **more)

    def revision(self, parent, *outputs):
        return self.program("revise", *outputs, parent=parent)

    def checker(self, is_valid):
        """A checker (several right answers): `is_valid(inputs, output)` says what it returns on each call."""
        self.program("checker")
        self.judges[self.tree[-1].id] = is_valid
        return self

    def validator(self, *verdicts):
        """An input validator: what is_valid_input returned on each test's input."""
        return self.program("validator", *verdicts)

    def judged(self, *previous):
        """Mark the programs so far as judged in an earlier round, on these tests, with these results."""
        for attempt in self.tree:
            attempt.status = "kept" if attempt.source != "oracle" else "oracle"
            attempt.score([{"passed": passed, "counted": True} for passed in previous], self.tests)
        return self

    def verdict(self, **facts):
        for attempt_id, is_valid in self.judges.items():  # the checker's calls, as RunChecker makes them
            name, checker = output_name(self.tests), self.tree.get(attempt_id)
            calls = calls_to_check(self.tests, list(self.tree), checker, name)
            self.tree.ran(attempt_id, [(input_key(call), returned(is_valid({k: v for k, v in call.items() if k != name},
                                                                           call[name]))) for call in calls])
        rules = Rules(**{k: facts.pop(k) for k in list(facts) if k in Rules.__dataclass_fields__})
        kind = facts.pop("kind", OutputKind.ANY_VALID if self.judges else OutputKind.EXACT)
        return judge_round(RoundFacts(self.tests, list(self.tree), kind=kind, rules=rules, **facts))


def sources(verdict):
    return [(test.name, test.source, test.expected, test.counted) for test in verdict.tests]


TWIN = "def run_code(x):\n    total = 0\n    for i in range(x):\n        total += i\n    return total\n"
TWIN_RENAMED = 'def run_code(x):\n    """Sum below x."""\n    s = 0\n    for k in range(x):  # each\n        s += k\n    return s\n'


# Where each expected value comes from (core/expected_values.py), strongest first.
EVIDENCE = [
    pytest.param(Round(ex(1, 2)).candidate(3).candidate(3).oracle(3), {},
                 [("example_1", "statement", 2, True)], id="statement: the example's value stands whatever programs say"),
    pytest.param(Round(mine(1, 2)).candidate(3), {},
                 [("mine_1", "user", 2, True)], id="user: the person's test stands likewise"),
    pytest.param(Round(ex(1, 2), t(5, 99)).candidate(2, 11).oracle(2, 11), {},
                 [("example_1", "statement", 2, True), ("t_5", "oracle", 11, True)],
                 id="oracle: the valid oracle and one candidate agree, over the guess"),
    pytest.param(Round(ex(1, 2), t(5, 99)).candidate(2, 11).candidate(2, 11).candidate(2, 10).candidate(2, 12).oracle(2, 11),
                 {}, [("example_1", "statement", 2, True), ("t_5", "oracle", 11, True)],
                 id="oracle: it tips candidates that lead without a majority (2 of 4, with the oracle 3 of 5)"),
    pytest.param(Round(ex(1, 2), v(6)).candidate(2, 10).candidate(2, 11).oracle(2, 11), {},
                 [("example_1", "statement", 2, True), ("variant_6", "disputed", None, False)],
                 id="the oracle breaks no tie between candidates (HumanEval/74 and /140's 2-1)"),
    pytest.param(Round(ex(1, 2), v(6)).candidate(2, 10).candidate(2, 11).candidate(2, 12).oracle(2, 11), {},
                 [("example_1", "statement", 2, True), ("variant_6", "disputed", None, False)],
                 id="the oracle's side at 2 of 4 voters settles nothing (HumanEval/140's 2-1-1)"),
    pytest.param(Round(ex(1, 2), t(5, 99)).candidate(2, 10).candidate(2, 11).candidate(2, 12).oracle(2, 11), {},
                 [("example_1", "statement", 2, True), ("t_5", "disputed", 99, False)],
                 id="the oracle's side at 2 of 4 on a written test: a guess for another value leaves it disputed"),
    pytest.param(Round(ex(1, 2), t(5, 11)).candidate(2, 10).candidate(2, 11).candidate(2, 12).oracle(2, 11), {},
                 [("example_1", "statement", 2, True), ("t_5", "disputed", 11, False)],
                 id="the oracle's side at 2 of 4 on a written test: a guess for it settles nothing either"),
    pytest.param(Round(ex(1, 2), v(6)).candidate(2, 10).candidate(2, 11).candidate(2, 11).candidate(2, 12).oracle(2, 11),
                 {}, [("example_1", "statement", 2, True), ("variant_6", "oracle", 11, True)],
                 id="the oracle's side at 3 of 5 voters settles a variant"),
    pytest.param(Round(ex(1, 2), v(6)).candidate(2, 7).candidate(2, 8).candidate(2, 8).oracle(2, 7), {},
                 [("example_1", "statement", 2, True), ("variant_6", "disputed", None, False)],
                 id="the oracle's side tied by other candidates settles nothing (HumanEval/74's tie, 2 to 2)"),
    pytest.param(Round(ex(1, 2), t(5, 8)).candidate(2, 7).candidate(2, 8).candidate(2, 8).oracle(2, 7), {},
                 [("example_1", "statement", 2, True), ("t_5", "disputed", 8, False)],
                 id="a tie with the oracle's side on a written test: disputed, as on a variant, the guess notwithstanding"),
    pytest.param(Round(ex(1, 2), t(5, 99)).candidate(2, 10).candidate(2, 11).oracle(7, 10), {},
                 [("example_1", "statement", 2, True), ("t_5", "disputed", 99, False)],
                 id="an oracle that fails an example votes for nothing"),
    pytest.param(Round(ex(1, 2), t(5, 99)).candidate(2, 10).candidate(2, 10).candidate(2, 12), {},
                 [("example_1", "statement", 2, True), ("t_5", "majority", 10, True)],
                 id="majority: more than half of the candidates that pass the examples, two at least"),
    pytest.param(Round(ex(1, 2), t(5, 7)).candidate(2, 7).candidate(0, 10).candidate(0, 10), {},
                 [("example_1", "statement", 2, True), ("t_5", "guess", 7, True)],
                 id="guess: only candidates passing the examples vote; one voter and the guess agree"),
    pytest.param(Round(ex(1, 2), t(5, 11)).candidate(2, 10).candidate(2, 11), {},
                 [("example_1", "statement", 2, True), ("t_5", "disputed", 11, False)],
                 id="disputed: two programs tie, the model's guess on one side breaks no tie"),
    pytest.param(Round(ex(1, 2), t(5, 13)).candidate(2, 10).candidate(2, 11).candidate(2, 12), {},
                 [("example_1", "statement", 2, True), ("t_5", "disputed", 13, False)],
                 id="disputed: no majority and the guess matches none"),
    pytest.param(Round(ex(1, 2), t(5, 1)).candidate(2, RAISES).candidate(2, RAISES).oracle(2, RAISES), {},
                 [("example_1", "statement", 2, True)], id="rejected: every program raises there, so it is dropped"),
    pytest.param(Round(ex(1, 2), t(5, 1)).candidate(2, RAISES).candidate(2, TIMEOUT), {},
                 [("example_1", "statement", 2, True), ("t_5", "disputed", 1, False)],
                 id="a timeout is no verdict on the input"),
    pytest.param(Round(ex(1, 2), v(6)).candidate(2, 11).oracle(2, 11), {},
                 [("example_1", "statement", 2, True), ("variant_6", "oracle", 11, True)],
                 id="a variant is settled by the oracle and a candidate"),
    pytest.param(Round(ex(1, 2), v(6)).candidate(2, 7).candidate(2, 7).oracle(2, 8), {},
                 [("example_1", "statement", 2, True), ("variant_6", "disputed", None, False)],
                 id="a variant: agreeing candidates never outvote the valid oracle"),
    pytest.param(Round(ex(1, 2), v(6)).candidate(2, 7), {},
                 [("example_1", "statement", 2, True), ("variant_6", "unchecked", None, False)],
                 id="unchecked: a variant one program answered is left out"),
    pytest.param(Round(ex(1, 2), v(6)).candidate(2, 7).candidate(2, 7).candidate(2, RAISES), {},
                 [("example_1", "statement", 2, True)],
                 id="a variant a voting program raises on is dropped (it may break a worded precondition)"),
    pytest.param(Round(ex(1, 2), t(5, 99)).candidate(2, 10, code=TWIN).candidate(2, 10, code=TWIN_RENAMED), {},
                 [("example_1", "statement", 2, True), ("t_5", "disputed", 99, False)],
                 id="one program written twice with other names is one voter: no majority (HumanEval/74)"),
    pytest.param(Round(ex(1, 2), v(6)).candidate(2, 11, code=TWIN).oracle(2, 11, code=TWIN_RENAMED), {},
                 [("example_1", "statement", 2, True), ("variant_6", "unchecked", None, False)],
                 id="an oracle that is a candidate with other names is one voter with it (HumanEval/140)"),
    pytest.param(Round(ex(1, 2), t(5, 99)).candidate(2, 10), {"agreement": False},
                 [("example_1", "statement", 2, True), ("t_5", "model", 99, True)],
                 id="model: with agreement off the model's value is the truth"),
]


@pytest.mark.parametrize("round_, facts, expected", EVIDENCE)
def test_where_each_expected_value_comes_from(round_, facts, expected):
    assert sources(round_.verdict(**facts)) == expected


SAME_AS_1 = "def run_code(x):\n    return 1  # the same\n"  # Round.program's code for id 1, a comment added: one voter


def outcome(verdict):
    return {"action": verdict.action, "current": verdict.current, "solved": verdict.solved}


# What the round decides next (core/round_verdict.py, rules 3 to 6).
ROUNDS = [
    pytest.param(Round(ex(1, 2), t(5, 9)).candidate(2, 10).candidate(2, 10), {},
                 {"action": "success", "current": 2, "solved": 2},
                 id="success: passes every counted test, nothing disputed, an example backs it; the newer of equals"),
    pytest.param(Round(ex(1, 2), t(5, 9)).candidate(2, 10).candidate(2, 10), {"raised_fresh": {2: 3}},
                 {"action": "success", "current": 1, "solved": 1},
                 id="success: of equals, the one that raised on fewer fresh inputs where another returned"),
    pytest.param(Round(t(5, 9)).candidate(10).candidate(10), {},
                 {"action": "unconfirmed", "current": 2, "solved": None},
                 id="unconfirmed: no statement example or test of the person's backs the agreement"),
    pytest.param(Round(t(5, 9)).candidate(10), {"agreement": False},
                 {"action": "failure", "current": None, "solved": None},
                 id="agreement off: the model's guess is the truth, and the code fails it"),
    pytest.param(Round(ex(1, 2), t(5, 13)).candidate(2, 10).candidate(2, 11).candidate(2, 12), {},
                 {"action": "redraw", "current": 3, "solved": None},
                 id="redraw for disputes: a success with inputs disputed draws more candidates first"),
    pytest.param(Round(ex(1, 2), t(5, 13)).candidate(2, 10).candidate(2, 11).candidate(2, 12), {"disputes_drawn": 1},
                 {"action": "unconfirmed", "current": 3, "solved": None},
                 id="unconfirmed: inputs still disputed after the draws"),
    pytest.param(Round(ex(1, 2), t(5, 13)).candidate(2, 10).candidate(2, 11).candidate(2, 12), {"affords_a_draw": False},
                 {"action": "unconfirmed", "current": 3, "solved": None},
                 id="unconfirmed at once: no budget left for a draw"),
    pytest.param(Round(ex(1, 2), t(5, 13)).candidate(2, 10).candidate(2, 11).candidate(2, 12), {"iteration": 4},
                 {"action": "unconfirmed", "current": 3, "solved": None},
                 id="unconfirmed at once: no round left for a draw"),
    pytest.param(Round(ex(1, 2), t(5, 13)).candidate(2, 13).candidate(2, 13).candidate(0, 10), {},
                 {"action": "success", "current": 2, "solved": 2},
                 id="success: a majority settled an input beyond the examples; the newest of the passing"),
    pytest.param(Round(ex(1, 2), t(5, 13)).candidate(2, 13).candidate(2, 13).candidate(2, 10), {},
                 {"action": "unconfirmed", "current": 2, "solved": None},
                 id="unconfirmed at once: a majority settled an input over a dissenting candidate, which a draw keeps"),
    pytest.param(Round(ex(1, 2), t(5, 13)).candidate(2, 13).candidate(2, 13).candidate(2, 10).oracle(2, 13), {},
                 {"action": "unconfirmed", "current": 2, "solved": None},
                 id="unconfirmed: the oracle's side settled an input over a dissenting candidate (HumanEval/140, 3 of 4)"),
    pytest.param(Round(ex(1, 2), v(5)).candidate(2, 13).candidate(2, 13).candidate(2, 10), {},
                 {"action": "unconfirmed", "current": 2, "solved": None},
                 id="unconfirmed: a majority settled a variant over a dissenting candidate"),
    pytest.param(Round(ex(1, 2), t(5, 11)).candidate(2, 10).candidate(2, 11), {},
                 {"action": "redraw", "current": 2, "solved": None},
                 id="redraw: the programs tie on the only input beyond the examples, the guess on one side"),
    pytest.param(Round(ex(1, 2), t(5, 11)).candidate(2, 11).candidate(0, 10), {},
                 {"action": "success", "current": 1, "solved": 1},
                 id="success: the only program to answer returns the model's guess beyond the examples"),
    pytest.param(Round(ex(1, 2), t(5, 11)).candidate(2, 10).candidate(2, 11), {"disputes_drawn": 1},
                 {"action": "unconfirmed", "current": 2, "solved": None},
                 id="unconfirmed: after the draw still nothing beyond the statement's examples"),
    pytest.param(Round(ex(1, 2), t(5, 11)).candidate(2, 10).candidate(0, 10), {},
                 {"action": "success", "current": 1, "solved": 1},
                 id="success: a candidate failing the example returns the lone passing one's value there and everywhere else (a witness)"),
    pytest.param(Round(ex(1, 2), t(5, 11)).candidate(2, 10).oracle(0, 10), {"rest_of_draw": True},
                 {"action": "redraw", "current": 1, "solved": None},
                 id="redraw, the rest of a short first draw: only a witness backs it (the oracle failing the example)"),
    pytest.param(Round(mine(1, 2), ex(3, 4)).candidate(2, 4), {},
                 {"action": "success", "current": 1, "solved": 1},
                 id="success: the person's own test is evidence beyond the statement"),
    pytest.param(Round(ex(1, 2), t(5, 9)).candidate(0, 9).candidate(0, 9), {},
                 {"action": "redraw", "current": None, "solved": None},
                 id="redraw: no candidate passes the statement's examples, draws left"),
    pytest.param(Round(ex(1, 2), t(5, 9)).candidate(0, 9).judged(False, True).candidate(0, 8), {"max_draws": 1},
                 {"action": "failure", "current": None, "solved": None},
                 id="failure: no draw left, so the search policy picks what to revise"),
    pytest.param(Round(ex(1, 2), t(5, 9)).candidate(0, 9), {"iteration": 4},
                 {"action": "exhausted", "current": None, "solved": None},
                 id="exhausted: the last round passed without a claim"),
    pytest.param(Round().candidate().candidate(), {},
                 {"action": "untested", "current": 2, "solved": None},
                 id="untested: no tests left, the latest candidate that loads"),
    pytest.param(Round(ex(1, 2), t(5, 9)).candidate(0, 8).judged(False, False).program("user", 0, 7, parent=1),
                 {"max_draws": 1}, {"action": "failure", "current": 2, "solved": None},
                 id="the person's edit is what gets revised next"),
    pytest.param(Round(ex(1, 2), t(5, 11)).candidate(2, 10).oracle(2, 10), {"rest_of_draw": True},
                 {"action": "success", "current": 1, "solved": 1},
                 id="success from a short first draw: its first candidate and the oracle settle an input beyond the examples"),
    pytest.param(Round(ex(1, 2), t(5, 11)).candidate(2, 10).oracle(2, 10, code=SAME_AS_1), {"rest_of_draw": True},
                 {"action": "redraw", "current": 1, "solved": None},
                 id="redraw, the rest of a short first draw: its first candidate lacks a second voter"),
    pytest.param(Round(ex(1, 2), t(5, 11)).candidate(2, 11), {"rest_of_draw": True},
                 {"action": "redraw", "current": 1, "solved": None},
                 id="redraw, the rest of a short first draw: only the model's guess, one program returning it, backs it"),
    pytest.param(Round(ex(1, 2), t(5, 11)).candidate(2, 11), {"rest_of_draw": True, "affords_a_draw": False},
                 {"action": "success", "current": 1, "solved": 1},
                 id="success: a guess one program returned backs it where the budget has no room for the draw's rest"),
    pytest.param(Round(ex(1, 2), t(5, 11)).candidate(2, 11).candidate(2, 11), {},
                 {"action": "success", "current": 2, "solved": 2},
                 id="success: after the rest of the first draw, every program that answered returns the guess"),
    pytest.param(Round(ex(1, 2), t(5, 9)).candidate(0, 9), {"rest_of_draw": True, "max_draws": 1, "max_iterations": 1},
                 {"action": "redraw", "current": None, "solved": None},
                 id="redraw, the rest of a short first draw: its first candidate fails the example, even in a one-round run"),
    pytest.param(Round(ex(1, 2), t(5, 11)).candidate(2, 10).candidate(2, 11), {"rest_of_draw": True, "affords_a_draw": False},
                 {"action": "unconfirmed", "current": 2, "solved": None},
                 id="unconfirmed at once: no budget left for the rest of a short first draw"),
    pytest.param(Round(ex(1, 2), t(5, 11)).candidate(2, 10).oracle(2, 10), {"rest_of_draw": True, "tests_owed": True},
                 {"action": "success", "current": 1, "solved": 1},
                 id="success before the model's tests: the first candidate and the oracle settle an input beyond the examples"),
    pytest.param(Round(ex(1, 2), t(5, 11)).candidate(2, 10), {"rest_of_draw": True, "tests_owed": True},
                 {"action": "more_tests", "current": 1, "solved": None},
                 id="more_tests: the first candidate lacks a second voter and the model's tests wait"),
    pytest.param(Round(ex(1, 2), t(5, 9)).candidate(0, 9).candidate(0, 9), {"tests_owed": True},
                 {"action": "redraw", "current": None, "solved": None},
                 id="redraw, not more_tests: no candidate passes the statement's examples, so the model's tests wait on"),
    pytest.param(Round(ex(1, 2), t(5, 9)).candidate(0, 9), {"rest_of_draw": True, "tests_owed": True},
                 {"action": "redraw", "current": None, "solved": None},
                 id="redraw, not more_tests: the rest of a short first draw whose first candidate fails the example"),
    pytest.param(Round(ex(1, 2), t(5, 11)).candidate(0, 9).candidate(2, 10).oracle(2, 10), {"tests_owed": True},
                 {"action": "more_tests", "current": 2, "solved": None},
                 id="more_tests, not success: a claim after the first judgement waits for the model's tests"),
    pytest.param(Round(ex(1, 2), t(5, 11)).candidate(2, 10).candidate(2, 11), {"tests_owed": True, "affords_a_draw": False},
                 {"action": "unconfirmed", "current": 2, "solved": None},
                 id="unconfirmed, not more_tests: no budget left to ask the model's tests"),
    pytest.param(Round(ex(1, 2), t(5, 9)).candidate(0, 9).judged(False, True).candidate(0, 8),
                 {"max_draws": 1, "tests_owed": True}, {"action": "failure", "current": None, "solved": None},
                 id="failure, not more_tests: only a draw waits for the model's tests"),
]


@pytest.mark.parametrize("round_, facts, expected", ROUNDS)
def test_what_the_round_decides_next(round_, facts, expected):
    assert outcome(round_.verdict(**facts)) == expected


def test_a_split_vote_is_said_as_what_the_claim_lacks_and_a_unanimous_one_is_not():
    split = Round(ex(1, 2), t(5, 13)).candidate(2, 13).candidate(2, 13).candidate(2, 10).verdict()
    assert split.lacks == ["inputs settled over a dissenting program"] and not split.draw_before_claim
    assert sources(split)[1] == ("t_5", "majority", 13, True), "the split vote still judges the code"
    unanimous = Round(ex(1, 2), t(5, 13)).candidate(2, 13).candidate(2, 13).oracle(2, 13).verdict()
    assert unanimous.lacks == [] and unanimous.action == "success"


def test_the_rest_of_a_short_first_draw_is_judged_in_the_same_round_and_spends_no_dispute_draw():
    verdict = Round(ex(1, 2), t(5, 11)).candidate(2, 10).verdict(rest_of_draw=True)
    assert verdict.action == "redraw" and verdict.rest_of_draw and verdict.iteration == 0
    assert not verdict.draw_before_claim, "the dispute draw stays for after the whole draw"


def test_a_round_that_asks_for_the_models_tests_is_not_counted_and_spends_no_dispute_draw():
    # first_draw 3: a whole draw whose claim lacks a second voter would draw once more before the claim
    verdict = Round(ex(1, 2), t(5, 11)).candidate(2, 10).candidate(2, 10, code=SAME_AS_1).verdict(tests_owed=True)
    assert verdict.action == "more_tests" and verdict.iteration == 0 and not verdict.draw_before_claim
    assert Round(ex(1, 2), t(5, 11)).candidate(2, 10).candidate(2, 10, code=SAME_AS_1).verdict().draw_before_claim


def test_a_revision_that_breaks_a_test_its_parent_passed_is_rejected():
    round_ = Round(ex(1, 2), t(5, 9)).candidate(2, 8).judged(True, False).revision(1, 0, 9)
    verdict = round_.verdict(max_draws=1)
    assert verdict.settled[2].status == "rejected" and verdict.settled[2].broke == ("test 1",)
    assert round_.verdict(max_draws=1, anchors=False).settled[2].status == "kept", "without anchors it stays"


def test_a_new_oracle_votes_and_is_never_revised_or_handed_over():
    verdict = Round(ex(1, 2), t(5, 9)).candidate(2, 9).oracle(2, 9).verdict()
    assert verdict.settled[2].status == "oracle" and verdict.settled[2].reward is None
    assert verdict.current == 1 and verdict.solved == 1


def test_solution_guess_the_claimed_code_confirms_guesses_no_program_answered_but_is_no_evidence_alone():
    # no candidate passes the example, so none votes; the revision passes it and returns the guess
    round_ = Round(ex(1, 2), t(5, 9)).candidate(0, 8).judged(False, False).revision(1, 2, 9)
    verdict = round_.verdict(disputes_drawn=1)
    assert sources(verdict)[1] == ("t_5", "solution_guess", 9, True) and verdict.accepted == ["t_5"]
    assert outcome(verdict) == {"action": "unconfirmed", "current": 2, "solved": None}
    assert verdict.lacks == ["nothing beyond the statement's examples"]
    differs = Round(ex(1, 2), t(5, 9)).candidate(0, 8).judged(False, False).revision(1, 2, 7).verdict(disputes_drawn=1)
    assert sources(differs)[1] == ("t_5", "disputed", 9, False) and differs.action == "unconfirmed"


def test_an_input_only_the_claim_answered_is_left_out_where_programs_back_it_on_others():
    # HumanEval/67: two candidates agree beyond the examples; on a model test outside the promised format
    # only the claim answers (the other raises), and not with the model's guess
    lone = Round(ex(1, 2), t(3, 7), t(5, 11)).candidate(2, 7, 10).candidate(2, 7, RAISES)
    assert lone.verdict().action == "redraw", "a draw may still bring a second program there"
    verdict = lone.verdict(disputes_drawn=1)
    assert outcome(verdict) == {"action": "success", "current": 1, "solved": 1}
    assert sources(verdict)[2] == ("t_5", "unchecked", 11, False) and verdict.lone == ["t_5"]
    assert verdict.disputed == [] and verdict.lacks == []


@pytest.mark.parametrize("round_, why", [
    (Round(ex(1, 2), t(3, 7), t(5, 11)).candidate(2, 7, 10).candidate(2, RAISES, RAISES),
     "only the model's guess, one program returning it, backs it elsewhere (LeetCode 768)"),
    (Round(ex(1, 2), t(3, 7), t(5, 11)).candidate(2, 7, 10).candidate(2, 7, 12),
     "two programs answered the disputed input, and differ"),
    (Round(ex(1, 2), t(4, 8), t(5, 11)).candidate(2, 8, 10).candidate(2, 8, RAISES).candidate(2, 9, RAISES),
     "the programs that back it split elsewhere"),
    (Round(ex(1, 2), t(3, 7), t(5, 11)).candidate(2, 7, 10).candidate(2, 7, RAISES).judged(True, True, False)
     .revision(1, 2, 7, 12), "a revision votes nowhere: the one program that answered there is another"),
])
def test_an_input_only_the_claim_answered_still_stops_a_claim_without_unanimous_programs_elsewhere(round_, why):
    verdict = round_.verdict(disputes_drawn=1)
    assert verdict.action == "unconfirmed" and verdict.lone == [], why


def test_raising_on_a_disputed_written_input_counts_against_the_code_but_not_on_a_variant():
    written = Round(ex(1, 2), t(5, 13)).candidate(2, 10).candidate(2, 11).candidate(2, RAISES).verdict(disputes_drawn=1)
    assert [r["counted"] for r in written.judged[3]] == [True, True], "whatever value is right, raising is wrong"
    assert [r["counted"] for r in written.judged[1]] == [True, False], "for the others it stays left out"
    variant = Round(ex(1, 2), v(6)).candidate(2, 7).candidate(RAISES, RAISES).verdict()
    assert [r["counted"] for r in variant.judged[2]] == [True, False], "a variant may break a precondition"


def test_code_whose_check_failed_fails_every_test():
    check = {"check": "import", "error_type": "ModuleNotFoundError", "message": "numpy", "traceback": ""}
    verdict = Round(ex(1, 2)).candidate(None, check=check).candidate(2).verdict()
    assert [r["passed"] for r in verdict.judged[1]] == [False] and verdict.judged[1][0]["check"] == "import"
    assert verdict.current == 2


def test_the_verdict_changes_neither_the_tests_nor_the_attempts_it_reads():
    round_ = Round(ex(1, 2), t(5, 99)).candidate(2, 10).candidate(2, 10)
    before = ([test.record() for test in round_.tests], [a.record() for a in round_.tree])
    round_.verdict()
    assert ([test.record() for test in round_.tests], [a.record() for a in round_.tree]) == before


# Several right answers: a checker judges outputs (core/checkers.py). Example: the index of any peak.
def peak(nums, index):
    return isinstance(index, int) and not isinstance(index, bool) and 0 <= index < len(nums) and all(
        nums[index] > nums[j] for j in (index - 1, index + 1) if 0 <= j < len(nums))


def pk(nums, expected=None, origin="model"):
    return case(f"p_{len(nums)}_{nums[0]}", {"nums": nums}, expected, origin, **({"guess": expected} if origin == "model" else {}))


PEAKS = [pk([1, 2, 1, 3, 5, 6, 4], 5, "statement"), pk([1, 3, 1, 3, 1], 1)]


def test_a_checker_that_passes_its_checks_judges_every_output_and_correct_programs_all_pass():
    round_ = Round(*PEAKS).candidate(1, 1).candidate(5, 3).candidate(1, 3).checker(lambda i, out: peak(i["nums"], out))
    verdict = round_.verdict()
    assert sources(verdict) == [("p_7_1", "statement", 5, True), ("p_5_1", "checker", 1, True)]
    assert [all(r["passed"] for r in verdict.judged[k]) for k in (1, 2, 3)] == [True, True, True]
    assert outcome(verdict) == {"action": "success", "current": 3, "solved": 3} and verdict.checker == 4


@pytest.mark.parametrize("is_valid, why", [
    (lambda i, out: out == 1, "it rejects p_7_1's given output"),  # it only knows the first peak
    (lambda i, out: True, "it accepts None on p_7_1"),             # it accepts anything
    (lambda i, out: isinstance(out, int), "it accepts -1 on p_7_1"),  # an index out of range
], ids=["too strict", "accepts anything", "no bound check"])
def test_a_checker_that_fails_its_checks_is_not_used_and_nothing_is_claimed(is_valid, why):
    # both candidates return the example's own answer, so they pass it by equality, the fallback
    verdict = Round(*PEAKS).candidate(5, 1).candidate(5, 3).checker(is_valid).verdict(disputes_drawn=1)
    assert verdict.checker is None and verdict.refused == [f"checker 3: {why}"]
    assert verdict.action == "unconfirmed" and verdict.solved is None


def test_without_a_checker_code_equal_to_the_examples_and_to_independent_programs_is_solved():
    # several answers are right, but both candidates give p_7_1's own answer and agree on p_5_1: as backed
    # as code for one right answer (LeetCode 905: unconfirmed for want of a checker, right on the hidden tests)
    verdict = Round(*PEAKS).candidate(5, 1).candidate(5, 1).checker(lambda i, out: True).verdict(disputes_drawn=1)
    assert verdict.checker is None and sources(verdict)[1] == ("p_5_1", "majority", 1, True)
    assert outcome(verdict) == {"action": "success", "current": 2, "solved": 2} and verdict.lacks == []
    # where the claim gives another answer than the example's, nothing judged it there: a checker is lacking
    other = Round(*PEAKS).candidate(1, 1).candidate(1, 1).checker(lambda i, out: True).verdict(disputes_drawn=1)
    assert other.action == "unconfirmed" and "no checker" in other.lacks


def test_without_a_checker_another_right_answer_is_not_failed_by_the_examples_own():
    # p_7_1's given answer is index 5; index 1 is a peak too. The checker accepts anything, so it is refused:
    # the example then judges only its own answer and answers that are wrong by construction (-1, a string)
    round_ = Round(*PEAKS).candidate(1, 1).candidate(5, 3).candidate(-1, 1).candidate("5", 1)
    verdict = round_.checker(lambda i, out: True).verdict(disputes_drawn=1)
    assert verdict.checker is None
    first = [(r["passed"], r["counted"], r.get("unjudged", False)) for r in verdict.judged[1]]
    assert first[0] == (False, False, True), "another peak is not judged by the example's own answer"
    assert verdict.judged[2][0]["passed"] and verdict.judged[2][0]["counted"]
    assert [verdict.judged[k][0]["counted"] for k in (3, 4)] == [True, True], "-1 and '5' fail it"
    assert not any(verdict.judged[k][0]["passed"] for k in (3, 4))
    assert verdict.action == "unconfirmed" and "no checker" in verdict.lacks


def test_without_a_checker_candidates_no_example_can_judge_are_claimed_unconfirmed_not_revised():
    # both candidates return index 1 on p_7_1 (a peak; the statement gives 5) and differ on p_5_1: no test
    # fails them and none confirms them. Before, neither counted as passing the examples, and the run drew
    # and then revised right code, "failing: none" (LeetCode 1968 in the many-answers set: 22 calls)
    round_ = Round(*PEAKS).candidate(1, 1).candidate(1, 3).checker(lambda i, out: True)
    first = round_.verdict()
    assert first.solving == [1, 2] and first.action == "redraw" and first.draw_before_claim, "a draw looks for a checker"
    last = round_.verdict(disputes_drawn=1)
    assert last.action == "unconfirmed" and last.solved is None
    assert {"no checker", "inputs disputed"} <= set(last.lacks)


@pytest.mark.parametrize("output, wrong", [((3, 1), False), ([1], True), ("[1, 3]", True), (None, True), ([1, 3, 1], True)],
                         ids=["a tuple for a list", "cut short", "a string", "None", "one too many"])
def test_without_a_checker_only_outputs_wrong_by_construction_fail_an_expected_value(output, wrong):
    from core.round_verdict import plainly_wrong
    assert plainly_wrong(output, case("example_1", {"nums": [1, 3]}, [1, 3], "statement")) is wrong


def test_two_right_answers_where_the_statement_promises_one_break_the_promise():
    tests = [pk([1, 2, 1], 1, "statement"), pk([1, 3, 1, 3, 1], 1)]
    round_ = Round(*tests).candidate(1, 1).candidate(1, 3).checker(lambda i, out: peak(i["nums"], out))
    assert [name for name, _ in round_.verdict(one_answer=True).dropped] == ["p_5_1"]
    assert round_.verdict().dropped == [], "without the promise both answers are right"


# Two Sum's "exactly one solution": outputs compare by equality, and a checker finds the generated inputs
# with two right answers (nums [-4, -3, -2, -1], target -5: [0, 3] and [1, 2]). Here: 7 and 8 on x = 6.
def two_right_on_6(inputs, output):
    return output in (7, 8) if inputs["x"] == 6 else output == inputs["x"] + 1


def test_on_exact_outputs_a_checker_drops_an_input_with_two_right_answers_where_one_is_promised():
    round_ = Round(ex(1, 2), t(5, 6), v(6)).candidate(2, 6, 7).candidate(2, 6, 8).checker(two_right_on_6)
    verdict = round_.verdict(kind=OutputKind.EXACT, one_answer=True)
    assert verdict.dropped == [("variant_6", "broken_promise")] and verdict.action == "success"
    assert verdict.checker is None, "outputs are still judged by equality: the checker only finds broken promises"
    assert round_.verdict(kind=OutputKind.EXACT).disputed == ["variant_6"], "no promise: the programs dispute it"


def test_an_input_with_two_right_answers_breaks_the_promise_even_where_the_oracle_settled_it():
    # Two Sum's [1, 1, 1, 1], target 2: the oracle and one candidate return [0, 1], another [0, 2]. Settled,
    # it failed the right candidate, and five rounds of revision ended the run "not solved"
    round_ = Round(ex(1, 2), t(5, 6), v(6)).candidate(2, 6, 7).candidate(2, 6, 8).oracle(2, 6, 7).checker(two_right_on_6)
    verdict = round_.verdict(kind=OutputKind.EXACT, one_answer=True)
    assert verdict.dropped == [("variant_6", "broken_promise")] and verdict.action == "success"
    assert all(r["passed"] for k in (1, 2) for r in verdict.judged[k]), "neither candidate fails a right answer"
    settled = round_.verdict(kind=OutputKind.EXACT)
    assert settled.dropped == [] and not all(r["passed"] for r in settled.judged[2]), "no promise: the oracle settles it"
    majority = Round(ex(1, 2), v(6)).candidate(2, 7).candidate(2, 7).candidate(2, 8).checker(two_right_on_6)
    assert majority.verdict(kind=OutputKind.EXACT, one_answer=True).dropped == [("variant_6", "broken_promise")]


def test_a_one_answer_checker_that_fails_its_checks_drops_nothing():
    anything = Round(ex(1, 2), v(6)).candidate(2, 7).candidate(2, 8).checker(lambda inputs, output: True)
    verdict = anything.verdict(kind=OutputKind.EXACT, one_answer=True, disputes_drawn=1)
    assert verdict.dropped == [] and verdict.disputed == ["variant_6"] and verdict.action == "unconfirmed"
    assert verdict.refused == ["checker 3: it accepts None on example_1"]


def test_where_one_answer_is_promised_a_checker_accepting_a_wrong_output_on_an_example_is_refused():
    # HumanEval/129's checker checked only an answer's shape, passed its checks, and dropped three inputs as
    # breaking the promise. One answer promised: candidate 2's 3 on example_1 (given: 2) is wrong, and so is
    # a checker that accepts it
    shape_only = lambda inputs, output: isinstance(output, int) and output >= 0  # noqa: E731
    lax = Round(ex(1, 2), v(6)).candidate(2, 7).candidate(3, 8).checker(shape_only)
    verdict = lax.verdict(kind=OutputKind.EXACT, one_answer=True, disputes_drawn=1)
    assert verdict.refused == ["checker 3: it accepts attempt 2's 3 on example_1, where one answer is promised"]
    assert verdict.dropped == [], "with no checker in use nothing breaks the promise"
    two_or_more = Round(ex(1, 2), v(6)).candidate(2, 7).candidate(3, 8).checker(lambda inputs, output: isinstance(output, int) and output >= 2)
    several = two_or_more.verdict(kind=OutputKind.ANY_VALID, one_answer=True)
    assert several.checker == 3, "where several answers are right, another output on an example may be right"
    right = Round(ex(1, 2), v(6)).candidate(2, 7).candidate(3, 8).checker(two_right_on_6)
    assert right.verdict(kind=OutputKind.EXACT, one_answer=True).dropped == [("variant_6", "broken_promise")]


def test_where_one_answer_is_promised_a_checker_accepting_an_output_next_to_an_examples_is_refused():
    # Two Sum's checkers that checked only the sum accepted [1, 0] where the statement asks for increasing
    # indices (bench.checker_quality at 97a7d49); no program returned it, so only the outputs next to the given one show it
    sum_only = Round(case("example_1", {"nums": [2, 7], "target": 9}, [0, 1], "statement"), v(6)).candidate([0, 1], 7)
    lax = sum_only.candidate([0, 1], 8).checker(lambda inputs, output: output in ([0, 1], [1, 0]) or output in (7, 8))
    verdict = lax.verdict(kind=OutputKind.EXACT, one_answer=True, disputes_drawn=1)
    assert verdict.refused == ["checker 3: it accepts [1, 0] next to example_1's given output, where one answer is promised"]
    assert verdict.dropped == [], "with no checker in use nothing breaks the promise"
    in_any_order = lax.verdict(kind=OutputKind.UNORDERED, one_answer=True)
    assert in_any_order.refused == [] and in_any_order.dropped == [("variant_6", "broken_promise")], \
        "in any order, [1, 0] is the given answer"


def test_where_several_answers_are_right_a_checker_accepting_every_output_next_to_the_examples_is_refused():
    # Find Peak's checker at temperature 0 checked only that the index is in range: it accepts the given peak's
    # neighbours 4 and 6 too, which are never peaks; a checker rejecting one of them tells an answer apart
    def in_range(i, out):
        return isinstance(out, int) and 0 <= out < len(i["nums"])
    in_range_only = Round(*PEAKS).candidate(5, 1).candidate(5, 3).checker(in_range)
    verdict = in_range_only.verdict(disputes_drawn=1)
    assert verdict.checker is None and verdict.refused == [
        "checker 3: it accepts every output next to the given ones, so it cannot tell an answer from its neighbours"]
    not_after = Round(*PEAKS).candidate(5, 1).candidate(5, 3).checker(lambda i, out: in_range(i, out) and out != 6)
    assert not_after.verdict().checker == 3, "it rejects one neighbour: its checks pass"


def beautiful(output, n):
    """Beautiful Array: a permutation of 1..n where no item between two others is their average."""
    return isinstance(output, list) and sorted(output) == list(range(1, n + 1)) and not any(
        2 * output[k] == output[i] + output[j] for i in range(n) for j in range(i + 2, n) for k in range(i + 1, j))


def test_where_several_answers_are_right_a_checker_accepting_every_reordering_of_the_examples_is_refused():
    # Beautiful Array's checker in the many-answers bench accepted any permutation of 1..n (it wrote the
    # condition as 2 * a[j] == a[i] + a[j]) and backed a false success: it rejects [3, 1, 4, 3], the neighbour
    # with a number changed, and accepts [3, 4, 1, 2] and [1, 2, 4, 3], the example's items reordered
    arrays = [case("example_1", {"n": 4}, [2, 1, 4, 3], "statement"), case("variant_5", {"n": 5}, None, "variant")]
    def permutation(i, out):
        return isinstance(out, list) and sorted(out) == list(range(1, i["n"] + 1))
    items_only = Round(*arrays).candidate([1, 2, 3, 4], [1, 2, 3, 4, 5]).candidate([1, 2, 3, 4], [1, 2, 3, 4, 5])
    verdict = items_only.checker(permutation).verdict(disputes_drawn=1)
    assert verdict.checker is None and verdict.refused == [
        "checker 3: it accepts every reordering next to the given outputs, so it checks what an answer holds, not its order"]
    assert verdict.action != "success", "[1, 2, 3, 4] is no beautiful array: nothing may claim it"
    right = Round(*arrays).candidate([2, 1, 4, 3], [3, 1, 2, 5, 4]).candidate([3, 1, 4, 2], [1, 5, 3, 2, 4])
    judged = right.checker(lambda i, out: beautiful(out, i["n"])).verdict()
    assert judged.checker == 3 and judged.action == "success", "it rejects [1, 2, 4, 3]: two right arrays are judged right"


def fair_swap(i, out):
    """Fair Candy Swap: a box of Alice's and one of Bob's whose swap leaves both with the same total."""
    a, b = i["alice_sizes"], i["bob_sizes"]
    return isinstance(out, list) and len(out) == 2 and out[0] in a and out[1] in b and \
        sum(a) - out[0] + out[1] == sum(b) - out[1] + out[0]


def test_where_several_answers_are_right_a_checker_accepting_every_renumbering_that_keeps_the_order_is_refused():
    # Fair Candy Swap's checker in the many-answers bench was `output[0] < output[1]` and backed a false
    # success: it rejects [2, 1] and [2, 2], every neighbour of the example's [1, 2] that near_outputs tries,
    # and accepts [0, 2] and [1, 3], a number changed and the order kept
    swaps = [case("example_1", {"alice_sizes": [1, 1], "bob_sizes": [2, 2]}, [1, 2], "statement"),
             case("variant_5", {"alice_sizes": [1, 2, 5], "bob_sizes": [2, 4]}, None, "variant")]
    wrong = Round(*swaps).candidate([1, 2], [7, 9]).candidate([1, 2], [2, 5])
    verdict = wrong.checker(lambda i, out: isinstance(out, list) and len(out) == 2 and out[0] < out[1]).verdict(disputes_drawn=1)
    assert verdict.checker is None and verdict.refused == [
        "checker 3: it accepts every output next to the given ones with a number changed and their order kept, so it "
        "checks an answer's order, not what it holds"]
    assert verdict.action != "success", "[7, 9] and [2, 5] are no swaps: nothing may claim them"
    right = Round(*swaps).candidate([1, 2], [5, 4]).candidate([1, 2], [5, 4]).checker(fair_swap).verdict()
    assert right.checker == 3 and right.action == "success", "it rejects [0, 2]: the right swap is judged right"


def test_renumbered_outputs_change_the_first_or_last_number_and_keep_how_each_item_compares_with_the_next():
    from core.checkers import renumbered
    assert renumbered([1, 2]) == [[0, 2], [1, 3]]
    assert renumbered([0, 4, 1, 3, 2]) == [[1, 4, 1, 3, 2], [-1, 4, 1, 3, 2], [0, 4, 1, 3, 1]]
    assert renumbered([3, 3]) == [] and renumbered([5]) == [] and renumbered([True, False]) == []
    assert renumbered([[1], [2]]) == [] and renumbered("ab") == [] and renumbered(4) == []


def test_the_outputs_next_to_a_given_one_keep_its_type_and_differ_from_it():
    from core.checkers import near_outputs
    assert near_outputs(5) == [6, 4] and near_outputs(True) == [False]
    assert near_outputs([0, 1]) == [[1, 0], [1, 1]] and near_outputs([3, 3]) == [[4, 3]]
    assert near_outputs("ab") == ["ba"] and near_outputs("aa") == []
    assert near_outputs([]) == [] and near_outputs("") == [] and near_outputs(None) == [] and near_outputs(0.5) == []


def test_an_input_the_validator_rejects_breaks_a_promise_and_is_dropped_not_disputed():
    round_ = Round(ex(1, 2), t(5, 9), v(6)).candidate(2, 9, 3).candidate(2, 9, 4).validator(True, True, False)
    verdict = round_.verdict()
    assert verdict.dropped == [("variant_6", "broken_promise")] and verdict.action == "success"
    strict = Round(ex(1, 2), v(6)).candidate(2, 3).candidate(2, 4).validator(False, False).verdict()
    assert strict.dropped == [] and strict.disputed == ["variant_6"], "a validator that rejects an example is not used"


def test_with_a_limit_on_revisions_a_run_whose_versions_all_fail_the_examples_stops_early():
    round_ = Round(ex(1, 2), t(5, 9)).candidate(0, 9).judged(False, True).revision(1, 0, 8)
    verdict = round_.verdict(max_draws=1, revise_rounds=1)
    assert verdict.action == "exhausted"
    assert verdict.given_up == "no candidate passes the statement examples after 1 draw and 1 revision"
    assert round_.verdict(max_draws=1).action == "failure", "no limit: revise again"
    oracle_passes = Round(ex(1, 2), t(5, 9)).candidate(0, 9).oracle(2, 9).judged(False, True).revision(1, 0, 8)\
        .verdict(max_draws=1, revise_rounds=1)
    assert oracle_passes.action == "exhausted", "the oracle is not handed over as solving: it does not end the search"
    assert oracle_passes.given_up.startswith("no candidate passes the statement examples"), oracle_passes.given_up
    yours = Round(mine(1, 2), t(5, 9)).candidate(0, 9).judged(False, True).revision(1, 0, 8)
    assert yours.verdict(max_draws=1, revise_rounds=1).given_up.startswith("no candidate passes the trusted tests after")
    passing = Round(ex(1, 2), t(5, 9)).candidate(2, RAISES).oracle(2, 9).judged(True, False).revision(1, 2, 7)\
        .verdict(max_draws=1, revise_rounds=1)
    assert passing.action == "failure", "a version passes the examples: its counterexamples are worth a revision"


def test_a_new_candidate_returning_what_an_earlier_program_returns_everywhere_is_a_repeat():
    verdict = Round(ex(1, 2), t(5, 9)).oracle(2, 10).candidate(2, 10).candidate(2, 10).candidate(2, 11).verdict()
    assert verdict.repeated == {2: 1, 3: 1}, "the earliest program it repeats, the oracle as any other"


def test_a_repeat_of_a_program_failing_the_examples_is_no_second_program_where_programs_are_counted():
    # two programs that raise on t_5 and return elsewhere drop it (rejected); one program written twice does not
    two = Round(ex(1, 2), t(5, 9)).candidate(0, RAISES).candidate(1, RAISES).verdict()
    once = Round(ex(1, 2), t(5, 9)).candidate(0, RAISES).candidate(0, RAISES).verdict()
    assert two.dropped == [("t_5", "rejected")] and two.repeated == {}
    assert once.dropped == [] and once.repeated == {2: 1} and sources(once)[1][:2] == ("t_5", "disputed")


def test_a_repeat_of_a_program_passing_the_examples_votes_beside_it():
    # programs written apart that agree are a majority's evidence (CodeT); the same program by text is one voter
    verdict = Round(ex(1, 2), t(5, 99)).candidate(2, 10).candidate(2, 10).candidate(2, 12).verdict()
    assert verdict.repeated == {2: 1} and sources(verdict)[1] == ("t_5", "majority", 10, True)


def test_a_draw_of_repeats_only_is_not_counted_against_max_draws():
    def second_draw(outputs):
        round_ = Round(ex(1, 2)).candidate(0, status="kept").candidate(outputs)
        round_.tree[1].round = 1  # the second draw
        return round_.verdict(max_draws=2, revise_rounds=0).action
    assert second_draw(0) == "redraw", "it returned what the first did: the draw brought no new program"
    assert second_draw(1) == "exhausted", "a new program, failing too: the two draws allowed are spent"
