"""The scripted GM on the TSL fight page (issue 22 item 5), found by table_loop.run_all.

Before the counted loop, once a fight: Start the fight and Vela's first shot at Thug A (typed
dice, applied). The counted loop is an attack after the first: Next turn (the board passes over
Thug A, who has Broken, to Thug B), Thug B's club at the first standing fighter of the other side
(Vela), the dice typed, Apply. The page's Stress on Vela's Body pool and the result line are
compared with what rulescore gives for the same roster and the same dice. Goal: at most 5
interactions on 1 page.
"""

from __future__ import annotations

from dataclasses import dataclass

from table_loop import Loop, Reader, _expect_contains, _expect_text, counted

from rulescore.dice import DiceSource
from rulescore.roster import Roster
from rulescore.systems import tsl

GOAL_TSL = 5  # issue 22 item 5: a TSL attack after the first in at most 5 interactions
# Vela's first shot (her five, then Thug A's five), and Thug B's swing at Vela (his five, then
# her Body defence's five).
FIRST_SHOT = (6, 5, 4, 4, 2, 3, 2, 2, 1, 1)
SECOND_ATTACK = (6, 6, 5, 3, 1, 5, 4, 3, 1, 1)


@dataclass(frozen=True)
class TSLExpected:
    """What the loop must leave on the page, worked out by rulescore."""

    first_said: str     # the first result line's words, e.g. "Crit: 4 Stress"
    attacker: str
    target: str
    said: str
    body: str           # the target's Body cell after it, "2 / 4"
    breaks_first: bool


def tsl_roster() -> Roster:
    """The roster a first visit of the TSL fight page starts with (the page's own)."""
    from widgets.tsl_fight import starter
    return starter()


def _said(result: tsl.Attack) -> str:
    return (f"{tsl.band_name(result.band)}: {result.stress} Stress"
            + (f" to the {result.pool} pool" if result.stress else ""))


def _attack(fight: tsl.Fight, roster: Roster, me: str, them: str, dice: tuple[int, ...]):
    row = roster.fighter(me)
    from rulescore.systems.tsl.fight import row_weapon, weapon_attack
    weapon = row_weapon(row)
    distance = "Engaged" if weapon is None else tsl.fights_at(weapon)[0]
    setup = fight.attack_inputs(row, roster.fighter(them), distance=distance,
                                attack_type=weapon_attack(weapon.zone) if weapon else None)
    result = tsl.attack(DiceSource.typed(list(dice)), **setup)
    return result, fight.apply(me, them, result).fight


def tsl_expected(roster: Roster) -> TSLExpected:
    """The fight the roster makes: Vela's first shot at Thug A, Next turn (to the next fighter
    standing), their attack on the first standing fighter of the other side (§11)."""
    fight = tsl.Fight().start(list(roster.fighters)).fight
    first, fight = _attack(fight, roster, "Vela", "Thug A", FIRST_SHOT)
    fight = fight.next_turn().fight
    me = fight.acting
    them = next(n for n in fight.encounter.order if n != me and not fight.of(n).broken
                and roster.fighter(n).pc != roster.fighter(me).pc)
    result, fight = _attack(fight, roster, me, them, SECOND_ATTACK)
    kit = fight.of(them)
    return TSLExpected(_said(first), me, them, _said(result),
                       f"{kit.pools.stress('Body')} / {kit.pools.size('Body')}",
                       first.target_breaks)


def loops(page, book_url: str) -> list[Loop]:
    """The TSL loop on its fight page; the setup (start, first attack) is printed apart."""
    expected = tsl_expected(tsl_roster())
    reader = Reader(page, book_url)
    reader.open("tsl/fight")
    panel = page.locator(".rulebook-tsl-fight").first
    board = panel.locator(".rulebook-tsl-fight-board")
    entry = panel.locator(".rulebook-tsl-fight-attack")
    result_line = panel.locator(".rulebook-tsl-fight-result")

    def first(r: Reader) -> None:
        r.click(panel.get_by_role("button", name="Start the fight"))
        _expect_contains(panel.locator(".rulebook-tsl-acting"), "Vela is acting", "the board")
        r.pick(panel.get_by_label("Target", exact=True), "Thug A")
        r.typed_dice(entry, FIRST_SHOT)
        _expect_contains(result_line, expected.first_said, "the first shot's result")
        r.click(panel.get_by_role("button", name="Apply to the target"))
        _expect_text(board.locator("tr[data-fighter='Thug A'] .state"),
                     "Broken" if expected.breaks_first else "in the fight", "Thug A's state")

    setup = counted(reader, "tsl setup", None, None, first)
    if not setup.checked:
        return [Loop("tsl", goal=GOAL_TSL, goal_pages=1, pages=1,
                     why=f"the fight did not start: {setup.why}")]

    def exchange(r: Reader) -> None:
        r.click(panel.get_by_role("button", name="Next turn"))
        _expect_contains(panel.locator(".rulebook-tsl-acting"),
                         f"{expected.attacker} is acting", "the acting line")
        r.pick(panel.get_by_label("Attacker", exact=True), expected.attacker)
        r.pick(panel.get_by_label("Target", exact=True), expected.target)
        r.typed_dice(entry, SECOND_ATTACK)
        _expect_contains(result_line, expected.said, "the attack's result")
        r.click(panel.get_by_role("button", name="Apply to the target"))
        _expect_text(board.locator(f"tr[data-fighter='{expected.target}'] .body"),
                     expected.body, f"{expected.target}'s Body pool")

    loop = counted(reader, "tsl", GOAL_TSL, 1, exchange)
    loop.pages = len(reader.pages)
    loop.notes.append(f"  (before it, once a fight: Start the fight and the first attack, "
                      f"{setup.interactions} interactions)")
    return [loop]
