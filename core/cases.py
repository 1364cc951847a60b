"""A test case and the evidence for its expected value: the records every rule of the verdict reads.

A TestCase is frozen: a step that changes one (execution settles its value, Revise corrects a guess)
makes a new one with `dataclasses.replace`, so no two holders of a case can disagree about it. The
run record, the exported tests and the library's Result see each as `record()`, the plain mapping
run.json has always held; `from_record` reads one back (the benchmark's replays of recorded runs).
"""
import json
from dataclasses import dataclass, replace

from core.vocabulary import Origin, Source

NO_GUESS = type("NoGuess", (), {"__repr__": lambda self: "NO_GUESS"})()  # a model's guess may be None itself


def input_key(inputs):
    """One test input as a key: the same arguments, in whatever order, are the same input."""
    return json.dumps(inputs, sort_keys=True)


@dataclass(frozen=True)
class Evidence:
    """Where an expected value comes from, and how many programs returned it of how many that answered."""
    source: Source
    agree: int = 0
    voters: int = 0

    @property
    def counted(self):
        return self.source.counted

    @property
    def backs_a_claim(self):
        """Evidence beyond the statement's examples: programs settled it or the person wrote it, or every
        program that answered returns the model's guess (uncontested: a tie the guess broke, in records
        before 2026-12-01, is not). TestCase.backs_a_claim adds where the guess came from."""
        return self.source.backs_a_claim or (self.source == Source.GUESS and self.agree == self.voters > 0)

    @property
    def split(self):
        """Programs settled it over a dissenting one: the oracle's side or a majority while another program
        that passes the trusted tests returned something else. Such a vote's value was right on 4 of 16
        inputs (3 of 4, the oracle in it) where a unanimous one's was on 404 of 408, and the claims resting
        on one were false 5 times in 7 (bench.vote_accuracy at 97a7d49, docs/journal/2026-11.md): it backs no claim."""
        return self.source in (Source.ORACLE, Source.MAJORITY) and self.agree < self.voters

    def record(self):
        return {"source": self.source, "agree": self.agree, "voters": self.voters, "counted": self.counted}

    @classmethod
    def from_record(cls, data):
        return cls(Source(data["source"]), data.get("agree", 0), data.get("voters", 0))


@dataclass(frozen=True)
class TestCase:
    __test__ = False  # for pytest: a record, not a test class

    name: str
    input: dict
    expected: object
    origin: Origin
    guess: object = NO_GUESS      # the model's own expected value, kept once execution settles another
    evidence: Evidence | None = None  # None until a round has settled it
    revised: str | None = None    # Revise's reasoning, when it corrected or added this test

    @property
    def key(self):
        return input_key(self.input)

    @property
    def trusted(self):
        return self.origin.trusted

    @property
    def is_variant(self):
        """An input made by changing a given one (core/variants.py): no guess, only programs settle it."""
        return self.origin == Origin.VARIANT

    @property
    def model_guess(self):
        """What the model said the expected value is (its `expected` until execution settled another)."""
        return self.expected if self.guess is NO_GUESS else self.guess

    @property
    def source(self):
        return self.evidence.source if self.evidence else None

    @property
    def lone(self):
        """A written test left out because only the claimed code answered it (core/round_verdict.left_out_lone,
        Verdict.lone): `unchecked` as a variant fewer than two programs answered is, but not a variant."""
        return self.source == Source.UNCHECKED and not self.is_variant

    @property
    def backs_a_claim(self):
        """Whether this test backs a claim beyond the statement's examples (Evidence.backs_a_claim). A guess
        does only as GenerateTestCases wrote it, before any code: candidates see only the statement's
        examples, so a candidate returning it is a second, independent reading of the statement; a value
        Revise wrote has seen the code's outputs. Uncontested guesses were right in 6 of 6 claims that
        nothing else backed (docs/journal/2026-11.md, issue 27), later in 12 of 14 records; for those made before
        the rest of a short first draw came, 5 of 7 (core/round_verdict.backs)."""
        return bool(self.evidence and self.counted and self.evidence.backs_a_claim
                    and not (self.source == Source.GUESS and self.revised is not None))

    @property
    def counted(self):
        """Whether the verdict counts it: every test, unless execution left its value disputed or unchecked."""
        return self.evidence.counted if self.evidence else True

    @property
    def split(self):
        """A counted value programs settled over a dissenting one (Evidence.split): it backs no claim."""
        return bool(self.evidence and self.counted and self.evidence.split)

    @property
    def protected(self):
        """A test the model may not change: trusted, settled by programs agreeing, a variant input (only
        programs settle those: a Revise that rewrote every test turned 16 of them into guesses), or a confirmed
        guess."""
        return self.trusted or self.agreed or self.is_variant

    @property
    def agreed(self):
        """Running programs agree on its value: settled by programs agreeing, or a confirmed guess."""
        return bool(self.evidence and self.evidence.source.by_programs) or self.confirmed_guess

    @property
    def confirmed_guess(self):
        """The model's guess, written before any code, that an independent program returned: two readings of the
        statement agreeing. Revise, which has seen the code's outputs, changed such a value 15 times in the
        bench's records on this machine, each right before and 12 wrong after, bent to the code it revised
        (LeetCode 2579; in older records one went the other way, HumanEval/140; docs/journal/2026-11.md): the
        model's word alone may not change it."""
        return bool(self.evidence and self.source == Source.GUESS and self.evidence.agree > 0 and self.revised is None)

    def settled(self, evidence, expected):
        """This test with execution's evidence, and the settled value when the evidence counts."""
        return replace(self, evidence=evidence, expected=expected if evidence.counted else self.expected)

    def record(self):
        data = {"name": self.name, "input": self.input, "expected": self.expected, "origin": self.origin}
        if self.guess is not NO_GUESS:
            data["guess"] = self.guess
        if self.revised is not None:
            data["revised"] = self.revised
        if self.evidence is not None:
            data["evidence"] = self.evidence.record()
        return data

    @classmethod
    def from_record(cls, data):
        evidence = data.get("evidence")
        return cls(data["name"], data["input"], data["expected"], Origin(data.get("origin") or Origin.MODEL),
                   data.get("guess", NO_GUESS), evidence and Evidence.from_record(evidence), data.get("revised"))


def records(cases):
    return [case.record() for case in cases]


def has_trusted(cases):
    """Whether any test's expected value comes from the statement or the person (not programs or the model)."""
    return any(case.trusted for case in cases)


def trusted_name(cases):
    """What the trusted tests are called in messages: the statement's examples, unless the person added some."""
    return "trusted tests" if any(case.origin == Origin.USER for case in cases) else "statement examples"


def unique_names(cases):
    """The cases, a repeated name made unique by its position (names identify tests in feedback and ids)."""
    seen, named = set(), []
    for i, case in enumerate(cases, 1):
        name = case.name if case.name not in seen else f"{case.name}_{i}"
        seen.add(name)
        named.append(replace(case, name=name))
    return named
