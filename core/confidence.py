"""How likely the code a run hands over is right: its evidence, weighed by a model fitted on labelled runs.

Agreement between programs one model wrote says little where that model misread the statement: on recent
LeetCode problems most false claims rested on programs sharing one reading. So a claim needs, besides the
verdict's rules (core/round_verdict.py), a confidence at or above the threshold that held 95 % precision on
the runs the calibration was fitted on (`bench.calibrate`, which writes the shipped `core/calibration.json`).

`features(status, tests, attempts, current)` reads only what run.json's `final` holds (the tests' records
with their evidence, the attempts' records, the attempt handed over), so a finished run's record gives the
same numbers the live run computed, and old records can be refitted. `Calibration.confidence(features)` is
a logistic model over them (Platt scaling: Spiess et al., ICSE 2025, found code models' own confidence
usable once fitted this way on labelled runs).

Run alone on a finished run:  python -m core.confidence runs/<run>/run.json
"""
import json
import math
import os
import sys
from dataclasses import dataclass, field

SHIPPED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "calibration.json")
BY_PROGRAMS = ("oracle", "majority", "witness", "checker")
GUESSED = ("guess", "solution_guess")
TRUSTED = ("statement", "user")
LEFT_OUT = ("disputed", "unchecked")


class CalibrationError(Exception):
    """A calibration file that cannot be used: the message names the file and what is wrong, in one line."""


def features(status, tests, attempts, current, second_reading=None):
    """The evidence of a run's ending as numbers. `status` is how the verdict would end the run before the
    confidence is weighed (run.json's status in records made before the confidence existed); `tests` and
    `attempts` are run.json's `final.test_cases` and `final.attempts`; `current` the id of the attempt handed over;
    `second_reading` what nodes.ReadAgain found (`final.second_reading`: agrees, differs, no_say, none; None: not asked)."""
    handed = next((a for a in attempts if a.get("id") == current), None)
    counted = [t for t in tests if (t.get("evidence") or {}).get("counted", True)]
    beyond = [t.get("evidence") or {} for t in counted if t.get("origin") not in TRUSTED]
    settled = [e for e in beyond if e.get("source") in BY_PROGRAMS + GUESSED]
    agreeing = max((e.get("agree", 0) for e in settled), default=0)
    passes = bool(handed and handed.get("total") and handed.get("passed") == handed.get("total"))
    examples = sum(t.get("origin") in TRUSTED for t in tests)
    candidates = sum(a.get("source") == "implement" for a in attempts)
    oracle = any(e.get("source") == "oracle" for e in settled)
    return {
        "claimed": float(status == "solved"),
        "passes_counted": float(passes),
        "passes_examples": float(bool(handed and handed.get("trusted_total")
                                      and handed.get("trusted_passed") == handed.get("trusted_total"))),
        "examples": float(min(examples, 4)),
        "settled_inputs": math.log1p(len(settled)),
        "agreeing_programs": float(min(agreeing, 4)),
        "oracle_backs": float(oracle),
        "guess_only": float(bool(settled) and all(e.get("source") in GUESSED for e in settled)),
        "split": float(any(e.get("source") in ("oracle", "majority") and e.get("agree", 0) < e.get("voters", 0)
                           for e in settled)),
        "left_out": math.log1p(sum((t.get("evidence") or {}).get("source") in LEFT_OUT for t in tests
                                   if t.get("origin") != "variant")),
        "draws": float(min(candidates, 12)),
        # the run's first candidate and the oracle settled it, no other candidate needed: on the calibration half of
        # the recent set (issue 86) the only evidence that ranked right claims above false ones when each run was
        # left out of the fit in turn; an oracle backing a candidate drawn after others failed was wrong 2 times in 2
        "one_candidate": float(candidates <= 1),
        "oracle_first": float(oracle and candidates <= 1),
        "oracle_handed_over": float(bool(handed and handed.get("source") == "oracle")),
        "second_reading": {"agrees": 1.0, "differs": -1.0}.get(second_reading, 0.0),
    }


