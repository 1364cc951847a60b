"""python -m bench.speed model|sandbox|mcp: what codeloop costs apart from solving (time, tokens, memory).

    python -m bench.speed model            # per engine present: start, tokens a second, a Two Sum run
    python -m bench.speed model --fresh-clone 3   # `make run` on a fresh clone with an empty cache, 3 times (issue 95)
    python -m bench.speed model --cold     # also a cold set-up into a fresh cache (6-10 minutes)
    python -m bench.speed model --cut 90   # `make run` cut 90 s into a cold build, then run again (issue 87)
    python -m bench.speed model --parallel 1,2,4 --no-run   # tokens per second with 1, 2 and 4 answers at once
    python -m bench.speed sandbox [--repeat 15]
    python -m bench.speed mcp [--runs 10] [--solves 20]
    python -m bench.speed pages [--megabytes 5] [--records]   # run.html from a 5 MB run.json; every record's page

Each part prints its own measurements; `python -m bench.speed PART --help` says what they are.
"""
import argparse
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections import defaultdict
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

from tests import scripted_answers as a
from tests.stub_openai_server import StubOpenAIServer
from tests.test_main import MAIN, ROOT, cli_env
from utils.llama_server import WHEEL, LlamaServer, wheel_version
from utils.local_model import MODEL_NAME, ensure_local_model, model_path, server_binary_path
from utils.sandbox import ISOLATION_LEVELS, Limits, isolation_works, run_batch

MODEL = """What the embedded model costs: set-up, start, tokens a second, a Two Sum run; per engine present.

The engines are llama.cpp from the xllamacpp wheel (where it is installed) and llama-server built from source (where
the cache holds one: make tuned). For each: the median of 3 starts to a first token; prompt reading and generation in
tokens a second from the server's own timings, on one fixed request (a fresh server, nothing cached); and a real
`main.py` run of the README's Two Sum (its wall time and run.json). --fresh-clone N times `make run` on a fresh clone
of this checkout's HEAD with an empty cache (CODELOOP_CACHE), as a new user's first command.
"""


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


BUILD_STARTS = "building llama-server ("
BUILD_DONE = re.compile(r"building llama-server: done in (\d+) s")


def ctrl_c(proc):
    """SIGINT to a process's whole group, as a terminal sends it; nothing if it has ended."""
    try:
        os.killpg(proc.pid, signal.SIGINT)
    except ProcessLookupError:
        pass


def cut_and_resume(cut_s, build_s=None):
    """`make run` in a fresh cache, cut `cut_s` seconds after its build of llama-server starts (SIGINT to its
    process group, as Ctrl-C at a terminal), then `make run` again: how long the second build takes against the
    time the first had left (a whole cold build, `build_s`, measured here first unless given), and whether the
    weights were downloaded twice. Prints the lines each run said about the set-up."""
    if build_s is None:
        with tempfile.TemporaryDirectory(prefix="codeloop-whole-") as cache:
            reference = subprocess.run([sys.executable, "main.py", "--setup-local"], cwd=ROOT, capture_output=True,
                                       text=True, env=no_endpoint_env(CODELOOP_CACHE=cache, CODELOOP_ENGINE="build"))
            build_s = int(BUILD_DONE.search(reference.stderr).group(1))
            print(f"a whole cold build: {build_s} s")
    with tempfile.TemporaryDirectory(prefix="codeloop-cut-") as cache:
        env = no_endpoint_env(CODELOOP_CACHE=cache, MAKEFLAGS="", CODELOOP_ENGINE="build")  # the build is what is cut
        first = subprocess.Popen(["make", "run"], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                 text=True, start_new_session=True)
        started = None
        for line in first.stdout:
            print(f"  first: {line.rstrip()}", flush=True)
            if started is None and BUILD_STARTS in line:
                started = time.monotonic()
                threading.Timer(cut_s, ctrl_c, (first,)).start()
        first.wait()
        print(f"first `make run` cut {cut_s:g} s into its build; exit {first.returncode}")
        begun = time.monotonic()
        second = subprocess.run(["make", "run"], cwd=ROOT, env=env, capture_output=True, text=True)
        wall = time.monotonic() - begun
        for line in second.stdout.splitlines() + second.stderr.splitlines():
            if any(word in line for word in ("llama", "weights", "joining", "kept", "embedded model ready")):
                print(f"  second: {line}")
        resumed = BUILD_DONE.search(second.stdout + second.stderr)
        again = "downloading the model weights" in second.stdout + second.stderr
        left = build_s - cut_s
        print(f"second `make run`: exit {second.returncode}, {wall:.0f} s in all")
        if resumed:
            took = int(resumed.group(1))
            print(f"its build: {took} s; the time the first had left: {left:g} s; within left + 30 s: {took <= left + 30}")
        print(f"the weights downloaded again: {'yes' if again else 'no'}")


