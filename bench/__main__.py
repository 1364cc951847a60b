"""python -m bench: measure how often codeloop's strategies solve real problems, on hidden tests.

    python -m bench --dataset humaneval --limit 40 --strategies all --out bench-results/humaneval
    python -m bench --dataset leetcode --seed 7 --limit 20 --out bench-results/leetcode
    python -m bench --dataset my_problems.jsonl --workers 2
"""
import argparse
import importlib.util
import os
import shlex
import sys
import threading
import time
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import replace
from datetime import datetime

import app
from app import EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_USAGE, UsageError
from bench import report
from bench.datasets import DatasetError, load, select
from bench.harness import Results, code_version, count_repeats, judge_versions, run_one
from bench.strategies import STRATEGIES
from utils.call_llm import safe_url
from utils.sandbox import best_isolation, kill_running_sandboxes

EXIT_DONE = 0  # the other exit codes are codeloop's (app.py)


def epilog():
    names = "\n".join(f"  {name:<12} {summary}" for name, (summary, _) in STRATEGIES.items())
    return f"""strategies:
{names}

output (in --out):
  results.jsonl   one line per finished (dataset, strategy, problem); a rerun with the same --out skips them
  report.md       summary table, charts (*.svg), repeated draws and a per-problem grid, rewritten at the end
  report.html     the same as one page, opened from the file; each verdict in its grid links the run's page
  repeats.jsonl   each run's draws that repeat an earlier program, counted once from its run.json
  runs/           each run's run.json, solution.py, test_solution.py and run.html (its page; --report-only
                  writes those missing, as after unpacking an archive)

The model endpoint is chosen as by main.py: OPENAI_BASE_URL / --base-url, else the embedded model
(started once for the whole benchmark, with a slot per request a worker sends at once).

exit codes: 0 done (whatever the solve rate), 2 bad usage or dataset, 3 the model could not be
started, 4 internal error, 130 interrupted (finished problems are kept)
"""


def parse_args(argv):
    parser = app.OneLineParser(prog="python -m bench", description="Run codeloop on a problem set and judge every "
                               "final solution on the set's hidden tests.", epilog=epilog(),
                               formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dataset", action="append", metavar="NAME",
                        help="humaneval, leetcode, a FILE.jsonl or a folder of Kattis problem packages (docs/bench.md); "
                        "repeat for several")
    parser.add_argument("--strategies", default="full", metavar="A,B",
                        help=f"comma-separated, or 'all' ({', '.join(STRATEGIES)}); default full")
    parser.add_argument("--out", metavar="DIR", help="results folder (default bench-results/<time>)")
    parser.add_argument("--limit", type=int, metavar="N", help="only the first N problems (after --seed)")
    parser.add_argument("--ids", metavar="ID,ID", help="only these problem ids, e.g. HumanEval/0,HumanEval/3")
    parser.add_argument("--seed", type=int, help="shuffle the problems with this seed before --per-kind and --limit")
    parser.add_argument("--per-kind", type=int, metavar="N",
                        help="only the first N problems (after --seed) of each family: plain, tree, design, in-place, stdio")
    parser.add_argument("--time-limit", type=float, metavar="SECONDS", help="each run's --time-limit")
    parser.add_argument("--sampling-seed", type=int, metavar="N", help="each run's --seed (sampling seeds)")
    parser.add_argument("--workers", type=int, default=1, metavar="N",
                        help="problems solved at the same time (default 1); the embedded server gets a slot for each request "
                        "they send at once")
    parser.add_argument("--ray", action="store_true", help="run problems as Ray tasks (pip install -r requirements-ray.txt)")
    parser.add_argument("--ray-address", metavar="ADDR", help="Ray cluster to join (default $RAY_ADDRESS, else a local Ray)")
    parser.add_argument("--model", help="model name (default: $CODELOOP_MODEL, or the embedded model's)")
    parser.add_argument("--base-url", metavar="URL", help="OpenAI-compatible endpoint (default: $OPENAI_BASE_URL)")
    parser.add_argument("--local", action="store_true", help="use the embedded model even if an endpoint is configured")
    parser.add_argument("--report-only", action="store_true",
                        help="rewrite the summary and reports (and missing run pages) from --out; no runs")
    args = parser.parse_args(argv)
    args.strategies = list(STRATEGIES) if args.strategies == "all" else [s.strip() for s in args.strategies.split(",") if s.strip()]
    unknown = [s for s in args.strategies if s not in STRATEGIES]
    if unknown or not args.strategies:
        raise UsageError(f"unknown strategy {unknown[0] if unknown else '(none)'!r}; choose from {', '.join(STRATEGIES)}")
    if not args.dataset and not args.report_only:
        raise UsageError("--dataset is required (humaneval, leetcode or a FILE.jsonl)")
    if args.report_only and not args.out:
        raise UsageError("--report-only needs --out")
    if args.workers < 1 or any(n is not None and n < 1 for n in (args.limit, args.per_kind)):
        raise UsageError("--workers, --limit and --per-kind must be at least 1")
    if args.ray and importlib.util.find_spec("ray") is None:
        raise UsageError("--ray needs Ray: pip install -r requirements-ray.txt")
    args.endpoint, args.embedded = app.choose_endpoint(args.model, args.base_url, args.local)
    args.ids = [i.strip() for i in args.ids.split(",") if i.strip()] if args.ids else None
    args.out = args.out or os.path.join("bench-results", datetime.now().strftime("%Y%m%d-%H%M%S"))
    return args


