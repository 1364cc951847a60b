"""One review by the person (--interactive): they see the tests (and, after a round, the results and
the code), then change what they like until they accept or finish.

`review()` works on copies and returns what changed; the ReviewWithPerson node writes it to the store.
Tests the person writes or edits become trusted ("user" origin): the model may not change them.

Run alone on a sample:  python -m utils.review_session
"""
from dataclasses import replace

import yaml

from core.cases import TestCase
from core.feedback import compact
from core.vocabulary import Origin
from utils.user_tests import UserTestsError, cases_from_data
from utils.yaml_answer import dump_yaml, load_yaml, yaml11_note

COMMANDS = """  a          accept and go on ({go_on})
  t          edit the tests in $EDITOR (YAML; delete an entry to delete its test)
  d N [N..]  delete tests N ...
  n          add a test: you type its input and its expected value
{code}  f TEXT     feedback for the model's next step
  q          finish now and keep the best version so far
  ?          this list"""
CODE_COMMAND = "  c          edit the code in $EDITOR\n"
TESTS_HEADER = ("# The tests. Edit, delete or add entries; each needs input (argument name: value) and expected.\n"
                "# Tests you write or change are trusted: the model may not change them.\n")


def review(terminal, tests, stage, code=None, results=None):
    """stage "tests" (before any code) or "round" (after a failed round). Returns
    {"tests": new list or None if unchanged, "code": edited code or None, "feedback": [text],
     "finish": bool, "actions": [what the person did, for the run record]}."""
    change = {"tests": None, "code": None, "feedback": [], "finish": False, "actions": []}
    current = list(tests)
    show(terminal, current, code, results, stage)
    go_on = "write the code" if stage == "tests" else "the model revises"
    help_text = COMMANDS.format(go_on=go_on, code=CODE_COMMAND if code else "")
    if not getattr(terminal, "knows_commands", False):  # the whole list once per run, then a reminder
        terminal.say(help_text)
        terminal.knows_commands = True
    else:
        terminal.say(f"a accept ({go_on}), t/d/n tests, {'c code, ' if code else ''}f feedback, q finish, ? help")
    while True:
        line = terminal.ask("review> ")
        if line is None:  # end of input: nobody can answer any more, so stop with what we have
            line = "q"
        command, _, rest = line.partition(" ")
        command, rest = command.lower(), rest.strip()
        if command in ("a", "accept", ""):
            if command == "" and not change["actions"]:
                terminal.say("type a command (? for the list); a to accept")
                continue
            change["actions"].append("accept")
            return _with_tests(change, tests, current)
        if command in ("q", "quit", "finish"):
            change["finish"] = True
            change["actions"].append("finish")
            return _with_tests(change, tests, current)
        if command in ("f", "feedback"):
            if not rest:
                terminal.say("f needs the feedback text on the same line, e.g. f the list may be empty")
                continue
            change["feedback"].append(rest)
            change["actions"].append(f"feedback: {rest}")
            terminal.say("noted: the model sees it in its next prompt")
        elif command in ("d", "delete"):
            current = _delete(terminal, current, rest, change)
        elif command in ("n", "new", "add"):
            current = _add(terminal, current, change)
        elif command in ("t", "tests"):
            current = _edit_tests(terminal, current, change)
        elif command in ("c", "code") and code:
            edited = terminal.edit(code, ".py")
            if edited is not None and edited.strip() and edited != code:
                change["code"] = edited
                change["actions"].append("edited the code")
                terminal.say("code changed: it is checked and tested next")
                return _with_tests(change, tests, current)
            terminal.say("the code is unchanged")
        elif command in ("?", "h", "help"):
            terminal.say(help_text)
        else:
            terminal.say(f"unknown command {command!r}; ? lists the commands")


def _with_tests(change, original, current):
    change["tests"] = current if current != original else None
    return change


def _delete(terminal, tests, rest, change):
    numbers = rest.replace(",", " ").split()
    if not numbers or not all(n.isdigit() and 1 <= int(n) <= len(tests) for n in numbers):
        terminal.say(f"d needs test numbers from 1 to {len(tests)}, e.g. d 2 5")
        return tests
    gone = {int(n) - 1 for n in numbers}
    change["actions"].append("deleted " + ", ".join(tests[i].name for i in sorted(gone)))
    kept = [case for i, case in enumerate(tests) if i not in gone]
    terminal.say(f"deleted; {len(kept)} tests left" + ("" if kept else ": only syntax, imports and loading are checked"))
    return kept


