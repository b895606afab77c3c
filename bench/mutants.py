"""Mutation testing, small and bounded: does a module's test file notice a planted bug?

``python -m bench.mutants MODULE TEST_FILE... [--sample N] [--seed S]`` lists the
mutants of MODULE (a dotted name), takes a seeded sample of them, and runs the
given test files once per mutant (``pytest -x -q``, in a child process): a mutant
is *killed* when the tests fail (or time out, or cannot import it), else it
*survives*. It prints each survivor (line, what was changed) and the score,
killed / tried. docs/architecture.md keeps the scores and explains each survivor.

The mutations are the classic operator and constant ones, on the module's code
(never its docstrings or annotations): a comparison replaced by its neighbour
(``<`` / ``<=``, ``>`` / ``>=``, ``==`` / ``!=``, ``is`` / ``is not``, ``in`` / ``not in``),
``+`` / ``-``, ``*`` / ``/``, ``and`` / ``or``, ``not x`` / ``x``, ``True`` / ``False``,
an integer ``n`` / ``n + 1`` and a float ``x`` / ``2 x`` (0.0 / 1.0).

No file is changed: the child process imports the mutated module from memory (a
meta path finder serves its code under the real file name, and writes no
bytecode), so the tree, its caches and other processes never see a mutant. Tests
that start a new Python process (the CLI's) see the real module: give in-process
test files. Not for the numba-compiled kernels (a mutant there recompiles them).
"""

from __future__ import annotations

import argparse
import ast
import copy
import os
import random
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

COMPARE_SWAP: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Is: ast.IsNot, ast.IsNot: ast.Is,
    ast.In: ast.NotIn, ast.NotIn: ast.In,
}
BINOP_SWAP: dict[type[ast.operator], type[ast.operator]] = {
    ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult,
}
SYMBOL = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==",
          ast.NotEq: "!=", ast.Is: "is", ast.IsNot: "is not", ast.In: "in",
          ast.NotIn: "not in", ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/",
          ast.And: "and", ast.Or: "or"}

# A child process: serve the mutated module's code for its real file, then run pytest.
BOOT = """
import importlib.abc, importlib.machinery, sys
sys.dont_write_bytecode = True
name, path, code_file = sys.argv[1], sys.argv[2], sys.argv[3]
source = open(code_file, encoding="utf-8").read()

class Loader(importlib.machinery.SourceFileLoader):
    def get_code(self, fullname):
        return compile(source, self.path, "exec", dont_inherit=True)

class Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, target_path=None, target=None):
        if fullname != name:
            return None
        return importlib.util.spec_from_file_location(name, path, loader=Loader(name, path))

import importlib.util
sys.meta_path.insert(0, Finder())
import pytest
sys.exit(pytest.main(["-x", "-q", "-p", "no:cacheprovider", "--no-header", *sys.argv[4:]]))
"""


@dataclass(frozen=True)
class Mutant:
    index: int  # the n-th mutable spot in a walk of the module's tree
    line: int
    what: str


def _annotation_nodes(tree: ast.AST) -> set[int]:
    """ids of the nodes inside annotations and docstrings (never mutated)."""
    skip: set[int] = set()

    def add(node: ast.AST | None) -> None:
        if node is not None:
            skip.update(id(n) for n in ast.walk(node))

    for node in ast.walk(tree):
        if isinstance(node, ast.AnnAssign | ast.arg):
            add(node.annotation)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            add(node.returns)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                add(body[0])
    return skip


def _spots(tree: ast.AST) -> list[tuple[ast.AST, int, str]]:
    """Every mutable spot: (node, sub-index, description), in a fixed walk order."""
    skip = _annotation_nodes(tree)
    out: list[tuple[ast.AST, int, str]] = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Compare):
            for i, op in enumerate(node.ops):
                if type(op) in COMPARE_SWAP:
                    new = COMPARE_SWAP[type(op)]
                    out.append((node, i, f"{SYMBOL[type(op)]} -> {SYMBOL[new]}"))
        elif isinstance(node, ast.BinOp) and type(node.op) in BINOP_SWAP:
            new_op = BINOP_SWAP[type(node.op)]
            out.append((node, 0, f"{SYMBOL[type(node.op)]} -> {SYMBOL[new_op]}"))
        elif isinstance(node, ast.BoolOp):
            other = "or" if isinstance(node.op, ast.And) else "and"
            out.append((node, 0, f"{SYMBOL[type(node.op)]} -> {other}"))
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            out.append((node, 0, "not x -> x"))
        elif isinstance(node, ast.Constant) and type(node.value) in (bool, int, float):
            out.append((node, 0, f"{node.value!r} -> {_changed(node.value)!r}"))
    return out


