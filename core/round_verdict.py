"""A round's verdict: from what every program returned on every test, what counts, who did what, what next.

`judge_round(RoundFacts) -> Verdict` is pure: it reads the tests and the attempts (with what each
returned on each input, core.search_tree.Attempt.outputs) and changes neither; it runs nothing. The
JudgeRound node gives it the facts and writes the Verdict back (the attempt tree takes it). The
rules, in the order they apply; tests/test_round_verdict.py holds one row per rule:

 1. Expected values. Each test is settled by the evidence (core/expected_values.py: statement, user,
    oracle, majority, checker, guess, disputed, unchecked); an input every program raised on is
    dropped (rejected), and so is one that breaks what the statement promises (broken_promise: the
    input validator rejects it, or the checker accepts two answers where one is promised). One voter per
    program: a candidate that is an earlier one or the oracle with other names never votes; a new candidate
    returning what an earlier program returns on every input of the round (core/repeats.py: `repeated`, decided
    in its first round) is a repeat, which votes only where it passes the trusted tests.
 2. Results. Every attempt not rejected before is judged on the settled tests: a test counts unless its
    evidence is disputed or unchecked, except that code raising on a disputed written input where other
    programs return a value fails it (whichever value is right, raising is wrong; not on a variant, which
    may break a precondition). Code whose import or execution check failed fails every test.
 3. Keep or reject. A new oracle votes and never claims (an unsolved run may hand it over: core/run_outcome.py);
    a new revision that fails a counted test its parent passes is rejected (an anchor; the person's edit
    never is).
 4. No tests left (the person deleted them all): the latest candidate that loads, `untested`.
 5. A claim. Among the attempts that pass every counted test (or fail none, where only a checker could
    have judged their outputs: `unjudged`), the one with the most trusted tests,
    then tests, then programs siding with it on the disputed inputs (CodeT's consensus), then rank.
    It is `success` only when it lacks nothing (`lacks`): no input disputed or settled over a dissenting
    program (a split vote, core.cases.Evidence.split), a trusted test (a statement example or the
    person's), evidence beyond the statement's examples (a counted input the oracle, a majority or the
    checker settled, or where every program that answered returns the model's guess, or one of the
    person's tests), and, where several answers are right, a checker in use.
    - Lacking what more programs may bring (agreement, evidence, a checker) and a draw left
      (`dispute_draws`, rounds and budget): draw more candidates first. A split vote is not among them:
      the dissenting program votes on whatever a draw brings. Lacking nothing, but backed by one program alone
      or short of the confidence a claim needs (`unsure`), and a draw left (`confidence_draws`): the same.
    - Inputs still disputed after the draws: where independent programs back the claim on other inputs
      (no program dissenting), one that only the claimed code answered, otherwise than the model's
      guess, is left out (`unchecked`, as a variant one program answered; `lone`). When no independent
      program answered any of the rest and the claimed code returns the model's guess on each, they
      count (`solution_guess`), as agreement but not as evidence beyond the examples.
    - Anything still lacking: `unconfirmed`, saying what.
    - Before any of these, a first draw that asked only its first candidates (`rest_of_draw`) asks the
      rest: `redraw`, judged with them as one round.
    - While the model's own tests wait (`tests_owed`, settings.model_tests "when-needed") and a candidate
      passes the trusted tests, a `redraw` (after the first judgement, any verdict) is `more_tests`: the
      tests first, the round judged again with them, as if they had come first (tests_first).
    With agreement off (--model-expected) the model's values are the truth and nothing is lacking.
 6. No claim. The person's fresh edit is revised; out of rounds, `exhausted`; no candidate passes the
    trusted tests and draws are left (a draw of repeats only is not counted), `redraw`; the draws and
    `revise_rounds` revisions spent (none by default) and still none passes them, `exhausted` (with agreement
    on); else `failure`: the search policy picks what to revise.

Why each rule is there, measured: docs/journal/ (its README lists every measurement by date).
"""
from dataclasses import dataclass, field, replace

