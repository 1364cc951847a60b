"""A scripted OpenAI-compatible chat server on 127.0.0.1, for tests: real HTTP, scripted answers.

Each request to /v1/chat/completions takes the next step of the script:
  "text"                                   a normal answer (finish_reason "stop")
  {"text": ..., "finish_reason": "length"} an answer cut off at the token cap
  {"status": 500, "body": ...}             an HTTP error (retry-after-ms keeps client retries fast)
  {"hang": seconds}                        answer nothing for a while (for client timeouts)
  {"hang": seconds, "then": "text"}        a slow answer
  {"trickle": seconds, "text": ...}        stream one character every `seconds` (a slow or never-ending server)
  {"timings": {...}, "text": ...}          llama-server's own figures, sent with the usage at the end
  {"body": bytes}                          HTTP 200 with this body as it is (not JSON, a wrong shape, ...)
A request with "stream": true gets the answer as server-sent events, a few characters a chunk, then a
chunk with usage and [DONE], as OpenAI and llama-server send it; otherwise one JSON completion.
`route(kind, *steps, about=text)` gives steps to one kind of request only (and about one problem) (tests, code, oracle, revise, reflect,
failure_reflection, question, checker, validator, repair, oracle_repair: told apart by the request's first user message), so that requests sent
at the same time (the candidates and the oracle) get their answers whatever order they arrive in; a
request whose kind has no routed step left takes the next step of the script.
When both run out the server answers HTTP 500, so a test that asks too often fails loudly.
Run alone to serve a fixed answer:  python tests/stub_openai_server.py --answer "some answer" [--port N]
(llama-server's other flags are ignored, so it can stand in for llama-server; GET /health answers.)
"""
import argparse
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class QuietServer(ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        pass  # a client that hung up (a timeout test, an abandoned call) is not the test's business


KINDS = [("tests", ("test cases for run_code", "more test case")), ("code", ("Implement run_code", "Implement the program")),
         ("restated", ("every one of these rules of the statement",)), ("rules", ("List every rule it sets",)),
         ("oracle_repair", ("This brute-force run_code is wrong on", "This brute-force program is wrong on")),  # quotes the oracle's request: before it
         ("oracle", ("Write the simplest program",)), ("revise", ("whether the test's expected value is wrong",)),
         ("failure_reflection", ("Explain in at most three sentences",)), ("reflect", ("restate the problem",)),
         ("question", ("does the problem leave something open",)),
         ("checker", ("Write a checker instead of a", "Write a function all_answers")),
         ("validator", ("promises this about its inputs",)), ("repair", ("This run_code is wrong on", "This program is wrong on")),
         ("explanation", ("The run has ended",)), ("generator", ("Write an input generator",)),
         ("input_validator", ("Write an input validator",))]


def request_kind(body):
    """Which step asked: from the first user message (a retry repeats it, so a retry is of the same kind)."""
    first = next((m["content"] for m in body.get("messages", []) if m["role"] == "user"), "")
    return next((kind for kind, phrases in KINDS if any(phrase in first for phrase in phrases)), None)


class StubOpenAIServer:
    def __init__(self, script=(), port=0):
        self.script, self.requests, self.lock = list(script), [], threading.Lock()
        self.routes = {}
        self.unknown = []  # the start of each request of no kind in KINDS, while answers are routed by kind
        self.timeline = []  # (kind, started, ended) of every request answered, in monotonic seconds
        self.httpd = QuietServer(("127.0.0.1", port), self._handler())
        self.httpd.daemon_threads = True
        self.base_url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()

    def add(self, *steps):
        with self.lock:
            self.script.extend(steps)

    def route(self, kind, *steps, about=None):
        """Steps for one kind of request; with `about`, only for requests whose messages contain that text
        (two problems solved at once each get their own answers, whatever order they ask in)."""
        with self.lock:
            self.routes.setdefault((kind, about), []).extend(steps)

    def next_step(self, body):
        with self.lock:
            self.requests.append(body)
            kind, said = request_kind(body), json.dumps(body.get("messages", []))
            for (routed_kind, about), routed in self.routes.items():
                if routed and routed_kind == kind and about is not None and json.dumps(about)[1:-1] in said:
                    return routed.pop(0)
            routed = self.routes.get((kind, None))
            if routed:
                return routed.pop(0)
            if kind is None and self.routes:  # a new step's request: its phrase belongs in KINDS (the fixture says so)
                self.unknown.append(next((m["content"][:80] for m in body.get("messages", []) if m["role"] == "user"), ""))
            return self.script.pop(0) if self.script else {"status": 500, "body": "stub script exhausted"}

    def _handler(self):
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_GET(self):
                self._send(200 if self.path.rstrip("/") == "/health" else 404, "{}", "application/json")

            def do_POST(self):
                started = time.monotonic()
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                try:
                    self._answer(body)
                finally:
                    with server.lock:
                        server.timeline.append((request_kind(body), started, time.monotonic()))

            def _answer(self, body):
                step = server.next_step(body)
                step = {"text": step} if isinstance(step, str) else step
                if "hang" in step:
                    time.sleep(step["hang"])
                    if "then" not in step:
                        self.close_connection = True
                        return
                    step = {"text": step["then"]}
                if "status" in step:
                    return self._send(step["status"], json.dumps({"error": {"message": step.get("body", "error")}}),
                                      "application/json", {"retry-after-ms": "10"})
                if "body" in step:
                    return self._send(200, step["body"], "application/json")
                usage = {"prompt_tokens": 1 + sum(len(m["content"]) // 4 for m in body.get("messages", [])),
                         "completion_tokens": 1 + len(step["text"]) // 4, "total_tokens": 0}
                if body.get("stream"):
                    return self._stream(body, step, usage)
                self._send(200, json.dumps({
                    "id": "stub", "object": "chat.completion", "created": int(time.time()), "model": body.get("model"),
                    "choices": [{"index": 0, "finish_reason": step.get("finish_reason", "stop"),
                                 "message": {"role": "assistant", "content": step["text"]}}],
                    "usage": usage}), "application/json")

            def _stream(self, body, step, usage):
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Connection", "close")
                self.end_headers()
                self.close_connection = True
                text, size = step["text"], 1 if "trickle" in step else 8

                def event(choices, **extra):
                    chunk = {"id": "stub", "object": "chat.completion.chunk", "created": int(time.time()),
                             "model": body.get("model"), "choices": choices, **extra}
                    self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                    self.wfile.flush()
                try:
                    for start in range(0, len(text), size):
                        event([{"index": 0, "delta": {"content": text[start:start + size]}, "finish_reason": None}])
                        if "trickle" in step:
                            time.sleep(step["trickle"])
                    event([{"index": 0, "delta": {}, "finish_reason": step.get("finish_reason", "stop")}])
                    event([], usage=usage, **({"timings": step["timings"]} if "timings" in step else {}))
                    self.wfile.write(b"data: [DONE]\n\n")
                    self.wfile.flush()
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up

            def _send(self, status, text, content_type, headers=None):
                data = text.encode() if isinstance(text, str) else text
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(data)))
                for key, value in (headers or {}).items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(data)

        return Handler


if __name__ == "__main__":
    cli = argparse.ArgumentParser()
    cli.add_argument("--answer", default="hello")
    cli.add_argument("--port", type=int, default=0)
    options, _llama_server_flags = cli.parse_known_args()
    with StubOpenAIServer([options.answer] * 1000, port=options.port) as stub:
        print(f"serving on {stub.base_url}; Ctrl-C to stop", flush=True)
        try:
            stub.thread.join()
        except KeyboardInterrupt:
            pass
