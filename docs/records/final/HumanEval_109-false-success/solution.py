def move_one_ball(arr):
  sorted_arr = sorted(arr)
  for i in range(len(arr)):
    if arr[i:] + arr[:i] == sorted_arr:
      return True
  return False


run_code = move_one_ball  # the answer named its function move_one_ball
