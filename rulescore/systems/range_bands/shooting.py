"""Ranged attacks: the difficulty of a shot, resolving it, misses by three or six, extreme range
engagements and quick loading."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

from rulescore.dice import DiceSource
from rulescore.dice.source import count_to_draw
from rulescore.errors import RulesError, require_int, shown
from rulescore.formulas import Formula
from rulescore.trace import Resolution, step
from rulescore.errors import require_bool as flag, require_choice as one_of, require_row as choice

from ._system import DATA
from .inputs import bonus as _bonus, d6_faces, yes
from .bands import band, find_band
from .checks import CheckResult, Odds, OpposedResult, check, check_odds, drawn, opposed
from .inputs import MAX_POOL
from .cover import MOVEMENT, cover_modifier

COMBAT_BANDS = ("very_close", "close", "distant", "far", "very_far")
MISS_READINGS = ("up_to", "exactly")
AREA_HIT_BY = 3
EXTENDED_AIM_ROUNDS = 3
HALF_RELOAD = Formula("actions", "ceil(reload_time / 2)", DATA.rule("Quick loading"))


def modifier(name: str) -> int:
    """Dice a shooting modifier adds, from the table (e.g. ``"snapshot"`` → 1)."""
    return choice("name", name, DATA.table("shooting", "shot_modifiers"), "modifier")["dice"]


@dataclass(frozen=True, kw_only=True)
class ShotDifficulty(Resolution):
    """The difficulty of a shot: ``value`` is the number of dice (4 means "4D").

    ``roll_bonus`` is added to the shooter's total (an aim action), ``actions`` the actions the
    shot takes, ``bands_off`` the bands between the target and the nearest optimal band and
    ``defense_pool`` how the target defends: "melee" (close contact), "none" (dashing) or
    "ranged" (as the game's Defense Pool rules say).
    """

    roll_bonus: int
    actions: int
    cover_dice: int
    bands_off: int
    defense_pool: str


def _optimal(optimal_bands: str | Sequence[str]) -> tuple[str, ...]:
    bands_ = (optimal_bands,) if isinstance(optimal_bands, str) else optimal_bands
    if not isinstance(bands_, (list, tuple)):
        raise RulesError(f"optimal_bands must be one band or a list of one or two bands, "
                         f"got {shown(optimal_bands)}")
    bands_ = tuple(bands_)
    for b in bands_:
        if not isinstance(b, str) or b not in COMBAT_BANDS:
            raise RulesError(f"optimal_bands must be chosen from {', '.join(COMBAT_BANDS)}, "
                             f"got {shown(b)}")
    if not 1 <= len(bands_) <= 2 or len(set(bands_)) != len(bands_):
        raise RulesError(f"optimal_bands must be one or two different bands, got {list(bands_)}")
    return bands_


def shot_difficulty(target_band: str, optimal_bands: str | Sequence[str], cover: str = "none",
                    snapshot: bool = False, called_shot: bool = False, *,
                    target_movement: str = "still", area_fire: bool = False,
                    aim_action: bool = False, aim_rounds: int = 0, weapon: str = "firearm",
                    target_hidden: bool = False, gm_dice: int = 0) -> ShotDifficulty:
    """The difficulty of a ranged attack in dice (§Ranged attacks, §Shooting difficulties).

    4D at an optimal band plus cover; +1D a band from the nearest optimal band; close contact
    3D with no cover; extreme 5D (very far optimal) or 6D (far optimal). Then +1D snapshot,
    +2D called shot, +2D area fire, −1D for three rounds of aim with a firearm or crossbow, and
    *gm_dice* for what the seed leaves to the GM (a crowd is easier). An aim action adds +2 to
    the shot's roll instead (assumption ``aim_action``). Area fire needs a *weapon* that can
    rake a band (§Area fire): a burst firearm, an explosive or another area weapon.
    """
    b = find_band("target_band", target_band)
    optimal = _optimal(optimal_bands)
    for name, value in (("snapshot", snapshot), ("called_shot", called_shot),
                        ("area_fire", area_fire), ("aim_action", aim_action),
                        ("target_hidden", target_hidden)):
        flag(name, value)
    one_of("target_movement", target_movement, MOVEMENT)
    rounds = require_int("aim_rounds", aim_rounds, minimum=0, maximum=100)
    gm = require_int("gm_dice", gm_dice, minimum=-5, maximum=5)
    kind = choice("weapon", weapon, DATA.table("shooting", "weapon_kinds"), "weapon")
    if area_fire and not yes(kind, "area_fire"):
        raise RulesError(f"weapon {kind['name'].lower()} cannot use area fire: it needs a "
                         "burst weapon, an explosive or another area weapon")
    if target_hidden and not area_fire:
        raise RulesError("target_hidden: a hidden character can only be targeted by area fire "
                         "(turn area_fire on, or find the target first)")
    if snapshot and (aim_action or rounds):
        raise RulesError("snapshot is a shot without aiming: it cannot follow an aim action "
                         "or aim_rounds")
    ref, tab = DATA.rule("Ranged attacks"), DATA.rule("Shooting difficulties")
    steps = []
    close_contact = b.band == "close_contact"
    bands_off = 0
    if close_contact:
        dice = modifier("close_contact")
        steps.append(step(f"Shooting in close contact: {dice}D; cover is ignored and the "
                          "target may use its Defense Pool as against melee", tab, dice=dice))
    elif b.band == "extreme":
        reach = [o for o in ("very_far", "far") if o in optimal]
        if not reach:
            raise RulesError("target_band extreme needs a weapon whose optimal band is far or "
                             "very far, but optimal_bands is "
                             + " and ".join(band(o).name.lower() for o in optimal))
        dice = modifier(f"extreme_{reach[0]}")
        steps.append(step(f"Extreme range with a {band(reach[0]).name.lower()} optimal band: "
                          f"{dice}D", tab, dice=dice))
    else:
        dice = modifier("optimal")
        bands_off = min(abs(b.step - band(o).step) for o in optimal)
        names = " and ".join(band(o).name.lower() for o in optimal)
        steps.append(step(f"Optimal band{'s' if len(optimal) > 1 else ''} {names}: {dice}D",
                          tab, dice=dice))
        if bands_off:
            extra = bands_off * modifier("per_band")
            dice += extra
            steps.append(step(f"The target at {b.name.lower()} is {bands_off} band"
                              f"{'s' if bands_off > 1 else ''} from the nearest optimal band: "
                              f"+{extra}D → {dice}D", tab, bands=bands_off, dice=dice))
        else:
            steps.append(step(f"The target at {b.name.lower()} is in an optimal band", tab))
    cover_dice = 0
    if not close_contact:
        c = cover_modifier(cover, movement=target_movement)
        steps.extend(c.trace)
        cover_dice = c.value
        if cover_dice:
            dice += cover_dice
            steps.append(step(f"Cover +{cover_dice}D → {dice}D", ref, dice=dice))
    elif cover != "none":
        cover_modifier(cover)  # still a valid kind of cover
        steps.append(step(f"{cover.capitalize()} cover does not count in close contact",
                          DATA.rule("Cover")))
    for on, key, why in ((snapshot, "snapshot", "Snapshot, taken without aiming"),
                         (called_shot, "called_shot", "Called shot at a chosen hit location"),
                         (area_fire, "area_fire", "Area fire raking the whole band")):
        if on:
            dice += modifier(key)
            steps.append(step(f"{why}: +{modifier(key)}D → {dice}D", ref, dice=dice))
    if rounds >= EXTENDED_AIM_ROUNDS:
        if yes(kind, "extended_aim"):
            dice += modifier("extended_aim")
            steps.append(step(f"Aimed for {rounds} rounds (at least half a minute) with a "
                              f"{kind['name'].lower()}: {modifier('extended_aim')}D → {dice}D",
                              ref, dice=dice))
        else:
            steps.append(step(f"Aimed for {rounds} rounds, but only firearms and crossbows "
                              f"gain from long aiming, not a {kind['name'].lower()}", ref))
    elif rounds:
        steps.append(step(f"Aimed for {rounds} round{'s' if rounds > 1 else ''}: long aiming "
                          f"needs {EXTENDED_AIM_ROUNDS} rounds", ref))
    if gm:
        dice += gm
        steps.append(step(f"GM's adjustment (e.g. a formation or crowd is easier): {gm:+d}D "
                          f"→ {dice}D", DATA.rule("Ranged attacks — formations and crowds",
                                                  "crowd_targets"), dice=dice))
    if dice < 1:
        dice = 1
        steps.append(step("A shot is never easier than 1D",
                          DATA.rule("Minimum difficulty", "minimum_difficulty")))
    actions_row = DATA.table("shooting", "shot_actions").find("shot",
                                                         "snapshot" if snapshot else "aimed")
    actions = actions_row["actions"]
    roll_bonus = 0
    if aim_action:
        roll_bonus = DATA.table("shooting", "shot_modifiers").find("modifier",
                                                              "aim_action")["roll_bonus"]
        actions += 1
        steps.append(step(f"An action spent aiming first: +{roll_bonus} to the shot's roll "
                          "(the rules' \"+2 TN\")", ref.citing("aim_action"),
                          roll_bonus=roll_bonus))
    steps.append(step(f"The shot takes {actions} action{'s' if actions > 1 else ''}", ref,
                      actions=actions))
    if area_fire:
        steps.append(step(f"Area fire with a {kind['name'].lower()} (a weapon that can rake a "
                          "band); if it hits, everyone in the band is hit as if by three and "
                          "takes a Terror check", DATA.rule("Area fire")))
    defense = "melee" if close_contact else ("none" if target_movement == "dash" else "ranged")
    if defense == "none":
        steps.append(step("A dashing target cannot use its Defense Pool", DATA.rule("Dashing")))
    steps.append(step(f"Difficulty: {dice}D", tab, dice=dice))
    return ShotDifficulty(value=dice, outcome=f"{dice}D", trace=tuple(steps),
                          roll_bonus=roll_bonus, actions=actions, cover_dice=cover_dice,
                          bands_off=bands_off, defense_pool=defense)


@dataclass(frozen=True, kw_only=True)
class MissEffect(Resolution):
    """What a miss does: ``value`` is how far the shot fell short (0 on a hit)."""

    situation: str
    applies: bool


def miss_effect(margin: int, situation: str = "single", *,
                miss_reading: str = "up_to") -> MissEffect:
    """What a shot with *margin* (total − difficulty) does in *situation* (§Ranged attacks).

    A rider is hit through the mount on a miss by three; in close contact a miss by three hits
    a random target; in a wrestling match or crowd a miss by six or less does. Assumption
    ``miss_by``: "a miss by three" means short by 1 to 3 (``miss_reading="exactly"``: by
    exactly 3).
    """
    m = require_int("margin", margin, minimum=-200, maximum=200)
    row = choice("situation", situation, DATA.table("shooting", "miss_effects"), "situation")
    reading = one_of("miss_reading", miss_reading, MISS_READINGS)
    ref = DATA.rule("Ranged attacks — misses by three or six")
    if m >= 0:
        return MissEffect(value=0, outcome="hit", situation=situation, applies=False,
                          trace=(step(f"Margin {m:+d}: the shot hits", ref),))
    short = -m
    within = row["within"]
    applies = within > 0 and (short <= within if reading == "up_to" else short == within)
    text = row["effect"] if applies else "a plain miss"
    how = (f"within {within}" if reading == "up_to" else f"exactly {within}") if within else ""
    steps = (step(f"{row['name']}: missed by {short}"
                  + (f"; a miss {how} means {row['effect']}" if within else "")
                  + f" → {text}", ref, short_by=short),)
    return MissEffect(value=short, outcome=text, trace=steps, situation=situation,
                      applies=applies)


@dataclass(frozen=True, kw_only=True)
class ShotResult(Resolution):
    """A resolved shot: ``value`` is the margin the hit counts with (3 for area fire hits)."""

    hit: bool
    margin: int
    miss: MissEffect
    check: CheckResult
    terror_check: bool

    @property
    def success(self) -> bool:
        """Whether the shot hit (area fire: its targets are hit)."""
        return self.hit


def shot(difficulty: int, skill_dice: Sequence[int] | int,
         difficulty_dice: Sequence[int] | None = None, roll_bonus: int = 0, *,
         area_fire: bool = False, situation: str = "single", nd_rule: str = "opposed",
         critical_margin: int = 6, miss_reading: str = "up_to",
         dice: DiceSource | None = None) -> ShotResult:
    """Resolve a shot against *difficulty* dice (from :func:`shot_difficulty`). With *dice*,
    *skill_dice* is the shooter's pool and the dice are drawn from it (see :func:`check`).

    A hit with area fire counts as a hit by three for every target in the band, each of whom
    takes a Terror check (§Area fire). A miss may still hit something (:func:`miss_effect`).
    """
    area = flag("area_fire", area_fire)
    c = check(skill_dice, difficulty, difficulty_dice, roll_bonus, nd_rule=nd_rule,
              critical_margin=critical_margin, section="Ranged attacks", what="Shot",
              dice=dice)
    miss = miss_effect(c.margin, situation, miss_reading=miss_reading)
    steps = list(c.trace)
    value = c.margin
    if c.success and area:
        value = AREA_HIT_BY
        steps.append(step(f"Area fire hits: every target in the band is hit as if by "
                          f"{AREA_HIT_BY} and takes a Terror check", DATA.rule("Area fire"),
                          hit_by=value))
        outcome = "area hit"
    elif c.success:
        outcome = "critical hit" if c.critical else "hit"
        steps.append(step(f"Hit by {c.margin}", DATA.rule("Ranged attacks")))
    else:
        steps.extend(miss.trace)
        outcome = "miss" if not miss.applies else f"miss: {miss.outcome}"
    return ShotResult(value=value, outcome=outcome, trace=tuple(steps), hit=c.success,
                      margin=c.margin, miss=miss, check=c, terror_check=area and c.success)


def shot_odds(difficulty: int, skill_pool: int, roll_bonus: int = 0, *, situation: str = "single",
              nd_rule: str = "opposed", critical_margin: int = 6,
              miss_reading: str = "up_to") -> Odds:
    """Exact odds of a shot: "hit" (criticals included), "miss with effect" and "miss"."""
    base = check_odds(skill_pool, difficulty, roll_bonus, nd_rule=nd_rule,
                      critical_margin=critical_margin)
    row = choice("situation", situation, DATA.table("shooting", "miss_effects"), "situation")
    one_of("miss_reading", miss_reading, MISS_READINGS)
    within = row["within"]
    hit = base.margins.p_at_least(0)
    if miss_reading == "up_to":
        effect = sum((p for m, p in base.margins.items() if -within <= m < 0), Fraction(0))
    else:
        effect = base.margins.p(-within) if within else Fraction(0)
    outcomes = {"hit": hit}
    if within:
        outcomes[f"miss: {row['effect']}"] = effect
    outcomes["miss"] = 1 - hit - effect
    return Odds(outcomes, base.margins, base.dice)


def extreme_engagement(first_dice: Sequence[int] | int, second_dice: Sequence[int] | int,
                       first_bonus: int = 0, second_bonus: int = 0, *,
                       dice: DiceSource | None = None) -> OpposedResult:
    """Settle an extreme-range engagement by an opposed roll (§Extreme range engagements).

    Each side rolls the skill the GM picks (Stealth, Tactics …); the winner gets to take the
    shot at extreme range. A tie goes to the first side (assumption ``ties``).
    """
    # Checked under this function's own names before the shared opposed roll reads them.
    got, rolled = drawn(dice, {"first_dice": first_dice, "second_dice": second_dice},
                        lambda: {name: count_to_draw(name, value, dice, minimum=1,
                                                     maximum=MAX_POOL)
                                 for name, value in (("first_dice", first_dice),
                                                     ("second_dice", second_dice))})
    first, second = (d6_faces(n, got[n], minimum=1) for n in ("first_dice", "second_dice"))
    _bonus("first_bonus", first_bonus)
    _bonus("second_bonus", second_bonus)
    r = opposed(first, second, first_bonus, second_bonus,
                section="Extreme range engagements", active="The first side",
                passive="the second side")
    who = "first" if r.success else "second"
    trace = rolled + r.trace + (step(f"The {who} side gets to take the shot at extreme range",
                            DATA.rule("Extreme range engagements")),)
    return OpposedResult(value=r.value, outcome=f"{who} side shoots", trace=trace,
                         active_total=r.active_total, passive_total=r.passive_total,
                         margin=r.margin, success=r.success)


@dataclass(frozen=True, kw_only=True)
class QuickLoadResult(Resolution):
    """A quick-loading attempt: ``value`` is the actions spent; ``loaded`` whether it worked."""

    loaded: bool
    reliability_failure: bool
    check: CheckResult

    @property
    def success(self) -> bool:
        """Whether the Quick Load check succeeded (a reliability failure may still jam it)."""
        return self.check.success


def quick_load_skill(weapon: str) -> tuple[str, str, int]:
    """(skill, attribute, difficulty) of quick loading *weapon*; a RulesError if it cannot."""
    row = choice("weapon", weapon, DATA.table("shooting", "weapon_kinds"), "weapon")
    if not row["quick_load_difficulty"]:
        raise RulesError(f"weapon {shown(weapon)} cannot be quick loaded: only bows, firearms and "
                         "crossbows can")
    return row["skill"], row["attribute"], row["quick_load_difficulty"]


def quick_load(weapon: str, reload_time: int, skill_dice: Sequence[int] | int,
               difficulty_dice: Sequence[int] | None = None, roll_bonus: int = 0, *,
               nd_rule: str = "opposed", critical_margin: int = 6,
               dice: DiceSource | None = None) -> QuickLoadResult:
    """Quick loading (§Quick loading): a 4D check to reload in half the time. With *dice*,
    *skill_dice* is the loader's pool and the dice are drawn from it (see :func:`check`).

    Archery and Firearms use Agility, Crossbows Vigor. Success: half the reload time, rounded
    up. Failure: half the reload time is wasted and the weapon is not loaded (assumption
    ``quick_load_failure``). A fumble foils the loading: an automatic Reliability failure. A
    critical success reloads at once, with no action at all.
    """
    skill, attribute, difficulty = quick_load_skill(weapon)
    t = require_int("reload_time", reload_time, minimum=1, maximum=100)
    ref = DATA.rule("Quick loading")
    half = HALF_RELOAD.evaluate(reload_time=t)
    steps = [step(f"Quick loading: a {difficulty}D check with {skill} ({attribute}); the "
                  f"normal reload takes {t} action{'s' if t != 1 else ''}", ref,
                  reload_time=t)]
    c = check(skill_dice, difficulty, difficulty_dice, roll_bonus, nd_rule=nd_rule,
              critical_margin=critical_margin, section="Quick loading", what="Loading check",
              dice=dice)
    steps.extend(c.trace)
    reliability = False
    if c.outcome == "critical success":
        spent, loaded, text = 0, True, "Critical success: reloaded at once, taking no action"
    elif c.success:
        spent, loaded, text = half, True, (f"Success: half of {t}, rounded up: reloaded in "
                                           f"{half} action{'s' if half != 1 else ''}")
    elif c.outcome == "failure":
        spent, loaded, text = half, False, (f"Failure: {half} action{'s' if half != 1 else ''}"
                                            " (half the reload) wasted; still not loaded")
    else:
        spent, loaded, reliability = half, False, True
        text = (f"Fumble: the loading is foiled after {half} action{'s' if half != 1 else ''}"
                " — an automatic Reliability failure (Reliability rules)")
    steps.append(step(text, ref, actions=spent))
    return QuickLoadResult(value=spent, outcome=c.outcome, trace=tuple(steps), loaded=loaded,
                           reliability_failure=reliability, check=c)


def quick_load_odds(weapon: str, skill_pool: int, roll_bonus: int = 0, *,
                    nd_rule: str = "opposed", critical_margin: int = 6) -> Odds:
    """Exact odds of the four results of quick loading *weapon* with *skill_pool* d6."""
    _, _, difficulty = quick_load_skill(weapon)
    return check_odds(skill_pool, difficulty, roll_bonus, nd_rule=nd_rule,
                      critical_margin=critical_margin)


@dataclass(frozen=True)
class ShotPlan:
    """A shot before the dice: its difficulty, the total bonus to the roll and the exact odds."""

    difficulty: ShotDifficulty
    roll_bonus: int
    odds: Odds


def plan_shot(target_band: str, optimal_bands: str | Sequence[str], cover: str = "none",
              snapshot: bool = False, called_shot: bool = False, *, skill_pool: int = 4,
              roll_bonus: int = 0, situation: str = "single", nd_rule: str = "opposed",
              critical_margin: int = 6, miss_reading: str = "up_to",
              target_movement: str = "still", area_fire: bool = False,
              aim_action: bool = False, aim_rounds: int = 0, weapon: str = "firearm",
              target_hidden: bool = False, gm_dice: int = 0) -> ShotPlan:
    """:func:`shot_difficulty` (with the same inputs) and the odds of a shooter with
    *skill_pool* d6. Every input is named in the signature, so a tool's list of the inputs it
    reaches is checked against it.

    The aim action's +2 is added to *roll_bonus* (assumption ``aim_action``).
    """
    d = shot_difficulty(target_band, optimal_bands, cover, snapshot, called_shot,
                        target_movement=target_movement, area_fire=area_fire,
                        aim_action=aim_action, aim_rounds=aim_rounds, weapon=weapon,
                        target_hidden=target_hidden, gm_dice=gm_dice)
    total_bonus = _bonus("roll_bonus", roll_bonus) + d.roll_bonus
    odds = shot_odds(d.value, skill_pool, total_bonus, situation=situation, nd_rule=nd_rule,
                     critical_margin=critical_margin, miss_reading=miss_reading)
    return ShotPlan(d, total_bonus, odds)
