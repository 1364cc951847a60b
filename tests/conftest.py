import os
import shutil
import sys
import tempfile

import pytest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from app import new_store  # noqa: E402
from settings import Settings  # noqa: E402
from tests.local_packages import build_wheel  # noqa: E402
from tests.page_dom import parse  # noqa: E402
from tests.stub_openai_server import StubOpenAIServer  # noqa: E402
from utils.browser import dump_dom, find_chromium  # noqa: E402
from utils.call_llm import ModelConfig  # noqa: E402
from utils.local_model import is_set_up  # noqa: E402
from utils.run_record import RunRecord  # noqa: E402
from utils.sandbox import Limits, best_isolation  # noqa: E402


@pytest.fixture
def stub():
    with StubOpenAIServer() as server:
        yield server
    # a test that routes answers by kind, and a request of no known kind: a new step whose request needs a phrase in
    # tests/stub_openai_server.py's KINDS (it would be answered from the unrouted script, or not at all)
    assert not server.unknown, f"requests of no kind in KINDS (add a phrase there): {server.unknown}"


# A calibration that takes the verdict's word. Scripted scenarios test the loop's rules (which tests count, which
# version is handed over); the shipped calibration is fitted on the embedded model's runs and would weigh a
# scripted run's evidence as it weighs a real one's, so it is tested where it is the subject (test_confidence.py,
# test_read_again.py, the CLI's own tests) and compared across commits by `python -m bench.behaviour_diff`.
VERDICT_CALIBRATION = os.path.join(os.path.dirname(os.path.abspath(__file__)), "verdict_calibration.json")


@pytest.fixture
def make_shared(stub, tmp_path):
    """A fresh shared store talking to the stub server, as app.py builds it, with the shipped defaults but the
    calibration (VERDICT_CALIBRATION unless given); a test that needs another configuration passes it (samples=1
    where its script has one answer a step)."""
    def make(problem="Return the indices of two numbers in nums that add up to target.", **overrides):
        overrides.setdefault("calibration", VERDICT_CALIBRATION)
        model = ModelConfig(model="stub-model", base_url=stub.base_url, max_retries=2, timeout_s=5)
        settings = Settings(model=model, limits=Limits(test_timeout=1, batch_timeout=10),
                            isolation=best_isolation(), **overrides)
        record = RunRecord(str(tmp_path / "run.json"), problem, settings.describe())
        return new_store(problem, settings, record)
    return make


@pytest.fixture
def local_wheels(tmp_path, monkeypatch):
    """pip sees only a folder with the demo wheel: no index, no configuration files."""
    build_wheel(str(tmp_path))
    monkeypatch.setenv("PIP_CONFIG_FILE", os.devnull)
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_FIND_LINKS", str(tmp_path))
    return tmp_path


@pytest.fixture
def cache():
    """A package cache root the sandbox user can reach (pytest's tmp_path is mode 700)."""
    root = tempfile.mkdtemp(prefix="codeloop-test-packages-")
    os.chmod(root, 0o755)
    yield root
    shutil.rmtree(root, ignore_errors=True)


EXAMPLES = 40  # examples per property in the suite (tests/test_properties.py); `--examples 1000` asks for more


def pytest_addoption(parser):
    parser.addoption("--examples", type=int, metavar="N", default=int(os.environ.get("CODELOOP_EXAMPLES") or EXAMPLES),
                     help=f"examples hypothesis tries per property (default $CODELOOP_EXAMPLES, else {EXAMPLES})")


def pytest_configure(config):
    """hypothesis with the examples asked for; no deadline (2 shared cores make timings noise) and no example
    database (nothing written into the clone: a failure prints the example to reproduce it)."""
    try:
        from hypothesis import settings
    except ImportError:  # a test dependency (requirements.txt): test_properties.py says so when it is missing
        return
    settings.register_profile("codeloop", max_examples=config.getoption("examples"), deadline=None, database=None)
    settings.load_profile("codeloop")


@pytest.fixture(scope="session")
def browser():
    """The DOM of a page as headless Chromium built it. Without Chromium the page tests skip, except in CI,
    where `make test` has installed it: there they fail."""
    if find_chromium() is None:
        if os.environ.get("CI"):
            pytest.fail("headless Chromium is missing: make test installs it (apt-get install chromium)")
        pytest.skip("headless Chromium is not installed: make test installs it (apt-get install chromium)")
    return lambda page: parse(dump_dom(page))


def pytest_collection_modifyitems(config, items):
    """real_model tests skip where the embedded model is not set up, except in CI, which sets it up."""
    if is_set_up() or os.environ.get("CI"):
        return
    skip = pytest.mark.skip(reason="the embedded model is not set up: python main.py --setup-local")
    for item in items:
        if "real_model" in item.keywords:
            item.add_marker(skip)
