"""The dice card (issue 16): after each roll the d20 against its target number,
the effect dice with their symbols, the armor roll, HIT or MISS and the damage,
read from the engine's typed roll record (sim.combat.rolls), never from text.

Rules: R-SHOOT-2 (skill test, house accuracy), R-DMG-1 (damage), R-ARM-1 (armor roll).
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"

from pathlib import Path

import pytest

from render.draw.dice_card import CARD_MS, card_lines
from sim.combat.rolls import AttackRoll, attack_rolls
from sim.game.kinds import parse_action
from tests.combat_util import armor, at_activation, face, scenario, skill
from tests.window_driver import Driver


def test_a_hit_becomes_one_typed_record_with_every_die() -> None:
    """R-SHOOT-2: 8 - 1 accuracy = 7 <= 7 hits; the armor reduction leaves no armor roll."""
    state = at_activation(scenario("seed-plasma"), "survivor", [
        skill(8), face("accuracy", "accuracy"), face("armor-reduction", "armor-reduction")])
    state.apply(parse_action("shoot survivor mutant-a plasma_rifle short"))
    (roll,) = attack_rolls(state.events)
    assert (roll.attacker, roll.target, roll.weapon) == ("survivor", "mutant-a", "plasma_rifle")
    assert (roll.skill_roll, roll.accuracy, roll.result, roll.target_number) == (8, 1, 7, 7)
    assert roll.effects == (("accuracy", ("accuracy",)), ("armor-reduction", ("armor-reduction",)))
    assert roll.hit and roll.armor_roll is None and roll.dealt == 3
    assert state.model("mutant-a").health == 1  # the record says what the engine did


def test_a_miss_records_no_damage() -> None:
    """A 9 with one accuracy is 8 > 7: a miss, no armor die."""
    state = at_activation(scenario("seed-plasma"), "survivor", [
        skill(9), face("accuracy", "accuracy"), face("armor-reduction")])
    state.apply(parse_action("shoot survivor mutant-a plasma_rifle short"))
    (roll,) = attack_rolls(state.events)
    assert not roll.hit and roll.result == 8 and roll.dealt == 0 and roll.armor_roll is None


def test_an_armor_roll_is_recorded() -> None:
    """R-ARM-1: no armor reduction rolled, so the mutant's armor die is rolled."""
    state = at_activation(scenario("seed-plasma"), "survivor", [
        skill(3), face("accuracy"), face("armor-reduction"), armor(1)])
    state.apply(parse_action("shoot survivor mutant-a plasma_rifle short"))
    (roll,) = attack_rolls(state.events)
    assert roll.hit and roll.armor_roll == 1
    assert roll.dealt == 4 - state.model("mutant-a").health


def test_card_words_come_from_the_record() -> None:
    roll = AttackRoll(round=2, attacker="a", target="b", weapon="w", target_number=7,
                      skill_roll=9, accuracy=2, result=7, effects=(
                          ("accuracy", ("accuracy", "accuracy")), ("damage", ())),
                      hit=True, damage_total=4, armor_roll=2, effective_armor=1, dealt=4)
    big, lines = card_lines(roll, {"a": "Alpha", "b": "Bravo"}.get, {"w": "Rifle"}.get)
    assert big == "HIT - 4 damage"
    text = " | ".join(lines)
    assert "Alpha -> Bravo, Rifle" in text
    assert "d20: 9 - 2 accuracy = 7 vs 7 or less" in text
    assert "armor roll 2 vs 1" in text


@pytest.fixture
def shot_driver(tmp_path: Path):
    state = at_activation(scenario("seed-plasma"), "survivor", [
        skill(8), face("accuracy", "accuracy"), face("armor-reduction", "armor-reduction")])
    d = Driver(scenario("seed-plasma"), save_dir=tmp_path, state=state)
    now = [1000]
    d.app.clock = lambda: now[0]
    yield d, now
    d.close()


def test_the_window_shows_the_card_for_a_moment_then_keeps_it_in_the_log(shot_driver) -> None:
    d, now = shot_driver
    d.controller.apply(parse_action("shoot survivor mutant-a plasma_rifle short"))
    d.step()
    card = d.app.show.card
    (roll,) = attack_rolls(d.state.events)
    assert card is not None and card.roll == roll  # the engine's record, unchanged
    assert d.app.show.card_visible(now[0])
    now[0] += CARD_MS + 1
    d.step()
    assert not d.app.show.card_visible(now[0])
    shown = d.app.show.shown(now[0], d.controller.scene())
    assert shown.card is None  # gone from the board after its moment
    hit = next(i for i, e in enumerate(d.state.events) if e.kind == "hit")
    assert shown.log[hit].endswith(">> HIT - 3 damage")  # and stays in the event log
