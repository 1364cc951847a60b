"""Two programs that judge rather than answer: a checker for problems with several right answers, and an
input validator for statements that promise something about their inputs. Pure: this module decides
from what they returned; the sandbox ran them (nodes RunTests and RunChecker).

checker    is_valid(<the inputs>, output) -> bool, a special judge (testlib's checker, a contest's
           "special judge"): an any-valid problem's output is right when the checker accepts it. The
           model writes it, so it is used only when it accepts every trusted output (the statement's
           examples, the person's tests), rejects every output that is wrong by construction on them
           (None, another type, a list one item short or one too long, a string likewise, an index past
           the end or -1), and tells a given output from the outputs next to it (near_outputs): where
           one answer is promised it rejects them all, where several are right it rejects some, one that
           reorders the given output's items where there is one, and one that changes a number of it and
           keeps their order (renumbered) where there is one. The person's own checker (--checker, or the
           is_valid of a --tests file) is trusted like their tests.
validator  is_valid_input(<the inputs>) -> bool, for a statement that promises something in words
           ("exactly one solution", "it is guaranteed that ...", "valid choices are ..."): used when it
           accepts every trusted input; a generated input it rejects breaks a promise, so it is dropped,
           not disputed.

Both run as run_code in the sandbox: the shims below are appended to the model's code.
"""
import re
from dataclasses import dataclass
from itertools import pairwise

from core.cases import input_key
from core.compare import EXACT, Comparison, outputs_match
from core.constraints import constraint_lines, unread_lines
from core.output_kind import OutputKind
from core.vocabulary import Author

CHECKER_SHIM = "\n\n\ndef run_code(**arguments):  # codeloop: the checker, called as a program\n    return bool(is_valid(**arguments))\n"
# where one answer is promised the model lists every right answer (all_answers) and this is_valid looks the
# output up in that list, a tuple read as the list it would be once returned (core/prompts.answers_request).
# The checker is called once per output judged, several times an input, in one process: each input's list is
# made once (a brute force may take most of a test's time)
LISTED = """


def _codeloop_listed(value):
    return [_codeloop_listed(item) for item in value] if isinstance(value, (list, tuple)) else value


_codeloop_lists = {{}}


def is_valid(**arguments):  # codeloop: an output is right when all_answers lists it
    output = _codeloop_listed(arguments.pop({name!r}))
    key = repr(sorted(arguments.items()))
    if key not in _codeloop_lists:
        _codeloop_lists[key] = [_codeloop_listed(answer) for answer in all_answers(**arguments)]
    return output in _codeloop_lists[key]
"""
VALIDATOR_SHIM = ("\n\n\ndef run_code(**arguments):  # codeloop: the input validator, called as a program\n"
                  "    return bool(is_valid_input(**arguments))\n")


PROMISE = re.compile(r"[^.\n]*\b(?:exactly one (?:valid )?(?:solution|answer)|only one valid answer|"
                     r"(?:is|are|be) guaranteed|guaranteed that|you may assume|the answer is unique)\b[^.\n]*",
                     re.IGNORECASE)
# The values an input is limited to, said in a sentence ("Valid choices are 'zero', 'one', ...", "each string
# consists of only digits"): read only where no Constraints section says it line by line (a docstring).
# HumanEval/19's tests wrote digits where number words are promised, and left its right code unconfirmed
# in every recorded run (docs/journal/2026-11.md)
LIMITED = re.compile(r"[^.\n]*\b(?:valid (?:choices|values) (?:are|is)|(?:contains?|consists? of) only|"
                     r"only (?:contains?|consists? of))\b[^.\n]*", re.IGNORECASE)
ONE_ANSWER = re.compile(r"\bexactly one (?:valid )?(?:solution|answer)|\bonly one valid answer|\bthe answer is unique",
                        re.IGNORECASE)


def promises(statement):
    """What the statement promises about its inputs, in its own words: sentences ("each input has exactly one
    solution", and without a Constraints section "valid choices are ...") and the Constraints lines that are
    words rather than bounds ("nums[i] != nums[i + 1]")."""
    text = re.sub(r"[*_`]|\"\"\"|\'\'\'", "", statement or "")  # markdown marks, a docstring's quotes
    found = [*PROMISE.finditer(text), *([] if constraint_lines(statement) else LIMITED.finditer(text))]
    said = [re.sub(r"^[-*•]\s+", "", " ".join(match.group(0).split()))
            for match in sorted(found, key=lambda match: match.start())]
    return list(dict.fromkeys(said + unread_lines(statement)))


