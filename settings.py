"""Settings: everything that shapes a run, in one frozen value the whole app reads.

A field that has a command-line flag is named like it (`--reflect-failures` -> `reflect_failures`,
`--token-budget` -> `token_budget`), so the CLI, the library's keyword arguments (`codeloop.solve`)
and run.json's `settings` use the same words. The values are checked here, once, whoever builds the
Settings: a bad value raises SettingsError with a one-line message naming the option as its caller gives it
(`caller`: a flag, or an MCP tool's argument).

To add an option: a field here (with its check, if it has limits), then its flag in main.py.
"""
from dataclasses import dataclass, field, fields

from utils.call_llm import ModelConfig
from utils.sandbox import Limits
from core.problem_kind import FAMILIES
from core.search_tree import POLICIES
from core.vocabulary import Caller

FEEDBACK_KINDS = ("classified", "plain")
OUTPUT_KINDS = ("exact", "unordered", "float", "any")
MODEL_TESTS = ("first", "when-needed", "never")
# Bounds the MCP tools' schemas carry too (mcp_server.py), so that every way in refuses the same values
MAX_CALLS = (1, 1000)
TIME_LIMIT_S = (1, 86_400)
TEST_TIMEOUT_S = (0.1, 600)  # below 0.1 s not even the interpreter starts


class SettingsError(ValueError):
    """A setting is out of range; the message is one line for the user, naming the option as the caller
    gives it (Settings.caller: --max-calls on the command line, max_calls to an MCP tool)."""


