"""A round's verdict: from what every program returned on every test, what counts, who did what, what next.

`judge_round(RoundFacts) -> Verdict` is pure: it reads the tests and the attempts (with what each
returned on each input, core.search_tree.Attempt.outputs) and changes neither; it runs nothing. The
JudgeRound node gives it the facts and writes the Verdict back (the attempt tree takes it). The
rules, in the order they apply; tests/test_verdict.py holds one row per rule:

 1. Expected values. Each test is settled by the evidence (core/agreement.py: statement, user,
    oracle, majority, guess, disputed, unchecked, rejected); a rejected input is dropped.
 2. Results. Every attempt not rejected before is judged on the settled tests: a test counts unless its
    evidence is disputed or unchecked, except that code raising on a disputed written input where other
    programs return a value fails it (whichever value is right, raising is wrong; not on a variant, which
    may break a precondition). Code whose import or execution check failed fails every test.
 3. Keep or reject. A new oracle votes and is never handed over; a new revision that fails a counted
    test its parent passes is rejected (an anchor; the person's edit never is).
 4. No tests left (the person deleted them all): the latest candidate that loads, `untested`.
 5. A claim. Among the attempts that pass every counted test, the one with the most trusted tests,
    then tests, then programs siding with it on the disputed inputs (CodeT's consensus), then rank.
    - Inputs disputed and a draw left (`dispute_draws`, rounds and budget): draw more candidates first.
    - Inputs still disputed after the draws: when no independent program answered any of them and the
      claimed code returns the model's guess on each, they count (`solution_guess`); otherwise the
      claim is `unconfirmed`.
    - No trusted test (no statement example, none of the person's): `unconfirmed`, since agreement
      among one model's programs has nothing else to check it against.
    Otherwise `success`. With agreement off (--model-expected) the model's values are the truth.
 6. No claim. The person's fresh edit is revised; out of rounds, `exhausted`; no candidate passes the
    trusted tests and draws are left, `redraw`; else `failure`: the search policy picks what to revise.

Why each rule is there, measured: docs/benchmarks.md.
"""
from dataclasses import dataclass, field, replace

from core.agreement import confirmed_by_guess, settle, support
from core.cases import Evidence, has_trusted
from core.compare import judge
from core.search_tree import Score
from core.vocabulary import Action, AttemptStatus, Author, Source

NOT_RUN = {"ok": False, "value": None, "repr": "", "error_type": "NotRun", "message": "not run", "traceback": "",
           "timed_out": False, "ms": 0.0, "output": ""}
CHECK_FAILED = {**NOT_RUN, "error_type": None, "message": ""}


@dataclass(frozen=True)
class Rules:
    """The settings a verdict reads."""
    agreement: bool = True  # expected values settled by execution (off: the model's are the truth)
    anchors: bool = True    # a revision that breaks a test its parent passed is rejected
    max_iterations: int = 5
    max_draws: int = 2      # ImplementFunction draws while no candidate passes the trusted tests
    dispute_draws: int = 1  # draws before a claim while inputs are disputed

    @classmethod
    def of(cls, settings):
        return cls(settings.agreement, settings.anchors, settings.max_iterations, settings.max_draws,
                   settings.dispute_draws)


@dataclass(frozen=True)
class RoundFacts:
    tests: list           # core.cases.TestCase, as the round starts
    attempts: list        # every Attempt so far, with its outputs; read, never changed
    any_order: bool = False
    iteration: int = 0        # rounds judged before this one
    disputes_drawn: int = 0   # draws already made for disputed inputs (the store's dispute_draws)
    affords_a_draw: bool = True  # the call and token budgets leave room for one more draw
    rules: Rules = field(default_factory=Rules)


@dataclass(frozen=True)
class Settlement:
    """What becomes of a new attempt: its status, the anchors it broke, the reward counted up the tree."""
    status: AttemptStatus
    broke: tuple = ()
    reward: float | None = None  # None: counted nowhere (an oracle)