def engines_present():
    """[(name, what LlamaServer starts)]: the wheel where installed, a source build where the cache has one."""
    found = [("xllamacpp wheel", WHEEL)] if wheel_version() else []
    return found + ([("llama-server build", server_binary_path())] if server_binary_path().is_file() else [])


def engine_speed(binary, weights, tokens=200):
    """(prompt tokens a second, generated tokens a second) of one request on a fresh server, from its timings."""
    from utils.call_llm import call_llm
    prompt = [{"role": "system", "content": "You are an expert Python programmer. " * 60},
              {"role": "user", "content": "Write a Python function that returns the n-th prime number, with comments."}]
    with tempfile.TemporaryDirectory() as scratch, LlamaServer(binary, weights, log_path=Path(scratch) / "log") as server:
        reply = call_llm(prompt, replace(server.model_config(MODEL_NAME), max_tokens=tokens, temperature=0.0))
    timings = reply.server_timings or {}
    return timings.get("prompt_per_second"), timings.get("predicted_per_second")


def compare_engines(out):
    """One line per engine present, then each Two Sum run's costs."""
    weights = model_path()
    runs = []
    print(f"{'engine':<20} {'start s':>8} {'prompt tok/s':>13} {'generate tok/s':>15} {'Two Sum wall s':>15} {'ending':>10}")
    for name, binary in engines_present():
        start = warm_start_seconds(binary=binary)
        prompt, generate = engine_speed(binary, weights)
        wall, code, record = two_sum_run(Path(out) / name.split()[0], engine="build" if binary != WHEEL else WHEEL)
        runs.append((name, wall, record))
        print(f"{name:<20} {start:>8.2f} {prompt or 0:>13.1f} {generate or 0:>15.1f} {wall:>15.1f} {record['status']:>10}",
              flush=True)
    for name, wall, record in runs:
        print(f"\n{name}:")
        print_run_costs(record, wall)


def fresh_clones(count):
    """`make run` on a fresh clone of HEAD with an empty cache, `count` times: seconds from the command to its end."""
    walls = []
    for k in range(count):
        with tempfile.TemporaryDirectory(prefix="codeloop-clone-") as scratch:
            clone, cache = Path(scratch) / "codeloop", Path(scratch) / "cache"
            subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
            started = time.monotonic()
            result = subprocess.run(["make", "run"], cwd=clone, capture_output=True, text=True,
                                    env=no_endpoint_env(CODELOOP_CACHE=str(cache), MAKEFLAGS=""))
            wall = time.monotonic() - started
            last = [line for line in result.stderr.splitlines() if line.startswith(("solved", "not confirmed", "not solved"))]
            walls.append(wall)
            print(f"fresh clone {k + 1}: `make run` exit {result.returncode} in {wall:.0f} s; "
                  f"{(last[-1][:90] if last else (result.stdout + result.stderr).strip().splitlines()[-1][:200])}", flush=True)
    print(f"median {statistics.median(walls):.0f} s, slowest {max(walls):.0f} s of {count}")


