"""Expected values from execution: which output of a test input is right, settled by what programs agree on.

A small model computes expected values in its head and often gets them wrong; programs it writes agree
with each other far more often when they are right than when they are wrong (CodeT, AlphaCode's
clustering, MBR-exec). So the model's tests give *inputs* and a *guess* (a test's `guess`, else its
`expected`); the expected value of each input is settled by evidence, strongest first:

  statement, user  a trusted test: its expected value stands (the statement's examples, the person's tests)
  oracle           the oracle (a brute-force program the model wrote, valid when it passes every trusted
                   test) and at least one independent candidate return the same output
  majority         a clear majority of the candidates that pass every trusted test (at least 2, more
                   than half of those that returned a value) return the same output
  guess            no majority: the outputs tie (the oracle's counts as one more), or one program voted,
                   and the model's guess matches exactly one of the tied outputs
  disputed         none of the above: the test is left out of the verdict, and the record says so
  solution_guess   a disputed input no independent program answered (voters 0: no candidate passed the
                   trusted tests, a revision solved) where the claimed code returns the model's guess:
                   given at the claim only (RunTests), the one program and the guess written before any
                   code agree, as for `guess`; measured right in 6 runs of 6, other disputed runs in 11 of 18
  rejected         every program (two at least) that returns a value on some input raised on this one:
                   it is outside what the problem allows, so it is dropped

A variant (core/variants.py: an input made by changing a given one, origin "variant") has no guess, and
may break a precondition stated only in words, so it is settled by the oracle or a majority only (and a
majority of candidates never against the valid oracle: two candidates sharing a bug outvoted it on
HumanEval/74's tie, a false success); it is rejected when any voting program (or the valid oracle)
raises or times out on it, or when some return None and the rest nothing but an empty value (an input
with no answer); it is disputed when the programs return different values and neither settles it; with
fewer than two programs answering it is "unchecked": left out, and not disputed either (there is nothing
to disagree with).

Voters are independent samples only: ImplementFunction's candidates, never a revision of one of them
(it would vote with its parent). Outputs are compared as the tests are (utils/compare.outputs_match:
floats with tolerance, "any order" lists as multisets).

With agreement off (`settle(..., agreement=False)`), the model's own expected value is taken as it is
(source "model"): the flow as it was before, kept for the benchmark's comparison.

Run alone on a finished run:  python -m core.agreement runs/<run>/run.json
"""
import json
import sys

from core.compare import outputs_match
from core.feedback import is_trusted, is_variant

COUNTED = ("statement", "user", "oracle", "majority", "guess", "solution_guess", "model")
EXECUTION = ("oracle", "majority")  # settled by programs agreeing: the model's word alone cannot change them


def settle(tests, voters, oracle=None, any_order=False, agreement=True):
    """One evidence dict per test: {"source", "expected", "agree", "voters", "counted"}.

    `voters`: {attempt id: [raw result or None per test]} for the independent candidates; a raw result is
    the sandbox's {"ok", "value", "error_type", "timed_out", ...}. `oracle`: the oracle's list, or None."""
    trusted = [i for i, case in enumerate(tests) if is_trusted(case)]
    qualified = {vid: outputs for vid, outputs in voters.items() if _passes(outputs, tests, trusted, any_order)}
    oracle_ok = oracle is not None and _passes(oracle, tests, trusted, any_order)
    evidence = []
    for i, case in enumerate(tests):
        if is_trusted(case):
            evidence.append(_evidence(case["origin"], case["expected"]))
        elif not agreement:
            evidence.append(_evidence("model", guess(case)))
        else:
            programs = list(voters.values()) + ([oracle] if oracle is not None else [])
            evidence.append(_settle_one(case, i, qualified, oracle if oracle_ok else None, programs, any_order))
    return evidence


def _settle_one(case, i, qualified, oracle, programs, any_order):
    # a program that raises on every input says nothing about this one (a missing module, a wrong signature)
    results = [outputs[i] for outputs in programs if outputs is not None and outputs[i] is not None
               and any(r is not None and r["ok"] for r in outputs)]
    if len(results) >= 2 and all(not r["ok"] and not r.get("timed_out") for r in results):
        return _evidence("rejected", guess(case), voters=len(results))
    answering = [outputs[i] for outputs in list(qualified.values()) + ([oracle] if oracle is not None else [])
                 if outputs[i] is not None]
    if is_variant(case) and (any(not r["ok"] for r in answering) or _no_answer(answering)):
        return _evidence("rejected", None, voters=len(answering))
    values = [outputs[i]["value"] for outputs in qualified.values() if outputs[i] is not None and outputs[i]["ok"]]
    oracle_value = [oracle[i]["value"]] if oracle is not None and oracle[i] is not None and oracle[i]["ok"] else []
    if oracle_value:
        agreeing = sum(outputs_match(value, oracle_value[0], any_order) for value in values)
        if agreeing:
            return _evidence("oracle", oracle_value[0], agree=agreeing + 1, voters=len(values) + 1)
        if is_variant(case) and values:  # candidates that agree with each other do not outvote the oracle here
            return _evidence("disputed", None, voters=len(values) + 1)
    clusters = _clusters(values, any_order)
    biggest = max((len(members) for _, members in clusters), default=0)
    if biggest >= 2 and biggest * 2 > len(values) and sum(len(m) == biggest for _, m in clusters) == 1:
        value = next(value for value, members in clusters if len(members) == biggest)
        return _evidence("majority", value, agree=biggest, voters=len(values))
    if is_variant(case):  # no guess to break a tie: programs that differ dispute it, one program alone cannot
        differ = len(_clusters(values + oracle_value, any_order)) > 1
        return _evidence("disputed" if differ else "unchecked", None, voters=len(values) + len(oracle_value))
    clusters = _clusters(values + oracle_value, any_order)  # no majority: the oracle is one more voice in a tie
    biggest = max((len(members) for _, members in clusters), default=0)
    tied = [value for value, members in clusters if len(members) == biggest]
    guessed = [value for value in tied if outputs_match(value, guess(case), any_order)]
    if len(guessed) == 1:
        return _evidence("guess", guessed[0], agree=biggest, voters=len(values) + len(oracle_value))
    return _evidence("disputed", guess(case), voters=len(values) + len(oracle_value))