def _changed(v: object) -> bool | int | float:
    """A constant's mutant: True / False, n / n + 1, x / 2 x (0.0 / 1.0)."""
    if isinstance(v, bool):
        return not v
    if isinstance(v, int):
        return v + 1
    assert isinstance(v, float)
    return 2 * v if v else 1.0


def mutants(source: str) -> list[Mutant]:
    tree = ast.parse(source)
    return [Mutant(i, getattr(node, "lineno", 0), what)
            for i, (node, _, what) in enumerate(_spots(tree))]


def mutated(source: str, index: int) -> str:
    """The module's source with mutant ``index`` applied (ast.unparse: comments go)."""
    tree = ast.parse(source)
    node, sub, _ = _spots(tree)[index]
    if isinstance(node, ast.Compare):
        node.ops[sub] = COMPARE_SWAP[type(node.ops[sub])]()
    elif isinstance(node, ast.BinOp):
        node.op = BINOP_SWAP[type(node.op)]()
    elif isinstance(node, ast.BoolOp):
        node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
    elif isinstance(node, ast.UnaryOp):
        replacement = copy.deepcopy(node.operand)
        node.op, node.operand = ast.UAdd(), ast.Call(ast.Name("bool", ast.Load()),
                                                     [replacement], [])
    elif isinstance(node, ast.Constant):
        node.value = _changed(node.value)
    return ast.unparse(ast.fix_missing_locations(tree))


def killed(module: str, path: Path, code: str, tests: list[str], timeout: float) -> bool:
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False, encoding="utf-8") as f:
        f.write(code)
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    try:
        run = subprocess.run([sys.executable, "-c", BOOT, module, str(path), f.name, *tests],
                             cwd=ROOT, env=env, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return True
    finally:
        os.unlink(f.name)
    return run.returncode != 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.mutants", description=__doc__.split(
        "\n\n")[0])
    ap.add_argument("module", help="dotted module name, e.g. sim.ai.scoring")
    ap.add_argument("tests", nargs="+", help="test files to run against each mutant")
    ap.add_argument("--sample", type=int, default=20, help="mutants tried (0: all)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--timeout", type=float, default=300.0, help="seconds per run")
    ap.add_argument("--only", default="", help="comma-separated mutant numbers to try "
                    "(a survivor against more test files)")
    ap.add_argument("--list", action="store_true", help="list the mutants, run nothing")
    args = ap.parse_args(argv)
    path = ROOT / (args.module.replace(".", "/") + ".py")
    source = path.read_text(encoding="utf-8")
    every = mutants(source)
    if args.list:
        for m in every:
            print(f"{m.index:4d} line {m.line:4d}: {m.what}")
        return 0
    only = {int(i) for i in args.only.split(",") if i.strip()}
    if only:
        chosen = [m for m in every if m.index in only]
    elif not args.sample or args.sample >= len(every):
        chosen = every
    else:
        chosen = sorted(random.Random(args.seed).sample(every, args.sample),
                        key=lambda m: m.index)
    if killed(args.module, path, source, args.tests, args.timeout):
        print(f"{args.module}: the tests fail without any mutant", file=sys.stderr)
        return 2
    survivors = []
    for m in chosen:
        if not killed(args.module, path, mutated(source, m.index), args.tests, args.timeout):
            survivors.append(m)
            print(f"  survived #{m.index} line {m.line}: {m.what}", flush=True)
    n = len(chosen)
    print(f"{args.module}: {n - len(survivors)}/{n} killed ({len(every)} mutants in all)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
