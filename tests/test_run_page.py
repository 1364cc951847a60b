"""pages/run_page.py: the run's page as a browser builds it. Scripted runs through the real CLI (main.py in a
subprocess, a scripted model on the stub server, the real sandbox) write run.html; headless Chromium loads each
from the file system, and the tests read the DOM it built: the ending in the CLI's words, one row per test with
where its expected value came from, every version of the code. Hostile text stays text; a record that cannot
be read ends `codeloop show` in one line, exit 2, nothing written."""
import html
import json
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from app import EXIT_BY_STATUS
from pages.record import read_record
from pages.run_page import write_run_page
from pages.run_view import ENDINGS
from tests import scripted_answers as a
from tests.test_families import FAMILIES
from tests.page_dom import parse
from tests.test_flow import GUESS_NOBODY_RETURNS, WRONG_ON_PAIRS, ZERO_ON_PAIRS
from tests.test_main import MAIN, ROOT, cli_env, codeloop

RECORDS = ROOT / "docs" / "records"


def solved(stub):
    a.route_defaults(stub)
    return [a.TWO_SUM], "solved"


def not_confirmed(stub):  # three programs, three answers on one input: disputed, and no calls left for a draw
    stub.route("tests", GUESS_NOBODY_RETURNS)
    stub.route("code", a.GOOD_CODE, WRONG_ON_PAIRS, ZERO_ON_PAIRS)
    return [a.TWO_SUM, "--no-oracle", "--model-tests", "first", "--variants", "0", "--first-draw", "3",
            "--max-calls", "5"], "unconfirmed"


def unsolved(stub):  # a buggy candidate, a useless revision
    stub.add(a.TESTS, a.BUGGY_CODE, a.REVISE_USELESS)
    return [a.TWO_SUM, "--max-iterations", "2", *a.MODEL_TESTS_FLAGS], "unsolved"


def model_failed(stub):
    stub.add(*[a.GARBAGE] * 3)
    return ["Return the indices of the two numbers in nums that add up to target."], "model_failed"


def family(name):
    def script(stub):
        statement, code, oracle, _, tests = FAMILIES[name]
        stub.route("code", *[code] * 6)
        stub.route("oracle", oracle)
        stub.route("tests", *([tests] if tests else []))
        return [statement], "solved"
    return script


SCRIPTS = {"solved": solved, "not_confirmed": not_confirmed, "unsolved": unsolved, "model_failed": model_failed,
           "tree": family("tree"), "design": family("design")}


def source_of(case):
    """The source a test's row names: its evidence's, else a trusted test's origin."""
    return (case.get("evidence") or {}).get("source") or (case["origin"] if case["origin"] in ("statement", "user")
                                                           else "not settled")


@pytest.mark.parametrize("scenario", SCRIPTS)
def test_a_scripted_runs_page_shows_its_ending_every_test_with_its_source_and_every_version(scenario, stub, tmp_path,
                                                                                          browser):
    args, status = SCRIPTS[scenario](stub)
    out = tmp_path / "run"
    result = codeloop(*args, "--out", str(out), stub=stub)
    record, dom = json.loads((out / "run.json").read_text()), browser(out / "run.html")
    assert record["status"] == status and result.returncode == EXIT_BY_STATUS[status], result.stderr
    final = record["final"]
    assert str(out / "run.html") in final["files"] and "run.html" in result.stderr, "the CLI names the page"
    ending = dom.find("section", id="ending")
    assert ending.find(cls="heading").text() == ENDINGS[record["status"]]
    assert ending.find(cls="message").text() == record["message"] == result.stderr.strip().splitlines()[-3]
    rows = dom.find_all("tr", cls="test")
    assert [row.attrs["data-test"] for row in rows] == [case["name"] for case in final["test_cases"]]
    assert [row.find(cls="source").find("span").text() for row in rows] == [source_of(c) for c in final["test_cases"]]
    versions = dom.find_all("section", cls="version")
    assert [v.attrs["id"] for v in versions] == [f"v{attempt['id']}" for attempt in final["attempts"]]
    for version, attempt in zip(versions, final["attempts"]):
        assert version.find("pre", cls="code").text().strip() == attempt["code"].strip()
    if final["attempts"]:
        (handed,) = [v.attrs["id"] for v in versions if "handed" in v.attrs["class"].split()]
        assert handed == f"v{final['attempt']}"
        heads = dom.find("table", id="tests-table").find("thead").find_all("th")[6:]
        column = [head.find("a").text() for head in heads].index(f"v{final['attempt']}")
        marks = [row.find_all("td", cls="cell")[column].text() for row in rows]
        by_name = {r["name"]: "✓" if r["passed"] else "✗" if r["counted"] else "○" for r in final["test_results"]}
        assert marks == [by_name[row.attrs["data-test"]] for row in rows], "pass or fail at a glance"
    if scenario == "not_confirmed":  # which programs agreed: three answers on the disputed input, one version each
        disputed = next(row for row in rows if row.attrs["data-test"] == "duplicates")
        assert len(disputed.find(cls="groups").find_all("div")) == 3
    if scenario == "unsolved":  # the revision's diff from the version it revised
        diff = versions[-1].find("pre", cls="diff")
        assert "+        return [0, 0]" not in diff.text() and "+    return [0, 0]" in diff.text()
    assert not dom.find_all("script") and not [e for e in dom.iter() if e.attrs.get("src")], "no script, nothing fetched"


