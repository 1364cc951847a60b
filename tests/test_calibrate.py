"""python -m bench.calibrate: the confidence refitted on labelled runs, and what it refuses."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from bench.calibrate import choose_threshold, fit, split, wilson
from core.confidence import Calibration, load
from tests import scripted_answers as a
from tests.test_bench import TWO_SUM, bench, write_jsonl

ROOT = Path(__file__).resolve().parent.parent


def calibrate(*args):
    return subprocess.run([sys.executable, "-m", "bench.calibrate", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)


def labelled_folder(folder, runs):
    """A bench folder of `full` runs: each (id, difficulty, right, status, agreeing programs) with its run.json."""
    lines = []
    for pid, difficulty, right, status, agree in runs:
        run_dir = folder / "runs" / "set.jsonl" / "full" / pid
        run_dir.mkdir(parents=True)
        tests = [{"name": "example_1", "input": {"x": 1}, "expected": 1, "origin": "statement",
                  "evidence": {"source": "statement", "agree": 0, "voters": 0, "counted": True}}]
        tests += [{"name": f"variant_{k}", "input": {"x": k}, "expected": k, "origin": "variant",
                   "evidence": {"source": "majority", "agree": agree, "voters": agree, "counted": True}} for k in range(3)]
        attempt = {"id": 1, "source": "implement", "passed": 4, "total": 4, "trusted_passed": 1, "trusted_total": 1}
        (run_dir / "run.json").write_text(json.dumps({"status": status, "final": {
            "test_cases": tests, "attempts": [attempt], "attempt": 1}}))
        lines.append({"id": pid, "difficulty": difficulty, "strategy": "full", "status": status, "hidden_pass": right,
                      "model": "qwen2.5-coder-1.5b-instruct", "run_dir": f"/elsewhere/{folder.name}/runs/set.jsonl/full/{pid}"})
    (folder / "results.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    return folder


def some_runs(count=24):
    """Claims backed by 3 programs right, by 2 wrong one time in two, as the labels of a small set."""
    return [(f"p{k}", "easy" if k % 3 else "medium", k % 4 != 1 if k % 2 else True, "solved", 3 if k % 2 == 0 else 2)
            for k in range(count)]


def test_the_split_is_by_problem_within_each_difficulty_and_the_same_for_the_same_seed():
    runs = [{"id": f"p{k}", "difficulty": "easy" if k < 10 else "hard"} for k in range(20)]
    halves = split(runs, 86)
    assert halves == split(list(reversed(runs)), 86)  # the order runs come in changes nothing
    for difficulty in ("easy", "hard"):
        ids = [r["id"] for r in runs if r["difficulty"] == difficulty]
        assert sorted(halves[i] for i in ids).count("calibration") == 5
    assert halves != split(runs, 87)


def test_over_a_dataset_a_problem_keeps_its_half_however_many_runs_have_finished(tmp_path):
    folder = labelled_folder(tmp_path / "r-part", some_runs(12))
    dataset = write_jsonl(tmp_path / "set.jsonl", *[{"id": f"p{k}", "difficulty": "Easy" if k % 3 else "Medium"}
                                                    for k in range(40)])
    problems = [{"id": f"p{k}", "difficulty": "easy" if k % 3 else "medium"} for k in range(40)]
    result = calibrate("--records", str(folder), "--dataset", dataset, "--write", str(tmp_path / "c.json"))
    assert result.returncode == 0, result.stderr
    halves = split(problems, 86)
    fitted_on = json.loads((tmp_path / "c.json").read_text())["fitted_on"]
    assert fitted_on["split_over"] == "set.jsonl"
    assert fitted_on["runs"] == sum(halves[f"p{k}"] == "calibration" for k in range(12))  # not split(the 12 run)
    short = write_jsonl(tmp_path / "short.jsonl", {"id": "p0", "difficulty": "Easy"})
    refused = calibrate("--records", str(folder), "--dataset", short)
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1 and "holds no problem p1" in refused.stderr


def test_the_fit_gives_more_agreeing_programs_more_confidence_and_the_threshold_holds_the_precision():
    runs = [{"right": right, "features": {"claimed": 1.0, "agreeing_programs": float(agree)}}
            for agree, right in [(3, True)] * 10 + [(2, True)] * 5 + [(2, False)] * 5 + [(1, False)] * 4]
    weights, intercept = fit(runs, names=("claimed", "agreeing_programs"))
    model = Calibration("m", weights, intercept, 1.0)
    assert weights["agreeing_programs"] > 0
    threshold = choose_threshold(runs, model)
    kept = [r for r in runs if model.confidence(r["features"]) >= threshold]
    assert kept and sum(r["right"] for r in kept) / len(kept) >= 0.95 and len(kept) == 10


def test_the_wilson_interval_brackets_the_share():
    low, high = wilson(19, 20)
    assert low < 0.95 < high and high <= 1.0 and wilson(0, 0) == (0.0, 1.0)


def test_a_refit_writes_a_calibration_that_loads_and_reports_both_halves(tmp_path):
    folder = labelled_folder(tmp_path / "r-labels", some_runs())
    written = tmp_path / "calibration.json"
    result = calibrate("--records", str(folder), "--write", str(written))
    assert result.returncode == 0, result.stderr
    assert "calibration half:" in result.stdout and "test half:" in result.stdout and "Wilson 95 %" in result.stdout
    fitted = load(str(written))
    assert fitted.model == "qwen2.5-coder-1.5b-instruct" and fitted.fitted_on["records"] == ["r-labels"]
    assert fitted.fitted_on["split_seed"] == 86 and 0 < fitted.threshold <= 1


@pytest.mark.parametrize("spoil, words", [
    (lambda folder: folder.joinpath("results.jsonl").write_text(
        folder.joinpath("results.jsonl").read_text().replace('"hidden_pass": true', '"hidden_pass": null', 1)),
     "no hidden verdict (hidden_pass)"),
    (lambda folder: next(folder.glob("runs/*/*/*/run.json")).write_text('{"status": "sol'), "unreadable run record"),
    (lambda folder: folder.joinpath("results.jsonl").unlink(), "no such file"),
    (lambda folder: folder.joinpath("results.jsonl").write_text("{not json\n"), "line 1: not JSON"),
])
def test_records_that_cannot_label_runs_end_in_one_line_exit_2_and_nothing_written(tmp_path, spoil, words):
    folder = labelled_folder(tmp_path / "r-labels", some_runs(4))
    spoil(folder)
    written = tmp_path / "calibration.json"
    result = calibrate("--records", str(folder), "--write", str(written))
    assert result.returncode == 2 and words in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr and not written.exists()


def test_a_real_bench_folder_refits(stub, tmp_path):
    a.route_defaults(stub)  # the README's Two Sum, claimed and right on the hidden tests
    out = tmp_path / "out"
    problems = [dict(TWO_SUM, id=f"two-sum-{k}") for k in range(4)]
    result = bench("--dataset", write_jsonl(tmp_path / "p.jsonl", *problems), "--model", "stub-model", "--out", str(out),
                   stub=stub)
    assert result.returncode == 0, result.stderr
    line = json.loads((out / "results.jsonl").read_text().splitlines()[0])
    assert line["confidence"] is not None and 0 <= line["confidence"] <= 1
    result = calibrate("--records", str(out), "--model", "stub-model", "--write", str(tmp_path / "c.json"))
    assert result.returncode == 0, result.stderr
    assert load(str(tmp_path / "c.json")).model == "stub-model"
