"""run.html: one run's page, made from its run.json alone (pages/run_view.py, pages/timeline.py) into
templates/run.html. app.py writes it as a run ends; `codeloop show RUN_DIR` writes it again from any record.

    python -m pages.run_page RUN_DIR [PAGE]      # the same as codeloop show RUN_DIR --no-open [--out PAGE]
"""
import os
import sys

from pages.record import read_record, record_path
from pages.render import write_page
from pages.run_view import run_view
from pages.timeline import timeline


def write_run_page(run, out=None):
    """Write the page of the run (its folder or run.json) to `out`, default run.html beside run.json; its path.
    A record that cannot be read raises RecordError before anything is written."""
    path = record_path(os.fspath(run))
    record = read_record(path)
    page = os.fspath(out) if out else os.path.join(os.path.dirname(path), "run.html")
    folder = os.path.relpath(os.path.dirname(os.path.abspath(path)), os.path.dirname(os.path.abspath(page)))
    prefix = "" if folder == "." else folder.replace(os.sep, "/") + "/"
    return write_page(page, "run.html", run=run_view(record, prefix), timeline=timeline(record))


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: python -m pages.run_page RUN_DIR [PAGE]")
    print(write_run_page(*sys.argv[1:]))
