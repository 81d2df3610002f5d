"""The scripted GM on the exploding-d6 fight page (issue 22 item 5), found by
table_loop.run_all.

Before the counted loop, once a fight: everyone's initiative dice typed and used (Hagen acts
first and keeps his actions). The counted loop is an attack with a parry: Next turn (the robber
acts), the robber's attack on the first fighter of the other side (Hagen, filled in by the page),
Parry picked as Hagen's reaction, the dice typed (the hit dice as rolled, then the parry's), and
Apply. The headline (a megacritical named), Hagen's wounds, protection and saved reactions and the
robber's actions are compared with what rulescore gives for the same roster and the same dice.
Goal: at most 6 interactions on 1 page.
"""

from __future__ import annotations

from dataclasses import dataclass

from table_loop import Loop, Reader, _expect_contains, _expect_text, counted

from rulescore.dice import DiceSource
from rulescore.roster import Roster
from rulescore.systems import exploding_d6 as x6
from rulescore.systems.exploding_d6.fight import Fight

GOAL_X6 = 6  # issue 22 item 5: an exploding-d6 attack with a parry in at most 6 interactions
# Hagen's three Quickness dice, then the robber's; the robber's five hit dice as rolled (6→6→5 is
# one die, 17: a megacritical), then Hagen's five parry dice.
INITIATIVE = (5, 5, 5, 1, 1, 1)
ATTACK = (6, 6, 5, 5, 6, 1, 3, 2, 5, 1, 2, 3, 4)
REACTION = "parry"


@dataclass(frozen=True)
class X6Expected:
    """What the loop must leave on the page, worked out by rulescore."""

    attacker: str
    target: str
    headline: str
    wounds: str
    protection: str
    target_actions: str
    attacker_actions: str


def x6_roster() -> Roster:
    """The roster a first visit of the exploding-d6 fight page starts with (the page's own)."""
    from widgets.exploding_d6_fight import starter
    return starter()


def x6_expected(roster: Roster) -> X6Expected:
    """The fight the roster makes with the initiative dice, Next turn, the acting fighter's
    attack on the first fighter of the other side with the parry, applied (§Start of combat,
    §Sequence of an attack, §Reactions, §Parry melee attacks)."""
    rows = list(roster.fighters)
    order = x6.initiative_table([(r.name, r["quickness"], r["deftness"]) for r in rows],
                                dice=DiceSource.typed(list(INITIATIVE)))
    fight = Fight().join(rows, order).fight.next_turn().fight
    me = fight.actor.name
    them = next(c.name for c in fight.combatants if c.pc != fight.actor.pc)
    setup, flow = fight.attack_inputs(roster.fighter(me), roster.fighter(them),
                                      reaction=REACTION)
    made = x6.attack_setup(**setup)
    result = x6.attack(made.dice, min_roll=made.min_roll, crit_at=made.crit_at,
                       burst=made.burst, dice=DiceSource.typed(list(ATTACK)), **flow)
    after = fight.apply_attack(me, them, result).fight
    hurt, acting = after.of(them), after.of(me)
    # the Actions cells: the actor's left of the most a round, the target's kept to react
    return X6Expected(me, them, result.headline, str(hurt.wounds), str(hurt.protection),
                      f"{hurt.available} saved to react",
                      f"{acting.available} of {acting.maximum}")


def loops(page, book_url: str) -> list[Loop]:
    """The exploding-d6 loop on its fight page; the initiative (once a fight) is printed
    apart."""
    expected = x6_expected(x6_roster())
    reader = Reader(page, book_url)
    reader.open("exploding_d6/fight")
    panel = page.locator(".rulebook-x6-fight").first
    board = panel.locator(".rulebook-x6-fight-board")

    def join(r: Reader) -> None:
        r.typed_dice(panel, INITIATIVE, name="initiative")
        _expect_contains(panel.locator(".rulebook-x6-acting"), "Hagen", "the acting line")

    setup = counted(reader, "exploding_d6 setup", None, None, join)
    if not setup.checked:
        return [Loop("exploding_d6", goal=GOAL_X6, goal_pages=1, pages=1,
                     why=f"the fight did not start: {setup.why}")]

    def exchange(r: Reader) -> None:
        r.click(panel.get_by_role("button", name="Next turn"))
        _expect_contains(panel.locator(".rulebook-x6-acting"), expected.attacker,
                         "the acting line")
        r.pick(panel.get_by_label("Attacker", exact=True), expected.attacker)
        r.pick(panel.get_by_label("Target", exact=True), expected.target)
        r.pick(panel.get_by_label("Reaction", exact=True), "Parry")
        r.typed_dice(panel.locator(".rulebook-x6-fight-attack"), ATTACK)
        _expect_contains(panel.locator(".rulebook-x6-fight-result .rulebook-headline"),
                         expected.headline, "the attack's headline")
        r.click(panel.get_by_role("button", name=f"Apply to {expected.target}"))
        row = board.locator(f"tr[data-fighter='{expected.target}']")
        _expect_text(row.locator(".wounds"), expected.wounds, f"{expected.target}'s wounds")
        _expect_text(row.locator(".protection"), expected.protection,
                     f"{expected.target}'s protection")
        _expect_text(row.locator(".actions"), expected.target_actions,
                     f"{expected.target}'s saved reactions")
        _expect_text(board.locator(f"tr[data-fighter='{expected.attacker}'] .actions"),
                     expected.attacker_actions, f"{expected.attacker}'s actions")

    loop = counted(reader, "exploding_d6", GOAL_X6, 1, exchange)
    loop.pages = len(reader.pages)
    loop.notes.append(f"  (before it, once a fight: the initiative dice typed and used, "
                      f"{setup.interactions} interactions)")
    return [loop]
