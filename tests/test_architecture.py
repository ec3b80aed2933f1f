"""The layers point one way (docs/architecture.md): a test over the import graph of the project.

Every module of the project's packages is parsed (``ast``, nothing is imported), and every
``import`` statement in it, at module level or inside a function, is an edge to the project
module it loads. The rules:

- ``clubs`` (the tenant) imports nothing of the apps above it, and generally every app imports
  only from itself or the layers below it: clubs < scoring < standings < {offline, imports} <
  tournaments < opentournaments < tools, where ``offline`` and ``imports`` share a layer and
  import neither each other (``config`` wires them together and stands outside);
- the pure engines (``scoring/engine``, ``tournaments/engine``) import only the standard library,
  ``scoring.engine`` and their own package (the Preisskat's ranking shares the open tournament's):
  no Django, no app;
- there is no import cycle between project modules.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("config", "clubs", "scoring", "standings", "offline", "imports", "tournaments", "opentournaments", "tools")
ENGINES = ("scoring.engine", "tournaments.engine")
ABOVE_CLUBS = ("scoring", "standings", "offline", "imports", "tournaments", "opentournaments", "tools")
# Each app may import the layers before its own; apps of one layer do not import each other.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("clubs",),
    ("scoring",),
    ("standings",),
    ("offline", "imports"),
    ("tournaments",),
    ("opentournaments",),
    ("tools",),
)


def _name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def find_modules(root: Path, packages: Iterable[str]) -> dict[str, Path]:
    """Module name → file, for every ``.py`` file of ``packages`` under ``root``."""
    return {_name(path, root): path for package in packages for path in sorted((root / package).rglob("*.py"))}


def _within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def imported_names(name: str, path: Path, modules: Iterable[str]) -> set[str]:
    """Every module ``name`` (the module in ``path``) imports, absolute: ``import a.b`` gives
    ``a.b``; ``from .x import y`` gives ``pkg.x.y`` when that is a module, else ``pkg.x``."""
    known = set(modules)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            for alias in node.names:
                candidate = f"{target}.{alias.name}"
                found.add(candidate if candidate in known else target)
    return found


def edges(name: str, imported: Iterable[str], modules: Iterable[str]) -> set[str]:
    """The project modules an import of ``imported`` runs: the module and the packages above it
    (their ``__init__``), except the packages above ``name`` itself, which Python has already
    run before ``name``."""
    known = set(modules)
    own = {".".join(name.split(".")[:i]) for i in range(1, name.count(".") + 1)}
    out = set()
    for target in imported:
        parts = target.split(".")
        for i in range(1, len(parts) + 1):
            step = ".".join(parts[:i])
            if step in known and step not in own and step != name:
                out.add(step)
    return out


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


MODULES = find_modules(ROOT, PACKAGES)
IMPORTS = {name: imported_names(name, path, MODULES) for name, path in MODULES.items()}
GRAPH = {name: edges(name, imported, MODULES) for name, imported in IMPORTS.items()}


def test_the_graph_covers_the_project() -> None:
    assert {
        "clubs.access",
        "scoring.engine.registry",
        "standings.views",
        "offline.views",
        "imports.history",
        "tools.synthetic",
    } <= set(MODULES)
    assert "scoring.engine.core" in GRAPH["scoring.engine.registry"]


def test_clubs_imports_nothing_above_it() -> None:
    wrong = {
        name: sorted(t for t in GRAPH[name] if any(_within(t, top) for top in ABOVE_CLUBS))
        for name in MODULES
        if _within(name, "clubs")
    }
    assert {name: targets for name, targets in wrong.items() if targets} == {}


def against_the_layers(graph: dict[str, set[str]], layers: Sequence[Sequence[str]]) -> dict[str, list[str]]:
    """Module → the modules it imports from a higher layer or from another app of its own layer."""
    rank = {app: i for i, apps in enumerate(layers) for app in apps}
    wrong = {}
    for name, targets in graph.items():
        own = name.split(".")[0]
        if own not in rank:
            continue
        up = sorted(
            t for t in targets if (other := t.split(".")[0]) != own and other in rank and rank[other] >= rank[own]
        )
        if up:
            wrong[name] = up
    return wrong


def test_layers_point_one_way() -> None:
    assert against_the_layers(GRAPH, LAYERS) == {}


@pytest.mark.parametrize(
    ("importer", "imported"),
    [
        ("scoring.services", "offline.views"),  # down the layers: scoring below offline
        ("standings.exports", "imports.history"),
        ("offline.views", "imports.history"),  # one layer, two apps
        ("imports.views", "tournaments.models"),
        ("clubs.models", "scoring.models"),
        ("tournaments.views", "opentournaments.selectors"),
    ],
)
def test_a_planted_arrow_against_the_layers_is_found(importer: str, imported: str) -> None:
    planted = {name: set(targets) for name, targets in GRAPH.items()}
    planted[importer].add(imported)
    assert against_the_layers(planted, LAYERS) == {importer: [imported]}


def test_engines_import_only_the_standard_library_and_the_engine() -> None:
    stdlib = sys.stdlib_module_names | {"__future__"}
    wrong = {}
    for name in MODULES:
        own = next((engine for engine in ENGINES if _within(name, engine)), None)
        if own is None:
            continue
        pure = ("scoring.engine", own)
        bad = sorted(t for t in IMPORTS[name] if t.split(".")[0] not in stdlib and not any(_within(t, p) for p in pure))
        if bad:
            wrong[name] = bad
    assert wrong == {}


def test_no_import_cycles() -> None:
    assert cycles(GRAPH) == []


# --- the checker itself ----------------------------------------------------------------------------


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    files = {
        "app/__init__.py": "",
        "app/a.py": "from . import b\n",
        "app/b.py": "def f():\n    from .sub.c import thing\n",
        "app/sub/__init__.py": "",
        "app/sub/c.py": "import app.a\nfrom ..b import f\nthing = 1\n",
        "app/sub/d.py": "from .. import sub\nimport django.db\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    return tmp_path


def test_relative_and_function_level_imports_are_edges(tree: Path) -> None:
    modules = find_modules(tree, ["app"])
    imports = {name: imported_names(name, path, modules) for name, path in modules.items()}
    graph = {name: edges(name, imported, modules) for name, imported in imports.items()}
    assert imports["app.a"] == {"app.b"}
    assert imports["app.b"] == {"app.sub.c"}
    assert imports["app.sub.c"] == {"app.a", "app.b"}
    assert imports["app.sub.d"] == {"app.sub", "django.db"}
    assert graph["app.b"] == {"app.sub", "app.sub.c"}
    assert graph["app.sub.d"] == set()  # its own package has run before it
    assert cycles(graph) == [["app.a", "app.b", "app.sub.c"]]
