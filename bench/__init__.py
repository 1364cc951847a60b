"""codeloop's benchmark harness: `python -m bench --help`. See docs/bench.md; the numbers, docs/results.md."""
