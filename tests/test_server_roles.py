"""The table server by role (docs/architecture.md, "The table server"): each role in a module
of its own that never imports another role, wired together only by the connection handler,
which stays small enough to read at once."""

from __future__ import annotations

import ast
from pathlib import Path

import sudden_death.server as server_package

SERVER = Path(server_package.__file__).parent
# The roles, each a module of server/roles/ (by its name there); the handler at the top.
ROLES = {"lobby", "gallery", "pairing", "seats", "account_desk"}
HANDLER = "service"


def role(name: str) -> str:
    """A role's module, named inside the server package (`roles.seats`)."""
    return f"roles.{name}"


def imported(module: str) -> set[str]:
    """The server modules `module` (named inside the package: `service`, `roles.seats`)
    imports, each named inside the package too (`roles.seats`, `cluster.fanout`, `tables`)."""
    tree = ast.parse((SERVER / f"{module.replace('.', '/')}.py").read_text(encoding="utf-8"))
    package = module.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level:
            base = package[: len(package) - node.level + 1]
            if node.level > len(package) + 1:
                continue  # beyond the server package (`...wire`)
        elif (node.module or "").startswith("sudden_death.server."):
            base = []
        else:
            continue
        target = [*base, *(node.module or "").removeprefix("sudden_death.server.").split(".")]
        target = [part for part in target if part]
        if node.module:
            found.add(".".join(target))
        else:
            found.update(".".join([*target, alias.name]) for alias in node.names)
    return found


def test_no_role_imports_another_role() -> None:
    for name in sorted(ROLES):
        assert (SERVER / "roles" / f"{name}.py").is_file(), name
        others = imported(role(name)) & {role(other) for other in ROLES - {name}}
        assert not others, f"{name} imports {sorted(others)}: roles talk through the handler"


# 300 until issue 70 hooked the operator's view in (the watch, the probes, the draining flag:
# 17 lines of wiring, no role), and issue 71 the plain HTTP's methods and HEAD (plain.py: one
# import); the roles' own work still never belongs here.
HANDLER_LINES = 325


def test_the_handler_wires_every_role_and_stays_small() -> None:
    assert imported(HANDLER) >= {role(name) for name in ROLES}
    lines = (SERVER / f"{HANDLER}.py").read_text(encoding="utf-8").count("\n")
    assert lines < HANDLER_LINES


def test_the_check_sees_an_import_between_roles() -> None:
    """The import finder itself: a role importing another is seen (as module or as name)."""
    assert role("seats") in imported("service") and role("lobby") in imported("service")
    assert imported(role("lobby")) >= {"cluster.fanout", "lines.postman", "tables", "roles.chat"}
    assert "stores.seam" in imported("stores.sqlite_tables")  # `from . import seam`
    assert "tables" in imported("roles.seats") and "wire" not in imported("roles.seats")


def test_every_role_says_what_it_owns_and_what_it_never_touches() -> None:
    for module in sorted({role(name) for name in ROLES}
                         | {HANDLER, "cluster.fanout", "lines.postman"}):
        path = SERVER / f"{module.replace('.', '/')}.py"
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
        assert doc is not None and len(doc.split()) >= 40, module
        assert "never" in doc.lower(), f"{module}'s docstring says what it never touches"


# No class of the server takes a reader an afternoon (issue 72): Seats, once a class of 640
# lines, is now a record and five named parts (seats.py says which); a class grown past this
# is split the same way, into parts that each hold one concern.
MAX_CLASS_LINES = 300


def classes_over(limit: int) -> list[str]:
    """Every class of the server longer than `limit` lines, as `path:Name (n lines)`."""
    found = []
    for path in sorted(SERVER.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and node.end_lineno is not None:
                lines = node.end_lineno - node.lineno + 1
                if lines > limit:
                    found.append(f"{path.relative_to(SERVER).as_posix()}:{node.name} "
                                 f"({lines} lines)")
    return found


def test_no_server_class_is_over_300_lines() -> None:
    assert classes_over(MAX_CLASS_LINES) == []
    # Not blind: the longest classes are seen under a smaller limit, in packages too.
    longer = classes_over(200)
    assert any(found.startswith("tables.py:Table (") for found in longer), longer
    assert any(found.startswith("cluster/valkey_fanout.py:ValkeyFanOut (") for found in longer)
