def rolling_max(numbers: list) -> list:
  if not numbers:
    return []
  
  max_so_far = numbers[0]
  rolling_max_list = [max_so_far]
  
  for i in range(1, len(numbers)):
    max_so_far = max(max_so_far, numbers[i])
    rolling_max_list.append(max_so_far)
  
  return rolling_max_list


run_code = rolling_max  # the answer named its function rolling_max
