"""--docs: the user's own documentation (files, or folders of text and markdown) as context for the model.

The LangGraph code assistant hands the model a library's docs before it writes code; codeloop does the
same with whatever the user points at. The text goes into the system message of every call, once per
run, so it must fit the embedded model's context (4,096 tokens per slot, shared with the problem, the
instructions and the answer): more than MAX_CHARS is refused with a clear message rather than cut
where the model would silently lose the part that mattered.

Run alone:  python -m utils.docs_context docs/ notes.md
"""
import os
import sys

from utils.text_files import InputError, read_text_file

MAX_CHARS = 6000  # about 1,500 tokens
MAX_FILE_CHARS = 1_000_000  # a file is read whole before the total is checked, so the message can say how much
TEXT_SUFFIXES = (".md", ".markdown", ".txt", ".rst")


def read_docs(paths):
    """The files' text, each under a `# <path>` line, in the order given (a folder's files sorted)."""
    parts = []
    for path in paths:
        for file in _files(path):
            text = read_text_file(file, f"--docs {file}", MAX_FILE_CHARS, empty_ok=True)
            if text.strip():
                parts.append(f"# {file}\n{text.strip()}")
    docs = "\n\n".join(parts)
    if len(docs) > MAX_CHARS:
        raise InputError(f"--docs has {len(docs):,} characters; at most {MAX_CHARS:,} fit the model's context "
                        "next to the problem: point at the relevant pages only")
    return docs


def _files(path):
    if os.path.exists(path) and not os.path.isdir(path):  # a file, or a device or pipe: the reader refuses those
        return [path]
    if os.path.isdir(path):
        found = sorted(os.path.join(folder, name) for folder, _, names in os.walk(path) for name in names
                       if name.lower().endswith(TEXT_SUFFIXES))
        if not found:
            raise InputError(f"--docs {path} has no {', '.join(TEXT_SUFFIXES)} files")
        return found
    raise InputError(f"--docs {path}: no such file or folder")


if __name__ == "__main__":
    try:
        print(read_docs(sys.argv[1:]))
    except InputError as exc:
        sys.exit(f"error: {exc}")
