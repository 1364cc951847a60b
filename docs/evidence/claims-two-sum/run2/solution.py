def run_code(nums, target):
  complement_map = {}
  for i, num in enumerate(nums):
    complement = target - num
    if complement in complement_map:
      return [complement_map[complement], i]
    complement_map[num] = i
  return None
