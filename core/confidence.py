"""How likely the code a run hands over is right: the programs that behave like it, weighed by labelled runs.

A small model's programs that agree can share a misreading, yet on recent LeetCode problems (issue 94) what the
run's other programs do is the evidence that tells right from wrong: how many of the independent programs that pass
the statement's examples return what the code handed over returns on every other input, how many return otherwise,
whether the oracle and the run's first (plain) candidate are among them, how many programs failed an example. The
verdict's own rules (core/round_verdict.py) decide whether a claim may be made at all; the confidence decides
whether it is made.

`evidence(programs, tests, handed, comparison)` is pure and reads only programs' outputs, so a live run (its
AttemptTree) and a finished run's record (its programs run again: bench/calibrate.py) give the same numbers.
`Calibration.confidence(evidence)` is a logistic model over a few of `Evidence.features()`, each with a direction
fixed before fitting (SIGNS), fitted by `python -m bench.calibrate` with problem-grouped cross-validation; the
calibration also holds what its held-out runs showed (the threshold's precision, the bands' shares), which is all a
run's last line and the README may say of it.

Run alone on a finished run:  python -m core.confidence RUN_DIR/run.json
"""
import json
import math
import os
import sys
from dataclasses import dataclass, field

from core.compare import EXACT, outputs_match
from core.source_code import program_key

SHIPPED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "calibration.json")
INDEPENDENT = ("implement", "oracle", "user")  # programs written afresh from the statement; a revision is its parent's
SIGNS = {  # each feature's direction, fixed before any fit: +1 the more of it the likelier right, -1 the less
    "passes_examples": +1,   # the code handed over passes every trusted test (a statement example, the person's)
    "agreeing": +1,          # log2(1 + the other independent programs passing them that behave like it)
    "dissent_share": -1,     # of the independent programs passing them, the share that behaves otherwise
    "oracle_agrees": +1,     # the oracle passes them and behaves like it
    "first_agrees": +1,      # the run's first candidate (asked as one plain request) passes them and behaves like it
    "failed_share": -1,      # of the independent programs, the share failing a trusted test
}


class CalibrationError(Exception):
    """A calibration file that cannot be used: the message names the file and what is wrong, in one line."""


@dataclass(frozen=True)
class Program:
    """A program of the run as the confidence sees it: who wrote it, its text's key, and what it returned."""
    id: int
    source: str            # core.vocabulary.Author: implement, oracle, revise, user
    code: str
    outputs: dict          # input key -> sandbox result (ok, value, error_type, timed_out)
    verdicts: dict | None = None  # input key -> passed, where a checker judged outputs (several answers right): then
    #                               programs agree where the checker's verdicts agree, not where their outputs are equal


@dataclass(frozen=True)
class Test:
    """A test as the confidence sees it: its input's key, and the expected value where it is trusted."""
    __test__ = False  # for pytest: a record, not a test class
    key: str
    trusted: bool
    expected: object = None


