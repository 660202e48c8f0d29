"""The package's shape stays as docs/architecture.md draws it: modules import each other without
a cycle (type-only imports included), and imports sit at the top of modules except the few that
start-up needs inside functions, each listed here with its reason."""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "sudden_death"

# (module, imported name): why it is imported inside a function. docs/architecture.md repeats it.
LATE_IMPORTS = {
    ("sudden_death.__main__", "ui.run.loop"):
        "pygame greets on stdout unless told not to before its first import",
    ("sudden_death.ui.table", "net.link"):
        "websockets and asyncio take about 65 ms at start-up; only a table needs them",
    ("sudden_death.ui.table", "server.home"):
        "the same: the table served inside the game, handed to the link, only when hosting",
    ("sudden_death.ui.friends", "net.discovery"):
        "zeroconf takes about 80 ms at start-up; only joining on the home network needs it",
    ("sudden_death.__main__", "server.__main__"):
        "`--serve` runs the table server alone: no pygame, no audio",
    ("sudden_death.audio.synth", "pyttsx3"):
        "the eSpeak NG library and its data path must be set before pyttsx3 loads",
    ("sudden_death.audio.synth", "pyttsx3.drivers"): "the same, for its eSpeak driver",
    ("sudden_death.audio.espeak_setup", "espeakng_loader"):
        "optional: its absence is a spoken notice, not an import error",
    ("sudden_death.audio.espeak_setup", "importlib.metadata"): "over 20 ms at start-up",
    ("sudden_death.audio.prism_output", "prism"):
        "Windows and macOS only, and only when the player asks for their screen reader",
    ("sudden_death.audio.espeak_manifest", "hashlib"):
        "about 4 ms, paid on the speech worker's thread instead of at start-up",
    ("sudden_death.server.__main__", "web.site"):
        "the page's views bring the desktop game's word modules: only a served page needs them",
    ("sudden_death.server.__main__", "stores.postgres_tables"):
        "psycopg is the server extra's: only --postgres needs it, a player installs none",
    ("sudden_death.server.__main__", "stores.postgres_accounts"): "the same, for the accounts",
    ("sudden_death.server.__main__", "stores.postgres_schema"): "the same, for its SchemaTooNew",
    ("sudden_death.server.__main__", "cluster.valkey_lobby"):
        "redis-py is the server extra's: only --valkey needs it, a player installs none",
    ("sudden_death.server.__main__", "cluster.valkey_routes"): "the same, for the tables' routes",
    ("sudden_death.server.__main__", "cluster.valkey_quick"): "the same, for the quick games",
    ("sudden_death.server.__main__", "cluster.valkey_tally"): "the same, for the limits' counts",
    ("sudden_death.server.__main__", "cluster.valkey_fanout"):
        "the same, for its ValkeyUnreachable, the lobby's chat and readiness's PING",
    ("sudden_death.server.__main__", "operations.metrics"):
        "prometheus_client is the server extra's: only --metrics-from needs it",
}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, ast.Module]:
    return {module_name(path): ast.parse(path.read_text(encoding="utf-8"))
            for path in sorted(PACKAGE.rglob("*.py"))}


def imported(name: str, is_package: bool, node: ast.ImportFrom | ast.Import) -> list[str]:
    """Every module `node` imports, absolute."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:
        parts = name.split(".")
        parts = parts[: len(parts) - node.level + (1 if is_package else 0)]
        base = ".".join([*parts, *([node.module] if node.module else [])])
    return [base, *(f"{base}.{alias.name}" for alias in node.names)]


def import_graph() -> dict[str, set[str]]:
    found = modules()
    packages = {path for path in found if (PACKAGE.parent / path.replace(".", "/")).is_dir()}
    graph: dict[str, set[str]] = {}
    for name, tree in found.items():
        targets = set()
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                targets |= {t for t in imported(name, name in packages, node) if t in found}
        graph[name] = targets - {name}
    return graph


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Every circle of imports found walking `edges` (module: the modules it imports), each
    as the path round it (tests/test_bench_imports.py walks the benchmarks with it too)."""
    found: list[list[str]] = []
    state: dict[str, int] = {}  # 1 on the current path, 2 done

    def visit(name: str, path: list[str]) -> None:
        state[name] = 1
        for target in sorted(edges.get(name, ())):
            if state.get(target) == 1:
                found.append([*path[path.index(target):], target])
            elif target not in state:
                visit(target, [*path, target])
        state[name] = 2

    for name in sorted(edges):
        if name not in state:
            visit(name, [name])
    return found