from core.confidence import evidence_of_attempts, weigh
from core.expected_values import confirmed_by_guess, settle, support
from core.cases import Evidence, has_trusted, trusted_name
from core.compare import judge
from core.checkers import (answering, breaks_a_promise, breaks_the_one_answer, checker_in_use, promised_only,
                         returned_on, validator_in_use, wants_a_checker, wrong_outputs)
from core.output_kind import OutputKind, comparison
from core.search_tree import Score
from core.repeats import behaviour_repeats
from core.source_code import program_key, repeats
from core.vocabulary import Action, AttemptStatus, Author, Source

NOT_RUN = {"ok": False, "value": None, "repr": "", "error_type": "NotRun", "message": "not run", "traceback": "",
           "timed_out": False, "ms": 0.0, "output": ""}
CHECK_FAILED = {**NOT_RUN, "error_type": None, "message": ""}
DISPUTED, UNTRUSTED, UNBACKED, UNCHECKED = ("inputs disputed", "no trusted test", "nothing beyond the statement's examples",
                                            "no checker")
SPLIT = "inputs settled over a dissenting program"
NONE_PASSES = "no candidate passes"  # how a run whose draws found none passing the trusted tests ends (hopeless_after)
DRAWS_HELP = {DISPUTED, UNBACKED, UNCHECKED}  # more candidates, an oracle or a checker may bring these; not a trusted
# test, nor an end to a split vote: the dissenting program keeps its vote whatever a draw brings


@dataclass(frozen=True)
class Rules:
    """The settings a verdict reads."""
    agreement: bool = True  # expected values settled by execution (off: the model's are the truth)
    anchors: bool = True    # a revision that breaks a test its parent passed is rejected
    max_iterations: int = 5
    max_draws: int = 2      # ImplementFunction draws while no candidate passes the trusted tests
    dispute_draws: int = 1  # draws before a claim that lacks evidence (inputs disputed, nothing beyond the examples)
    revise_rounds: int | None = None  # Revise rounds while no version passes the trusted tests; None: no limit
    confidence_draws: int = 0  # draws before a claim whose confidence falls short, or that one program alone backs

    @classmethod
    def of(cls, settings):
        return cls(settings.agreement, settings.anchors, settings.max_iterations, settings.max_draws,
                   settings.dispute_draws, settings.revise_rounds, settings.confidence_draws)


@dataclass(frozen=True)
class RoundFacts:
    tests: list           # core.cases.TestCase, as the round starts
    attempts: list        # every Attempt so far, with its outputs; read, never changed
    kind: OutputKind = OutputKind.EXACT  # how outputs compare (core/output_kind.py)
    iteration: int = 0        # rounds judged before this one
    disputes_drawn: int = 0   # draws already made before a claim (the store's dispute_draws)
    affords_a_draw: bool = True  # the call and token budgets leave room for one more draw
    rules: Rules = field(default_factory=Rules)
    trust_checker: bool = False  # the checker is the person's (--checker): used without the model's checks
    one_answer: bool = False     # the statement promises one answer per input
    rest_of_draw: bool = False   # the first draw asked only its first candidates (settings.first_draw); the rest wait
    tests_owed: bool = False     # the model's own tests are not asked yet (settings.model_tests "when-needed")
    tolerance: float = 0.0       # the statement's own for floats (core/output_kind.py)
    raised_fresh: dict = field(default_factory=dict)  # attempt id -> fresh inputs it raised on where a version
    # passing the same tests returned (nodes.TellApart): fewer is the better of versions tied on everything else
    calibration: object = None   # core.confidence.Calibration: a claim short of its threshold draws first

    @property
    def comparison(self):
        return comparison(self.kind, self.tolerance)

    @property
    def owes_rest(self):
        """The first candidates of a short first draw settle no claim: the rest of that draw comes first."""
        return self.rest_of_draw and self.affords_a_draw


