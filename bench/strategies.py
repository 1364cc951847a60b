"""The strategies the benchmark compares. A strategy turns (model, sandbox isolation) into the Settings and
the flow to run; the harness does the rest (statement in, final code out, hidden tests, records).

To add one, write a function here and decorate it with @strategy("name", "what it does"): it appears in
`python -m bench --help` and can be run with --strategies name. Nothing in the harness changes.
"""
from flow import create_flow, create_single_shot_flow
from settings import Settings

STRATEGIES = {}


def strategy(name, summary):
    def register(make):
        STRATEGIES[name] = (summary, make)
        return make
    return register


@strategy("single-shot", "one ImplementFunction call, no tests, no retry: the plain model")
def single_shot(model, isolation):
    return (Settings(model=model, isolation=isolation, answer_attempts=1, samples=1, oracle=False, agreement=False),
            create_single_shot_flow())


# The design doc's spine: each row after it adds one idea on top of the row before (an ablation). These
# rows take expected values from the model, as the product did before issue 14.
DESIGN_DOC = dict(max_iterations=5, answer_attempts=1, revise_adds_tests=False, trust_examples=False,
                  anchors=False, feedback="plain", samples=1, search="latest", oracle=False, agreement=False,
                  model_tests_max=None)
TRUST = {**DESIGN_DOC, "trust_examples": True, "anchors": True, "search": "best"}
FEEDBACK = {**TRUST, "feedback": "classified"}
REFLECT = {**FEEDBACK, "reflect": True, "reflect_failures": True}
UCT = {**FEEDBACK, "samples": 2, "search": "uct"}
THOMPSON = {**FEEDBACK, "samples": 2, "search": "thompson"}


def looping(options):
    def make(model, isolation):
        settings = Settings(model=model, isolation=isolation, **options)
        return settings, create_flow(settings)
    return make


strategy("design-doc", "the four nodes as the PocketFlow design doc describes them: one call per node, "
                       "5 rounds, Revise only corrects existing tests, plain feedback, the latest code "
                       "is revised")(looping(DESIGN_DOC))
strategy("trust", "design-doc + the statement's examples as trusted tests, anchors (a revision that "
                  "breaks a passing test is rejected) and the best version kept")(looping(TRUST))
strategy("feedback", "trust + classified, short failure feedback (core/feedback.py)")(looping(FEEDBACK))
strategy("reflect", "feedback + the problem restated before the tests and a failure analysis before "
                    "each revision")(looping(REFLECT))
strategy("uct", "feedback + 2 samples per step, the attempt to revise chosen by UCT")(looping(UCT))
strategy("thompson", "feedback + 2 samples per step, the attempt to revise chosen by Thompson sampling")(looping(THOMPSON))
strategy("model-tests", "the defaults before expected values came from execution: uct's settings plus answer "
                         "retries; the model's expected values are the truth")(looping({"samples": 2, "oracle": False,
                                                                                         "agreement": False,
                                                                                         "model_tests_max": None}))
strategy("full", "main.py's defaults: 3 candidates a draw (the first draw's first one with the oracle, the other two "
                 "only if these settle no claim), expected values settled by execution (oracle, majority, the model's "
                 "guess where one program returns it), up to four draws while no candidate passes the statement's examples (then the run "
                 "ends), UCT revision of candidates that pass them")(looping({}))
strategy("no-oracle", "full without the oracle: candidates' agreement alone settles expected values")(looping({"oracle": False}))
strategy("no-lint", "full without ruff: no linter findings in the feedback or among the tie-breaks")(looping({"lint": False}))
strategy("revise-more", "full as it was before issue 28: two draws while no candidate passes the statement's "
                        "examples, then revision to the last round")(looping({"max_draws": 2, "revise_rounds": None}))
strategy("more-draws", "full, but up to three fresh draws (not one) before a claim that lacks evidence ends "
                       "unconfirmed")(looping({"dispute_draws": 3}))
strategy("all-at-once", "full, but the first draw asks its 3 candidates at once with the oracle (the defaults "
                        "before the short first draw)")(looping({"first_draw": None}))
strategy("no-model-tests", "full without the model's own tests where the statement has examples: the examples "
                           "and their variant inputs are the tests")(looping({"model_tests": "never"}))
strategy("tests-first", "full, but the model writes its own tests before any code (the defaults before they waited "
                        "until the first candidate and the oracle settle no claim)")(looping({"model_tests": "first"}))
strategy("eight-draws", "full, but up to eight draws (not four) while no candidate passes the statement's examples, "
                        "with the rounds to hold them")(looping({"max_draws": 8, "max_iterations": 9}))
strategy("more-tests", "full as it was before 2026-11-29: the model asked for up to eight tests with the statement's "
                       "examples (not at most three of its own)")(looping({"model_tests_max": None}))
strategy("no-validator", "full without the input validator: generated inputs that break a promise in words are "
                         "not dropped by one")(looping({"validator": False}))
