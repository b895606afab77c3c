"""The scenario editor driven with events (issue 19), as a player would use it.

Every input is a pygame event through the window's loop (SDL dummy driver):
keys, clicks, drags, typed text. What is checked is what the player relies
on: the saved file passes ``wasteland check`` and starts a game (R-TURN-1:
two sides), an opened file changes only the piece that moved, the loader's
problems show on the piece they name (R-TER-1), and the sight overlay of
the game answers while editing (R-LOS-1).
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import difflib
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest

from render.draw.frame import board_transform
from render.draw.panels import button_rects
from render.editor.app import EditorApp, open_editor
from render.editor.controller import EditorController
from sim.cli import main
from sim.game.kinds import new_game
from sim.scenario.draft import blank
from sim.scenario.format.loader import load_scenario

ROOT = Path(__file__).resolve().parent.parent


class EditorDriver:
    """The editor's window under the dummy driver and helpers that post real events."""

    def __init__(self, editor: EditorController) -> None:
        self.editor = editor
        self.app: EditorApp = open_editor(editor, (1280, 800))
        self.app.step([])

    def post(self, kind: int, **attrs: Any) -> None:
        pygame.event.post(pygame.event.Event(kind, **attrs))

    def key(self, key: int, mod: int = 0) -> None:
        self.post(pygame.KEYDOWN, key=key, mod=mod, unicode="", scancode=0)
        self.post(pygame.KEYUP, key=key, mod=mod, unicode="", scancode=0)
        self.app.step()

    def type(self, text: str) -> None:
        self.post(pygame.TEXTINPUT, text=text)
        self.app.step()

    def px(self, x: float, y: float) -> tuple[int, int]:
        return board_transform(self.app.layout, self.app.controller.scene()).to_screen(x, y)

    def click(self, x: float, y: float) -> None:
        self.click_px(self.px(x, y))

    def click_px(self, pos: tuple[int, int]) -> None:
        self.post(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))
        self.post(pygame.MOUSEBUTTONDOWN, pos=pos, button=1)
        self.post(pygame.MOUSEBUTTONUP, pos=pos, button=1)
        self.app.step()

    def drag(self, a: tuple[float, float], b: tuple[float, float]) -> None:
        pa, pb = self.px(*a), self.px(*b)
        mid = ((pa[0] + pb[0]) // 2, (pa[1] + pb[1]) // 2)
        self.post(pygame.MOUSEMOTION, pos=pa, rel=(0, 0), buttons=(0, 0, 0))
        self.post(pygame.MOUSEBUTTONDOWN, pos=pa, button=1)
        for p in (mid, pb):
            self.post(pygame.MOUSEMOTION, pos=p, rel=(0, 0), buttons=(1, 0, 0))
        self.post(pygame.MOUSEBUTTONUP, pos=pb, button=1)
        self.app.step()

    def labels(self) -> list[str]:
        return [b.label for b in self.app.controller.view().buttons]

    def click_button(self, label: str) -> None:
        labels = self.labels()
        assert label in labels, f"{label!r} not offered; offered: {labels}"
        captions = self.app.controller.captions()  # as drawn: with their keys
        r = button_rects(self.app.layout.buttons, captions)[labels.index(label)]
        self.click_px((r.x + r.w // 2, r.y + r.h // 2))

    def pick_unit(self, name: str) -> None:
        """The Unit button opens the picker (issue 34); click the unit in it."""
        self.click_button(next(b for b in self.labels() if b.startswith("Unit: ")))
        self.click_button(name)

    def press_until(self, prefix: str, wanted: str) -> None:
        """Click the button starting ``prefix`` until it reads ``prefix + wanted``."""
        for _ in range(20):
            label = next(b for b in self.labels() if b.startswith(prefix))
            if label == prefix + wanted:
                return
            self.click_button(label)
        raise AssertionError(f"{prefix}{wanted} never offered")

    def close(self) -> None:
        pygame.display.quit()


@pytest.fixture
def new_board(tmp_path: Path) -> Iterator[EditorDriver]:
    target = tmp_path / "built.toml"
    d = EditorDriver(EditorController(blank((36.0, 36.0), target), target))
    yield d
    d.close()


def build_battlefield(d: EditorDriver) -> None:
    """Three pieces of three kinds and four models of two sides, with the mouse and keys."""
    d.key(pygame.K_r)  # rectangle; the first preset is a wall
    d.drag((5.0, 5.0), (10.0, 5.5))
    d.key(pygame.K_ESCAPE)  # done with the new piece: the tools come back
    d.key(pygame.K_c)
    d.press_until("Preset: ", "Building")
    d.drag((18.0, 18.0), (20.0, 18.0))
    d.key(pygame.K_ESCAPE)
    d.key(pygame.K_p)
    d.press_until("Preset: ", "Forest")
    for x, y in ((24.0, 4.0), (30.0, 4.0), (31.0, 9.0), (25.0, 9.0)):
        d.click(x, y)
    d.key(pygame.K_RETURN)
    d.key(pygame.K_ESCAPE)
    d.key(pygame.K_m)
    d.pick_unit("Knight (Knight Patrol)")
    d.press_until("Side: ", "Commonwealth Settlers")
    d.click(3.0, 30.0)
    d.key(pygame.K_ESCAPE)
    d.click(6.0, 30.0)
    d.key(pygame.K_ESCAPE)
    d.pick_unit("Super Mutant")
    d.key(pygame.K_v)  # the next side
    d.click(30.0, 30.0)
    d.key(pygame.K_ESCAPE)
    d.click(33.0, 30.0)
    d.key(pygame.K_ESCAPE)


def test_build_from_nothing_save_check_and_play(new_board: EditorDriver, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    d = new_board
    build_battlefield(d)
    s = d.editor.draft.scenario
    assert [p.id for p in s.terrain] == ["wall-1", "building-1", "forest-1"]
    assert s.piece("wall-1").polygon is not None and s.piece("building-1").circle is not None
    assert s.piece("forest-1").props.area and len(s.piece("forest-1").polygon or ()) == 4
    assert s.piece("building-1").circle == ((18.0, 18.0), 2.0)
    assert sorted((m.unit, m.side) for m in s.models) == [
        ("knight", "settlers"), ("knight", "settlers"),
        ("super_mutant", "mutants"), ("super_mutant", "mutants")]
    assert d.editor.draft.valid, d.editor.draft.problems
    d.key(pygame.K_s, pygame.KMOD_CTRL)
    saved = tmp_path / "built.toml"
    assert saved.is_file(), d.editor.status
    assert main(["check", str(saved)]) == 0
    assert capsys.readouterr().out.strip() == f"{saved}: ok"
    loaded = load_scenario(saved)
    assert loaded == s
    game = new_game(loaded)  # the game starts: two sides, four models (R-TURN-1)
    assert sorted(game.models) == sorted(m.id for m in s.models)
    assert not d.editor.unsaved


def piece_ids(d: EditorDriver) -> list[str]:
    return [p.id for p in d.editor.draft.scenario.terrain]


def test_undo_and_redo_walk_the_drafts(new_board: EditorDriver) -> None:
    d = new_board
    d.key(pygame.K_r)
    d.drag((5.0, 5.0), (10.0, 8.0))
    d.drag((15.0, 5.0), (20.0, 8.0))
    assert piece_ids(d) == ["wall-1", "wall-2"]
    d.key(pygame.K_z, pygame.KMOD_CTRL)
    assert piece_ids(d) == ["wall-1"]
    d.key(pygame.K_z, pygame.KMOD_CTRL)
    assert piece_ids(d) == []
    d.key(pygame.K_y, pygame.KMOD_CTRL)
    d.key(pygame.K_y, pygame.KMOD_CTRL)
    assert piece_ids(d) == ["wall-1", "wall-2"]


def shipped_copy(tmp_path: Path, name: str) -> Path:
    shutil.copytree(ROOT / "scenarios" / "units", tmp_path / "units")
    path = tmp_path / name
    shutil.copy(ROOT / "scenarios" / name, path)
    return path


def test_open_shipped_move_one_piece_diff_is_that_piece(tmp_path: Path) -> None:
    path = shipped_copy(tmp_path, "skirmish.toml")
    before = path.read_text(encoding="utf-8")
    d = EditorDriver(EditorController(load_scenario(path), path, before))
    try:
        d.drag((18.0, 10.25), (18.0, 12.25))  # wall-1, two inches down, by the mouse
        d.key(pygame.K_s, pygame.KMOD_CTRL)
    finally:
        d.close()
    after = path.read_text(encoding="utf-8")
    changed = [line for line in difflib.unified_diff(before.splitlines(), after.splitlines(),
                                                     lineterm="", n=0)
               if line[:1] in "+-" and not line.startswith(("+++", "---"))]
    assert changed == ["-polygon = [[15, 10], [21, 10], [21, 10.5], [15, 10.5]]",
                       "+polygon = [[15, 12], [21, 12], [21, 12.5], [15, 12.5]]"]
    moved = load_scenario(path)
    assert moved.piece("wall-1").polygon == ((15, 12), (21, 12), (21, 12.5), (15, 12.5))
    assert main(["check", str(path)]) == 0


def test_a_problem_shows_on_its_piece_and_blocks_saving(new_board: EditorDriver,
                                                        tmp_path: Path) -> None:
    d = new_board
    d.key(pygame.K_r)
    d.drag((30.0, 5.0), (35.0, 8.0))
    d.key(pygame.K_ESCAPE)
    d.key(pygame.K_s)  # the select tool
    for _ in range(3):  # a little past the east edge (R-TER-1: a piece lies on the board)
        d.key(pygame.K_RIGHT, pygame.KMOD_SHIFT) if d.editor.selected else d.click(32.0, 6.0)
    draft = d.editor.draft
    assert draft.marked == {"wall-1"}
    assert "lies outside the board" in draft.on("wall-1")[0].message
    details = [line.text for line in d.app.controller.view().details]
    assert any("lies outside the board" in t for t in details)
    d.key(pygame.K_s, pygame.KMOD_CTRL)
    assert not (tmp_path / "built.toml").exists()
    assert d.editor.status_error and "not saved" in d.editor.status


def test_typed_fields_and_properties(new_board: EditorDriver) -> None:
    d = new_board
    d.click_button("Name: New scenario")
    for _ in "New scenario":
        d.key(pygame.K_BACKSPACE)
    d.type("Bridge at dawn")
    d.key(pygame.K_RETURN)
    assert d.editor.draft.scenario.name == "Bridge at dawn"
    d.click_button("Rules: rulebook")
    d.click_button("Advantage: none")
    d.click_button("Rounds: 6")
    d.key(pygame.K_BACKSPACE)
    d.type("4")
    d.key(pygame.K_RETURN)
    s = d.editor.draft.scenario
    assert (s.rules, s.advantage, s.rounds) == ("vts-1.5", "settlers", 4)
    d.click_button("Rounds: 4")
    d.type("x")  # "4x": refused, the draft unchanged, the reason in the status bar
    d.key(pygame.K_RETURN)
    assert d.editor.draft.scenario.rounds == 4 and d.editor.status_error
    assert "rounds: expected a positive whole number" in d.editor.status
    d.key(pygame.K_r)
    d.drag((5.0, 5.0), (10.0, 8.0))
    d.click_button("Climbable: no")
    d.click_button("Movement: impassable")
    d.click_button('Height: 3"')
    d.key(pygame.K_BACKSPACE)
    d.type("4.5")
    d.key(pygame.K_RETURN)
    d.click_button("Overrides...")
    d.key(pygame.K_BACKSPACE)
    d.key(pygame.K_BACKSPACE)
    d.type('{ huge = { movement = "difficult" } }')
    d.key(pygame.K_RETURN)
    piece = d.editor.draft.scenario.piece("wall-1")
    assert piece.props.climbable and piece.props.movement == "normal"
    assert piece.props.height == 4.5
    assert dict(piece.overrides["huge"]) == {"movement": "difficult"}
    d.click_button("Rotate +15")
    assert d.editor.draft.scenario.piece("wall-1").polygon != piece.polygon
    d.key(pygame.K_DELETE)
    assert d.editor.draft.scenario.terrain == ()


def test_sight_overlay_while_editing_and_play_this(tmp_path: Path) -> None:
    path = shipped_copy(tmp_path, "skirmish.toml")
    d = EditorDriver(EditorController(load_scenario(path), path, path.read_text()))
    try:
        s = d.editor.draft.scenario
        a, b = s.models[0], s.models[-1]
        d.key(pygame.K_F2)
        d.click(*a.at)
        d.click(*b.at)
        assert d.editor.picks == [a.id, b.id]
        details = " ".join(line.text for line in d.app.controller.view().details)
        assert "sight" in details.lower()
        d.key(pygame.K_F2)
        d.key(pygame.K_F5)  # save and play
        assert d.app.game is not None and d.app.game.state is not None
        assert d.app.game.scenario == load_scenario(path)
        d.key(pygame.K_e, pygame.KMOD_CTRL)
        assert d.app.game is None and d.app.controller is d.editor
    finally:
        d.close()


def test_every_tool_button_fits_the_panel(new_board: EditorDriver) -> None:
    """A button that is not laid out cannot be clicked: the tools page fits 1280x800."""
    labels = new_board.app.controller.captions()
    assert len(button_rects(new_board.app.layout.buttons, labels)) == len(labels), labels
    new_board.key(pygame.K_r)
    new_board.drag((5.0, 5.0), (10.0, 8.0))  # a piece selected: its properties
    labels = new_board.app.controller.captions()
    assert "Movement: impassable" in labels
    assert len(button_rects(new_board.app.layout.buttons, labels)) == len(labels), labels
    new_board.key(pygame.K_ESCAPE)
    new_board.key(pygame.K_u)  # the unit picker: every unit of the scenario
    labels = new_board.app.controller.captions()
    assert len(button_rects(new_board.app.layout.buttons, labels)) == len(labels), labels


def test_every_editor_key_is_documented() -> None:
    """Each key the editor reacts to is in docs/editor.md's key table (and F1's text)."""
    from render.editor.app import CTRL_KEYS, KEYS
    from render.editor.panel import HELP

    doc = (ROOT / "docs" / "editor.md").read_text(encoding="utf-8")
    table = doc[doc.index("| key | does |"):doc.index("The side panel")]
    names = {"help": "F1", "debug": "F2", "all_sight": "F3", "edges_reach": "F4", "play": "F5",
             "confirm": "Enter", "escape": "Esc", "backspace": "Backspace", "delete": "Delete",
             "tool_select": "S", "tool_rect": "R", "tool_circle": "C", "tool_polygon": "P",
             "tool_model": "M", "tool_objective": "O", "next_objective_kind": "K",
             "next_preset": "Tab", "next_unit": "U", "next_side": "V",
             "legend": "L", "rotate:-15": "[", "rotate:15": "]", "scale:0.9": "-",
             "scale:1.1": "=", "undo": "Ctrl+Z", "redo": "Ctrl+Y", "save": "Ctrl+S",
             "quit": "Ctrl+Q", "duplicate": "Ctrl+D", "copy": "Ctrl+C", "paste": "Ctrl+V"}
    keys = {token for row in table.splitlines()[2:] if row.startswith("| ")
            for token in re.split(r"[ ,()]+", row.split("|")[1]) if token}
    for command in {*KEYS.values(), *CTRL_KEYS.values()}:
        assert names[command] in keys, command
    help_text = " ".join(HELP)
    for token in ("F5", "Ctrl+Z", "Ctrl+Y", "Tab", "F2", "Ctrl+E"):
        assert token in help_text


def test_leaving_with_changes_keeps_them_beside_the_file(tmp_path: Path) -> None:
    """Ctrl+Q with changes not saved: the file is untouched, the draft (problems and all)
    is kept in NAME.unsaved.toml, comments included."""
    path = shipped_copy(tmp_path, "skirmish.toml")
    before = path.read_text(encoding="utf-8")
    d = EditorDriver(EditorController(load_scenario(path), path, before))
    try:
        d.drag((18.0, 10.25), (18.0, 3.25))  # wall-1 onto two models: not a valid board
        d.key(pygame.K_q, pygame.KMOD_CTRL)
        assert not d.app.running
        assert d.app.save_on_quit() == tmp_path / "skirmish.unsaved.toml"
    finally:
        d.close()
    assert path.read_text(encoding="utf-8") == before
    kept = (tmp_path / "skirmish.unsaved.toml").read_text(encoding="utf-8")
    assert "# The default scenario: a ruined crossroads." in kept
    assert "polygon = [[15, 3], [21, 3], [21, 3.5], [15, 3.5]]" in kept


def test_closing_the_window_during_play_this_saves_the_game(tmp_path: Path) -> None:
    """F5 plays the saved file in the same window; closing the window then ends the loop
    and keeps the game in a save (issue 31), as the game's own window does; Ctrl+E after a
    resize comes back to an editor laid out for the new size (issue 32: the editor is its
    own window over the shared loop, not a game controller in disguise)."""
    path = shipped_copy(tmp_path, "skirmish.toml")
    d = EditorDriver(EditorController(load_scenario(path), path, path.read_text()))
    try:
        d.key(pygame.K_F5)
        game = d.app.game
        assert game is not None and game.state is not None
        d.post(pygame.VIDEORESIZE, size=(1100, 760), w=1100, h=760)
        d.app.step()
        d.key(pygame.K_e, pygame.KMOD_CTRL)
        assert d.app.game is None and d.app.running
        assert d.app.layout.window.w == 1100
        d.key(pygame.K_F5)
        game = d.app.game
        assert game is not None and game.state is not None
        assert game.apply(game.legal()[0]) and game.unsaved  # a game under way
        d.post(pygame.QUIT)
        d.app.step()
        assert not d.app.running
        saved = d.app.save_on_quit()
        assert saved is not None and saved.parent == tmp_path and saved.suffix == ".json"
    finally:
        d.close()


def test_the_unit_picker_duplicate_copy_paste_and_keys_on_buttons(
        new_board: EditorDriver) -> None:
    """Issue 34: U opens a picker of every unit (numbers choose); Ctrl+D duplicates a piece
    or a model beside it with the next id; Ctrl+C, Ctrl+V paste a copy at the pointer;
    the buttons show their keys."""
    d = new_board
    e = d.editor
    captions = e.captions()
    assert "Rectangle [R]" in captions and "Save [Ctrl+S]" in captions
    d.key(pygame.K_u)
    units = list(e.draft.scenario.units.items())
    assert d.labels()[:len(units)] == [u.name for _, u in units]  # every unit, in order
    assert e.captions()[2] == f"3. {units[2][1].name}"
    d.key(pygame.K_3)  # its number chooses it
    assert e.tool.unit == units[2][0] and "Unit: " + units[2][1].name in d.labels()
    d.key(pygame.K_m)
    d.click(4.0, 30.0)  # a model of that unit, selected
    placed = e.selected
    assert placed is not None and e.draft.scenario.model(placed).unit == units[2][0]
    d.key(pygame.K_u)  # with a model selected: its unit
    d.click_button(units[0][1].name)
    assert e.draft.scenario.model(placed).unit == units[0][0]
    d.key(pygame.K_d, pygame.KMOD_CTRL)
    copy = e.selected
    assert copy is not None and copy != placed
    m, c = e.draft.scenario.model(placed), e.draft.scenario.model(copy)
    assert (c.unit, c.side) == (m.unit, m.side)
    assert (c.at[0] - m.at[0], c.at[1] - m.at[1]) == pytest.approx((1.0, 1.0))
    d.key(pygame.K_ESCAPE)
    d.key(pygame.K_r)
    d.drag((5.0, 5.0), (10.0, 5.5))  # a wall, selected
    wall = e.selected
    assert wall is not None
    d.key(pygame.K_d, pygame.KMOD_CTRL)
    s = e.draft.scenario
    twin = e.selected
    assert twin is not None and twin != wall and s.piece(twin).props == s.piece(wall).props
    a, b = s.piece(wall).footprint.bounds, s.piece(twin).footprint.bounds
    assert [q - p for p, q in zip(a, b, strict=True)] == pytest.approx([1.0, 1.0, 1.0, 1.0])
    d.key(pygame.K_c, pygame.KMOD_CTRL)
    d.post(pygame.MOUSEMOTION, pos=d.px(20.0, 20.0), rel=(0, 0), buttons=(0, 0, 0))
    d.app.step()
    d.key(pygame.K_v, pygame.KMOD_CTRL)
    pasted = e.draft.scenario.piece(e.selected or "")
    centre = pasted.footprint.centroid
    assert (centre.x, centre.y) == pytest.approx((20.0, 20.0), abs=0.06)  # snapped to 0.1 in
    assert len(e.draft.scenario.terrain) == 3
    d.key(pygame.K_z, pygame.KMOD_CTRL)  # each is one change: undo takes the paste back
    assert len(e.draft.scenario.terrain) == 2


def test_the_editor_zooms_and_home_fits(new_board: EditorDriver) -> None:
    """The wheel zooms the editor's board at the pointer, a click still lands where it is
    drawn (a rectangle drawn zoomed has the corners dragged), Home fits it again."""
    d = new_board
    fitted = board_transform(d.app.layout, d.editor.scene())
    at = d.px(10.0, 10.0)
    d.post(pygame.MOUSEWHEEL, x=0, y=2, pos=at, flipped=False, precise_x=0.0, precise_y=2.0,
           touch=False, which=0)
    d.app.step()
    zoomed = board_transform(d.app.layout, d.editor.scene())
    assert zoomed.scale > fitted.scale
    assert zoomed.to_board(*at) == pytest.approx(fitted.to_board(*at), abs=1e-9)
    d.key(pygame.K_r)
    d.drag((8.0, 8.0), (11.0, 9.0))  # d.px maps through the zoomed transform
    piece = d.editor.draft.scenario.piece(d.editor.selected or "")
    assert piece.footprint.bounds == pytest.approx((8.0, 8.0, 11.0, 9.0), abs=0.11)
    d.key(pygame.K_HOME)
    assert board_transform(d.app.layout, d.editor.scene()) == fitted
