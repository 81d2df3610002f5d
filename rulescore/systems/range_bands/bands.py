"""Range bands and movement: ordinary moves, close contact, dashing and impassable terrain."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

from rulescore.dice import DiceSource, Distribution
from rulescore.errors import RulesError, require_int, shown
from rulescore.formulas import Formula
from rulescore.tables import Row
from rulescore.trace import Resolution, step
from rulescore.errors import require_bool as flag, require_choice as one_of, require_row as choice

from ._system import DATA
from .inputs import bonus, d6_faces, pool
from .checks import Odds, check, check_counts, check_odds, check_rulings, drawn

DIRECTIONS = ("closer", "away")
#: Far past the extreme band (151+ m): a distance beyond this is a typing slip.
MAX_METRES = 100_000
EDGES = ("nearer", "farther")

#: Critical failure on a dash: half the check's difficulty, rounded up, in dice of damage.
DASH_FALL_DAMAGE = Formula("damage", "ceil(difficulty / 2)", DATA.rule("Dashing"))


@dataclass(frozen=True)
class Band:
    """One range band: its id, name, distance in metres (as printed) and its step outward."""

    band: str
    name: str
    step: int
    metres: str
    note: str


def _band(row: Row, metres: str) -> Band:
    return Band(row["band"], row["name"], row["step"], metres, row["note"])


def bands() -> tuple[Band, ...]:
    """Every band from close contact outward to extreme (a plain lookup)."""
    cc = DATA.table("bands", "close_contact").rows[0]
    out = [_band(cc, "touching")]
    out += [_band(r, f"{r.span} m") for r in DATA.table("bands", "range_bands").rows]
    return tuple(out)


BAND_IDS = ("close_contact", "very_close", "close", "distant", "far", "very_far", "extreme")


def band(name: str) -> Band:
    """The band called *name* (e.g. ``"distant"``); a RulesError naming the bands if unknown."""
    return find_band("name", name)


def find_band(param: str, value: object) -> Band:
    """The band called *value*; a RulesError naming *param* (the caller's word) and the bands."""
    for b in bands():
        if b.band == value:
            return b
    raise RulesError(f"{param} must be a band, one of "
                     f"{', '.join(repr(b.band) for b in bands())}, got {shown(value)}")


def band_for_distance(metres: int, *, edge: str = "nearer") -> str:
    """The band a distance in metres falls in (§Range bands).

    The seed's bands share their edges (0–30, 30–60, …). Assumption ``band_edges``: a distance
    exactly on an edge belongs to the nearer band (30 m is very close); ``edge="farther"``
    puts it in the farther band instead.
    """
    require_int("metres", metres, minimum=0, maximum=MAX_METRES)
    one_of("edge", edge, EDGES)
    tbl = DATA.table("bands", "range_bands")
    row = tbl.lookup(metres)
    index = tbl.rows.index(row)
    if edge == "farther" and row.span.high == metres and index + 1 < len(tbl.rows):
        row = tbl.rows[index + 1]
    return row["band"]


def _by_step(step_no: int) -> Band:
    return next(b for b in bands() if b.step == step_no)


@dataclass(frozen=True, kw_only=True)
class MoveResult(Resolution):
    """A movement: ``value`` is the number of bands actually moved; ``outcome`` the new band."""

    start: str
    end: str
    actions: int
    keeps_cover: bool
    defense_pool: bool
    bleeds: int = 0
    prone: bool = False
    damage_dice: int = 0
    check: Resolution | None = None
    bulk_penalties: bool = False

    @property
    def success(self) -> bool:
        """Whether the move went as asked: its check succeeded, or none was needed."""
        return True if self.check is None else bool(self.check.success)


def _movement(kind: str) -> Row:
    return DATA.table("bands", "movement").find("kind", kind)


def _direction(direction: str) -> int:
    one_of("direction", direction, DIRECTIONS)
    return -1 if direction == "closer" else 1


def _travel(start: Band, direction: str, steps: int) -> tuple[Band, int]:
    """Where *steps* bands in *direction* lead from *start* (stopping at close contact or
    extreme), and how many bands that really is."""
    sign = _direction(direction)
    if start.band == "extreme":
        raise RulesError("start_band 'extreme' is outside combat phasing: settle extreme range "
                         "with chase rules or opposed checks, not combat movement")
    last = max(b.step for b in bands())
    end_step = min(max(start.step + sign * steps, 0), last)
    return _by_step(end_step), abs(end_step - start.step)


def _describe(start: Band, end: Band) -> str:
    if end.band == "close_contact":
        return f"from {start.name.lower()} into close contact"
    if start.band == "close_contact":
        return f"out of close contact to {end.name.lower()}"
    return f"from {start.name.lower()} to {end.name.lower()}"


def move(start_band: str, direction: str = "closer") -> MoveResult:
    """One ordinary move (§Ordinary movement): one action, one band, or into close contact.

    Moving closer from very close enters close contact (the same square). Leaving close contact
    is one move back to very close (assumption ``leaving_close_contact``). No check is needed
    and the mover keeps the benefit of cover.
    """
    start = find_band("start_band", start_band)
    row = _movement("move")
    end, moved = _travel(start, direction, row["bands"])
    ref = DATA.rule("Ordinary movement")
    steps = [step(f"An ordinary move takes {row['actions']} action and covers "
                  f"{row['bands']} band, or enters close contact within the band", ref,
                  actions=row["actions"])]
    if moved == 0:
        steps.append(step(f"Already at {start.name.lower()}: there is no band further "
                          f"{'in' if direction == 'closer' else 'out'}", ref))
    else:
        steps.append(step(f"Moved {_describe(start, end)}; no check is needed", ref))
    if end.band == "extreme":
        steps.append(step("Past very far the fight leaves combat phasing (extreme range)",
                          DATA.rule("Range bands")))
    steps.append(step("A character moving this way uses the terrain and keeps its cover",
                      ref))
    return MoveResult(value=moved, outcome=end.band, trace=tuple(steps), start=start.band,
                      end=end.band, actions=row["actions"], keeps_cover=True,
                      defense_pool=True)


def dash_difficulty(terrain: str) -> int:
    """The check a dash over *terrain* needs, in dice (0 = easy terrain, no check)."""
    return choice("terrain", terrain, DATA.table("bands", "dash_terrain"), "terrain")["difficulty"]


def impassable_difficulty(terrain: str) -> int:
    """The check every band of impassable *terrain* needs, in dice (4D, 5D or 6D)."""
    return choice("terrain", terrain, DATA.table("bands", "impassable_terrain"),
                  "terrain")["difficulty"]


def dash(start_band: str, direction: str = "closer", terrain: str = "easy",
         skill_dice: Sequence[int] | int = (), difficulty_dice: Sequence[int] | None = None,
         roll_bonus: int = 0, *, seriously_wounded: bool = False, nd_rule: str = "opposed",
         critical_margin: int = 6, dice: DiceSource | None = None) -> MoveResult:
    """A dash (§Dashing): two actions, two bands; off easy ground an Acrobatics or Athletics check.

    Failure moves one band for the same two actions; a critical failure leaves the character
    prone where they started (assumption ``dash_fall``) and deals half the difficulty, rounded
    up, in dice of damage. The dasher loses cover and its Defense Pool; a seriously or lethally
    wounded dasher bleeds one wound. Easy terrain takes no dice. With *dice*, *skill_dice* is
    the dasher's pool and the check's dice are drawn from it (see :func:`check`).
    """
    start = find_band("start_band", start_band)
    _direction(direction)
    row = choice("terrain", terrain, DATA.table("bands", "dash_terrain"), "terrain")
    wounded = flag("seriously_wounded", seriously_wounded)
    move_row = _movement("dash")
    ref = DATA.rule("Dashing")
    steps = [step(f"A dash takes {move_row['actions']} actions and covers up to "
                  f"{move_row['bands']} bands (entering close contact counts as one)", ref,
                  actions=move_row["actions"])]
    difficulty = row["difficulty"]
    result_check = None
    prone, damage, bands_allowed = False, 0, move_row["bands"]
    if difficulty == 0 and dice is not None:
        # No check on easy ground: nothing is drawn, and typed dice left over are refused.
        check_counts(skill_dice, 1, difficulty_dice, "opposed", dice)
        drawn(dice, {}, lambda: {"skill_dice": 0})
        bonus("roll_bonus", roll_bonus)
        check_rulings(nd_rule, critical_margin)
        steps.append(step(f"{row['name']} terrain ({row['examples']}): no check",
                          DATA.rule("Dashing difficulties")))
    elif difficulty == 0:
        # No check on easy ground, but its inputs are still checked: a slip is never ignored.
        rolled = d6_faces("skill_dice", skill_dice)
        if difficulty_dice is not None:
            rolled += d6_faces("difficulty_dice", difficulty_dice)
        if rolled:
            raise RulesError("skill_dice must be empty on easy terrain: a dash there needs no "
                             f"check, got {list(skill_dice)}")
        bonus("roll_bonus", roll_bonus)
        check_rulings(nd_rule, critical_margin)
        steps.append(step(f"{row['name']} terrain ({row['examples']}): no check", 
                          DATA.rule("Dashing difficulties")))
    else:
        steps.append(step(f"{row['name']} terrain ({row['examples']}): an Acrobatics or "
                          f"Athletics check against {difficulty}D",
                          DATA.rule("Dashing difficulties"), difficulty=difficulty))
        result_check = check(skill_dice, difficulty, difficulty_dice, roll_bonus,
                             nd_rule=nd_rule, critical_margin=critical_margin,
                             section="Dashing", what="Dash check", dice=dice)
        steps.extend(result_check.trace)
        if result_check.outcome == "critical failure":
            damage = DASH_FALL_DAMAGE.evaluate(difficulty=difficulty)
            prone, bands_allowed = True, 0
            steps.append(step(f"Critical failure: the character falls prone and takes half of "
                              f"{difficulty}D, rounded up: {damage}D damage, {damage} six-sided "
                              "dice added up; no progress",
                              ref.citing("dash_fall", "fall_damage"), damage=damage))
        elif not result_check.success:
            bands_allowed = 1
            steps.append(step("Failure: only one band for the two actions", ref))
    end, moved = _travel(start, direction, bands_allowed)
    if bands_allowed:
        steps.append(step(f"Moved {moved} band{'s' if moved != 1 else ''}: "
                          f"{_describe(start, end)}" if moved else
                          f"Already at {start.name.lower()}: nowhere further to go", ref))
    steps.append(step("While dashing the character has no cover and cannot use the Defense "
                      "Pool", ref))
    bleeds = 1 if wounded else 0
    if wounded:
        steps.append(step("Seriously or lethally wounded: the dash makes the character bleed "
                          "one wound at once (bleeding rules)", ref, bleeds=1))
    outcome = end.band
    return MoveResult(value=moved, outcome=outcome, trace=tuple(steps), start=start.band,
                      end=end.band, actions=move_row["actions"], keeps_cover=False,
                      defense_pool=False, bleeds=bleeds, prone=prone, damage_dice=damage,
                      check=result_check)


def cross_impassable(start_band: str, direction: str = "closer", terrain: str = "hard",
                     skill_dice: Sequence[int] | int = (),
                     difficulty_dice: Sequence[int] | None = None, roll_bonus: int = 0, *,
                     terrain_gives_cover: bool = False, nd_rule: str = "opposed",
                     critical_margin: int = 6, dice: DiceSource | None = None) -> MoveResult:
    """One band through impassable terrain (§Impassable terrain): two move actions and a check.

    The check is made as for dashing (Swimming in water). Failure spends the actions for no
    progress; a critical failure also knocks the character prone with damage equal to the
    difficulty in dice. Whether the terrain gives cover is the GM's call
    (*terrain_gives_cover*: a cliff face exposes, barbed wire hides). Bulk penalties apply.
    With *dice*, *skill_dice* is the pool and the check's dice are drawn from it.
    """
    start = find_band("start_band", start_band)
    _direction(direction)
    row = choice("terrain", terrain, DATA.table("bands", "impassable_terrain"), "terrain")
    covered = flag("terrain_gives_cover", terrain_gives_cover)
    move_row = _movement("impassable")
    ref = DATA.rule("Impassable terrain")
    difficulty = row["difficulty"]
    steps = [step(f"Impassable terrain: {move_row['actions']} move actions for "
                  f"{move_row['bands']} band, always with a check", ref,
                  actions=move_row["actions"]),
             step(f"{row['name']} impassable terrain ({row['examples']}): {difficulty}D "
                  "(Swimming in water, otherwise Acrobatics or Athletics)",
                  DATA.rule("Impassable terrains"), difficulty=difficulty)]
    result_check = check(skill_dice, difficulty, difficulty_dice, roll_bonus, nd_rule=nd_rule,
                         critical_margin=critical_margin, section="Impassable terrain",
                         what="Terrain check", dice=dice)
    steps.extend(result_check.trace)
    prone, damage, allowed = False, 0, move_row["bands"]
    if result_check.outcome == "critical failure":
        prone, damage, allowed = True, difficulty, 0
        steps.append(step(f"Critical failure: no progress, the character falls prone and takes "
                          f"{difficulty}D damage (the full difficulty), {difficulty} six-sided "
                          "dice added up", ref.citing("fall_damage"), damage=damage))
    elif not result_check.success:
        allowed = 0
        steps.append(step("Failure: the actions are spent and the character makes no progress",
                          ref))
    end, moved = _travel(start, direction, allowed)
    if allowed:
        steps.append(step(f"Moved {_describe(start, end)}" if moved else
                          f"Already at {start.name.lower()}: nowhere further to go", ref))
    steps.append(step("Cover: " + ("the terrain hides the character, so cover counts" if covered
                                   else "the terrain leaves the character exposed")
                      + "; bulk penalties apply in impassable terrain", ref))
    return MoveResult(value=moved, outcome=end.band, trace=tuple(steps), start=start.band,
                      end=end.band, actions=move_row["actions"], keeps_cover=covered,
                      defense_pool=True, prone=prone, damage_dice=damage,
                      check=result_check, bulk_penalties=True)


def terrain_odds(kind: str, terrain: str, skill_pool: int, roll_bonus: int = 0, *,
                 nd_rule: str = "opposed", critical_margin: int = 6) -> Odds:
    """Exact odds of a dash (*kind* ``"dash"``) or an impassable crossing (``"impassable"``).

    Outcomes are named by what happens: "full move", "one band" (dash failure), "no progress"
    and "prone". Easy dashing terrain is a certain full move and takes no dice.
    """
    one_of("kind", kind, ("dash", "impassable"))
    difficulty = dash_difficulty(terrain) if kind == "dash" else impassable_difficulty(terrain)
    if difficulty == 0:
        pool("skill_pool", skill_pool)
        bonus("roll_bonus", roll_bonus)
        check_rulings(nd_rule, critical_margin)
        return Odds({"full move": Fraction(1)}, Distribution(((0, Fraction(1)),)),
                    {"skill_dice": 0, "difficulty_dice": 0})
    base = check_odds(skill_pool, difficulty, roll_bonus, nd_rule=nd_rule,
                      critical_margin=critical_margin)
    o = base.outcomes
    short = "one band" if kind == "dash" else "no progress"
    outcomes = {"full move": o["critical success"] + o["success"], short: o["failure"],
                "prone": o["critical failure"]}
    return Odds(outcomes, base.margins, base.dice)


def melee_reach(target_band: str, long_weapon: bool = False) -> bool:
    """Can a melee weapon reach a target at *target_band*? (§Melee attacks)

    Most melee weapons need close contact; a long weapon reaches any target in the same band
    (very close).
    """
    b = find_band("target_band", target_band)
    flag("long_weapon", long_weapon)
    return b.band == "close_contact" or (long_weapon and b.band == "very_close")


@dataclass(frozen=True)
class Terrain:
    """A kind of terrain for dashing or crossing: id, name, difficulty in dice, examples."""

    terrain: str
    name: str
    difficulty: int
    examples: str


def terrains(kind: str = "dash") -> tuple[Terrain, ...]:
    """The terrains of the dashing table (*kind* ``"dash"``) or the impassable one (a lookup)."""
    one_of("kind", kind, ("dash", "impassable"))
    tbl = DATA.table("bands", "dash_terrain" if kind == "dash" else "impassable_terrain")
    return tuple(Terrain(r["terrain"], r["name"], r["difficulty"], r["examples"]) for r in tbl)
