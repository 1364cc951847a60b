"""The flow, wired like the diagram in docs/design.md. Only wiring lives here."""
from pocketflow import Flow

from nodes import (CheckCode, Finish, GenerateTestCases, ImplementFunction, ReflectOnFailure, ReflectOnProblem,
                   Revise, RunTests)


def create_flow(settings=None):
    """The product's flow. The two reflection steps are wired in only when the settings ask for them."""
    reflect, generate_tests, implement = ReflectOnProblem(), GenerateTestCases(), ImplementFunction()
    check_code, run_tests, reflect_on_failure, revise = CheckCode(), RunTests(), ReflectOnFailure(), Revise()
    solved, gave_up, model_failed = Finish("solved"), Finish("unsolved"), Finish("model_failed")

    reflect >> generate_tests >> implement >> check_code >> run_tests
    run_tests - "success" >> solved
    run_tests - "exhausted" >> gave_up
    if settings is not None and settings.reflect_on_failures:
        run_tests - "failure" >> reflect_on_failure >> revise
    else:
        run_tests - "failure" >> revise
    revise >> check_code
    for asks_the_model in (reflect, generate_tests, implement, reflect_on_failure, revise):
        asks_the_model - "model_failed" >> model_failed
        asks_the_model - "exhausted" >> gave_up  # the call or token budget is spent

    start = reflect if settings is not None and settings.reflect else generate_tests
    return Flow(start=start)


def create_single_shot_flow():
    """One ImplementFunction call and no tests: the baseline the benchmark compares the loop against."""
    implement = ImplementFunction()
    implement >> Finish("untested")
    implement - "model_failed" >> Finish("model_failed")
    return Flow(start=implement)