def support(outputs, others, indices, any_order=False):
    """How often the other programs return what `outputs` returns, over the inputs `indices` (each a list of
    raw results per test, as in settle). Among candidates that pass every counted test, the one most
    programs side with on the disputed inputs is the likelier right one (CodeT's consensus)."""
    def value(results, i):
        result = results[i] if results is not None else None
        return result["value"] if result is not None and result["ok"] else _NONE

    return sum(value(outputs, i) is not _NONE and value(other, i) is not _NONE
               and outputs_match(value(other, i), value(outputs, i), any_order)
               for i in indices for other in others)


_NONE = object()  # no value: not run, raised or timed out


def confirmed_by_guess(outputs, tests, indices, any_order=False):
    """The inputs among `indices` (disputed ones) that no independent program answered and on which
    `outputs` (the code about to be claimed) returns the model's guess."""
    return [i for i in indices if tests[i]["evidence"]["voters"] == 0 and outputs[i] is not None and outputs[i]["ok"]
            and outputs_match(outputs[i]["value"], guess(tests[i]), any_order)]


def _no_answer(results):
    """Some program returned None and the others nothing more than an empty value: an input with no answer
    (Two Sum without a pair), which the statement rules out in words. None beside a real answer is a
    disagreement like any other (a two-pointer Two Sum on an unsorted list misses a pair)."""
    values = [r["value"] for r in results]
    return None in values and all(value in (None, [], "", {}) for value in values)


def guess(case):
    """What the model said the expected value is (kept apart once execution settled another one)."""
    return case.get("guess", case["expected"])


def _passes(outputs, tests, trusted, any_order):
    """A program votes only if it ran and passes every trusted test (no trusted tests: if it ran)."""
    if outputs is None:
        return False
    return all(outputs[i] is not None and outputs[i]["ok"] and
               outputs_match(outputs[i]["value"], tests[i]["expected"], any_order) for i in trusted)


def _clusters(values, any_order):
    """[(representative value, [members])], in order of first appearance."""
    clusters = []
    for value in values:
        for representative, members in clusters:
            if outputs_match(value, representative, any_order):
                members.append(value)
                break
        else:
            clusters.append((value, [value]))
    return clusters


def _evidence(source, expected, agree=0, voters=0):
    return {"source": source, "expected": expected, "agree": agree, "voters": voters, "counted": source in COUNTED}


def describe(evidence):
    """One test's evidence in words, for feedback and the exported tests: "agreed by the oracle and 2 of 3
    candidates", "from the problem statement", ..."""
    source, agree, voters = evidence["source"], evidence["agree"], evidence["voters"]
    return {"statement": "from the problem statement", "user": "from the user",
            "oracle": f"agreed by the oracle and {agree - 1} of {voters - 1} candidates",
            "majority": f"agreed by {agree} of {voters} candidates",
            "guess": f"{agree} of {voters} candidates and the model's own guess",
            "solution_guess": "only the solution and the model's own guess (no independent program answered)",
            "model": "the model's own expected value", "disputed": "disputed: no agreement, left out",
            "unchecked": "a variant input fewer than two programs answered: left out",
            "rejected": "outside what the problem allows (programs raised on it, or none had an answer): dropped"}[source]


def summary(evidences, variants=0):
    """The verdict's strength in one phrase: "3 statement examples + 5 inputs agreed by execution ...";
    `variants`: how many of the counted tests are variant inputs (core/variants.py), said apart."""
    count = {source: sum(e["source"] == source for e in evidences) for source in COUNTED + ("disputed",)}
    parts = [f"{count['statement']} statement example{'s' * (count['statement'] != 1)}" if count["statement"] else "",
             f"{count['user']} of yours" if count["user"] else "",
             f"{count['oracle']} confirmed by the oracle and a candidate" if count["oracle"] else "",
             f"{count['majority']} by a majority of candidates" if count["majority"] else "",
             f"{count['guess']} by a candidate and the model's guess" if count["guess"] else "",
             f"{count['solution_guess']} only by the solution and the model's guess" if count["solution_guess"] else "",
             f"{count['model']} by the model's expected values alone" if count["model"] else ""]
    text = " + ".join(part for part in parts if part) or "no test"
    text += f", {variants} of these variant inputs" if variants else ""
    return text + (f"; {count['disputed']} disputed input{'s' * (count['disputed'] != 1)} left out"
                   if count["disputed"] else "")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python -m core.agreement RUN_DIR/run.json")
    with open(sys.argv[1], encoding="utf-8") as f:
        final = json.load(f).get("final") or {}
    for case in final.get("test_cases") or []:
        print(f"{case['name']}: {json.dumps(case['expected'])}  ({describe(case['evidence']) if 'evidence' in case else 'no evidence'})")
