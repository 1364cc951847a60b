"""Read the problem statement from an argument, a file or stdin, refusing what cannot be a problem.

Files and stdin are read by utils/text_files.py's rules (UTF-8, a BOM dropped, no NUL, bounded); every
refusal is an InputError whose message is one line for the user (the CLI exits with 2).
"""
import sys

from utils.text_files import InputError, decode_text, read_text_file, read_text_stream

MAX_PROBLEM_CHARS = 50_000  # a long LeetCode statement is ~5,000; past this it is a mistake, not a problem


def read_problem(argument=None, path=None, stdin=None):
    """The problem text from `argument` (or stdin when it is "-") or from the file at `path`."""
    if argument is not None and path is not None:
        raise InputError("give the problem either as an argument or with --problem-file, not both")
    if path is not None:
        text = read_text_file(path, f"problem file {path}", MAX_PROBLEM_CHARS)
    elif argument == "-":
        stream = stdin if stdin is not None else sys.stdin
        if stream is None or getattr(stream, "closed", False):
            raise InputError("standard input is closed: give the problem as an argument or with --problem-file")
        text = read_text_stream(stream.buffer if hasattr(stream, "buffer") else stream, "the problem from standard input",
                                MAX_PROBLEM_CHARS)
    elif argument is not None:
        text = decode_text(argument.encode("utf-8", "surrogatepass"), "the problem argument", MAX_PROBLEM_CHARS)
    else:
        raise InputError("no problem given: pass it as an argument, with --problem-file FILE, or '-' for stdin")
    return text.strip()
