def append_characters(s: str, t: str) -> int:
  count = 0
  i = 0
  for char in t:
    while i < len(s) and s[i] != char:
      i += 1
    if i == len(s):
      break
    i += 1
    count += 1
  return len(t) - count


run_code = append_characters  # the answer named its function append_characters