@dataclass(frozen=True)
class Verdict:
    tests: list             # the settled tests, rejected inputs dropped
    dropped: list           # the names of the dropped ones
    judged: dict            # attempt id -> its results (one per test, with "counted") on `tests`
    settled: dict           # new attempt id -> Settlement
    action: Action
    iteration: int          # rounds judged, this one included
    current: int | None     # the attempt to make current; None: the search policy chooses one to revise
    solved: int | None = None   # the attempt that solved, when the action is success
    disputed: list = field(default_factory=list)   # names of the inputs still disputed
    for_disputes: bool = False  # the redraw is for the disputed inputs, before a claim
    solving: list = field(default_factory=list)    # ids of the attempts that pass every counted test
    accepted: list = field(default_factory=list)   # names of the inputs the solution's guesses settled
    settled_tests: list = field(default_factory=list)  # the tests as execution settled them, before any guess accepted


def judge_round(facts):
    rules, attempts = facts.rules, list(facts.attempts)
    tests, dropped = settled_tests(facts)
    judged = judge_all(attempts, tests, facts.any_order, skip=lambda a: a.status == AttemptStatus.REJECTED)
    scores = {a.id: Score.of(judged[a.id], tests) if a.id in judged else a.scored for a in attempts}
    settled = {a.id: keep_or_reject(a, judged, scores, attempts, rules.anchors)
               for a in attempts if a.status == AttemptStatus.NEW}
    status = {a.id: settled[a.id].status if a.id in settled else a.status for a in attempts}
    iteration = facts.iteration + 1
    common = {"dropped": dropped, "settled": settled, "iteration": iteration, "settled_tests": tests}
    loaded = [a for a in attempts if a.check == "ok" and a.is_candidate]
    if not tests and loaded:
        return Verdict(tests, judged=judged, action=Action.UNTESTED, current=loaded[-1].id, **common)
    solving = [a for a in attempts if status[a.id] in (AttemptStatus.KEPT, AttemptStatus.SOLVED)
               and scores[a.id].passed == scores[a.id].total > 0]
    disputed = [i for i, case in enumerate(tests) if case.source == Source.DISPUTED]
    draw_first = bool(solving and disputed and rules.agreement and facts.disputes_drawn < rules.dispute_draws
                      and iteration < rules.max_iterations and facts.affords_a_draw)
    if not solving:
        action = (Action.EXHAUSTED if iteration >= rules.max_iterations else
                  Action.REDRAW if wants_fresh_candidates(attempts, scores, tests, rules) else Action.FAILURE)
        by_person = [a for a in attempts if a.id in settled and a.source == Author.USER
                     and status[a.id] == AttemptStatus.KEPT]
        return Verdict(tests, judged=judged, action=action, current=by_person[-1].id if by_person else None, **common)
    backing = backing_on(disputed, attempts, scores, tests, facts.any_order)
    claim = max(solving, key=lambda a: (scores[a.id].trusted_passed, scores[a.id].passed, backing(a),
                                        scores[a.id].rank(len(a.lint or ()), a.id)))
    accepted = []
    if disputed and not draw_first:
        confirmed = confirmed_by_guess(outputs_on(claim, tests), tests, disputed, facts.any_order)
        if len(confirmed) == len(disputed):
            tests = [with_solution_guess(case) if i in confirmed else case for i, case in enumerate(tests)]
            accepted, disputed = [tests[i].name for i in confirmed], []
            judged = {**judged, **judge_all(attempts, tests, facts.any_order,
                                            skip=lambda a: status[a.id] == AttemptStatus.REJECTED)}
    solved = claim.id if not disputed and (not rules.agreement or has_trusted(tests)) else None
    action = Action.REDRAW if draw_first else Action.SUCCESS if solved else Action.UNCONFIRMED
    return Verdict(tests, judged=judged, action=action, current=claim.id, solved=solved, for_disputes=draw_first,
                   disputed=[tests[i].name for i in disputed], solving=[a.id for a in solving], accepted=accepted,
                   **common)


