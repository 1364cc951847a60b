from typing import List

def rolling_max(numbers: List[int]) -> List[int]:
  max_indices = []
  stack = []
  for i, num in enumerate(numbers):
    while stack and num > numbers[stack[-1]]:
      max_indices.append(numbers[stack.pop()])
    if not stack:
      max_indices.append(-1)
    stack.append(i)
  return max_indices


run_code = rolling_max  # the answer named its function rolling_max