def warm_start_seconds(repeat=3, binary=None):
    binary, weights = (binary, model_path()) if binary is not None else ensure_local_model(print)
    times = []
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as scratch, LlamaServer(binary, weights, log_path=Path(scratch) / "log") as server:
            times.append(server.start_seconds)
    return statistics.median(times)


def two_sum_run(out, engine=None):
    started = time.monotonic()
    result = subprocess.run([sys.executable, "main.py", "--problem-file", "examples/two_sum.md", "--out", str(out),
                             "--json"], cwd=ROOT, capture_output=True, text=True,
                            env=no_endpoint_env(**({"CODELOOP_ENGINE": engine} if engine else {})))
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


def print_run_costs(record, wall):
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


def model_costs(args):
    if args.cut is not None:
        cut_and_resume(args.cut, args.build_s)
        return
    if args.cold:
        print(f"cold set-up into a fresh cache (the weights downloaded and checked; llama-server built where it serves): "
              f"{cold_setup_seconds():.0f} s")
    if args.parallel:
        parallel_speed([int(n) for n in args.parallel.split(",")])
    if args.fresh_clone:
        fresh_clones(args.fresh_clone)
    if args.no_run:
        return
    ensure_local_model(print)
    compare_engines(Path(args.out).resolve())


SANDBOX = """What the sandbox costs: a batch of 1 and of 100 tests, per isolation level, against an in-process call.

The goal (issue 2): 100 tests in at most 25 ms with isolation on. "in-process" calls the function
directly in this interpreter, which codeloop never does with generated code; it is the floor.
"sharded" is what the RunTests node does: one sandbox per core, started at the same time.
"""
TWO_SUM_CODE = """def run_code(nums, target):
    seen = {}
    for i, n in enumerate(nums):
        if target - n in seen:
            return [seen[target - n], i]
        seen[n] = i
"""
GOAL_MS = 25.0


def two_sum_inputs(count):
    return [{"nums": [i, 7, 11, 15, 2 + i], "target": 9 + i * 2} for i in range(count)]


def median_ms(action, repeat):
    action()  # warm the page cache and the interpreter's pyc files
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        action()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def in_process(batch):
    namespace = {}
    exec(TWO_SUM_CODE, namespace)  # trusted benchmark code only: this is the floor the sandbox is compared with
    return [namespace["run_code"](**kwargs) for kwargs in batch]


def sharded(batch, isolation):
    shards = os.cpu_count() or 1
    with ThreadPoolExecutor(shards) as pool:
        return list(pool.map(lambda k: run_batch(TWO_SUM_CODE, batch[k::shards], Limits(), isolation), range(shards)))


def sandbox_costs(args):
    print(f"{'mode':<22}{'1 test (ms)':>14}{'100 tests (ms)':>16}  note")
    print(f"{'in-process call':<22}{median_ms(lambda: in_process(two_sum_inputs(1)), args.repeat):>14.2f}"
          f"{median_ms(lambda: in_process(two_sum_inputs(100)), args.repeat):>16.2f}  no isolation at all")
    verdicts = []
    for isolation in ISOLATION_LEVELS:
        if not isolation_works(isolation):
            print(f"{isolation:<22}{'-':>14}{'-':>16}  not available here")
            continue
        one = median_ms(lambda: run_batch(TWO_SUM_CODE, two_sum_inputs(1), Limits(), isolation), args.repeat)
        hundred = median_ms(lambda: run_batch(TWO_SUM_CODE, two_sum_inputs(100), Limits(), isolation), args.repeat)
        parallel = median_ms(lambda: sharded(two_sum_inputs(100), isolation), args.repeat)
        namespaces = "namespaces" if isolation != "process" else "no namespaces (isolation off)"
        print(f"{isolation:<22}{one:>14.2f}{hundred:>16.2f}  {namespaces}")
        print(f"{isolation + ' sharded':<22}{'':>14}{parallel:>16.2f}  {os.cpu_count()} sandboxes at once, as RunTests does")
        if isolation != "process":
            verdicts.append(f"{isolation}: 100 tests in {hundred:.1f} ms "
                            f"({'meets' if hundred <= GOAL_MS else 'misses'} the {GOAL_MS:g} ms goal)")
    for verdict in verdicts:
        print(verdict)


