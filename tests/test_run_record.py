"""utils/run_record.py: run.json is complete and valid after every single event."""
import json

from utils.run_record import RunRecord


def test_every_event_is_on_disk_at_once(tmp_path):
    path = tmp_path / "run.json"
    record = RunRecord(str(path), "the problem", {"max_iterations": 5})
    assert json.loads(path.read_text())["status"] == "running"
    record.event("test_cases", test_cases=[{"name": "a"}])
    record.model_call("Revise", {"prompt_tokens": 10, "completion_tokens": 5, "latency_ms": 1500})
    on_disk = json.loads(path.read_text())
    assert on_disk["events"][0]["kind"] == "test_cases" and on_disk["model_calls"][0]["node"] == "Revise"
    record.finish("solved", "done", {"x": 1})
    on_disk = json.loads(path.read_text())
    assert on_disk["status"] == "solved" and on_disk["finished_at"]
    assert on_disk["usage"] == {"model_calls": 1, "prompt_tokens": 10, "completion_tokens": 5, "model_seconds": 1.5}
    assert not (tmp_path / "run.json.tmp").exists()


def test_progress_is_echoed_only_for_events_that_say_something(tmp_path):
    said = []
    record = RunRecord(str(tmp_path / "run.json"), "p", {}, echo=said.append)
    record.event("quiet")
    record.event("loud", say="3/3 tests pass")
    assert said == ["3/3 tests pass"]