def test_no_module_imports_itself_back_through_others() -> None:
    edges = {name: {target for target in targets  # a package and its own modules aside
                    if not (target.startswith(f"{name}.") or name.startswith(f"{target}."))}
             for name, targets in import_graph().items()}
    assert not cycles(edges), cycles(edges)


# The front end's layers, lowest first (docs/architecture.md): a module imports from its own
# group and from the layers below it, never from a layer above or from a neighbour of its layer.
# The games and their seats, modules at the root of `ui`, may import each other.
GAMES_LAYER = ("session", "play", "computer_game", "table_game", "table", "friends", "online")
UI_LAYERS: tuple[tuple[str, ...], ...] = (
    ("keys",),
    ("words",),
    ("screens",),
    ("aids", "window"),
    GAMES_LAYER,
    ("in_game", "files"),  # the app's helpers: neighbours that never import each other
    ("app",),
    ("run",),
)


def ui_place(module: str) -> tuple[int, str] | None:
    """(layer, group) of a front-end module; None outside `ui` (or for `ui` itself)."""
    parts = module.split(".")
    if parts[:2] != ["sudden_death", "ui"] or len(parts) < 3:
        return None
    for rank, groups in enumerate(UI_LAYERS):
        if parts[2] in groups:
            return rank, parts[2]
    raise AssertionError(f"{module} is in no layer of UI_LAYERS")


def test_the_front_end_imports_only_downwards() -> None:
    upward = []
    for name, targets in import_graph().items():
        here = ui_place(name)
        for target in targets:
            there = ui_place(target)
            if here is None or there is None:
                continue
            if there[0] > here[0] or (there[0] == here[0] and there[1] != here[1]
                                      and here[0] != UI_LAYERS.index(GAMES_LAYER)):
                upward.append(f"{name} -> {target}")
    assert not upward, upward


# The package's top-level parts, lowest first (docs/architecture.md): each imports only from its
# own part and the tiers before it, never from a neighbour in its own tier. The wire format sits
# below both the game's link (`net`) and the table server (`server`), which are neighbours: the
# server's code reaches the link only as an argument, handed in by the front end.
PACKAGE_ORDER: tuple[tuple[str, ...], ...] = (
    ("__init__", "language", "resources"),  # the version, the player's language, bundled files
    ("engine",),  # the rules
    ("wire",),  # the table protocol's messages
    ("storage", "simulate"),  # what the game keeps on disk; the simulator and its report
    ("server", "net"),  # the table server; the game's line to one
    ("audio",),  # speech and cues
    ("ui",),  # the front end
    ("web",),  # the browser seat: its page, and its words from the front end's (issue 64)
    ("__main__",),  # the command line's first step
)


def part_of(module: str) -> str:
    """The top-level part a module belongs to (`sudden_death.ui.app` is in `ui`). A command
    line's first step (`sudden_death.server.__main__` too) is the `__main__` part: it puts the
    parts together (the table server's command line serves the browser page, from above)."""
    parts = module.split(".")
    if parts[-1] == "__main__":
        return "__main__"
    return parts[1] if len(parts) > 1 else "__init__"


def imports_against_the_order(graph: dict[str, set[str]]) -> list[str]:
    """Every import from a later tier, from a neighbour in the same tier, or of a part placed
    nowhere."""
    rank = {part: index for index, tier in enumerate(PACKAGE_ORDER) for part in tier}
    against = []
    for name, targets in graph.items():
        here_part = part_of(name)
        here = rank.get(here_part)
        for target in sorted(targets):
            there_part = part_of(target)
            there = rank.get(there_part)
            if here is None or there is None:
                against.append(f"{name} -> {target} (a part with no place in PACKAGE_ORDER)")
            elif there > here or (there == here and there_part != here_part
                                  and here_part != "__init__"):
                against.append(f"{name} -> {target}")
    return against


def test_the_package_parts_import_only_downwards() -> None:
    assert imports_against_the_order(import_graph()) == []


def test_an_upward_import_between_parts_is_caught() -> None:
    """The check is not blind: the link importing the server, the server the link, the rules
    the front end, or a new top-level module nobody placed, each fails it."""
    graph = import_graph()
    for name, target in [("sudden_death.net.link", "sudden_death.server.service"),
                         ("sudden_death.server.tables", "sudden_death.net.remote_match"),
                         ("sudden_death.engine.game", "sudden_death.ui.app"),
                         ("sudden_death.wire.protocol", "sudden_death.storage.settings")]:
        planted = {**graph, name: graph[name] | {target}}
        assert imports_against_the_order(planted) == [f"{name} -> {target}"]
    stray = {**graph, "sudden_death.stray": {"sudden_death.engine.game"}}
    assert imports_against_the_order(stray) == [
        "sudden_death.stray -> sudden_death.engine.game (a part with no place in PACKAGE_ORDER)"]


