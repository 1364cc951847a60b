"""The package `pipx install .` installs: the wheel carries every file a run reads, and a run from it works.

Built as pip builds it for pipx (setuptools, the project's pyproject.toml), offline (no build isolation: the pinned
setuptools of requirements.txt), from a copy of the clone so that nothing is written into it. The wheel is then
unpacked into a folder of its own and `codeloop`'s entry point runs from there, in another folder, against a stub
model: a data file read relative to the code (the calibration, the sandbox's runner, the page's templates) that
the wheel left out ends the run with an error, as it did for the calibration (issue 94).
"""
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests import scripted_answers as a
from tests.test_main import cli_env

ROOT = Path(__file__).resolve().parent.parent
READ_AT_RUN_TIME = ["core/calibration.json", "utils/sandbox_runner.py", "pages/templates/run.html",
                    "pages/templates/page.css", "pages/templates/page.html", "pages/templates/report.html"]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    source, out = tmp_path_factory.mktemp("source"), tmp_path_factory.mktemp("wheel")
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    for name in filter(None, tracked.split("\0")):
        if (ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
                            "-q", "-w", str(out), str(source)], capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stderr
    return next(out.glob("codeloop-*.whl"))


def test_the_wheel_carries_every_file_a_run_reads(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    assert not [name for name in READ_AT_RUN_TIME if name not in names]


def test_every_data_file_beside_the_code_is_in_the_wheel(wheel):
    """A file in a package folder that is not Python (a new template, a second calibration) and that git tracks is
    read by something: the wheel must carry it too."""
    names = set(zipfile.ZipFile(wheel).namelist())
    tracked = subprocess.run(["git", "ls-files", "core", "utils", "pages"], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout.split()
    data = [name for name in tracked if not name.endswith(".py") and "/__pycache__/" not in name]
    assert data and not [name for name in data if name not in names]


def test_the_installed_command_solves_from_another_folder(wheel, stub, tmp_path):
    site, elsewhere = tmp_path / "site", tmp_path / "elsewhere"
    zipfile.ZipFile(wheel).extractall(site)
    elsewhere.mkdir()
    a.route_defaults(stub)
    # the console script `codeloop` is main:main; its dependencies come from this interpreter's environment
    env = cli_env(stub, PYTHONPATH=str(site))
    result = subprocess.run([sys.executable, "-c", "import sys, main; sys.exit(main.main())", a.TWO_SUM, "--out",
                             str(elsewhere / "run")], cwd=elsewhere, env=env, capture_output=True, text=True, timeout=180)
    assert "cannot read" not in result.stderr and "Traceback" not in result.stderr, result.stderr
    assert result.returncode in (0, 1), result.stderr
    last = result.stderr.strip().splitlines()
    assert any("confidence" in line for line in last), result.stderr
    assert (elsewhere / "run" / "run.html").is_file() and (elsewhere / "run" / "solution.py").is_file()
    loaded = subprocess.run([sys.executable, "-c", "import main; print(main.__file__)"], cwd=elsewhere, env=env,
                            capture_output=True, text=True)
    assert loaded.stdout.strip().startswith(str(site)), "the run must use the unpacked wheel, not the clone"