@dataclass(frozen=True)
class Settlement:
    """What becomes of a new attempt: its status, the anchors it broke, the reward counted up the tree."""
    status: AttemptStatus
    broke: tuple = ()
    reward: float | None = None  # None: counted nowhere (an oracle, a judge)


@dataclass(frozen=True)
class Verdict:
    tests: list             # the settled tests, dropped inputs left out
    dropped: list           # (name, Source.REJECTED or Source.BROKEN_PROMISE) of each dropped input
    judged: dict            # attempt id -> its results (one per test, with "counted") on `tests`
    settled: dict           # new attempt id -> Settlement
    action: Action
    iteration: int          # rounds judged, this one included
    current: int | None     # the attempt to make current; None: the search policy chooses one to revise
    solved: int | None = None   # the attempt that solved, when the action is success
    disputed: list = field(default_factory=list)   # names of the inputs still disputed
    draw_before_claim: bool = False  # the redraw looks for what a claim lacks: agreement, evidence, a checker
    solving: list = field(default_factory=list)    # ids of the attempts that pass every counted test
    accepted: list = field(default_factory=list)   # names of the inputs the solution's guesses settled
    lone: list = field(default_factory=list)       # names of the disputed inputs only the claim answered, left out
    settled_tests: list = field(default_factory=list)  # the tests as execution settled them, before any guess accepted
    lacks: list = field(default_factory=list)      # what keeps a claim from success, in words
    checker: int | None = None    # the checker in use (several right answers), by attempt id
    refused: list = field(default_factory=list)    # why the other checkers were not used
    given_up: str = ""      # why the run stops early, hopeless (rules.revise_rounds)
    rest_of_draw: bool = False  # no claim yet: the first draw's other candidates come next, in the same round
    repeated: dict = field(default_factory=dict)  # a new candidate's id -> the earlier program it repeats by
    # behaviour, found in its first round (core/repeats.py): no new program, whatever later inputs show
    written_again: dict = field(default_factory=dict)  # passing candidate id -> the program it repeats: no voter
    # (said only of candidates that pass the trusted tests: the others vote for nothing anyway)
    passing: list = field(default_factory=list)    # ids of the candidates that pass the trusted tests


def judge_round(facts):
    verdict = _judged(facts)
    if facts.tests_owed and tests_first(facts, verdict):
        # the model's tests may settle what the round lacks (a guess only a program confirms) without a draw;
        # the round is judged again with them: this one is not counted, spends no dispute draw and settles no
        # new attempt (its reward in the search tree comes from the tests as they will be)
        return replace(verdict, action=Action.MORE_TESTS, iteration=facts.iteration, draw_before_claim=False, settled={},
                       solved=None, accepted=[], given_up="")
    return verdict


def tests_first(facts, verdict):
    """Whether the model's own tests, still owed, are asked before this verdict stands: once a candidate
    passes the trusted tests, at a redraw, and after the first judgement at any verdict, so that the run
    goes on as if they had come first. The first candidates' claim stands without them. While no candidate
    passes the trusted tests they change nothing the run does (candidates are shown only the trusted tests,
    and no claim can be made), so a fresh draw goes first: a run that never finds one never asks them."""
    if not verdict.passing:
        return False
    return verdict.action == Action.REDRAW or (not facts.rest_of_draw and facts.affords_a_draw)


def checkers_of(facts, attempts):
    """(the checker judging outputs, the checker looking for inputs that break the one answer promised, why the
    others were refused): several right answers, it judges outputs; one promised, it only finds such inputs."""
    found, refused = checker_in_use(attempts, facts.tests, facts.trust_checker,
                                    promised_only(facts.kind, facts.one_answer), facts.comparison) \
        if wants_a_checker(facts.kind, facts.one_answer, facts.rules.agreement) else (None, [])
    return (found, None, refused) if facts.kind == OutputKind.ANY_VALID else (None, found, refused)