def promises_one_answer(statement):
    return bool(ONE_ANSWER.search(re.sub(r"[*_`]", "", statement or "")))


def wants_a_checker(kind, one_answer, agreement):
    """Several right answers (the checker judges outputs), or one promised while programs settle expected
    values (it finds the inputs that break the promise: two programs' different outputs it accepts)."""
    return kind == OutputKind.ANY_VALID or (one_answer and agreement)


def promised_only(kind, one_answer):
    """One answer promised and outputs compared by equality: the checker only finds inputs that break the
    promise, and any output but the given one on a trusted input is wrong."""
    return one_answer and kind != OutputKind.ANY_VALID


def input_promises(statement):
    """The promises an input validator checks: all but the promise of one answer, which takes solving the
    problem to check (none of the embedded model's 19 validators for Two Sum's "exactly one solution" dropped
    an input with two right pairs: docs/journal/2026-11.md); the checker checks that one (breaks_the_one_answer)."""
    return [promise for promise in promises(statement) if not ONE_ANSWER.search(promise)]


def breaks_the_one_answer(checker, case, outputs, comparison=EXACT):
    """The checker in use accepts two different outputs programs returned on this generated input, where the
    statement promises one answer: the input breaks the promise."""
    if checker is None or case.trusted:
        return False
    accepted = []
    for output in outputs:
        if checker.accepts(case.input, output) is True and not any(outputs_match(output, seen, comparison) for seen in accepted):
            accepted.append(output)
    return len(accepted) > 1


def checker_can_act(attempts, tests, comparison=EXACT):
    """Where one answer is promised, whether its checker could change the verdict now: it only drops a generated
    input on which programs returned two different outputs it accepts (breaks_the_one_answer), and a dropped
    input matters only to a claim. So it is asked once a candidate passes the trusted tests and two programs
    differ on a generated input, not before: on the README's Two Sum the first draw's checker was the third
    of three calls and dropped nothing in 20 runs of 20; HumanEval/129's four, asked while no candidate passed
    its examples, took 100 s of 467 (docs/journal/2026-11.md)."""
    trusted = [case for case in tests if case.trusted]
    if not trusted or not any(a.is_candidate and all(_returned(a, case, case.expected, comparison) for case in trusted)
                              for a in attempts):
        return False
    programs = answering(attempts)
    for case in tests:
        if case.trusted:
            continue
        outputs = returned_on(programs, case)
        if any(not outputs_match(output, outputs[0], comparison) for output in outputs[1:]):
            return True
    return False


def answering(attempts):
    """The programs whose outputs a promise of one answer is judged on: the candidates and the oracle."""
    return [a for a in attempts if a.is_candidate or a.source == Author.ORACLE]


def returned_on(programs, case):
    """What each of the programs returned on this test's input, where it returned."""
    return [a.outputs[case.key]["value"] for a in programs if a.outputs.get(case.key, {}).get("ok")]


def _returned(attempt, case, expected, comparison):
    result = attempt.outputs.get(case.key)
    return bool(result and result["ok"] and outputs_match(result["value"], expected, comparison))


def lister_shim(name):
    """What makes the model's all_answers a checker (is_valid) and the checker a program."""
    return LISTED.format(name=name) + CHECKER_SHIM


def checker_shim(function, name):
    """What makes the model's judge of outputs a program: its is_valid called, or its all_answers looked in."""
    return lister_shim(name) if function == "all_answers" else CHECKER_SHIM


def checker_source(code):
    """The checker as it was written: its attempt's code without the shim that makes it a program."""
    return code.removesuffix(CHECKER_SHIM)


def output_name(tests):
    """The checker's parameter for the output: `output`, unless an input already has that name."""
    names = {name for case in tests for name in case.input}
    return next(name for name in ("output", "returned", "answer_given") if name not in names)


def checked_input(case_input, output, name):
    """The arguments of one checker call: the test's inputs and the output to judge."""
    return {**case_input, name: output}


def wrong_outputs(expected, inputs):
    """Outputs that cannot be right where `expected` is (a trusted output): a checker must reject them all."""
    wrong = [] if expected is None else [None]
    if isinstance(expected, bool):
        return wrong + ["yes"]
    if isinstance(expected, (int, float)):
        ends = {len(value) for value in inputs.values() if isinstance(value, (list, str)) and value}
        return wrong + [str(expected)] + [n for n in sorted(ends | {-1}) if n != expected]
    if isinstance(expected, str):
        return wrong + [0] + ([expected[1:], expected + expected[0]] if expected else ["?"])
    if isinstance(expected, list):
        return wrong + ["?"] + ([expected[:-1], expected + expected[:1]] if expected else [])
    return wrong