def settled_tests(facts):
    """The tests with the evidence execution gives them (core/agreement.py), and the names of those dropped:
    inputs every program raised on (a variant: any voting program)."""
    tests, attempts = facts.tests, facts.attempts
    voters = {a.id: outputs_on(a, tests) for a in attempts if a.source == Author.IMPLEMENT and a.check == "ok"}
    oracles = [a for a in attempts if a.source == Author.ORACLE and a.check == "ok"]
    oracle = outputs_on(oracles[-1], tests) if oracles else None
    found = settle(tests, voters, oracle, facts.any_order, facts.rules.agreement)
    kept = [case.settled(evidence, expected) for case, (evidence, expected) in zip(tests, found)
            if evidence.source != Source.REJECTED]
    dropped = [case.name for case, (evidence, _) in zip(tests, found) if evidence.source == Source.REJECTED]
    return kept, dropped


def judge_all(attempts, tests, any_order, skip):
    """attempt id -> its results, for every attempt that was checked and is not skipped."""
    return {a.id: judge_attempt(a, tests, any_order) for a in attempts if a.check is not None and not skip(a)}


def judge_attempt(attempt, tests, any_order):
    """The attempt's verdict on each test, from what it returned; a failed check fails them all."""
    results = []
    for case in tests:
        raw = attempt.outputs.get(case.key)
        if isinstance(attempt.check, dict):
            result = {**judge(CHECK_FAILED, case.expected), **attempt.check}
        else:
            result = judge(raw or NOT_RUN, case.expected, any_order)
        evidence = case.evidence or Evidence(Source(case.origin) if case.trusted else Source.MODEL)
        crashed = bool(raw and not raw["ok"] and not raw.get("timed_out") and evidence.voters >= 1 and not case.is_variant)
        results.append({**result, "counted": evidence.counted or crashed})
    return results


def keep_or_reject(attempt, judged, scores, attempts, anchors):
    """A new oracle votes; a new revision that fails a counted test its parent passes (an anchor) is
    rejected; the person's own edit is always kept."""
    if attempt.source == Author.ORACLE:
        return Settlement(AttemptStatus.ORACLE)
    parent = next((a for a in attempts if a.id == attempt.parent), None)
    theirs = None if parent is None else judged.get(parent.id, parent.results)
    broke = ()
    if anchors and attempt.source != Author.USER and theirs is not None:
        broke = tuple(f"test {i + 1}" for i, (mine, their) in enumerate(zip(judged[attempt.id], theirs))
                      if their["passed"] and not mine["passed"] and their.get("counted", True))
    status = AttemptStatus.REJECTED if broke else AttemptStatus.KEPT
    return Settlement(status, broke, scores[attempt.id].reward)


def wants_fresh_candidates(attempts, scores, tests, rules):
    """Draw new candidates, rather than revise, while none passes the trusted tests."""
    draws = len({a.round for a in attempts if a.source == Author.IMPLEMENT})
    passing = [a for a in attempts if a.is_candidate and scores[a.id].trusted_total
               and scores[a.id].trusted_passed == scores[a.id].trusted_total]
    return rules.agreement and has_trusted(tests) and not passing and draws < rules.max_draws


def backing_on(indices, attempts, scores, tests, any_order):
    """attempt -> how many independent programs (candidates that pass the trusted tests, the valid oracle)
    return what it returns on the inputs `indices`."""
    voters = [a for a in attempts if a.source in (Author.IMPLEMENT, Author.ORACLE) and a.check == "ok"
              and scores[a.id].trusted_passed == scores[a.id].trusted_total]
    outputs = {a.id: outputs_on(a, tests) for a in voters}

    def backing(attempt):
        others = [results for voter, results in outputs.items() if voter != attempt.id]
        return support(outputs_on(attempt, tests), others, indices, any_order)
    return backing


def with_solution_guess(case):
    """A disputed input no program answered, which the claimed code answers with the model's guess."""
    return replace(case, expected=case.model_guess, evidence=Evidence(Source.SOLUTION_GUESS, agree=1,
                                                                      voters=case.evidence.voters))


def outputs_on(attempt, tests):
    """What the attempt returned on each test's input (a sandbox result, or None where it has not run)."""
    return [attempt.outputs.get(case.key) for case in tests]