MCP = """What the MCP server (main.py --mcp) costs, on a scripted model endpoint.

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
"""
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
    # imported here, not above: mcp (and its anyio) is optional (requirements-mcp.txt), the other parts run without it
    import anyio
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    async def main():
        params = StdioServerParameters(command=sys.executable, args=[MAIN, "--mcp"], cwd=str(ROOT), env=cli_env(stub))
        async with stdio_client(params, errlog=open(os.devnull, "w")) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                return await body(session, server_pid())
    return anyio.run(main)


async def cancel_when(session, server, out_dir, ready):
    """Start a solve, cancel it once `ready(server)`; seconds from the cancel to no child of the server left."""
    import anyio  # optional, as in session_run
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


def mcp_costs(args):
    with tempfile.TemporaryDirectory(prefix="mcp-costs-") as folder:
        measure_cancel(folder)
        measure_overhead(folder, args.runs)
        measure_memory(folder, max(args.solves, 6))


PAGES = """What a run's page costs: run.html written from a 5 MB run.json, and from every record kept.

The big record is a real one (docs/records/final/HumanEval_9-..., 0.24 MB: 11 versions, 24 tests, 31 calls)
grown to a long run's shape: 44 versions (each a small change of another, with its output on every test),
72 tests, and its calls and events repeated until the file reaches --megabytes. The page must be written
in under 2 s (issue 88). --records writes the page of every run.json under docs/records, the archives
unpacked into a temporary folder, and counts those that fail.
"""
BIG_BASE = ROOT / "docs" / "records" / "final" / "HumanEval_9-every-candidate-without-its-List-import" / "run.json"


def big_record(megabytes):
    """A run.json of about `megabytes` MB (see PAGES)."""
    record = json.loads(BIG_BASE.read_text())
    final = record["final"]
    tests = [{**case, "name": f"{case['name']}_{k}"} for k in range(3) for case in final["test_cases"]]
    versions = []
    for k in range(44):
        attempt = dict(final["attempts"][k % len(final["attempts"])])
        code = attempt["code"].replace("\n", f"\n    # change {k}\n", 1 + k % 3)
        versions.append({**attempt, "id": k + 1, "parent": k - 2 if k > 2 else None, "code": code, "results": [
            {"name": case["name"], "passed": (k + j) % 4 != 0, "counted": True, "actual": f"[{k}, {j}, {k * j}]"}
            for j, case in enumerate(tests)]})
    final.update(test_cases=tests, attempts=versions, attempt=44)
    calls, events = record["model_calls"], record["events"]
    while len(json.dumps(record)) < megabytes * 1_000_000:
        record["model_calls"] = record["model_calls"] + calls
        record["events"] = record["events"] + events
    return record


def record_files(folder):
    """Every run.json under docs/records: the folders' as they are, the archives' unpacked into `folder`."""
    records = ROOT / "docs" / "records"
    for archive in sorted(records.glob("*.tar.gz")):
        with tarfile.open(archive) as packed:
            safe = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}  # refuses links and paths out (3.12)
            packed.extractall(Path(folder) / archive.name.removesuffix(".tar.gz"), **safe)
    return sorted(records.rglob("run.json")) + [records / "two_sum_embedded_run.json"] + sorted(Path(folder).rglob("run.json"))


