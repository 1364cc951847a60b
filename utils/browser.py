"""Browsers: a person's, to open a run's page; headless Chromium, to check a page as a browser builds it.

`can_open` decides whether `codeloop show` opens the page: only for a person at a terminal (stdout is one),
outside CI, and on Linux only with a display (DISPLAY or WAYLAND_DISPLAY): with no display Python's
webbrowser falls back to a text browser that would take over the terminal. Elsewhere the path is printed.

`dump_dom` and `screenshot` run Debian's `chromium` (or `chromium-browser`, `google-chrome`) headless, in a
process group of its own with a fresh profile folder, killed whole if it outlives its time: what the tests
read (the DOM the browser built, scripts run) and what the README's picture is taken with. As root, Chromium
refuses to start without --no-sandbox; the page is our own file, opened with no network.

Run alone:  python utils/browser.py PAGE.html            # the DOM Chromium builds from it
            python utils/browser.py PAGE.html OUT.png    # a screenshot
"""
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import webbrowser
from pathlib import Path

CHROMIUMS = ("chromium", "chromium-browser", "google-chrome")


class BrowserError(Exception):
    """Headless Chromium is missing, failed or took too long; the message is one line."""


def can_open(environ=None, platform=None, at_terminal=None):
    """Whether a person's browser can open a page here (see the module's docstring)."""
    environ = os.environ if environ is None else environ
    platform = sys.platform if platform is None else platform
    at_terminal = sys.stdout.isatty() if at_terminal is None else at_terminal
    if not at_terminal or environ.get("CI"):
        return False
    return platform in ("darwin", "win32") or bool(environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY"))


def open_page(path):
    """Open the page in the person's browser; False when none would take it."""
    try:
        return webbrowser.open(Path(path).resolve().as_uri())
    except webbrowser.Error:
        return False


def find_chromium():
    """The headless browser's path, or None."""
    return next((found for name in CHROMIUMS if (found := shutil.which(name))), None)


def headless(arguments, timeout=60):
    """Run headless Chromium with these arguments; its stdout. BrowserError when it is missing or fails."""
    binary = find_chromium()
    if binary is None:
        raise BrowserError("headless Chromium is not installed: apt-get install chromium (make test does, as root)")
    with tempfile.TemporaryDirectory(prefix="codeloop-chromium-") as profile:
        command = [binary, "--headless", "--disable-gpu", "--no-first-run", "--disable-extensions",
                   "--disable-background-networking", "--hide-scrollbars", f"--user-data-dir={profile}",
                   *(["--no-sandbox"] if getattr(os, "geteuid", lambda: -1)() == 0 else []), *arguments]
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                   start_new_session=True)  # its renderer and GPU processes die with it
        try:
            out, err = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            raise BrowserError(f"headless Chromium took more than {timeout} s") from None
        finally:
            try:
                os.killpg(process.pid, signal.SIGKILL)  # helpers it left behind
            except ProcessLookupError:
                pass
    if process.returncode != 0:
        last = (err.strip().splitlines() or ["no message"])[-1]
        raise BrowserError(f"headless Chromium failed (exit {process.returncode}): {last}")
    return out


def dump_dom(page, timeout=60):
    """The DOM Chromium builds from the page (a file), its scripts run, serialised as HTML."""
    return headless(["--dump-dom", Path(page).resolve().as_uri()], timeout)


def screenshot(page, png, width=1100, height=1500, timeout=60):
    """A PNG of the page's top `height` pixels at `width`, as a browser window shows it."""
    headless([f"--screenshot={Path(png).resolve()}", f"--window-size={width},{height}",
              "--force-device-scale-factor=1", Path(page).resolve().as_uri()], timeout)
    if not Path(png).exists():
        raise BrowserError(f"headless Chromium wrote no screenshot to {png}")
    return str(png)


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: python utils/browser.py PAGE.html [OUT.png]")
    try:
        print(screenshot(*sys.argv[1:]) if len(sys.argv) == 3 else dump_dom(sys.argv[1]))
    except BrowserError as exc:
        sys.exit(f"browser: {exc}")