def near_outputs(expected):
    """Outputs next to a trusted one, right or wrong as the problem has it: a number one more or one less, a
    list or string reversed or its first two items swapped, a list's first number one more, a truth value
    flipped. Where one answer is promised every one of them that differs from the given output is wrong;
    where several are right, a checker that accepts all of them cannot tell an answer from its neighbours.
    Measured on the model's checkers (bench.checker_quality at 97a7d49, docs/journal/2026-11.md): Find Peak's
    `0 <= output < len(nums)` accepted all four, and Two Sum's that checked only the sum accepted [1, 0]."""
    if isinstance(expected, bool):
        return [not expected]
    if isinstance(expected, int):
        return [expected + 1, expected - 1]
    if isinstance(expected, (str, list)) and len(expected) > 1:
        near = [expected[::-1], expected[1:2] + expected[:1] + expected[2:]]
        if isinstance(expected, list) and type(expected[0]) is int:
            near.append([expected[0] + 1] + expected[1:])
        return [output for k, output in enumerate(near) if output != expected and output not in near[:k]]
    return []


def renumbered(expected):
    """A list of numbers with its first or its last number one more or one less, where that keeps how each
    item compares with the next: the given output's order kept, what it holds changed. Most are wrong answers
    (a number that is not in the input, one twice in a permutation); a checker that accepts all of them
    checks an answer's order, not its items: Fair Candy Swap's `output[0] < output[1]` backed a false
    success, rejecting every neighbour near_outputs tries ([1, 2] -> [2, 1], [2, 2]) and accepting [0, 2]
    and [1, 3] (docs/journal/2026-11.md)."""
    if not (isinstance(expected, list) and len(expected) > 1 and all(type(item) is int for item in expected)):
        return []
    found = []
    for place in (0, len(expected) - 1):
        for step in (1, -1):
            output = expected[:place] + [expected[place] + step] + expected[place + 1:]
            if _steps(output) == _steps(expected) and output not in found:
                found.append(output)
    return found


def _steps(items):
    return [(later > item) - (later < item) for item, later in pairwise(items)]


@dataclass(frozen=True)
class Checker:
    """The checker in use: whose it is and what it said, by call."""
    attempt: object     # the Attempt holding its code and outputs (keyed by input_key of checked_input)
    name: str           # its output parameter
    trusted: bool       # the person's: used without the model's checks

    def accepts(self, case_input, output):
        """True when it accepted, False when it rejected or raised, None when it has not judged this."""
        result = self.attempt.outputs.get(input_key(checked_input(case_input, output, self.name)))
        if result is None:
            return None
        return bool(result["ok"] and result["value"] is True)


def calls_to_check(tests, attempts, checker, name):
    """Every checker call a round needs that it has not made: each trusted output and the wrong ones for it,
    and every program's output on every test (candidates, revisions, the oracle)."""
    pairs = []
    for case in tests:
        if case.trusted:
            pairs.append((case.input, case.expected))
            pairs += [(case.input, wrong) for wrong in wrong_outputs(case.expected, case.input)]
            pairs += [(case.input, near) for near in near_outputs(case.expected) + renumbered(case.expected)]
        for attempt in attempts:
            result = attempt.outputs.get(case.key)
            if attempt.source not in (Author.CHECKER, Author.VALIDATOR) and result and result["ok"]:
                pairs.append((case.input, result["value"]))
    calls, seen = [], set(checker.outputs)
    for case_input, output in pairs:
        call = checked_input(case_input, output, name)
        key = input_key(call)
        if key not in seen:
            seen.add(key)
            calls.append(call)
    return calls