def _judged(facts):
    rules, attempts = facts.rules, list(facts.attempts)
    checker, promise, refused = checkers_of(facts, attempts)
    again, repeated = written_again(attempts), behaviour_repeats(attempts, facts.tests)
    copies = {a.id for a in attempts if a.repeat_of is not None} | set(repeated)  # the draws' repeats by behaviour
    tests, dropped = settled_tests(facts, checker, promise, again, copies)
    # several right answers and no checker to judge them: an expected value judges only outputs equal to it
    unchecked = facts.kind == OutputKind.ANY_VALID and checker is None and rules.agreement
    judged = judge_all(attempts, tests, facts.comparison, checker, skip=lambda a: a.status == AttemptStatus.REJECTED,
                       unchecked=unchecked)
    scores = {a.id: Score.of(judged[a.id], tests) if a.id in judged else a.scored for a in attempts}
    settled = {a.id: keep_or_reject(a, judged, scores, attempts, rules.anchors)
               for a in attempts if a.status == AttemptStatus.NEW}
    status = {a.id: settled[a.id].status if a.id in settled else a.status for a in attempts}
    iteration = facts.iteration + 1
    common = {"dropped": dropped, "settled": settled, "iteration": iteration, "settled_tests": tests,
              "checker": checker and checker.attempt.id, "refused": refused, "repeated": repeated,
              "written_again": {new: old for new, old in again.items() if scores[new].passes_trusted},
              "passing": [a.id for a in passing_candidates(attempts, scores)]}
    loaded = [a for a in attempts if a.check == "ok" and a.is_candidate]
    if not tests and loaded:
        return Verdict(tests, judged=judged, action=Action.UNTESTED, current=loaded[-1].id, **common)
    solving = [a for a in attempts if status[a.id] in (AttemptStatus.KEPT, AttemptStatus.SOLVED)
               and scores[a.id].fails_nothing]
    if not solving:
        action = (Action.EXHAUSTED if iteration >= rules.max_iterations else
                  Action.REDRAW if wants_fresh_candidates(attempts, common["passing"], tests, rules, copies)
                  else Action.FAILURE)
        if facts.owes_rest:  # before `exhausted` too: the short round is not counted, so --max-iterations 1 gets it
            return rest_of_first_draw(tests, judged, None, common)
        hopeless = hopeless_after(attempts, scores, rules, tests) if action == Action.FAILURE else ""
        by_person = [a for a in attempts if a.id in settled and a.source == Author.USER
                     and status[a.id] == AttemptStatus.KEPT]
        return Verdict(tests, judged=judged, action=Action.EXHAUSTED if hopeless else action, given_up=hopeless,
                       current=by_person[-1].id if by_person else None, **common)
    disputed = [i for i, case in enumerate(tests) if case.source == Source.DISPUTED]
    backing = backing_on(disputed, attempts, scores, tests, facts.comparison)
    claim = max(solving, key=lambda a: claim_order(a, scores[a.id], backing(a), facts.raised_fresh))
    lacking = lacks(tests, disputed, facts, scores[claim.id].unjudged)
    helps = bool(set(lacking) & DRAWS_HELP)
    short = not lacking and unsure(claim, [replace_results(a, judged) for a in attempts], tests, facts, checker is not None)
    if facts.owes_rest and (helps or short):
        return rest_of_first_draw(tests, judged, claim.id, common)
    draw_first = draws_first(facts, helps, short, iteration)
    accepted, lone = [], []
    if disputed and not draw_first:
        tests, disputed, lone = lone_left_out(claim, tests, disputed)
        confirmed = confirmed_by_guess(outputs_on(claim, tests), tests, disputed, facts.comparison)
        if disputed and len(confirmed) == len(disputed):
            tests = [with_solution_guess(case) if i in confirmed else case for i, case in enumerate(tests)]
            accepted, disputed = [tests[i].name for i in confirmed], []
            judged = {**judged, **judge_all(attempts, tests, facts.comparison, checker,
                                            skip=lambda a: status[a.id] == AttemptStatus.REJECTED, unchecked=unchecked)}
        lacking = lacks(tests, disputed, facts, Score.of(judged[claim.id], tests).unjudged)
    solved = None if lacking else claim.id
    action = Action.REDRAW if draw_first else Action.SUCCESS if solved else Action.UNCONFIRMED
    return Verdict(tests, judged=judged, action=action, current=claim.id, solved=solved, draw_before_claim=draw_first,
                   disputed=[tests[i].name for i in disputed], solving=[a.id for a in solving], accepted=accepted,
                   lone=lone, lacks=lacking, **common)


