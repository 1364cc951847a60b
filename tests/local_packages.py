"""A package pip can install without the network: a minimal wheel built by hand (see conftest's
local_wheels fixture, which points pip at a folder holding it)."""
import base64
import hashlib
import os
import zipfile

DEMO = "codeloop_demo_pkg"


def build_wheel(folder, name=DEMO, version="1.0", files=None):
    """A minimal pure-Python wheel: one module (or `files`, {path: text}), METADATA, WHEEL and RECORD."""
    info = f"{name}-{version}.dist-info"
    files = {
        **(files or {f"{name}.py": "def double(x):\n    return 2 * x\n"}),
        f"{info}/METADATA": f"Metadata-Version: 2.1\nName: {name.replace('_', '-')}\nVersion: {version}\n",
        f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: codeloop-tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    record = []
    for path, text in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode()
        record.append(f"{path},sha256={digest},{len(text.encode())}")
    files[f"{info}/RECORD"] = "\n".join(record + [f"{info}/RECORD,,"]) + "\n"
    wheel = os.path.join(folder, f"{name}-{version}-py3-none-any.whl")
    with zipfile.ZipFile(wheel, "w") as archive:
        for path, text in files.items():
            archive.writestr(path, text)
    return wheel