def checker_in_use(attempts, tests, trusted_checker=False, one_answer=False, comparison=EXACT):
    """The latest checker that loaded and passes its checks on the trusted tests, or None; and why the
    others were not used (for the record). `one_answer`: the statement promises one answer and outputs are
    compared by equality, so a program's output on a trusted input that is not the given one is wrong, and
    so is each output next to it: the checker must reject them too. Where several answers are right it
    must reject some of the outputs next to the given ones."""
    name, refused = output_name(tests), []
    trusted = [case for case in tests if case.trusted]
    programs = [a for a in attempts if a.source not in (Author.CHECKER, Author.VALIDATOR)]
    for attempt in reversed([a for a in attempts if a.source == Author.CHECKER and a.check == "ok"]):
        checker = Checker(attempt, name, trusted_checker)
        if trusted_checker:
            return checker, refused
        why = _refusal(checker, trusted) or (_accepts_another(checker, trusted, programs, comparison) if one_answer
                                             else _cannot_tell_neighbours(checker, trusted, comparison))
        if why is None:
            return checker, refused
        refused.append(f"checker {attempt.id}: {why}")
    return None, refused


def _refusal(checker, trusted):
    if not trusted:
        return "no trusted output to check it on"
    for case in trusted:
        if checker.accepts(case.input, case.expected) is not True:
            return f"it rejects {case.name}'s given output"
        for wrong in wrong_outputs(case.expected, case.input):
            if checker.accepts(case.input, wrong) is not False:
                return f"it accepts {wrong!r} on {case.name}"
    return None


def _accepts_another(checker, trusted, programs, comparison):
    """Where one answer is promised: another output on a trusted input that the checker accepts, a program's
    or one next to the given output (near_outputs). A checker that checked only an answer's length and
    range was used for HumanEval/129 and dropped three inputs as breaking the promise; the candidates'
    wrong outputs on the examples would have shown it lax. Two Sum's that checked only the sum accepted
    [1, 0] where increasing indices are asked, which no program returned."""
    for case in trusted:
        returned = [(f"attempt {a.id}'s {result['value']!r} on {case.name}", result["value"]) for a in programs
                    for result in [a.outputs.get(case.key)] if result and result["ok"]]
        near = [(f"{output!r} next to {case.name}'s given output", output) for output in near_outputs(case.expected)]
        for said, output in returned + near:
            if not outputs_match(output, case.expected, comparison) and checker.accepts(case.input, output) is True:
                return f"it accepts {said}, where one answer is promised"
    return None


def _cannot_tell_neighbours(checker, trusted, comparison):
    """Where several answers are right: it accepts every output next to every trusted one (near_outputs), or
    every one of them that rearranges the given output's items, or every one that changes a number and keeps
    the order (renumbered). A checker that rejects only the neighbour with a number changed checks what the
    items are, not their order: Beautiful Array's, which accepts any permutation of 1..n, backed a false
    success, and 5 of the 13 recorded checkers the flow would use were such, all wrong; no right one was
    (docs/journal/2026-11.md). Its mirror checks the order alone: Fair Candy Swap's."""
    near = [(case, output) for case in trusted for output in near_outputs(case.expected)
            if not outputs_match(output, case.expected, comparison)]
    if near and all(checker.accepts(case.input, output) is True for case, output in near):
        return "it accepts every output next to the given ones, so it cannot tell an answer from its neighbours"
    moved = [(case, output) for case, output in near if _rearranges(output, case.expected)]
    if moved and all(checker.accepts(case.input, output) is True for case, output in moved):
        return ("it accepts every reordering next to the given outputs, so it checks what an answer holds, "
                "not its order")
    changed = [(case, output) for case in trusted for output in renumbered(case.expected)
               if not outputs_match(output, case.expected, comparison)]
    if changed and all(checker.accepts(case.input, output) is True for case, output in changed):
        return ("it accepts every output next to the given ones with a number changed and their order kept, so it "
                "checks an answer's order, not what it holds")
    return None


def _rearranges(output, expected):
    """The same items in another order (a list or a string), compared as "any order" outputs are."""
    return isinstance(output, (list, str)) and type(output) is type(expected) and \
        outputs_match(list(output), list(expected), Comparison(any_order=True))


def validator_in_use(attempts, tests):
    """The latest input validator that loaded and accepts every trusted input, or None."""
    trusted = [case for case in tests if case.trusted]
    for attempt in reversed([a for a in attempts if a.source == Author.VALIDATOR and a.check == "ok"]):
        said = [attempt.outputs.get(case.key) for case in trusted]
        if trusted and all(result and result["ok"] and result["value"] is True for result in said):
            return attempt
    return None


def breaks_a_promise(validator, case):
    """The validator, trusted on the examples, says this generated input breaks what the statement promises."""
    result = validator.outputs.get(case.key) if validator is not None else None
    return bool(not case.trusted and result and result["ok"] and result["value"] is False)
