"""The strategies the benchmark compares. A strategy turns (model, sandbox isolation) into the Settings and
the flow to run; the harness does the rest (statement in, final code out, hidden tests, records).

To add one, write a function here and decorate it with @strategy("name", "what it does"): it appears in
`python -m bench --help` and can be run with --strategies name. Nothing in the harness changes.
"""
from flow import create_flow, create_single_shot_flow
from nodes import Settings

STRATEGIES = {}


def strategy(name, summary):
    def register(make):
        STRATEGIES[name] = (summary, make)
        return make
    return register


@strategy("single-shot", "one ImplementFunction call, no tests, no retry: the plain model")
def single_shot(model, isolation):
    return Settings(model=model, isolation=isolation, answer_attempts=1), create_single_shot_flow()


@strategy("design-doc", "the four nodes as the PocketFlow design doc describes them: one call per node, "
                        "5 rounds, Revise only corrects existing tests")
def design_doc(model, isolation):
    return Settings(model=model, isolation=isolation, max_iterations=5, answer_attempts=1,
                    revise_adds_tests=False), create_flow()


@strategy("full", "everything the product has, as main.py runs it (the default)")
def full(model, isolation):
    return Settings(model=model, isolation=isolation), create_flow()
