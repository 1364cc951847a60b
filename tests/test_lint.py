"""utils/lint.py: ruff's findings on generated code, bugs only, and never a failed run."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

from utils import lint as lint_module
from utils.lint import describe, find_ruff, lint, lint_off

ROOT = Path(__file__).resolve().parent.parent

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


def ruff_script(folder, body):
    """A real executable named ruff in `folder`: a stand-in for another ruff on PATH."""
    ruff = folder / "ruff"
    ruff.write_text(f"#!/bin/sh\n{body}\n")
    ruff.chmod(0o755)
    return ruff


OLD_RUFF = "echo \"error: invalid value 'PLW0177' for '--select <RULE_CODE>'\" >&2\nexit 2"


def without_the_pinned_ruff(monkeypatch, folder):
    """This interpreter as if codeloop were installed without its ruff: no ruff package, none beside it; PATH `folder`."""
    monkeypatch.setitem(sys.modules, "ruff", None)  # `import ruff` raises ImportError
    monkeypatch.setattr(sys, "executable", str(folder / "python"))
    monkeypatch.setenv("PATH", str(folder))


def test_an_older_ruff_first_on_path_does_not_turn_lint_off(monkeypatch, tmp_path):
    old = ruff_script(tmp_path, OLD_RUFF)
    monkeypatch.setenv("PATH", f"{tmp_path}:{os.environ['PATH']}")
    assert shutil.which("ruff") == str(old)
    assert lint_off() == ""
    assert [f["code"] for f in lint("import os\n")] == ["F401"]  # the pinned ruff's finding
    assert find_ruff()[0] != str(old)


def test_with_only_an_older_ruff_lint_is_off_and_says_why_in_one_line(monkeypatch, tmp_path):
    old = ruff_script(tmp_path, OLD_RUFF)
    without_the_pinned_ruff(monkeypatch, tmp_path)
    assert lint(CLEAN) is None
    assert lint_off() == f"{old} exits 2 on codeloop's rules (error: invalid value 'PLW0177' for '--select <RULE_CODE>')"


def test_without_any_ruff_lint_is_off_and_says_so(monkeypatch, tmp_path):
    without_the_pinned_ruff(monkeypatch, tmp_path)
    assert lint(CLEAN) is None
    assert lint_off().startswith("ruff is not installed")


def test_lint_alone_says_lint_is_off_from_a_python_without_ruff(tmp_path):
    """The module run alone, as a person would, by an interpreter with no ruff beside it and no site-packages."""
    ruff_script(tmp_path, OLD_RUFF)
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "python3").symlink_to(os.path.realpath(sys._base_executable))
    done = subprocess.run([str(tmp_path / "bin" / "python3"), "-S", "-m", "utils.lint", "import os"], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, env={"PATH": str(tmp_path)})
    assert done.returncode == 0 and done.stdout.startswith(f"lint is off: {tmp_path}/ruff exits 2 on codeloop's rules")
    assert len(done.stdout.splitlines()) == 1


def test_a_ruff_that_hangs_or_crashes_gives_none(monkeypatch, tmp_path):
    ruff = ruff_script(tmp_path, "exec /bin/sleep 5")
    without_the_pinned_ruff(monkeypatch, tmp_path)
    monkeypatch.setattr(lint_module, "TRY_S", 0.5)
    assert lint(CLEAN) is None and lint_off() == f"{ruff} gave no answer within 0.5 s"
    ruff_script(tmp_path, "echo 'ruff: internal error' >&2\nexit 2")
    assert lint(CLEAN) is None and "exits 2" in lint_off()


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
