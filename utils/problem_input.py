"""Read the problem statement from an argument, a file or stdin, refusing what cannot be a problem.

Every refusal is a ProblemInputError whose message is one line for the user (main.py exits with 2).
"""
import sys

MAX_PROBLEM_CHARS = 50_000  # a long LeetCode statement is ~5,000; past this it is a mistake, not a problem


class ProblemInputError(ValueError):
    pass


def read_problem(argument=None, path=None, stdin=None):
    """The problem text from `argument` (or stdin when it is "-") or from the file at `path`."""
    if argument is not None and path is not None:
        raise ProblemInputError("give the problem either as an argument or with --problem-file, not both")
    if path is not None:
        raw, source = _read_file(path), f"file {path}"
    elif argument == "-":
        stream = stdin if stdin is not None else sys.stdin
        raw, source = _read_limited(stream.buffer if hasattr(stream, "buffer") else stream), "standard input"
    elif argument is not None:
        raw, source = argument.encode("utf-8", "surrogatepass"), "argument"
    else:
        raise ProblemInputError("no problem given: pass it as an argument, with --problem-file FILE, or '-' for stdin")
    return _check_text(raw, source)


def _read_file(path):
    try:
        with open(path, "rb") as f:
            return _read_limited(f)
    except FileNotFoundError:
        raise ProblemInputError(f"problem file not found: {path}") from None
    except IsADirectoryError:
        raise ProblemInputError(f"problem file is a directory: {path}") from None
    except PermissionError:
        raise ProblemInputError(f"problem file is not readable: {path}") from None
    except OSError as exc:
        raise ProblemInputError(f"cannot read problem file {path}: {exc.strerror or exc}") from None


def _read_limited(stream):
    data = stream.read(MAX_PROBLEM_CHARS * 4 + 1)  # enough bytes for the longest allowed UTF-8 text
    return data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data


def _check_text(raw, source):
    if b"\x00" in raw:
        raise ProblemInputError(f"the problem from {source} is binary, not text")
    if len(raw) > MAX_PROBLEM_CHARS * 4:
        raise ProblemInputError(f"the problem from {source} is longer than {MAX_PROBLEM_CHARS:,} characters")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ProblemInputError(f"the problem from {source} is not UTF-8 text") from None
    if not text.strip():
        raise ProblemInputError(f"the problem from {source} is blank")
    if len(text) > MAX_PROBLEM_CHARS:
        raise ProblemInputError(f"the problem from {source} is longer than {MAX_PROBLEM_CHARS:,} characters")
    return text.strip()
