"""codeloop's benchmark harness: `python -m bench --help`. See docs/benchmarks.md."""
