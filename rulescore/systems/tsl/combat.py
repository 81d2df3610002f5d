"""TSL combat: stress by band, armour, tags, weapons and zones, ammunition, breaking, defence
and the attack that puts them together (primer §11).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Iterable, Sequence

from rulescore.dice import DiceSource
from rulescore.dice.source import not_both
from rulescore.errors import RulesError, require_int, require_list, require_text, shown
from rulescore.trace import Resolution, Step, step

from ._system import DATA
from .rolls import (BANDS, DICE, HIT_BANDS, MAX_LABEL, MAX_SHIFT, MAX_TARGET, band_for,
                    band_odds, band_table, check_band, check_limits, check_tier, faces_from, keep_count,
                    keep_distribution, opposed_band, opposed_margin_odds, opposed_roll,
                    read_dice, static_roll)
from ...errors import require_choice as _choice
from .pools import StressPools, check_pools, mark

ZONES = ("Engaged", "Near", "Far", "Distant")
WEAPON_ZONES = ("Melee", "Thrown", "Sidearm", "Ranged")
RARITIES = ("Issued", "Salvaged", "Anomalous")
ORDERS = ("armour_first", "impact_first")
OUT_OF_ZONE = ("flat", "per_zone")
MAX_TAGS = 2
REPAIR_TARGET = 11
#: More ammunition uses than any weapon starts with or a restock gives.
MAX_USES = 99
#: A weapon's display name, in characters.
MAX_WEAPON_NAME = 80



def cell_list(value: str) -> tuple[str, ...]:
    """A data cell listing names ("Engaged, Near"); "—" or "any" list none."""
    if value.strip() in ("—", "any", ""):
        return ()
    return tuple(v.strip() for v in value.split(","))




# --- Damage, armour and Impact tags ---------------------------------------------------------

def stress(band: str) -> int:
    """Stress an attack deals for its outcome band: 0, 0, 1, 2 or 4 (§11 Damage)."""
    check_band(band)
    return DATA.table("combat", "stress").find("band", band)["stress"]


def band_name(band: str) -> str:
    """The band as the rules print it ("Mixed Success")."""
    check_band(band)
    return DATA.table("combat", "stress").find("band", band)["name"]


def _step_band(band: str, by: int) -> str:
    return BANDS[max(0, min(len(BANDS) - 1, BANDS.index(band) + by))]


def armour(band: str) -> str:
    """The attacker's band after armour built for the blow: one step down, but a Crit stays.

    Success becomes Mixed and Mixed becomes a miss (Failure); a miss stays as it is
    (§11 Armour).
    """
    check_band(band)
    if band == "crit" or band not in HIT_BANDS:
        return band
    return _step_band(band, -1)


def impact_tag(band: str, *, bump_misses: bool = True) -> str:
    """The band after an Impact tag whose condition holds: one step up, never past Success.

    A Crit stays a Crit and a Success stays a Success (only the dice crit, §11 Tags). With
    ``bump_misses=False`` only hits are bumped (ruling ``tsl:impact_on_misses``).
    """
    check_band(band)
    if not isinstance(bump_misses, bool):
        raise RulesError(f"bump_misses must be True or False, got {shown(bump_misses)}")
    if band in ("success", "crit") or (not bump_misses and band not in HIT_BANDS):
        return band
    return _step_band(band, +1)


@dataclass(frozen=True, kw_only=True)
class ArmourResult(Resolution):
    """Armour against one blow: ``outcome`` is the band after it, ``value`` the Stress."""

    band: str
    armour_spent: bool
    absorbed: bool


def armour_against(band: str, *, defence_catastrophic: bool = False) -> ArmourResult:
    """Armour built for the blow, with the defence roll taken into account.

    Normally the band drops one step (never undoing a Crit). On a Catastrophic defence roll the
    armour takes the whole blow, so no Stress, and is spent until repaired; a Crit still lands
    in full and spends it too (ruling ``tsl:catastrophic_defence``).
    """
    check_band(band)
    if not isinstance(defence_catastrophic, bool):
        raise RulesError(f"defence_catastrophic must be True or False, "
                         f"got {shown(defence_catastrophic)}")
    if defence_catastrophic:
        if band == "crit":
            steps = (step("Catastrophic defence: the armour is spent, but nothing undoes a "
                          "Crit", DATA.rule("Armour")),)
            return ArmourResult(value=stress(band), outcome=band, trace=steps, band=band,
                                armour_spent=True, absorbed=False)
        steps = (step(f"Catastrophic defence: the armour takes the whole blow ({band_name(band)}"
                      " → no Stress) and is spent until repaired", DATA.rule("Armour")),)
        return ArmourResult(value=0, outcome="failure", trace=steps, band="failure",
                            armour_spent=True, absorbed=band in HIT_BANDS)
    after = armour(band)
    text = ("Armour cannot undo a Crit" if band == "crit" else
            f"Armour drops {band_name(band)} to {band_name(after)}" if after != band else
            f"{band_name(band)} is already a miss: armour changes nothing")
    return ArmourResult(value=stress(after), outcome=after, trace=(step(text, DATA.rule("Armour")),),
                        band=after, armour_spent=False, absorbed=False)


# --- Zones and movement ---------------------------------------------------------------------

def zone_step(zone: str, name: str = "zone") -> int:
    """How far out *zone* lies: Engaged 0, Near 1, Far 2, Distant 3."""
    _choice(require_text("name", name, max_length=MAX_LABEL), zone, ZONES)
    return DATA.table("combat", "zones").find("zone", zone)["step"]


@dataclass(frozen=True, kw_only=True)
class Move(Resolution):
    """A Movement: ``value`` is the zones crossed; ``outcome`` is what it costs."""

    start: str
    end: str
    zones: int
    uses: tuple[str, ...]


def move(start: str, end: str, *, double: bool = False) -> Move:
    """Shift between zones: one step with a Movement, two with a Double Movement (no Action).

    Staying put is a Movement of 0 zones. Farther than the move allows is refused.
    """
    a, b = zone_step(start, "start"), zone_step(end, "end")
    if not isinstance(double, bool):
        raise RulesError(f"double must be True or False, got {shown(double)}")
    zones = abs(a - b)
    allowed = 2 if double else 1
    kind = "Double Movement" if double else "Movement"
    if zones > allowed:
        hint = "" if double else "; a Double Movement (giving up the Action) crosses two"
        raise RulesError(f"end must be at most {allowed} zone{'s' if allowed > 1 else ''} "
                         f"from {start} with a {kind}, got {end} ({zones} zones){hint}")
    uses = ("action", "movement") if double else ("movement",)
    text = (f"{kind}: {start} → {end}, {zones} zone{'s' if zones != 1 else ''}" if zones
            else f"{kind}: stay {start}")
    steps = (step(text, DATA.rule("Zones"), zones=zones),
             step(f"Uses the {' and the '.join(u.capitalize() for u in uses)}",
                  DATA.rule("Your Turn")))
    return Move(value=zones, outcome=kind, trace=steps, start=start, end=end, zones=zones,
                uses=uses)


# --- Weapons --------------------------------------------------------------------------------

def tag_family(tag: str) -> str:
    """The family of a catalogued tag: Positioning, Impact, Utility or Identity."""
    return _tag_row(tag)["family"]


def tag_names() -> tuple[str, ...]:
    """Every tag in the catalogue, in the order the rules list them."""
    return tuple(r["tag"] for r in DATA.table("combat", "tags"))


def _tag_row(tag: object, name: str = "tag"):
    names = tag_names()
    if tag not in names:
        raise RulesError(f"{name} must be one of {', '.join(names)}, got {shown(tag)}")
    return DATA.table("combat", "tags").find("tag", tag)


@dataclass(frozen=True)
class Weapon:
    """A weapon: a default zone and its tags (the only rules it carries)."""

    zone: str
    tags: tuple[str, ...] = ()
    name: str = ""
    rarity: str = "Issued"
    improvised: bool = False


def make_weapon(zone: str, tags: Iterable[str] = (), *, name: str = "",
                rarity: str = "Issued", improvised: bool = False) -> Weapon:
    """Build a weapon: a zone plus one or two tags; improvised weapons carry none.

    An improvised weapon is Melee, or Thrown if the GM allows (§11 Improvised Weapons).
    """
    _choice("zone", zone, WEAPON_ZONES)
    _choice("rarity", rarity, RARITIES)
    if not isinstance(improvised, bool):
        raise RulesError(f"improvised must be True or False, got {shown(improvised)}")
    require_text("name", name, max_length=MAX_WEAPON_NAME)
    tags = require_list("tags", tags, "tag names", max_length=len(tag_names()))
    for t in tags:
        _tag_row(t, "tags")
    if len(set(tags)) != len(tags):
        raise RulesError(f"tags must not repeat, got {', '.join(tags)}")
    if improvised:
        if tags:
            raise RulesError(f"tags must be empty for an improvised weapon, got {', '.join(tags)}")
        if zone not in ("Melee", "Thrown"):
            raise RulesError(f"zone of an improvised weapon must be Melee or Thrown, got {zone}")
    elif not 1 <= len(tags) <= MAX_TAGS:
        raise RulesError(f"tags must be one or two for a weapon, got {len(tags)}")
    return Weapon(zone, tags, name, rarity, improvised)


def _check_weapon(weapon: object) -> Weapon:
    if not isinstance(weapon, Weapon):
        raise RulesError(f"weapon must be a Weapon (see make_weapon), got {shown(weapon)}")
    try:  # a Weapon built by hand is held to make_weapon's rules
        return make_weapon(weapon.zone, weapon.tags, name=weapon.name, rarity=weapon.rarity,
                           improvised=weapon.improvised)
    except RulesError as exc:
        raise RulesError(f"weapon: {exc}") from None


def fights_at(weapon: Weapon) -> tuple[str, ...]:
    """The zones a weapon attacks into without penalty: its zone's, plus what tags add."""
    _check_weapon(weapon)
    zones = set(cell_list(DATA.table("combat", "weapon_zones").find("weapon_zone", weapon.zone)["fights_at"]))
    for t in weapon.tags:
        zones.update(cell_list(_tag_row(t)["adds_zones"]))
    return tuple(z for z in ZONES if z in zones)


