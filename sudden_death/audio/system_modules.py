"""Python modules that come with the operating system's packages rather than from PyPI.

speech-dispatcher's client (`speechd`, Debian's python3-speechd) and BrlAPI's (`brlapi`,
python3-brlapi) live in the system Python's folder, which a virtual environment or a packaged
game does not see. They are loaded from there by file, one module at a time: putting the whole
folder on `sys.path` would let the system's copies of other packages shadow the game's own.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

# Where distributions put their Python packages (Debian and Ubuntu first, then Fedora and Arch).
SYSTEM_FOLDERS = (
    "/usr/lib/python3/dist-packages",
    "/usr/lib/python{major}.{minor}/site-packages",
    "/usr/lib64/python{major}.{minor}/site-packages",
    "/usr/local/lib/python{major}.{minor}/dist-packages",
)
# Tests point this at folders of their own (several, separated by os.pathsep).
FOLDERS_VARIABLE = "SUDDEN_DEATH_SYSTEM_PYTHON_PATH"


def system_folders() -> list[Path]:
    override = os.environ.get(FOLDERS_VARIABLE)
    if override is not None:
        return [Path(part) for part in override.split(os.pathsep) if part]
    major, minor = sys.version_info[:2]
    return [Path(folder.format(major=major, minor=minor)) for folder in SYSTEM_FOLDERS]


def load_system_module(name: str) -> ModuleType:
    """`name` as this Python would import it, or else from the system's package folders.

    Raises ImportError when neither has it (or the system's copy was built for another Python,
    which for a compiled module such as brlapi means a different file name)."""
    if name in sys.modules:
        return sys.modules[name]
    if os.environ.get(FOLDERS_VARIABLE) is None:
        try:
            return importlib.import_module(name)
        except ImportError:
            pass
    for folder in system_folders():
        spec = _spec_in(folder, name)
        if spec is None or spec.loader is None:
            continue
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        try:
            spec.loader.exec_module(module)
        except Exception as error:
            del sys.modules[name]
            raise ImportError(f"{name} from {folder} does not load: {error}") from None
        return module
    raise ImportError(f"no module named {name} here or in the system's Python folders")


def _spec_in(folder: Path, name: str) -> importlib.machinery.ModuleSpec | None:
    package = folder / name / "__init__.py"
    if package.is_file():
        return importlib.util.spec_from_file_location(
            name, package, submodule_search_locations=[str(folder / name)])
    for suffix in (*importlib.machinery.EXTENSION_SUFFIXES, ".py"):
        candidate = folder / f"{name}{suffix}"
        if candidate.is_file():
            return importlib.util.spec_from_file_location(name, candidate)
    return None
