"""Two benchmark folders, problem by problem: how each run ended, whether it passed the hidden tests, and
what it cost. Reads two --out folders of `python -m bench`, prints a markdown table and the totals.

    python -m bench.side_by_side bench-results/before bench-results/after [--strategy full]

A row says `same` when both runs ended with the same status and hidden verdict, and, with --exact, the
same model calls and tokens too (runs with a fixed sampling seed that should be identical call for call).
"""
import argparse
import json
import sys
from pathlib import Path


def results(folder, strategy):
    rows = {}
    for line in (Path(folder) / "results.jsonl").read_text().splitlines():
        row = json.loads(line)
        if row["strategy"] == strategy:
            rows[(row["dataset"], row["id"])] = row
    return rows


def outcome(row):
    if row is None:
        return "not run"
    hidden = "pass" if row.get("hidden_pass") else "fail"
    return f"{row['status']}, hidden {hidden}"


def cost(row):
    return "" if row is None else f"{row['model_calls']} calls, {row['prompt_tokens'] + row['completion_tokens']:,} tok, {row['wall_s']:.0f} s"


def same(a, b, exact):
    if a is None or b is None:
        return False
    alike = (a["status"], a.get("hidden_pass")) == (b["status"], b.get("hidden_pass"))
    if exact:
        alike = alike and (a["model_calls"], a["prompt_tokens"], a["completion_tokens"]) == \
            (b["model_calls"], b["prompt_tokens"], b["completion_tokens"])
    return alike


def totals(rows):
    done = [row for row in rows if row is not None]
    claims = [row for row in done if row["status"] == "solved"]
    return {"runs": len(done), "hidden pass": sum(bool(row.get("hidden_pass")) for row in done),
            "solved": len(claims), "false successes": sum(not row.get("hidden_pass") for row in claims),
            "correct but not trusted": sum(bool(row.get("hidden_pass")) and row["status"] != "solved" for row in done),
            "unconfirmed": sum(row["status"] == "unconfirmed" for row in done),
            "median wall s": sorted(row["wall_s"] for row in done)[len(done) // 2] if done else 0}


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench.side_by_side", description=__doc__.splitlines()[0])
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--strategy", default="full")
    parser.add_argument("--exact", action="store_true", help="also the same calls and tokens (seeded runs)")
    args = parser.parse_args(argv)
    before, after = results(args.before, args.strategy), results(args.after, args.strategy)
    print(f"| problem | {Path(args.before).name} | {Path(args.after).name} | |")
    print("|---|---|---|---|")
    keys = list(before) + [key for key in after if key not in before]
    for key in keys:
        a, b = before.get(key), after.get(key)
        mark = "same" if same(a, b, args.exact) else "**differs**"
        print(f"| {key[1]} | {outcome(a)} ({cost(a)}) | {outcome(b)} ({cost(b)}) | {mark} |")
    for name, rows in ((Path(args.before).name, before.values()), (Path(args.after).name, after.values())):
        print(f"\n{name}: " + ", ".join(f"{k} {v}" for k, v in totals(list(rows)).items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