@dataclass(frozen=True)
class Evidence:
    """What the run's programs say of the code handed over. Programs count once by text (core/source_code's
    program_key: a copy with names changed is no second program); revisions are not independent of their parent."""
    passes: bool = False   # it passes every trusted test
    agreeing: int = 0      # other independent programs passing the trusted tests that behave like it everywhere
    dissenting: int = 0    # independent programs passing the trusted tests that return otherwise on an input
    failed: int = 0        # independent programs failing a trusted test
    oracle: bool = False   # the oracle is among the agreeing (or is the code handed over)
    first: bool = False    # the run's first candidate is among the agreeing (or is the code handed over)
    inputs: int = 0        # inputs beyond the trusted tests the code answered, on which the agreement was seen
    trusted: int = 0       # trusted tests

    def features(self):
        independent = self.agreeing + self.dissenting + self.failed + (1 if self.passes else 0)
        passing = self.agreeing + self.dissenting + 1
        return {"passes_examples": float(self.passes),
                "agreeing": math.log2(1 + self.agreeing) if self.passes else 0.0,
                "dissent_share": self.dissenting / passing if self.passes else 0.0,
                "oracle_agrees": float(self.passes and self.oracle),
                "first_agrees": float(self.passes and self.first),
                "failed_share": self.failed / independent if independent else 0.0}

    @property
    def alone(self):
        """No second independent program passing the trusted tests behaves like it: a claim would rest on one."""
        return self.agreeing == 0

    def words(self):
        """What the confidence rests on, in a person's words: '4 of 5 programs agree, the oracle among them'."""
        if not self.passes:
            return "it fails a statement example" if self.trusted else "no statement example to check it on"
        passing = self.agreeing + self.dissenting + 1
        among = [name for name, yes in (("the oracle", self.oracle), ("the first candidate", self.first)) if yes]
        if passing == 1:
            said = "it is the only program passing the examples"
        elif not self.agreeing:
            said = (f"none of the {self.dissenting} other program{'s' * (self.dissenting > 1)} passing the examples "
                    "returns what it returns")
        else:
            said = f"{self.agreeing + 1} of {passing} programs passing the examples agree"
            if among:
                said += f", {' and '.join(among)} among them"
        if self.failed:
            said += f"; {self.failed} more failed an example"
        return said

    def record(self):
        return {"passes": self.passes, "agreeing": self.agreeing, "dissenting": self.dissenting, "failed": self.failed,
                "oracle": self.oracle, "first": self.first, "inputs": self.inputs, "trusted": self.trusted}


def floored(value):
    """A confidence as printed: cut to two decimals, never rounded up (to a threshold it falls short of)."""
    return math.floor(value * 100) / 100


def same_answer(one, other, comparison=EXACT):
    """Two results of one input: True the same value, False another value, None unknown: one raised (the input may
    break what the statement promises, as the verdict reads a variant a program raised on) or timed out (on a loaded
    machine every slow program times out alike)."""
    if one.get("ok") and other.get("ok"):
        return outputs_match(one.get("value"), other.get("value"), comparison)
    return None


def passes_trusted(program, trusted, comparison=EXACT):
    if program.verdicts is not None:
        return bool(trusted) and all(program.verdicts.get(test.key) for test in trusted)
    results = [program.outputs.get(test.key) for test in trusted]
    return bool(trusted) and all(r is not None and r.get("ok") and outputs_match(r.get("value"), test.expected, comparison)
                                 for r, test in zip(results, trusted))


def behaves_like(one, other, keys, comparison=EXACT):
    """No input of `keys` both ran on where they return different values, and one at least where they return the
    same (unless neither returned on any)."""
    if one.verdicts is not None and other.verdicts is not None:
        return all(one.verdicts[key] == other.verdicts[key] for key in keys if key in one.verdicts and key in other.verdicts)
    found = [same_answer(one.outputs[key], other.outputs[key], comparison)
             for key in keys if key in one.outputs and key in other.outputs]
    # at least one input both answered alike, where either answered any: raising everywhere agrees with nothing
    answered = any((one.outputs.get(key) or {}).get("ok") or (other.outputs.get(key) or {}).get("ok") for key in keys)
    return False not in found and (True in found or not answered)


def evidence(programs, tests, handed, comparison=EXACT):
    """The Evidence of the code handed over (`handed`, a Program id) among the run's `programs`, on `tests`."""
    trusted = [test for test in tests if test.trusted]
    others = [test.key for test in tests if not test.trusted]
    mine = next((p for p in programs if p.id == handed), None)
    if mine is None:
        return Evidence(trusted=len(trusted))
    keys, independent, first = {program_key(mine.code)}, [], None
    for program in sorted(programs, key=lambda p: p.id):
        if program.source not in INDEPENDENT:
            continue
        first = first or (program if program.source == "implement" else None)
        key = program_key(program.code)
        if key not in keys:
            keys.add(key)
            independent.append(program)
    passes = passes_trusted(mine, trusted, comparison)  # without a trusted test the calibration has nothing to go by
    passing = [p for p in independent if passes_trusted(p, trusted, comparison)]
    alike = [p for p in passing if behaves_like(p, mine, others, comparison)]
    mine_key = program_key(mine.code)

    def agrees(source):
        if mine.source == source:
            return True
        return any(p.source == source for p in alike)

    first_agrees = first is not None and (program_key(first.code) == mine_key or first in alike)
    return Evidence(passes=passes, agreeing=len(alike), dissenting=len(passing) - len(alike),
                    failed=len(independent) - len(passing), oracle=passes and agrees("oracle"),
                    first=passes and first_agrees,
                    inputs=sum(1 for key in others if (mine.outputs.get(key) or {}).get("ok")), trusted=len(trusted))


