"""The samples of a contest statement (a stdio problem, core/problem_kind.py), read as trusted test cases.

A test of a whole program is a pair of texts: {"stdin": what it reads} and what it must print. The layouts
read, each sample's heading on a line of its own (Markdown's # or ** around it, a colon after it, allowed):

  Sample Input 1      then its text: a fenced block (```), else the lines up to the next heading
  Sample Output 1     (also "Example Input", "Sample 1 Input", and Codeforces' bare `input` / `output` lines)

Inputs and outputs pair by their number, else in order. A sample whose text is empty, or an input without its
output, is left out rather than guessed (a wrong trusted test could never be corrected). Texts keep their
lines as written (trailing spaces dropped) and end with one newline; an unfenced sample ends at a blank line.

Run alone:  python -m core.contest_samples STATEMENT_FILE
"""
import re
import sys
import textwrap

from core.cases import TestCase
from core.vocabulary import Origin

HEADING = re.compile(r"^[ \t]*(?:#{1,6}[ \t]*)?(?:\*\*)?[ \t]*"
                     r"(?:(?:Sample|Example)[ \t]*(?P<n1>\d*)[ \t]*(?P<what1>Input|Output)[ \t]*(?P<n2>\d*)"
                     r"|(?P<what2>input|output))"
                     r"[ \t]*:?[ \t]*(?:\*\*)?[ \t]*:?[ \t]*$", re.IGNORECASE | re.MULTILINE)
BARE = re.compile(r"^(?:input|output)$")  # Codeforces' lower-case lines; "Input" alone is the statement's section
FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})[^\n]*\n(?P<body>.*?)^[ \t]*\1[ \t]*$", re.DOTALL | re.MULTILINE)
NEXT_SECTION = re.compile(r"^[ \t]*(?:#{1,6}[ \t]|\\(?:sub)*section)", re.MULTILINE)


def contest_samples(statement):
    """TestCases (origin statement) of the statement's samples: input {"stdin": text}, expected the text."""
    headings = [match for match in HEADING.finditer(statement or "")
                if match.group("what1") or BARE.match(match.group("what2") or "")]
    inputs, outputs = [], []
    for k, heading in enumerate(headings):
        end = headings[k + 1].start() if k + 1 < len(headings) else len(statement)
        text = _sample_text(statement[heading.end():end])
        what = (heading.group("what1") or heading.group("what2")).lower()
        number = heading.group("n1") or heading.group("n2") or ""
        (inputs if what == "input" else outputs).append((number, text))
    numbered = all(number for number, _ in inputs + outputs)
    by_number = dict(outputs) if numbered else {}
    cases = []
    for k, (number, given) in enumerate(inputs):
        expected = by_number.get(number) if numbered else (outputs[k][1] if k < len(outputs) else None)
        if given is not None and expected is not None:
            cases.append(TestCase(f"sample_{len(cases) + 1}", {"stdin": given}, expected, Origin.STATEMENT))
    return cases


def _sample_text(after):
    """The text under a sample's heading: its first fenced block, else its lines up to the next section."""
    fenced = FENCE.search(after)
    if fenced and not after[:fenced.start()].strip():
        body = fenced.group("body")
    else:
        following = NEXT_SECTION.search(after)
        body = after[:following.start()] if following else after
        body = re.split(r"\n[ \t]*\n", body.strip("\n"), maxsplit=1)[0]  # unfenced, a blank line ends it (a note follows)
    lines = textwrap.dedent(body.strip("\n")).split("\n")  # Markdown's indented code block
    text = "\n".join(line.rstrip() for line in lines).strip("\n")
    return text + "\n" if text.strip() else None


if __name__ == "__main__":
    for case in contest_samples(open(sys.argv[1], encoding="utf-8").read()):
        print(f"--- {case.name} input\n{case.input['stdin']}--- expected\n{case.expected}")
