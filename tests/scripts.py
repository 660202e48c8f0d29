"""The project's own scripts (tasks.py, tools/, benchmarks/), loaded as modules for a test:
they are not in the package, so they are imported by path."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def load_script(relative: str, name: str | None = None) -> ModuleType:
    """The script at `relative` (to the repository), run once as a module named `name` (its
    file's stem by default). It is in `sys.modules` while it runs, for a dataclass that looks
    its module up there."""
    path = ROOT / relative
    spec = importlib.util.spec_from_file_location(name or path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[spec.name]
    return module
