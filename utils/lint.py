"""Static findings on generated code from ruff, as advice for the model's next try.

Some mistakes (a misspelt name in a branch no test reaches, a mutable default argument, a lambda
that captures a loop variable) pass the tests or fail them far from their cause; a linter names the
line. Ruff only parses the code and never runs it, so it runs here, outside the sandbox; still as a
subprocess with a time limit, the code on its standard input.

Lint is advisory: when ruff is not installed, times out or fails, lint() returns None and the run
goes on without it; lint_off() says why in one line, which the run prints once. It says nothing about
whether the code is correct, only where it looks wrong.

Which ruff: the pinned one first (requirements.txt's, as its package finds its binary; else the one beside
this interpreter), then one on PATH; each is tried once on empty code with the rules below, and the first that
takes them is used. An older ruff first on PATH rejected these rule codes (exit 2) and lint was off in silence.

Run alone:  python -m utils.lint "import os"
"""
import json
import os
import shutil
import subprocess
import sys
from functools import lru_cache

# Only rules that point at a likely bug; style rules (line length, naming, quotes, docstrings) are
# noise for a model whose code is judged by its tests, and would push it to rewrite working code.
#   F      pyflakes: undefined names, unused imports and variables, redefinitions, bad % / format calls
#   E9     the code does not parse (ruff reports syntax errors whatever is selected; kept to say so)
#   B...   bugbear's bug-prone patterns: mutable default (B006), comparison or expression whose result
#          is thrown away (B015, B018), loop variable that overrides its iterable (B020), closure over
#          a loop variable (B023), duplicate set item (B033)
#   PLE    pylint's errors: return/yield in __init__, misplaced bare raise, repeated keyword argument...
#   PLW... pylint's warnings that are mistakes, not taste: useless else on loop, self-assignment,
#          assert on a string, comparison with NaN, `except A or B`
SELECTED = ["F", "E9", "B006", "B015", "B018", "B020", "B023", "B033", "PLE",
            "PLW0120", "PLW0127", "PLW0128", "PLW0129", "PLW0131", "PLW0177", "PLW0711"]
# Star imports (F403, F405) flag every name the import brings in; an f-string without placeholders
# (F541) is harmless.
IGNORED = ["F403", "F405", "F541"]

CODE_FILE = "solution.py"  # the name ruff gives the code, the one the sandbox uses too
TRY_S = 10  # for a ruff's first check on empty code (a few hundredths of a second when it works)


def lint(code, timeout=10, builtins=()):
    """Findings [{code, line, message}] sorted by line, [] for clean code, None when ruff is unavailable or fails.
    `builtins`: names the sandbox defines for the code (a tree problem's TreeNode), not undefined names (F821)."""
    ruff, _ = find_ruff()
    if ruff is None:
        return None
    try:
        done = _check(ruff, code, timeout, builtins)
        if done.returncode not in (0, 1):  # 1 means findings; anything else is ruff failing
            return None
        reported = json.loads(done.stdout)
        findings = sorted(({"code": item.get("code") or "invalid-syntax",  # older ruff: a null code
                            "line": int(item["location"]["row"]), "column": int(item["location"]["column"]),
                            "message": item["message"]} for item in reported),
                          key=lambda finding: (finding["line"], finding["column"]))
    except (OSError, subprocess.SubprocessError, ValueError, KeyError, TypeError):
        return None
    return [{"code": f["code"], "line": f["line"], "message": f["message"]} for f in findings]


def describe(findings, limit=5):
    """One short line per finding, `line 3: F821 Undefined name `x``, at most `limit` of them; "" when none."""
    if not findings:
        return ""
    lines = [f"line {f['line']}: {f['code']} {f['message']}" for f in findings[:limit]]
    if len(findings) > limit:
        lines.append(f"(and {len(findings) - limit} more)")
    return "\n".join(lines)


def _check(ruff, code, timeout, builtins=()):
    command = [ruff, "check", "--stdin-filename", CODE_FILE, "--output-format", "json", "--no-cache",
               "--isolated", "--select", ",".join(SELECTED), "--ignore", ",".join(IGNORED), "-"]
    if builtins:
        command[-1:] = ["--config", f"builtins={list(builtins)!r}", "-"]
    return subprocess.run(command, input=code, capture_output=True, text=True, timeout=timeout)


def candidates():
    """The ruff binaries to try, the pinned one first: its package's own (pip's scripts folder, pipx's), the one
    beside this interpreter (a venv that is not activated), then the first on PATH."""
    found = []
    try:
        from ruff import find_ruff_bin  # the pinned package, when it is installed with codeloop
        found.append(find_ruff_bin())
    except (ImportError, OSError):
        pass
    beside = os.path.join(os.path.dirname(sys.executable), "ruff")
    found += [beside if os.path.isfile(beside) and os.access(beside, os.X_OK) else None, shutil.which("ruff")]
    return tuple(dict.fromkeys(path for path in found if path))


def find_ruff():
    """(the first ruff that takes codeloop's rules, "") or (None, why lint is off)."""
    return _first_that_works(tuple((path, _changed(path)) for path in candidates()))


def _changed(path):
    try:
        stat = os.stat(path)
        return stat.st_mtime_ns, stat.st_size, stat.st_ino
    except OSError:
        return None


@lru_cache(maxsize=8)
def _first_that_works(paths):
    """Each ruff tried once on empty code (a run asks for the same few many times), again when it changed."""
    why = "ruff is not installed (pip install -r requirements.txt installs the pinned one)"
    for path, _ in paths:
        try:
            done = _check(path, "", timeout=TRY_S)
        except subprocess.TimeoutExpired:
            why = f"{path} gave no answer within {TRY_S:g} s"
            continue
        except (OSError, subprocess.SubprocessError) as exc:
            why = f"{path} does not run ({exc.strerror or exc})"
            continue
        if done.returncode == 0:
            return path, ""
        said = (done.stderr.strip().splitlines() or [""])[0][:120]
        why = f"{path} exits {done.returncode} on codeloop's rules" + (f" ({said})" if said else "")
    return None, why


def lint_off():
    """Why lint cannot run here, in one line, or "" when it can."""
    return find_ruff()[1]


if __name__ == "__main__":
    findings = lint(sys.argv[1] if len(sys.argv) > 1 else sys.stdin.read())
    print(f"lint is off: {lint_off()}" if findings is None else describe(findings, limit=50) or "no findings")
