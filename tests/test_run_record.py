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


def test_a_disk_with_room_for_less_and_less_gets_a_compact_then_a_minimal_record(tmp_path, monkeypatch):
    import utils.run_record as run_record
    from utils.text_files import WriteError, write_atomically
    record = RunRecord(str(tmp_path / "run.json"), "problem", {"samples": 3})
    record.model_call("Node", {"messages": [{"role": "user", "content": "x" * 5000}], "answer": "y" * 5000,
                               "prompt_tokens": 1, "completion_tokens": 1, "latency_ms": 1.0})
    for k in range(40):
        record.event("test_cases", test_cases=[{"name": f"t{k}", "input": {"x": "z" * 200}}])
    room = {"bytes": 0}

    def limited(path, text):
        if len(text.encode()) > room["bytes"]:
            raise WriteError(f"cannot write {path}: No space left on device (ENOSPC)")
        write_atomically(path, text)
    monkeypatch.setattr(run_record, "write_atomically", limited)
    for bytes_free, compacted in ((20_000, "prompts and answers"), (2_000, "events, calls and tests")):
        room["bytes"] = bytes_free
        record.finish("error", "No space left", {"function_code": "def run_code(): pass", "test_cases": [{"name": "t"}]})
        saved = json.loads((tmp_path / "run.json").read_text())
        assert saved["status"] == "error" and saved["finished_at"] and compacted in saved["compacted"]
    assert saved["final"] == {"function_code": "def run_code(): pass"} and "events" not in saved
