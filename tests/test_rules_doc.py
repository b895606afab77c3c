"""docs/rules.md defines every rule id the project cites; docs link only inside it.

A rule is defined by one heading ``### R-PART-N: title`` in docs/rules.md.
Everything else that names an id cites it: ``R-COV-2``, a range
``R-ELEV-1..5``, a short list ``R-COV-2/3`` or a whole part ``R-TURN-*``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

from tests.conftest import ROOT

RULES_MD = ROOT / "docs" / "rules.md"
CITING = ("geometry", "sim", "render", "tests", "bench", "docs", "scenarios", "README.md")
SKIP_DIRS = {"__pycache__", "img"}
SKIP_SUFFIXES = {".png", ".jpg", ".pyc", ".npz", ".npy"}

DEFINITION = re.compile(r"^### (R-[A-Z]+-\d+): \S")
# One citation: the part, then a number, a range, a /-list or the whole part.
CITATION = re.compile(r"(?<![\w-])R-([A-Z]+)-(\*|\d+(?:\.\.\d+)?(?:/\d+)*)")
# A link target in markdown: [text](target), ![alt](target), [ref]: target, src/href="".
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)"
                  r"|^\s*\[[^\]]+\]:\s*(\S+)"
                  r"|(?:src|href)=\"([^\"]+)\"", re.MULTILINE)


def definitions(text: str) -> list[str]:
    """Rule ids defined by the headings of ``text``, in order, duplicates kept."""
    return [m.group(1) for line in text.splitlines() if (m := DEFINITION.match(line))]


def cited(text: str) -> Iterator[tuple[str, str]]:
    """(citation as written, id it needs) for every citation in ``text``.

    A range needs every id in it; a whole part needs the part,
    which is defined when any rule of that part is (a part ``X`` written as a
    placeholder never matches: the part is upper-case letters).
    """
    for m in CITATION.finditer(text):
        part, spec = m.group(1), m.group(2)
        if spec == "*":
            yield m.group(0), f"R-{part}-*"
            continue
        head, *more = spec.split("/")
        first, _, last = head.partition("..")
        if int(last or first) < int(first):  # a reversed range names nothing: never defined
            yield m.group(0), m.group(0)
            continue
        for n in [*range(int(first), int(last or first) + 1), *map(int, more)]:
            yield m.group(0), f"R-{part}-{n}"


def undefined(text: str, defined: Iterable[str]) -> list[tuple[str, str]]:
    """Citations in ``text`` that need an id ``defined`` does not hold."""
    known = set(defined)
    known |= {f"{i.rsplit('-', 1)[0]}-*" for i in known}
    return [(c, need) for c, need in cited(text) if need not in known]


def citing_files() -> list[Path]:
    files: list[Path] = []
    for name in CITING:
        top = ROOT / name
        candidates = [top] if top.is_file() else sorted(top.rglob("*"))
        files += [p for p in candidates if p.is_file() and p.suffix not in SKIP_SUFFIXES
                  and not SKIP_DIRS & set(p.relative_to(ROOT).parts)]
    return files


def read_text(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:  # a binary file: it cites nothing
        return None


def defined_ids() -> list[str]:
    return definitions(RULES_MD.read_text(encoding="utf-8"))


def markdown_files() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


# --- the checker itself can fail ------------------------------------------------------


# Ids the checker's own tests need, built here so this file cites none it lacks.
NOPE, LOS = "R-NOPE", "R-LOS"


def test_an_undefined_id_is_reported() -> None:
    text = f"see {NOPE}-1 and {LOS}-9, {LOS}-1..5, {LOS}-2/7, {NOPE}-*"
    assert undefined(text, ["R-LOS-1", "R-LOS-2", "R-LOS-3", "R-LOS-4"]) == [
        (f"{NOPE}-1", f"{NOPE}-1"),
        (f"{LOS}-9", f"{LOS}-9"),
        (f"{LOS}-1..5", f"{LOS}-5"),
        (f"{LOS}-2/7", f"{LOS}-7"),
        (f"{NOPE}-*", f"{NOPE}-*"),
    ]


def test_defined_ids_ranges_and_parts_are_not_reported() -> None:
    text = "R-LOS-1, R-LOS-1..3 (R-LOS-2/3) and every R-LOS-* rule; R-XXX-N is a placeholder"
    assert undefined(text, ["R-LOS-1", "R-LOS-2", "R-LOS-3"]) == []


def test_a_reversed_range_is_reported() -> None:
    backwards = f"{LOS}-3..1"
    assert undefined(backwards, ["R-LOS-1", "R-LOS-2", "R-LOS-3"]) == [(backwards, backwards)]


def test_only_headings_define() -> None:
    text = "### R-LOS-1: Line of sight\nR-LOS-2 is cited\n## R-LOS-3: wrong level\n"
    assert definitions(text) == ["R-LOS-1"]


def test_the_checker_sees_this_repository() -> None:
    files = {p.relative_to(ROOT).as_posix() for p in citing_files()}
    assert {"README.md", "docs/sight.md", "sim/shooting/analysis.py", "geometry/cover/lines.py",
            "render/explain/details.py", "tests/test_seed_cover.py", "scenarios/seed-cover-1.toml",
            "bench/sight.py"} <= files
    assert not [f for f in files if "__pycache__" in f]


# --- docs/rules.md --------------------------------------------------------------------


def test_rules_md_defines_each_id_once() -> None:
    ids = defined_ids()
    assert len(ids) > 50
    assert [i for i, n in Counter(ids).items() if n > 1] == []


def test_every_rule_heading_has_the_definition_form() -> None:
    # A heading that starts like a rule but misses the form would define nothing.
    lines = RULES_MD.read_text(encoding="utf-8").splitlines()
    loose = [line for line in lines if re.match(r"^#+\s*R-", line) and not DEFINITION.match(line)]
    assert loose == []


def test_the_revised_rules_are_defined() -> None:
    # Issue 12 revised these; the code cites them with their new meaning.
    assert {"R-CLIMB-5", "R-COV-2", "R-COV-5", "R-COV-6", "R-LOS-3"} <= set(defined_ids())


@pytest.mark.parametrize("path", citing_files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_cited_id_is_defined(path: Path) -> None:
    text = read_text(path)
    if text is None:
        return
    missing = undefined(text, defined_ids())
    assert missing == [], f"{path.relative_to(ROOT)} cites ids docs/rules.md does not define"


def test_every_part_of_the_rules_is_cited_somewhere() -> None:
    # The ids are the project's: a defined part nobody cites is likely a typo.
    text = "\n".join(t for p in citing_files() if p != RULES_MD and (t := read_text(p)))
    needed = {need for _, need in cited(text)}
    parts = {i.rsplit("-", 1)[0] for i in defined_ids()}
    assert {p for p in parts if not any(n.startswith(p + "-") for n in needed)} == set()


# --- links stay inside the repository ---------------------------------------------------


def link_targets(text: str) -> list[str]:
    return [next(g for g in m.groups() if g) for m in LINK.finditer(text)]


def test_link_targets_are_found() -> None:
    text = ('[a](docs/x.md) ![b](img/y.png "title") [c](<z.md#part>)\n'
            '[ref]: ../outside.md\n<img src="p.png"> [d](https://example.org)')
    assert link_targets(text) == ["docs/x.md", "img/y.png", "z.md#part", "../outside.md",
                                  "p.png", "https://example.org"]


def anchors(markdown: str) -> set[str]:
    """The anchors of a page's headings, as GitHub makes them (code blocks skipped)."""
    out: set[str] = set()
    fenced = False
    for line in markdown.splitlines():
        fenced ^= line.startswith("```")
        if not fenced and (m := re.match(r"^#{1,6}\s+(.*?)\s*$", line)):
            slug = re.sub(r"[^\w\- ]", "", m.group(1).lower()).replace(" ", "-")
            out.add(slug)
    return out


