"""The docs say what the code does: docs/cli.md is the programs' own --help, word for word."""
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


def test_readme_is_a_front_door_that_links_every_doc():
    readme = (ROOT / "README.md").read_text()
    assert len(readme.splitlines()) <= 160
    for page in ("docs/cli.md", "docs/security.md", "docs/benchmarks.md", "docs/design.md", "docs/local-model.md",
                 "docs/mcp.md"):
        assert page in readme, page


if __name__ == "__main__":  # python tests/test_docs.py: write docs/cli.md again from the programs' --help
    page = (ROOT / "docs" / "cli.md").read_text()
    head = page.split("## `python main.py --help`")[0]
    (ROOT / "docs" / "cli.md").write_text(f"{head}## `python main.py --help`\n\n```\n{help_of('main.py')}```\n\n"
                                          f"## `python -m bench --help`\n\n```\n{help_of('-m', 'bench')}```\n")
