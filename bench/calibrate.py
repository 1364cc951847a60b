"""python -m bench.calibrate: fit the confidence a run reports (core/confidence.py) on labelled runs, and check it.

Labelled runs are bench folders of the `full` strategy: every result line holds the hidden tests' verdict
(`hidden_pass`) and names its run.json, whose evidence gives the features. The problems are split in two
by a seed (within each difficulty, the sorted ids shuffled by `--split-seed`; even places calibrate, odd
test), over every problem of `--dataset FILE.jsonl` when given, so a problem keeps its half however many runs
have finished (without it, over the problems the records hold): the model and its threshold are fitted on the calibration half only, and the test half says how
they hold, as a reliability table by confidence band and the precision and coverage of claims with Wilson
95 % intervals.

    python -m bench.calibrate --records bench-results/r86-main-ss1 --dataset leetcode-recent.jsonl   # writes nothing
    python -m bench.calibrate --records bench-results/r86-main-ss1 --dataset leetcode-recent.jsonl \
        --write core/calibration.json

A record without hidden verdicts, or a run.json that does not read, ends with one line naming it (exit 2),
and nothing is written; the file is written whole or not at all.
"""
import argparse
import json
import math
import os
import random
import sys
from datetime import date
from pathlib import Path

from core.confidence import Calibration, logistic, recorded_features
from utils.text_files import write_atomically

PRECISION = 0.95        # a claim's confidence threshold holds this precision on the calibration half
BANDS = (0.0, 0.1, 0.3, 0.5, 0.7, 0.9, 1.0)
L2 = 1.0                # ridge on the weights: ~100 labelled runs, a dozen features
USED = ("claimed", "passes_counted", "passes_examples", "oracle_backs", "guess_only", "agreeing_programs",
        "one_candidate", "oracle_first", "split", "left_out", "second_reading")
# chosen on the calibration half alone, by leaving each run out of the fit in turn and ranking the claims: the
# counts of examples, settled inputs and draws (as a number) ranked false claims first and are left out


class RecordError(Exception):
    """A bench folder that cannot serve as labelled runs."""


def labelled_runs(folders, strategy="full"):
    """[{id, difficulty, model, right, status, features}] from the bench folders' result lines and run.json files."""
    runs = []
    for folder in map(Path, folders):
        results = folder / "results.jsonl"
        if not results.is_file():
            raise RecordError(f"{results}: no such file (a bench folder's results.jsonl)")
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
            runs.append({"id": row["id"], "difficulty": row.get("difficulty") or "", "model": row.get("model") or "",
                         "right": bool(row["hidden_pass"]), "status": row.get("status"),
                         "features": run_features(folder, row, number)})
    if not runs:
        raise RecordError(f"no {strategy} runs in {', '.join(map(str, folders))}")
    return runs


