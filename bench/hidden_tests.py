"""Judge a final solution against a problem's hidden tests, in the product's own sandbox (utils/sandbox.py),
so that the judged code cannot reach the judge.

cases  go through run_batch and are judged as RunTests judges the flow's own tests (utils/compare.judge):
       the expected values never leave codeloop's process.
check  (HumanEval's form: `check(candidate)` asserts on candidate(...) calls) runs in a sandbox of its
       own, the checker, with the statement's code (`setup`, for helpers such as `poly`); `candidate` (and
       the entry point's name) there is a proxy. Each call crosses to the solution in another sandbox
       (utils.sandbox.RunCodeServer) and its value comes back as marshal data (plain values only: no object of the
       solution's can run code in the checker). The verdict is the checker's last line, which the
       solution cannot write: it cannot patch the checker's builtins or reach its output (the checker makes
       itself non-dumpable, so even a solution under the same uid cannot open its /proc files), and a
       verdict counts only with the one-time token the checker was given on its stdin.
"""
import binascii
import json
import secrets
import time

from core.compare import Comparison, judge
from core.problem_kind import Contract, Family, detect
from utils.problem_package import read_package
from utils.sandbox import Limits, RunCodeServer, SandboxProgram, run_batch

# A Kattis package's secret tests (judge_package) run smallest first, CHUNK at a time, stopping at the first chunk
# with a failure: a wrong answer is found without running the megabyte inputs (cases_passed then counts the tests
# run up to it). Each test gets PACKAGE_TEST_S, not the contest's limit (set for the jury's C++, on the judge's
# host), and all of them PACKAGE_TOTAL_S: docs/results.md says so beside the numbers.
CHUNK = 8
PACKAGE_TEST_S = 10.0
PACKAGE_TOTAL_S = 300.0

# Generous: hidden checks run many asserts (HumanEval/32 solves 100 polynomials) in one call.
JUDGE_LIMITS = Limits(test_timeout=30.0, batch_timeout=120.0)

CHECKER = r'''
import binascii, ctypes, json, marshal, os, sys

ctypes.CDLL(None).prctl(4, 0)  # PR_SET_DUMPABLE 0: no other process of this uid may open our /proc files
replies = sys.stdin
verdicts = os.fdopen(os.dup(1), "w")
os.dup2(2, 1)  # what the check prints goes to stderr, never into the verdict channel
sys.stdout = sys.stderr


def tell(event):
    verdicts.write(json.dumps(event) + "\n")
    verdicts.flush()


class CandidateFailed(Exception):
    pass


def candidate(*args, **kwargs):
    tell({"event": "call", "call": binascii.b2a_base64(marshal.dumps((args, kwargs)), newline=False).decode()})
    reply = json.loads(replies.readline())
    if not reply["ok"]:
        raise CandidateFailed(f"{reply['error_type']}: {reply['message']}")
    return marshal.loads(binascii.a2b_base64(reply["raw"]))


job = json.loads(replies.readline())
namespace = {"__name__": "hidden_tests"}
try:
    exec(compile(job["setup"], "statement.py", "exec"), namespace)
    if job["entry_point"]:
        namespace[job["entry_point"]] = candidate  # checks may call the solution by its name too
    exec(compile(job["check"], "hidden_tests.py", "exec"), namespace)
    namespace["check"](candidate)
except BaseException as exc:
    tell({"event": "verdict", "passed": False, "error": f"{type(exc).__name__}: {exc}"[:300], "token": job["token"]})
else:
    tell({"event": "verdict", "passed": True, "token": job["token"]})
'''


def judge_hidden(problem, code, isolation, limits=JUDGE_LIMITS):
    """{"passed": bool, "error": one line or None, "cases_passed": n, "cases_total": n}."""
    if problem.package:
        return judge_package(problem, code, isolation)
    if not code:
        return {"passed": False, "error": "no code", "cases_passed": 0, "cases_total": len(problem.cases) or 1}
    contract = contract_of(problem)
    if problem.check:
        passed, error = run_check(problem, problem.setup + "\n" + code, isolation, limits, contract)
        return {"passed": passed, "error": error, "cases_passed": int(passed), "cases_total": 1}
    results = run_batch(problem.setup + "\n" + code, [case["input"] for case in problem.cases], limits, isolation,
                        contract=contract)
    comparison = Comparison(tokens=problem.family == str(Family.STDIO), tolerance=problem.tolerance)
    verdicts = [judge(result, case["expected"], comparison)["passed"] for result, case in zip(results, problem.cases)]
    first_failure = next((r for r, ok in zip(results, verdicts) if not ok), None)
    return {"passed": all(verdicts), "error": first_failure and _one_line(first_failure, wrong_answer=True),
            "cases_passed": sum(verdicts), "cases_total": len(verdicts)}


