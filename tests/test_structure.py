"""The drawn structure: no import cycle, and imports go one way (docs/architecture.md):
the edges (web, api, realtime) -> notify -> rooms -> db; games imports nothing of app."""

from __future__ import annotations

import ast
from collections.abc import Collection
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EDGES = {"web", "api", "realtime"}
BELOW = {
    "notify": {"rooms", "db"},
    "rooms": {"db"},
    "db": set(),
}  # what each inner layer may import


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports() -> dict[str, set[str]]:
    """Each module of app and games, and the modules of them it imports."""
    paths = [*ROOT.glob("app/**/*.py"), *ROOT.glob("games/**/*.py")]
    modules = {_module(p): p for p in paths}
    return {
        name: _imported(ast.parse(path.read_text()), modules.keys()) - {name}
        for name, path in modules.items()
    }


def _imported(tree: ast.AST, modules: Collection[str]) -> set[str]:
    """The ``modules`` a module's code imports, wherever the import stands: one for type
    checking alone (under ``if TYPE_CHECKING:``) too, as a circle of type hints is a circle."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                whole = f"{node.module}.{alias.name}"
                found.add(whole if whole in modules else node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {m for m in found if m in modules}


def test_imports_for_type_checking_alone_count() -> None:
    typing_only = "if TYPE_CHECKING:\n    from games.bots import GameBots\n"
    assert _imported(ast.parse(typing_only), {"games.bots", "games.search"}) == {"games.bots"}


def _layer(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if parts[0] == "app" and len(parts) > 2 else None


def test_no_import_cycle() -> None:
    graph = _imports()
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> None:
        if module in path:
            raise AssertionError(" -> ".join([*path[path.index(module) :], module]))
        if module in done:
            return
        for imported in sorted(graph[module]):
            visit(imported, [*path, module])
        done.add(module)

    for module in sorted(graph):
        visit(module, [])
    assert "app.rooms.manager" in done and "games.base" in done


def _upward(module: str, target: str) -> bool:
    if module.startswith("games"):
        return target.startswith("app")
    source, wanted = _layer(module), _layer(target)
    if source in BELOW:
        return wanted not in BELOW[source] | {source, None}
    return source in EDGES and wanted in EDGES - {source}


def test_imports_go_one_way() -> None:
    graph = _imports()
    assert [(m, t) for m, imported in graph.items() for t in imported if _upward(m, t)] == []
    assert _upward("app.db.rooms", "app.rooms.lifecycle")  # the check itself can fail
    assert _upward("app.api.rooms", "app.realtime.hub")
    assert _upward("app.rooms.turns", "app.notify.notifier")


GAME_JOBS = {"cards", "actions", "rules", "scoring", "view", "determinize", "bots", "engine"}
"""The modules every game package has, one job each (docs/architecture.md)."""


def test_every_game_package_names_the_same_jobs_with_the_same_files() -> None:
    packages = sorted(p.parent for p in ROOT.glob("games/*/__init__.py"))
    assert len(packages) == 5
    for package in packages:
        modules = {p.stem: p for p in package.glob("*.py")}
        assert modules.keys() >= GAME_JOBS, package.name
        for name, path in modules.items():
            body = ast.parse(path.read_text()).body
            code = [n for n in body if not isinstance(n, ast.Expr | ast.Import | ast.ImportFrom)]
            # a module of its own holds code, never a placeholder made to match the others
            assert code or name == "__init__", f"{package.name}.{name} is empty"
        engine = ast.parse(modules["engine"].read_text())
        names = {
            target.id
            for node in engine.body
            if isinstance(node, ast.Assign)
            for target in node.targets
            if isinstance(target, ast.Name)
        }
        classes = [node.name for node in engine.body if isinstance(node, ast.ClassDef)]
        assert {"META", "ENGINE"} <= names, package.name
        assert any(c.endswith("Engine") for c in classes), package.name
