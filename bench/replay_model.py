"""python -m bench.replay_model --records RUN_DIR... : a stand-in for the embedded llama-server that answers
each request with the answer the model gave to the same request in recorded runs.

What it is for: telling whether two commits behave the same on the embedded model without paying for
the model twice (a bench of 24 HumanEval problems takes 97 min on 2 cores). Run commit A on the model
(`python -m bench ... --out A`), then commit B with this server in llama-server's place:

    CODELOOP_LLAMA_SERVER=replay-server.sh python -m bench ... --out B    # at commit B
    # replay-server.sh:  exec python /path/to/bench/replay_model.py --records A/runs/leetcode/full \\
    #                         --log B-replay.jsonl "$@"

B then runs exactly as with the embedded model (same settings, slots, timeouts), and every request
whose messages match a recorded call gets that call's answer, finish reason, token counts and the
server's timings; the same messages asked again get their recorded answers in the order they were given.
A request that no run recorded is answered with HTTP 400 and logged as a miss. So B asked what A asked,
call for call, exactly when the log shows no miss and no recorded call left unasked; B's outcomes then
come from B's own code and the sandbox. (Running B on the model again, even with a fixed sampling seed,
takes as long as A did, and its answers match A's only if sampling and the prompt cache behave alike
call for call.) Only the messages are matched: run.json does not keep a call's temperature or token cap.
Records made before d52c886 need the same PYTHONHASHSEED on both sides: core/variants.py picked string
variants in set order then, which changed from process to process.

With `--upstream LLAMA_SERVER`, a request no run recorded goes to a real llama-server instead (started
with the same flags on another port, stopped with this one), and its answer is relayed as it streams.
That compares two commits on the same luck: where B asks what A asked it gets A's answer, and only from
the first request where B's rules ask something else does B pay for fresh answers (a paired comparison,
in minutes of model time instead of a whole second benchmark). The log marks those requests "forwarded".

The answer is sent as one chunk: utils/runaway.py's watchers see the whole recorded text at once, which
ends where they stopped it when A ran, so they stop it (or let it stand) the same way again.
Standard library only, so that it runs from any checkout.
"""
import argparse
import collections
import ctypes
import hashlib
import http.client
import json
import shlex
import signal
import socket
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

WARM_UP = [{"role": "user", "content": "hi"}]  # the server's first-token check (utils/llama_server.py)


def key(messages):
    return hashlib.sha256(json.dumps(messages, sort_keys=True).encode()).hexdigest()[:16]


def recorded_calls(folders):
    """{messages key: deque of (run name, call)} from every run.json under the folders, in call order."""
    calls = collections.defaultdict(collections.deque)
    for folder in folders:
        for path in sorted(Path(folder).glob("**/run.json")):
            for call in json.loads(path.read_text()).get("model_calls", []):
                if call.get("messages") and call.get("answer") is not None:
                    calls[key(call["messages"])].append((path.parent.name, call))
    return calls


class Replay:
    def __init__(self, folders, log_path, upstream_port=None):
        self.calls, self.lock = recorded_calls(folders), threading.Lock()
        self.total = sum(len(queue) for queue in self.calls.values())
        self.log = open(log_path, "a") if log_path else None
        self.hits = self.misses = 0
        self.upstream_port = upstream_port

    def take(self, messages):
        asked = key(messages)
        with self.lock:
            queue = self.calls.get(asked)
            found = queue.popleft() if queue else None
            self.hits, self.misses = self.hits + bool(found), self.misses + (not found)
            self.write({"at": time.time(), "key": asked, "hit": bool(found),
                        **({"run": found[0], "node": found[1].get("node")} if found else
                           {"asked": next((m["content"][:200] for m in messages if m["role"] == "user"), ""),
                            "forwarded": self.upstream_port is not None})})
            return found and found[1]

    def summary(self):
        with self.lock:
            left = collections.Counter(run for queue in self.calls.values() for run, _ in queue)
            return {"summary": True, "recorded": self.total, "hits": self.hits, "misses": self.misses,
                    "forwarded": self.misses if self.upstream_port is not None else 0,
                    "left_unasked": dict(sorted(left.items()))}

    def write(self, entry):
        if self.log:
            self.log.write(json.dumps(entry) + "\n")
            self.log.flush()


def send_events(request, body, call, usage, timings):
    """The recorded answer as llama-server streams one: a chunk with the text, one with the finish reason,
    one with the usage and timings."""
    request.send_response(200)
    request.send_header("Content-Type", "text/event-stream")
    request.send_header("Connection", "close")
    request.end_headers()
    request.close_connection = True

    def event(choices, **extra):
        chunk = {"id": "replay", "object": "chat.completion.chunk", "created": int(time.time()),
                 "model": body.get("model"), "choices": choices, **extra}
        request.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
    try:
        event([{"index": 0, "delta": {"role": "assistant", "content": call["answer"]}, "finish_reason": None}])
        event([{"index": 0, "delta": {}, "finish_reason": call.get("finish_reason", "stop")}])
        event([], usage=usage, **timings)
        request.wfile.write(b"data: [DONE]\n\n")
        request.wfile.flush()
    except (BrokenPipeError, ConnectionResetError):
        pass  # the client stopped the answer (a runaway watcher), as it did when the calls were recorded


