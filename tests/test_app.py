"""app.py's output folders: every run gets one of its own, however many start at once."""
import json
import threading
from datetime import datetime

import pytest

import app


def at_once(count, work):
    """`work(k)` in `count` threads released together; their results (or exceptions), in order."""
    results, gate = [None] * count, threading.Barrier(count)

    def one(k):
        gate.wait()
        try:
            results[k] = work(k)
        except Exception as exc:  # noqa: BLE001 - the test looks at it
            results[k] = exc
    threads = [threading.Thread(target=one, args=(k,)) for k in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def test_runs_of_one_problem_started_in_the_same_second_get_folders_of_their_own(tmp_path):
    second = datetime(2026, 12, 4, 17, 30, 5)  # one clock reading for all: the names collide by construction
    folders = at_once(20, lambda k: app.new_out_dir(str(tmp_path / "runs"), "Two Sum: return the indices", second))
    assert len(set(folders)) == 20 and all(isinstance(folder, str) for folder in folders), folders
    assert sorted(p.name for p in (tmp_path / "runs").iterdir()) == sorted(
        ["20261204-173005-two-sum-return-the-indices"] + [f"20261204-173005-two-sum-return-the-indices-{n}"
                                                          for n in range(2, 21)])


def test_a_problem_of_one_long_word_still_names_a_folder(tmp_path):
    folder = app.new_out_dir(str(tmp_path), "x" * 5000, datetime(2026, 12, 4, 17, 30, 5))
    assert folder == str(tmp_path / ("20261204-173005-" + "x" * 60))


def test_an_output_folder_that_cannot_be_made_is_a_usage_error_naming_it(tmp_path):
    (tmp_path / "runs").write_text("a file, not a folder")
    with pytest.raises(app.UsageError, match=f"cannot write to the output folder {tmp_path / 'runs'}"):
        app.new_out_dir(str(tmp_path / "runs"), "Two Sum")


def test_of_two_runs_claiming_one_folder_at_once_exactly_one_gets_it(tmp_path):
    claims = at_once(2, lambda k: app.claim_out_dir(str(tmp_path)))
    refused = [claim for claim in claims if isinstance(claim, app.UsageError)]
    assert claims.count(None) == 1 and len(refused) == 1, claims
    assert "holds another run already (its run.json)" in str(refused[0])
    assert json.loads((tmp_path / "run.json").read_text()) == {"status": "running"}, "a record from the start"


def test_a_folder_holding_a_finished_run_is_refused_and_an_empty_one_claimed(tmp_path):
    (tmp_path / "old").mkdir()
    (tmp_path / "old" / "run.json").write_text('{"status": "solved"}')
    with pytest.raises(app.UsageError, match="holds another run already"):
        app.claim_out_dir(str(tmp_path / "old"))
    assert json.loads((tmp_path / "old" / "run.json").read_text()) == {"status": "solved"}, "left as it was"
    (tmp_path / "new").mkdir()
    app.claim_out_dir(str(tmp_path / "new"))
    assert (tmp_path / "new" / "run.json").exists()