def zone_shift(weapon: Weapon, distance: str, *, out_of_zone: str = "flat") -> int:
    """The Effective Tier shift for attacking at *distance*: 0 in zone, −1 outside.

    With ``out_of_zone="per_zone"`` it is −1 for each zone beyond the nearest one the weapon
    fights at (ruling ``tsl:out_of_zone``).
    """
    zones = fights_at(weapon)
    here = zone_step(distance, "distance")
    _choice("out_of_zone", out_of_zone, OUT_OF_ZONE)
    if distance in zones:
        return 0
    if out_of_zone == "flat":
        return -1
    return -min(abs(here - zone_step(z)) for z in zones)


def starting_uses(zone: str) -> int | None:
    """Starting ammunition uses of a weapon zone; None for Melee (no ammunition)."""
    _choice("zone", zone, WEAPON_ZONES)
    for row in DATA.table("combat", "ammunition"):
        if row["weapon_zone"] == zone:
            return row["starting_uses"]
    return None


@dataclass(frozen=True, kw_only=True)
class AmmoUse(Resolution):
    """One attack's ammunition: ``value`` is the uses left."""

    uses_left: int


def spend_use(zone: str, uses: int) -> AmmoUse:
    """Spend one use for an attack roll, hit or miss; at 0 uses the weapon cannot attack."""
    start = starting_uses(zone)
    if start is None:
        raise RulesError(f"zone {zone} uses no ammunition: only Sidearm, Ranged and Thrown do")
    require_int("uses", uses, minimum=0, maximum=MAX_USES)
    if uses == 0:
        raise RulesError("uses must be 1 or more to attack, got 0: the weapon cannot attack "
                         "until it is restocked")
    left = uses - 1
    return AmmoUse(value=left, outcome="spent", uses_left=left,
                   trace=(step(f"The attack spends 1 use, hit or miss: {uses} → {left}",
                               DATA.rule("Ammunition"), uses_left=left),))