def draws_first(facts, helps, short, iteration):
    """Whether fresh candidates come before the claim: a draw helps what it lacks (a dispute) and a dispute draw is
    left, or the claim is unsure (`unsure`) and a confidence draw is left; both count against the same draws, and
    need a round left and the budget for one."""
    rules = facts.rules
    return bool((helps and facts.disputes_drawn < rules.dispute_draws or
                 short and facts.disputes_drawn < rules.confidence_draws)
                and iteration < rules.max_iterations and facts.affords_a_draw)


def replace_results(attempt, judged):
    """The attempt with this round's results (a copy: the verdict changes no attempt)."""
    return replace(attempt, results=judged[attempt.id]) if attempt.id in judged else attempt


def unsure(claim, attempts, tests, facts, by_checker=False):
    """A claim the verdict would make that one program alone backs, or whose confidence (core/confidence.py) falls
    short of the calibration's threshold: more candidates first (rules.confidence_draws), since the confidence tells
    right from wrong by how many programs passing the examples agree (issue 94, simulated on recent problems' pass@k
    samples: the AUC among such runs rose from about 0.65 with the programs a run had to about 0.8 with two draws of
    three more where the confidence fell short; docs/journal/2026-12.md)."""
    if not facts.rules.agreement or not facts.rules.confidence_draws:
        return False
    several = by_checker and facts.kind == OutputKind.ANY_VALID  # a checker judges outputs: programs agree by it
    found = evidence_of_attempts(attempts, tests, claim.id, facts.comparison, several)
    return found.alone or facts.calibration is not None and not weigh(facts.calibration, found).enough


def claim_order(attempt, score, backing, raised_fresh):
    """Of the attempts passing every counted test, the claim is the greatest: most trusted tests, then tests, then
    programs siding with it on the disputed inputs, then fewest fresh inputs raised on where a tied version returned
    (nodes.TellApart: such an input is valid, and the raiser wrong, or breaks a promise, and neither is), then rank."""
    return (score.trusted_passed, score.passed, backing, -raised_fresh.get(attempt.id, 0),
            score.rank(len(attempt.lint or ()), attempt.id))


def lacks(tests, disputed, facts, unjudged=0):
    """What a claim of these tests lacks, in words; [] when nothing: no input disputed, none that programs
    settled over a dissenting one (Evidence.split), a trusted test (a statement example or the person's),
    evidence beyond the examples (an input programs settled or that the guess settled uncontested, or one
    of the person's), and a checker where the claim gave another answer than a test's that only a checker
    could judge (`unjudged`, several answers right). A claim equal to the examples' answers and to
    independent programs' is as backed as on one right answer (the many-answers set: docs/journal/2026-11.md).
    With agreement off (--model-expected) the model's values are the truth, as before."""
    if not facts.rules.agreement:
        return []
    missing = [DISPUTED] if disputed else []
    if any(case.split for case in tests):
        missing.append(SPLIT)
    if not has_trusted(tests):
        missing.append(UNTRUSTED)
    elif not any(backs(case, facts) for case in tests):
        missing.append(UNBACKED)
    if unjudged:
        missing.append(UNCHECKED)
    return missing


