"""The docs say what the code does: docs/cli.md is the programs' own --help, word for word; every record the
docs cite is in docs/records/ with a line in its index; no script hides under docs/."""
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def help_of(*command):
    env = {**os.environ, "COLUMNS": "100"}
    return subprocess.run([sys.executable, *command, "--help"], cwd=ROOT, capture_output=True, text=True,
                          env=env, timeout=60).stdout


def test_the_cli_page_is_the_help_the_programs_print():
    page = (ROOT / "docs" / "cli.md").read_text()
    assert help_of("main.py") in page, "regenerate docs/cli.md: the main.py --help changed"
    assert help_of("-m", "bench") in page, "regenerate docs/cli.md: the bench --help changed"
    assert help_of("main.py", "show") in page, "regenerate docs/cli.md: the show --help changed"


def test_readme_is_a_front_door_that_links_every_doc():
    readme = (ROOT / "README.md").read_text()
    assert len(readme.splitlines()) <= 160
    for page in ("docs/cli.md", "docs/security.md", "docs/results.md", "docs/bench.md", "docs/design.md", "docs/local-model.md",
                 "docs/mcp.md"):
        assert page in readme, page


def test_the_results_page_fits_in_250_lines_and_links_the_harness_the_journal_and_the_records():
    page = (ROOT / "docs" / "results.md").read_text()
    assert len(page.splitlines()) <= 250
    assert [link for link in ("bench.md", "journal/README.md", "records/README.md") if f"]({link})" not in page] == []


def test_every_record_has_a_line_in_the_records_index_saying_what_it_backs():
    records = ROOT / "docs" / "records"
    rows = {line.split("|")[1].strip().strip("`"): line.split("|")[3] for line in
            (records / "README.md").read_text().splitlines() if line.startswith("| `")}
    unlisted = [path.name for path in records.iterdir() if path.name != "README.md" and "](" not in rows.get(path.name, "")]
    assert unlisted == [], "add each to docs/records/README.md with the section(s) citing it"


def test_no_script_under_docs_only_the_files_recorded_runs_wrote():
    written = {"solution.py", "test_solution.py"}  # a run's exported programs, kept beside its run.json
    scripts = [str(path.relative_to(ROOT)) for path in (ROOT / "docs").rglob("*.py")
               if path.name not in written or not (path.parent / "run.json").exists()]
    assert scripts == []


if __name__ == "__main__":  # python tests/test_docs.py: write docs/cli.md again from the programs' --help
    page = (ROOT / "docs" / "cli.md").read_text()
    head = page.split("## `python main.py --help`")[0]
    (ROOT / "docs" / "cli.md").write_text(f"{head}## `python main.py --help`\n\n```\n{help_of('main.py')}```\n\n"
                                          f"## `python main.py show --help`\n\n```\n{help_of('main.py', 'show')}```\n\n"
                                          f"## `python -m bench --help`\n\n```\n{help_of('-m', 'bench')}```\n")
