"""utils/problem_input.py: where the problem comes from, and what is refused."""
import io

import pytest

from utils.problem_input import MAX_PROBLEM_CHARS, read_problem
from utils.text_files import InputError


def test_argument():
    assert read_problem("  Two Sum: find indices.  ") == "Two Sum: find indices."


def test_file(tmp_path):
    path = tmp_path / "p.md"
    path.write_text("Reverse a string. ünïcode ok\n")
    assert read_problem(path=str(path)) == "Reverse a string. ünïcode ok"


def test_a_byte_order_mark_is_not_part_of_the_problem(tmp_path):
    path = tmp_path / "p.md"
    path.write_bytes("\ufeffReverse a string.\n".encode("utf-8"))  # as some Windows editors save it
    assert read_problem(path=str(path)) == "Reverse a string."


def test_stdin():
    assert read_problem("-", stdin=io.TextIOWrapper(io.BytesIO(b"From stdin\n"))) == "From stdin"


@pytest.mark.parametrize("make, complaint", [
    (lambda p: dict(argument="   \n\t"), "empty"),
    (lambda p: dict(path=str(p / "missing.md")), "no such file"),
    (lambda p: dict(path=str(p)), "directory"),
    (lambda p: dict(argument="x" * (MAX_PROBLEM_CHARS + 1)), "longer than"),
    (lambda p: dict(), "no problem given"),
    (lambda p: dict(argument="a", path="b"), "not both"),
])
def test_refusals(tmp_path, make, complaint):
    with pytest.raises(InputError, match=complaint):
        read_problem(**make(tmp_path))


def test_binary_file_is_refused(tmp_path):
    path = tmp_path / "p.bin"
    path.write_bytes(b"\x7fELF\x00\x01\x02")
    with pytest.raises(InputError, match="binary"):
        read_problem(path=str(path))


def test_non_utf8_file_is_refused(tmp_path):
    path = tmp_path / "p.txt"
    path.write_bytes("caf\xe9".encode("latin-1"))
    with pytest.raises(InputError, match="not UTF-8"):
        read_problem(path=str(path))


def test_a_huge_file_is_refused_without_reading_it_all(tmp_path):
    path = tmp_path / "big.txt"
    with open(path, "wb") as f:
        f.write(b"x" * 300_000)
        f.truncate(1024**3)  # sparse: a gigabyte on paper
    with pytest.raises(InputError, match="longer than"):
        read_problem(path=str(path))  # reads at most 200 KB, so the NULs further on are never seen