def backs(case, facts):
    """TestCase.backs_a_claim, save that while the rest of a short first draw is owed, a guess that only one
    program returned does not: the draw's other candidates vote on it first. Claims that nothing but such
    guesses backed, before the rest came, were right in 5 of 7 records, 3 of 5 problems (LeetCode 593 and
    950 wrong, on degenerate inputs the model guessed alike; docs/journal/2026-11.md). Nor does a witness's
    value (core/expected_values.py): it was measured on runs whose every candidate had come."""
    one_program = case.source == Source.GUESS and case.evidence.voters < 2 or case.source == Source.WITNESS
    return case.backs_a_claim and not (facts.owes_rest and one_program)


def settled_tests(facts, checker, promise, again, copies=()):
    """The tests with the evidence execution gives them (core/expected_values.py), and (name, why) for each one
    dropped: every program raised there (a variant: any voting program), or it breaks a promise of the
    statement (the input validator rejects it, or the checker accepts two answers where one is promised:
    `checker` when it judges outputs, `promise` when outputs are judged by equality and it only looks for
    a generated input's two right answers). `again`: the candidates written again (written_again), no voters;
    `copies`: the draws' repeats by behaviour (core/repeats.py), voters only where they pass the trusted tests."""
    tests, attempts = facts.tests, facts.attempts
    voters = {a.id: outputs_on(a, tests) for a in attempts
              if a.source == Author.IMPLEMENT and a.check == "ok" and a.id not in again}
    oracles = [a for a in attempts if a.source == Author.ORACLE and a.check == "ok"]
    oracle = outputs_on(oracles[-1], tests) if oracles else None
    accepts = (lambda case, value: checker.accepts(case.input, value)) if checker else None
    found = settle(tests, voters, oracle, facts.comparison, facts.rules.agreement, accepts, facts.one_answer, copies)
    validator = validator_in_use(attempts, tests) if facts.rules.agreement else None
    programs = answering(attempts)

    def broken(case):
        if breaks_a_promise(validator, case):
            return True
        if promise is None:
            return False
        # settled or not: Two Sum's [1, 1, 1, 1] with target 2, where the oracle and one candidate return
        # [0, 1] and settle it, fails right candidates returning [0, 2] as surely as a dispute stops a claim
        return breaks_the_one_answer(promise, case, returned_on(programs, case), facts.comparison)
    found = [(Evidence(Source.BROKEN_PROMISE), expected) if broken(case) else (evidence, expected)
             for case, (evidence, expected) in zip(tests, found)]
    kept = [case.settled(evidence, expected) for case, (evidence, expected) in zip(tests, found)
            if not evidence.source.dropped]
    dropped = [(case.name, evidence.source) for case, (evidence, _) in zip(tests, found) if evidence.source.dropped]
    return kept, dropped


def written_again(attempts):
    """candidate id -> the earlier candidate or the oracle it repeats with other names (core/source_code.py):
    one program is one voter, however often the model writes it (HumanEval/74's two voters were one function
    with a variable renamed, a false success; the paired replays: docs/journal/2026-11.md)."""
    oracles = [a for a in attempts if a.source == Author.ORACLE and a.check == "ok"]
    return repeats({a.id: a.code for a in attempts if a.source == Author.IMPLEMENT and a.check == "ok"},
                   besides={oracles[-1].id: oracles[-1].code} if oracles else None)


def judge_all(attempts, tests, comparison, checker, skip, unchecked=False):
    """attempt id -> its results, for every attempt that answers the problem, was checked and is not skipped."""
    return {a.id: judge_attempt(a, tests, comparison, checker, unchecked) for a in attempts
            if a.check is not None and Author(a.source).answers and not skip(a)}


