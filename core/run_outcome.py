"""How a run ends: which version is handed over, and the one line that says how far to trust it.

`conclude(...) -> Outcome` is pure, like the verdict: the Finish node calls it with the run's state.
Solved, unconfirmed and untested runs hand over the attempt the last verdict made current; every other
ending hands over the best attempt (the most trusted tests, then tests passed, then fewer linter
findings), not merely the last, or the oracle when it passes every statement example and no candidate
does (handed_over). The message names the evidence ("3 statement examples + 5 confirmed
by the oracle and a candidate"), what is still disputed, or what fails, and ends with the confidence that
the code handed over is right (core/confidence.py). A claim the verdict would make stands only when that
confidence reaches the calibration's threshold; below it, the run ends unconfirmed and says so.
"""
from dataclasses import dataclass

from core.confidence import evidence_of_attempts, weigh
from core.compare import EXACT
from core.expected_values import summary
from core.cases import has_trusted, trusted_name
from core.largest_input import TOO_SLOW
from core.round_verdict import NONE_PASSES, SPLIT, UNBACKED, UNCHECKED
from core.vocabulary import Author, Caller, Origin, RunStatus, Source

SECOND_READING = "a second reading of the statement differs"  # what a claim lacks when nodes.ReadAgain withholds it
ORIGIN_MARKS = {Origin.STATEMENT: " (statement)", Origin.USER: " (yours)"}
KEEPS_CURRENT = (RunStatus.SOLVED, RunStatus.UNTESTED, RunStatus.UNCONFIRMED)


@dataclass(frozen=True)
class Outcome:
    status: RunStatus
    message: str
    attempt: int | None  # the attempt handed over; None: the current one stays
    confidence: object = None  # core.confidence.Confidence of the code handed over; None without a calibration


@dataclass(frozen=True)
class RunState:
    """What the ending reads: the attempts, the tests, the current attempt, and what the run said so far."""
    attempts: object  # core.search_tree.AttemptTree
    tests: list
    current: int | None = None
    iteration: int = 0
    message: str = ""
    dispute_draws: int = 0
    lacks: list | None = None  # what the last claim lacked (core/round_verdict.lacks)
    by_equality: bool = False  # several answers are right and no checker judged them: equality did
    caller: Caller = Caller.CLI  # whose words the advice uses: --tests FILE, or the tests argument
    calibration: object = None   # core.confidence.Calibration; None: no confidence (expected values taken from the model)
    model: str = ""              # the run's model, to say when the calibration was fitted on another's runs
    second_reading: str | None = None  # what nodes.ReadAgain found of the claim, if it ran
    comparison: object = EXACT   # how outputs compare (core/output_kind.py): programs behave alike by it
    by_checker: bool = False     # several answers are right and a checker judged them: programs agree by its verdicts


def conclude(status, state):
    """A run stopped by its budget or time while a claim waited for a draw ends unconfirmed with that claim,
    not unsolved: the last verdict had a version passing every counted test (state.lacks says what else)."""
    current = state.attempts.get(state.current) if state.current is not None else None
    if status == RunStatus.UNSOLVED and state.lacks and current is not None and current.scored.fails_nothing:
        status = RunStatus.UNCONFIRMED
    kept = None if status in KEEPS_CURRENT else handed_over(state.attempts)
    confidence = rated(status, state, kept.id if kept else state.current)
    # a claim your own tests back (--tests FILE, the tests argument) stands on your word: the calibration was
    # fitted on runs that had none, so it cannot weigh them; the confidence is still said
    yours = any(case.origin == Origin.USER and case.counted for case in state.tests)
    if status == RunStatus.SOLVED and confidence and not yours and (confidence.evidence.alone or not confidence.enough):
        status = RunStatus.UNCONFIRMED
        message = unconfirmed_message(state, confidence)
    else:
        message = closing_message(status, state, kept)
    if confidence is not None:
        message += f"; {confidence.words()}"
    return Outcome(status, message, kept and kept.id, confidence)


def rated(status, state, handed):
    """The Confidence of the code handed over (attempt `handed`), from the evidence as run.json records it; None
    when no code is handed over or the run has no calibration."""
    if state.calibration is None or handed is None or state.attempts.get(handed) is None:
        return None
    found = evidence_of_attempts(state.attempts, state.tests, handed, state.comparison, state.by_checker)
    return weigh(state.calibration, found, state.model, claimed=status == RunStatus.SOLVED)


def handed_over(attempts):
    """The version an unsolved run hands over: the best candidate, or the oracle (the last that loaded) when it
    passes every trusted test and no candidate does, or every counted test while the best candidate fails one.
    It is still no claim (the run stays unsolved: nothing but the oracle and the programs or guesses agreeing
    with it back its outputs), but a plain program right where the evidence is beats a fast one wrong there:
    in the bench's records the oracle passed the hidden tests where no candidate did (HumanEval/129, LeetCode
    995 and 2492; docs/journal/2026-11.md, "the oracle handed over"), and LeetCode 2579's passed every counted test
    and the hidden ones while every candidate failed the model's guesses that it had returned."""
    best = attempts.best()
    oracles = [a for a in attempts if a.source == Author.ORACLE and a.check == "ok" and a.results is not None
               and a.trusted_total and a.scored.passes_trusted]
    oracle = oracles[-1] if oracles else None
    if best is not None and best.scored.passes_trusted and not (
            oracle and oracle.scored.fails_nothing and not best.scored.fails_nothing):
        return best
    return oracle or best


