"""Third-party imports of generated code, and installing them where only the sandbox can see them.

  third_party_imports(code)  the top-level modules the code imports that are not in the standard library
                             (unguarded, absolute imports only, as the import check sees them)
  distribution_for(module)   the PyPI name to install for an import name (sklearn -> scikit-learn)
  install(modules)           pip installs their distributions into a cached folder that run_batch(...,
                             packages=path) puts on the sandbox's sys.path; never into the user's environment

How an install runs:  <this python> -m pip --python <sandbox python> install --target DIR --only-binary :all:
  --only-binary :all:  wheels only, so no setup.py of a package the model named runs at install time:
                       package code only ever runs inside the sandbox, when the generated code imports it.
  --target DIR         a plain folder, outside every environment (and outside PEP 668's checks).
  --python             pip resolves and compiles for the sandbox's interpreter (/usr/bin/python3), which may
                       differ from the one running codeloop. pip >= 22.3 has it; checked with pip 23.2.1.
pip reads its usual configuration and PIP_* variables (index, proxy, find-links): PIP_NO_INDEX=1 with
PIP_FIND_LINKS=DIR installs from local wheels only, as the tests do. The whole install has one time budget;
when it runs out pip's process group is killed. If the whole set fails, the distributions are retried one
at a time (each with the ones that worked so far), so one bad name does not block the rest.

The cache: ROOT/envs/<hash of the sorted distributions and the sandbox interpreter's version>. Each folder is
built under a temporary name beside its final one and renamed only when pip succeeds, so a killed install
never leaves a half-filled folder that looks finished; a folder that exists is reused without running pip.
Only successful sets are cached on disk; a distribution with no wheel is remembered for the rest of the
process (so the code that keeps importing it costs no more pip runs), other failures (network, timeout)
are retried next time.
ROOT is install()'s `cache_root` if given, else $CODELOOP_PACKAGES, else <tempdir>/codeloop-packages-<uid>. Not
~/.cache: the sandbox runs the code as `nobody` (when codeloop runs as root) and /root is mode 700, so it
could not read the packages. The folder must be readable by the sandbox user and writable by nobody but
us, or sandboxed code (or another local user) could plant modules that later runs import. So ROOT is
created 0755, and refused (PackageCacheError) when it is a symlink, owned by another uid (a folder squatted
in /tmp), group- or world-writable, or unreachable by `nobody`; installed files are made read-only for
everyone else. With bwrap the folder is also bound read-only. What this does not stop: when codeloop runs
as an ordinary user without bwrap, the sandboxed code runs as that same user and could write to the cache,
as it could to the rest of that user's files.

Run alone:  python -m utils.packages "import numpy as np" [--install]
"""
import ast
import hashlib
import json
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from core.source_code import parsed
from utils.code_checks import import_lines
from utils.sandbox import UNPRIVILEGED_USER, sandbox_python

# import names whose PyPI distribution has another name; anything else installs under its own name
DISTRIBUTIONS = {
    "sklearn": "scikit-learn", "cv2": "opencv-python-headless", "PIL": "pillow", "yaml": "pyyaml",
    "bs4": "beautifulsoup4", "dateutil": "python-dateutil", "skimage": "scikit-image",
    "Crypto": "pycryptodome", "attr": "attrs", "Bio": "biopython", "dotenv": "python-dotenv",
}
DISTRIBUTION_NAME = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$")  # PEP 508: never an option
PARTIAL_PREFIX = ".partial-"
STALE_PARTIAL_S = 24 * 3600  # a temporary folder this old belongs to an install that was killed
NO_WHEEL = "no wheel found"
_no_wheel_before = set()  # distributions pip found no wheel for in this process: not asked again


class PackageCacheError(RuntimeError):
    """The package cache folder is unsafe or unusable (squatted, writable by others, unreachable)."""


@dataclass
class Installation:
    path: str | None                 # the folder to pass to run_batch(packages=...); None when nothing installed
    installed: list[str] = field(default_factory=list)      # distributions that are in `path`
    failed: dict[str, str] = field(default_factory=dict)    # distribution -> one-line reason
    seconds: float = 0.0
    cached: bool = False             # `path` existed already: pip did not run

    def report(self):
        """One line for the user: what was installed (with versions) where, and what was not, and why."""
        parts = []
        if self.installed:
            versions = _versions_in(self.path)
            named = ", ".join(f"{d} {versions.get(_normalized(d), '')}".strip() for d in self.installed)
            parts.append(f"using cached {named} from {self.path}" if self.cached
                         else f"installed {named} into {self.path} ({self.seconds:.1f} s)")
        parts += [f"{dist}: {reason} (not installed)" for dist, reason in self.failed.items()]
        return "; ".join(parts) or "no third-party packages to install"