def test_every_top_level_part_has_a_place() -> None:
    assert {part_of(name) for name in modules()} <= {p for tier in PACKAGE_ORDER for p in tier}


def test_every_front_end_module_has_a_layer() -> None:
    """A new sub-package must be placed in UI_LAYERS (ui_place raises for one that is not)."""
    placed = [ui_place(name) for name in modules()]
    assert {group for place in placed if place for group in [place[1]]} == {
        group for groups in UI_LAYERS for group in groups}


def late_imports() -> dict[tuple[str, str], int]:
    """(module, imported name) of every import inside a function, with how many there are."""
    found: dict[tuple[str, str], int] = {}
    for name, tree in modules().items():
        for func in ast.walk(tree):
            if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(func):
                if isinstance(node, ast.Import):
                    keys = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom):
                    keys = [("." * node.level) + (node.module or "")]
                else:
                    continue
                for key in keys:
                    key = key.lstrip(".")
                    found[(name, key)] = found.get((name, key), 0) + 1
    return found


def test_imports_inside_functions_are_only_the_listed_start_up_ones() -> None:
    assert set(late_imports()) == set(LATE_IMPORTS)


def test_the_checks_see_what_they_look_for() -> None:
    """The walkers are not blind: the engine's known edges and the listed imports are found."""
    graph = import_graph()
    assert "sudden_death.engine.actions" in graph["sudden_death.engine.game"]
    assert "sudden_death.ui.session" in graph["sudden_death.ui.app"]
    assert "sudden_death.ui.words.phrases" in graph["sudden_death.ui.words.narration"]
    assert late_imports()[("sudden_death.audio.synth", "pyttsx3")] == 2


# The page's own game (issue 74) runs in Pyodide, whose core is the standard library and
# nothing compiled: what it imports as it runs reaches nothing of the wire (msgspec), the
# table server or the game's line to one, and nothing outside the standard library. A module
# of that game is added here.
BROWSER_GAME = ("sudden_death.web.offline", "sudden_death.web.offline_table",
                "sudden_death.web.seat_view")
NOT_IN_THE_BROWSER = ("wire", "server", "net")


def runtime_import_nodes(tree: ast.Module) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import that runs: those under `if TYPE_CHECKING:` are for mypy alone."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            stack.extend(node.orelse)
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        stack.extend(ast.iter_child_nodes(node))


def reached_when_run(starts: tuple[str, ...],
                     found: dict[str, ast.Module] | None = None) -> set[str]:
    """Every module `starts` import as they run, through the package's own modules: the
    package's by their names, any other by its top-level name."""
    found = modules() if found is None else found
    packages = {path for path in found if (PACKAGE.parent / path.replace(".", "/")).is_dir()}
    reached: set[str] = set()
    waiting = list(starts)
    while waiting:
        name = waiting.pop()
        if name in reached:
            continue
        reached.add(name)
        parts = name.split(".")
        waiting += [".".join(parts[:end]) for end in range(1, len(parts))]  # its packages
        for node in runtime_import_nodes(found[name]):
            for target in imported(name, name in packages, node):
                if target in found:
                    waiting.append(target)
                elif target.split(".")[0] != "sudden_death":
                    reached.add(target.split(".")[0])
    return reached


def not_for_the_browser(reached: set[str]) -> list[str]:
    """What of `reached` the browser's game cannot have."""
    return sorted(name for name in reached
                  if (name.startswith("sudden_death.") and part_of(name) in NOT_IN_THE_BROWSER)
                  or (not name.startswith("sudden_death")
                      and name not in sys.stdlib_module_names))


def test_the_browser_s_game_needs_only_the_standard_library_and_no_wire() -> None:
    reached = reached_when_run(BROWSER_GAME)
    assert not_for_the_browser(reached) == []
    assert "sudden_death.ui.words.narration" in reached  # not blind: its words come along
    # Not blind: the seat's view reading the wire, or the narrator's verbosity importing the
    # settings file (the player's folders: platformdirs) as it runs, is caught.
    for module, line in [("sudden_death.web.seat_view", "from ..wire import protocol as p"),
                         ("sudden_death.ui.words.verbosity",
                          "from ...storage.settings import Settings")]:
        found = modules()
        found[module] = ast.Module(body=[*ast.parse(line).body, *found[module].body],
                                   type_ignores=[])
        assert not_for_the_browser(reached_when_run(BROWSER_GAME, found)) != []