def overrides(args):
    """Settings every strategy's runs take from the command line."""
    given = {"time_limit": args.time_limit, "seed": args.sampling_seed}
    return {name: value for name, value in given.items() if value is not None}


def say(text):
    print(text, file=sys.stderr, flush=True)


def plan(args, results):
    """The (dataset, version, problem, strategy) tasks still to run, problem by problem, strategies side by side."""
    tasks, total = [], 0
    for dataset in args.dataset:
        problems, version = load(dataset)
        chosen = select(problems, args.ids, args.seed, args.limit, args.per_kind)
        name = dataset_name(dataset)
        for problem in chosen:
            for strategy in args.strategies:
                total += 1
                if not results.done(name, strategy, problem.id):
                    tasks.append((name, version, problem, strategy))
    return tasks, total


def dataset_name(dataset):
    """How results.jsonl names a dataset: a file by its file name."""
    return os.path.basename(dataset) if dataset.endswith(".jsonl") else dataset


def run_tasks(args, tasks, total, results, model, setup):
    """Run every task with bounded concurrency, writing each line as it finishes."""
    stopping = threading.Event()
    done_before = total - len(tasks)
    counter = [done_before]

    def finish(task, line, files=None):
        if stopping.is_set():  # a run cut short by Ctrl-C is not a result
            return
        dataset, version, problem, strategy = task
        line = {"dataset": dataset, "dataset_version": version, **setup, **line}
        if files is not None:
            os.makedirs(line["run_dir"], exist_ok=True)
            for name, text in files.items():
                with open(os.path.join(line["run_dir"], name), "w", encoding="utf-8") as f:
                    f.write(text)
        results.add(line)
        counter[0] += 1
        say(f"[{counter[0]}/{total}] {dataset} {problem.id} {strategy}: hidden {'PASS' if line['hidden_pass'] else 'fail'}"
            f" ({line['status']}), {line['model_calls']} calls, {line['wall_s']:.0f} s")

    def run_dir(task):
        dataset, _, problem, strategy = task
        safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in problem.id)
        return os.path.abspath(os.path.join(args.out, "runs", dataset.replace("/", "_"), strategy, safe))

    try:
        if args.ray:
            from bench.ray_runner import run_on_ray
            run_on_ray(tasks, model, args.workers, args.ray_address, lambda task, line, files:
                       finish(task, {**line, "run_dir": run_dir(task)}, files), overrides(args))
            return EXIT_DONE
        pool = ThreadPoolExecutor(max_workers=args.workers)
        try:
            pending = {pool.submit(run_one, task[2], task[3], model, setup["isolation"], run_dir(task), overrides(args)): task
                       for task in tasks}
            while pending:  # waits in short steps so that Ctrl-C reaches this thread
                finished, _ = wait(pending, timeout=0.5, return_when=FIRST_COMPLETED)
                for future in finished:
                    task = pending.pop(future)
                    finish(task, {**future.result(), "run_dir": run_dir(task)})
        finally:
            pool.shutdown(wait=False, cancel_futures=True)
    except KeyboardInterrupt:
        stopping.set()
        kill_running_sandboxes()
        say("bench: interrupted; finished problems are kept in " + results.path)
        return EXIT_INTERRUPTED
    return EXIT_DONE


