def check_if_last_char_is_a_letter(txt):
  if len(txt) == 0:
    return False
  last_char = txt[-1]
  if last_char.isalpha() and txt[-2].isspace():
    return True
  return False


run_code = check_if_last_char_is_a_letter  # the answer named its function check_if_last_char_is_a_letter