def third_party_imports(code):
    """Top-level names of the modules `code` imports outside the standard library, sorted; [] if it does not parse.

    The same imports the import check runs (utils.code_checks.import_lines): relative imports and those
    inside a try statement (an ImportError fallback) are left out.
    """
    names = set()
    for node in parsed(import_lines(code)).body:
        if isinstance(node, ast.Import):
            names.update(alias.name.partition(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module.partition(".")[0])
    return sorted(name for name in names if name not in sys.stdlib_module_names)


def distribution_for(module):
    """The PyPI distribution that provides the import name `module`."""
    return DISTRIBUTIONS.get(module, module)


def safe_cache_root(path=None):
    """The package cache folder, created 0755 if missing; PackageCacheError if it is not safe to use."""
    root = Path(path or os.environ.get("CODELOOP_PACKAGES")
                or Path(tempfile.gettempdir(), f"codeloop-packages-{os.geteuid()}")).absolute()
    try:
        root.mkdir(mode=0o755, parents=True)
        os.chmod(root, 0o755)  # mkdir's mode is masked by the umask
    except FileExistsError:
        pass
    info = os.lstat(root)
    if not stat.S_ISDIR(info.st_mode):
        raise PackageCacheError(f"the package cache {root} is not a directory (a symlink or a file); "
                                "remove it or set CODELOOP_PACKAGES")
    if info.st_uid != os.geteuid():
        raise PackageCacheError(f"the package cache {root} belongs to uid {info.st_uid}, not to us "
                                f"({os.geteuid()}): it could hold planted modules; remove it or set CODELOOP_PACKAGES")
    if info.st_mode & 0o022:
        raise PackageCacheError(f"the package cache {root} is group- or world-writable (mode {info.st_mode & 0o777:o}):"
                                " anyone could plant modules in it; chmod 755 it or set CODELOOP_PACKAGES")
    if os.geteuid() == 0:  # the sandbox drops to `nobody` only when we are root
        for folder in (root, *root.parents):
            if not os.stat(folder).st_mode & stat.S_IXOTH:
                raise PackageCacheError(f"the sandbox user {UNPRIVILEGED_USER} cannot reach the package cache {root}: "
                                        f"{folder} is mode {os.stat(folder).st_mode & 0o777:o}; set CODELOOP_PACKAGES")
    return root


def install(modules, cache_root=None, timeout=300):
    """Install the distributions for the import names `modules` into a cached folder for the sandbox.

    Never raises for a package that cannot be installed (see Installation.failed); raises
    PackageCacheError when the cache folder is unsafe.
    """
    started = time.monotonic()
    wanted = sorted({distribution_for(module) for module in modules})
    failed = {dist: "not a valid distribution name" for dist in wanted if not DISTRIBUTION_NAME.match(dist)}
    failed.update({dist: NO_WHEEL for dist in wanted if dist in _no_wheel_before})
    wanted = [dist for dist in wanted if dist not in failed]
    if not wanted:
        return Installation(None, [], failed, 0.0, False)
    envs = _envs_folder(safe_cache_root(cache_root))
    final = envs / _cache_key(wanted)
    if final.is_dir():
        return Installation(str(final), wanted, failed, time.monotonic() - started, True)
    deadline = started + timeout
    folder, reason = _build(wanted, envs, deadline, timeout)
    installed = wanted if folder else []
    if folder is None and len(wanted) > 1 and "timed out" not in reason:
        for dist in wanted:  # one at a time, each with those that worked so far, so the set stays consistent
            attempt, reason = _build(installed + [dist], envs, deadline, timeout)
            if attempt is None:
                failed[dist] = reason
                continue
            if folder:
                shutil.rmtree(folder, ignore_errors=True)
            folder, installed = attempt, installed + [dist]
    elif folder is None:
        failed.update({dist: reason for dist in wanted})
    _no_wheel_before.update(dist for dist, why in failed.items() if why == NO_WHEEL)
    path = _publish(folder, envs / _cache_key(installed)) if folder else None
    return Installation(path, installed, dict(sorted(failed.items())), round(time.monotonic() - started, 3), False)


def _envs_folder(root):
    envs = root / "envs"
    envs.mkdir(mode=0o755, exist_ok=True)
    os.chmod(envs, 0o755)
    for entry in envs.iterdir():
        if entry.name.startswith(PARTIAL_PREFIX) and time.time() - entry.stat().st_mtime > STALE_PARTIAL_S:
            shutil.rmtree(entry, ignore_errors=True)
    return envs


@lru_cache(maxsize=None)
def _interpreter_version(python):
    return subprocess.run([python, "-I", "-S", "-c", "import sys; print(sys.version)"],
                          capture_output=True, text=True, timeout=30, check=True).stdout.strip()


def _cache_key(distributions):
    text = json.dumps([sorted(distributions), _interpreter_version(sandbox_python())])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _build(distributions, envs, deadline, timeout):
    """pip install into a new temporary folder in `envs`: (folder, "") on success, else (None, one-line reason)."""
    folder = tempfile.mkdtemp(prefix=PARTIAL_PREFIX, dir=envs)
    remaining = deadline - time.monotonic()
    reason = f"timed out after {timeout:g} s" if remaining <= 0 else _run_pip(distributions, folder, remaining, timeout)
    if reason:
        shutil.rmtree(folder, ignore_errors=True)
        return None, reason
    return folder, ""


def _run_pip(distributions, target, seconds, timeout):
    """Run pip for at most `seconds`; "" on success, else a one-line reason."""
    argv = [sys.executable, "-m", "pip", "--python", sandbox_python(), "install", "--target", target,
            "--only-binary", ":all:", "--no-input", "--disable-pip-version-check", "--quiet", *distributions]
    # --user or require-virtualenv in the user's pip configuration would refuse --target
    env = {**os.environ, "PIP_USER": "0", "PIP_REQUIRE_VIRTUALENV": "0"}
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=env, start_new_session=True)
    try:
        _, stderr = proc.communicate(timeout=seconds)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)  # pip --python runs a second pip under the sandbox interpreter
        proc.communicate()
        return f"timed out after {timeout:g} s"
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)  # anything pip left behind in its group
        except ProcessLookupError:
            pass
    return "" if proc.returncode == 0 else _one_line_reason(stderr.decode("utf-8", "replace"), proc.returncode)


