"""Pages a person opens: run.html beside a run's run.json, report.html beside a benchmark's results.

Each page is made from a record alone (run.json; the benchmark's results lines), never from a run's shared
store, so any record, an old one included, can be shown again (`codeloop show RUN_DIR`). The markup lives in
templates/ (Jinja2, every value escaped unless marked safe: only Pygments' highlighted code is), the style is
inline and there is no script: a page opens from the file system, with no network.
"""
