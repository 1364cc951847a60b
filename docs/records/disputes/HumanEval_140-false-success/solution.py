def fix_spaces(text):
  result = ''
  i = 0
  while i < len(text):
    if text[i] == ' ':
      if i + 1 < len(text) and text[i + 1] == ' ':
        if i + 2 < len(text) and text[i + 2] == ' ':
          result += '-'
          i += 3
        else:
          result += '_'
          i += 2
      else:
        result += '_'
        i += 1
    else:
      result += text[i]
      i += 1
  return result


run_code = fix_spaces  # the answer named its function fix_spaces