def relay(request, port, raw):
    """Relay the request to the real server and its answer back as it comes. A client that stops
    reading (a runaway watcher) closes this connection, and closing the upstream one stops the model."""
    upstream = http.client.HTTPConnection("127.0.0.1", port)
    try:
        upstream.request("POST", request.path, body=raw, headers={"Content-Type": "application/json"})
        answer = upstream.getresponse()
        request.send_response(answer.status)
        request.send_header("Content-Type", answer.getheader("Content-Type", "application/json"))
        request.send_header("Connection", "close")
        request.end_headers()
        request.close_connection = True
        while chunk := answer.read1(65536):
            request.wfile.write(chunk)
            request.wfile.flush()
    except (BrokenPipeError, ConnectionResetError):
        pass
    finally:
        upstream.close()


def handler(replay):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def do_GET(self):
            if self.path.rstrip("/") == "/health":
                return self.send(200, {"status": "ok"})
            if self.path.rstrip("/") == "/replay/summary":
                return self.send(200, replay.summary())
            self.send(404, {"error": {"message": "not found"}})

        def do_POST(self):
            raw = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            body = json.loads(raw or b"{}")
            messages = body.get("messages", [])
            keeping_prefix = self.path.startswith("/slots") or [m["role"] for m in messages] == ["system"]
            if keeping_prefix:  # LlamaServer reading and saving the prompts' common start: no recorded call
                return relay(self, replay.upstream_port, raw) if replay.upstream_port is not None else \
                    self.send(501, {"error": {"message": "replay: no slots without an upstream server"}})
            call = {"answer": "hi", "finish_reason": "stop"} if messages == WARM_UP else replay.take(messages)
            if not call and replay.upstream_port is not None:
                return relay(self, replay.upstream_port, raw)
            if not call:
                return self.send(400, {"error": {"message": "replay: no recorded answer for this request"}})
            usage = {"prompt_tokens": call.get("prompt_tokens", 0), "completion_tokens": call.get("completion_tokens", 0),
                     "total_tokens": call.get("prompt_tokens", 0) + call.get("completion_tokens", 0),
                     "prompt_tokens_details": {"cached_tokens": call.get("prompt_cached") or 0}}
            timings = {"timings": call["server_timings"]} if call.get("server_timings") else {}
            if not body.get("stream"):
                return self.send(200, {"id": "replay", "object": "chat.completion", "created": int(time.time()),
                                       "model": body.get("model"), "usage": usage, **timings,
                                       "choices": [{"index": 0, "finish_reason": call.get("finish_reason", "stop"),
                                                    "message": {"role": "assistant", "content": call["answer"]}}]})
            send_events(self, body, call, usage, timings)

        def send(self, status, payload):
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return Handler


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_upstream(command, llama_args, ready_timeout=300):
    """The real server, with the flags the bench gave this one, on a port of its own; ready when /health
    answers 200 (llama-server answers 503 while it loads the model)."""
    port = free_port()
    proc = subprocess.Popen(shlex.split(command) + llama_args + ["--host", "127.0.0.1", "--port", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
                            preexec_fn=killed_with_this_process)
    deadline = time.monotonic() + ready_timeout
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            probe = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            probe.request("GET", "/health")
            if probe.getresponse().status == 200:
                return proc, port
        except OSError:
            pass
        time.sleep(0.2)
    stop(proc)
    raise SystemExit(f"replay: the upstream server ({command}) did not become ready")


def killed_with_this_process():
    """In the upstream server before exec: SIGKILL when the replay dies, even by kill -9 (as the bench's
    own server is; utils/sandbox.die_with_parent, which a script run from bench/ cannot import)."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG (Linux)
    except (OSError, AttributeError):
        pass


def stop(proc):
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench.replay_model", description=__doc__.split("\n\n")[0], allow_abbrev=False)
    parser.add_argument("--records", nargs="+", required=True, metavar="RUN_DIR",
                        help="folders holding recorded run.json files (searched recursively)")
    parser.add_argument("--log", help="append one JSON line per request, and the summary at the end, to this file")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--upstream", metavar="COMMAND",
                        help="a real llama-server (command line) that answers what no run recorded")
    args, llama_args = parser.parse_known_args(argv)  # the rest of llama-server's command line goes upstream
    upstream, upstream_port = start_upstream(args.upstream, llama_args) if args.upstream else (None, None)
    replay = Replay(args.records, args.log, upstream_port)
    httpd = ThreadingHTTPServer((args.host, args.port), handler(replay))
    httpd.daemon_threads = True

    def finish(*_):
        threading.Thread(target=httpd.shutdown, daemon=True).start()
    signal.signal(signal.SIGTERM, finish)
    signal.signal(signal.SIGINT, finish)
    print(f"replaying {replay.total} recorded answers on http://{args.host}:{httpd.server_address[1]}", flush=True)
    if upstream:
        print(f"forwarding the rest to {args.upstream} on port {upstream_port} (pid {upstream.pid})", flush=True)
    try:
        httpd.serve_forever(poll_interval=0.1)
    finally:
        if upstream:
            stop(upstream)
    outcome = replay.summary()
    replay.write(outcome)
    print(json.dumps(outcome), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