def weapon_breaks(band: str, *, improvised: bool = False) -> bool:
    """Does the weapon break on this roll? Catastrophic breaks any weapon; an improvised one
    breaks on a Failure too (§11 Ammunition, §11 Improvised Weapons)."""
    check_band(band)
    if not isinstance(improvised, bool):
        raise RulesError(f"improvised must be True or False, got {shown(improvised)}")
    return band == "catastrophic" or (improvised and band == "failure")


@dataclass(frozen=True, kw_only=True)
class WeaponProfile(Resolution):
    """What a weapon can do: ``value`` is its starting uses (0 for Melee)."""

    weapon: Weapon
    fights_at: tuple[str, ...]
    starting_uses: int | None
    impact_tags: tuple[str, ...]
    breaks_on: tuple[str, ...]
    shifts: tuple[tuple[str, int], ...]


def weapon_profile(weapon: Weapon, *, out_of_zone: str = "flat") -> WeaponProfile:
    """Everything a weapon's zone and tags let it do, step by step with the rule for each,
    and its Effective Tier shift at each distance (``shifts``)."""
    _check_weapon(weapon)
    _choice("out_of_zone", out_of_zone, OUT_OF_ZONE)
    zones = fights_at(weapon)
    base = cell_list(DATA.table("combat", "weapon_zones").find("weapon_zone", weapon.zone)["fights_at"])
    steps: list[Step] = [step(f"{weapon.zone} weapon: fights at {' or '.join(base)}",
                              DATA.rule("Zone"))]
    impact: list[str] = []
    for t in weapon.tags:
        row = _tag_row(t)
        steps.append(step(f"{t} ({row['family']}): {row['effect']}", DATA.rule("Tags"),
                          family=row["family"]))
        if row["family"] == "Impact":
            impact.append(t)
    if weapon.improvised:
        steps.append(step("Improvised: no tags, so no positioning and no edges",
                          DATA.rule("Improvised Weapons")))
    steps.append(step(f"Attacks without penalty into {', '.join(zones)}; anywhere else at "
                      + ("−1 Effective Tier" if out_of_zone == "flat" else
                         "−1 Effective Tier a zone beyond"), DATA.rule("Zone")))
    uses = starting_uses(weapon.zone)
    steps.append(step(f"Starts with {uses} uses of ammunition; each attack spends one"
                      if uses else "Uses no ammunition", DATA.rule("Ammunition")))
    breaks = ("failure", "catastrophic") if weapon.improvised else ("catastrophic",)
    steps.append(step("Breaks on " + (" or ".join(band_name(b) for b in breaks)),
                      DATA.rule("Improvised Weapons" if weapon.improvised else "Ammunition")))
    steps.append(step("Deals Stress by band like every weapon: 0 / 0 / 1 / 2 / 4; no tag adds "
                      "damage", DATA.rule("Damage")))
    steps.append(step(f"Rarity {weapon.rarity}: where it came from, not how strong it is",
                      DATA.rule("Weapons & Gear")))
    shifts = tuple((z, zone_shift(weapon, z, out_of_zone=out_of_zone)) for z in ZONES)
    return WeaponProfile(value=uses or 0, outcome=weapon.zone, trace=tuple(steps),
                         weapon=weapon, fights_at=zones, starting_uses=uses,
                         impact_tags=tuple(impact), breaks_on=breaks, shifts=shifts)


# --- What Positioning and Utility tags do -----------------------------------------------------

SNARES = ("pull", "pin")


@dataclass(frozen=True, kw_only=True)
class FirstStrike(Resolution):
    """A foe's Movement against a Reach weapon: ``value`` is 1 when the wielder strikes first,
    ``outcome`` "strikes first" or "no first strike"."""

    strikes_first: bool
    uses: tuple[str, ...]