def _one_line_reason(stderr, returncode):
    if "No matching distribution found" in stderr:
        return NO_WHEEL  # with --only-binary: no such project, or none of its wheels fits this Python
    errors = [line[len("ERROR:"):].strip() for line in stderr.splitlines() if line.startswith("ERROR:")]
    lines = errors or [line.strip() for line in stderr.splitlines() if line.strip()]
    return (lines[-1] if lines else f"pip exited with status {returncode}")[:200]


def _publish(folder, final):
    """Make the finished folder read-only for everyone but us, then give it its final name."""
    for parent, dirs, files in os.walk(folder):
        for name in dirs + files:
            path = os.path.join(parent, name)
            if os.path.islink(path):
                continue
            mode = os.stat(path).st_mode & 0o7777 & ~0o022
            os.chmod(path, mode | (0o555 if name in dirs or mode & 0o100 else 0o444))
    os.chmod(folder, 0o755)
    try:
        os.rename(folder, final)
    except OSError:  # another run published the same set first: theirs is as good as ours
        shutil.rmtree(folder, ignore_errors=True)
        if not final.is_dir():
            raise
    return str(final)


def _normalized(name):
    return re.sub(r"[-_.]+", "-", name).lower()


def _versions_in(path):
    """{normalized distribution name: version} from the *.dist-info folders pip left in `path`."""
    versions = {}
    for entry in os.listdir(path) if path and os.path.isdir(path) else []:
        if entry.endswith(".dist-info") and "-" in entry:
            name, version = entry[: -len(".dist-info")].rsplit("-", 1)
            versions[_normalized(name)] = version
    return versions


if __name__ == "__main__":
    source = next((arg for arg in sys.argv[1:] if arg != "--install"), None) or sys.stdin.read()
    found = third_party_imports(source)
    print("third-party imports:", ", ".join(f"{m} ({distribution_for(m)})" for m in found) or "none")
    if found and "--install" in sys.argv:
        print(install(found).report())
