"""The shape of the code (issue 15): no module over 500 lines, no import cycle that runs,
no private name taken from another module, no module-level cache, and window code that
never reads action text. Each test lists what it found, so a failure says where.

What the redesign has not reached yet is listed in ``DEBTS`` and expected to fail
(strict: a debt paid makes its test fail until it is struck off the list)."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar, cast

import pytest

from tests.conftest import ROOT

PRODUCT = ("geometry", "sim", "render")
MAX_LINES = 500


def module_files(tops: tuple[str, ...] = PRODUCT) -> dict[str, Path]:
    """Dotted module name -> file, for every module under ``tops``."""
    out: dict[str, Path] = {}
    for top in tops:
        for path in sorted((ROOT / top).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


MODULES = module_files()
BENCH = sorted((ROOT / "bench").rglob("*.py"))

# Issue 15, still to do: test name -> the cases that fail today (ids as pytest prints them).
DEBTS: dict[str, set[str]] = {
}


def cases(test: str, values: list[Any], name: Callable[[Any], str]) -> list[Any]:
    """``values`` as pytest params, those in the test's debts expected to fail."""
    debt = DEBTS.get(test, set())
    return [pytest.param(v, id=name(v), marks=pytest.mark.xfail(
        strict=True, reason="issue 15: not done yet")) if name(v) in debt
            else pytest.param(v, id=name(v)) for v in values]


def rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


F = TypeVar("F", bound=Callable[..., None])


def whole(test: str) -> Callable[[F], F]:
    """Mark a test that is itself a debt as expected to fail."""
    def mark(fn: F) -> F:
        if test in DEBTS:
            return cast(F, pytest.mark.xfail(strict=True, reason="issue 15: not done yet")(fn))
        return fn
    return mark


def tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


def owner(name: str) -> str:
    """The module of ours that a dotted name lies in ('' for none)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name


def runtime_nodes(module: ast.Module) -> Iterator[ast.AST]:
    """Every node that runs: all of the module but the ``if TYPE_CHECKING:`` blocks."""
    stack: list[ast.AST] = [module]
    while stack:
        node = stack.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                stack.extend(child.orelse)
                continue
            stack.append(child)


# --- size ------------------------------------------------------------------------------

@pytest.mark.parametrize("path", cases("test_no_module_over_500_lines",
                                        [*MODULES.values(), *BENCH], rel))
def test_no_module_over_500_lines(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{path.relative_to(ROOT)} has {lines} lines"


# --- import cycles ---------------------------------------------------------------------

# The one dynamic import: the CLI finds its sub-commands (a new file in sim/commands/ is one).
DYNAMIC = {"sim.cli": tuple(m for m in MODULES if m.startswith("sim.commands."))}


def imports_that_run(name: str) -> set[str]:
    """Our modules ``name`` imports when it runs (module level, or in a function)."""
    out: set[str] = set(DYNAMIC.get(name, ()))
    for node in runtime_nodes(tree(MODULES[name])):
        if isinstance(node, ast.Import):
            out.update(owner(a.name) for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for a in node.names:
                out.add(owner(f"{node.module}.{a.name}") or owner(node.module))
    out.discard("")
    out.discard(name)
    return out


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


@whole("test_no_import_cycle_runs")
def test_no_import_cycle_runs() -> None:
    graph = {name: imports_that_run(name) for name in MODULES}
    assert cycles(graph) == []


@whole("test_no_dynamic_import_but_the_cli_commands")
def test_no_dynamic_import_but_the_cli_commands() -> None:
    found = [f"{path.relative_to(ROOT)}:{node.lineno}"
             for name, path in MODULES.items() if name not in DYNAMIC
             for node in ast.walk(tree(path))
             if isinstance(node, ast.Call) and ast.unparse(node.func).split(".")[-1]
             in ("import_module", "__import__")]
    assert found == []


# --- private names ------------------------------------------------------------------------

def private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def private_members(path: Path) -> set[str]:
    """Private attributes and methods the classes of one file define."""
    out: set[str] = set()
    for node in ast.walk(tree(path)):
        if isinstance(node, ast.ClassDef):
            for item in ast.walk(node):
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and private(item.name):
                    out.add(item.name)
                elif isinstance(item, ast.Attribute) and private(item.attr) and isinstance(
                        item.ctx, ast.Store):
                    out.add(item.attr)
                elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    out.add(item.target.id)
    return {n for n in out if private(n)}


MEMBERS = {name: private_members(path) for name, path in MODULES.items()}


@pytest.mark.parametrize("path", cases("test_no_private_name_from_another_module",
                                        [*MODULES.values(), *BENCH], rel))
def test_no_private_name_from_another_module(path: Path) -> None:
    """``from x import _y``, ``x._y`` (x one of our modules) and ``obj._y`` (``_y`` a
    private member of a class of another module) only inside x itself."""
    here = owner(".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"))
    mine = MEMBERS.get(here, set())
    theirs = set().union(*(m for n, m in MEMBERS.items() if n != here)) - mine
    module = tree(path)
    aliases: dict[str, str] = {}
    for n in ast.walk(module):
        if isinstance(n, ast.Import):
            aliases.update({a.asname or a.name: owner(a.name) for a in n.names})
        elif isinstance(n, ast.ImportFrom) and n.module:
            aliases.update({a.asname or a.name: owner(f"{n.module}.{a.name}") for a in n.names})
    found = []
    for node in ast.walk(module):
        if isinstance(node, ast.ImportFrom) and node.module and owner(node.module) != here:
            found += [f"{node.lineno}: from {node.module} import {a.name}"
                      for a in node.names if private(a.name) and owner(node.module)]
        elif isinstance(node, ast.Attribute) and private(node.attr):
            base = ast.unparse(node.value)
            target = owner(base) or aliases.get(base, "")
            if target and target != here:
                found.append(f"{node.lineno}: {base}.{node.attr}")
            elif not target and base not in ("self", "cls") and node.attr in theirs:
                found.append(f"{node.lineno}: {base}.{node.attr} (a private member elsewhere)")
    assert found == []


# --- module-level caches -------------------------------------------------------------------

MUTATORS = {"clear", "pop", "popitem", "setdefault", "update", "append", "extend", "add",
            "insert", "remove", "discard", "__setitem__"}
CONTAINERS = {"dict", "list", "set", "defaultdict", "OrderedDict", "WeakKeyDictionary",
              "WeakValueDictionary", "WeakSet"}
# Value-keyed caches of the window's pygame resources (fonts and rendered text die with
# pygame.quit(); theme.reset_fonts clears them). Nothing else may keep state in a module.
ALLOWED = {("render.draw.theme", "_FONTS"), ("render.draw.theme", "_TEXTS"),
           ("render.draw.panels", "cut_text"), ("render.draw.panels", "wrap"),
           ("sim.scenario.rules", "_default_raw_text"), ("sim.scenario.rules", "default_rules"),
           ("geometry.movement.reach", "_prepared")}


def module_caches(name: str, path: Path) -> list[str]:
    module = tree(path)
    held: dict[str, int] = {}
    for node in module.body:
        target = value = None
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        elif isinstance(node, ast.AnnAssign):
            target, value = node.target, node.value
        if isinstance(target, ast.Name) and value is not None and (
                isinstance(value, (ast.Dict, ast.List, ast.Set)) or (
                isinstance(value, ast.Call)
                and ast.unparse(value.func).split(".")[-1] in CONTAINERS)):
            held[target.id] = node.lineno
    found = set()
    for fn in ast.walk(module):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for inner in ast.walk(fn):
            if isinstance(inner, ast.Global):
                found.update(inner.names)
            elif (isinstance(inner, ast.Subscript) and isinstance(inner.ctx, ast.Store)
                  and isinstance(inner.value, ast.Name) and inner.value.id in held):
                found.add(inner.value.id)
            elif (isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute)
                  and inner.func.attr in MUTATORS and isinstance(inner.func.value, ast.Name)
                  and inner.func.value.id in held):
                found.add(inner.func.value.id)
    for fn in module.body:  # @cache / @lru_cache on a module-level function
        if isinstance(fn, ast.FunctionDef) and any(
                ast.unparse(d).split("(")[0].split(".")[-1] in ("cache", "lru_cache")
                for d in fn.decorator_list):
            found.add(fn.name)
    return sorted(n for n in found if (name, n) not in ALLOWED)


@pytest.mark.parametrize("name", cases("test_no_module_level_cache", sorted(MODULES), str))
def test_no_module_level_cache(name: str) -> None:
    """Per-board data lives in Scenario.prepared, per-position data in GameState.memo,
    the window's in the controller and the app: never in a module (no id() keys)."""
    assert module_caches(name, MODULES[name]) == []


