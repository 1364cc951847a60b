"""Drive main.py --interactive in a pty: answer the question, accept the tests, and after a failed round
delete the failing tests that are the model's own (after the person has read them), then accept."""
import os, pty, re, select, subprocess, sys
leader, follower = pty.openpty()
proc = subprocess.Popen([sys.executable, "main.py", "--interactive", *sys.argv[1:]], stdin=follower, stdout=follower,
                        stderr=follower, cwd=os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))), close_fds=True)
os.close(follower)
screen, sent_upto, rounds = b"", 0, 0
def typed(text):
    os.write(leader, text.encode() + b"\n")
while True:
    r = select.select([leader], [], [], 1)[0]
    if r:
        try:
            chunk = os.read(leader, 4096)
        except OSError:
            break
        if not chunk:
            break
        screen += chunk
        sys.stdout.write(chunk.decode(errors="replace")); sys.stdout.flush()
    tail = screen[sent_upto:]
    if b"Enter to skip) > " in tail:
        typed(os.environ.get("ANSWER", "")); sent_upto = len(screen)
    elif tail.endswith(b"review> "):
        text = tail.decode(errors="replace")
        failing = re.findall(r"^\s+(\d+)\. \S+: .*FAIL", text, re.M)
        if "the code:" in text and failing and rounds == 0:
            typed("d " + " ".join(failing)); rounds += 1
        else:
            typed("a")
        sent_upto = len(screen)
    if proc.poll() is not None and not r:
        break
print("\nexit", proc.wait())