@dataclass(frozen=True)
class Settings:
    model: ModelConfig = field(default_factory=ModelConfig)
    max_iterations: int = 5    # rounds of RunTests; so at most max_iterations - 1 revisions
    min_tests: int = 5         # asked for; small models asked for "comprehensive" tests never stop
    # When the model writes its own tests, where the statement has examples: "first" (before any code),
    # "when-needed" (only once the first candidate and the oracle settle no claim on the examples and their
    # variants; --interactive and agreement off ask first), "never" (the trusted tests and their variants only).
    # When needed (issue 28): over 120 replayed benchmark runs no outcome changed, and 25 never needed the test
    # list, 15-44 s of the model each; the README's Two Sum takes 26 s instead of 42 (docs/journal/2026-11.md)
    model_tests: str = "when-needed"
    max_tests: int = 8
    # The model's own tests asked for at most, where there are trusted tests (None: up to max_tests with them). Three,
    # not up to six: over 41 paired replays the test lists took 35% fewer tokens and no solve, claim or false success
    # changed in number (one claim lost, HumanEval/19; one gained, LeetCode 1277; docs/journal/2026-11.md, 2026-11-29)
    model_tests_max: int | None = 3
    answer_attempts: int = 3   # tries per structured answer before the run gives up (exit 3)
    # The defaults below are the benchmark's best per solved problem and token (docs/journal/2026-11.md).
    revise_adds_tests: bool = False  # Revise may add tests (up to max_tests), not only correct them
    trust_examples: bool = True     # the statement's worked examples become tests Revise may not change
    anchors: bool = True            # a revision that breaks a test its parent passed is rejected; keep the best
    feedback: str = "classified"    # "classified": one short line per failure kind; "plain": every result
    reflect: bool = False           # ReflectOnProblem before the tests and the code
    reflect_failures: bool = False  # ReflectOnFailure before each Revise
    explain: bool = False           # ExplainSolution once the run has ended: a few sentences on the final code
    samples: int = 3                # candidates per ImplementFunction / Revise step
    first_draw: int | None = 1      # candidates asked first in a run's first draw (with the oracle and judges); the
    #                                 rest of it only if these settle no claim (None: all `samples` at once)
    oracle: bool = True             # ImplementFunction also asks for a brute-force program (core/expected_values.py)
    agreement: bool = True          # model tests' expected values are settled by execution, not taken from the model
    validator: bool = True          # an input validator is asked where the statement promises something of its inputs
    #                                 (left out: LeetCode 162 and HumanEval/19 unconfirmed, not solved, in 60 replayed runs)
    max_draws: int = 4              # draws that bring a new program: a fresh draw when no candidate passes the trusted tests
    dispute_draws: int = 1          # fresh draws before claiming success while some inputs are disputed (more voters)
    #                                 (one: 21 runs of the newest records drew so, 6 claimed after it, 5 right; docs/journal/2026-11.md)
    confidence_draws: int = 2       # fresh draws before a claim that one program alone backs or whose confidence falls
    #                                 short of the threshold (core/round_verdict.unsure); each counts as a dispute draw
    revise_rounds: int | None = 0   # Revise rounds after the draws while no version passes the trusted tests (None or
    #                                 agreement off: no limit)
    # Four draws and no revision (issue 28): fresh samples found the rare right program (pass@k); of 44 revisions of
    # versions where no candidate passed the examples, in every benchmark record, 1 passed them, wrongly (docs/journal/2026-11.md)
    second_reading: bool = False    # before a claim, a brute force written from the statement's rules listed in words
    #                                 (nodes.ReadAgain): where it passes the examples and differs, no claim. Off: on the
    #                                 recent set's 19 claims (7 false) it differed on none, agreed with 2 false ones and
    #                                 had no say on 12 (docs/journal/2026-12.md, issue 86)
    variants: int = 16              # inputs made by small changes to the tests' inputs, settled by execution alone (core/variants.py)
    parallel: int | None = None     # model requests sent at once (None: what the endpoint takes, else one per candidate and the oracle)
    search: str = "uct"             # which attempt Revise works on next: latest, best, uct, thompson
    max_calls: int | None = None    # model calls in all; checked before every request
    time_limit: float | None = None  # seconds for the run (--time-limit), the embedded model's start aside
    speed_limit: float | None = 10.0  # seconds a solution may take on the statement's largest input (core/largest_input.py); 0 or None: no check
    seed: int | None = None         # sampling seeds sent with every request (core/seeds.py), to repeat a run
    token_budget: int | None = None  # prompt + completion tokens in all; checked the same way
    docs: str = ""                  # the user's documentation (--docs), given to the model with the problem
    tests: tuple = ()               # the person's own tests (--tests FILE): trusted, like the statement's examples
    output_kind: str | None = None  # exact, unordered, float or any (several right answers); None: from the statement
    kind: str | None = None         # the problem's family: plain, tree, design or in-place (core/problem_kind.py); None: from the statement
    checker: str = ""               # the person's checker (--checker FILE): is_valid(<inputs>, output), trusted
    interactive: bool = False       # the person reviews the tests and each failed round (--interactive)
    allow_install: bool = False     # third-party imports are installed into the run's package folder
    lint: bool = True               # ruff findings go into the feedback and break ties between attempts
    calibration: str = ""           # a calibration refitted for another model (--calibration FILE, bench.calibrate); "":
    #                                 the shipped one, fitted on the embedded model's runs (core/confidence.py)
    limits: Limits = field(default_factory=Limits)
    isolation: str = "process"
    caller: Caller = Caller.CLI     # whose words the run's messages use for its options: the CLI's flags, or MCP's arguments

    def __post_init__(self):
        if self.caller not in tuple(Caller):  # first: every message below names options in its words
            raise SettingsError(f"caller must be one of {', '.join(Caller)}, not {self.caller!r}")
        object.__setattr__(self, "caller", Caller(self.caller))  # "mcp", as a record holds it, is Caller.MCP
        for name in ("max_iterations", "samples", "min_tests", "max_tests", "answer_attempts", "max_draws"):
            self._whole(name, getattr(self, name), 1, 1000)
        self._whole("dispute_draws", self.dispute_draws, 0, 1000)
        self._whole("confidence_draws", self.confidence_draws, 0, 1000)
        if self.first_draw is not None:
            self._whole("first_draw", self.first_draw, 1, self.samples)
        if self.model_tests_max is not None:
            self._whole("model_tests_max", self.model_tests_max, 1, 1000)
        if self.revise_rounds is not None:
            self._whole("revise_rounds", self.revise_rounds, 0, 1000)
        self._whole("variants", self.variants, 0, 1000)
        if self.parallel is not None:
            self._whole("parallel", self.parallel, 1, 64)
        if self.max_calls is not None:
            self._whole("max_calls", self.max_calls, *MAX_CALLS)
        if self.token_budget is not None:
            self._whole("token_budget", self.token_budget, 1, 10**9)
        if self.seed is not None:
            self._whole("seed", self.seed, 0, 2**31 - 1)
        if self.time_limit is not None:
            self._seconds("time_limit", self.time_limit, *TIME_LIMIT_S)
        self._seconds("test_timeout", self.limits.test_timeout, *TEST_TIMEOUT_S)
        if self.speed_limit is not None and (isinstance(self.speed_limit, bool) or self.speed_limit != 0):  # 0: no check
            self._seconds("speed_limit", self.speed_limit, 0.1, 600, " (0 or None: no check)")
        self._one_of("search", self.search, POLICIES)
        if self.output_kind is not None:
            self._one_of("output_kind", self.output_kind, OUTPUT_KINDS)
        if self.kind is not None:
            self._one_of("kind", self.kind, FAMILIES)
        self._one_of("feedback", self.feedback, FEEDBACK_KINDS)
        self._one_of("model_tests", self.model_tests, MODEL_TESTS)

    @property
    def tests_when_needed(self):
        """The model's tests wait until the first candidates settle no claim (they are asked before the next draw)."""
        return self.model_tests == "when-needed" and self.agreement and not self.interactive

    @property
    def embedded_slots(self):
        """The embedded server answers one request at a time unless --parallel says otherwise: on 2 cores
        that is as fast as several at once, and the candidates' shared prompt is read once (docs/local-model.md)."""
        return self.parallel or 1

    @property
    def requests_at_once(self):
        return self.parallel or self.model.concurrency or self.samples + int(self.oracle)

    def describe(self):
        """The settings as run.json records them: the model without its key, docs and tests by size."""
        plain = {item.name: getattr(self, item.name) for item in fields(self)
                 if item.name not in ("model", "docs", "tests", "limits", "isolation", "checker")}
        return {"model": self.model.describe(), **plain, "docs_chars": len(self.docs), "tests": len(self.tests),
                "checker_chars": len(self.checker),
                "sandbox": {"isolation": self.isolation, **vars(self.limits)}}

    def _whole(self, name, value, low, high):
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise SettingsError(f"{self.caller.option(name)} must be a whole number from {low:,} to {high:,}, not {value!r}")

    def _seconds(self, name, value, low, high, note=""):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
            raise SettingsError(f"{self.caller.option(name)} must be seconds from {low:,g} to {high:,}{note}, not {value!r}")

    def _one_of(self, name, value, choices):
        if value not in choices:
            raise SettingsError(f"{self.caller.option(name)} must be one of {', '.join(choices)}, not {value!r}")
