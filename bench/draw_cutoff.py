"""python -m bench.draw_cutoff DIR [DIR ...] [--at N]: what draws after the N-th bought, from the records.

A run that draws more than N times (the strategy `eight-draws`, say) holds, in its first N draws, the run it
would have been with `max_draws` N: a draw is made only while no candidate passes the statement's examples,
so the first N draws and what they returned are the same, and a run whose first passing candidate came in
draw N or before ends the same way. One whose first passing candidate came later would have ended unsolved
at N (its oracle handed over where that passes the hidden tests, as an unsolved run hands it over); one where
no candidate passed at all would have ended the same way, sooner. Prints each run that drew more than N
times (its draws, the draw of its first passing candidate, the seconds from the start of draw N+1 to its end,
its outcome), then the totals: hidden-test passes with all the draws and with N, and the seconds draws past
N took. Reads records only; asks no model and runs no code. A folder that is not there, or a record it cannot
read, is one line on stderr and exit 2.

    python -m bench.draw_cutoff bench-results/s34-lc3-8 --at 4
"""
import argparse
import json
import sys
from pathlib import Path

from bench.vote_accuracy import passes_trusted, runs
from settings import Settings


def draws_of(run):
    """[(round, [candidate ids])] of the run's draws in order: the rounds of ImplementFunction's candidates
    (a short first draw's rest shares its round)."""
    rounds = {}
    for attempt in run["final"]["attempts"]:
        if attempt["source"] == "implement":
            rounds.setdefault(attempt["round"], []).append(attempt["id"])
    return sorted(rounds.items())


def first_passing_draw(run, draws):
    """The 1-based draw of the first candidate that passes the trusted tests, or None."""
    passing = {a["id"] for a in run["final"]["attempts"] if a["source"] == "implement" and passes_trusted(a)}
    return next((number for number, (_, ids) in enumerate(draws, 1) if passing & set(ids)), None)


def draw_started(run, ids):
    """When ImplementFunction began the step that returned these candidates (seconds into the run)."""
    started = 0.0
    for event in run["events"]:
        if event["kind"] == "node_started" and event.get("node") == "ImplementFunction":
            started = event["at_s"]
        elif event["kind"] == "function_code" and set(ids) & set(event.get("attempts") or []):
            return started
    raise ValueError(f"no function_code event holds attempts {ids}")


def more_rounds(row):
    """A note when the run judged more rounds than the defaults allow (`eight-draws` raises max_iterations to
    hold its draws, which also leaves more rounds to revise in): with the defaults it may have ended otherwise."""
    limit = Settings().max_iterations
    return f" ({row['iterations']} rounds, more than the default {limit})" if row.get("iterations", 0) > limit else ""


def cut(row, run, draws, at):
    """(this run's line, hidden pass with all its draws, hidden pass at `at` draws, seconds past `at`) of a run
    that drew more than `at` times."""
    first = first_passing_draw(run, draws)
    later = round(run["wall_s"] - draw_started(run, draws[at][1]), 1)
    hidden = bool(row.get("hidden_pass"))
    hidden_at = bool(row.get("oracle_hidden_pass")) if first and first > at else hidden
    line = (f"{row['id']}: {len(draws)} draws, first passing candidate in draw {first or '-'}, {later} s past draw "
            f"{at}; {row['status']}, hidden {'pass' if hidden else 'fail'} (at {at}: {'pass' if hidden_at else 'fail'})"
            f"{more_rounds(row)}")
    return line, hidden, hidden_at, later


def read(found, at):
    """(finished runs, their draws, the cuts of those that drew more than `at` times) from {run_dir: result line}."""
    rows = [(row, json.loads((Path(run_dir) / "run.json").read_text())) for run_dir, row in sorted(found.items())]
    finished = [(row, run) for row, run in rows if run.get("final")]
    drawn = [(row, run, draws_of(run)) for row, run in finished]
    return finished, drawn, [cut(row, run, draws, at) for row, run, draws in drawn if len(draws) > at]


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench.draw_cutoff", description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", metavar="DIR", help="benchmark folders (--out of python -m bench)")
    parser.add_argument("--at", type=int, default=4, metavar="N", help="the draws to compare with (default 4)")
    args = parser.parse_args(argv)
    missing = [folder for folder in args.folders if not Path(folder).is_dir()]
    if missing:
        print(f"python -m bench.draw_cutoff: no such folder: {missing[0]}", file=sys.stderr)
        return 2
    try:
        finished, drawn, cuts = read(runs(args.folders), args.at)
    except (ValueError, KeyError, TypeError) as exc:  # a run.json cut short or not of this flow (JSONDecodeError too)
        print(f"python -m bench.draw_cutoff: a record it cannot read: {exc!r}"[:300], file=sys.stderr)
        return 2
    for line, *_ in cuts:
        print(line)
    for row, _, draws in drawn:
        if more_rounds(row) and len(draws) <= args.at:
            print(f"{row['id']}: {len(draws)} draws{more_rounds(row)}; {row['status']}")
    all_pass = sum(bool(row.get("hidden_pass")) for row, _ in finished)
    at_cut = all_pass + sum(int(at) - int(hidden) for _, hidden, at, _ in cuts)  # only the runs cut can differ
    print(f"{len(finished)} runs, {len(cuts)} drew more than {args.at} times: hidden-test passes {all_pass} with every "
          f"draw, {at_cut} at {args.at}; draws past {args.at} took "
          f"{sum(c[3] for c in cuts):.0f} s of {sum(run['wall_s'] for _, run in finished):.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
