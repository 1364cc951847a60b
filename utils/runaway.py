"""Stop a model's answer that has run away, while it streams, instead of paying for it up to the token cap.

On the embedded model many test-writing answers ran to the token cap, minutes each on 2 cores
(docs/journal/2026-11.md), in two ways:
  a list that goes on   "Edge case 25: k is equal to 21", "Edge case 26: ..." long past the tests asked
  a loop                "1, 1, 1, 1, ..." or one line again and again
A list is cut after the last test that was asked for, and what came before is a complete answer. A
loop is cut as soon as it shows (the end of the text repeats a short unit for 200 characters); the
answer is then unusable, unless it is a list of tests with complete items before the loop, which are kept.

A code answer can also run away without repeating itself to the letter: one branch written out for every
case (an `elif` per pair of letters), each with other literals, or its reasoning going round with another
number each time; watch_code() sees that shape repeat, or the text compress like a loop does.

watch_tests(max_tests), watch_loops() and watch_code() give call_llm's `watch(text)`: None while the answer is fine,
else (text to keep, finish reason): "stop" when the kept text is a complete answer, "repetition" when
it is not. complete_tests(text) salvages a list of tests cut off anyway (at the token cap): the items
before the last one, which was cut.

Run alone:  python -m utils.runaway FILE   (says whether, and where, the text would have been cut)
"""
import re
import sys
import zlib

LOOP_CHARS = 200   # how much of the end must repeat one unit before it counts as a loop
MAX_UNIT = 100     # the longest unit (a line, a list item) a loop is looked for with
ITEM = re.compile(r"^[ \t]*-[ \t]+[A-Za-z_]\w*[ \t]*:", re.MULTILINE)  # "- name:": a test's first key


def looping(text):
    """True when the text ends in one unit (1 to MAX_UNIT characters) repeated over LOOP_CHARS characters."""
    tail = text[-(LOOP_CHARS + MAX_UNIT):]
    if len(tail) < LOOP_CHARS:
        return False
    for unit in range(1, MAX_UNIT + 1):
        span = max(LOOP_CHARS, 4 * unit)
        if span > len(tail):
            break
        end = tail[-span:]
        if end == (end[-unit:] * (span // unit + 1))[-span:]:
            return True
    return False


def watch_loops():
    def watch(text):
        return (text, "repetition") if looping(text) else None
    return watch


LITERAL = re.compile(r"'(?:[^'\\\n]|\\.)*'|\"(?:[^\"\\\n]|\\.)*\"|\b\d+(?:\.\d+)?\b")
SHAPE_REPEATS = 12  # a branch written out this many times over is a runaway, not a solution's case analysis


def looping_code(text):
    """True when the code's last lines repeat one shape (one to four lines, their literals aside) at least
    SHAPE_REPEATS times: `elif s[i] == 'a' and s[j] == 'e': ...` for every pair of letters, an answer that
    ran to its token cap three times running in one benchmark (docs/journal/2026-11.md) and that the exact
    repetition `looping` looks for does not see."""
    lines = [LITERAL.sub("_", line).strip() for line in text.splitlines()[:-1] if line.strip()]  # the last may be cut
    for unit in range(1, 5):
        tail = lines[-unit * SHAPE_REPEATS:]
        if len(tail) == unit * SHAPE_REPEATS and all(tail[i] == tail[i % unit] for i in range(len(tail))):
            return True
    return False


SQUEEZE_WINDOW = 800   # characters at the end of an answer that compress like a loop...
SQUEEZE_RATIO = 0.2    # ...when zlib makes them smaller than this fraction of their size


def squeezes_like_a_loop(text):
    """True when the answer's last SQUEEZE_WINDOW characters compress below SQUEEZE_RATIO: a loop that
    changes a word or a number each time round ("the first element is 1 and the ninth element is 0, ...
    the tenth ..."), which neither `looping` nor `looping_code` sees. Measured on the records of two
    benchmark runs (HumanEval and LeetCode seed 1, 44f4b8d; docs/journal/2026-11.md): the 106 answers of 800
    characters or more that ended on their own compressed to 0.25 at the least over any 800 characters,
    the 9 code answers that ran to their cap to 0.13-0.17."""
    if len(text) < SQUEEZE_WINDOW:
        return False
    tail = text[-SQUEEZE_WINDOW:].encode()
    return len(zlib.compress(tail, 9)) < SQUEEZE_RATIO * len(tail)


FENCED = re.compile(r"```[^\n]*\n.*?\n[ \t]*```[ \t]*(?:\n|$)", re.DOTALL)


def watch_code():
    """For an answer holding code: complete once its fenced block closes (what follows would be prose the
    parser drops), a runaway at a loop of text or at one shape of code written out again and again."""
    def watch(text):
        closed = FENCED.search(text)
        if closed:
            return text[:closed.end()], "stop"
        return (text, "repetition") if looping(text) or looping_code(text) or squeezes_like_a_loop(text) else None
    return watch


REASONING_CHARS = 1000  # a test list's reasoning (one or two sentences asked) this long, before any test, runs away
TESTS_KEY = re.compile(r"^[ \t]*test_cases[ \t]*:", re.MULTILINE)


def watch_tests(max_tests):
    """For a list of tests: stop after `max_tests` complete items, or at a loop, keeping complete items.

    Also stopped: reasoning that goes on for REASONING_CHARS before the test_cases key. The embedded model
    enumerated "edge cases" in it ("n=1, k=2, target=2, n=2, k=3, ...", "k == n + 1, k == n + 2, ...")
    until the token cap: a unit that changes each time round, which `looping` does not see and which
    compresses no better than a real list of tests. In the records of seven LeetCode benchmark folders
    (docs/journal/2026-11.md) all 4 such test answers ran past 1,100 characters of reasoning, and the 40 that
    ended on their own stayed under 760."""
    def watch(text):
        starts = [match.start() for match in ITEM.finditer(text)]
        if len(starts) > max_tests:
            return text[:starts[max_tests]].rstrip() + "\n", "stop"
        if len(text) > REASONING_CHARS and not TESTS_KEY.search(text):  # items may be flow style: ask for the key
            return text, "repetition"
        if looping(text):
            if len(starts) >= 2:  # the items before the one that loops are whole
                return text[:starts[-1]].rstrip() + "\n", "stop"
            return text, "repetition"
        return None
    return watch


def complete_tests(text):
    """The text up to the last item of a test list, which was cut off; None if no item is whole."""
    starts = [match.start() for match in ITEM.finditer(text)]
    return text[:starts[-1]].rstrip() + "\n" if len(starts) >= 2 else None


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as f:
        answer = f.read()
    for end in range(200, len(answer) + 1, 50):
        cut = watch_tests(8)(answer[:end])
        if cut:
            print(f"cut at character {end} of {len(answer)} ({cut[1]}); kept {len(cut[0])} characters")
            break
    else:
        print("never cut")
