"""Start and stop the embedded model's server on 127.0.0.1, and say clearly why it would not start.

    with LlamaServer(binary, model_file) as server:
        ... ModelConfig(base_url=server.base_url) ...

`binary` is llama-server built from source, or WHEEL: llama.cpp prebuilt on PyPI (the xllamacpp wheel), served by
utils/wheel_server.py in a process of its own. Both take the same flags and answer the same routes, so everything
below treats them alike.

The server listens on loopback only (it has no API key and allows any origin), on a free port. It is
stopped by PID when the block ends, whatever ends it: success, failure, exception or Ctrl-C; and the
kernel kills it if codeloop itself is killed (PR_SET_PDEATHSIG). Start-up waits for /health and then
asks for one token, because a build that does not fit the CPU only crashes at its first inference.

It knows nothing of how the model is set up (utils/local_model.py does that, and uses this to check a
new build): it defines only what both share, the error and the cache folder.

Run alone on a binary and a model file, to ask it one question:
    python -m utils.llama_server ~/.cache/codeloop/llama/bin/llama-server ~/.cache/codeloop/models/*.gguf
"""
import hashlib
import importlib.metadata
import importlib.util
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from utils.call_llm import ModelConfig
from utils.sandbox import die_with_parent

LOG_DIAGNOSES = [  # (text in the server's log, what to tell the user)
    ("address already in use", "port {port} on 127.0.0.1 is taken by another program"),
    ("couldn't bind", "port {port} on 127.0.0.1 is taken by another program"),
    ("failed to load model", "the model file {model} could not be loaded (corrupt or not a GGUF file)"),
    ("invalid magic", "the model file {model} is not a GGUF file"),
    ("failed to open", "the model file {model} could not be opened"),
]


WHEEL = "wheel"  # the engine prebuilt on PyPI, instead of a llama-server binary
WHEEL_SERVER = Path(__file__).with_name("wheel_server.py")  # run as a file: it imports nothing of codeloop's


def wheel_version():
    """The xllamacpp wheel's version where it is installed, else None."""
    if importlib.util.find_spec("xllamacpp") is None:
        return None
    try:
        return importlib.metadata.version("xllamacpp")
    except importlib.metadata.PackageNotFoundError:
        return None


class LocalModelError(RuntimeError):
    """The embedded model cannot be set up or started; the message is one line for the user."""


