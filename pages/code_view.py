"""Code as a page shows it: highlighted by Pygments, and a version's diff from its parent by difflib.

Pygments escapes the code it highlights, so its HTML is the one piece of markup a template takes as safe;
a diff is a list of (kind, line) pairs the template escapes like any other text.
"""
import difflib

from markupsafe import Markup
from pygments import highlight as pygments_highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import PythonLexer

LEXER = PythonLexer()
FORMATTER = HtmlFormatter(nowrap=True)  # the template gives the <pre>
STYLE = Markup(HtmlFormatter(style="default").get_style_defs(".code"))  # our own CSS, inlined into the <style>


def highlight(code):
    """The code as highlighted HTML (Pygments escapes every character of it)."""
    return Markup(pygments_highlight(code or "", LEXER, FORMATTER))


def diff_lines(old, new):
    """The unified diff from `old` to `new` as (kind, text) pairs, kind one of hunk, add, del, same; [] when equal."""
    lines = difflib.unified_diff((old or "").splitlines(), (new or "").splitlines(), lineterm="", n=2)
    kinds = {"@": "hunk", "+": "add", "-": "del"}
    return [(kinds.get(line[:1], "same"), line) for line in lines if not line.startswith(("---", "+++"))]