def logistic(score):
    """1 / (1 + e^-score), the score clamped so that no weight overflows it."""
    return 1 / (1 + math.exp(-max(-50.0, min(50.0, score))))


def recorded_features(run):
    """The features of a finished run from its run.json (a dict): those stored with its confidence, else (a record
    made before the confidence existed) computed from its final state."""
    final = run["final"]
    stored = (final.get("confidence") or {}).get("features")
    return stored or features(run.get("status"), final.get("test_cases") or [], final.get("attempts") or [],
                              final.get("attempt"), final.get("second_reading"))


@dataclass(frozen=True)
class Calibration:
    """A logistic model over `features`, and the confidence a claim needs. `model` names the model whose runs it
    was fitted on; `fitted_on` says which runs (records, split seed, counts), for the record and the README."""
    model: str
    weights: dict
    intercept: float
    threshold: float
    fitted_on: dict = field(default_factory=dict)
    path: str = SHIPPED

    def confidence(self, values):
        return logistic(self.intercept + sum(weight * values[name] for name, weight in self.weights.items()))

    def record(self):
        return {"model": self.model, "weights": self.weights, "intercept": self.intercept,
                "threshold": self.threshold, "fitted_on": self.fitted_on}


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
    known = features("solved", [], [], None)
    try:
        weights = {str(name): float(value) for name, value in data["weights"].items()}
        calibration = Calibration(str(data["model"]), weights, float(data["intercept"]), float(data["threshold"]),
                                  dict(data.get("fitted_on") or {}), path)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise CalibrationError(f"calibration {path}: needs model, weights (name: number), intercept and threshold "
                               f"({type(exc).__name__}: {exc})") from None
    unknown = sorted(set(weights) - set(known))
    if unknown:
        raise CalibrationError(f"calibration {path}: unknown feature {unknown[0]!r}; known: {', '.join(known)}")
    if not 0 < calibration.threshold <= 1 or not all(map(math.isfinite, [calibration.intercept, *weights.values()])):
        raise CalibrationError(f"calibration {path}: the threshold must lie in (0, 1] and every number be finite")
    return calibration


@dataclass(frozen=True)
class Confidence:
    """What a run says of its ending: how likely the code handed over is right, and whether that is enough to
    claim it. `elsewhere` names the model the calibration was fitted on when the run used another."""
    value: float
    threshold: float
    features: dict
    calibration: str
    elsewhere: str | None = None

    @property
    def enough(self):
        return self.value >= self.threshold

    def words(self):
        fitted = f", fitted on {self.elsewhere}'s runs" if self.elsewhere else ""
        return f"confidence {self.value:.2f}{fitted}"

    def record(self):
        return {"value": round(self.value, 4), "threshold": self.threshold, "enough": self.enough,
                "features": self.features, "calibration": self.calibration, "fitted_for": self.elsewhere}


def weigh(calibration, status, tests, attempts, current, second_reading=None, model=None):
    """The Confidence of an ending (`features`' arguments) by `calibration`; `model` the run's own model."""
    values = features(status, tests, attempts, current, second_reading)
    elsewhere = calibration.model if model and model != calibration.model else None
    return Confidence(calibration.confidence(values), calibration.threshold, values, calibration.path, elsewhere)


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: python -m core.confidence RUN_DIR/run.json [CALIBRATION.json]")
    with open(sys.argv[1], encoding="utf-8") as f:
        run = json.load(f)
    values = recorded_features({**run, "final": run.get("final") or {}})
    calibration = load(sys.argv[2] if len(sys.argv) == 3 else None)
    for name, value in values.items():
        print(f"{name:>20} {value:6.3f}  x {calibration.weights.get(name, 0.0):+.3f}")
    print(f"confidence {calibration.confidence(values):.3f} (a claim needs {calibration.threshold:.2f})")
