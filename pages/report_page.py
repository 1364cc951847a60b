"""report.html: a benchmark's report as one page (templates/report.html), from what bench/report.py computed out
of results.jsonl: the tables by set, difficulty and family, the charts (inside the page, as data), and the
per-problem grid, each cell a link to its run's page."""
from pages.render import write_page


def write_report_page(path, report):
    return write_page(path, "report.html", report=report)
