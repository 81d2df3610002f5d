"""The scripted GM on the range-band fight page (issue 22 item 5), found by table_loop.run_all.

The counted loop is one shot: the page opens with its own first-visit fighters and where they
stand (the two raiders together, distant from Mara). The GM keeps Mara as the shooter (the page
offers the first fighter), picks the second raider as the target, types the dice rolled at the
table, presses Use my dice and records the hit. The difficulty the page builds from the two
fighters, the result line and the hit written on the target's row are compared with what
rulescore gives for the same roster, positions and dice. Goal: at most 5 interactions on 1 page.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulescore.dice import DiceSource
from rulescore.systems import range_bands as rb
from table_loop import Loop, Reader, _expect_contains, _expect_text, counted

GOAL_RANGE_BANDS = 5  # issue 22 item 5: a range-band shot in at most 5 interactions
SHOOTER, TARGET = "Mara", "Raider 2"
# Mara's five shooting dice, then the difficulty's dice (4D: distant is her optimal band, and
# Raider 2 stands in the open).
SHOT = (5, 4, 3, 2, 1, 3, 3, 2, 4)


@dataclass(frozen=True)
class RBExpected:
    """What the shot must leave on the page, worked out by rulescore."""

    difficulty: str   # "Difficulty 4D"
    said: str         # the result line, e.g. "Hit by 3"
    hits: str         # the target's Hits taken cell, "hit by 3 (Mara)"


def rb_expected() -> RBExpected:
    """The shot from the page's first-visit fight and roster with the typed dice (§Ranged
    attacks), recorded on the target."""
    from widgets.range_bands_fight import first_fight, headline, starter
    roster, fight = starter(), first_fight()
    setup = fight.shot_inputs(roster.fighter(SHOOTER), roster.fighter(TARGET), SHOOTER, TARGET)
    plan = rb.plan_shot(**setup)
    shot = rb.shot(plan.difficulty.value, setup["skill_pool"], roll_bonus=plan.roll_bonus,
                   dice=DiceSource.typed(list(SHOT)))
    after = fight.apply_shot(SHOOTER, TARGET, shot).fight
    hits = ", ".join(h.words() for h in after.of(TARGET).hits) or "—"
    return RBExpected(f"Difficulty {plan.difficulty.value}D", headline(shot), hits)


def loops(page, book_url: str) -> list[Loop]:
    """The range-band shot on its fight page."""
    expected = rb_expected()
    reader = Reader(page, book_url)
    reader.open("range_bands/fight")
    shot = page.locator(".rulebook-rb-fight-shot").first
    board = page.locator(".rulebook-rb-board").first

    def fire(r: Reader) -> None:
        r.pick(shot.get_by_label("Shooter", exact=True), SHOOTER)
        r.pick(shot.get_by_label("Target", exact=True), TARGET)
        _expect_contains(shot.locator(".rulebook-rb-fight-odds"), expected.difficulty,
                         "the difficulty built from the two fighters")
        r.typed_dice(shot, SHOT)
        _expect_text(shot.locator(".rulebook-rb-fight-result"), expected.said,
                     "the shot's result")
        r.click(shot.get_by_role("button", name=f"Record the hit on {TARGET}"))
        _expect_text(board.locator(f"tr[data-fighter='{TARGET}'] .hits"), expected.hits,
                     f"{TARGET}'s hits taken")

    loop = counted(reader, "range_bands", GOAL_RANGE_BANDS, 1, fire)
    loop.pages = len(reader.pages)
    return [loop]
