"""run.json as a page reads it: the file found from a run's folder, parsed, and checked to be a run's record.

What cannot be read is a RecordError (an InputError: exit 2) whose one line names the file and what is wrong:
missing, not JSON, cut off while written, or JSON of another shape. Beyond those checks the page reads the
record leniently (older records lack fields newer ones have), so each key's type is checked where it is read.
"""
import json
import os

from utils.text_files import InputError, read_text_file

MAX_CHARS = 200_000_000  # far above any run's record (the largest kept is 0.4 MB; a 5 MB one renders in 1-2 s)
SHAPES = {"status": str, "problem": str, "message": str, "settings": dict, "final": (dict, type(None)),
          "events": list, "model_calls": list, "node_timings": list, "usage": dict}


class RecordError(InputError):
    """A run.json a page cannot be made from; the message is one line."""


def record_path(run):
    """run.json's path from a run's folder or the file itself."""
    if os.path.isdir(run):
        path = os.path.join(run, "run.json")
        if not os.path.exists(path):
            raise RecordError(f"{run}: no run.json in this folder (give a run's folder, or its run.json)")
        return path
    return run


def read_record(path):
    """The record, a dict; RecordError when it is not one a page can be made from."""
    text = read_text_file(path, path, MAX_CHARS)
    try:
        record = json.loads(text)
    except json.JSONDecodeError as exc:
        if exc.pos >= len(text.rstrip()) or exc.msg.startswith("Unterminated string"):  # a string runs to the end
            raise RecordError(f"{path}: the JSON ends early (cut off while written?), at line "
                              f"{text.count(chr(10)) + 1}") from None
        raise RecordError(f"{path}: not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except RecursionError:
        raise RecordError(f"{path}: not valid JSON for a record: nested too deeply") from None
    if not isinstance(record, dict):
        raise RecordError(f"{path}: not a codeloop run record: the JSON is {kind(record)}, not an object")
    if "status" not in record:
        raise RecordError(f"{path}: not a codeloop run record: it has no \"status\"")
    for key, shape in SHAPES.items():
        if key in record and not isinstance(record[key], shape):
            raise RecordError(f"{path}: not a codeloop run record: \"{key}\" is {kind(record[key])}")
    return record


def kind(value):
    """A JSON value's type in words."""
    names = {dict: "an object", list: "a list", str: "a string", bool: "true or false", type(None): "null"}
    return names.get(type(value), "a number")
