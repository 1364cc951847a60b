"""python -m bench.calibrate: the confidence refitted on labelled runs, every run's evidence computed afresh from its
programs (run again in the real sandbox), judged on problems the fit never saw, and what it refuses."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from bench.calibrate import auc, choose_threshold, fit, folds, wilson
from core.confidence import Evidence, floored, load
from tests import scripted_answers as a
from tests.test_bench import TWO_SUM, bench, write_jsonl

ROOT = Path(__file__).resolve().parent.parent
SQUARE = "def run_code(x):\n    return x * x\n"
SQUARE_TOO = "def run_code(x):\n    return x ** 2\n"
SQUARE_AGAIN = "def run_code(x):\n    return pow(x, 2)\n"
TWICE = "def run_code(x):\n    return x + x\n"  # agrees with x * x on the example x = 2 only


def calibrate(*args):
    return subprocess.run([sys.executable, "-m", "bench.calibrate", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=300)


def labelled_folder(folder, runs):
    """A bench folder of `full` runs, each (id, difficulty, right, codes of its candidates, the first handed over): the
    example x = 2 -> 4 and three more inputs, on which the programs are run again."""
    lines = []
    for pid, difficulty, right, codes in runs:
        run_dir = folder / "runs" / "set.jsonl" / "full" / pid
        run_dir.mkdir(parents=True)
        tests = [{"name": "example_1", "input": {"x": 2}, "expected": 4, "origin": "statement"}]
        tests += [{"name": f"variant_{k}", "input": {"x": k}, "expected": None, "origin": "variant"} for k in (3, 5, 7)]
        attempts = [{"id": k, "source": "implement", "code": code} for k, code in enumerate(codes, 1)]
        (run_dir / "run.json").write_text(json.dumps({"status": "solved", "final": {
            "test_cases": tests, "attempts": attempts, "attempt": 1}}))
        lines.append({"id": pid, "difficulty": difficulty, "strategy": "full", "status": "solved", "hidden_pass": right,
                      "model": "qwen2.5-coder-1.5b-instruct", "run_dir": f"/elsewhere/{folder.name}/runs/set.jsonl/full/{pid}"})
    (folder / "results.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    return folder


def some_runs(count=30):
    """Right where three programs agree, wrong where the one handed over is the only one (another disagrees)."""
    return [(f"p{k}", "easy" if k % 3 else "medium", k % 2 == 0,
             [SQUARE, SQUARE_TOO, SQUARE_AGAIN] if k % 2 == 0 else [TWICE, SQUARE]) for k in range(count)]


def test_folds_keep_a_problems_runs_together_and_are_the_same_for_the_same_seed():
    runs = [{"id": f"p{k % 12}", "difficulty": "easy" if k % 2 else "hard"} for k in range(30)]
    fold_of = folds(runs, 4, 7)
    assert set(fold_of) == {f"p{k}" for k in range(12)} and set(fold_of.values()) == {0, 1, 2, 3}
    assert fold_of == folds(list(reversed(runs)), 4, 7) and fold_of != folds(runs, 4, 8)


def test_the_fit_keeps_each_feature_to_its_direction():
    runs = [{"right": right, "features": {"agreeing": agree, "dissent_share": 0.0, "oracle_agrees": 0.0,
                                          "first_agrees": first, "failed_share": 0.0}}
            for agree, first, right in [(2, 0.0, True)] * 8 + [(0, 1.0, False)] * 8 + [(0, 0.0, True)] * 2]
    weights, _ = fit(runs)
    assert weights["agreeing"] > 0 and "first_agrees" not in weights  # fitted negative: dropped, not shipped so


def test_the_auc_counts_ties_as_half_and_the_wilson_interval_brackets_the_share():
    assert auc([0.9, 0.5, 0.5, 0.1], [True, True, False, False]) == pytest.approx(0.875)
    low, high = wilson(19, 20)
    assert low < 0.95 < high and high <= 1.0 and wilson(0, 0) == (0.0, 1.0)


def labelled(right, agreeing, score_claimed=True):
    return {"id": f"p{right}{agreeing}", "right": right, "claimed": score_claimed,
            "evidence": Evidence(passes=True, agreeing=agreeing)}


def test_the_threshold_is_the_best_lower_bound_of_precision_that_claims_enough_right_answers():
    runs = [labelled(True, 3)] * 30 + [labelled(True, 1)] * 10 + [labelled(False, 1)] * 10 + [labelled(False, 0)] * 5
    scores = [0.95] * 30 + [0.6] * 10 + [0.6] * 10 + [0.99] * 5  # the alone ones score high: never claimed
    threshold, rule = choose_threshold(runs, scores)
    assert (threshold, rule) == (0.95, "bar")  # 30 of 30 at 0.95 (75 % of the right ones); at 0.6 precision falls
    few = [labelled(True, 3)] * 3 + [labelled(True, 1)] * 20 + [labelled(False, 1)] * 20
    threshold, rule = choose_threshold(few, [0.95] * 3 + [0.6] * 40)
    assert (threshold, rule) == (0.6, "fallback")  # 0.95 claims 3 of 23 right: under a quarter, so not chosen


def test_a_threshold_lies_on_the_two_decimals_a_confidence_prints_with():
    runs = [labelled(True, 3)] * 20 + [labelled(False, 1)] * 3
    scores = [0.5789] * 20 + [0.561] * 3
    threshold, _ = choose_threshold(runs, scores)
    assert threshold == 0.57 == floored(0.5789)  # every right run claimed, printed 0.57 as the threshold is
    assert floored(0.561) < threshold  # one that falls short prints below it, never as it


def test_a_refit_runs_every_program_again_and_writes_a_calibration_that_loads(tmp_path):
    folder = labelled_folder(tmp_path / "r-labels", some_runs())
    written = tmp_path / "calibration.json"
    result = calibrate("--records", str(folder), "--folds", "3", "--repeats", "2", "--write", str(written))
    assert result.returncode == 0, result.stderr
    assert "AUC among them (held out): 1.000" in result.stdout and "Wilson" in result.stdout
    assert "chosen without the fold (nested)" in result.stdout
    fitted = load(str(written))
    assert fitted.model == "qwen2.5-coder-1.5b-instruct" and fitted.fitted_on["records"] == ["r-labels"]
    assert fitted.held_out["claims"] == fitted.held_out["right_claims"] == 15 and 0 < fitted.threshold <= 1
    cached = (folder / "programs.jsonl").read_text().splitlines()
    assert len(cached) == 75  # every program of every run, run once: a second refit runs none again
    again = calibrate("--records", str(folder), "--folds", "3", "--repeats", "2")
    assert again.returncode == 0 and (folder / "programs.jsonl").read_text().splitlines() == cached


def test_evidence_stored_in_a_record_is_never_read_in_place_of_the_programs(tmp_path):
    folder = labelled_folder(tmp_path / "r-labels", some_runs(10))
    for path in folder.glob("runs/*/*/*/run.json"):
        record = json.loads(path.read_text())
        record["final"]["confidence"] = {"evidence": {"passes": True, "agreeing": 9}, "features": {"agreeing": 9}}
        path.write_text(json.dumps(record))
    result = calibrate("--records", str(folder), "--folds", "3", "--repeats", "1")
    assert result.returncode == 0, result.stderr
    assert "AUC among them (held out): 1.000" in result.stdout  # from the programs: 9 agreeing everywhere would tie


@pytest.mark.parametrize("spoil, words", [
    (lambda folder: folder.joinpath("results.jsonl").write_text(
        folder.joinpath("results.jsonl").read_text().replace('"hidden_pass": true', '"hidden_pass": null', 1)),
     "no hidden verdict (hidden_pass)"),
    (lambda folder: next(folder.glob("runs/*/*/*/run.json")).write_text('{"status": "sol'), "unreadable run record"),
    (lambda folder: next(folder.glob("runs/*/*/*/run.json")).write_text(
        '{"final": {"test_cases": [{"input": 1}], "attempts": []}}'), "its evidence cannot be computed"),
    (lambda folder: folder.joinpath("results.jsonl").unlink(), "no such file"),
    (lambda folder: folder.joinpath("results.jsonl").write_text("{not json\n"), "line 1: not JSON"),
])
def test_records_that_cannot_label_runs_end_in_one_line_exit_2_and_nothing_written(tmp_path, spoil, words):
    folder = labelled_folder(tmp_path / "r-labels", some_runs(6))
    spoil(folder)
    written = tmp_path / "calibration.json"
    result = calibrate("--records", str(folder), "--write", str(written))
    assert result.returncode == 2 and words in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr and not written.exists()


def test_a_dataset_must_hold_every_problem_the_records_ran(tmp_path):
    folder = labelled_folder(tmp_path / "r-labels", some_runs(6))
    short = write_jsonl(tmp_path / "short.jsonl", {"id": "p0", "difficulty": "Easy"})
    refused = calibrate("--records", str(folder), "--dataset", short)
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1 and "holds no problem p1" in refused.stderr


def test_a_real_bench_folder_refits(stub, tmp_path):
    a.route_defaults(stub)  # the README's Two Sum, claimed and right on the hidden tests
    out = tmp_path / "out"
    problems = [dict(TWO_SUM, id=f"two-sum-{k}") for k in range(5)]
    result = bench("--dataset", write_jsonl(tmp_path / "p.jsonl", *problems), "--model", "stub-model", "--out", str(out),
                   stub=stub)
    assert result.returncode == 0, result.stderr
    line = json.loads((out / "results.jsonl").read_text().splitlines()[0])
    assert line["confidence"] is not None and 0 <= line["confidence"] <= 1
    result = calibrate("--records", str(out), "--model", "stub-model", "--repeats", "1", "--write", str(tmp_path / "c.json"))
    assert result.returncode == 0, result.stderr
    assert load(str(tmp_path / "c.json")).model == "stub-model"
