def run_code(arr):
  if not arr:
    return []
  sorted_arr = sorted(arr)
  reversed_arr = sorted_arr[::-1]
  output = []
  for num in reversed_arr:
    if 1 <= num <= 9:
      output.append(str(num))
  return output