@pytest.mark.parametrize("name", cases("test_no_identity_keys_in_the_rules", sorted(
    m for m in MODULES if m.split(".")[0] in ("sim", "geometry")), str))
def test_no_identity_keys_in_the_rules(name: str) -> None:
    """id() of a value is never a key in sim/ or geometry/ (SightIndex keeps the stacks
    of the obstacle objects it holds: identity there is the object's own, and kept alive)."""
    allowed = {"geometry.sight.index": {"_stack"}}
    found = [f"{node.lineno}" for fn in ast.walk(tree(MODULES[name]))
             if isinstance(fn, ast.FunctionDef) and fn.name not in allowed.get(name, set())
             for node in ast.walk(fn)
             if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
             and node.func.id == "id"]
    assert found == []


# --- the window and action text --------------------------------------------------------------

TEXT_API = {"parse_action", "from_args", "usage", "args", "parse"}


@pytest.mark.parametrize("path", cases("test_window_code_never_reads_action_text",
                                        sorted((ROOT / "render").rglob("*.py")), rel))
def test_window_code_never_reads_action_text(path: Path) -> None:
    """No usage strings, no parsing, no words by position, no keyword compared with a
    literal: the window builds and reads actions through their kinds' typed parameters."""
    found = []
    for node in ast.walk(tree(path)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and (
                node.func.attr == "split" and isinstance(node.func.value, ast.Call)
                and ast.unparse(node.func.value.func) == "str"):
            found.append(f"{node.lineno}: str(...).split()")
        elif isinstance(node, ast.Attribute) and node.attr in TEXT_API:
            found.append(f"{node.lineno}: .{node.attr}")
        elif isinstance(node, ast.Name) and node.id in TEXT_API:
            found.append(f"{node.lineno}: {node.id}")
        elif isinstance(node, ast.alias) and node.name in TEXT_API:
            found.append(f"import {node.name}")
        elif isinstance(node, ast.Compare) and any(
                isinstance(x, ast.Attribute) and x.attr == "keyword"
                for x in [node.left, *node.comparators]
        ) and any(isinstance(x, ast.Constant) and isinstance(x.value, str)
                  for x in [node.left, *node.comparators]):
            found.append(f"{node.lineno}: keyword compared with a literal")
    assert found == []