def outside_links(path: Path, root: Path = ROOT) -> list[str]:
    """Link targets of ``path`` that leave ``root``, point at nothing, or miss their anchor."""
    bad = []
    for target in link_targets(path.read_text(encoding="utf-8")):
        file_part, _, anchor = target.partition("#")
        if re.match(r"^[a-zA-Z][\w+.-]*:", target) or target.startswith("/"):
            bad.append(target)  # a URL or an absolute path: outside the repository
            continue
        resolved = (path.parent / file_part).resolve() if file_part else path
        if not resolved.is_relative_to(root.resolve()) or not resolved.exists():
            bad.append(target)
            continue
        if anchor and resolved.suffix == ".md" and anchor not in anchors(
                resolved.read_text(encoding="utf-8")):
            bad.append(target)
    return bad


@pytest.mark.parametrize("path", markdown_files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_docs_link_only_inside_the_repository(path: Path) -> None:
    assert outside_links(path) == []


# The digest outside the checkout, spelled so that this file does not name it.
OUTSIDE_DIGEST = ("../" + "shared", "RULES" + ".md")


@pytest.mark.parametrize("path", sorted({*citing_files(), *markdown_files()}),
                         ids=lambda p: p.relative_to(ROOT).as_posix())
def test_nothing_sends_the_reader_outside(path: Path) -> None:
    # The rules are docs/rules.md; no doc, comment or message points elsewhere.
    text = read_text(path) or ""
    assert [s for s in OUTSIDE_DIGEST if s in text] == [], "cite docs/rules.md instead"


def test_an_outside_link_is_reported(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "b.md").write_text("# B\n\n## A part, of B\n", encoding="utf-8")
    (tmp_path.parent / "outside.md").touch()
    doc = tmp_path / "docs" / "a.md"
    doc.write_text("# Top\n[ok](b.md#a-part-of-b) [up](../../outside.md) "
                   "[web](https://example.org) [abs](/etc/hosts) [gone](missing.md) "
                   "[here](#top) [no part](b.md#nothing) [not here](#nowhere)\n",
                   encoding="utf-8")
    assert outside_links(doc, root=tmp_path) == [
        "../../outside.md", "https://example.org", "/etc/hosts", "missing.md",
        "b.md#nothing", "#nowhere"]


def test_readme_and_architecture_link_the_rules() -> None:
    for path in (ROOT / "README.md", ROOT / "docs" / "architecture.md"):
        targets = link_targets(path.read_text(encoding="utf-8"))
        assert any(t.split("#")[0].endswith("rules.md") for t in targets), path


# --- the example at the top of docs/rules.md is what the command prints -----------------


def test_the_explained_example_is_the_real_output(capsys: pytest.CaptureFixture[str]) -> None:
    from sim.cli import main

    text = RULES_MD.read_text(encoding="utf-8")
    block = re.search(r"```\n\$ wasteland ([^\n]+)\n(.*?)```", text, re.DOTALL)
    assert block, "docs/rules.md lost its `wasteland los` example"
    code = main(block.group(1).split())
    assert code == 0
    assert capsys.readouterr().out == block.group(2)