def page_costs(args):
    from pages.record import RecordError
    from pages.run_page import write_run_page
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "big" / "run.json"
        path.parent.mkdir()
        path.write_text(json.dumps(big_record(args.megabytes), indent=1))
        times, cpu = [], []
        for _ in range(args.repeat):  # CPU time too: on a busy machine the wall clock measures the others
            started, used = time.monotonic(), time.process_time()
            page = write_run_page(path)
            times.append(time.monotonic() - started)
            cpu.append(time.process_time() - used)
        print(f"run.json of {path.stat().st_size / 1e6:.1f} MB -> run.html of {Path(page).stat().st_size / 1e6:.2f} MB: "
              f"median {statistics.median(times):.2f} s ({statistics.median(cpu):.2f} s of CPU), slowest "
              f"{max(times):.2f} s of {args.repeat} ({'meets' if max(times) < 2 else 'misses'} the 2 s goal)")
        if not args.records:
            return
        failed, times = [], []
        for record in record_files(Path(folder) / "records"):
            started = time.monotonic()
            try:
                write_run_page(record, Path(folder) / "page.html")
            except RecordError as exc:
                failed.append(str(exc))
            times.append((time.monotonic() - started, record))
        slowest = max(times, key=lambda pair: pair[0])
        print(f"records: {len(times)} run.json under docs/records, {len(times) - len(failed)} pages written, "
              f"{len(failed)} refused; median {statistics.median(t for t, _ in times) * 1000:.0f} ms, slowest "
              f"{slowest[0] * 1000:.0f} ms ({slowest[1].name if slowest[1].name != 'run.json' else slowest[1].parent.name})")
        for message in failed:
            print(f"  {message}")


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench.speed", description=__doc__.splitlines()[0])
    parts = parser.add_subparsers(dest="part", required=True, metavar="model|sandbox|mcp|pages")
    raw = argparse.RawDescriptionHelpFormatter
    model = parts.add_parser("model", description=MODEL, formatter_class=raw, help=MODEL.splitlines()[0])
    model.add_argument("--cold", action="store_true", help="also measure a cold set-up into a fresh cache")
    model.add_argument("--cut", type=float, metavar="SECONDS",
                       help="only this: `make run` in a fresh cache cut SECONDS into its build, then run again (issue 87)")
    model.add_argument("--build-s", type=float, metavar="SECONDS",
                       help="with --cut: a whole cold build's time, if known (else measured first, about 4 minutes)")
    model.add_argument("--parallel", metavar="N,N", help="measure tokens per second with N answers at once")
    model.add_argument("--no-run", action="store_true", help="skip the engines' starts, speeds and Two Sum runs")
    model.add_argument("--fresh-clone", type=int, metavar="N", help="time `make run` on N fresh clones, empty caches")
    model.add_argument("--out", default=f"runs/benchmark-two-sum-{time.strftime('%Y%m%d-%H%M%S')}",
                       help="where the Two Sum run's files go (kept, to inspect run.json)")
    model.set_defaults(measure=model_costs)
    sandbox = parts.add_parser("sandbox", description=SANDBOX, formatter_class=raw, help=SANDBOX.splitlines()[0])
    sandbox.add_argument("--repeat", type=int, default=15)
    sandbox.set_defaults(measure=sandbox_costs)
    mcp = parts.add_parser("mcp", description=MCP, formatter_class=raw, help=MCP.splitlines()[0])
    mcp.add_argument("--runs", type=int, default=10, help="solves each way for the overhead (default 10)")
    mcp.add_argument("--solves", type=int, default=20, help="solves for the memory (default 20, at least 6)")
    mcp.set_defaults(measure=mcp_costs)
    pages = parts.add_parser("pages", description=PAGES, formatter_class=raw, help=PAGES.splitlines()[0])
    pages.add_argument("--megabytes", type=float, default=5, help="the big run.json's size (default 5)")
    pages.add_argument("--repeat", type=int, default=3, help="pages written from it (default 3)")
    pages.add_argument("--records", action="store_true", help="also every run.json under docs/records")
    pages.set_defaults(measure=page_costs)
    args = parser.parse_args(argv)
    args.measure(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
