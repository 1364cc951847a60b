"""Whether a draw's candidate is a program the run already has (issue 89: every draw a different program).

A small model asked the same question again often answers with the program it wrote before, renamed or laid out
anew, or written otherwise with the same outputs: such a draw brings no new program. Two ways to see it:

  text       core/source_code.program_key equals an earlier attempt's (a candidate, a revision, the oracle, the
             person's edit): AttemptTree.draw adds no attempt for it, the function_code event lists it `repeated`
  behaviour  once run, it returns the same outputs (or raises the same error type) as an earlier program on every
             input of the round it first ran in, one at least: core/round_verdict.py finds it (`repeated`)

A draw of repeats only is not counted against --max-draws, and the next draw is told the approaches tried
(nodes.ImplementFunction). A repeat by behaviour is no second program where programs failing the examples are
counted; passing them, it keeps its vote (core/expected_values.settle says why).

Earlier means added before (a lower attempt id); the checker and the input validator judge, they are no programs of
the problem. bench/harness.draws_repeated counts a finished run's repeats with the same definitions (it runs every
program again on the inputs of the draw's round, as the record left them), so the bench's share of repeated draws
measures what the loop sees; where a round dropped inputs the loop compares on those too, and may see fewer.
"""
from core.compare import outputs_match
from core.source_code import program_key
from core.vocabulary import AttemptStatus, Author


def same_output(one, other):
    """Two sandbox results of one input: the same value, or the same error type raised (a timeout is one)."""
    if one["ok"] and other["ok"]:
        return outputs_match(one["value"], other["value"])
    return not one["ok"] and not other["ok"] and one["error_type"] == other["error_type"]


def written_before(code, attempts):
    """The earliest attempt whose program `code` is by text (program_key: names, comments, layout aside), or None."""
    key = program_key(code)
    return next((a for a in attempts if Author(a.source).answers and program_key(a.code) == key), None)


def behaviour_repeats(attempts, tests):
    """{candidate id: the earlier program it repeats} for each new candidate (a draw's, status new, not yet found a
    repeat) that returns what an earlier program returns on every one of `tests` (core.cases.TestCase). A program
    that failed its load checks raises its check's error type on every input; one not run on every input (rejected
    before the input came) is not compared."""
    found, keys = {}, [case.key for case in tests]
    results = {a.id: results_on(a, keys) for a in attempts if Author(a.source).answers}
    for attempt in attempts:
        mine = results.get(attempt.id)
        if attempt.source != Author.IMPLEMENT or attempt.status != AttemptStatus.NEW or attempt.repeat_of is not None \
                or mine is None:
            continue
        earlier = next((old for old, theirs in results.items() if old < attempt.id and theirs is not None
                        and all(map(same_output, mine, theirs))), None)
        if earlier is not None:
            found[attempt.id] = earlier
    return found


def results_on(attempt, keys):
    """The attempt's sandbox result on each input key, or None where it has not run on one (or there is none)."""
    if not keys or attempt.check is None:
        return None
    if isinstance(attempt.check, dict):  # it never loaded: as a sandbox run of it would, it raises on each call
        return [{"ok": False, "value": None, "error_type": attempt.check.get("error_type")}] * len(keys)
    results = [attempt.outputs.get(key) for key in keys]
    return None if any(result is None for result in results) else results
