"""python -m bench.calibrate: fit the confidence a run reports (core/confidence.py) on labelled runs, and say how it
holds on runs it was not fitted on.

Labelled runs are bench folders of the `full` strategy: every result line holds the hidden tests' verdict
(`hidden_pass`) and names its run.json. A run's evidence is computed by today's code, never read from what the run
stored: every program of its record is run again in the sandbox on the run's test inputs, under the run's own time
limits, and core/confidence.evidence reads the outputs (kept in the folder's `programs.jsonl`, so a refit runs again
only what it has not run). Problem-grouped cross-validation, repeated over fold seeds, gives every run a confidence
from a fit that never saw its problem; from those held-out confidences come the AUC among runs whose code passes the
statement's examples (with a problem-bootstrap interval), the reliability table (each band's Wilson interval), the
precision and coverage of claims at each threshold (Wilson lower bounds) and the threshold, chosen from the held-out
lower bound of precision; the precision at a threshold chosen that way, on folds it was not chosen on, is estimated by
nested cross-validation. `--write` fits on every run and ships that threshold with the held-out numbers.

    python -m bench.calibrate --records DIR [DIR ...]                      # writes nothing
    python -m bench.calibrate --records DIR [DIR ...] --write core/calibration.json

A record without hidden verdicts, a run.json that does not read or whose evidence cannot be computed, ends with one
line naming it (exit 2), and nothing is written; the file is written whole or not at all.
"""
import argparse
import hashlib
import json
import math
import os
import random
import sys
from datetime import date
from pathlib import Path

from bench.harness import contract_of_record, limits_of_record
from core.cases import input_key
from core.compare import Comparison
from core.confidence import SIGNS, Calibration, Program, Test, evidence, floored, logistic
from core.vocabulary import Author
from utils.sandbox import best_isolation, run_batch
from utils.text_files import write_atomically

FEATURES = tuple(name for name in SIGNS if name != "passes_examples")  # fitted among runs passing the examples
L2 = 1.0                 # ridge on the weights
FOLDS, REPEATS = 5, 20
PRECISION, LOWER = 0.90, 0.80   # a threshold's claims should be right this often, with this Wilson lower bound,
COVERAGE, FALLBACK = 0.40, 0.25  # claiming this share of the right answers (else the best lower bound at FALLBACK)
BANDS = (0.0, 0.1, 0.3, 0.5, 0.7, 0.9, 1.0)
CACHE = "programs.jsonl"


class RecordError(Exception):
    """A bench folder that cannot serve as labelled runs."""


# --- labelled runs, their evidence computed afresh

def labelled_runs(folders, strategy="full", isolation=None, say=None):
    """[{id, difficulty, model, right, claimed, evidence}] from the bench folders' result lines and run.json files."""
    runs = []
    for folder in map(Path, folders):
        results = folder / "results.jsonl"
        if not results.is_file():
            raise RecordError(f"{results}: no such file (a bench folder's results.jsonl)")
        cache = ProgramCache(folder / CACHE)
        for number, line in enumerate(results.read_text(encoding="utf-8").splitlines(), 1):
            try:
                row = json.loads(line)
            except ValueError as exc:
                raise RecordError(f"{results} line {number}: not JSON ({exc})") from None
            if row.get("strategy") != strategy:
                continue
            if row.get("hidden_pass") is None:
                raise RecordError(f"{results} line {number} ({row.get('id')}): no hidden verdict (hidden_pass), so it "
                                  "cannot label a run")
            path = folder / "runs" / Path(*Path(row.get("run_dir") or "").parts[-3:]) / "run.json"
            record = read_record(path, results, number)
            found, claimed = run_evidence(record, path, cache, isolation)
            runs.append({"id": row["id"], "difficulty": str(row.get("difficulty") or "").lower(),
                         "model": row.get("model") or "", "right": bool(row["hidden_pass"]), "claimed": claimed,
                         "evidence": found, "folder": folder.name})
            if say and len(runs) % 25 == 0:
                say(f"  {len(runs)} runs read")
        cache.save()
    if not runs:
        raise RecordError(f"no {strategy} runs in {', '.join(map(str, folders))}")
    return runs