HOSTILE = '</script><script>document.body.dataset.pwned = "{where}"</script><b id="pwn-{where}">bold</b> ' \
          '<a id="pwn-link-{where}" href="javascript:alert(1)">click</a>'
ECHO = '''```python
def run_code(s):
    # {hostile}
    return s + {suffix!r}
```'''


def test_hostile_text_in_the_statement_a_test_the_code_and_its_output_stays_text(stub, tmp_path, browser):
    statement = "Return the string s followed by the marker.\n" + HOSTILE.format(where="statement")
    tests = tmp_path / "tests.json"
    tests.write_text(json.dumps([{"name": "hostile", "input": {"s": HOSTILE.format(where="input")},
                                  "expected": HOSTILE.format(where="input") + HOSTILE.format(where="output")}]))
    code = ECHO.format(hostile=HOSTILE.format(where="code"), suffix=HOSTILE.format(where="output"))
    stub.route("code", *[code] * 3)
    stub.route("oracle", code.replace("return s +", "return str(s) +"))
    out = tmp_path / "run"
    result = codeloop(statement, "--tests", str(tests), "--variants", "0", "--out", str(out), stub=stub)
    assert result.returncode in (0, 1), result.stderr
    dom = browser(out / "run.html")
    assert_inert(dom)
    assert "</script><script>document.body.dataset.pwned" in dom.find("pre", cls="statement").text()
    row = dom.find("tr", cls="test")
    assert "</script><script>document.body.dataset.pwned" in row.find(cls="input").text()
    assert "javascript:alert(1)" in row.find(cls="groups").text(), "the output, as text"
    assert '<b id="pwn-code">' in dom.find("section", cls="version").find("pre", cls="code").text()


def test_a_record_naming_a_javascript_link_or_markup_as_a_file_or_a_message_keeps_it_text(tmp_path, browser):
    record = json.loads((RECORDS / "two_sum_embedded_run.json").read_text())
    record["message"] = HOSTILE.format(where="message")
    record["final"]["files"] = ["javascript:alert(1)", HOSTILE.format(where="file")]
    record["final"]["function_code"] = HOSTILE.format(where="code")  # a record before the attempt tree: one version
    (tmp_path / "run.json").write_text(json.dumps(record))
    dom = browser(write_run_page(tmp_path))
    assert_inert(dom)
    assert dom.find(cls="message").text() == HOSTILE.format(where="message")
    assert "javascript:alert(1)" in [link.text() for link in dom.find_all("a", cls="file")]


