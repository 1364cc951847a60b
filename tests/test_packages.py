"""utils/packages.py: which imports need installing, and installing them where only the sandbox sees them.

No network: pip installs from a folder holding one wheel built here by hand (PIP_NO_INDEX, PIP_FIND_LINKS),
and the installed package is imported by code in the real sandbox.
"""
import os
import socket
import subprocess
import sys
import tempfile
import time

import pytest

from tests.local_packages import DEMO
from tests.processes import processes_mentioning
from utils import packages
from utils.packages import PackageCacheError, distribution_for, install, safe_cache_root, third_party_imports
from utils.sandbox import ISOLATION_LEVELS, Limits, isolation_works, run_batch

AVAILABLE = [level for level in ISOLATION_LEVELS if isolation_works(level)]
FAST = Limits(test_timeout=2, batch_timeout=10)
USES_DEMO = f"import {DEMO}\ndef run_code(x):\n    return {DEMO}.double(x)\n"


@pytest.fixture(autouse=True)
def forget_failures(monkeypatch):
    monkeypatch.setattr(packages, "_no_wheel_before", set())


def entries(cache_root):
    return sorted(os.listdir(os.path.join(cache_root, "envs")))


# detection

def test_a_third_party_import_is_detected():
    assert third_party_imports("import numpy as np\nfrom pandas.api import types\n") == ["numpy", "pandas"]


def test_standard_library_imports_are_not():
    assert third_party_imports("import os, json\nfrom collections import deque\nimport os.path\n") == []


def test_names_are_top_level_sorted_and_unique():
    assert third_party_imports("import scipy.sparse\nimport numpy\nfrom scipy import stats\n") == ["numpy", "scipy"]


def test_an_import_with_an_import_error_fallback_is_not_detected():
    assert third_party_imports("try:\n    import numpy\nexcept ImportError:\n    numpy = None\n") == []


def test_a_relative_import_is_not_detected():
    assert third_party_imports("from . import helpers\nfrom .models import Thing\n") == []


def test_an_import_inside_a_function_is_detected():
    assert third_party_imports("def run_code():\n    import numpy\n    return 1\n") == ["numpy"]


def test_code_that_does_not_parse_has_no_imports():
    assert third_party_imports("import numpy\ndef run_code(:\n") == []


# distributions

@pytest.mark.parametrize("module, distribution", [
    ("sklearn", "scikit-learn"), ("cv2", "opencv-python-headless"), ("PIL", "pillow"), ("yaml", "pyyaml"),
    ("bs4", "beautifulsoup4"), ("dateutil", "python-dateutil"), ("numpy", "numpy"), (DEMO, DEMO)])
def test_the_distribution_for_an_import_name(module, distribution):
    assert distribution_for(module) == distribution


# installing

def test_an_installed_package_is_importable_in_the_sandbox_and_nowhere_else(local_wheels, cache):
    result = install([DEMO], cache_root=cache)
    assert result.installed == [DEMO] and result.failed == {} and not result.cached
    assert os.path.dirname(result.path) == os.path.join(cache, "envs")
    assert result.report().startswith(f"installed {DEMO} 1.0 into {result.path} (")
    for isolation in AVAILABLE:
        outcome = run_batch(USES_DEMO, [{"x": 21}], FAST, isolation, packages=result.path)[0]
        assert outcome["ok"] and outcome["value"] == 42, (isolation, outcome)
    # not in this interpreter's environment, nor in the sandbox interpreter's
    assert subprocess.run([sys.executable, "-c", f"import {DEMO}"], capture_output=True).returncode != 0
    assert subprocess.run(["/usr/bin/python3", "-c", f"import {DEMO}"], capture_output=True).returncode != 0


def test_a_second_install_of_the_same_set_is_cached_without_running_pip(local_wheels, cache, monkeypatch):
    first = install([DEMO], cache_root=cache)
    monkeypatch.setattr(packages, "_run_pip", lambda *args: pytest.fail("pip ran for a cached set"))
    started = time.monotonic()
    second = install([DEMO], cache_root=cache)
    assert second.cached and second.path == first.path and second.installed == [DEMO]
    assert time.monotonic() - started < 0.5
    assert second.report() == f"using cached {DEMO} 1.0 from {first.path}"


def test_a_missing_package_fails_with_a_one_line_reason_and_leaves_no_folder(local_wheels, cache):
    result = install(["codeloop_no_such_pkg"], cache_root=cache)
    assert result.path is None and result.installed == []
    assert result.failed == {"codeloop_no_such_pkg": "no wheel found"}
    assert result.report() == "codeloop_no_such_pkg: no wheel found (not installed)"
    assert entries(cache) == []


def test_one_bad_name_does_not_block_the_others(local_wheels, cache):
    result = install([DEMO, "codeloop_no_such_pkg"], cache_root=cache)
    assert result.installed == [DEMO] and list(result.failed) == ["codeloop_no_such_pkg"]
    assert entries(cache) == [os.path.basename(result.path)]
    assert run_batch(USES_DEMO, [{"x": 1}], FAST, packages=result.path)[0]["value"] == 2