def read_record(path, results, number):
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
        record["final"]["test_cases"], record["final"]["attempts"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise RecordError(f"{path} (line {number} of {results}): unreadable run record "
                          f"({type(exc).__name__}: {exc})") from None
    return record


def run_evidence(record, path, cache, isolation):
    """(Evidence of the code the run handed over, whether the verdict claimed it): its programs run again on its
    inputs. The verdict's claim is what the run's record says (before the confidence weighed it)."""
    final = record["final"]
    try:
        tests = [Test(input_key(case["input"]), case["origin"] in ("statement", "user"),
                      case.get("expected") if case["origin"] in ("statement", "user") else None)
                 for case in final["test_cases"]]
        inputs = {input_key(case["input"]): case["input"] for case in final["test_cases"]}
        attempts = [a for a in final["attempts"] if Author(a["source"]).answers and a.get("code")]
        kind = final.get("output_kind") or {}
        comparison = Comparison(any_order=kind.get("kind") == "unordered", tolerance=float(kind.get("tolerance") or 0.0))
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise RecordError(f"{path}: its evidence cannot be computed: the tests or attempts are not as run.json writes "
                          f"them ({type(exc).__name__}: {exc})") from None
    contract, limits = contract_of_record(record), limits_of_record(record)
    programs = []
    for attempt in attempts:
        outputs = cache.outputs(path, attempt["code"], inputs)
        if outputs is None:
            results = run_batch(attempt["code"], list(inputs.values()), limits, isolation or best_isolation(),
                                contract=contract) if inputs else []
            outputs = {key: {"ok": r["ok"], "value": r["value"] if r["ok"] else None, "error_type": r["error_type"],
                             "timed_out": bool(r.get("timed_out"))} for key, r in zip(inputs, results)}
            cache.keep(path, attempt["code"], inputs, outputs)
        programs.append(Program(attempt["id"], attempt["source"], attempt["code"], outputs))
    stored = final.get("confidence") or {}
    claimed = stored.get("claimed", (stored.get("features") or {}).get("claimed", record.get("status") == "solved"))
    return evidence(programs, tests, final.get("attempt"), comparison), bool(claimed)


class ProgramCache:
    """What each program of each run returned on the run's inputs, kept beside the records (programs.jsonl)."""

    def __init__(self, path):
        self.path, self.entries, self.added = path, {}, False
        if path.is_file():
            for line in path.read_text(encoding="utf-8").splitlines():
                try:
                    entry = json.loads(line)
                    self.entries[entry["key"]] = entry["outputs"]
                except (ValueError, KeyError, TypeError):
                    continue  # a line cut by an interruption: run again

    @staticmethod
    def key(path, code, inputs):
        digest = hashlib.sha256(json.dumps([str(path.parent.name), code, sorted(inputs)]).encode()).hexdigest()
        return digest[:32]

    def outputs(self, path, code, inputs):
        return self.entries.get(self.key(path, code, inputs))

    def keep(self, path, code, inputs, outputs):
        self.entries[self.key(path, code, inputs)], self.added = outputs, True

    def save(self):
        if self.added:
            write_atomically(str(self.path), "".join(json.dumps({"key": key, "outputs": outputs}) + "\n"
                                                     for key, outputs in self.entries.items()))


# --- the fit

def fit(runs, names=FEATURES, l2=L2, rounds=50):
    """Weights and intercept of a ridge logistic regression (Newton's method) of `right` on the features, each
    feature's weight of the sign SIGNS fixes: one fitted against its sign is dropped and the rest fitted again."""
    names = list(names)
    while True:
        weights, intercept = _logistic(runs, names, l2, rounds)
        wrong = [name for name in names if weights[name] * SIGNS[name] < 0]
        if not wrong:
            return weights, intercept
        names.remove(min(wrong, key=lambda name: weights[name] * SIGNS[name]))


def _logistic(runs, names, l2, rounds):
    rows = [[1.0] + [run["features"][name] for name in names] for run in runs]
    ys = [1.0 if run["right"] else 0.0 for run in runs]
    size = len(names) + 1
    w = [0.0] * size
    for _ in range(rounds):
        grad = [-(l2 * w[j] if j else 0.0) for j in range(size)]
        hess = [[(l2 if i == j and i else 0.0) for j in range(size)] for i in range(size)]
        for x, y in zip(rows, ys):
            p = logistic(sum(a * b for a, b in zip(w, x)))
            for i in range(size):
                grad[i] += (y - p) * x[i]
                for j in range(i, size):
                    hess[i][j] += p * (1 - p) * x[i] * x[j]
        for i in range(size):
            for j in range(i):
                hess[i][j] = hess[j][i]
        step = solve(hess, grad)
        w = [a + b for a, b in zip(w, step)]
        if max(map(abs, step)) < 1e-9:
            break
    return {name: round(value, 6) for name, value in zip(names, w[1:])}, round(w[0], 6)


def solve(matrix, vector):
    """x with matrix x = vector (Gaussian elimination with partial pivoting; the matrix is small and positive definite)."""
    n = len(vector)
    a = [row[:] + [vector[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        if abs(a[col][col]) < 1e-12:
            continue
        for r in range(n):
            if r != col:
                factor = a[r][col] / a[col][col]
                a[r] = [x - factor * y for x, y in zip(a[r], a[col])]
    return [a[i][n] / a[i][i] if abs(a[i][i]) >= 1e-12 else 0.0 for i in range(n)]


class Model:
    """A fitted confidence: the logistic among runs passing the examples, the held-out share right elsewhere."""

    def __init__(self, runs):
        passing = [run for run in runs if run["evidence"].passes]
        failing = [run for run in runs if not run["evidence"].passes]
        self.weights, self.intercept = fit([feature_row(run) for run in passing]) if passing else ({}, -5.0)
        self.failing = (sum(run["right"] for run in failing) + 0.5) / (len(failing) + 1)

    def score(self, run):
        if not run["evidence"].passes:
            return self.failing
        values = run["evidence"].features()
        return logistic(self.intercept + sum(weight * values[name] for name, weight in self.weights.items()))


def feature_row(run):
    return {"right": run["right"], "features": run["evidence"].features()}


# --- cross-validation

def folds(runs, count, seed):
    """{problem id: fold}: within each difficulty the sorted ids, shuffled by the seed, dealt round the folds."""
    fold_of, dealt = {}, 0
    for difficulty in sorted({run["difficulty"] for run in runs}):
        ids = sorted({run["id"] for run in runs if run["difficulty"] == difficulty})
        random.Random(seed).shuffle(ids)
        for pid in ids:
            if pid not in fold_of:
                fold_of[pid], dealt = dealt % count, dealt + 1
    return fold_of


def held_out(runs, count=FOLDS, repeats=REPEATS, seed=0):
    """Each run's mean confidence over `repeats` problem-grouped `count`-fold splits, from fits without its problem."""
    totals = [0.0] * len(runs)
    for repeat in range(repeats):
        fold_of = folds(runs, count, seed + repeat)
        for fold in range(count):
            model = Model([run for run in runs if fold_of[run["id"]] != fold])
            for i, run in enumerate(runs):
                if fold_of[run["id"]] == fold:
                    totals[i] += model.score(run)
    return [total / repeats for total in totals]


def auc(scores, labels):
    """The chance a right run scores above a wrong one (ties half), by ranks."""
    pairs = sorted(zip(scores, labels))
    ranks, i = [0.0] * len(pairs), 0
    while i < len(pairs):
        j = i
        while j < len(pairs) and pairs[j][0] == pairs[i][0]:
            j += 1
        for k in range(i, j):
            ranks[k] = (i + j + 1) / 2
        i = j
    right = sum(label for _, label in pairs)
    wrong = len(pairs) - right
    if not right or not wrong:
        return float("nan")
    return (sum(rank for rank, (_, label) in zip(ranks, pairs) if label) - right * (right + 1) / 2) / (right * wrong)


def bootstrap_auc(runs, scores, draws=1000, seed=94):
    """A 95 % interval of the AUC, problems drawn with replacement (a problem's runs go together)."""
    by_problem = {}
    for run, score in zip(runs, scores):
        by_problem.setdefault(run["id"], []).append((score, run["right"]))
    ids, rng, values = sorted(by_problem), random.Random(seed), []
    for _ in range(draws):
        sample = [pair for pid in (rng.choice(ids) for _ in ids) for pair in by_problem[pid]]
        value = auc([s for s, _ in sample], [r for _, r in sample])
        if not math.isnan(value):
            values.append(value)
    values.sort()
    if not values:
        return float("nan"), float("nan")
    return values[int(0.025 * len(values))], values[min(len(values) - 1, int(0.975 * len(values)))]


def wilson(successes, total, z=1.96):
    """The Wilson score interval of a proportion (95 %)."""
    if not total:
        return (0.0, 1.0)
    p = successes / total
    centre = (p + z * z / (2 * total)) / (1 + z * z / total)
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / (1 + z * z / total)
    return (max(0.0, centre - half), min(1.0, centre + half))


def claims(runs, scores, threshold):
    """The runs claimed at `threshold`: the verdict claimed them, a second program backs them, the confidence reaches it."""
    return [run for run, score in zip(runs, scores) if run["claimed"] and not run["evidence"].alone and score >= threshold]


def curve(runs, scores):
    """[(threshold, claims, right, coverage of the right runs)] at each claimable run's held-out score cut to two
    decimals: a confidence prints floored to two decimals (core.confidence.Confidence.shown), so on these thresholds
    a run reaches the threshold exactly when its printed confidence does, and one that falls short never prints as
    the number a claim needs."""
    total_right = sum(run["right"] for run in runs) or 1
    points = []
    for threshold in sorted({floored(s) for run, s in zip(runs, scores)
                             if run["claimed"] and not run["evidence"].alone}, reverse=True):
        made = claims(runs, scores, threshold)
        right = sum(run["right"] for run in made)
        points.append((threshold, len(made), right, right / total_right))
    return points


def choose_threshold(runs, scores):
    """The threshold with the highest Wilson lower bound of precision among those claiming at least COVERAGE of the
    right runs; if that falls short of PRECISION and LOWER, the highest among those claiming FALLBACK of them. The
    lowest threshold of a tie (claims more); 1.0 when nothing is claimable. (threshold, the rule it met)."""
    points = curve(runs, scores)
    for coverage, rule in ((COVERAGE, "bar"), (FALLBACK, "fallback")):
        eligible = [(wilson(right, made)[0], -t, t, right / made) for t, made, right, cover in points if cover >= coverage]
        if not eligible:
            continue
        low, _, threshold, precision = max(eligible)
        if rule == "fallback" or (precision >= PRECISION and low >= LOWER):
            return threshold, rule
    return 1.0, "none"


def nested(runs, count=FOLDS, repeats=5, seed=1000):
    """Claims at a threshold chosen without the fold they are counted on: in each outer fold, the inner folds of the
    rest choose it (choose_threshold on their held-out scores), the rest's fit scores the fold. (claims, right)."""
    made = right = 0
    for repeat in range(repeats):
        fold_of = folds(runs, count, seed + repeat)
        for fold in range(count):
            rest = [run for run in runs if fold_of[run["id"]] != fold]
            inside = [run for run in runs if fold_of[run["id"]] == fold]
            threshold, _ = choose_threshold(rest, held_out(rest, count, 2, seed + 100 * repeat + fold))
            model = Model(rest)
            kept = claims(inside, [model.score(run) for run in inside], threshold)
            made, right = made + len(kept), right + sum(run["right"] for run in kept)
    return made / repeats, right / repeats


def bands(runs, scores):
    rows = []
    for low, high in zip(BANDS, BANDS[1:]):
        inside = [(run, s) for run, s in zip(runs, scores) if low <= s < high or high == 1.0 and s == 1.0]
        if inside:
            rows.append({"low": low, "high": high, "runs": len(inside), "right": sum(run["right"] for run, _ in inside),
                         "mean": round(sum(s for _, s in inside) / len(inside), 3)})
    return rows


# --- the report

def report(runs, scores, out=sys.stdout):
    passing = [(run, s) for run, s in zip(runs, scores) if run["evidence"].passes]
    value = auc([s for _, s in passing], [run["right"] for run, _ in passing])
    low, high = bootstrap_auc([run for run, _ in passing], [s for _, s in passing])
    total_right = sum(run["right"] for run in runs)
    print(f"{len(runs)} runs of {len({run['id'] for run in runs})} problems, {total_right} right; the code passes the "
          f"statement's examples in {len(passing)} ({sum(run['right'] for run, _ in passing)} right)", file=out)
    print(f"AUC among them (held out): {value:.3f} (95 % bootstrap over problems {low:.3f}-{high:.3f})", file=out)
    print(f"\n{'band':<10} {'runs':>5} {'right':>6} {'share':>6} {'Wilson 95 %':>13} {'mean conf':>10}", file=out)
    for row in bands(runs, scores):
        lo, hi = wilson(row["right"], row["runs"])
        print(f"{row['low']:.1f}-{row['high']:.1f}   {row['runs']:>5} {row['right']:>6} {row['right'] / row['runs']:>6.2f} "
              f"{lo:>6.2f}-{hi:.2f} {row['mean']:>10.2f}", file=out)
    verdict = [run for run in runs if run["claimed"]]
    print(f"\nthe verdict alone claims {len(verdict)}, {sum(r['right'] for r in verdict)} right; "
          "claims below need the verdict's claim, a second program and the confidence", file=out)
    print(f"{'threshold':>9} {'claims':>7} {'right':>6} {'precision':>9} {'Wilson low':>10} {'right claimed':>14}", file=out)
    points = curve(runs, scores)
    shown = points if len(points) <= 25 else points[::max(1, len(points) // 25)] + points[-1:]
    for threshold, made, right, cover in shown:
        print(f"{threshold:>9.3f} {made:>7} {right:>6} {right / made:>9.3f} {wilson(right, made)[0]:>10.3f} "
              f"{right:>6} of {total_right:<5}", file=out)
    return value, (low, high)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench.calibrate", description=__doc__.splitlines()[0])
    parser.add_argument("--records", nargs="+", required=True, metavar="DIR", help="bench folders of labelled runs")
    parser.add_argument("--dataset", metavar="FILE.jsonl", help="the problem set the runs came from: every run's problem "
                        "must be in it, and its difficulties group the folds")
    parser.add_argument("--folds", type=int, default=FOLDS, help=f"folds of problems (default {FOLDS})")
    parser.add_argument("--repeats", type=int, default=REPEATS, help=f"fold seeds averaged (default {REPEATS})")
    parser.add_argument("--write", metavar="FILE", help="write the fitted calibration here (core/calibration.json ships)")
    parser.add_argument("--model", help="the model the runs used (default: the records' own)")
    args = parser.parse_args(argv)
    try:
        runs = labelled_runs(args.records, say=lambda line: print(line, file=sys.stderr))
        if args.dataset:
            with_difficulty(runs, args.dataset)
    except RecordError as exc:
        print(f"bench.calibrate: {exc}", file=sys.stderr)
        return 2
    if len({run["id"] for run in runs}) < args.folds:
        print(f"bench.calibrate: {len({run['id'] for run in runs})} problems cannot make {args.folds} folds",
              file=sys.stderr)
        return 2
    scores = held_out(runs, args.folds, args.repeats)
    value, interval = report(runs, scores)
    threshold, rule = choose_threshold(runs, scores)
    made, right = nested(runs, args.folds)
    low, high = wilson(round(right), round(made))
    total_right = sum(run["right"] for run in runs)
    print(f"\nthreshold {threshold:.3f} ({ {'bar': 'the bar met', 'fallback': 'the bar out of reach: the best lower bound claiming a quarter of the right answers', 'none': 'nothing claimable'}[rule] }); "
          f"chosen without the fold (nested): {made:.1f} claims, {right:.1f} right a split, precision "
          f"{right / made if made else float('nan'):.3f} (Wilson 95 % {low:.3f}-{high:.3f}), {right:.1f} of "
          f"{total_right} right runs claimed")
    final = Model(runs)
    at = claims(runs, scores, threshold)
    kept_right = sum(run["right"] for run in at)
    models = sorted({run["model"] for run in runs if run["model"]})
    calibration = Calibration(args.model or ",".join(models), final.weights, final.intercept, threshold, {
        "auc": round(value, 3), "auc_interval": [round(v, 3) for v in interval],
        "claims": len(at), "right_claims": kept_right, "right_runs": total_right, "rule": rule,
        "nested": {"claims": round(made, 1), "right": round(right, 1)},
        "failing": {"runs": sum(not run["evidence"].passes for run in runs),
                    "right": sum(run["right"] for run in runs if not run["evidence"].passes)},
        "bands": bands(runs, scores)}, {
        "records": [os.path.basename(os.path.normpath(folder)) for folder in args.records],
        "runs": len(runs), "problems": len({run["id"] for run in runs}), "right": total_right,
        "folds": args.folds, "repeats": args.repeats, "fitted": date.today().isoformat()}, failing=round(final.failing, 4))
    print("weights: " + ", ".join(f"{name} {weight:+.3f}" for name, weight in final.weights.items()) +
          f"; intercept {final.intercept:+.3f}; code failing an example {final.failing:.3f}")
    if args.write:
        write_atomically(args.write, json.dumps(calibration.record(), indent=1) + "\n")
        print(f"written: {args.write}")
    return 0


def with_difficulty(runs, path):
    """The runs' difficulties from the problem set, which must hold every run's problem."""
    try:
        with open(path, encoding="utf-8") as f:
            problems = {row["id"]: str(row.get("difficulty", "")).lower() for row in map(json.loads, filter(str.strip, f))}
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise RecordError(f"{path}: not a problem set of JSON lines with ids ({type(exc).__name__}: {exc})") from None
    missing = sorted({run["id"] for run in runs} - set(problems))
    if missing:
        raise RecordError(f"{path}: holds no problem {missing[0]} (and {len(missing) - 1} more) that the records ran")
    for run in runs:
        run["difficulty"] = problems[run["id"]] or run["difficulty"]


if __name__ == "__main__":
    sys.exit(main())
