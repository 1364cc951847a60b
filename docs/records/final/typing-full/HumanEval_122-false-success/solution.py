def add_elements(arr, k):
  return sum(x for x in arr[:k] if 0 <= x < 100)


run_code = add_elements  # the answer named its function add_elements