# Only the table server's --postgres path may load psycopg (the `server` extra's): a player's
# game, and a server on SQLite, never need it. A module of that path is added here.
POSTGRES_MODULES = {"sudden_death.server.stores.postgres_schema",
                    "sudden_death.server.stores.postgres_tables",
                    "sudden_death.server.stores.postgres_group",
                    "sudden_death.server.stores.postgres_accounts"}
# Where that path begins: imported inside the function that runs only with --postgres (each
# also in LATE_IMPORTS), never at the top of a module.
POSTGRES_ENTRIES = {("sudden_death.server.__main__", "stores.postgres_tables"),
                    ("sudden_death.server.__main__", "stores.postgres_accounts"),
                    ("sudden_death.server.__main__", "stores.postgres_schema")}


def importers_of(library: str, allowed: set[str],
                 entries: set[tuple[str, str]] | None = None,
                 found: dict[str, ast.Module] | None = None) -> set[str]:
    """Every module that imports `library`, or a module of `allowed`, from outside `allowed`
    (other than at one of `entries`, inside a function)."""
    entries = entries or set()
    found = modules() if found is None else found
    packages = {path for path in found if (PACKAGE.parent / path.replace(".", "/")).is_dir()}
    importers = set()
    for name, tree in found.items():
        late = {id(node) for func in ast.walk(tree)
                if isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef))
                for node in ast.walk(func)
                if isinstance(node, ast.ImportFrom) and (name, (node.module or "")) in entries}
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)) and id(node) not in late:
                for target in imported(name, name in packages, node):
                    if target.split(".")[0] == library or target in allowed:
                        importers.add(name)
    return importers - allowed


def postgres_importers(found: dict[str, ast.Module] | None = None) -> set[str]:
    """Every module that imports psycopg, or a module of POSTGRES_MODULES, from outside them
    (other than at one of POSTGRES_ENTRIES, inside a function)."""
    return importers_of("psycopg", POSTGRES_MODULES, POSTGRES_ENTRIES, found)


def test_only_the_postgres_path_imports_psycopg() -> None:
    assert postgres_importers() == set()
    assert set(POSTGRES_ENTRIES) <= set(LATE_IMPORTS)
    # Not blind: the entry's import at the top of the module, where every server start (and
    # the game's --serve) would run it, is caught.
    found = modules()
    main = found["sudden_death.server.__main__"]
    planted = ast.parse("from .stores.postgres_tables import PgTableStore")
    found["sudden_death.server.__main__"] = ast.Module(body=[*planted.body, *main.body],
                                                       type_ignores=[])
    assert postgres_importers(found) == {"sudden_death.server.__main__"}
    # Not blind: the schema module itself imports psycopg, and would be caught elsewhere.
    assert "sudden_death.server.stores.postgres_schema" in {
        name for name, tree in modules().items() for node in ast.walk(tree)
        if isinstance(node, ast.Import) and any(a.name == "psycopg" for a in node.names)}


# Only the table server's --valkey path (many processes, issue 62) may load the Valkey client,
# redis-py (the `server` extra's): a player's game, and a server alone, never need it.
VALKEY_MODULES = {"sudden_death.server.cluster.valkey_fanout",
                  "sudden_death.server.cluster.valkey_lobby",
                  "sudden_death.server.cluster.valkey_routes",
                  "sudden_death.server.cluster.valkey_quick",
                  "sudden_death.server.cluster.valkey_tally"}
# Where that path begins: imported inside the functions that run only with --valkey.
VALKEY_ENTRIES = {("sudden_death.server.__main__", "cluster.valkey_lobby"),
                  ("sudden_death.server.__main__", "cluster.valkey_routes"),
                  ("sudden_death.server.__main__", "cluster.valkey_quick"),
                  ("sudden_death.server.__main__", "cluster.valkey_tally"),
                  ("sudden_death.server.__main__", "cluster.valkey_fanout")}


