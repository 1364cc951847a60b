"""utils/llama_server.py: start, stop on every path, and a one-line diagnosis for each way start-up fails."""
import http.server
import os
import socket
import threading
import time
import urllib.request
from dataclasses import replace

import pytest

from core.prompts import conversation, instructions
from utils.call_llm import call_llm
from utils.llama_server import LlamaServer, LocalModelError
from utils.llama_server import WHEEL, wheel_version
from utils.local_model import model_path, server_binary_path, serving

real_model = pytest.mark.real_model


def running(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as f:
        return f.read().split(")")[-1].split()[0] != "Z"


def test_a_missing_binary_is_diagnosed(tmp_path):
    with pytest.raises(LocalModelError, match="llama-server not found at .*--setup-local"):
        LlamaServer(tmp_path / "llama-server", tmp_path / "model.gguf").start()


def test_an_illegal_instruction_is_diagnosed_not_hung(tmp_path):
    # Stand-in for a build that does not fit the CPU: a program that dies of SIGILL as the real one did.
    crashing = tmp_path / "llama-server"
    crashing.write_text("#!/bin/sh\nkill -ILL $$\n")
    crashing.chmod(0o755)
    model = tmp_path / "model.gguf"
    model.write_bytes(b"GGUF")
    started = time.monotonic()
    with pytest.raises(LocalModelError, match="illegal instruction"):
        LlamaServer(crashing, model, log_path=tmp_path / "log").start()
    assert time.monotonic() - started < 10


@real_model
def test_a_corrupt_model_file_is_diagnosed(tmp_path):
    corrupt = tmp_path / "corrupt.gguf"
    corrupt.write_bytes(b"this is not a model" * 1000)
    with pytest.raises(LocalModelError, match="model file .* (could not be loaded|is not a GGUF)"):
        LlamaServer(serving(), corrupt, log_path=tmp_path / "log").start()


@real_model
def test_a_taken_port_is_diagnosed(tmp_path):
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", 0))
        squatter.listen()
        port = squatter.getsockname()[1]
        with pytest.raises(LocalModelError, match=f"port {port} on 127.0.0.1 is taken"):
            LlamaServer(serving(), model_path(), port=port, log_path=tmp_path / "log").start()


ENGINES = [pytest.param(WHEEL, marks=pytest.mark.skipif(not wheel_version(), reason="no xllamacpp wheel installed"),
                        id="wheel"),
           pytest.param("build", marks=pytest.mark.skipif(not server_binary_path().is_file(), reason="no source build"),
                        id="build")]


@real_model
@pytest.mark.parametrize("engine", ENGINES)
def test_the_server_answers_on_loopback_and_is_gone_after_the_block(tmp_path, engine):
    binary = WHEEL if engine == WHEEL else server_binary_path()
    with LlamaServer(binary, model_path(), log_path=tmp_path / "log") as server:
        pid = server.proc.pid
        with urllib.request.urlopen(f"{server.base_url}/models", timeout=5) as response:
            assert response.status == 200
        assert server.start_seconds < 60
    assert not running(pid)


@real_model
def test_the_server_is_stopped_when_the_block_raises(tmp_path):
    with pytest.raises(KeyboardInterrupt):
        with LlamaServer(serving(), model_path(), log_path=tmp_path / "log") as server:
            pid = server.proc.pid
            raise KeyboardInterrupt
    assert not running(pid)


@real_model
def test_the_prompts_common_start_is_read_at_the_first_start_and_restored_at_the_next(tmp_path, monkeypatch):
    binary, weights = serving(), model_path()
    monkeypatch.setenv("CODELOOP_CACHE", str(tmp_path / "cache"))  # a cache with no saved prefix in it
    kept = tmp_path / "cache" / "prompt-prefix"
    kept.mkdir(parents=True)
    (kept / "0123456789abcdef.bin").write_bytes(b"the prefix of an earlier version of the prompts")
    with LlamaServer(binary, weights, log_path=tmp_path / "log", prompt_prefix=instructions()) as first:
        assert first.prefix_note.startswith("read and saved")
    assert [path.name for path in kept.iterdir()] == [first.prefix_file()]
    with LlamaServer(binary, weights, log_path=tmp_path / "log", prompt_prefix=instructions()) as second:
        assert second.prefix_note.startswith("restored")
        config = replace(second.model_config("local"), max_tokens=8)
        reply = call_llm(conversation("Return the sum of a and b.", "Write run_code."), config)
    restored_tokens = int(second.prefix_note.split("(")[1].split()[0])
    assert reply.cached_tokens >= restored_tokens - 8 > 100  # the first call of a run reads only what follows it


def test_a_prefix_the_server_cannot_keep_is_noted_not_raised(tmp_path):
    # The stub answers like llama-server started without --slot-save-path: slot actions are refused.
    class Refusing(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            ok = self.path.startswith("/v1/")
            body = b'{"choices": []}' if ok else b'{"error": {"message": "slot save is not enabled"}}'
            self.send_response(200 if ok else 501)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    stub = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Refusing)
    threading.Thread(target=stub.serve_forever, daemon=True).start()
    try:
        (tmp_path / "llama-server").write_bytes(b"")
        (tmp_path / "model.gguf").write_bytes(b"GGUF")
        server = LlamaServer(tmp_path / "llama-server", tmp_path / "model.gguf", port=stub.server_address[1],
                             prompt_prefix=instructions())
        server.prefix_dir = tmp_path / "kept"
        note = server._keep_prefix()
    finally:
        stub.shutdown()
    assert note.startswith("not kept:") and "501" in note


def test_the_client_of_the_embedded_server_waits_for_long_answers_instead_of_resending_them(tmp_path):
    config = LlamaServer(tmp_path / "llama-server", tmp_path / "model.gguf", port=8123).model_config("local-model")
    assert config.base_url == "http://127.0.0.1:8123/v1" and config.model == "local-model"
    assert config.deadline_s >= 900 and config.timeout_s >= 300 and config.max_retries <= 1