def test_a_set_with_a_name_that_has_no_wheel_is_cached_too(local_wheels, cache, monkeypatch):
    first = install([DEMO, "codeloop_no_such_pkg"], cache_root=cache)
    monkeypatch.setattr(packages, "_run_pip", lambda *args: pytest.fail("pip ran again"))
    second = install([DEMO, "codeloop_no_such_pkg"], cache_root=cache)
    assert second.cached and second.path == first.path and second.failed == first.failed


def test_a_name_that_looks_like_an_option_is_never_passed_to_pip(cache, monkeypatch):
    monkeypatch.setattr(packages, "_run_pip", lambda *args: pytest.fail("pip ran"))
    result = install(["--index-url=http://evil"], cache_root=cache)
    assert result.path is None and result.failed == {"--index-url=http://evil": "not a valid distribution name"}


def test_an_install_that_runs_out_of_time_is_killed(cache, monkeypatch):
    silent = socket.socket()  # accepts connections (the kernel does) and never answers
    silent.bind(("127.0.0.1", 0))
    silent.listen()
    monkeypatch.setenv("PIP_CONFIG_FILE", os.devnull)
    monkeypatch.setenv("PIP_INDEX_URL", f"http://127.0.0.1:{silent.getsockname()[1]}/simple")
    monkeypatch.setenv("PIP_RETRIES", "0")
    started = time.monotonic()
    try:
        result = install([DEMO, "codeloop_other_pkg"], cache_root=cache, timeout=2)
    finally:
        silent.close()
    assert time.monotonic() - started < 8
    assert result.failed == {DEMO: "timed out after 2 s", "codeloop_other_pkg": "timed out after 2 s"}
    assert result.path is None and entries(cache) == []
    assert processes_mentioning(cache) == []  # both pips (ours and the one --python starts) are gone


def test_sandboxed_code_cannot_write_into_the_packages_folder(local_wheels, cache):
    path = install([DEMO], cache_root=cache).path
    planted = os.path.join(path, "planted.py")
    for isolation in AVAILABLE:
        if os.geteuid() != 0 and isolation != "bwrap":
            continue  # without root the code runs as our own uid; only bwrap's read-only bind protects
        outcome = run_batch(f"def run_code():\n    open({planted!r}, 'w').write('x = 1')\n    return 'written'\n",
                            [{}], FAST, isolation, packages=path)[0]
        assert not outcome["ok"] and outcome["error_type"] in ("PermissionError", "OSError"), (isolation, outcome)
        assert not os.path.exists(planted)


def test_installed_files_are_not_writable_by_others(local_wheels, cache):
    path = install([DEMO], cache_root=cache).path
    for parent, dirs, files in os.walk(path):
        for name in [parent] + [os.path.join(parent, f) for f in files]:
            assert os.stat(name).st_mode & 0o022 == 0, name


# the cache root

def test_the_default_cache_root_is_a_private_folder_in_the_temp_dir(monkeypatch, tmp_path):
    monkeypatch.delenv("CODELOOP_PACKAGES", raising=False)
    monkeypatch.setattr(tempfile, "tempdir", None)
    monkeypatch.setenv("TMPDIR", "/tmp")
    root = safe_cache_root()
    assert str(root) == f"/tmp/codeloop-packages-{os.geteuid()}"
    assert root.stat().st_mode & 0o777 == 0o755


def test_codeloop_packages_sets_the_cache_root(monkeypatch, cache):
    monkeypatch.setenv("CODELOOP_PACKAGES", os.path.join(cache, "mine"))
    assert str(safe_cache_root()) == os.path.join(cache, "mine")
    assert os.stat(os.path.join(cache, "mine")).st_mode & 0o777 == 0o755


def test_a_world_writable_cache_root_is_refused(cache):
    os.chmod(cache, 0o777)
    with pytest.raises(PackageCacheError, match="world-writable"):
        install([DEMO], cache_root=cache)


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can give a folder to another uid")
def test_a_cache_root_owned_by_someone_else_is_refused(cache):
    os.chown(cache, 65534, 65534)
    with pytest.raises(PackageCacheError, match="belongs to uid 65534"):
        safe_cache_root(cache)


def test_a_symlinked_cache_root_is_refused(cache):
    link = cache + "-link"
    os.symlink(cache, link)
    try:
        with pytest.raises(PackageCacheError, match="not a directory"):
            safe_cache_root(link)
    finally:
        os.unlink(link)


@pytest.mark.skipif(os.geteuid() != 0, reason="the sandbox drops to nobody only when we are root")
def test_a_cache_root_the_sandbox_user_cannot_reach_is_refused(tmp_path):
    os.chmod(tmp_path, 0o700)
    with pytest.raises(PackageCacheError, match="cannot reach"):
        safe_cache_root(tmp_path / "packages")
