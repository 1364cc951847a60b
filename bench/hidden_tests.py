"""Judge a final solution against a problem's hidden tests, in the product's own sandbox (utils/sandbox.py).

Like HumanEval's own harness, the statement's code, the solution and the checker share one namespace
(the checker may call the statement's helpers and the entry point by name); that namespace is not the
sandbox's module, so a recursive run_code still calls itself and not the judge's wrapper.
A `check` is called once with the solution's run_code; `cases` go through run_batch one by one and
are judged as RunTests judges the flow's own tests (utils/compare.judge).
"""
from utils.compare import judge
from utils.sandbox import Limits, run_batch

# Generous: hidden checks run many asserts (HumanEval/32 solves 100 polynomials) in one call.
JUDGE_LIMITS = Limits(test_timeout=30.0, batch_timeout=120.0)

CHECK_PROGRAM = """
__codeloop_ns = {{"__name__": "solution"}}
exec(compile({setup!r}, "statement.py", "exec"), __codeloop_ns)
__codeloop_stub = __codeloop_ns.get({entry_point!r})
exec(compile({code!r}, "solution.py", "exec"), __codeloop_ns)
if {entry_point!r} and __codeloop_ns.get({entry_point!r}) is __codeloop_stub:
    # HumanEval's checks call the entry point by name too: it is the solution unless the code wrote its own
    __codeloop_ns[{entry_point!r}] = __codeloop_ns["run_code"]
exec(compile({check!r}, "hidden_tests.py", "exec"), __codeloop_ns)


def run_code():
    __codeloop_ns["check"](__codeloop_ns["run_code"])
    return True
"""


def judge_hidden(problem, code, isolation, limits=JUDGE_LIMITS):
    """{"passed": bool, "error": one line or None, "cases_passed": n, "cases_total": n}."""
    if not code:
        return {"passed": False, "error": "no code", "cases_passed": 0, "cases_total": len(problem.cases) or 1}
    if problem.check:
        program = CHECK_PROGRAM.format(setup=problem.setup, check=problem.check, code=code,
                                       entry_point=problem.entry_point)
        [result] = run_batch(program, [{}], limits, isolation)
        passed = bool(result["ok"]) and result["value"] is True
        return {"passed": passed, "error": None if passed else _one_line(result),
                "cases_passed": int(passed), "cases_total": 1}
    results = run_batch(problem.setup + "\n" + code, [case["input"] for case in problem.cases], limits, isolation)
    verdicts = [judge(result, case["expected"])["passed"] for result, case in zip(results, problem.cases)]
    first_failure = next((r for r, ok in zip(results, verdicts) if not ok), None)
    return {"passed": all(verdicts), "error": first_failure and _one_line(first_failure, wrong_answer=True),
            "cases_passed": sum(verdicts), "cases_total": len(verdicts)}


def _one_line(result, wrong_answer=False):
    if result["error_type"]:
        message = (result["message"] or "").splitlines()[0][:200] if result["message"] else ""
        return f"{result['error_type']}: {message}".rstrip(": ")
    return f"wrong answer: {result['repr'][:200]}" if wrong_answer else f"check returned {result['repr'][:200]}"
