"""The embedded model's server from llama.cpp prebuilt on PyPI (the `xllamacpp` wheel), in a process of its own.

`xllamacpp.Server` runs llama.cpp's own HTTP server (the routes llama-server has: /health, /v1/chat/completions with
`timings`, /slots save and restore) inside the process that creates it. So it is started as this module, a process of
its own, with llama-server's flags: utils/llama_server.py starts, health-checks and stops it (by process group) as it
does the source-built binary, and a crash in llama.cpp never takes a run, the MCP server or the bench with it.
It serves until SIGTERM or SIGINT; what llama.cpp logs goes to its stderr (the caller's log file).

    python -m utils.wheel_server --model FILE.gguf --host 127.0.0.1 --port 8080 --ctx-size 4096 --parallel 1 \
        --threads 2 [--slot-save-path DIR]

Exit codes: 0 stopped when asked, 2 bad flags, 3 the wheel or the model would not load (one line on stderr).
"""
import argparse
import os
import signal
import sys
import threading


def parse_args(argv):
    parser = argparse.ArgumentParser(prog="python -m utils.wheel_server", description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--ctx-size", type=int, default=4096)
    parser.add_argument("--parallel", type=int, default=1)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--slot-save-path", default="")
    parser.add_argument("--no-webui", action="store_true", help="accepted as llama-server's; the wheel serves no UI")
    return parser.parse_args(argv)


def params_for(args, xllamacpp):
    """llama-server's flags as the wheel's CommonParams."""
    params = xllamacpp.CommonParams()
    params.model.path = args.model
    params.hostnames = [args.host]
    params.port = args.port
    params.n_ctx = args.ctx_size
    params.n_parallel = args.parallel
    params.cpuparams.n_threads = params.cpuparams_batch.n_threads = args.threads
    if args.slot_save_path:  # the wheel joins it and a file's name as they are: llama-server adds the separator
        params.slot_save_path = os.path.join(args.slot_save_path, "")
    params.ui = False
    return params


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    try:
        import xllamacpp
    except (ImportError, OSError) as exc:  # no wheel for this machine, or a system library it needs is missing
        print(f"wheel_server: the xllamacpp wheel does not load here: {exc}", file=sys.stderr)
        return 3
    try:
        server = xllamacpp.Server(params_for(args, xllamacpp))
    except Exception as exc:  # noqa: BLE001 - llama.cpp's own refusal (a model it cannot read, a port taken)
        print(f"wheel_server: llama.cpp would not start: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 3
    print(f"wheel_server: listening on {server.listening_address}", file=sys.stderr, flush=True)
    stop.wait()
    del server  # its destructor ends llama.cpp's loop and closes the port
    return 0


if __name__ == "__main__":
    sys.exit(main())
