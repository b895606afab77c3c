""""What if I stand here?" (issue 16): hovering a free spot while a model is
active shows who could see it there and its cover, answered by the same
analyse() with the model's position replaced (R-LOS-1, R-COV-2).
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"

from pathlib import Path

import pytest

from sim.scenario.positions import Position
from sim.shooting.analysis import analyse
from tests.combat_util import at_activation, scenario
from tests.window_driver import Driver


@pytest.fixture
def driver(tmp_path: Path):
    d = Driver(scenario("seed-plasma"), save_dir=tmp_path,
               state=at_activation(scenario("seed-plasma"), "survivor"))
    d.app.show.dismiss()
    yield d
    d.close()


def expected(d: Driver, spot: Position) -> tuple[set[str], dict[str, tuple[str, ...]]]:
    """Who sees the survivor at ``spot``, with its cover: analyse() asked by the test."""
    st = d.state
    pos = {**st.positions(), "survivor": spot}
    seen, cover = set(), {}
    for other in pos:
        if st.model(other).side == st.model("survivor").side:
            continue
        a = analyse(st.scenario, pos, other, "survivor")
        if a.line_of_sight:
            seen.add(other)
            cover[other] = tuple(a.cover)
    return seen, cover


@pytest.mark.parametrize("spot", [(3.0, 13.0), (10.0, 17.0), (14.0, 4.0)])
def test_what_if_equals_analyse_at_the_spot(driver: Driver, spot: tuple[float, float]) -> None:
    d = driver
    d.move_to(d.board_px(*spot))
    answer = d.app.show.what_if.answer
    assert answer is not None and answer.model == "survivor"
    assert (answer.spot.x, answer.spot.y) == pytest.approx(spot, abs=0.13)  # the hover cell
    seen, cover = expected(d, answer.spot)
    assert {w.model for w in answer.seen_by} == seen
    assert {w.model: w.cover for w in answer.seen_by} == cover
    assert set(answer.hidden_from) | seen == {
        m for m in d.state.positions() if d.state.model(m).side != "survivor"}
    assert any(line.text.startswith("What if") for line in d.app.show.what_if.text)


def test_the_spot_moves_the_model_only_in_the_question(driver: Driver) -> None:
    d = driver
    before = d.state.to_dict()
    d.move_to(d.board_px(10.0, 17.0))
    assert d.app.show.what_if.answer is not None
    assert d.state.to_dict() == before


def test_no_what_if_over_a_model_or_while_setting_up(driver: Driver) -> None:
    d = driver
    p = d.state.model("mutant-a").position
    d.move_to(d.board_px(p.x, p.y))
    assert d.app.show.what_if.answer is None  # that is the shot check's place
    d.click_button("Move")
    d.move_to(d.board_px(10.0, 17.0))
    assert d.app.show.what_if.answer is None
