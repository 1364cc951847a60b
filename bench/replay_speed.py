"""python -m bench.replay_speed RUN_DIR... : recorded requests replayed on the embedded server, set up each way.

Takes the model calls of benchmark records (by default ImplementFunction's and Revise's, the answers that
hold code, which is where a Revise answer repeats the code it was shown), and sends each again, at its
recorded temperature and a fixed seed, to llama-server started with each configuration of `--configs`:
extra server arguments, such as `--spec-type ngram-simple` (n-gram speculative decoding) or
`--threads 1`. Prints per configuration and node: answers, completion tokens, generation tokens per
second and prompt tokens per second as the server measured them, and wall seconds per answer.

    python -m bench.replay_speed bench-results/lc/runs/leetcode/full/* --calls 30 \\
        --configs "none" "--spec-type ngram-simple" "--spec-type ngram-mod"
"""
import argparse
import json
import shlex
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

from utils.call_llm import ModelBackendError, call_llm
from utils.llama_server import LlamaServer
from utils.local_model import MODEL_NAME, ensure_local_model


def recorded_calls(run_dirs, nodes, limit):
    """(node, messages, temperature, max_tokens) of the first `limit` recorded calls of these nodes."""
    found = []
    for run_dir in run_dirs:
        record = json.loads((Path(run_dir) / "run.json").read_text())
        settings = record.get("settings", {}).get("model", {})
        for call in record["model_calls"]:
            if call["node"] in nodes and call.get("messages") and call.get("answer"):
                temperature = 0.0 if call.get("attempt", 1) == 1 else 0.8
                found.append((call["node"], call["messages"], temperature, settings.get("max_tokens", 1200)))
    return found[:limit]


class Server(LlamaServer):
    """The embedded server with extra arguments on its command line."""

    def __init__(self, binary, weights, extra):
        super().__init__(binary, weights)
        self.extra = extra

    def command(self):
        return super().command() + self.extra


def replay(calls, config_args):
    binary, weights = ensure_local_model(lambda text: print(text, file=sys.stderr))
    rows = {}
    with Server(binary, weights, config_args) as server:
        model = server.model_config(MODEL_NAME)
        for node, messages, temperature, max_tokens in calls:
            started = time.monotonic()
            try:
                reply = call_llm(messages, replace(model, temperature=temperature, max_tokens=max_tokens, seed=1))
            except ModelBackendError as exc:
                print(f"  {node}: {exc}", file=sys.stderr)
                continue
            timings = reply.server_timings or {}
            rows.setdefault(node, []).append({"tokens": reply.completion_tokens, "wall": time.monotonic() - started,
                                              "gen": timings.get("predicted_per_second"),
                                              "prompt": timings.get("prompt_per_second")})
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench.replay_speed", description=__doc__.splitlines()[0])
    parser.add_argument("run_dirs", nargs="+")
    parser.add_argument("--nodes", default="ImplementFunction,Revise")
    parser.add_argument("--calls", type=int, default=30)
    parser.add_argument("--configs", nargs="+", default=["none"])
    args = parser.parse_args(argv)
    calls = recorded_calls(args.run_dirs, set(args.nodes.split(",")), args.calls)
    print(f"{len(calls)} recorded calls replayed")
    print(f"{'configuration':<36} {'node':<18} {'answers':>7} {'tokens':>7} {'gen tok/s':>9} {'prompt tok/s':>12} {'s/answer':>8}")
    for config in args.configs:
        extra = [] if config == "none" else shlex.split(config)
        for node, rows in replay(calls, extra).items():
            gen = [r["gen"] for r in rows if r["gen"]]
            prompt = [r["prompt"] for r in rows if r["prompt"]]
            print(f"{config:<36} {node:<18} {len(rows):>7} {sum(r['tokens'] for r in rows):>7} "
                  f"{statistics.median(gen) if gen else 0:>9.1f} {statistics.median(prompt) if prompt else 0:>12.1f} "
                  f"{statistics.mean(r['wall'] for r in rows):>8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
