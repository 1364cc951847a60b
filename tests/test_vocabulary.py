"""core/vocabulary.py: a member is its plain string wherever it goes; a misspelt one is an error."""
import json

import pytest

from core.vocabulary import Action, AttemptStatus, Caller, Origin, RunStatus, Source
from utils.yaml_answer import dump_yaml, load_yaml


def test_a_member_prints_formats_and_compares_as_its_value():
    assert str(Source.SOLUTION_GUESS) == "solution_guess" and f"{RunStatus.UNCONFIRMED:>12}" == " unconfirmed"
    assert Action.SUCCESS == "success" and {"success": 1}[Action.SUCCESS] == 1, "a flow's string edges find it"
    assert Origin("variant") is Origin.VARIANT


def test_json_and_yaml_hold_the_plain_value():
    record = {"status": RunStatus.SOLVED, "attempt": {"status": AttemptStatus.ORACLE}}
    assert json.loads(json.dumps(record)) == {"status": "solved", "attempt": {"status": "oracle"}}
    assert dump_yaml(record) == "status: solved\nattempt:\n  status: oracle\n"
    assert load_yaml(dump_yaml(record)) == {"status": "solved", "attempt": {"status": "oracle"}}


def test_a_misspelt_member_or_value_is_an_error_not_a_silent_mismatch():
    with pytest.raises(AttributeError):
        Source.DISPUTD  # noqa: B018
    with pytest.raises(ValueError):
        Source("disputd")


def test_what_counts_and_what_programs_settled():
    assert [s for s in Source if not s.counted] == [Source.DISPUTED, Source.UNCHECKED, Source.REJECTED,
                                                    Source.BROKEN_PROMISE]
    assert [s for s in Source if s.by_programs] == [Source.ORACLE, Source.MAJORITY, Source.WITNESS, Source.CHECKER]
    assert [s for s in Source if s.backs_a_claim] == [Source.USER, Source.ORACLE, Source.MAJORITY, Source.WITNESS,
                                                         Source.CHECKER]
    assert [o for o in Origin if o.trusted] == [Origin.STATEMENT, Origin.USER]


@pytest.mark.parametrize("caller, name, option, give", [
    (Caller.CLI, "max_calls", "--max-calls", "--max-calls"),
    (Caller.CLI, "tests", "--tests", "--tests FILE"),
    (Caller.CLI, "checker", "--checker", "--checker FILE"),
    (Caller.MCP, "max_calls", "max_calls", "the max_calls argument"),
    (Caller.MCP, "tests", "tests", "the tests argument"),
    (Caller.MCP, "checker", "checker", "run_tests and its checker argument"),  # solve takes none
])
def test_an_option_is_named_as_its_caller_gives_it(caller, name, option, give):
    assert (caller.option(name), caller.give(name)) == (option, give)


def test_a_setting_out_of_range_is_told_in_its_callers_words():
    from settings import Settings, SettingsError
    with pytest.raises(SettingsError, match="^--time-limit must be seconds from 1 to 86,400, not 0$"):
        Settings(time_limit=0)
    with pytest.raises(SettingsError, match="^time_limit must be seconds from 1 to 86,400, not 0$"):
        Settings(time_limit=0, caller=Caller.MCP)
    assert Settings(caller="mcp").caller is Caller.MCP, "as run.json records it"