def closing_message(status, state, kept):
    if status == RunStatus.UNTESTED:
        return ("no tests to run: the code parses, imports and loads; nothing else was checked"
                if len(state.attempts) else "code written without tests (single-shot)")
    if status == RunStatus.MODEL_FAILED:
        return f"the model failed: {state.message}"
    if status == RunStatus.SOLVED:
        solved = next(a for a in state.attempts if a.status == "solved")
        equality = ("; several answers are right and no checker passed its checks, so its outputs were judged by "
                    "equality with the examples' and the agreeing programs' answers, as test_solution.py judges them"
                    if state.by_equality else "")
        return f"solved: all {solved.total} tests pass ({summary(state.tests)}) after {state.iteration} iteration(s){equality}"
    if status == RunStatus.UNCONFIRMED:
        return unconfirmed_message(state)
    lead = "stopped by the user" if status == RunStatus.STOPPED else "not solved"
    if kept is None:
        return f"{lead}: {state.message or 'no code was written'}"
    failing = [f"{case.name}{ORIGIN_MARKS.get(case.origin, '')}" for case, result in zip(state.tests, kept.results or [])
               if not result["passed"] and result.get("counted", True)]
    trusted = f", {kept.trusted_passed} of {kept.trusted_total} {trusted_name(state.tests)}" if kept.trusted_total else ""
    why = f" ({state.message})" if state.message and status == RunStatus.UNSOLVED else ""
    best = state.attempts.best()
    lacking = ("every test that counts" if best and best.scored.passes_trusted else f"the {trusted_name(state.tests)}")
    said = why.startswith(f" ({NONE_PASSES}")  # the draws ended saying so (core/round_verdict.hopeless_after)
    version = (f"{'' if said else f'{NONE_PASSES} {lacking}, so '}the oracle (attempt {kept.id}, written to be "
               "plainly right rather than fast) is handed over: it" if kept.source == Author.ORACLE else
               f"the best version (attempt {kept.id})")
    return (f"{lead} after {state.iteration} iteration(s){why}: {version} "
            f"passes {kept.passed} of {kept.total} tests{trusted}; failing: {', '.join(failing[:6]) or 'none'}")


def unconfirmed_message(state, confidence=None):
    """Why a version that passes every counted test is not called solved: inputs the programs disagree on,
    inputs only one program answered, no test from the statement or the person, or evidence that does not
    reach the confidence a claim needs."""
    current = state.attempts.get(state.current)
    disputed = [case for case in state.tests if case.source == Source.DISPUTED]
    # several programs answered differently, or at most one answered (then only the model's guess differs)
    split = [", ".join(case.name for case in disputed if (case.evidence.voters >= 2) == several) for several in (True, False)]
    draws = state.dispute_draws
    after = f"after {draws} more draw{'s' * (draws != 1)} " if draws else ""
    why = "; ".join(part for part in (split[0] and f"{after}the programs disagree on {split[0]}",
                                      split[1] and f"{after * (not split[0])}no second program confirms its "
                                                   f"output on {split[1]}") if part)
    why = [f"{why}: check what run_code must return there"] if why else []
    lacks = state.lacks or []
    outvoted = [case for case in state.tests if case.split]
    if SPLIT in lacks and outvoted:
        votes = ", ".join(f"{case.name} ({case.evidence.agree} of {case.evidence.voters})" for case in outvoted[:6])
        why.append(f"the programs that pass the examples split on {votes}, this code with the larger side: a split "
                   "vote backs no claim; check what run_code must return there")
    if not has_trusted(state.tests):
        why.append("no test comes from the statement or from you, so nothing but the model's own programs backs it: "
                   f"add a worked example to the problem, or {state.caller.give('tests')}")
    elif UNBACKED in lacks:
        why.append("only the statement's examples back this code: no input beyond them was settled by independent "
                   "programs (an oracle, a majority, a checker, a program failing an example that agrees everywhere "
                   "else, or the only program to answer returning the model's own expected value); add tests of your "
                   f"own with {state.caller.give('tests')}")
    if SECOND_READING in lacks:
        why.append("a program written from the statement's rules, listed first, returns otherwise: check which reading "
                   "of the statement is right there")
    if TOO_SLOW in lacks:
        why.append("a judge's test at the stated bounds would time out: a faster algorithm is needed there")
    if UNCHECKED in lacks:
        why.append("the statement allows several right answers and no checker passed its checks on the examples, so "
                   f"an output could be judged only by equality with an example's own answer; give one with "
                   f"{state.caller.give('checker')}")
    if confidence is not None and confidence.evidence.alone:
        why.append("no second program that passes the examples returns what it returns: a claim never rests on one "
                   "program and the model's guesses")
    elif confidence is not None and not confidence.enough:
        why.append(f"its evidence falls short of the confidence a claim needs ({confidence.threshold:.2f}): programs "
                   "one model wrote can share a misreading of the statement")
    stopped = f" ({state.message})" if state.message else ""  # the budget or the time ran out before the draw
    passes = (f"passes all {current.total} tests that count ({summary(state.tests)})" if current.total else
              f"fails no test, yet no test judged it: it answers {', '.join(current.unjudged_tests(state.tests))} "
              "otherwise than given")
    return f"not confirmed{stopped}: attempt {current.id} {passes}, but {'; '.join(why)}"
