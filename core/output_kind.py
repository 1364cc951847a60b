"""What kind of answer a problem has, which decides how an output is compared with a test's.

  exact      one right answer, equal as plain data (floats within a tolerance, as always)
  unordered  one right list whose order does not matter ("return the answer in any order", said of what
             is returned, not of an action such as "rearrange the columns in any order"): a multiset
  float      one right number, close enough ("answers within 10^-5 of the actual answer are accepted"):
             floats that close, absolutely or relatively, are one answer (10^-5 when the person says float
             and the statement names no tolerance)
  text       what a whole program prints (a stdio problem, core/problem_kind.py): token by token, letters in
             either case, numbers within the tolerance the statement states ("an absolute or relative error
             of at most 10^{-6}"), as a contest's default judge
  any_valid  several right answers ("return any of them", "your function can return either index 1 or
             5"): an output is judged by a checker, is_valid(<the inputs>, output), not by equality

Read from the statement's words (its markdown marks removed): a stated tolerance first, then several
answers, then any order; the person can
say it instead (--output-kind, or `output_kind:` in a --tests file). "If there are multiple answers,
return the lexicographically smallest" names one answer: exact. The reason is kept for run.json.

Run alone:  python -m core.output_kind STATEMENT_FILE
"""
import re
import sys
from dataclasses import dataclass

from core.compare import Comparison
from core.vocabulary import Word


class OutputKind(Word):
    EXACT = "exact"
    UNORDERED = "unordered"
    FLOAT = "float"
    ANY_VALID = "any_valid"
    TEXT = "text"


@dataclass(frozen=True)
class Kind:
    kind: OutputKind
    reason: str          # the statement's words that decided it, or who set it
    by: str = "statement"  # statement, or user (--output-kind, a --tests file)
    tolerance: float = 0.0  # float: how close two numbers must be to be one answer

    @property
    def comparison(self):
        return comparison(self.kind, self.tolerance)

    def record(self):
        return {"kind": self.kind, "reason": self.reason, "by": self.by,
                **({"tolerance": self.tolerance} if self.kind in (OutputKind.FLOAT, OutputKind.TEXT) else {})}


ANY_VALID = re.compile(
    r"\breturn (?:either|any)\b(?! order)|\breturn\b[^.]{0,60}\bany (?:one )?of (?:them|these|those|the \w+)\b|"
    r"\bany (?:valid|such|possible) (?:answer|solution)s?\b|\bis also (?:a )?(?:valid|accepted|correct) answer\b|"
    r"\bis also accepted\b|\bare (?:all |both )?(?:valid|correct|accepted) answers\b|"
    r"\bany (?:valid )?answer\b[^.]*\b(?:will be|is) (?:judged as )?(?:correct|accepted)\b", re.IGNORECASE)
TOLERANCE = re.compile(r"10\s*\^?\s*-\s*\d+[^.]*\b(?:accepted|correct)\b|\b(?:accepted|correct)\b[^.]*10\s*\^?\s*-\s*\d+",
                       re.IGNORECASE)
EXPONENT = re.compile(r"10\s*\^?\s*-\s*(\d+)")  # 10^-5, and 10-5 as text pasted from the web page reads
USUAL_TOLERANCE = 1e-5  # LeetCode's, for a person's "float" where the statement names none
# The answer's order, said of what is returned: "You may return the answer in any order". Not "the input is not
# given in any order", nor an action's ("you can order the deck in any order you want", LeetCode 950, whose
# answer is one order of the deck: read as a multiset, every order of it would pass). LeetCode 15 (3Sum)
# says it otherwise: "the order of the output and the order of the triplets does not matter"
ANY_ORDER = re.compile(r"\b(?:return(?:s|ed)?|answers?|outputs?|results?)\b[^.]{0,80}?(?<!\bnot )(?<!\bgiven )\bin any order\b|"
                       r"\bthe order of the (?:output|answer|result)\b[^.]{0,60}\b(?:does not|doesn't|do not) matter\b",
                       re.IGNORECASE)


def output_kind(statement):
    """The Kind the statement's words give its answers."""
    text = " ".join(re.sub(r"[*_`]|</?\w+>", "", statement or "").split())
    for kind, words in ((OutputKind.FLOAT, TOLERANCE), (OutputKind.ANY_VALID, ANY_VALID),
                        (OutputKind.UNORDERED, ANY_ORDER)):
        found = words.search(text)
        if found:
            return Kind(kind, f'the statement says "{_sentence_part(text, found)}"',
                        tolerance=_tolerance(found.group(0)) if kind == OutputKind.FLOAT else 0.0)
    return Kind(OutputKind.EXACT, "the statement names one answer for each input")


def comparison(kind, tolerance=0.0):
    """How outputs of this kind compare (core/compare.py)."""
    return Comparison(any_order=kind == OutputKind.UNORDERED, tolerance=tolerance, tokens=kind == OutputKind.TEXT)


# "Your answer should have an absolute or relative error of at most $10^{-6}$", "within 1e-6"
ERROR_BOUND = re.compile(r"\b(?:absolute|relative)\b[^.]{0,80}?\b(?:error|difference)\b[^.]{0,40}?"
                         r"(?:10\s*\^?\s*[{(]?\s*[-−]\s*(?P<exponent>\d+)|(?P<number>\d(?:\.\d+)?[eE]-?\d+))", re.IGNORECASE)


def text_kind(statement):
    """A stdio problem's Kind: printed texts, token by token, numbers within the statement's stated error."""
    found = ERROR_BOUND.search(" ".join((statement or "").split()))
    if not found:
        return Kind(OutputKind.TEXT, "a whole program's printed text, token by token")
    tolerance = 10.0 ** -int(found.group("exponent")) if found.group("exponent") else float(found.group("number"))
    return Kind(OutputKind.TEXT, f"printed tokens, numbers within {tolerance:g} (the statement's error bound)",
                tolerance=tolerance)


def _tolerance(words):
    return 10.0 ** -int(EXPONENT.search(words).group(1))


def chosen(kind, statement):
    """The person's kind (a name of OutputKind; "any" is any_valid) when given, else the statement's."""
    if not kind:
        return output_kind(statement)
    value = OutputKind.ANY_VALID if kind == "any" else OutputKind(kind)
    tolerance = 0.0
    if value == OutputKind.FLOAT:
        stated = output_kind(statement)
        tolerance = stated.tolerance if stated.kind == OutputKind.FLOAT else USUAL_TOLERANCE
    return Kind(value, "set by the user", by="user", tolerance=tolerance)


def _sentence_part(text, found):
    start = max(text.rfind(".", 0, found.start()) + 1, found.start() - 60)
    end = min([i for i in (text.find(".", found.end()), found.end() + 60) if i != -1])
    return text[start:end].strip()


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as f:
        print(output_kind(f.read()))