def logistic(score):
    """1 / (1 + e^-score), the score clamped so that no weight overflows it."""
    return 1 / (1 + math.exp(-max(-50.0, min(50.0, score))))


@dataclass(frozen=True)
class Calibration:
    """A logistic model over `Evidence.features()` and the confidence a claim needs. `model` names the model whose
    runs it was fitted on; `held_out` is what problem-grouped cross-validation showed of it (the threshold's claims,
    the bands of confidence with their runs and right ones), the only numbers a run may quote."""
    model: str
    weights: dict
    intercept: float
    threshold: float
    held_out: dict = field(default_factory=dict)
    fitted_on: dict = field(default_factory=dict)
    path: str = SHIPPED
    failing: float = 0.01  # code failing a trusted test: the share of such runs that were right (about none)

    def confidence(self, values):
        if not values["passes_examples"]:
            return self.failing
        return logistic(self.intercept + sum(weight * values[name] for name, weight in self.weights.items()))

    def band(self, value):
        """The held-out band a confidence falls in: {low, high, runs, right}, or None."""
        return next((band for band in self.held_out.get("bands") or []
                     if band["low"] <= value < band["high"] or value == band["high"] == 1.0), None)

    def record(self):
        return {"model": self.model, "weights": self.weights, "intercept": self.intercept, "failing": self.failing,
                "threshold": self.threshold, "held_out": self.held_out, "fitted_on": self.fitted_on}


def load(path=None):
    """The calibration in `path` (default: the shipped one); CalibrationError says in one line what is wrong."""
    path = path or SHIPPED
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except OSError as exc:
        raise CalibrationError(f"calibration {path}: cannot read it ({exc.strerror or exc})") from None
    except ValueError as exc:
        raise CalibrationError(f"calibration {path}: not JSON ({exc})") from None
    try:
        weights = {str(name): float(value) for name, value in data["weights"].items()}
        calibration = Calibration(str(data["model"]), weights, float(data["intercept"]), float(data["threshold"]),
                                  dict(data.get("held_out") or {}), dict(data.get("fitted_on") or {}), path,
                                  float(data.get("failing", 0.01)))
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise CalibrationError(f"calibration {path}: needs model, weights (name: number), intercept and threshold "
                               f"({type(exc).__name__}: {exc})") from None
    unknown = sorted(set(weights) - set(SIGNS))
    if unknown:
        raise CalibrationError(f"calibration {path}: unknown feature {unknown[0]!r}; known: {', '.join(SIGNS)}")
    if not 0 < calibration.threshold <= 1 or not 0 <= calibration.failing <= 1 or \
            not all(map(math.isfinite, [calibration.intercept, *weights.values()])):
        raise CalibrationError(f"calibration {path}: the threshold must lie in (0, 1] and every number be finite")
    return calibration