def cache_dir():
    """Where the embedded model lives: CODELOOP_CACHE, else $XDG_CACHE_HOME/codeloop, else ~/.cache/codeloop."""
    if os.environ.get("CODELOOP_CACHE"):
        return Path(os.environ["CODELOOP_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "codeloop"


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class LlamaServer:
    def __init__(self, binary, model_file, port=None, context=4096, threads=None, slots=1, ready_timeout=180,
                 log_path=None, prompt_prefix=None):
        self.wheel = binary == WHEEL
        self.binary, self.model_file = (WHEEL_SERVER if self.wheel else Path(binary)), Path(model_file)
        self.prompt_prefix, self.prefix_dir = prompt_prefix, cache_dir() / "prompt-prefix"
        self.prefix_note = None  # what became of `prompt_prefix`: restored, read and saved, or why neither
        self.port = port or int(os.environ.get("CODELOOP_LLAMA_PORT") or 0) or free_port()
        self.context, self.slots, self.ready_timeout = context, slots, ready_timeout
        self.threads = threads or os.cpu_count() or 1
        self.base_url = f"http://127.0.0.1:{self.port}/v1"
        self.log_path = Path(log_path or cache_dir() / "llama-server.log")
        self.proc = None
        self.start_seconds = None

    @property
    def name(self):
        """What the user is told serves the model."""
        return "llama.cpp's server from the xllamacpp wheel" if self.wheel else "llama-server"

    def command(self):
        engine = [sys.executable, str(WHEEL_SERVER)] if self.wheel else [str(self.binary)]
        return engine + ["--model", str(self.model_file), "--host", "127.0.0.1", "--port", str(self.port),
                "--ctx-size", str(self.context * self.slots), "--parallel", str(self.slots),
                "--threads", str(self.threads), "--no-webui"] + \
            (["--slot-save-path", str(self.prefix_dir)] if self.prompt_prefix else [])

    def model_config(self, name):
        """How to talk to this server: on a 2-core CPU a full 1500-token answer takes minutes, and more
        with several slots busy, so the cloud defaults would give up on answers that were coming. The
        answer streams, so the wait for the next byte only has to cover reading a long prompt (300 s);
        a whole call may take 15 minutes before it counts as stuck; one retry is for a dropped connection.
        Requests go one per slot: on 2 cores several answers at once are hardly faster in all than one,
        and one at a time reuses the shared prompt from the cache (figures: docs/local-model.md)."""
        return ModelConfig(model=name, base_url=self.base_url, timeout_s=300.0, max_retries=1, deadline_s=900.0,
                           concurrency=self.slots)

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()

    def start(self):
        if self.wheel and wheel_version() is None:
            raise LocalModelError("the xllamacpp wheel is not installed: pip install -r requirements-engine.txt, or "
                                  "build llama-server from source: make tuned")
        if not self.binary.is_file():
            raise LocalModelError(f"llama-server not found at {self.binary}; run: python main.py --setup-local")
        if not self.model_file.is_file():
            raise LocalModelError(f"model file not found at {self.model_file}; run: python main.py --setup-local")
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        if self.prompt_prefix:
            try:
                self.prefix_dir.mkdir(parents=True, exist_ok=True)
            except OSError as exc:  # only speed depends on it: start without it
                self.prefix_note, self.prompt_prefix = f"not kept: {exc}", None
        started = time.monotonic()
        with open(self.log_path, "wb") as log:
            self.proc = subprocess.Popen(self.command(), stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                         start_new_session=True, preexec_fn=die_with_parent)
        try:
            self._wait_until_ready()
            self._first_token()
            if self.prompt_prefix:
                self.prefix_note = self._keep_prefix()
        except BaseException:
            self.stop()
            raise
        self.start_seconds = time.monotonic() - started

    def _wait_until_ready(self):
        deadline = time.monotonic() + self.ready_timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise LocalModelError(diagnose_exit(self))
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/health", timeout=2) as response:
                    if response.status == 200:
                        return
            except (urllib.error.URLError, OSError):
                pass
            time.sleep(0.1)
        raise LocalModelError(f"{self.name} did not become ready within {self.ready_timeout} s; its log is {self.log_path}")

    def _post(self, path, body):
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", method="POST",
                                         headers={"Content-Type": "application/json"}, data=json.dumps(body).encode())
        with urllib.request.urlopen(request, timeout=120) as response:
            return json.loads(response.read())

    def _first_token(self):
        try:
            self._post("/v1/chat/completions", {"messages": [{"role": "user", "content": "hi"}], "max_tokens": 1})
        except (urllib.error.URLError, OSError, ValueError) as exc:
            time.sleep(0.2)
            if self.proc.poll() is not None:
                raise LocalModelError(diagnose_exit(self)) from None
            raise LocalModelError(f"{self.name} answered its first request with an error ({exc}); "
                                  f"its log is {self.log_path}") from None

    def prefix_file(self):
        """The saved prefix's name: another text, model file or server build makes another file."""
        engine = f"xllamacpp {wheel_version()}" if self.wheel else str(self.binary.stat().st_size)
        key = "\0".join([self.prompt_prefix, self.model_file.name, str(self.model_file.stat().st_size), engine])
        return hashlib.sha256(key.encode()).hexdigest()[:16] + ".bin"

    def _keep_prefix(self):
        """Put the text every prompt starts with into each slot's cache, so that a run's first call reads
        only what follows it: from the file an earlier start saved (milliseconds), else by reading it once
        (about 4 s on 2 cores) and saving it for the next start. Only speed depends on it, so what goes
        wrong is noted, never raised."""
        name = self.prefix_file()
        try:
            if (self.prefix_dir / name).is_file():
                try:
                    return f"restored ({self._restore(name, range(self.slots))} tokens)"
                except (urllib.error.URLError, KeyError):
                    pass  # a partial or foreign file: read the prefix again and save it over
            self._post("/v1/chat/completions", {"messages": [{"role": "system", "content": self.prompt_prefix}],
                                                "max_tokens": 1, "id_slot": 0})
            part = f"{name}.{os.getpid()}.part"  # saved under a name of its own, then renamed: starts may overlap
            saved = self._post("/slots/0?action=save", {"filename": part})["n_saved"]
            os.replace(self.prefix_dir / part, self.prefix_dir / name)
            self._restore(name, range(1, self.slots))
            for old in self.prefix_dir.glob("*.bin"):  # the prefix of an earlier version of the prompts
                if old.name != name:
                    old.unlink(missing_ok=True)
            return f"read and saved ({saved} tokens)"
        except (urllib.error.URLError, OSError, KeyError, ValueError) as exc:
            return f"not kept: {exc}"

    def _restore(self, name, slots):
        """Load the saved prefix `name` into each of `slots`; how many tokens it holds (None for no slot)."""
        restored = None
        for slot in slots:
            restored = self._post(f"/slots/{slot}?action=restore", {"filename": name})["n_restored"]
        return restored

    def gone(self):
        """Why the running server has stopped, in one line naming it; '' while it runs (or before it started)."""
        if self.proc is None or self.proc.poll() is None:
            return ""
        code = self.proc.returncode
        how = f"killed by {signal.Signals(-code).name}" if code < 0 else f"exit status {code}"
        return f"{self.name}, pid {self.proc.pid}, stopped in the middle of the run ({how}); its log is {self.log_path}"

    def stop(self):
        """Stop the server by PID: SIGTERM, then SIGKILL if it has not gone within 5 s."""
        if self.proc is None or self.proc.poll() is not None:
            return
        for sig, wait in ((signal.SIGTERM, 5), (signal.SIGKILL, 5)):
            try:
                os.killpg(self.proc.pid, sig)
            except ProcessLookupError:
                return
            try:
                self.proc.wait(timeout=wait)
                return
            except subprocess.TimeoutExpired:
                continue


def diagnose_exit(server):
    """Why a server that was starting has exited, in one line: a known cause from its log, else its exit."""
    code = server.proc.returncode
    if code == -signal.SIGILL and server.wheel:
        return ("llama.cpp from the xllamacpp wheel crashed with an illegal instruction: it needs AVX2, which this CPU "
                "lacks; build llama-server for this CPU: make tuned")
    if code == -signal.SIGILL:
        return (f"llama-server crashed with an illegal instruction: this build does not fit this CPU; delete "
                f"{server.binary.parent} (or {cache_dir() / 'llama'}) and run: python main.py --setup-local")
    try:
        log = server.log_path.read_text(errors="replace").lower()
    except OSError:
        log = ""
    for needle, message in LOG_DIAGNOSES:
        if needle in log:
            return f"{server.name} would not start: {message.format(port=server.port, model=server.model_file)}"
    said = next((line.split("wheel_server: ", 1)[1] for line in log.splitlines()
                 if "wheel_server: " in line and "listening on" not in line), "")
    if said:  # utils/wheel_server.py's own one line: the wheel or the model would not load
        return f"{server.name} would not start: {said}"
    reason = f"signal {signal.Signals(-code).name}" if code < 0 else f"exit status {code}"
    return f"{server.name} stopped at start-up ({reason}); its log is {server.log_path}"


if __name__ == "__main__":
    import sys

    from utils.call_llm import call_llm

    if len(sys.argv) != 3:
        sys.exit("usage: python -m utils.llama_server LLAMA_SERVER MODEL_FILE")
    with LlamaServer(sys.argv[1], sys.argv[2]) as server:
        print(f"ready in {server.start_seconds:.1f} s at {server.base_url}")
        reply = call_llm([{"role": "user", "content": "Write a haiku about tests."}], server.model_config("local"))
        print(reply.text, f"\n[{reply.completion_tokens} tokens in {reply.latency_ms:.0f} ms]")
