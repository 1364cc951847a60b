def run_code(nums, target):
  index_map = {}
  for i, num in enumerate(nums):
    if target - num in index_map:
      return [index_map[target - num], i]
    index_map[num] = i
