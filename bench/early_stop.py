"""python -m bench.early_stop FOLDER [FOLDER ...]: what stopping a hopeless problem after two draws would cost.

Each FOLDER holds a bench.pass_at_k samples.jsonl whose samples were drawn at one temperature and format.
The flow draws candidates `--per-draw` at a time, up to `--draws` draws, while none passes the
statement's examples. Replayed here on each problem's samples in order (k = 0, 1, ...): a problem is
reached at the first draw holding a sample that passes the examples, and solved there if one of that
draw's samples that pass the examples also passes the hidden tests. The rule measured: after `--keep`
draws with no sample passing the examples, draw again only if the best sample so far passed more than
`--above` of the examples. Prints, per problem, its samples in order (H passes the examples and the
hidden tests, e the examples only, a digit how many ninths of the examples it passed) and what each
way reaches; then the totals: problems solved with all draws and with the rule, and the samples the
rule leaves undrawn. No model.

    python -m bench.early_stop bench-results/passk-lc3 bench-results/passk-he3
"""
import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path


def replay(samples, per_draw, draws, keep=None, above=0.5):
    """(draw reached or None, solved?, samples drawn) for one problem's samples in order; `keep`: the rule."""
    best = 0.0
    for draw in range(draws):
        if keep is not None and draw >= keep and best <= above:
            return None, False, draw * per_draw
        batch = samples[draw * per_draw:(draw + 1) * per_draw]
        passing = [s for s in batch if s["examples_pass"]]
        if passing:
            return draw + 1, any(s["hidden_pass"] for s in passing), (draw + 1) * per_draw
        best = max([best] + [s["examples_passed"] / s["examples"] for s in batch if s.get("examples")])
    return None, False, draws * per_draw


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench.early_stop", description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", metavar="FOLDER")
    parser.add_argument("--per-draw", type=int, default=3)
    parser.add_argument("--draws", type=int, default=4)
    parser.add_argument("--keep", type=int, default=2)
    parser.add_argument("--above", type=float, default=0.5)
    args = parser.parse_args(argv)
    by_problem = defaultdict(list)
    for folder in args.folders:
        path = Path(folder) / "samples.jsonl"
        if not path.is_file():
            parser.error(f"{folder} has no samples.jsonl")
        for line in path.read_text().splitlines():
            sample = json.loads(line)
            if "examples_passed" not in sample:
                parser.error(f"{path} was written before bench.pass_at_k counted the examples each sample passes")
            by_problem[sample["id"]].append(sample)
    totals = defaultdict(int)
    for problem_id, samples in by_problem.items():
        samples.sort(key=lambda s: s["k"])
        full, ruled = replay(samples, args.per_draw, args.draws), replay(samples, args.per_draw, args.draws, args.keep,
                                                                        args.above)
        shown = "".join("H" if s["hidden_pass"] and s["examples_pass"] else "e" if s["examples_pass"]
                        else str(min(9, round(9 * s["examples_passed"] / s["examples"]))) if s.get("examples") else "."
                        for s in samples)
        print(f"{problem_id:<40} {shown}  all draws: {'solved' if full[1] else 'not solved'} ({full[2]} samples); "
              f"rule: {'solved' if ruled[1] else 'not solved'} ({ruled[2]} samples)")
        totals["problems"] += 1
        totals["solved"] += full[1]
        totals["solved_rule"] += ruled[1]
        totals["samples"] += full[2]
        totals["samples_rule"] += ruled[2]
    print(f"{totals['problems']} problems: {totals['solved']} solved with {args.draws} draws of {args.per_draw} "
          f"({totals['samples']} samples), {totals['solved_rule']} with the rule ({totals['samples_rule']} samples, "
          f"{totals['samples'] - totals['samples_rule']} fewer)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