def run_features(folder, row, number):
    """The features of one run: those its run.json stored at its end, else computed from its final state."""
    path = folder / "runs" / Path(*Path(row.get("run_dir") or "").parts[-3:]) / "run.json"
    try:
        run = json.loads(path.read_text(encoding="utf-8"))
        run["final"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise RecordError(f"{path} (line {number} of {folder / 'results.jsonl'}): unreadable run record "
                          f"({type(exc).__name__}: {exc})") from None
    return recorded_features(run)


def dataset_problems(path, runs):
    """[{id, difficulty}] of every problem in a dataset file, checked to hold every run's problem."""
    try:
        with open(path, encoding="utf-8") as f:
            problems = [{"id": row["id"], "difficulty": str(row.get("difficulty", "")).lower()}
                        for row in map(json.loads, filter(str.strip, f))]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise RecordError(f"{path}: not a problem set of JSON lines with ids ({type(exc).__name__}: {exc})") from None
    missing = sorted({run["id"] for run in runs} - {problem["id"] for problem in problems})
    if missing:
        raise RecordError(f"{path}: holds no problem {missing[0]} (and {len(missing) - 1} more) that the records ran")
    return problems


def split(runs, seed):
    """{id: "calibration" or "test"}: within each difficulty the sorted ids, shuffled by the seed, alternate."""
    halves = {}
    for difficulty in sorted({run["difficulty"] for run in runs}):
        ids = sorted({run["id"] for run in runs if run["difficulty"] == difficulty})
        random.Random(seed).shuffle(ids)
        halves.update({pid: "calibration" if k % 2 == 0 else "test" for k, pid in enumerate(ids)})
    return halves


def fit(runs, names=USED, l2=L2, rounds=50):
    """Weights and intercept of a ridge logistic regression (Newton's method) of `right` on the features."""
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
                for j in range(size):
                    hess[i][j] += p * (1 - p) * x[i] * x[j]
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


def claims(runs, calibration, threshold=None):
    """The runs a claim goes to: the verdict claimed them and the confidence reaches the threshold."""
    threshold = calibration.threshold if threshold is None else threshold
    return [run for run in runs if run["features"]["claimed"] and calibration.confidence(run["features"]) >= threshold]


def choose_threshold(runs, calibration, precision=PRECISION):
    """A threshold whose claims (the verdict claimed them, the confidence reaches it) are right at least `precision`
    of the time over the runs given, as low as can be: halfway between the lowest confidence it keeps and the
    next claim's below (a run with the same evidence but one more agreeing input must not fall under it by a
    hair); 1.0 when no threshold holds it."""
    scored = sorted(((calibration.confidence(run["features"]), run["right"]) for run in runs if run["features"]["claimed"]),
                    reverse=True)
    best, below, right = 1.0, 0.0, 0
    for count, (value, ok) in enumerate(scored, 1):
        right += ok
        if right / count >= precision and (count == len(scored) or scored[count][0] < value):
            best, below = value, scored[count][0] if count < len(scored) else 0.0
    return round((best + max(below, best - 0.1)) / 2, 6) if best < 1.0 else 1.0


def wilson(successes, total, z=1.96):
    """The Wilson score interval of a proportion (95 %)."""
    if not total:
        return (0.0, 1.0)
    p = successes / total
    centre = (p + z * z / (2 * total)) / (1 + z * z / total)
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / (1 + z * z / total)
    return (max(0.0, centre - half), min(1.0, centre + half))


def report(runs, calibration, out=sys.stdout):
    """The reliability table by band and the claims at the threshold, against the verdict's claims alone."""
    print(f"{'band':<10} {'runs':>5} {'right':>6} {'share':>6} {'mean conf':>10}", file=out)
    for low, high in zip(BANDS, BANDS[1:]):
        inside = [run for run in runs if low <= calibration.confidence(run["features"]) < high or
                  high == 1.0 and calibration.confidence(run["features"]) == 1.0]
        if inside:
            right = sum(run["right"] for run in inside)
            mean = sum(calibration.confidence(run["features"]) for run in inside) / len(inside)
            print(f"{low:.1f}-{high:.1f}   {len(inside):>5} {right:>6} {right / len(inside):>6.2f} {mean:>10.2f}", file=out)
    before = [run for run in runs if run["features"]["claimed"]]
    after = claims(runs, calibration)
    right_before, right_after = sum(r["right"] for r in before), sum(r["right"] for r in after)
    total_right = sum(r["right"] for r in runs)
    low, high = wilson(right_after, len(after))
    print(f"claims without the confidence: {len(before)}, right {right_before}, false {len(before) - right_before}", file=out)
    print(f"claims at threshold {calibration.threshold:.3f}: {len(after)}, right {right_after}, false "
          f"{len(after) - right_after}; precision {right_after / len(after) if after else float('nan'):.3f} "
          f"(Wilson 95 % {low:.3f}-{high:.3f}); right claims kept {right_after} of {right_before}; coverage "
          f"{right_after} of {total_right} right runs", file=out)
    print("precision-coverage (threshold: claims, right, precision):", file=out)
    for threshold in (0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95, 0.98):
        made = claims(runs, calibration, threshold)
        good = sum(r["right"] for r in made)
        print(f"  {threshold:.2f}: {len(made)}, {good}, {good / len(made) if made else float('nan'):.3f}", file=out)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench.calibrate", description=__doc__.splitlines()[0])
    parser.add_argument("--records", nargs="+", required=True, metavar="DIR", help="bench folders of labelled runs")
    parser.add_argument("--split-seed", type=int, default=86, help="the problems' split into halves (default 86)")
    parser.add_argument("--dataset", metavar="FILE.jsonl",
                        help="split over every problem of this set (its id and difficulty), not only those run")
    parser.add_argument("--write", metavar="FILE", help="write the fitted calibration here (core/calibration.json ships)")
    parser.add_argument("--model", help="the model the runs used (default: the records' own)")
    args = parser.parse_args(argv)
    try:
        runs = labelled_runs(args.records)
        problems = dataset_problems(args.dataset, runs) if args.dataset else runs
    except RecordError as exc:
        print(f"bench.calibrate: {exc}", file=sys.stderr)
        return 2
    halves = split(problems, args.split_seed)
    fitting = [run for run in runs if halves[run["id"]] == "calibration"]
    testing = [run for run in runs if halves[run["id"]] == "test"]
    models = sorted({run["model"] for run in runs if run["model"]})
    weights, intercept = fit(fitting)
    draft = Calibration(args.model or ",".join(models), weights, intercept, 1.0)
    threshold = choose_threshold(fitting, draft)
    made = claims(fitting, draft, threshold)
    calibration = Calibration(draft.model, weights, intercept, threshold, {
        "records": [os.path.basename(os.path.normpath(folder)) for folder in args.records], "split_seed": args.split_seed,
        "split_over": os.path.basename(args.dataset) if args.dataset else "the records' problems",
        "runs": len(fitting), "right": sum(r["right"] for r in fitting), "claims_at_threshold": len(made),
        "right_claims_at_threshold": sum(r["right"] for r in made), "precision_target": PRECISION,
        "fitted": date.today().isoformat()})
    for name, half in (("calibration", fitting), ("test", testing)):
        print(f"\n{name} half: {len(half)} runs, {len({r['id'] for r in half})} problems, "
              f"{sum(r['right'] for r in half)} right")
        if half:
            report(half, calibration)
    print("\nweights: " + ", ".join(f"{name} {value:+.3f}" for name, value in weights.items()) + f"; intercept {intercept:+.3f}")
    if args.write:
        write_atomically(args.write, json.dumps(calibration.record(), indent=1) + "\n")
        print(f"written: {args.write}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
