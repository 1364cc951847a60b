"""What run.html shows, from run.json alone: the ending in the CLI's words, the tests (where each expected value
came from, whether it counted, every version's output on it and which ones agreed), and every version of the code
with its diff from its parent and the tests it passed. The timeline is pages/timeline.py's.

Records of every age are read: a key an older record lacks is shown as absent, never guessed. Every version's
output on every test is in the final tree's `results` since issue 88; before, a version's outputs are those of
the rounds it was the current one (the test_run events), and the others' cells are empty.
"""
import json
import math
from urllib.parse import quote

from core.cases import Evidence
from core.expected_values import describe
from pages.code_view import diff_lines, highlight

ENDINGS = {"solved": "Solved", "unconfirmed": "Not confirmed", "unsolved": "Not solved", "untested": "Untested",
           "model_failed": "The model failed", "interrupted": "Interrupted", "error": "Stopped by an error",
           "stopped": "Finished early by the person", "running": "Running, or stopped before it could end"}
ROLES = {"implement": "candidate", "revise": "revision", "user": "your edit", "oracle": "oracle (brute force)",
         "checker": "checker", "validator": "input validator"}
JUDGES = ("checker", "validator")  # their outputs judge answers or inputs: no column among the answers
TRUSTED = ("statement", "user")
NOT_SETTLED = "not settled: the run ended before programs ran on it"
SHOWN = 300  # characters of a value shown in a table cell; run.json has the rest


def mapping(value):
    return value if isinstance(value, dict) else {}


def items(value):
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def text(value):
    return "" if value is None else str(value)


def cut(said, limit=SHOWN):
    return said if len(said) <= limit else f"{said[:limit]}… ({len(said):,} characters in run.json)"


def shown(value):
    """A value (an input, an expected value) as compact JSON, cut to SHOWN characters; a stdio problem's texts
    (its input {"stdin": text}, what a program prints) as the text itself, its lines kept."""
    if isinstance(value, dict) and list(value) == ["stdin"] and isinstance(value["stdin"], str):
        value = value["stdin"]
    if isinstance(value, str) and "\n" in value:
        return cut(value.rstrip("\n"))
    try:
        said = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    except (TypeError, ValueError):
        said = repr(value)
    return cut(said)


def run_view(record, link_prefix=""):
    """Everything run.html shows. `link_prefix`: the run's folder as seen from the page's (for the file links)."""
    final = mapping(record.get("final"))
    results = version_results(record, final)
    versions = version_list(final, results)
    tests = test_rows(final, versions, results)
    problem = text(record.get("problem"))
    return {"title": next((line.strip() for line in problem.splitlines() if line.strip()), "a run")[:120],
            "problem": problem, "ending": ending(record, final), "facts": facts(record, final),
            "tests": tests, "counted": sum(row["counted"] for row in tests),
            "dropped": dropped_rows(record, {row["name"] for row in tests}),
            "versions": versions, "columns": [v for v in versions if v["answers"]],
            "files": files(record, final, link_prefix), "explanation": explanation(record)}


def ending(record, final):
    status = text(record.get("status") or final.get("status"))
    return {"status": status, "heading": ENDINGS.get(status, status),
            "message": text(record.get("message") or final.get("message")),
            "confidence": confidence(record.get("confidence")) or confidence(final.get("confidence"))}


def confidence(value):
    """The ending's confidence (core/confidence.py's record: value, threshold, the evidence in words, how runs scored
    alike did held out, its reading), in the CLI's words; None if absent."""
    number = mapping(value).get("value")
    if isinstance(number, bool) or not isinstance(number, (int, float)):
        return None
    threshold = value.get("threshold")
    needs = f"a claim needs {threshold:.2f}" if isinstance(threshold, (int, float)) and not isinstance(threshold, bool) else ""
    fitted = text(value.get("fitted_for"))
    return {"value": f"{math.floor(number * 100) / 100:.2f}", "label": needs, "fitted_on": fitted and f"{fitted}'s runs",
            "reading": "" if fitted else text(value.get("reading")), "rests_on": text(value.get("words")),
            "held": text(value.get("backed_by"))}


def facts(record, final):
    settings, usage = mapping(record.get("settings")), mapping(record.get("usage") or final.get("usage"))
    model, sandbox = mapping(settings.get("model")), mapping(settings.get("sandbox"))
    return {"model": text(model.get("model")), "endpoint": text(model.get("base_url")) or "OpenAI",
            "isolation": text(sandbox.get("isolation")), "started": text(record.get("started_at")),
            "wall_s": record.get("wall_s"), "calls": usage.get("model_calls"),
            "prompt_tokens": usage.get("prompt_tokens"), "completion_tokens": usage.get("completion_tokens"),
            "model_seconds": usage.get("model_seconds"), "iterations": final.get("iterations"),
            "settings": json.dumps(settings, indent=1, ensure_ascii=False)}


def by_name(results, names):
    """Results by their test's name; a record before results carried names lists them in the tests' order."""
    return {text(result.get("name", names[k] if k < len(names) else f"#{k + 1}")): result
            for k, result in enumerate(items(results))}


def version_results(record, final):
    """{version id: {test name: its result}}: the final tree's, else the rounds' (see the module's docstring)."""
    found, names = {}, []
    for event in items(record.get("events")):
        if event.get("kind") in ("test_cases", "evidence"):  # the tests from here on: those the next round runs
            names = [text(case.get("name")) for case in items(event.get("test_cases"))]
        if event.get("kind") == "test_run" and event.get("results"):
            found[event.get("attempt")] = by_name(event["results"], names)
    if final.get("test_results"):
        names = [text(case.get("name")) for case in items(final.get("test_cases"))]
        found[final.get("attempt")] = by_name(final["test_results"], names)
    for attempt in items(final.get("attempts")):
        if attempt.get("results"):
            found[attempt.get("id")] = by_name(attempt["results"], [])
    return found


