"""utils/lint.py: ruff's findings on generated code, bugs only, and never a failed run."""
import sys

from utils.lint import describe, lint

CLEAN = "from typing import List\n\n\ndef run_code(numbers: List[int]):\n    return sorted(numbers)\n"


def test_clean_code_has_no_findings():
    assert lint(CLEAN) == []


def test_an_undefined_name_is_reported_with_its_line():
    findings = lint("def run_code(x):\n    doubled = x * 2\n    return doubled + totl\n")
    assert findings == [{"code": "F821", "line": 3, "message": "Undefined name `totl`"}]


def test_an_unused_import_is_reported():
    findings = lint("import os\n\n\ndef run_code(x):\n    return x\n")
    assert [(f["code"], f["line"]) for f in findings] == [("F401", 1)]
    assert "os" in findings[0]["message"]


def test_a_syntax_error_is_reported_not_raised():
    findings = lint("def run_code(x:\n    return x\n")
    assert findings and findings[0]["line"] == 1 and findings[0]["message"]


def test_bug_prone_patterns_are_reported():
    code = ("def run_code(x, seen=[]):\n"
            "    calls = []\n"
            "    for i in range(x):\n"
            "        calls.append(lambda: i)\n"
            "    return [call() for call in calls]\n")
    assert [(f["code"], f["line"]) for f in lint(code)] == [("B006", 1), ("B023", 4)]


def test_findings_come_sorted_by_line():
    findings = lint("import os\ndef run_code(x):\n    unused = 1\n    return y\nimport sys\n")
    assert [f["line"] for f in findings] == sorted(f["line"] for f in findings)
    assert {f["code"] for f in findings} >= {"F401", "F841", "F821"}


def test_style_only_issues_are_not_reported():
    long_line = "    return " + " + ".join(["myValue"] * 25) + "\n"
    assert len(long_line) > 200
    code = ("def run_code(myValue):\n"
            "    camelCaseName = 'single quotes'\n"
            "    if camelCaseName == None:\n"
            "        return 0\n" + long_line)
    assert lint(code) == []


def test_without_ruff_lint_returns_none(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(sys, "executable", str(tmp_path / "python"))
    assert lint(CLEAN) is None


def test_a_ruff_that_hangs_or_crashes_gives_none(monkeypatch, tmp_path):
    ruff = tmp_path / "ruff"
    ruff.write_text("#!/bin/sh\nsleep 5\n")
    ruff.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    assert lint(CLEAN, timeout=0.5) is None
    ruff.write_text("#!/bin/sh\necho 'ruff: internal error' >&2\nexit 2\n")
    assert lint(CLEAN) is None


def test_describe_gives_one_short_line_per_finding():
    findings = [{"code": "F401", "line": 1, "message": "`os` imported but unused"},
                {"code": "F821", "line": 3, "message": "Undefined name `x`"}]
    assert describe(findings) == "line 1: F401 `os` imported but unused\nline 3: F821 Undefined name `x`"


def test_describe_stops_at_the_limit_and_says_how_many_more():
    findings = [{"code": "F841", "line": n, "message": f"Local variable `v{n}` is assigned to but never used"}
                for n in range(1, 9)]
    lines = describe(findings, limit=3).splitlines()
    assert lines[:3] == [f"line {n}: F841 Local variable `v{n}` is assigned to but never used" for n in (1, 2, 3)]
    assert lines[3:] == ["(and 5 more)"]


def test_describe_says_nothing_without_findings():
    assert describe([]) == "" and describe(None) == ""


def test_names_the_sandbox_defines_for_a_tree_problem_are_not_undefined():
    code = "def run_code(root: Optional[TreeNode]) -> int:\n    return 0 if root is None else root.val\n"
    assert [f["code"] for f in lint(code)] == ["F821", "F821"]
    assert lint(code, builtins=("TreeNode", "ListNode", "List", "Optional")) == []