def test_only_the_valkey_path_imports_its_client() -> None:
    assert importers_of("redis", VALKEY_MODULES, VALKEY_ENTRIES) == set()
    assert set(VALKEY_ENTRIES) <= set(LATE_IMPORTS)
    # Not blind: the entry's import at the top of the module is caught.
    found = modules()
    main = found["sudden_death.server.__main__"]
    planted = ast.parse("from .cluster.valkey_lobby import ValkeyLobby")
    found["sudden_death.server.__main__"] = ast.Module(body=[*planted.body, *main.body],
                                                       type_ignores=[])
    assert importers_of("redis", VALKEY_MODULES, VALKEY_ENTRIES, found) == {
        "sudden_death.server.__main__"}
    # Not blind: the fan-out module itself imports redis, and would be caught elsewhere.
    assert "sudden_death.server.cluster.valkey_fanout" in {
        name for name, tree in modules().items() for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "redis"}


# Only the table server's --metrics-from path may load prometheus_client (the `server` extra's):
# a player's game, and a server without metrics, never need it.
METRICS_MODULES = {"sudden_death.server.operations.metrics"}
METRICS_ENTRIES = {("sudden_death.server.__main__", "operations.metrics")}


def test_only_the_metrics_path_imports_prometheus_client() -> None:
    assert importers_of("prometheus_client", METRICS_MODULES, METRICS_ENTRIES) == set()
    assert set(METRICS_ENTRIES) <= set(LATE_IMPORTS)
    # Not blind: the entry's import at the top of the module is caught.
    found = modules()
    main = found["sudden_death.server.__main__"]
    planted = ast.parse("from .operations.metrics import Metrics")
    found["sudden_death.server.__main__"] = ast.Module(body=[*planted.body, *main.body],
                                                       type_ignores=[])
    assert importers_of("prometheus_client", METRICS_MODULES, METRICS_ENTRIES, found) == {
        "sudden_death.server.__main__"}


# The table server's packages (docs/architecture.md, "The table server"): a role (server/roles/)
# reaches what lasts or is shared only through the seams (stores/seam.py, keeping.py,
# cluster/fanout.py, tally.py...), never an implementation behind one, and an implementation
# never reaches up into a role. Every module of stores/ but its seams is an implementation (a
# new store is one unless named here), and so is every valkey_* module of cluster/.
STORE_SEAMS = {"seam", "keeping", "timed_store"}


def server_kind(module: str) -> str | None:
    """"role" or "implementation" for a module of the table server's packages, else None."""
    parts = module.split(".")
    if parts[:2] != ["sudden_death", "server"] or len(parts) < 4:
        return None
    package, name = parts[2], parts[3]
    if package == "roles":
        return "role"
    if (package == "stores" and name not in STORE_SEAMS) or (
            package == "cluster" and name.startswith("valkey_")):
        return "implementation"
    return None


def server_imports_across_the_seams(graph: dict[str, set[str]]) -> list[str]:
    """Every import of an implementation by a role, or of a role by an implementation."""
    crossing = {("role", "implementation"), ("implementation", "role")}
    return [f"{name} -> {target}" for name, targets in sorted(graph.items())
            for target in sorted(targets)
            if (server_kind(name), server_kind(target)) in crossing]


def test_roles_and_implementations_meet_only_at_the_seams() -> None:
    assert server_imports_across_the_seams(import_graph()) == []


def test_a_role_reaching_an_implementation_is_caught() -> None:
    """The check is not blind: the kinds are found, and a planted import either way fails it,
    while the seats' import of the stores' seam does not."""
    graph = import_graph()
    kinds = {name: server_kind(name) for name in graph}
    assert {name for name, kind in kinds.items() if kind == "implementation"} >= (
        POSTGRES_MODULES | VALKEY_MODULES | {"sudden_death.server.stores.sqlite_tables"})
    assert {f"sudden_death.server.roles.{name}" for name in ("lobby", "seats")} <= {
        name for name, kind in kinds.items() if kind == "role"}
    assert "sudden_death.server.stores.seam" in graph["sudden_death.server.roles.account_desk"]
    for name, target in [
            ("sudden_death.server.roles.seats", "sudden_death.server.stores.sqlite_tables"),
            ("sudden_death.server.roles.lobby", "sudden_death.server.cluster.valkey_lobby"),
            ("sudden_death.server.stores.postgres_tables", "sudden_death.server.roles.seats"),
            ("sudden_death.server.cluster.valkey_lobby", "sudden_death.server.roles.lobby")]:
        planted = {**graph, name: graph[name] | {target}}
        assert server_imports_across_the_seams(planted) == [f"{name} -> {target}"]
