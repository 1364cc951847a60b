"""python -m bench.reference_speed DIR... : benchmark wall times as a machine of a given model speed would see them.

A run's wall time is almost all the model's (97% on 2 cores), and the embedded model's speed is the
machine's, not the code's: this machine generated about 25 tokens a second when issue 28 set its time goals
(the issue's own figures at 44f4b8d: prompts read at about 80 tokens a second, answers at about 25) and 10-13 in
the runs of 2026-11-28, so the same code's median doubled without any change in what it asks. This reads each
`full` run's run.json, takes out the seconds its model calls took, and puts back the time their tokens take at
the reference speeds: the prompt tokens the server read (`prompt_n`: a cached start costs nothing) at
`--prompt-tps`, the tokens it generated (`predicted_n`) at `--gen-tps`. A call the server sent no timings for
(an answer stopped while it streamed, a retry: 23 of 241 calls in `s32-lc4` and `s32-lc1`) has its seconds
scaled by the folder's median generation speed against `--gen-tps`, and is counted. The rest (sandbox,
parsing) stays as it was.

Prints per folder and for all of them together: runs, the machine's median tokens a second (calls of over 50
tokens), the median wall s as run and at the reference speeds, and runs solved and right within 60 / 120 /
300 s both ways. Reads records only; asks no model and runs no code.

    python -m bench.reference_speed bench-results/s32-lc4 bench-results/s32-lc1
"""
import argparse
import json
import os
import statistics
import sys

from bench.report import WITHIN_S
from bench.vote_accuracy import runs

PROMPT_TPS, GEN_TPS = 80.0, 25.0  # issue 28's figures for the embedded model at 44f4b8d, 2 cores
BUSY = 50  # tokens: shorter calls say little about a speed


def retimed(run, prompt_tps, gen_tps, machine_gen):
    """(wall s as run, wall s at the reference speeds, calls without the server's timings, scaled by the
    machine's generation speed `machine_gen` against the reference: their time is mostly generating)."""
    model_s, reference_s, untimed = 0.0, 0.0, 0
    for call in run.get("model_calls", []):
        seconds = (call.get("latency_ms") or 0) / 1000
        timings = call.get("server_timings") or {}
        model_s += seconds
        if "predicted_n" in timings:
            reference_s += timings.get("prompt_n", 0) / prompt_tps + timings["predicted_n"] / gen_tps
        else:
            reference_s += seconds * machine_gen / gen_tps
            untimed += 1
    return run["wall_s"], run["wall_s"] - model_s + reference_s, untimed


def machine_speeds(run):
    """The run's calls' (prompt tok/s, generated tok/s), each where the call read or wrote over BUSY tokens."""
    prompt, gen = [], []
    for call in run.get("model_calls", []):
        timings = call.get("server_timings") or {}
        if timings.get("prompt_n", 0) > BUSY:
            prompt.append(timings["prompt_per_second"])
        if timings.get("predicted_n", 0) > BUSY:
            gen.append(timings["predicted_per_second"])
    return prompt, gen


def folder_runs(folder):
    """(run.json, its result line) of each `full` run in the folder (bench.vote_accuracy.runs: the last line of a
    run wins, and only runs whose run.json is there)."""
    found = []
    for run_dir, line in sorted(runs([folder]).items()):
        if line.get("strategy") == "full":
            with open(os.path.join(run_dir, "run.json"), encoding="utf-8") as f:
                found.append((json.load(f), line))
    return found


def summary(name, runs, prompt_tps, gen_tps):
    prompt, gen = [], []
    for run, _ in runs:
        p, g = machine_speeds(run)
        prompt += p
        gen += g
    machine_gen = statistics.median(gen) if gen else gen_tps  # no timings at all: nothing to scale by
    rows = [(retimed(run, prompt_tps, gen_tps, machine_gen), line) for run, line in runs]
    right = [times for times, line in rows if line.get("status") == "solved" and line.get("hidden_pass")]

    def within(index):
        return "/".join(str(sum(times[index] <= limit for times in right)) for limit in WITHIN_S)
    median = (lambda values: f"{statistics.median(values):.1f}" if values else "-")
    return (f"{name:<28} {len(rows):>4}  {median(prompt):>6} / {median(gen):<5}  "
            f"{median([t[0] for t, _ in rows]):>8}  {median([t[1] for t, _ in rows]):>8}  "
            f"{within(0):>11}  {within(1):>11}  {sum(t[2] for t, _ in rows):>8}")


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench.reference_speed", description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="+", help="benchmark folders (--out of python -m bench)")
    parser.add_argument("--prompt-tps", type=float, default=PROMPT_TPS, help=f"prompt tokens read a second (default {PROMPT_TPS:g})")
    parser.add_argument("--gen-tps", type=float, default=GEN_TPS, help=f"tokens generated a second (default {GEN_TPS:g})")
    args = parser.parse_args(argv)
    if args.prompt_tps <= 0 or args.gen_tps <= 0:
        parser.error("speeds must be above 0")
    missing = [folder for folder in args.folders if not os.path.isdir(folder)]
    if missing:
        print(f"bench.reference_speed: no such folder: {missing[0]}", file=sys.stderr)
        return 2
    print(f"{'folder':<28} {'runs':>4}  machine tok/s  {'median s':>8}  {'at ref':>8}  {'within (as run)':>11}  "
          f"{'within (at ref)':>11}  calls scaled")
    print(f"{'':<28} {'':>4}  prompt / gen   {'':>8}  {'':>8}  60/120/300 s")
    every = []
    for folder in args.folders:
        runs = folder_runs(folder)
        every += runs
        print(summary(os.path.basename(os.path.normpath(folder)), runs, args.prompt_tps, args.gen_tps))
    if len(args.folders) > 1:
        print(summary("all", every, args.prompt_tps, args.gen_tps))
    print(f"(reference: prompts at {args.prompt_tps:g} tokens a second, answers at {args.gen_tps:g})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