def judge_attempt(attempt, tests, comparison, checker=None, unchecked=False):
    """The attempt's verdict on each test, from what it returned; a failed check fails them all. With a
    checker (several right answers), an output passes when the checker accepts it. Without one where
    several are right (`unchecked`), an expected value (an example's, or one programs settled) judges only
    outputs equal to it or wrong by construction: another output is not judged there (`unjudged`, not
    counted), where equality would fail a right one; a claim with such an output lacks a checker (lacks)."""
    results = []
    for case in tests:
        raw = attempt.outputs.get(case.key)
        if isinstance(attempt.check, dict):
            result = {**judge(CHECK_FAILED, case.expected), **attempt.check}
        else:
            result = judge(raw or NOT_RUN, case.expected, comparison)
            if checker is not None and raw and raw["ok"]:
                result["passed"] = checker.accepts(case.input, raw["value"]) is True
        result = {"name": case.name, "expected": case.expected, **result}  # each result says what it judged
        evidence = case.evidence or Evidence(Source(case.origin) if case.trusted else Source.MODEL)
        crashed = bool(raw and not raw["ok"] and not raw.get("timed_out") and evidence.voters >= 1 and not case.is_variant)
        if unchecked and raw and raw["ok"] and not result["passed"] and case.expected is not None \
                and not plainly_wrong(raw["value"], case):
            results.append({**result, "counted": False, "unjudged": True})
            continue
        results.append({**result, "counted": evidence.counted or crashed})
    return results


def plainly_wrong(output, case):
    """An output that cannot be right where the case's given output is: another type (a tuple for a list
    aside, as core/compare.py reads them alike), or one a checker must reject (core/checkers.wrong_outputs:
    None, the answer cut short, an index past the end)."""
    def kind(value):
        return list if isinstance(value, (list, tuple)) else type(value)
    return kind(output) is not kind(case.expected) or output in wrong_outputs(case.expected, case.input)


def keep_or_reject(attempt, judged, scores, attempts, anchors):
    """A new oracle votes; a new revision that fails a counted test its parent passes (an anchor) is
    rejected; the person's own edit is always kept."""
    if attempt.source == Author.ORACLE:
        return Settlement(AttemptStatus.ORACLE)
    if not Author(attempt.source).answers:
        return Settlement(AttemptStatus.JUDGE)
    parent = next((a for a in attempts if a.id == attempt.parent), None)
    theirs = None if parent is None else judged.get(parent.id, parent.results)
    broke = ()
    if anchors and attempt.source != Author.USER and theirs is not None:
        broke = tuple(f"test {i + 1}" for i, (mine, their) in enumerate(zip(judged[attempt.id], theirs))
                      if their["passed"] and not mine["passed"] and their.get("counted", True))
    status = AttemptStatus.REJECTED if broke else AttemptStatus.KEPT
    return Settlement(status, broke, scores[attempt.id].reward)


def rest_of_first_draw(tests, judged, current, common):
    """The first draw's other candidates come next; this round is not counted, so they share its number."""
    return Verdict(tests, judged=judged, action=Action.REDRAW, current=current, rest_of_draw=True,
                   **{**common, "iteration": common["iteration"] - 1})


def hopeless_after(attempts, scores, rules, tests):
    """Why to stop now rather than revise again, or "": `revise_rounds` revisions are spent and still no
    candidate passes the trusted tests; the oracle may, but it solves nothing (docs/journal/2026-11.md: revisions
    rarely turn a failing version into a passing one, and such a run spends most of its time on them). Only
    where the run drew fresh candidates instead: with agreement off (--model-expected) Revise is the one step
    that corrects the tests or the code."""
    if rules.revise_rounds is None or not rules.agreement:
        return ""
    revisions = len({a.round for a in attempts if a.source == Author.REVISE})
    draws = len({a.round for a in attempts if a.source == Author.IMPLEMENT})
    passing = any(a.is_candidate and scores[a.id].passes_trusted for a in attempts)
    if revisions < rules.revise_rounds or passing:
        return ""
    revised = f" and {plural(revisions, 'revision')}" if revisions else ""
    return f"{NONE_PASSES} the {trusted_name(tests)} after {plural(draws, 'draw')}{revised}"


def plural(count, noun):
    return f"{count} {noun}{'s' * (count != 1)}"


