"""The closed vocabularies of codeloop's decisions and records, one Enum each.

A member *is* its plain string: it equals it, hashes, prints and formats as it and goes into JSON as
it, so run.json and the terminal read as they always did, while a misspelt member in the code is an
AttributeError instead of a verdict that silently never matches. (`class X(str, Enum)` alone prints
`X.MEMBER`; StrEnum does what `Word` does, but only from Python 3.11.) YAML needs a representer for
str subclasses: utils/yaml_answer.dump_yaml has it.
"""
from enum import Enum


class Word(str, Enum):
    def __str__(self):
        return self.value

    def __format__(self, spec):
        return format(self.value, spec)


class Origin(Word):
    """Who wrote a test: its input and, for the trusted ones, its expected value."""
    STATEMENT = "statement"  # a worked example of the problem statement
    USER = "user"            # the person's own (--tests, the library's tests=, an --interactive edit)
    MODEL = "model"          # the model's: an input and a guess; execution settles the expected value
    VARIANT = "variant"      # made from another test's input by a small change; programs alone settle it

    @property
    def trusted(self):
        return self in (Origin.STATEMENT, Origin.USER)


class Source(Word):
    """Where a test's expected value comes from (its evidence), strongest first; core/expected_values.py."""
    STATEMENT = "statement"
    USER = "user"
    ORACLE = "oracle"                  # the valid oracle and a candidate agree
    MAJORITY = "majority"              # a clear majority of the candidates that pass the trusted tests
    WITNESS = "witness"                # the one program passing the trusted tests, and one failing them that agrees
    CHECKER = "checker"                # several answers are right: the checker accepts an independent program's
    GUESS = "guess"                    # the one program that answered returns the model's guess
    SOLUTION_GUESS = "solution_guess"  # no program answered; the claimed code returns the guess
    MODEL = "model"                    # the model's word, taken as it is (--model-expected)
    DISPUTED = "disputed"              # no agreement: left out
    UNCHECKED = "unchecked"            # a variant fewer than two programs answered, or an input only the claim
    # answered where programs back it elsewhere (core/round_verdict.left_out_lone): left out
    REJECTED = "rejected"              # outside what the problem allows: dropped
    BROKEN_PROMISE = "broken_promise"  # breaks what the statement promises of its inputs: dropped

    @property
    def counted(self):
        """The verdict counts a test with this evidence."""
        return self not in (Source.DISPUTED, Source.UNCHECKED, Source.REJECTED, Source.BROKEN_PROMISE)

    @property
    def dropped(self):
        return self in (Source.REJECTED, Source.BROKEN_PROMISE)

    @property
    def backs_a_claim(self):
        """Evidence beyond the statement's examples: programs settled it, or the person wrote it."""
        return self in (Source.ORACLE, Source.MAJORITY, Source.WITNESS, Source.CHECKER, Source.USER)

    @property
    def by_programs(self):
        """Settled by programs agreeing: the model's word alone may not change it."""
        return self in (Source.ORACLE, Source.MAJORITY, Source.WITNESS, Source.CHECKER)


class Author(Word):
    """Which step wrote a version of the code (an attempt)."""
    IMPLEMENT = "implement"  # ImplementFunction: a candidate, an independent vote
    REVISE = "revise"        # Revise: a child of the attempt it revised
    USER = "user"            # the person's edit (--interactive)
    ORACLE = "oracle"        # ImplementFunction's brute-force program: settles values, never claims
    CHECKER = "checker"      # is_valid(<inputs>, output): judges outputs where several are right (core/checkers.py)
    VALIDATOR = "validator"  # is_valid_input(<inputs>): judges inputs against the statement's promises

    @property
    def answers(self):
        """Its outputs are answers to the problem (a judge's are verdicts on answers or inputs)."""
        return self not in (Author.CHECKER, Author.VALIDATOR)


class AttemptStatus(Word):
    NEW = "new"            # written, not yet judged
    KEPT = "kept"          # judged; may be revised or handed over
    REJECTED = "rejected"  # broke a test its parent passed (an anchor): never revised
    SOLVED = "solved"      # the version a solved run hands over
    ORACLE = "oracle"      # an oracle, once judged: it votes, and is never revised or handed over
    JUDGE = "judge"        # a checker or an input validator, once loaded: never revised or handed over


class RunStatus(Word):
    """How a run ended (run.json's status; app.EXIT_BY_STATUS maps each to an exit code)."""
    RUNNING = "running"
    SOLVED = "solved"
    UNSOLVED = "unsolved"
    UNCONFIRMED = "unconfirmed"    # passes every counted test, but inputs stay disputed or none is trusted
    STOPPED = "stopped"            # the person finished early (--interactive)
    UNTESTED = "untested"          # no tests to run: the code loads (the single-shot baseline, or all deleted)
    MODEL_FAILED = "model_failed"
    INTERRUPTED = "interrupted"
    ERROR = "error"


class Action(Word):
    """What a node's post returns: the edge the flow follows next (flow.py)."""
    DEFAULT = "default"
    SUCCESS = "success"          # a candidate passes every counted test, nothing disputed, a trusted test
    UNCONFIRMED = "unconfirmed"  # one does, but inputs stay disputed after the draws, or nothing is trusted
    REDRAW = "redraw"            # fresh candidates: none passes the trusted tests, or a success leaves disputes
    MORE_TESTS = "more_tests"    # a redraw while the model's own tests wait (settings.model_tests): those first
    FAILURE = "failure"          # revise the attempt the search policy chooses
    EXHAUSTED = "exhausted"      # the rounds, calls or tokens are spent
    UNTESTED = "untested"        # no tests left; the code loads
    MODEL_FAILED = "model_failed"
    FINISH = "finish"            # the person finished (--interactive)
    REVISE = "revise"            # the person asks the model to revise
    RERUN = "rerun"              # the tests or the code changed outside a draw (the person, the model's late tests): test again


class Caller(Word):
    """Who asked for the run, so that what codeloop says names an option as that caller gives it: a flag of the
    command line (the library's messages are the CLI's, codeloop.py) or an argument of an MCP tool. An agent
    told "--time-limit must be ..." looks for a flag it cannot pass."""
    CLI = "cli"
    MCP = "mcp"

    def option(self, name):
        """A Settings field as this caller names it: --max-calls, or max_calls."""
        return name if self is Caller.MCP else "--" + name.replace("_", "-")

    def give(self, name):
        """How this caller gives the option's value, for advice: --tests FILE, or the tests argument."""
        if self is Caller.MCP:
            return MCP_WAYS.get(name, f"the {name} argument")
        return self.option(name) + (" FILE" if name in ("tests", "checker") else "")


MCP_WAYS = {"checker": "run_tests and its checker argument"}  # solve takes no checker; run_tests judges with one
