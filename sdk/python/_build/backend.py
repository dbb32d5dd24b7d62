"""In-tree PEP 517 build backend: builds the pure-Python wheel (and sdist)
of the SDK with the standard library only, so `pip install ./sdk/python`
works without downloading setuptools into pip's isolated build
environment (no package index is reachable where the SDK is tested)."""

from __future__ import annotations

import base64
import hashlib
import io
import os
import re
import tarfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = "prospect"


def _project():
    with open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8") as f:
        text = f.read()
    section = text.split("[project]", 1)[1].split("\n[", 1)[0]
    fields = dict(re.findall(r'^(\w[\w-]*)\s*=\s*"([^"]*)"', section, re.M))
    return fields["name"], fields["version"], fields.get("description", ""), fields.get("requires-python", "")


def _metadata():
    name, version, summary, requires = _project()
    meta = f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\nSummary: {summary}\n"
    if requires:
        meta += f"Requires-Python: {requires}\n"
    return name, version, meta


def _files():
    pkg = os.path.join(ROOT, PACKAGE)
    for dirpath, dirnames, filenames in os.walk(pkg):
        dirnames[:] = [d for d in dirnames if d != "__pycache__"]
        for fn in sorted(filenames):
            if fn.endswith((".py", ".typed")):
                full = os.path.join(dirpath, fn)
                yield full, os.path.relpath(full, ROOT).replace(os.sep, "/")


def _record_line(arcname, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{arcname},sha256={digest},{len(data)}"


def _dist_info(name, version):
    return f"{name.replace('-', '_')}-{version}.dist-info"


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    name, version, meta = _metadata()
    d = os.path.join(metadata_directory, _dist_info(name, version))
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "METADATA"), "w", encoding="utf-8") as f:
        f.write(meta)
    return os.path.basename(d)


def _wheel(wheel_directory, files):
    name, version, meta = _metadata()
    dist = _dist_info(name, version)
    wheel_name = f"{name.replace('-', '_')}-{version}-py3-none-any.whl"
    entries = list(files) + [
        (f"{dist}/METADATA", meta.encode()),
        (f"{dist}/WHEEL", b"Wheel-Version: 1.0\nGenerator: prospect-backend\nRoot-Is-Purelib: true\nTag: py3-none-any\n"),
    ]
    records = []
    with zipfile.ZipFile(os.path.join(wheel_directory, wheel_name), "w", zipfile.ZIP_DEFLATED) as z:
        for arc, data in entries:
            z.writestr(arc, data)
            records.append(_record_line(arc, data))
        records.append(f"{dist}/RECORD,,")
        z.writestr(f"{dist}/RECORD", "\n".join(records) + "\n")
    return wheel_name


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    files = []
    for full, arc in _files():
        with open(full, "rb") as f:
            files.append((arc, f.read()))
    return _wheel(wheel_directory, files)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    # A .pth file putting the source tree on sys.path instead of copies.
    name, _, _ = _metadata()
    return _wheel(wheel_directory, [(f"{name.replace('-', '_')}.pth", (ROOT + "\n").encode())])


def get_requires_for_build_editable(config_settings=None):
    return []


def prepare_metadata_for_build_editable(metadata_directory, config_settings=None):
    return prepare_metadata_for_build_wheel(metadata_directory, config_settings)


def build_sdist(sdist_directory, config_settings=None):
    name, version, meta = _metadata()
    base = f"{name.replace('-', '_')}-{version}"
    path = os.path.join(sdist_directory, base + ".tar.gz")
    with tarfile.open(path, "w:gz") as t:
        for rel in ["pyproject.toml", "README.md", "_build/backend.py"] + [arc for _, arc in _files()]:
            t.add(os.path.join(ROOT, rel), arcname=f"{base}/{rel}")
        info = tarfile.TarInfo(f"{base}/PKG-INFO")
        data = meta.encode()
        info.size = len(data)
        t.addfile(info, io.BytesIO(data))
    return os.path.basename(path)
