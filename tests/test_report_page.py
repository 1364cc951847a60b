"""pages/report_page.py: a benchmark's report.html, written by `python -m bench` (a subprocess, the stub model, the
real sandbox) and by --report-only, loaded in headless Chromium: the tables, the charts inside the page, and a
grid row per problem whose every verdict links to that run's page."""
import json
import shutil
from pathlib import Path
from urllib.parse import unquote, urlsplit

from tests import scripted_answers as a
from tests.test_bench import TWO_SUM, bench, lines, write_jsonl


def grid_links(dom, out):
    """Each grid row's problem and the run page its verdict links to."""
    rows = dom.find("table", id="grid-table").find_all("tr", cls="problem")
    return {row.attrs["data-problem"]: out / unquote(row.find("a", cls="run").attrs["href"]) for row in rows}


def test_a_benchmark_writes_report_html_whose_every_row_links_its_runs_page(stub, tmp_path, browser):
    stub.route("code", a.GOOD_CODE, a.GOOD_CODE, about="two numbers")
    problems = [TWO_SUM, {**TWO_SUM, "id": "two-sum-again"}]
    out = tmp_path / "out"
    result = bench("--dataset", write_jsonl(tmp_path / "p.jsonl", *problems), "--strategies", "single-shot",
                   "--out", str(out), stub=stub)
    assert result.returncode == 0, result.stderr
    dom = browser(out / "report.html")
    assert [h.text() for h in dom.find_all("h2")] == ["Summary", "By difficulty", "By family", "Repeated draws", "Charts",
                                                           "Per problem"]
    summary = dom.find("table", cls="report-table").find("tbody").find("tr")
    assert [td.text() for td in summary.find_all("td")][:4] == ["p.jsonl", "single-shot", "2", "2"]
    assert [img.attrs["src"][:26] for img in dom.find_all("img")] == ["data:image/svg+xml;base64,"] * 4
    links = grid_links(dom, out)
    assert sorted(links) == ["two-sum", "two-sum-again"]
    for problem, page in links.items():
        (line,) = [line for line in lines(out) if line["id"] == problem]
        assert page == Path(line["run_dir"]) / "run.html" and page.is_file()
        assert not urlsplit(str(page)).scheme
    assert not dom.find_all("script")


def test_report_only_on_an_unpacked_archive_writes_the_missing_run_pages_and_links_them(stub, tmp_path, browser):
    stub.route("code", a.GOOD_CODE, about="two numbers")
    made = tmp_path / "made"
    assert bench("--dataset", write_jsonl(tmp_path / "p.jsonl", TWO_SUM), "--strategies", "single-shot",
                 "--out", str(made), stub=stub).returncode == 0
    # as bench/archive.py packs it: results.jsonl and each run.json, nothing else, the folder elsewhere now
    moved = tmp_path / "elsewhere" / "made"
    (line,) = lines(made)
    run = moved / Path(line["run_dir"]).relative_to(made)
    run.mkdir(parents=True)
    shutil.copy(Path(line["run_dir"]) / "run.json", run / "run.json")
    shutil.copy(made / "results.jsonl", moved / "results.jsonl")
    shutil.rmtree(made)
    result = bench("--report-only", "--out", str(moved))
    assert result.returncode == 0, result.stderr
    assert grid_links(browser(moved / "report.html"), moved) == {"two-sum": run / "run.html"}
    page = browser(run / "run.html")
    assert page.find(cls="message").text() == json.loads((run / "run.json").read_text())["message"]
