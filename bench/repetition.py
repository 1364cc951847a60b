"""Do llama-server's anti-repetition settings stop the answers that ran away? Replays them and prints numbers.

    python -m bench.repetition --from bench-results/DIR                 # every run's lost answer under DIR
    python -m bench.repetition --from DIR --limit 8 --settings default,repeat,dry

The first answer of each run that ran away (stopped as a loop, or cut at the token cap with nothing
salvaged: bench's "runaways"; the ones after it are its retries) is asked again with its own messages
at temperature 0 on the embedded model, once per setting, with the same watcher a run uses (a list of
tests is cut after 8 complete items, a loop as soon as it shows); so are as many answers from the same
runs that did not run away, to see what a setting does to good answers. Per setting it prints how many
ran away again, how many were usable (they parse as the node's answer; a list of tests cut short keeps
its complete items, as in a run), the completion tokens and the seconds.
"""
import argparse
import json
import tempfile
from dataclasses import replace
from pathlib import Path

from utils.call_llm import ModelBackendError, call_llm
from utils.llama_server import LlamaServer
from utils.local_model import MODEL_NAME, ensure_local_model
from utils.runaway import complete_tests, watch_loops, watch_tests
from utils.yaml_answer import AnswerError, parse_code_answer, parse_tests_answer

SETTINGS = {  # llama-server's own sampling fields; "default" sends none
    "default": (),
    "repeat": (("repeat_penalty", 1.1), ("repeat_last_n", 256)),
    "frequency": (("frequency_penalty", 0.3),),
    "dry": (("dry_multiplier", 0.8), ("dry_base", 1.75), ("dry_allowed_length", 2)),
}
MAX_TESTS = 8  # the shipped max_tests: a test list is cut after this many items, as in a run
CAP = 1500     # the longest answer any node asks for


def lost(call):
    return call.get("finish_reason") in ("length", "repetition") and not call.get("salvaged")


def calls_to_replay(folder, limit):
    """(lost answers, as many good ones), each {"node", "messages"}, from the run.json files under folder."""
    runaway, good = [], []
    for record in sorted(Path(folder).glob("**/run.json")):
        calls = [call for call in json.loads(record.read_text(encoding="utf-8")).get("model_calls", [])
                 if call.get("node") in ("GenerateTestCases", "ImplementFunction") and call.get("messages")]
        first_lost = next((call for call in calls if lost(call)), None)  # later ones are its retries
        runaway += [{"node": first_lost["node"], "messages": first_lost["messages"]}] if first_lost else []
        good += [{"node": call["node"], "messages": call["messages"]} for call in calls if not lost(call)]
    runaway = runaway[:limit] if limit else runaway
    step = max(1, len(good) // max(1, len(runaway)))
    return runaway, good[::step][:len(runaway)]


def usable(node, reply):
    text = reply.text
    if reply.finish_reason in ("length", "repetition"):
        text = complete_tests(text) if node == "GenerateTestCases" else None
        if text is None:
            return False
    try:
        parse_tests_answer(text, MAX_TESTS) if node == "GenerateTestCases" else parse_code_answer(text)
        return True
    except AnswerError:
        return False


def replay(config, calls):
    """{"runaways", "usable", "tokens", "seconds"} over the calls, asked one after another."""
    totals = {"runaways": 0, "usable": 0, "tokens": 0, "seconds": 0.0, "errors": 0}
    for call in calls:
        watch = watch_tests(MAX_TESTS) if call["node"] == "GenerateTestCases" else watch_loops()
        try:
            reply = call_llm(call["messages"], config, watch=watch)
        except ModelBackendError:
            totals["errors"] += 1
            continue
        totals["runaways"] += reply.finish_reason in ("length", "repetition") and not (
            call["node"] == "GenerateTestCases" and complete_tests(reply.text))
        totals["usable"] += usable(call["node"], reply)
        totals["tokens"] += reply.completion_tokens
        totals["seconds"] += reply.latency_ms / 1000
    return totals


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--from", dest="folder", required=True, help="a bench --out folder (its runs/**/run.json)")
    parser.add_argument("--limit", type=int, help="at most this many lost answers (and as many good ones)")
    parser.add_argument("--settings", default=",".join(SETTINGS), help=f"comma-separated, of {', '.join(SETTINGS)}")
    args = parser.parse_args()
    names = args.settings.split(",")
    unknown = [name for name in names if name not in SETTINGS]
    if unknown:
        parser.error(f"unknown setting(s): {', '.join(unknown)}")
    runaway, good = calls_to_replay(args.folder, args.limit)
    if not runaway:
        print(f"no lost answers under {args.folder}")
        return
    print(f"replaying {len(runaway)} lost and {len(good)} good answers (GenerateTestCases, ImplementFunction), "
          f"temperature 0, cap {CAP} tokens")
    binary, weights = ensure_local_model(print)
    with tempfile.TemporaryDirectory() as scratch, LlamaServer(binary, weights, log_path=Path(scratch) / "log") as server:
        base = replace(server.model_config(MODEL_NAME), temperature=0.0, max_tokens=CAP)
        print("| setting | fields | lost answers: ran away again | usable | tokens | s | good answers: ran away | usable | tokens | s |")
        print("|---|---|---|---|---|---|---|---|---|---|")
        for name in names:
            config = replace(base, sampling=SETTINGS[name])
            bad, fine = replay(config, runaway), replay(config, good)
            fields = ", ".join(f"{k}={v}" for k, v in SETTINGS[name]) or "-"
            print(f"| {name} | {fields} | {bad['runaways']}/{len(runaway)} | {bad['usable']} | {bad['tokens']:,} | "
                  f"{bad['seconds']:.0f} | {fine['runaways']}/{len(good)} | {fine['usable']} | {fine['tokens']:,} | "
                  f"{fine['seconds']:.0f} |", flush=True)


if __name__ == "__main__":
    main()