def _add(terminal, tests, change):
    hint = "{" + ", ".join(f"{name}: ..." for name in tests[0].input) + "}" if tests else "{argument: value}"
    typed_input = terminal.ask(f"input, as YAML {hint}: ")
    typed_expected = terminal.ask("expected value, as YAML: ") if typed_input else None
    if not typed_input or typed_expected is None or typed_expected == "":
        terminal.say("no test added")
        return tests
    noticed = []
    try:
        case = {"name": f"user_{len(tests) + 1}", "input": load_yaml(typed_input, noticed),
                "expected": load_yaml(typed_expected, noticed)}
        [added] = cases_from_data([case], "your test")
    except (yaml.YAMLError, UserTestsError) as exc:
        terminal.say(f"not added: {_first_line(exc)}")
        return tests
    _note(terminal, change, "your test", noticed)
    change["actions"].append(f"added {added.name}")
    terminal.say(f"added test {len(tests) + 1}: {added.name}")
    return tests + [added]  # the node makes names unique when it stores the tests


def _edit_tests(terminal, tests, change):
    listed = [{"name": case.name, "input": case.input, "expected": case.expected} for case in tests]
    text = terminal.edit(TESTS_HEADER + dump_yaml(listed), ".yaml")
    if text is None:
        return tests
    noticed = []
    try:
        data = load_yaml(text, noticed) or []
        edited = cases_from_data(data, "the edited tests")
    except (yaml.YAMLError, UserTestsError) as exc:
        terminal.say(f"tests unchanged: {_first_line(exc)}")
        return tests
    _note(terminal, change, "your edit", noticed)
    # an entry left exactly as it was keeps its origin; a new or changed one is the person's
    before = {_key(case): case for case in tests}
    merged = [before.get(_key(case)) or replace(case, origin=Origin.USER) for case in edited]
    if merged != tests:
        change["actions"].append(f"edited the tests ({len(tests)} -> {len(merged)})")
        terminal.say(f"tests changed: {len(merged)} now")
    return merged


def _note(terminal, change, where, noticed):
    """The values YAML 1.1 would have read otherwise, said in one line (and kept in the record's actions)."""
    note = yaml11_note(where, noticed)
    if note:
        terminal.say(f"note: {note}")
        change["actions"].append(f"note: {note}")


def _key(case):
    return repr((case.name, case.input, case.expected))


def _first_line(exc):
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__


def show(terminal, tests, code, results, stage):
    if code and stage == "round":
        terminal.say("the code:\n" + "\n".join(f"{n:3} {line}" for n, line in enumerate(code.rstrip().splitlines(), 1)))
    if not tests:
        terminal.say("no tests: only syntax, imports and loading are checked")
    terminal.say(f"tests ({len(tests)}):")
    for i, case in enumerate(tests, 1):
        mark = f" [{'statement' if case.origin == Origin.STATEMENT else 'yours'}]" if case.trusted else ""
        variant = case.is_variant  # no expected value until the programs agree on one
        expected = compact(case.expected, 80) if not variant or (case.evidence and case.counted) else \
            "? (whatever the programs agree on)"
        line = f"  {i}. {case.name}{' [variant]' * variant}{mark}: run_code(**{compact(case.input, 120)}) == {expected}"
        if results and i <= len(results):
            line += "  " + verdict(results[i - 1])
        terminal.say(line)


def verdict(result):
    if result["passed"]:
        return "PASS"
    if result.get("timed_out"):
        return "FAIL: timed out"
    if result.get("error_type"):
        return f"FAIL: {result['error_type']}: {(result.get('message') or '')[:80]}"
    return f"FAIL: got {result['actual'][:80]}"


if __name__ == "__main__":
    from utils.terminal import Terminal
    sample = [TestCase("example_1", {"nums": [2, 7], "target": 9}, [0, 1], Origin.STATEMENT)]
    print(review(Terminal(), sample, "tests"))
