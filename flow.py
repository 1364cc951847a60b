"""The flow, wired like the diagram in docs/design.md. Only wiring lives here."""
from pocketflow import Flow

from nodes import Finish, GenerateTestCases, ImplementFunction, Revise, RunTests


def create_flow():
    generate_tests = GenerateTestCases()
    implement = ImplementFunction()
    run_tests = RunTests()
    revise = Revise()
    solved, gave_up, model_failed = Finish("solved"), Finish("unsolved"), Finish("model_failed")

    generate_tests >> implement >> run_tests
    run_tests - "success" >> solved
    run_tests - "failure" >> revise
    run_tests - "exhausted" >> gave_up
    revise >> run_tests
    for asks_the_model in (generate_tests, implement, revise):
        asks_the_model - "model_failed" >> model_failed

    return Flow(start=generate_tests)


def create_single_shot_flow():
    """One ImplementFunction call and no tests: the baseline the benchmark compares the loop against."""
    implement = ImplementFunction()
    implement >> Finish("untested")
    implement - "model_failed" >> Finish("model_failed")
    return Flow(start=implement)
