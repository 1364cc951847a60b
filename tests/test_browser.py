"""utils/browser.py: when `codeloop show` opens a person's browser (never in a script, a test, CI or a machine
without a display), and headless Chromium as the page tests use it, its processes gone when it is done."""
import pytest

from tests.processes import processes_mentioning
from utils.browser import BrowserError, can_open, headless

AT_A_DESK = {"DISPLAY": ":0"}


@pytest.mark.parametrize("environ, platform, at_terminal, opens", [
    (AT_A_DESK, "linux", True, True),
    ({"WAYLAND_DISPLAY": "wayland-0"}, "linux", True, True),
    ({}, "linux", True, False),                        # no display: a text browser would take the terminal
    (AT_A_DESK, "linux", False, False),                # output piped or captured: a script, a test
    ({**AT_A_DESK, "CI": "true"}, "linux", True, False),
    ({}, "darwin", True, True),
    ({"CI": "1"}, "darwin", True, False),
], ids=["x11", "wayland", "no-display", "not-a-terminal", "ci", "macos", "macos-ci"])
def test_a_browser_is_opened_only_for_a_person_at_a_terminal_with_a_display_outside_ci(environ, platform, at_terminal,
                                                                                       opens):
    assert can_open(environ, platform, at_terminal) is opens


def test_headless_chromium_builds_the_dom_and_leaves_no_process_behind(tmp_path, browser):
    page = tmp_path / "page.html"
    page.write_text("<!DOCTYPE html><p id=said>1 &lt; 2</p><script>document.body.dataset.ran = 'yes'</script>")
    dom = browser(page)
    assert dom.find("p", id="said").text() == "1 < 2" and dom.find("body").attrs["data-ran"] == "yes"
    assert processes_mentioning(str(page)) == []


def test_a_headless_chromium_that_outlives_its_time_is_killed_whole_with_one_line(browser):
    with pytest.raises(BrowserError, match="^headless Chromium took more than 0.01 s$"):
        headless(["--dump-dom", "about:blank"], timeout=0.01)
    assert processes_mentioning("codeloop-chromium-") == [], "its renderer and helpers went with it"
