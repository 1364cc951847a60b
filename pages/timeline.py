"""Where a run's time went, from run.json: each step (node_timings), the model calls made in it (model_calls,
each journaled as it returned, so it began `latency_ms` earlier) and what the step recorded (events), placed on
one scale from the run's start, with seconds and tokens; and the totals per step, longest first.

A call or an event belongs to the last step that started before it (the flow runs one step at a time; a step's
calls run inside it, several at once in ImplementFunction).
"""
import bisect

from pages.run_view import cut, items, text

ANSWER_SHOWN = 4000  # characters of a model's answer on the page; the prompts and whole answers are in run.json
EVENT_WORDS = {"test_cases": "tests written", "function_code": "code written", "evidence": "expected values settled",
               "dispute_draw": "more candidates drawn before calling it solved",
               "rest_of_draw": "the draw's other candidates asked",
               "draw_repeats": "a candidate returns what an earlier program returns: no new program",
               "tell_apart": "fresh inputs tried on the passing versions", "empty_check": "empty inputs tried",
               "speed_check": "the largest input timed", "problem_kind": "the problem's family read",
               "explanation": "the code explained"}


def number(value):
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else 0


def timeline(record):
    steps = [{"node": text(t.get("node")), "start": number(t.get("started_at_s")), "seconds": number(t.get("seconds")),
              "calls": [], "events": []} for t in items(record.get("node_timings"))]
    calls = [call_row(call) for call in items(record.get("model_calls"))]
    events = [event_row(event) for event in items(record.get("events")) if event.get("kind") != "node_started"]
    ends = [s["start"] + s["seconds"] for s in steps] + [c["start"] + c["seconds"] for c in calls] + [e["at"] for e in events]
    wall = max([number(record.get("wall_s"))] + ends) or 1
    starts, loose = [s["start"] for s in steps], {"node": "outside any step", "start": 0, "seconds": 0, "calls": [], "events": []}
    for kind, rows in (("calls", calls), ("events", events)):
        for row in rows:
            at = row["start"] + row["seconds"] if kind == "calls" else row["at"]
            index = bisect.bisect_right(starts, at + 1e-3) - 1  # the record rounds times to the millisecond
            (steps[index] if index >= 0 else loose)[kind].append(row)
    for row in steps + calls + [loose]:
        row["left"], row["width"] = f"{100 * row['start'] / wall:.2f}", f"{max(0.15, 100 * row['seconds'] / wall):.2f}"
    return {"wall": wall, "steps": steps + ([loose] if loose["calls"] or loose["events"] else []),
            "totals": totals(steps)}


def call_row(call):
    seconds = number(call.get("latency_ms")) / 1000
    return {"node": text(call.get("node")), "start": max(0, number(call.get("at_s")) - seconds), "seconds": seconds,
            "prompt_tokens": number(call.get("prompt_tokens")), "completion_tokens": number(call.get("completion_tokens")),
            "cached": call.get("prompt_cached"), "finish": text(call.get("finish_reason")), "error": text(call.get("error")),
            "answer": cut(text(call.get("answer")), ANSWER_SHOWN)}


def event_row(event):
    kind = text(event.get("kind"))
    if kind == "test_run":
        said = (f"round {event.get('iteration')}: version {event.get('attempt')} passes {event.get('passed')}/"
                f"{event.get('total')} counted tests")
    elif event.get("message"):
        said = f"{kind.replace('_', ' ')}: {text(event['message'])}"
    elif kind == "error":
        said = "error: " + (text(event.get("traceback")).strip().splitlines() or [""])[-1]
    elif kind == "function_code":
        said = f"code written: version {', '.join(map(str, event.get('attempts') or []))}" + \
               (f", oracle {event['oracle']}" if event.get("oracle") else "")
    else:
        said = EVENT_WORDS.get(kind, kind.replace("_", " "))
    return {"at": number(event.get("at_s")), "said": cut(said, 400)}


def totals(steps):
    """Per step name: runs, seconds, calls and tokens, longest first."""
    by_node = {}
    for step in steps:
        total = by_node.setdefault(step["node"], {"node": step["node"], "runs": 0, "seconds": 0.0, "calls": 0,
                                                  "prompt_tokens": 0, "completion_tokens": 0})
        total["runs"] += 1
        total["seconds"] += step["seconds"]
        total["calls"] += len(step["calls"])
        total["prompt_tokens"] += sum(call["prompt_tokens"] for call in step["calls"])
        total["completion_tokens"] += sum(call["completion_tokens"] for call in step["calls"])
    return sorted(by_node.values(), key=lambda total: -total["seconds"])
