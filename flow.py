"""The flow, wired like the diagram in docs/design.md. Only wiring lives here."""
from pocketflow import Flow

from nodes import (AskPerson, CheckCode, Finish, GenerateTestCases, ImplementFunction, InstallPackages,
                   ReflectOnFailure, ReflectOnProblem, ReviewWithPerson, Revise, RunTests)
from settings import Settings


def create_flow(settings=None):
    """The product's flow. The reflection steps, the person's reviews (--interactive) and the package
    installer (--allow-install) are wired in only when the settings ask for them."""
    wants = settings or Settings()
    reflect, generate_tests, implement = ReflectOnProblem(), GenerateTestCases(), ImplementFunction()
    check_code, run_tests, reflect_on_failure, revise = CheckCode(), RunTests(), ReflectOnFailure(), Revise()
    solved, gave_up, model_failed = Finish("solved"), Finish("unsolved"), Finish("model_failed")
    ask_person, review_tests, review_round = AskPerson(), ReviewWithPerson("tests"), ReviewWithPerson("round")
    install_packages, stopped = InstallPackages(), Finish("stopped")
    new_code = install_packages if wants.allow_install else check_code  # where each new version of the code goes

    reflect >> generate_tests
    ask_person >> (reflect if wants.reflect else generate_tests)
    if wants.interactive:
        generate_tests >> review_tests >> implement
        review_tests - "finish" >> stopped
    else:
        generate_tests >> implement
    implement >> new_code
    install_packages >> check_code >> run_tests
    run_tests - "success" >> solved
    run_tests - "exhausted" >> gave_up
    run_tests - "unconfirmed" >> Finish("unconfirmed")  # passes the counted tests; inputs disputed or none trusted
    run_tests - "untested" >> Finish("untested")  # no tests left: the code parses, imports and loads
    run_tests - "redraw" >> implement  # no candidate passes the trusted tests yet: draw fresh ones
    fix = reflect_on_failure if wants.reflect_failures else revise
    reflect_on_failure >> revise
    if wants.interactive:
        run_tests - "failure" >> review_round
        review_round - "revise" >> fix
        review_round - "rerun" >> new_code
        review_round - "finish" >> stopped
    else:
        run_tests - "failure" >> fix
    revise >> new_code
    for asks_the_model in (ask_person, reflect, generate_tests, implement, reflect_on_failure, revise):
        asks_the_model - "model_failed" >> model_failed
        asks_the_model - "exhausted" >> gave_up  # the call or token budget is spent

    return Flow(start=ask_person if wants.interactive else reflect if wants.reflect else generate_tests)


def create_single_shot_flow():
    """One ImplementFunction call and no tests: the baseline the benchmark compares the loop against."""
    implement = ImplementFunction()
    implement >> Finish("untested")
    implement - "model_failed" >> Finish("model_failed")
    return Flow(start=implement)
