"""Text files in and out: read what a person gives codeloop (the problem, --tests, --docs) by the same
rules everywhere, and write codeloop's own files (run.json, solution.py, test_solution.py) atomically.

Text must be UTF-8 (a byte-order mark, as some Windows editors write, is dropped), contain no NUL
byte (that is a binary file), and stay under a size limit (also so that a mistaken path, a device or
a log, is not read forever). Every refusal is an InputError whose message is one line for the user,
starting with what was read ("problem file x.md", "--tests t.yaml"); the CLI exits with 2 on it.

Run alone:  python -m utils.text_files FILE
"""
import errno
import os
import sys


class InputError(ValueError):
    """Input a person gave cannot be used; the message is one line for the user."""


class WriteError(OSError):
    """An output file could not be written (a full disk, a read-only folder); the message is one line."""


def write_atomically(path, text):
    """Write `text` to a temporary file beside `path`, then rename it over `path`: a reader or a crash
    sees the old file or the new one, never half of one. A failure leaves no temporary file behind and
    raises WriteError naming the path and the error."""
    temporary = f"{path}.tmp"
    try:
        with open(temporary, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(temporary, path)
    except OSError as exc:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        code = errno.errorcode.get(exc.errno, "") if exc.errno else ""
        failure = WriteError(f"cannot write {path}: {exc.strerror or exc}" + (f" ({code})" if code else ""))
        failure.errno = exc.errno
        raise failure from None


def read_text_file(path, label, max_chars, empty_ok=False):
    """The file's text. `label` names it in messages, e.g. "--tests t.yaml". A named pipe with no writer
    reads as empty instead of waiting forever (it is opened without blocking, then read as usual)."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        os.set_blocking(descriptor, True)
        with open(descriptor, "rb") as f:
            raw = f.read(max_chars * 4 + 1)  # enough bytes for the longest allowed UTF-8 text
    except FileNotFoundError:
        raise InputError(f"{label}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{label} is a directory, not a file") from None
    except PermissionError:
        raise InputError(f"{label} is not readable (permission denied)") from None
    except OSError as exc:
        raise InputError(f"{label}: {exc.strerror or exc}") from None
    return decode_text(raw, label, max_chars, empty_ok)


def read_text_stream(stream, label, max_chars, empty_ok=False):
    """The text of an open stream (standard input)."""
    data = stream.read(max_chars * 4 + 1)
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    return decode_text(raw, label, max_chars, empty_ok)


def decode_text(raw, label, max_chars, empty_ok=False):
    """Bytes as text, by the rules above."""
    if b"\x00" in raw:
        raise InputError(f"{label} is binary, not text")
    if len(raw) > max_chars * 4:
        raise InputError(f"{label} is longer than {max_chars:,} characters")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError(f"{label} is not UTF-8 text") from None
    if len(text) > max_chars:
        raise InputError(f"{label} is longer than {max_chars:,} characters")
    if not text.strip() and not empty_ok:
        raise InputError(f"{label} is empty")
    return text


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python -m utils.text_files FILE")
    try:
        print(read_text_file(sys.argv[1], sys.argv[1], 1_000_000), end="")
    except InputError as exc:
        sys.exit(f"error: {exc}")
