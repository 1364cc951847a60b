def total_match(lst1, lst2):
  def sum_chars(lst):
    return sum(len(s) for s in lst)
  
  return lst1 if sum_chars(lst1) < sum_chars(lst2) else lst2


run_code = total_match  # the answer named its function total_match
