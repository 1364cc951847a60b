"""The person at the terminal, for --interactive: ask a question, show text, open $EDITOR on a text.

Interaction goes to stderr (where progress goes) and answers come from stdin, so `--json` still
prints only the result on stdout. The editor is the person's own tool, run as they configured it
(`$VISUAL`, then `$EDITOR`, then vi); what they write is treated like any other code: it only ever
runs in the sandbox.

Run alone to try it:  python -m utils.terminal
"""
import os
import shlex
import shutil
import subprocess
import sys
import tempfile


class NoTerminal(RuntimeError):
    """--interactive was asked for where nobody can answer (stdin or stderr is not a terminal)."""


def require_terminal(stdin=None, stderr=None):
    stdin, stderr = stdin or sys.stdin, stderr or sys.stderr
    for name, stream in (("standard input", stdin), ("standard error", stderr)):
        if not (hasattr(stream, "isatty") and stream.isatty()):
            raise NoTerminal(f"--interactive needs a terminal, but {name} is not one; run without --interactive "
                             "(give your tests with --tests FILE instead)")


def editor_command():
    configured = os.environ.get("VISUAL") or os.environ.get("EDITOR")
    if configured:
        return shlex.split(configured)
    found = shutil.which("vi") or shutil.which("nano")
    return [found] if found else None


class Terminal:
    def __init__(self, stdin=None, stdout=None):
        self.stdin, self.stdout = stdin or sys.stdin, stdout or sys.stderr

    def say(self, text=""):
        print(text, file=self.stdout, flush=True)

    def ask(self, prompt):
        """One line from the person, stripped; None at end of input (they closed the terminal)."""
        self.stdout.write(prompt)
        self.stdout.flush()
        line = self.stdin.readline()
        return None if line == "" else line.strip()

    def edit(self, text, suffix):
        """`text` after the person edited it in their editor; None when the editor failed or is missing."""
        command = editor_command()
        if not command:
            self.say("no editor: set $EDITOR (for example EDITOR=nano)")
            return None
        fd, path = tempfile.mkstemp(prefix="codeloop-", suffix=suffix)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
            try:
                done = subprocess.run(command + [path], check=False)
            except OSError as exc:
                self.say(f"the editor {command[0]!r} could not start: {exc.strerror or exc}")
                return None
            if done.returncode != 0:
                self.say(f"the editor exited with status {done.returncode}; nothing changed")
                return None
            with open(path, encoding="utf-8") as f:
                return f.read()
        finally:
            os.unlink(path)


if __name__ == "__main__":
    terminal = Terminal()
    require_terminal()
    name = terminal.ask("your name? ")
    terminal.say(f"hello {name}; now edit a note")
    terminal.say(repr(terminal.edit("a note\n", ".txt")))
