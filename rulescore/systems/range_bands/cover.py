"""Cover, line of sight and stealth."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

from rulescore.dice import DiceSource, Distribution
from rulescore.dice.source import count_to_draw, not_both
from rulescore.errors import require_int
from rulescore.trace import Resolution, step
from rulescore.errors import require_bool as flag, require_choice as one_of, require_row as choice

from ._system import DATA
from .inputs import MAX_POOL, bonus, d6_faces, pool, yes
from .checks import Odds, drawn, margin_counts

#: What the target did with its movement this turn.
MOVEMENT = ("still", "move", "dash", "impassable")
#: Consecutive successful Stealth checks after which the opponent is unaware.
UNAWARE_AFTER = 2
#: Movements that allow a Stealth check: staying put or a single move (§Stealth). A dash and a
#: crossing of impassable terrain both take two actions of movement.
STEALTHY = ("still", "move")
_NO_STEALTH = {"dash": "A dashing character cannot make a Stealth check: not hidden",
               "impassable": "Crossing impassable terrain takes two move actions, more than the "
                             "one move a Stealth check allows: no check, not hidden"}


@dataclass(frozen=True, kw_only=True)
class CoverResult(Resolution):
    """Cover as it counts: ``value`` is the dice it adds (0 when it does not apply)."""

    cover: str
    applies: bool
    bulk_penalties: bool


def cover_dice(cover: str) -> int:
    """The dice a kind of cover adds, by the table (a plain lookup): none 0 … heavy 3."""
    return choice("cover", cover, DATA.table("bands", "cover"), "cover")["dice"]


def cover_modifier(cover: str = "none", *, movement: str = "still",
                   close_contact: bool = False) -> CoverResult:
    """How much the target's *cover* counts (§Cover).

    Cover counts for a character standing still or taking one move; a dashing character loses
    it; it never counts in close contact. For impassable terrain the GM picks the cover the
    terrain gives (none on a bare cliff). Medium and heavy cover bring bulk penalties.
    """
    row = choice("cover", cover, DATA.table("bands", "cover"), "cover")
    one_of("movement", movement, MOVEMENT)
    flag("close_contact", close_contact)
    ref = DATA.rule("Cover")
    steps = [step(f"{row['name']} ({row['examples']}): +{row['dice']}D",
                  DATA.rule("Cover types"), dice=row["dice"])]
    applies = row["dice"] > 0
    if close_contact and applies:
        applies = False
        steps.append(step("Cover gives no benefit in close contact", ref))
    elif movement == "dash" and applies:
        applies = False
        steps.append(step("The character is dashing and loses the benefit of cover", ref))
    elif applies:
        how = {"still": "stays put", "move": "moves slowly (one move action)",
               "impassable": "crosses impassable terrain the GM rules gives this cover"}[movement]
        steps.append(step(f"The character {how}, so cover counts", ref))
    dice = row["dice"] if applies else 0
    bulk = yes(row, "bulk")
    if bulk:
        steps.append(step(f"{row['name']} is terrain that brings bulk penalties", ref))
    return CoverResult(value=dice, outcome=f"+{dice}D", trace=tuple(steps), cover=cover,
                       applies=applies, bulk_penalties=bulk)


def line_of_sight(heavy_cover_bands: int) -> bool:
    """Is there line of sight through *heavy_cover_bands* bands (map squares) of heavy cover?

    More than one band of heavy cover usually blocks it (§Cover).
    """
    return require_int("heavy_cover_bands", heavy_cover_bands, minimum=0, maximum=6) <= 1


def can_target(hidden: bool, area_fire: bool = False) -> bool:
    """Can a character be shot at? A hidden one only by area fire (§Stealth)."""
    is_hidden, area = flag("hidden", hidden), flag("area_fire", area_fire)
    return not is_hidden or area


@dataclass(frozen=True, kw_only=True)
class StealthResult(Resolution):
    """A Stealth check against Perception: ``value`` is the margin (0 if no check was made)."""

    hidden: bool
    streak: int
    unaware: bool
    margin: int

    @property
    def success(self) -> bool:
        """Whether the Stealth check succeeded: the character is hidden."""
        return self.hidden


def stealth_dice_needed(stealth_pool: int, perception_pool: int, cover: str = "none", *,
                        movement: str = "still", close_contact: bool = False) -> dict[str, int]:
    """How many d6 each side rolls: Stealth, then the cover's dice, then Perception.

    Assumption ``stealth_cover``: cover that counts adds its dice to the hider's roll.
    """
    c = cover_modifier(cover, movement=movement, close_contact=close_contact)
    own, seen = pool("stealth_pool", stealth_pool), pool("perception_pool", perception_pool)
    if movement not in STEALTHY:
        return {"stealth_dice": 0, "cover_dice": 0, "perception_dice": 0}
    return {"stealth_dice": own, "cover_dice": c.value, "perception_dice": seen}


def stealth(stealth_dice: Sequence[int] | int, perception_dice: Sequence[int] | int,
            cover: str = "none", *, cover_dice: Sequence[int] = (), movement: str = "still",
            close_contact: bool = False, streak: int = 0, stealth_bonus: int = 0,
            perception_bonus: int = 0, dice: DiceSource | None = None) -> StealthResult:
    """An opposed Stealth/Perception check (§Stealth), made while staying put or taking one move.

    The hider rolls Stealth plus the dice of cover that counts (*cover_dice*, assumption
    ``stealth_cover``) against the observer's Perception; a tie goes to the hider (assumption
    ``ties``). Hidden, the character can be targeted only by area fire. *streak* is the number of
    successful checks in a row before this one; two in a row make the opponent unaware. A
    character who dashes or crosses impassable terrain (two moves either way) makes no check and
    is not hidden. With *dice*, *stealth_dice* and *perception_dice* are the two pools and
    every die (the cover's too) is drawn from it, in that order: Stealth, cover, Perception.
    """
    c = cover_modifier(cover, movement=movement, close_contact=close_contact)

    def counts() -> dict[str, int]:
        not_both("cover_dice", cover_dice, dice)
        need = stealth_dice_needed(
            count_to_draw("stealth_dice", stealth_dice, dice, minimum=1, maximum=MAX_POOL),
            count_to_draw("perception_dice", perception_dice, dice, minimum=1,
                          maximum=MAX_POOL), cover, movement=movement,
            close_contact=close_contact)
        return need
    got, rolled = drawn(dice, {"stealth_dice": stealth_dice, "cover_dice": cover_dice,
                               "perception_dice": perception_dice}, counts)
    stealth_dice, cover_dice, perception_dice = (
        got["stealth_dice"], got["cover_dice"], got["perception_dice"])
    before = require_int("streak", streak, minimum=0, maximum=99)
    sb, pb = bonus("stealth_bonus", stealth_bonus), bonus("perception_bonus", perception_bonus)
    ref = DATA.rule("Stealth")
    steps = [*rolled, *c.trace]
    if movement not in STEALTHY:
        # No check is rolled, but typed dice are still read: a slip is never ignored.
        for name, dice in (("stealth_dice", stealth_dice), ("cover_dice", cover_dice),
                           ("perception_dice", perception_dice)):
            d6_faces(name, dice)
        steps.append(step(_NO_STEALTH[movement], ref))
        return StealthResult(value=0, outcome="seen", trace=tuple(steps), hidden=False,
                             streak=0, unaware=False, margin=0)
    own = d6_faces("stealth_dice", stealth_dice, minimum=1)
    extra = d6_faces("cover_dice", cover_dice, c.value, maximum=6)
    seen = d6_faces("perception_dice", perception_dice, minimum=1)
    hide_total = sum(own) + sum(extra) + sb
    look_total = sum(seen) + pb
    cover_text = f" and cover {', '.join(map(str, extra))}" if extra else ""
    steps.append(step(f"Stealth rolls {', '.join(map(str, own))}{cover_text}"
                      + (f" {sb:+d}" if sb else "") + f" = {hide_total}", ref, total=hide_total))
    steps.append(step(f"Perception rolls {', '.join(map(str, seen))}"
                      + (f" {pb:+d}" if pb else "") + f" = {look_total}", ref, total=look_total))
    margin = hide_total - look_total
    hidden = margin >= 0
    now = before + 1 if hidden else 0
    steps.append(step(f"{hide_total} against {look_total}: "
                      + ("hidden (a tie goes to the hider)" if hidden else "seen"),
                      DATA.rule("Ties", "ties"), margin=margin))
    if hidden:
        steps.append(step("Hidden: only area fire can target the character", ref))
    unaware = now >= UNAWARE_AFTER
    steps.append(step(f"Successful Stealth checks in a row: {now}"
                      + ("; the opponent is now unaware, so the character can slip away or "
                         "ambush" if unaware else ""), ref, streak=now))
    outcome = "unaware" if unaware else ("hidden" if hidden else "seen")
    return StealthResult(value=margin, outcome=outcome, trace=tuple(steps), hidden=hidden,
                         streak=now, unaware=unaware, margin=margin)


def stealth_odds(stealth_pool: int, perception_pool: int, cover: str = "none", *,
                 movement: str = "still", close_contact: bool = False, stealth_bonus: int = 0,
                 perception_bonus: int = 0) -> Odds:
    """Exact odds of hiding (outcomes "hidden" and "seen"); a character who dashes or crosses
    impassable terrain makes no check and is always seen."""
    need = stealth_dice_needed(stealth_pool, perception_pool, cover, movement=movement,
                               close_contact=close_contact)
    shift = bonus("stealth_bonus", stealth_bonus) - bonus("perception_bonus", perception_bonus)
    if movement not in STEALTHY:
        return Odds({"hidden": Fraction(0), "seen": Fraction(1)},
                    Distribution(((0, Fraction(1)),)), need)
    margins = margin_counts(need["stealth_dice"] + need["cover_dice"], need["perception_dice"],
                            shift)
    win = sum((p for m, p in margins.items() if m >= 0), Fraction(0))
    return Odds({"hidden": win, "seen": 1 - win}, Distribution(tuple(margins.items())), need)
