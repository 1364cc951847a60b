"""The flow, wired like the diagram in docs/design.md. Only wiring lives here."""
from pocketflow import Flow

from core.vocabulary import Action, RunStatus
from nodes import (AskPerson, CheckCode, ExplainSolution, Finish, GenerateTestCases, ImplementFunction, InstallPackages,
                   JudgeRound, ReflectOnFailure, ReflectOnProblem, ReviewWithPerson, Revise, RunChecker, RunTests,
                   ReadAgain, TellApart, TimeLargestInput, TryEmptyInputs)
from settings import Settings


def create_flow(settings=None):
    """The product's flow. The reflection steps, the person's reviews (--interactive), the package
    installer (--allow-install) and the explanation (--explain) are wired in only when the settings ask."""
    wants = settings or Settings()
    reflect, generate_tests, implement = ReflectOnProblem(), GenerateTestCases(), ImplementFunction()
    check_code, run_tests, run_checker, judge = CheckCode(), RunTests(), RunChecker(), JudgeRound()
    tell_apart, empty_check, time_check, read_again = TellApart(), TryEmptyInputs(), TimeLargestInput(), ReadAgain()
    reflect_on_failure, revise = ReflectOnFailure(), Revise()
    solved, gave_up, model_failed = Finish(RunStatus.SOLVED), Finish(RunStatus.UNSOLVED), Finish(RunStatus.MODEL_FAILED)
    ask_person, review_tests, review_round = AskPerson(), ReviewWithPerson("tests"), ReviewWithPerson("round")
    install_packages, stopped = InstallPackages(), Finish(RunStatus.STOPPED)
    unconfirmed, untested = Finish(RunStatus.UNCONFIRMED), Finish(RunStatus.UNTESTED)
    new_code = install_packages if wants.allow_install else check_code  # where each new version of the code goes

    reflect >> generate_tests
    ask_person >> (reflect if wants.reflect else generate_tests)
    if wants.interactive:
        generate_tests >> review_tests >> implement
        review_tests - Action.FINISH >> stopped
    else:
        generate_tests >> implement
    implement >> new_code
    install_packages >> check_code >> run_tests >> run_checker >> judge  # the checker judges outputs: several are right
    judge - Action.SUCCESS >> tell_apart  # a claim's last checks: fresh inputs, for versions that differ,
    tell_apart - Action.SUCCESS >> empty_check  # an emptied list or string, for not raising,
    tell_apart - Action.RERUN >> run_tests  # (where they differ, those inputs join the tests: judged again)
    empty_check - Action.SUCCESS >> time_check  # and the statement's largest input, for time alone
    time_check - Action.SUCCESS >> read_again  # and a second reading of the statement, for a misreading all share
    time_check - Action.UNCONFIRMED >> unconfirmed  # no version passing the tests returns in time there
    read_again - Action.SUCCESS >> solved
    read_again - Action.UNCONFIRMED >> unconfirmed  # a program written from the statement's rules returns otherwise
    for last_check in (empty_check, time_check):  # failed, no other version: a short first draw's rest comes first
        last_check - Action.REDRAW >> implement
    judge - Action.EXHAUSTED >> gave_up
    judge - Action.UNCONFIRMED >> unconfirmed  # passes the counted tests; inputs disputed or none trusted
    judge - Action.UNTESTED >> untested  # no tests left: the code parses, imports and loads
    judge - Action.REDRAW >> implement  # no candidate passes the trusted tests yet, or a claim waits on disputes
    judge - Action.MORE_TESTS >> generate_tests  # a redraw while the model's tests wait: those first,
    generate_tests - Action.RERUN >> run_tests    # then the programs so far run on them and the round is judged again
    fix = reflect_on_failure if wants.reflect_failures else revise
    reflect_on_failure >> revise
    if wants.interactive:
        judge - Action.FAILURE >> review_round
        review_round - Action.REVISE >> fix
        review_round - Action.RERUN >> new_code
        review_round - Action.FINISH >> stopped
    else:
        judge - Action.FAILURE >> fix
    revise >> new_code
    for asks_the_model in (ask_person, reflect, generate_tests, implement, reflect_on_failure, revise):
        asks_the_model - Action.MODEL_FAILED >> model_failed
        asks_the_model - Action.EXHAUSTED >> gave_up  # the call or token budget is spent
    # steps once the run has ended, in this order: a new one is a (flag, node) pair here
    after_ending = [make() for wanted, make in ((wants.explain, ExplainSolution),) if wanted]
    for step, next_step in zip(after_ending, after_ending[1:]):
        step >> next_step
    for ending in (solved, unconfirmed, gave_up, untested) if after_ending else ():  # an ending that hands over code
        ending >> after_ending[0]

    return Flow(start=ask_person if wants.interactive else reflect if wants.reflect else generate_tests)


def create_single_shot_flow():
    """One ImplementFunction call and no tests: the baseline the benchmark compares the loop against."""
    implement = ImplementFunction()
    implement >> Finish(RunStatus.UNTESTED)
    implement - Action.MODEL_FAILED >> Finish(RunStatus.MODEL_FAILED)
    return Flow(start=implement)