def wants_fresh_candidates(attempts, passing, tests, rules, copies=()):
    """Draw new candidates, rather than revise, while none passes the trusted tests (`passing`: their ids). A draw
    that brought no new program (its candidates written before, by text or by behaviour: `copies`) is not counted:
    the next one is asked for another approach (nodes.ImplementFunction)."""
    draws = len({a.round for a in attempts if a.source == Author.IMPLEMENT and a.id not in copies})
    return rules.agreement and has_trusted(tests) and not passing and draws < rules.max_draws


def passing_candidates(attempts, scores):
    """The candidates that pass the trusted tests; one whose outputs on them only a checker could judge
    (unjudged) fails none of them."""
    return [a for a in attempts if a.is_candidate and a.id in scores and (scores[a.id].trusted_total or scores[a.id].unjudged)
            and scores[a.id].passes_trusted]


def backing_on(indices, attempts, scores, tests, comparison):
    """attempt -> how many independent programs (candidates that pass the trusted tests, the valid oracle;
    one per program, core/source_code.py) return what it returns on the inputs `indices`."""
    voters = [a for a in attempts if a.source in (Author.IMPLEMENT, Author.ORACLE) and a.check == "ok"
              and scores[a.id].passes_trusted]
    one_each = {}  # program -> the first voter that wrote it
    for voter in voters:
        one_each.setdefault(program_key(voter.code), voter)

    def backing(attempt):  # its own program written again is no backing
        others = [outputs_on(a, tests) for key, a in one_each.items() if key != program_key(attempt.code)]
        return support(outputs_on(attempt, tests), others, indices, comparison)
    return backing


def backed_by_programs(tests):
    """Whether independent programs back the claim beyond the statement's examples: a counted input the oracle,
    a majority, a witness or the checker settled with no program dissenting (or one of the person's tests)."""
    return any(case.counted and case.source.backs_a_claim and not case.split for case in tests)


def lone_inputs(source, outputs, tests, disputed):
    """The disputed indices only the claimed code answered, where independent programs back it on other inputs:
    what left_out_lone leaves out (bench.claims at 97a7d49 read records with it too). Only a candidate's claim: a revision
    or the person's edit does not vote, so the one voter there may be another program. `outputs`: what the
    claimed code returned on each test (sandbox results, None where it did not run)."""
    if source != Author.IMPLEMENT or not backed_by_programs(tests):
        return []
    return [i for i in disputed if tests[i].evidence.voters == 1 and outputs[i] is not None and outputs[i]["ok"]]


def lone_left_out(claim, tests, disputed):
    """(tests, disputed indices, names left out): each input of lone_inputs left out (left_out_lone)."""
    lone = lone_inputs(claim.source, outputs_on(claim, tests), tests, disputed)
    return ([left_out_lone(case) if i in lone else case for i, case in enumerate(tests)],
            [i for i in disputed if i not in lone], [tests[i].name for i in lone])


def left_out_lone(case):
    """A disputed input only the claimed code answered (its value differs from the model's guess), where
    independent programs back the claim on others: left out, as a variant one program answered is. In the
    records (bench.vote_accuracy at 97a7d49, 2026-12-01) the lone program was right on 68 of 88 such inputs and the guess
    on 6, and each of the 10 runs programs backed elsewhere handed over code passing the hidden tests
    (HumanEval/67, /93; docs/journal/2026-12.md)."""
    return replace(case, evidence=Evidence(Source.UNCHECKED, voters=case.evidence.voters))


def with_solution_guess(case):
    """A disputed input no program answered, which the claimed code answers with the model's guess."""
    return replace(case, expected=case.model_guess, evidence=Evidence(Source.SOLUTION_GUESS, agree=1,
                                                                      voters=case.evidence.voters))


def outputs_on(attempt, tests):
    """What the attempt returned on each test's input (a sandbox result, or None where it has not run)."""
    return [attempt.outputs.get(case.key) for case in tests]