def assert_inert(dom):
    """Nothing the hostile text names exists as an element, no script ran, no link leads to javascript:."""
    assert [e.attrs["id"] for e in dom.iter() if e.attrs.get("id", "").startswith("pwn")] == []
    assert dom.find_all("script") == [] and "data-pwned" not in dom.find("body").attrs
    assert [e.attrs["href"] for e in dom.find_all("a") if urlsplit(e.attrs.get("href", "")).scheme] == [], \
        "every link is to a file of the run or a place on the page"


def show(*args):
    return subprocess.run([sys.executable, MAIN, "show", "--no-open", *map(str, args)], capture_output=True,
                          text=True, cwd=ROOT, env=cli_env(), timeout=120)


GOOD = (RECORDS / "two_sum_embedded_run.json").read_text()


@pytest.mark.parametrize("text, says", [
    (GOOD[:len(GOOD) // 2], ": the JSON ends early (cut off while written?), at line "),
    (GOOD[:GOOD.index('"events"') + 12], ": the JSON ends early (cut off while written?), at line "),
    ("", " is empty"),
    ("run.json of a run\n", ": not valid JSON: Expecting value at line 1 column 1"),
    ('{"status": "solved", "problem": "x",, }', ": not valid JSON: Expecting property name"),
    ("[1, 2]", ": not a codeloop run record: the JSON is a list, not an object"),
    ('{"problem": "Two Sum"}', ': not a codeloop run record: it has no "status"'),
    ('{"status": "solved", "events": "none"}', ': not a codeloop run record: "events" is a string'),
    ('{"status": "solved", "final": [1]}', ': not a codeloop run record: "final" is a list'),
], ids=["truncated", "truncated-between-values", "empty", "not-json", "bad-json", "a-list", "no-status",
        "events-not-a-list", "final-not-an-object"])
def test_a_record_that_cannot_be_read_ends_show_in_one_line_naming_it_exit_2_nothing_written(text, says, tmp_path):
    (tmp_path / "run.json").write_text(text)
    result = show(tmp_path, "--out", tmp_path / "elsewhere.html")
    assert result.returncode == 2 and result.stdout == ""
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith(f"codeloop: error: {tmp_path / 'run.json'}{says}"), line
    assert sorted(path.name for path in tmp_path.iterdir()) == ["run.json"], "nothing written"


def test_show_of_a_folder_without_a_record_or_of_nothing_ends_in_one_line_exit_2(tmp_path):
    for target, says in ((tmp_path, "no run.json in this folder"), (tmp_path / "gone", "no such file")):
        result = show(target)
        assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1 and says in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_show_writes_the_page_beside_run_json_and_prints_its_path_without_opening_a_browser(tmp_path):
    shutil.copy(RECORDS / "two_sum_embedded_run.json", tmp_path / "run.json")
    result = show(tmp_path)
    assert result.returncode == 0 and result.stdout == f"{tmp_path / 'run.html'}\n" and result.stderr == ""
    assert read_record(tmp_path / "run.json")["message"] in (tmp_path / "run.html").read_text()


def test_an_unwritable_page_ends_show_with_exit_4_naming_it(tmp_path):
    shutil.copy(RECORDS / "two_sum_embedded_run.json", tmp_path / "run.json")
    result = show(tmp_path, "--out", tmp_path / "no-such-folder" / "page.html")
    assert result.returncode == 4 and f"cannot write {tmp_path / 'no-such-folder' / 'page.html'}" in result.stderr


def test_every_record_kept_in_folders_under_docs_records_renders(tmp_path):
    # older records lack what newer ones hold (evidence, every version's results): each still makes a page;
    # the archives' 1,600 records are rendered by python -m bench.speed pages --records (docs/bench.md)
    records = sorted(RECORDS.rglob("run.json")) + [RECORDS / "two_sum_embedded_run.json"]
    assert len(records) > 30
    for k, path in enumerate(records):
        page = html.unescape(Path(write_run_page(path, tmp_path / f"{k}.html")).read_text())
        assert json.loads(path.read_text()).get("message", "") in page, path


def test_a_page_that_cannot_be_made_leaves_the_runs_result_and_files_and_says_why_in_run_json(stub, tmp_path,
                                                                                               monkeypatch):
    import app

    def broken(path):
        raise RuntimeError("the template is broken")
    monkeypatch.setattr(app, "write_run_page", broken)
    for name, value in cli_env(stub).items():
        monkeypatch.setenv(name, value)
    a.route_defaults(stub)
    final = app.run(app.prepare(a.TWO_SUM, out=str(tmp_path)))
    assert final["status"] == "solved" and not (tmp_path / "run.html").exists()
    assert sorted(Path(path).name for path in final["files"]) == ["run.json", "solution.py", "test_solution.py"]
    record = json.loads((tmp_path / "run.json").read_text())
    (failed,) = [event for event in record["events"] if event["kind"] == "page_failed"]
    assert failed["message"] == "RuntimeError: the template is broken" and "Traceback" in failed["traceback"]
    assert record["final"]["files"] == final["files"], "run.json names only the files there are"


def render(tmp_path, record):
    (tmp_path / "run.json").write_text(json.dumps(record))
    return parse(Path(write_run_page(tmp_path)).read_text())


def test_the_confidence_is_shown_when_the_record_has_one_and_nothing_is_said_when_it_has_none(tmp_path):
    record = json.loads((RECORDS / "unconfirmed" / "2486-unconfirmed-correct" / "run.json").read_text())
    assert not render(tmp_path, record).find_all(cls="confidence")
    record["final"]["confidence"] = {"value": 0.9312, "threshold": 0.86, "enough": True, "features": {},
                                     "calibration": "core/calibration.json", "fitted_for": "qwen2.5-coder-1.5b-instruct"}
    said = render(tmp_path, record).find(cls="confidence").text()  # the CLI's words: its last line ends "confidence 0.93"
    assert said == "Confidence 0.93: a claim needs 0.86 (fitted on qwen2.5-coder-1.5b-instruct's runs)"
    record["final"]["confidence"] = {"value": 0.4}
    assert render(tmp_path, record).find(cls="confidence").text() == "Confidence 0.40"


def test_the_confidence_says_what_it_rests_on_and_how_runs_scored_alike_did_held_out(tmp_path):
    record = json.loads((RECORDS / "unconfirmed" / "2486-unconfirmed-correct" / "run.json").read_text())
    record["final"]["confidence"] = {"value": 0.7999, "threshold": 0.86, "enough": False, "reading": "likely right",
                                     "words": "3 of 3 programs passing the examples agree, the oracle among them",
                                     "backed_by": "30 of 41 held-out runs scored 0.7-0.9 were right"}
    page = render(tmp_path, record)
    assert page.find(cls="confidence").text() == "Confidence 0.79, likely right: a claim needs 0.86"  # never rounded up
    assert page.find(cls="rests-on").text() == ("It rests on this: 3 of 3 programs passing the examples agree, the "
                                                "oracle among them. 30 of 41 held-out runs scored 0.7-0.9 were right.")


def test_a_record_from_before_every_versions_results_were_kept_shows_those_its_rounds_recorded(tmp_path):
    record = json.loads((RECORDS / "unconfirmed" / "2486-unconfirmed-correct" / "run.json").read_text())
    final = record["final"]
    assert not any("results" in attempt for attempt in final["attempts"]), "a record of before issue 88"
    dom = render(tmp_path, record)
    columns = [th.find("a").text() for th in dom.find("table", id="tests-table").find("thead").find_all("th")[6:]]
    current = [row.find_all("td", cls="cell")[columns.index(f"v{final['attempt']}")].text()
               for row in dom.find_all("tr", cls="test")]
    assert "name" not in final["test_results"][0], "results in the tests' order, before they carried names"
    assert current == ["✓" if r["passed"] else "✗" if r["counted"] else "○" for r in final["test_results"]]
    rounds = {event["attempt"] for event in record["events"] if event["kind"] == "test_run" and event["results"]}
    never = [v for v in columns if int(v[1:]) not in rounds | {final["attempt"]}]
    assert never, "versions no round recorded"
    for row in dom.find_all("tr", cls="test"):
        assert {row.find_all("td", cls="cell")[columns.index(v)].text() for v in never} <= {"·"}, "no output guessed"
