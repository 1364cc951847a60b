"""Print what the embedded model costs on Two Sum: set-up, start, time per node, tokens, tokens/s.

    python -m bench.model_speed            # warm start and a Two Sum run (model already set up)
    python -m bench.model_speed --cold     # also a cold set-up into a fresh cache (6-10 minutes)
    python -m bench.model_speed --parallel 1,2,4 --no-run   # tokens per second with 1, 2 and 4 answers at once

Numbers come from a real `main.py` run (its run.json) and llama-server's own timings.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import replace
from pathlib import Path

from utils.llama_server import LlamaServer
from utils.local_model import ensure_local_model

ROOT = Path(__file__).resolve().parent.parent


def no_endpoint_env(**extra):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "CODELOOP_MODEL"))}
    env.update(extra)
    return env


def cold_setup_seconds():
    with tempfile.TemporaryDirectory() as cache:
        started = time.monotonic()
        subprocess.run([sys.executable, "main.py", "--setup-local"], cwd=ROOT, check=True,
                       env=no_endpoint_env(CODELOOP_CACHE=cache))
        return time.monotonic() - started


def warm_start_seconds(repeat=3):
    binary, weights = ensure_local_model(print)
    times = []
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as scratch, LlamaServer(binary, weights, log_path=Path(scratch) / "log") as server:
            times.append(server.start_seconds)
    return statistics.median(times)


def two_sum_run(out):
    started = time.monotonic()
    result = subprocess.run([sys.executable, "main.py", "--problem-file", "examples/two_sum.md", "--out", str(out),
                             "--json"], cwd=ROOT, env=no_endpoint_env(), capture_output=True, text=True)
    wall = time.monotonic() - started
    return wall, result.returncode, json.loads((Path(out) / "run.json").read_text())


def parallel_speed(counts, tokens=200):
    """Aggregate generated tokens per second with N answers written at once (a server with N slots), and
    how long the shared prompt took; each N on a fresh server, so no cache carries over."""
    import threading

    from utils.call_llm import call_llm
    from utils.local_model import MODEL_NAME
    binary, weights = ensure_local_model(print)
    prompt = [{"role": "system", "content": "You are an expert Python programmer. " * 20},
              {"role": "user", "content": "Write a Python function that returns the n-th prime number, with comments."}]
    for count in counts:
        with tempfile.TemporaryDirectory() as scratch, \
                LlamaServer(binary, weights, slots=count, log_path=Path(scratch) / "log") as server:
            config = replace(server.model_config(MODEL_NAME), max_tokens=tokens, temperature=0.8)
            replies = [None] * count

            def ask(index):
                replies[index] = call_llm(prompt, config)
            started = time.monotonic()
            threads = [threading.Thread(target=ask, args=(index,)) for index in range(count)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            wall = time.monotonic() - started
            generated = sum(reply.completion_tokens for reply in replies)
            print(f"{count} at once: {generated} tokens in {wall:.1f} s = {generated / wall:.1f} tok/s in all, "
                  f"{generated / wall / count:.1f} per answer")


def report(record, wall):
    per_node = defaultdict(float)
    for timing in record["node_timings"]:
        per_node[timing["node"]] += timing["seconds"]
    calls = record["model_calls"]
    prompt = sum(c.get("prompt_tokens") or 0 for c in calls)
    completion = sum(c.get("completion_tokens") or 0 for c in calls)
    model_s = sum(c.get("latency_ms") or 0 for c in calls) / 1000
    timings = [c["server_timings"] for c in calls if c.get("server_timings")]
    prompt_ms = sum(t.get("prompt_ms", 0) for t in timings)
    predicted_ms = sum(t.get("predicted_ms", 0) for t in timings)
    prompt_read = sum(t.get("prompt_n", 0) for t in timings)
    generated = sum(t.get("predicted_n", 0) for t in timings)
    print(f"status: {record['status']} ({record['message']})")
    print(f"wall time, whole command: {wall:.1f} s (flow {record.get('wall_s', 0):.1f} s)")
    print("wall time per node:")
    for node, seconds in per_node.items():
        print(f"  {node:<20}{seconds:8.1f} s")
    print(f"model calls: {len(calls)}; tokens: {prompt} prompt, {completion} completion")
    if timings:
        print(f"prompt tokens actually read (after the prompt cache): {prompt_read} of {prompt}")
        print(f"prompt reading: {prompt_read / max(prompt_ms / 1000, 1e-9):.1f} tok/s; "
              f"generation: {generated / max(predicted_ms / 1000, 1e-9):.1f} tok/s")
    print(f"time inside the model: {model_s:.1f} s; outside it: {wall - model_s:.1f} s "
          f"({(wall - model_s) / wall:.0%} of the command's wall time)")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cold", action="store_true", help="also measure a cold set-up into a fresh cache")
    parser.add_argument("--parallel", metavar="N,N", help="measure tokens per second with N answers at once")
    parser.add_argument("--no-run", action="store_true", help="skip the warm start and the Two Sum run")
    parser.add_argument("--out", default=f"runs/benchmark-two-sum-{time.strftime('%Y%m%d-%H%M%S')}",
                        help="where the Two Sum run's files go (kept, to inspect run.json)")
    args = parser.parse_args()
    if args.cold:
        print(f"cold set-up (build llama-server, download and check the weights): {cold_setup_seconds():.0f} s")
    if args.parallel:
        parallel_speed([int(n) for n in args.parallel.split(",")])
    if args.no_run:
        return
    print(f"warm start (process start to first token, median of 3): {warm_start_seconds():.2f} s")
    wall, code, record = two_sum_run(Path(args.out).resolve())
    print(f"Two Sum: exit code {code}; files in {args.out}")
    report(record, wall)


if __name__ == "__main__":
    main()