def contract_of(problem):
    """What the sandbox's codec needs to call the solution as the run did: the contract of the problem's family
    (bench/leetcode_shapes.py), None for a plain problem (or a set that names no family)."""
    if problem.family in ("", "plain"):
        return None
    return detect(problem.statement, kind=problem.family).for_sandbox()


def run_check(problem, code, isolation, limits, contract=None):
    """(passed, error or None): the checker runs problem.check; each candidate call is relayed to `code`, under
    `contract` (a tree, design or in-place problem's, for the sandbox's codec)."""
    deadline, token = time.monotonic() + limits.batch_timeout, secrets.token_hex(16)
    with RunCodeServer(code, limits, isolation, contract=contract) as solution, SandboxProgram(CHECKER, limits, isolation) as checker:
        checker.send((json.dumps({"setup": problem.setup, "check": problem.check, "entry_point": problem.entry_point,
                                  "token": token}) + "\n").encode())
        while True:
            line = checker.line(deadline - time.monotonic())
            if line is None:
                return False, f"the check did not finish within {limits.batch_timeout:g} s"
            try:
                event = json.loads(line)
                if event["event"] == "verdict":
                    if event["token"] != token:
                        return False, "a verdict without the checker's token"
                    return (True, None) if event["passed"] is True else (False, str(event["error"])[:300])
                reply = solution.call(binascii.a2b_base64(event["call"]))
            except (ValueError, KeyError, TypeError, RecursionError, binascii.Error):
                return False, "the check ended without a verdict"
            checker.send((json.dumps({k: reply.get(k) for k in ("ok", "raw", "error_type", "message")}) + "\n").encode())


def _one_line(result, wrong_answer=False):
    if result["error_type"]:
        message = (result["message"] or "").splitlines()[0][:200] if result["message"] else ""
        return f"{result['error_type']}: {message}".rstrip(": ")
    return f"wrong answer: {result['repr'][:200]}" if wrong_answer else f"check returned {result['repr'][:200]}"


def judge_package(problem, code, isolation, test_s=PACKAGE_TEST_S):
    """{"passed", "error", "cases_passed", "cases_total", "missing"} of `code` on the package's secret tests."""
    package = read_package(problem.package)
    tests = sorted(package.hidden, key=lambda test: (len(test.input_text), test.name))
    total = len(tests)
    if not code or not tests:
        return {"passed": False, "error": "no code" if not code else "no hidden tests", "cases_passed": 0,
                "cases_total": total, "missing": package.missing}
    comparison = Comparison(tokens=True, tolerance=problem.tolerance)
    contract = Contract(Family.STDIO).for_sandbox()
    passed, deadline = 0, time.monotonic() + PACKAGE_TOTAL_S
    for start in range(0, total, CHUNK):
        if time.monotonic() > deadline:
            return {"passed": False, "error": f"the hidden tests took over {PACKAGE_TOTAL_S:g} s ({passed} passed)",
                    "cases_passed": passed, "cases_total": total, "missing": package.missing}
        chunk = tests[start:start + CHUNK]
        limits = Limits(test_timeout=test_s, batch_timeout=test_s * len(chunk) + 30, result_chars=64_000_000)
        results = run_batch(code, [{"stdin": test.input_text} for test in chunk], limits, isolation, contract=contract)
        for test, result in zip(chunk, results):
            if not judge(result, test.answer_text, comparison)["passed"]:
                return {"passed": False, "error": f"{test.name}: {_one_line(result, wrong_answer=True)}", "cases_passed": passed,
                        "cases_total": total, "missing": package.missing}
            passed += 1
    return {"passed": True, "error": None, "cases_passed": passed, "cases_total": total, "missing": package.missing}