def summarize(args, results):
    lines = results.latest([dataset_name(d) for d in args.dataset] if args.dataset else None)
    if not lines:
        say("bench: no finished problems yet")
        return
    if args.report_only and args.dataset:  # records made before the line held these: judged once, then kept
        problems = {problem.id: problem for dataset in args.dataset for problem in load(dataset)[0]}
        judge_versions(lines, problems, best_isolation(), args.out)
    count_repeats(lines, best_isolation(), args.out, say)  # counted once a run, then kept
    rows = report.summarize(lines)
    difficulty_rows, family_rows = report.rows_by(lines, "difficulty"), report.rows_by(lines, "family")
    repeats = report.repeat_rows(lines)
    setup = {k: ", ".join(dict.fromkeys(str(line.get(k)) for line in lines))
             for k in ("model", "server", "git_commit", "isolation", "workers")}
    setup["git_dirty"] = any(line.get("git_dirty") for line in lines)
    setup["commands"] = list(dict.fromkeys(line["command"] for line in lines))
    path = report.write_report(args.out, rows, lines, setup, difficulty_rows, family_rows, repeats)
    print(report.table(rows))
    for grouped, field in ((difficulty_rows, "difficulty"), (family_rows, "family")):
        print()
        print(report.table(grouped, columns=report.columns_by(field)))
    if repeats:
        print()
        print(report.table(repeats, columns=report.REPEAT_COLUMNS))
    say(f"report: {path}")


def main(argv=None):
    app.stop_on_sigterm()  # kill (and a job scheduler's stop) ends like Ctrl-C
    try:
        args = parse_args(sys.argv[1:] if argv is None else argv)
        os.makedirs(args.out, exist_ok=True)
        results = Results(args.out)
        if args.report_only:
            summarize(args, results)
            return EXIT_DONE
        tasks, total = plan(args, results)
    except (UsageError, DatasetError) as exc:
        say(f"bench: error: {exc}")
        return EXIT_USAGE
    except OSError as exc:
        say(f"bench: error: cannot use the output folder {args.out}: {exc.strerror or exc}")
        return EXIT_USAGE
    say(f"bench: {total} runs, {total - len(tasks)} already in {results.path}, {len(tasks)} to go")
    code = EXIT_DONE
    if tasks:
        try:
            code = run_all(args, tasks, total, results, argv)
        except KeyboardInterrupt:
            code = EXIT_INTERRUPTED
        except Exception as exc:  # noqa: BLE001 - a bug, or a Ray task's failure: one line, finished runs are kept
            known = app.failure(exc)
            message = known[1] if known else f"internal error: {type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
            say(f"bench: error: {message}")
            code = known[0] if known else EXIT_INTERNAL
    summarize(args, results)
    return code


def run_all(args, tasks, total, results, argv):
    """Start the model (the embedded one once, with a slot per request in flight) and run every task."""
    isolation = best_isolation()
    embedded = args.embedded
    at_once = max(STRATEGIES[name][1](args.endpoint, isolation)[0].embedded_slots for name in args.strategies)
    with app.model_server(args.endpoint, embedded, say, slots=args.workers * at_once, prefix="bench") as (model, _):
        model = replace(model, concurrency=at_once) if embedded else model  # each worker its share of the slots
        setup = {"model": model.model, "server": "embedded llama-server" if embedded else safe_url(model.base_url) or "OpenAI",
                 **code_version(), "isolation": isolation, "workers": args.workers,
                 "runner": "ray" if args.ray else "threads",
                 "command": "python -m bench " + shlex.join(sys.argv[1:] if argv is None else argv)}
        started = time.monotonic()
        code = run_tasks(args, tasks, total, results, model, setup)
        say(f"bench: {time.monotonic() - started:.0f} s for {len(tasks)} runs")
    return code


if __name__ == "__main__":
    exit_code = main()
    if exit_code == EXIT_INTERRUPTED:
        # Worker threads may sit in a model call for minutes; everything finished is on disk, so do
        # not let the interpreter wait for them at exit.
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(exit_code)
    sys.exit(exit_code)