@dataclass(frozen=True)
class Confidence:
    """What a run says of its ending: how likely the code handed over is right, what that rests on, whether it is
    enough to claim it, and how often runs scored alike were right on held-out problems. `elsewhere` names the model
    the calibration was fitted on when the run used another; `claimed` is whether the verdict claimed the code."""
    value: float
    threshold: float
    evidence: Evidence
    features: dict
    calibration: str
    elsewhere: str | None = None
    band: dict | None = None       # the held-out band of `value`: {low, high, runs, right}
    claimed: bool = False

    @property
    def enough(self):
        return self.value >= self.threshold

    @property
    def shown(self):
        """The value as printed: two decimals, never rounded up to a threshold it falls short of."""
        return floored(self.value)

    @property
    def reading(self):
        """The band's held-out share right in a word: likely right (two thirds or more), likely wrong (a third or
        less), else uncertain; '' without a band of 10 runs or more to say it."""
        if not self.band or self.band.get("runs", 0) < 10:
            return ""
        share = self.band["right"] / self.band["runs"]
        return "likely right" if share >= 2 / 3 else "likely wrong" if share <= 1 / 3 else "uncertain"

    def words(self):
        """'confidence 0.78, likely right (3 of 3 programs passing the examples agree, the oracle among them; 30 of 41
        held-out runs scored 0.7-0.9 were right)'."""
        fitted = f"; fitted on {self.elsewhere}'s runs" if self.elsewhere else ""
        held = f"; {self.likelihood()}" if self.likelihood() and not self.elsewhere else ""
        reading = f", {self.reading}" if self.reading and not self.elsewhere else ""
        return f"confidence {self.shown:.2f}{reading} ({self.evidence.words()}{held}{fitted})"

    def likelihood(self):
        """The held-out runs scored like this one and how many were right, in words; '' without such a band."""
        if not self.band or not self.band.get("runs"):
            return ""
        return (f"{self.band['right']} of {self.band['runs']} held-out runs scored {self.band['low']:.1f}-"
                f"{self.band['high']:.1f} were right")

    def record(self):
        return {"value": round(self.value, 4), "threshold": self.threshold, "enough": self.enough,
                "claimed": self.claimed, "reading": self.reading, "words": self.evidence.words(),
                "backed_by": "" if self.elsewhere else self.likelihood(),
                "evidence": self.evidence.record(), "features": self.features, "calibration": self.calibration,
                "fitted_for": self.elsewhere, "band": self.band}


def weigh(calibration, found, model=None, claimed=False):
    """The Confidence of an ending's Evidence by `calibration`; `model` the run's own model; `claimed` whether the
    verdict claimed the code."""
    values = found.features()
    elsewhere = calibration.model if model and model != calibration.model else None
    value = calibration.confidence(values)
    return Confidence(value, calibration.threshold, found, values, calibration.path, elsewhere, calibration.band(value),
                      claimed)


def programs_of_attempts(attempts, tests=(), by_checker=False):
    """The Programs of an AttemptTree (core/search_tree.py): every attempt whose outputs answer the problem; with
    `by_checker` (several answers right, a checker in use) each carries its verdicts on `tests` (core.cases.TestCase)."""
    keys = {case.name: case.key for case in tests}

    def verdicts(attempt):
        if not by_checker or attempt.results is None:
            return None
        return {keys[r["name"]]: bool(r["passed"]) for r in attempt.results if r.get("name") in keys}
    return [Program(a.id, str(a.source), a.code, dict(a.outputs), verdicts(a)) for a in attempts
            if str(a.source) in INDEPENDENT + ("revise",) and a.code]


def tests_of(cases):
    """The Tests of core.cases.TestCase objects."""
    return [Test(case.key, bool(case.trusted), case.expected if case.trusted else None) for case in cases]


def evidence_of_attempts(attempts, cases, handed, comparison=EXACT, by_checker=False):
    """`evidence` of a live run: its AttemptTree and core.cases.TestCase objects (the verdict, the ending and the
    second reading all weigh the same programs the same way)."""
    return evidence(programs_of_attempts(attempts, cases, by_checker), tests_of(cases), handed, comparison)


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: python -m core.confidence RUN_DIR/run.json [CALIBRATION.json]")
    with open(sys.argv[1], encoding="utf-8") as f:
        final = (json.load(f).get("final") or {}).get("confidence") or {}
    if not final.get("evidence"):
        sys.exit(f"{sys.argv[1]}: no evidence recorded (a run before issue 94): python -m bench.calibrate runs it again")
    calibration = load(sys.argv[2] if len(sys.argv) == 3 else None)
    found = Evidence(**final["evidence"])
    for name, value in found.features().items():
        print(f"{name:>16} {value:6.3f}  x {calibration.weights.get(name, 0.0):+.3f}")
    print(f"{found.words()}\nconfidence {calibration.confidence(found.features()):.3f} "
          f"(a claim needs {calibration.threshold:.3f})")