def reach_first_strike(weapon: Weapon, start: str, end: str, *,
                       reaction_used: bool = False) -> FirstStrike:
    """Reach: when a foe closes from *start* to *end* (zones from the wielder) and ends where
    the weapon fights, the wielder attacks first, before the foe can; that attack spends the
    wielder's Reaction, so not with it already used this round (§11 Tags; ruling
    ``tsl:reach_first_strike``)."""
    _check_weapon(weapon)
    a, b = zone_step(start, "start"), zone_step(end, "end")
    _check_flag("reaction_used", reaction_used)
    zones = fights_at(weapon)
    steps = []
    if "Reach" not in weapon.tags:
        steps.append(step("The weapon has no Reach tag: nobody strikes first", DATA.rule("Tags")))
        first = False
    elif b >= a:
        steps.append(step(f"The foe moves {start} → {end}: not closing, so Reach does not "
                          "strike first", DATA.rule("Tags")))
        first = False
    elif end not in zones:
        steps.append(step(f"The foe closes {start} → {end}, still outside the weapon's zones "
                          f"({', '.join(zones)})", DATA.rule("Tags")))
        first = False
    elif reaction_used:
        steps.append(step(f"The foe closes {start} → {end}, into the weapon's reach, but your "
                          "Reaction is already spent this round: no first strike",
                          DATA.rule("Your Turn")))
        first = False
    else:
        steps.append(step(f"The foe closes {start} → {end}, into the weapon's reach "
                          f"({', '.join(zones)}): Reach hits first", DATA.rule("Tags")))
        steps.append(step("The first strike is an attack made now, outside your turn: it "
                          "spends your Reaction", DATA.rule("Your Turn")))
        first = True
    return FirstStrike(value=int(first), outcome="strikes first" if first else
                       "no first strike", trace=tuple(steps), strikes_first=first,
                       uses=("reaction",) if first else ())


@dataclass(frozen=True, kw_only=True)
class Snare(Resolution):
    """A Snaring hit: ``value`` is the target's zone step after it, ``outcome`` "pulled",
    "pinned" or "no hit"."""

    distance: str
    pinned: bool


def snare(weapon: Weapon, band: str, distance: str, how: str = "pull") -> Snare:
    """Snaring: on a hit (Mixed or better, after armour and tags) the attacker pulls the target
    one zone nearer, or pins them where they are so their next Movement cannot leave that
    zone (§11 Tags; ruling ``tsl:snaring``)."""
    _check_weapon(weapon)
    check_band(band)
    here = zone_step(distance, "distance")
    _choice("how", how, SNARES)
    if "Snaring" not in weapon.tags:
        raise RulesError("weapon must have the Snaring tag to snare, got "
                         + (", ".join(weapon.tags) or "no tags"))
    if band not in HIT_BANDS:
        return Snare(value=here, outcome="no hit", distance=distance, pinned=False,
                     trace=(step(f"{band_name(band)} is a miss: Snaring needs a hit",
                                 DATA.rule("Tags")),))
    if how == "pull":
        if here == 0:
            raise RulesError("how must be pin when the target is already Engaged: there is no "
                             "nearer zone to pull them into")
        nearer = ZONES[here - 1]
        return Snare(value=here - 1, outcome="pulled", distance=nearer, pinned=False,
                     trace=(step(f"{band_name(band)}, a hit: Snaring pulls the target one zone, "
                                 f"{distance} → {nearer}", DATA.rule("Tags")),))
    return Snare(value=here, outcome="pinned", distance=distance, pinned=True,
                 trace=(step(f"{band_name(band)}, a hit: Snaring pins the target at {distance};"
                             " their next Movement cannot take them out of it", DATA.rule("Tags")),))


def utility_edge(tag: str, *, applies: bool) -> Resolution:
    """A Utility tag: +1 Effective Tier on the kind of roll it names when *applies* (Wayfinder's
    Chain: retracing a path you have walked), nothing otherwise (§11 Tags). ``value`` is the
    shift to add to the roll."""
    row = _tag_row(tag)
    _check_flag("applies", applies)
    if row["family"] != "Utility":
        raise RulesError("tag must be a Utility tag ("
                         + ", ".join(r["tag"] for r in DATA.table("combat", "tags")
                                     if r["family"] == "Utility")
                         + f"), got {tag} ({row['family']})")
    shift = 1 if applies else 0
    text = (f"{tag}: {row['effect']}; it applies, so +1 Effective Tier on this roll" if applies
            else f"{tag}: {row['effect']}; not this roll, so no edge")
    return Resolution(value=shift, outcome=f"{shift:+d} Effective Tier",
                      trace=(step(text, DATA.rule("Tags"), shift=shift),))


def rarity_origin(rarity: str) -> str:
    """Where gear of this rarity comes from (rarity never changes a number)."""
    _choice("rarity", rarity, RARITIES)
    return DATA.table("combat", "rarity").find("rarity", rarity)["origin"]


@dataclass(frozen=True, kw_only=True)
class Repair(Resolution):
    """Mending broken gear: ``outcome`` is "repaired", "needs downtime", "not repaired" or
    "lost"; ``value`` the Hand roll's total (0 when no roll is made)."""

    kind: str
    band: str | None


def _repair_kind(rarity: object, irreplaceable: object) -> str:
    """How gear of *rarity* is mended: "ordinary", "rare" or "irreplaceable" (§11 Ammunition)."""
    _choice("rarity", rarity, RARITIES)
    if not isinstance(irreplaceable, bool):
        raise RulesError(f"irreplaceable must be True or False, got {shown(irreplaceable)}")
    if irreplaceable:
        return "irreplaceable"
    return DATA.table("combat", "rarity").find("rarity", rarity)["repair"]


