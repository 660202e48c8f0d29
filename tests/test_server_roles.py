"""The table server by role (docs/architecture.md, "The table server"): each role in a module
of its own that never imports another role, wired together only by the connection handler,
which stays small enough to read at once."""

from __future__ import annotations

import ast
from pathlib import Path

import sudden_death.server as server_package

SERVER = Path(server_package.__file__).parent
ROLES = {"lobby", "gallery", "pairing", "seats", "account_desk"}
HANDLER = "service"


def imported(module: str) -> set[str]:
    """The server modules `module` imports (by their names inside the package)."""
    tree = ast.parse((SERVER / f"{module}.py").read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                found.add(node.module.split(".")[0])
            else:
                found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                "sudden_death.server."):
            found.add((node.module or "").split(".")[2])
    return found


def test_no_role_imports_another_role() -> None:
    for role in sorted(ROLES):
        assert (SERVER / f"{role}.py").is_file(), role
        others = imported(role) & (ROLES - {role})
        assert not others, f"{role} imports {sorted(others)}: roles talk through the handler"


# 300 until issue 70 hooked the operator's view in (the watch, the probes, the draining flag:
# 17 lines of wiring, no role), and issue 71 the plain HTTP's methods and HEAD (plain.py: one
# import); the roles' own work still never belongs here.
HANDLER_LINES = 325


def test_the_handler_wires_every_role_and_stays_small() -> None:
    assert imported(HANDLER) >= ROLES
    lines = (SERVER / f"{HANDLER}.py").read_text(encoding="utf-8").count("\n")
    assert lines < HANDLER_LINES


def test_the_check_sees_an_import_between_roles() -> None:
    """The import finder itself: a role importing another is seen (as module or as name)."""
    assert "seats" in imported("service") and "lobby" in imported("service")
    assert imported("lobby") >= {"fanout", "postman", "tables"}


def test_every_role_says_what_it_owns_and_what_it_never_touches() -> None:
    for role in sorted(ROLES | {HANDLER, "fanout", "postman"}):
        doc = ast.get_docstring(ast.parse((SERVER / f"{role}.py").read_text(encoding="utf-8")))
        assert doc is not None and len(doc.split()) >= 40, role
        assert "never" in doc.lower(), f"{role}'s docstring says what it never touches"
