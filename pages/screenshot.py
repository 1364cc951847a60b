"""python -m pages.screenshot RUN PNG: a picture of a run's page, as the README shows one, by headless Chromium.

The page is written from RUN (a run's folder or its run.json) into a temporary folder, so the run's own folder
is left as it was, and Chromium draws the top of it in a window of --width x --height pixels (utils/browser.py).

    tar -xzf docs/records/r79-tree-words.tar.gz -C /tmp
    python -m pages.screenshot /tmp/bench-results/r79-tree-words/runs/leetcode/full/987-vertical_order_traversal_of_a_binary_tree docs/run-page.png
"""
import argparse
import os
import sys
import tempfile

from pages.run_page import write_run_page
from utils.browser import BrowserError, screenshot
from utils.text_files import InputError, WriteError


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m pages.screenshot", description=__doc__.splitlines()[0])
    parser.add_argument("run", metavar="RUN", help="a run's folder or its run.json")
    parser.add_argument("png", metavar="PNG", help="where the picture goes")
    parser.add_argument("--width", type=int, default=1100)
    parser.add_argument("--height", type=int, default=1300)
    args = parser.parse_args(argv)
    try:
        with tempfile.TemporaryDirectory() as folder:
            page = write_run_page(args.run, os.path.join(folder, "run.html"))
            print(screenshot(page, args.png, args.width, args.height))
    except (InputError, WriteError, BrowserError) as exc:
        print(f"python -m pages.screenshot: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