def repair_needs_roll(rarity: str, *, irreplaceable: bool = False) -> bool:
    """Does mending broken gear of *rarity* take a Hand roll (§11 Ammunition)? Only rarer gear
    does: Issued gear is fixed with tools and downtime, and something irreplaceable may be
    gone for good, both with no roll.

    >>> repair_needs_roll("Issued"), repair_needs_roll("Salvaged")
    (False, True)
    """
    return DATA.table("combat", "repairs").find(
        "kind", _repair_kind(rarity, irreplaceable))["roll"] != ""


def repair_dice(rarity: str, *, irreplaceable: bool = False) -> int:
    """How many d6 the mending of broken gear of *rarity* asks for (§11 Ammunition, ruling
    ``tsl:repair_roll``): the Hand roll's five for rarer gear, none for Issued or
    irreplaceable gear, which no roll mends. A tool asks for this many dice.

    >>> repair_dice("Issued"), repair_dice("Salvaged"), repair_dice("Salvaged", irreplaceable=True)
    (0, 5, 0)
    """
    return DICE if repair_needs_roll(rarity, irreplaceable=irreplaceable) else 0


def repair(rarity: str, *, irreplaceable: bool = False,
           dice: Sequence[int] | DiceSource | None = None,
           tier: str = "Untrained", shift: int = 0, bands: str = "standard",
           tier_limits: str = "extend") -> Repair:
    """Mend a broken item: Issued gear needs tools and downtime; rarer gear needs a skilled
    NPC, or specialist tools and a Hand roll at T11 (Mixed or better mends it, ruling
    ``tsl:repair_roll``); something irreplaceable may be gone for good. *dice* is the five
    faces of that roll, or a DiceSource to draw them from."""
    kind = _repair_kind(rarity, irreplaceable)
    if isinstance(dice, DiceSource):
        (dice,) = faces_from(dice, "dice")
    # The roll's inputs are checked even when the rarity calls for no roll.
    if dice is not None:
        read_dice(dice, "dice")
    check_tier(tier)
    require_int("shift", shift, minimum=-MAX_SHIFT, maximum=MAX_SHIFT)
    band_table(bands)
    check_limits(tier_limits)
    row = DATA.table("combat", "repairs").find("kind", kind)
    first = step(f"{rarity}{' (irreplaceable)' if irreplaceable else ''}: {row['how']}",
                 DATA.rule("Ammunition"), kind=kind)
    if kind == "irreplaceable":
        return Repair(value=0, outcome="lost", trace=(first,), kind=kind, band=None)
    if kind == "ordinary":
        return Repair(value=0, outcome="needs downtime", trace=(first,), kind=kind, band=None)
    if dice is None:
        raise RulesError("dice are needed for the Hand roll (T11) that mends rarer gear, "
                         "got none")
    roll = static_roll(dice, tier, REPAIR_TARGET, shift=shift, bands=bands,
                       tier_limits=tier_limits)
    outcome = "repaired" if roll.hit else "not repaired"
    last = step(f"{band_name(roll.band)}: {outcome}", DATA.rule("Ammunition"), band=roll.band)
    return Repair(value=roll.total, outcome=outcome, trace=(first,) + roll.trace + (last,),
                  kind=kind, band=roll.band)


def repair_odds(tier: str, *, shift: int = 0, bands: str = "standard",
                tier_limits: str = "extend") -> Fraction:
    """The exact chance that the Hand roll mending rarer gear mends it: *tier*'s five dice
    (moved by *shift*) beating :data:`REPAIR_TARGET` with Mixed or better (§11 Ammunition,
    ruling ``tsl:repair_roll``), on the band ladder *bands*.

    >>> repair_odds("Trained")
    Fraction(6023, 7776)
    """
    chances = band_odds(tier, REPAIR_TARGET, shift=shift, bands=bands, tier_limits=tier_limits)
    return sum((chances[b] for b in HIT_BANDS), Fraction(0))


@dataclass(frozen=True)
class RepairPlan:
    """How broken gear is mended, before any dice (§11 Ammunition, ruling ``tsl:repair_roll``):
    ``rolls`` whether it takes the Hand roll, ``dice`` how many d6 that roll asks for (0 when
    none), ``odds`` its exact chance to mend (None when no roll), ``said`` the sentence a
    reader is told, and ``done`` the repair itself when no roll is made (None otherwise)."""

    kind: str
    rolls: bool
    dice: int
    odds: Fraction | None
    said: str
    done: Repair | None


def repair_plan(rarity: str, *, irreplaceable: bool = False, tier: str = "Untrained",
                shift: int = 0, bands: str = "standard",
                tier_limits: str = "extend") -> RepairPlan:
    """What mending broken gear of *rarity* takes, in one call (§11 Ammunition, ruling
    ``tsl:repair_roll``): rarer gear takes a Hand roll at :data:`REPAIR_TARGET` that mends it
    on the lowest band that hits or better, with *tier*'s exact chance (moved by *shift*, on
    the band ladder *bands*); Issued or irreplaceable gear is answered at once, with no roll.

    >>> plan = repair_plan("Salvaged", tier="Trained")
    >>> plan.rolls, plan.dice, plan.odds
    (True, 5, Fraction(6023, 7776))
    >>> plan.said
    'Mending it takes a Hand roll at T11: a Mixed Success or better mends it.'
    >>> repair_plan("Issued").done.outcome
    'needs downtime'
    """
    rolls = repair_needs_roll(rarity, irreplaceable=irreplaceable)
    odds = repair_odds(tier, shift=shift, bands=bands, tier_limits=tier_limits)
    kind = _repair_kind(rarity, irreplaceable)
    if rolls:
        said = (f"Mending it takes a Hand roll at T{REPAIR_TARGET}: a "
                f"{band_name(HIT_BANDS[0])} or better mends it.")
        return RepairPlan(kind, True, DICE, odds, said, None)
    how = DATA.table("combat", "repairs").find("kind", kind)["how"]
    said = (f"It {how}: no roll mends it." if kind == "irreplaceable"
            else f"Mending it takes {how}: no roll.")
    return RepairPlan(kind, False, 0, None, said,
                      repair(rarity, irreplaceable=irreplaceable))


