"""Debian packages that a few tests need (Xvfb, speech-dispatcher, BRLTTY), installed with apt
only when CI asks for them through an environment variable, so that a developer's machine is
never changed behind their back."""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

APT_TIMEOUT = 900.0


def install_requested(require_env: str) -> bool:
    return os.environ.get(require_env, "") not in ("", "0")


def _apt(apt_get: str, *args: str) -> bool:
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    # Wait for a dpkg lock held by another apt run instead of failing at once.
    command = [apt_get, "-o", "DPkg::Lock::Timeout=300", *args]
    try:
        result = subprocess.run(
            command,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=APT_TIMEOUT,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return result.returncode == 0


def ensure_packages(packages: tuple[str, ...], require_env: str,
                    present: Callable[[], bool]) -> bool:
    """Whether `present()` holds, after installing `packages` with apt when `require_env` is set
    (and not "0") and we run as root. Parallel test workers would otherwise all run apt at once:
    the first installs, the rest wait on a lock and then find the packages there."""
    if present() or not install_requested(require_env):
        return present()
    apt_get = shutil.which("apt-get")
    if apt_get is None or os.geteuid() != 0:
        return False
    lock_path = Path(tempfile.gettempdir()) / f"sudden-death-{require_env.lower()}.lock"
    with open(lock_path, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if present():
                return True
            install = ("install", "-y", "--no-install-recommends", *packages)
            if not _apt(apt_get, *install):
                _apt(apt_get, "update")
                _apt(apt_get, *install)
            return present()
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
