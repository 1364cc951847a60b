"""A number answer judged within the statement's own tolerance, end to end: a scripted model over HTTP, the real
sandbox, main.py's flow, the exported tests.

New 21 Game (LeetCode 837) prints its answers to five decimals and says answers "within 10-5 of the actual
answer are considered accepted" (10^-5 as text pasted from the web page reads). Its Example 3 gives 0.73278
for 0.7327777...: compared within one part in a million, as every float was before the stated tolerance was
read, no right program could pass that example, so the problem could never be solved.
"""
from flow import create_flow
from tests.scripted_answers import code_answer, exported_result, function_of, handed_over

NEW_21_GAME = """New 21 Game

Alice starts with 0 points and draws numbers while she has less than `k` points. During each draw, she
gains an integer number of points randomly from the range `[1, maxPts]`, where `maxPts` is an integer. Each
draw is independent and the outcomes have equal probabilities.

Alice stops drawing numbers when she gets `k` or more points.

Return the probability that Alice has `n` or fewer points.

Answers within `10-5` of the actual answer are considered accepted.

Example 1:
Input: n = 10, k = 1, maxPts = 10
Output: 1.00000

Example 2:
Input: n = 6, k = 1, maxPts = 10
Output: 0.60000

Example 3:
Input: n = 21, k = 17, maxPts = 10
Output: 0.73278

Constraints:
0 <= k <= n <= 104
1 <= maxPts <= 104

Function signature: def new21_game(n: int, k: int, max_pts: int) -> float
"""

# two right programs written apart (a window over the chances of each total, forwards and backwards)
FORWARD = """def run_code(n, k, max_pts):
    if k == 0 or n >= k - 1 + max_pts:
        return 1.0
    chance = [0.0] * (n + 1)
    chance[0], window, answer = 1.0, 1.0, 0.0
    for x in range(1, n + 1):
        chance[x] = window / max_pts
        if x < k:
            window += chance[x]
        else:
            answer += chance[x]
        if x - max_pts >= 0:
            window -= chance[x - max_pts]
    return answer
"""
BACKWARD = """def run_code(n, k, max_pts):
    ends = [1.0 if k <= x <= n else 0.0 for x in range(k + max_pts)]
    window = sum(ends[k:k + max_pts])
    for x in range(k - 1, -1, -1):
        ends[x] = window / max_pts
        window += ends[x] - ends[x + max_pts]
    return ends[0]
"""
# the oracle: every total's chance, card by card
EVERY_TOTAL = """def run_code(n, k, max_pts):
    chance = [0.0] * (k + max_pts)
    chance[0] = 1.0
    for points in range(k):
        for card in range(1, max_pts + 1):
            chance[points + card] += chance[points] / max_pts
    return sum(chance[points] for points in range(k, min(n, k + max_pts - 1) + 1))
"""
TWO_PLACES = FORWARD.replace("    return answer\n", "    return round(answer, 2)\n")  # 0.73, not within 10^-5
# the model's own expected values, written to five places as the statement writes them
TESTS = """```yaml
reasoning: no draw at all, one card, a longer game
test_cases:
  - {name: no_draw, input: {n: 0, k: 0, max_pts: 1}, expected: 1.0}
  - {name: one_card, input: {n: 1, k: 1, max_pts: 2}, expected: 0.5}
  - {name: ten_to_ten, input: {n: 10, k: 10, max_pts: 10}, expected: 0.23579}
```"""


def solved_run(make_shared, stub):
    stub.route("tests", TESTS)
    stub.route("code", *[code_answer(code) for code in (FORWARD, BACKWARD, BACKWARD)])
    stub.route("oracle", code_answer(EVERY_TOTAL))
    shared = make_shared(NEW_21_GAME, model_tests="first", speed_limit=0)
    create_flow(shared["services"].settings).run(shared)
    return shared


def test_an_answer_rounded_as_the_statement_prints_it_passes_within_the_stated_tolerance(make_shared, stub):
    assert function_of(FORWARD)(21, 17, 10) != 0.73278, "the example's answer is rounded"
    shared = solved_run(make_shared, stub)
    assert shared["status"] == "solved", shared["message"]
    kind = shared["output_kind"]
    assert (kind.kind, kind.tolerance) == ("float", 1e-5) and "10-5 of the actual answer" in kind.reason
    results = {case.name: r["passed"] for case, r in zip(shared["test_cases"], handed_over(shared).results)}
    assert results["example_3"] and results["ten_to_ten"], results


def test_the_exported_tests_keep_the_tolerance_and_still_reject_an_answer_outside_it(make_shared, stub, tmp_path):
    from utils.export import write_outputs
    shared = solved_run(make_shared, stub)
    write_outputs(str(tmp_path), handed_over(shared).code, shared["test_cases"], shared["output_kind"].comparison)
    for code, passes in ((BACKWARD, True), (EVERY_TOTAL, True), (TWO_PLACES, False)):
        result = exported_result(tmp_path, code)
        assert (result.returncode == 0) == passes, result.stdout