# --- Defence --------------------------------------------------------------------------------

def attack_types() -> tuple[str, ...]:
    """The kinds of attack the defence table lists."""
    return tuple(r["attack"] for r in DATA.table("combat", "defence"))


def _defence_row(attack: object, name: str = "attack"):
    _choice(name, attack, attack_types())
    return DATA.table("combat", "defence").find("attack", attack)


def defence_domains(attack: str) -> tuple[str, tuple[str, ...]]:
    """The primary defence domain of an attack and the alternatives a described defence allows."""
    row = _defence_row(attack)
    return row["primary"], cell_list(row["alternatives"])


def defence_domain(attack: str, domain: str | None = None, *, described: bool = False) -> str:
    """The domain that defends: the primary one, or an alternative if the defender describes
    how it works in the fiction."""
    primary, alternatives = defence_domains(attack)
    _check_flag("described", described)
    if domain is not None and not isinstance(domain, str):
        raise RulesError(f"domain must be a defence domain or None, got {shown(domain)}")
    if domain is None or domain == primary:
        return primary
    if domain not in alternatives:
        allowed = ", ".join((primary,) + alternatives)
        raise RulesError(f"domain must be one of {allowed} against {attack}, got {shown(domain)}")
    if not described:
        raise RulesError(f"domain {domain} defends against {attack} only with a description of "
                         f"how (described=True); the primary defence is {primary}")
    return domain


def stress_pool(attack: str) -> str:
    """The pool an attack's Stress lands on (ruling ``tsl:stress_pools``)."""
    return _defence_row(attack)["pool"]


# --- The attack -----------------------------------------------------------------------------

@dataclass(frozen=True)
class _Mods:
    impact: bool
    armour: bool
    order: str
    bump_misses: bool
    improvised: bool


def _modify(raw: str, defence_cat: bool, m: _Mods) -> tuple[str, bool, list[Step]]:
    """Apply the Impact bump and armour in the ruled order; (band, armour spent, steps)."""
    band, steps = raw, []

    def bump(b: str) -> str:
        after = impact_tag(b, bump_misses=m.bump_misses)
        steps.append(step(f"Impact tag: {band_name(b)} → {band_name(after)}"
                          + (" (never past Success)" if after == b and b in ("success", "crit")
                             else ""), DATA.rule("Tags")))
        return after

    if m.impact and m.order == "impact_first":
        band = bump(band)
    if m.armour and defence_cat:
        res = armour_against(band, defence_catastrophic=True)
        steps.extend(res.trace)
        return res.band, True, steps
    if m.armour:
        res = armour_against(band)
        steps.extend(res.trace)
        band = res.band
    if m.impact and m.order == "armour_first":
        band = bump(band)
    return band, False, steps


@dataclass(frozen=True, kw_only=True)
class Attack(Resolution):
    """An attack: ``value`` is the Stress dealt, ``outcome`` the final band."""

    kind: str
    total: int
    against: int
    margin: int
    raw_band: str
    band: str
    stress: int
    pool: str
    shift: int
    armour_spent: bool
    weapon_breaks: bool
    uses_left: int | None
    target_pools: StressPools | None = None
    target_breaks: bool = False
    snared: Snare | None = None