def outcome(result):
    """One version's result on one test, for a cell: passed, counted, and what it returned or how it failed."""
    if result is None:
        return None
    if result.get("timed_out"):
        said = "timed out"
    elif result.get("error_type"):
        said = f"raised {result['error_type']}" + (f": {result['message']}" if result.get("message") else "")
    else:
        said = text(result.get("actual"))
    return {"passed": bool(result.get("passed")), "said": cut(said, 200), "unjudged": bool(result.get("unjudged"))}


def version_list(final, results):
    attempts = items(final.get("attempts"))
    if not attempts and final.get("function_code"):  # a compacted record: only the code handed over
        attempts = [{"id": final.get("attempt") or 1, "source": "implement", "code": final["function_code"]}]
    codes = {attempt.get("id"): text(attempt.get("code")) for attempt in attempts}
    versions = []
    for attempt in attempts:
        number, parent, code = attempt.get("id"), attempt.get("parent"), text(attempt.get("code"))
        source, mine = text(attempt.get("source")), results.get(attempt.get("id"), {})
        versions.append({
            "id": number, "role": ROLES.get(source, source), "answers": source not in JUDGES,
            "round": attempt.get("round"), "status": text(attempt.get("status")),
            "parent": parent if parent in codes else None, "handed_over": number == final.get("attempt"),
            "judging": number == final.get("checker"), "score": score(attempt), "code": highlight(code),
            "diff": diff_lines(codes[parent], code) if parent in codes else [],
            "check": check_words(attempt.get("check")), "broke": [text(b) for b in attempt.get("broke") or []],
            "lint": [f"line {f.get('line')}: {f.get('code')} {f.get('message')}" for f in items(attempt.get("lint"))],
            "notes": [text(note) for note in attempt.get("notes") or [] if note],
            "passed": [name for name, r in mine.items() if r.get("passed")],
            "failed": [name for name, r in mine.items() if not r.get("passed") and r.get("counted", True)]})
    return versions


def score(attempt):
    if "passed" not in attempt:
        return ""
    said = f"{attempt.get('passed')}/{attempt.get('total')} counted tests pass"
    if attempt.get("trusted_total"):
        said += f" ({attempt.get('trusted_passed')}/{attempt.get('trusted_total')} trusted)"
    return said


def check_words(check):
    """CheckCode's finding in words: "" when the code loaded."""
    if check in (None, "ok"):
        return ""
    check = mapping(check)
    return f"failed the {text(check.get('check')) or 'load'} check: {text(check.get('error_type'))} " \
           f"{text(check.get('message'))}".strip()


def evidence_words(evidence, origin):
    """Where a test's expected value came from, in the words of the exported tests (core/expected_values.py)."""
    if not evidence:
        return {"statement": "from the problem statement", "user": "from the user"}.get(origin, NOT_SETTLED)
    try:
        return describe(Evidence.from_record(evidence))
    except (KeyError, ValueError, TypeError):  # a source this version does not know (a newer record)
        return text(evidence.get("source"))


def test_rows(final, versions, results):
    columns = [version["id"] for version in versions if version["answers"]]
    rows = []
    for case in items(final.get("test_cases")):
        name, origin, evidence = text(case.get("name")), text(case.get("origin") or "model"), mapping(case.get("evidence"))
        counted = bool(evidence.get("counted")) if "counted" in evidence else origin in TRUSTED
        cells = [(number, outcome(results.get(number, {}).get(name))) for number in columns]
        rows.append({"name": name, "origin": origin, "input": shown(case.get("input")), "counted": counted,
                     "expected": shown(case.get("expected")) if counted or origin in TRUSTED else "",
                     "guess": shown(case.get("guess")) if "guess" in case else "",
                     "source": text(evidence.get("source")) or (origin if origin in TRUSTED else "not settled"),
                     "why": evidence_words(evidence, origin), "revised": text(case.get("revised")),
                     "cells": cells, "agreement": agreement(cells)})
    return rows


def agreement(cells):
    """The versions that returned the same, largest group first: which programs agreed on a test."""
    groups = {}
    for number, result in cells:
        if result is not None:
            groups.setdefault(result["said"], []).append(number)
    return sorted(({"said": said, "versions": numbers} for said, numbers in groups.items()),
                  key=lambda group: -len(group["versions"]))


def dropped_rows(record, kept):
    """The inputs the run dropped (programs raised there, a promise of the statement broken), with why."""
    inputs, why = {}, {}
    for event in items(record.get("events")):
        for case in items(event.get("test_cases")):
            inputs.setdefault(text(case.get("name")), case.get("input"))
        why.update({text(name): text(source) for name, source in mapping(event.get("why_dropped")).items()})
    return [{"name": name, "input": shown(inputs.get(name)), "why": evidence_words({"source": source}, "")}
            for name, source in why.items() if name not in kept]


def files(record, final, link_prefix):
    """The run's exported files, as links relative to the page (a name is quoted: never a URL scheme)."""
    names = [text(path).replace("\\", "/").rsplit("/", 1)[-1] for path in final.get("files") or []]
    names += ["run.json"] + (["explanation.md"] if explanation(record) else [])
    return [{"name": name, "href": quote(link_prefix or "./") + quote(name)} for name in dict.fromkeys(names)
            if name and name != "run.html"]


def explanation(record):
    return next((text(event.get("explanation")) for event in items(record.get("events"))
                 if event.get("kind") == "explanation"), "")
