"""python -m bench.mcp_costs: what the MCP server (main.py --mcp) costs, on a scripted model endpoint.

The model's answers come from the tests' stub OpenAI-compatible server on 127.0.0.1, so the figures are
the server's and the sandbox's, not a model's. Three measurements (issue 29's goals in brackets):

  cancel    a solve cancelled while its model call streams, and again while its programs run in the
            sandbox: seconds from the client's cancel to no process of the run left (the server's
            children) and the stream closed, and what the record says [under 2 s]
  overhead  the scripted Two Sum solved --runs times by the CLI (main.py --json, a process each) and by
            solve over stdio (one server, its start excluded): medians of the run's own wall_s, of the
            whole CLI process and of the whole tool call [the call at most 5% over the CLI's run]
  memory    resident memory of the server and its children after solve 5 and after solve --solves
            [growth under 10%]

    python -m bench.mcp_costs [--runs 10] [--solves 20]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import anyio
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from tests import scripted_answers as a
from tests.stub_openai_server import StubOpenAIServer
from tests.test_main import MAIN, ROOT, cli_env

SLEEPING = """```yaml
function_code: |
  import time
  def run_code(nums, target):
      time.sleep(60)
```"""


def children(pid):
    found = []
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            found += [int(child) for child in Path(f"/proc/{pid}/task/{task}/children").read_text().split()]
        except OSError:
            pass
    return found


def descendants(pid):
    found, todo = [], children(pid)
    while todo:
        child = todo.pop()
        found.append(child)
        try:
            todo += children(child)
        except OSError:
            pass
    return found


def rss_kb(pid):
    try:
        return next(int(line.split()[1]) for line in Path(f"/proc/{pid}/status").read_text().splitlines()
                    if line.startswith("VmRSS:"))
    except (OSError, StopIteration):
        return 0


def server_pid():
    """The MCP server this process started (stdio_client does not say its PID)."""
    for pid in children(os.getpid()):
        if b"--mcp" in Path(f"/proc/{pid}/cmdline").read_bytes():
            return pid
    raise RuntimeError("no MCP server among this process's children")


def session_run(stub, body):
    async def main():
        params = StdioServerParameters(command=sys.executable, args=[MAIN, "--mcp"], cwd=str(ROOT), env=cli_env(stub))
        async with stdio_client(params, errlog=open(os.devnull, "w")) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                return await body(session, server_pid())
    return anyio.run(main)


async def cancel_when(session, server, out_dir, ready):
    """Start a solve, cancel it once `ready(server)`; seconds from the cancel to no child of the server left."""
    scope = anyio.CancelScope()

    async def call():
        with scope:
            await session.call_tool("solve", {"problem": a.TWO_SUM, "out_dir": out_dir})
    async with anyio.create_task_group() as group:
        group.start_soon(call)
        while not ready(server):
            await anyio.sleep(0.01)
        cancelled = time.monotonic()
        scope.cancel()
    while descendants(server):
        await anyio.sleep(0.005)
    left = time.monotonic() - cancelled
    record = Path(out_dir, "run.json")
    while not record.exists() or json.loads(record.read_text())["status"] == "running":
        await anyio.sleep(0.05)
    return left, cancelled, json.loads(record.read_text())


def measure_cancel(folder):
    rows = []
    with StubOpenAIServer() as stub:  # a model call that would stream for minutes
        stub.route("tests", {"trickle": 0.05, "text": a.TESTS * 50})
        started = time.monotonic()

        async def streaming(session, server):
            return await cancel_when(session, server, f"{folder}/cancel-model",
                                     lambda _: time.monotonic() - started > 3 and stub.requests)
        left, cancelled, record = session_run(stub, streaming)
        closed = [end for kind, _, end in stub.timeline if kind == "tests"]
        rows.append(("while the model streams", left, (closed[0] - cancelled) if closed else None, record))
    with StubOpenAIServer() as stub:  # programs that sleep in the sandbox
        a.route_defaults(stub, candidates=(SLEEPING,), oracle=SLEEPING)
        seen = {}

        def sandboxes_running(server):  # the same sandbox process alive for half a second: RunTests, not CheckCode
            now = time.monotonic()
            alive = set(descendants(server))
            for pid in list(seen):
                if pid not in alive:
                    del seen[pid]
            for pid in alive:
                seen.setdefault(pid, now)
            return any(now - since > 0.5 for since in seen.values())

        async def sandboxed(session, server):
            return await cancel_when(session, server, f"{folder}/cancel-sandbox", sandboxes_running)
        left, _, record = session_run(stub, sandboxed)
        rows.append(("while programs run in the sandbox", left, None, record))
    print("cancel: seconds from the client's cancel to no process of the run left (goal under 2 s)")
    for name, left, closed, record in rows:
        stream = f"; the model's stream closed after {closed:.2f} s" if closed is not None else ""
        print(f"  {name}: {left:.2f} s{stream}; record: {record['status']}, {record['message']!r}, "
              f"{len(record['model_calls'])} model calls kept")


def measure_overhead(folder, runs):
    cli_process, cli_run, mcp_call, mcp_run = [], [], [], []
    with StubOpenAIServer() as stub:
        for k in range(runs):
            a.route_defaults(stub)
            out = f"{folder}/cli-{k}"
            started = time.monotonic()
            done = subprocess.run([sys.executable, MAIN, "--json", "--out", out, a.TWO_SUM], cwd=ROOT,
                                  env=cli_env(stub), capture_output=True, text=True, timeout=300)
            cli_process.append(time.monotonic() - started)
            assert json.loads(done.stdout)["status"] == "solved", done.stdout + done.stderr
            cli_run.append(json.loads(Path(out, "run.json").read_text())["wall_s"])

        async def solves(session, server):
            for k in range(runs):
                a.route_defaults(stub)
                started = time.monotonic()
                result = await session.call_tool("solve", {"problem": a.TWO_SUM, "out_dir": f"{folder}/mcp-{k}"})
                mcp_call.append(time.monotonic() - started)
                assert result.structured_content["status"] == "solved", result.content
                mcp_run.append(json.loads(Path(folder, f"mcp-{k}", "run.json").read_text())["wall_s"])
        session_run(stub, solves)
    median = statistics.median
    print(f"overhead: the scripted Two Sum, {runs} runs each way (medians; goal: the call at most 5% over the CLI's run)")
    print(f"  CLI:  run {median(cli_run):.3f} s, whole process {median(cli_process):.3f} s")
    print(f"  MCP:  run {median(mcp_run):.3f} s, whole tool call {median(mcp_call):.3f} s")
    print(f"  the tool call over the CLI's run: {100 * (median(mcp_call) / median(cli_run) - 1):+.1f}%; "
          f"over the CLI's process: {100 * (median(mcp_call) / median(cli_process) - 1):+.1f}%")


def measure_memory(folder, solves):
    sizes = {}
    with StubOpenAIServer() as stub:
        async def many(session, server):
            for k in range(1, solves + 1):
                a.route_defaults(stub)
                result = await session.call_tool("solve", {"problem": a.TWO_SUM, "out_dir": f"{folder}/mem-{k}"})
                assert result.structured_content["status"] == "solved", result.content
                sizes[k] = rss_kb(server) + sum(rss_kb(pid) for pid in descendants(server))
        session_run(stub, many)
    growth = 100 * (sizes[solves] / sizes[5] - 1)
    print(f"memory: resident, the server and its children: after solve 5 {sizes[5] / 1024:.1f} MB, after solve "
          f"{solves} {sizes[solves] / 1024:.1f} MB ({growth:+.1f}%; goal under +10%); after solve 1 {sizes[1] / 1024:.1f} MB")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10, help="solves each way for the overhead (default 10)")
    parser.add_argument("--solves", type=int, default=20, help="solves for the memory (default 20, at least 6)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="mcp-costs-") as folder:
        measure_cancel(folder)
        measure_overhead(folder, args.runs)
        measure_memory(folder, max(args.solves, 6))
    return 0


if __name__ == "__main__":
    sys.exit(main())