def _check_flag(name: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise RulesError(f"{name} must be True or False, got {shown(value)}")
    return value


def _attack_setup(weapon: Weapon | None, distance: str, shift: int, impact: bool,
                  armour: bool, attack_type: str, order: str, out_of_zone: str,
                  bump_misses: bool, defender_shift: int) -> tuple[int, _Mods, list[Step]]:
    require_int("shift", shift, minimum=-MAX_SHIFT, maximum=MAX_SHIFT)
    require_int("defender_shift", defender_shift, minimum=-MAX_SHIFT, maximum=MAX_SHIFT)
    for name, flag in (("impact", impact), ("armour", armour), ("bump_misses", bump_misses)):
        _check_flag(name, flag)
    _choice("order", order, ORDERS)
    _choice("out_of_zone", out_of_zone, OUT_OF_ZONE)
    _defence_row(attack_type, "attack_type")
    zone_step(distance, "distance")
    steps: list[Step] = []
    total_shift = shift
    if shift:
        steps.append(step(f"Other Effective Tier shifts: {shift:+d}", DATA.rule("Tags"), shift=shift))
    improvised = False
    if weapon is not None:
        _check_weapon(weapon)
        improvised = weapon.improvised
        penalty = zone_shift(weapon, distance, out_of_zone=out_of_zone)
        zones = fights_at(weapon)
        if penalty:
            steps.append(step(f"{distance} is outside the weapon's zones ({', '.join(zones)}): "
                              f"{penalty:+d} Effective Tier", DATA.rule("Zone"), shift=penalty))
        else:
            steps.append(step(f"{distance} is in the weapon's zones ({', '.join(zones)})",
                              DATA.rule("Zone")))
        total_shift += penalty
        if impact and not any(tag_family(t) == "Impact" for t in weapon.tags):
            raise RulesError("impact must be False: the weapon has no Impact tag"
                             + (" (improvised weapons have no tags)" if improvised else ""))
    elif impact:
        raise RulesError("impact must be False without a weapon: only a weapon's Impact tag "
                         "bumps the band")
    total_shift = max(-MAX_SHIFT, min(MAX_SHIFT, total_shift))
    return total_shift, _Mods(impact, armour, order, bump_misses, improvised), steps


def _spend_ammunition(weapon: Weapon | None, uses: int) -> AmmoUse:
    """The attack's use of ammunition: refused without a weapon that takes it, or at 0 uses
    (the weapon cannot attack until restocked, §11 Ammunition)."""
    if weapon is None:
        raise RulesError("uses needs a weapon that takes ammunition, got no weapon")
    if starting_uses(weapon.zone) is None:
        raise RulesError(f"uses must be None for a {weapon.zone} weapon: it takes no "
                         f"ammunition, got {shown(uses)}")
    return spend_use(weapon.zone, uses)


def _check_snaring(snaring: object, weapon: Weapon | None, distance: str) -> None:
    """Refuse a Snaring choice the attack cannot carry out (§11 Tags; ruling
    ``tsl:snaring``): it needs a Snaring weapon, and a target already Engaged has no nearer
    zone to be pulled into. Checked by :func:`attack_odds` as by :func:`attack`, so a reader
    hears it when the choice is made, before any roll."""
    if snaring is None:
        return
    _choice("snaring", snaring, SNARES)
    if weapon is None or "Snaring" not in weapon.tags:
        raise RulesError("snaring needs a weapon with the Snaring tag, got "
                         + ("no weapon" if weapon is None else
                            ", ".join(weapon.tags) or "no tags"))
    if snaring == "pull" and distance == "Engaged":
        raise RulesError("snaring must be pin (hold them where they are) when the target is "
                         "already Engaged: there is no nearer zone to pull them into")


def attack(dice: Sequence[int] | DiceSource, tier: str, *, target: int | None = None,
           defender_dice: Sequence[int] | None = None, defender_tier: str | None = None,
           weapon: Weapon | None = None, distance: str = "Engaged", shift: int = 0,
           defender_shift: int = 0, impact: bool = False, armour: bool = False,
           attack_type: str = "Melee weapon", uses: int | None = None,
           bands: str = "standard", tier_limits: str = "extend", order: str = "armour_first",
           out_of_zone: str = "flat", bump_misses: bool = True,
           target_pools: StressPools | None = None, snaring: str | None = None) -> Attack:
    """Resolve an attack against a static T-number (*target*) or an opposed defence roll.

    The weapon's zone against *distance* may shift the Effective Tier; the roll gives a band;
    an Impact tag whose condition holds (*impact*) and armour built for the blow (*armour*)
    move it; the band's Stress lands on the pool the attack type hits, and with the target's
    *target_pools* given it is marked there and says whether the target Breaks (§11 Damage). A
    Snaring weapon with *snaring* ("pull" or "pin") moves or holds the target on a hit (see
    :func:`snare`). A ranged, sidearm or thrown weapon with *uses* tracked spends one; a
    Catastrophic roll (any Failure for an improvised weapon) breaks the weapon.

    *dice* is the attacker's five faces, or a DiceSource to draw them from; against a
    defender (*defender_tier* given, no *target*) the defender's five are drawn from it too.
    """
    if isinstance(dice, DiceSource) and target is None and defender_tier is not None:
        not_both("defender_dice", defender_dice, dice)
        dice, defender_dice = faces_from(dice, "attacker_dice", "defender_dice")
    elif isinstance(dice, DiceSource):
        (dice,) = faces_from(dice, "dice")
    if (target is None) == (defender_dice is None):
        raise RulesError("target or defender_dice: give exactly one (a static T-number, or the "
                         "defender's dice for an opposed roll)")
    # The roll's inputs under this function's names, before the shared rolls read them.
    read_dice(dice, "dice")
    check_tier(tier)
    band_table(bands)
    check_limits(tier_limits)
    if target is not None and defender_tier is not None:
        raise RulesError(f"defender_tier must be None against a static target, got "
                         f"{shown(defender_tier)}")
    total_shift, mods, steps = _attack_setup(weapon, distance, shift, impact, armour,
                                             attack_type, order, out_of_zone, bump_misses,
                                             defender_shift)
    if target_pools is not None:
        check_pools(target_pools, "target_pools")
    _check_snaring(snaring, weapon, distance)
    if uses is not None:
        ammo = _spend_ammunition(weapon, uses)
    if target is not None:
        roll = static_roll(dice, tier, target, shift=total_shift, bands=bands,
                           tier_limits=tier_limits)
        kind, against, defence_cat = "static", target, False
    else:
        if defender_tier is None:
            raise RulesError("defender_tier is needed with defender_dice, got None")
        roll = opposed_roll(dice, tier, defender_dice, defender_tier,
                            attacker_shift=total_shift, defender_shift=defender_shift,
                            bands=bands, tier_limits=tier_limits)
        kind, against, defence_cat = "opposed", roll.defender_total, roll.defence_catastrophic
    steps.extend(roll.trace)
    raw = roll.band
    band, spent, mod_steps = _modify(raw, defence_cat, mods)
    steps.extend(mod_steps)
    dealt = stress(band)
    pool = stress_pool(attack_type)
    steps.append(step(f"{band_name(band)} deals {dealt} Stress"
                      + (f" to the {pool} pool" if dealt else ""), DATA.rule("Damage"),
                      stress=dealt, pool=pool))
    after_pools, target_breaks = None, False
    if target_pools is not None:
        taken = mark(target_pools, pool, dealt, f"Marked on the target's {pool} pool", "Damage")
        steps.extend(taken.trace[1:])  # the step above already says what lands
        after_pools, target_breaks = taken.pools, taken.breaks
    snared = None
    if snaring is not None:
        snared = snare(weapon, band, distance, snaring)  # type: ignore[arg-type]
        steps.extend(snared.trace)
    uses_left = None
    if uses is not None:
        steps.extend(ammo.trace)
        uses_left = ammo.uses_left
    breaks = weapon is not None and weapon_breaks(raw, improvised=mods.improvised)
    if breaks:
        steps.append(step(f"{band_name(raw)} with {'an improvised' if mods.improvised else 'a'} "
                          "weapon: it breaks and is useless until repaired",
                          DATA.rule("Improvised Weapons" if mods.improvised else "Ammunition")))
    return Attack(value=dealt, outcome=band, trace=tuple(steps), kind=kind, total=roll.total,
                  against=against, margin=roll.margin, raw_band=raw, band=band, stress=dealt,
                  pool=pool, shift=total_shift, armour_spent=spent, weapon_breaks=breaks,
                  uses_left=uses_left, target_pools=after_pools, target_breaks=target_breaks,
                  snared=snared)


@dataclass(frozen=True)
class AttackOdds:
    """Exact odds of an attack: each final band, each Stress, breaking and spent armour."""

    raw: dict[str, Fraction]
    bands: dict[str, Fraction]
    stress: dict[int, Fraction]
    weapon_breaks: Fraction
    armour_spent: Fraction
    shift: int = 0
    keep: int = 0
    notes: tuple[str, ...] = field(default=())
    #: The chance the target Breaks, when its pools are given.
    target_breaks: Fraction | None = None


def attack_odds(tier: str, *, target: int | None = None, defender_tier: str | None = None,
                weapon: Weapon | None = None, distance: str = "Engaged", shift: int = 0,
                defender_shift: int = 0, impact: bool = False, armour: bool = False,
                attack_type: str = "Melee weapon", bands: str = "standard",
                tier_limits: str = "extend", order: str = "armour_first",
                out_of_zone: str = "flat", bump_misses: bool = True,
                target_pools: StressPools | None = None,
                uses: int | None = None, snaring: str | None = None) -> AttackOdds:
    """Exact odds of :func:`attack` with the same setup, before any die is rolled; with the
    target's *target_pools*, the chance that the blow makes the target Break too. With the
    weapon's ammunition *uses* tracked, an attack it cannot make (0 uses) has no odds: it is
    refused as :func:`attack` refuses it; so is a *snaring* choice it cannot carry out (a
    pull at Engaged), though where the target ends up changes no odds."""
    if (target is None) == (defender_tier is None):
        raise RulesError("target or defender_tier: give exactly one (a static T-number, or "
                         "the defender's tier for an opposed roll)")
    total_shift, mods, _ = _attack_setup(weapon, distance, shift, impact, armour,
                                         attack_type, order, out_of_zone, bump_misses,
                                         defender_shift)
    if uses is not None:
        _spend_ammunition(weapon, uses)
    _check_snaring(snaring, weapon, distance)
    if target_pools is not None:
        check_pools(target_pools, "target_pools")
    table = band_table(bands)
    keep = keep_count(tier, total_shift, tier_limits=tier_limits)
    if target is not None:
        require_int("target", target, minimum=1, maximum=MAX_TARGET)
        outcomes = [(table.lookup(t - target)["band"], False, p)
                    for t, p in keep_distribution(keep).items()]
    else:
        margins = opposed_margin_odds(tier, defender_tier, attacker_shift=total_shift,
                                      defender_shift=defender_shift, tier_limits=tier_limits)
        outcomes = [(opposed_band(m, bands=bands),
                     band_for(-m, bands=bands) == "catastrophic", p) for m, p in margins.items()]
    raw = {b: Fraction(0) for b in BANDS}
    final = {b: Fraction(0) for b in BANDS}
    by_stress: dict[int, Fraction] = {}
    breaks = spent = Fraction(0)
    for band, defence_cat, p in outcomes:
        raw[band] += p
        after, was_spent, _ = _modify(band, defence_cat, mods)
        final[after] += p
        s = stress(after)
        by_stress[s] = by_stress.get(s, Fraction(0)) + p
        if weapon is not None and weapon_breaks(band, improvised=mods.improvised):
            breaks += p
        if was_spent:
            spent += p
    primary, alternatives = defence_domains(attack_type)
    notes = (f"{attack_type}: defended with {primary}"
             + (f" (or {' or '.join(alternatives)}, if the defender describes how)"
                if alternatives else ""),
             f"Stress lands on the {stress_pool(attack_type)} pool")
    target_breaks = None
    if target_pools is not None:
        pool = stress_pool(attack_type)
        left = target_pools.left(pool)
        target_breaks = sum((p for s, p in by_stress.items() if left and s >= left),
                            Fraction(0))
    return AttackOdds(raw, final, dict(sorted(by_stress.items())), breaks, spent,
                      total_shift, keep, notes, target_breaks)
