"""One attack from the hit roll to the wounds, and rolling its dice from a DiceSource."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from rulescore.dice import DiceSource
from rulescore.errors import RulesError
from rulescore.trace import Resolution, step
from rulescore.errors import require_bool as flag

from ._system import DATA
from .inputs import count, d6_faces, drawn_chains, finished, per_hit, threshold
from .defence import CoverRoll, Protection, Wounds, _cover, cover_roll, protection, wounds
from .hits import BASE_CRIT_AT, BASE_MIN_ROLL, HitRoll, hit_roll, scored_hits


@dataclass(frozen=True, kw_only=True)
class AttackResult(Resolution):
    """Every stage of an attack; ``value`` is the wounds dealt."""

    hit: HitRoll
    cover: CoverRoll | None
    protection: Protection
    wounds: Wounds | None
    cover_faces: tuple[int, ...] = ()   # the cover roll's d6, criticals' first


def resolve_attack(dice_totals: Sequence[int] | int, *, min_roll: int = BASE_MIN_ROLL,
                   crit_at: int = BASE_CRIT_AT, burst: bool = False, cover: int | None = None,
                   cover_faces: Sequence[int] = (), pool: int = 0, critical_pool: int = 0,
                   piercing: int = 0, wounds_per_hit: int = 1, causes_wounds: bool = True,
                   prevent: str = "heaviest", dice: DiceSource | None = None) -> AttackResult:
    """An attack (§Sequence of an attack): the hit roll; the cover roll if there is cover,
    *cover_faces* holding one d6 a critical first and then one a normal hit; protection from
    the pool; and the wounds (none for a K.O. or disarming attack).

    With *dice* (a DiceSource), *dice_totals* is how many hit dice to roll; they are drawn
    from it, then the cover dice, one a hit, unless the reader typed *cover_faces*."""
    hit = scored_hits(*drawn_chains("dice_totals", dice_totals, dice), min_roll, crit_at,
                      burst)
    flag("causes_wounds", causes_wounds)
    if dice is not None and cover is not None and not cover_faces:
        short = (f"cover_faces must hold one die a hit ({hit.criticals} for the criticals, "
                 f"then {hit.hits} for the normal hits), got none")
        cover_faces = tuple(dice.d(6, f"cover die {i}", missing=short)
                            for i in range(1, hit.hits + hit.criticals + 1))
    finished(dice, "attack")
    faces = d6_faces("cover_faces", cover_faces)
    # Checked here too: an attack that deals no wounds never reaches wounds().
    per_hit("wounds_per_hit", wounds_per_hit)
    steps = list(hit.trace)
    hits, crits, extras = hit.hits, hit.criticals, hit.critical_extras
    cov = None
    if cover is not None:
        _cover(cover)
        need = crits + hits
        if len(faces) != need:
            raise RulesError(f"cover_faces must hold one die a hit ({crits} for the criticals, "
                             f"then {hits} for the normal hits), got {len(faces)}")
        cov = cover_roll(hits, crits, faces[crits:], faces[:crits], cover,
                         critical_extras=extras, prevent=prevent)
        steps += cov.trace
        hits, crits, extras = cov.hits, cov.criticals, cov.critical_extras
    elif faces:
        raise RulesError("cover_faces must be empty when the target has no cover, "
                         f"got {len(faces)} dice")
    prot = protection(hits, crits, pool, critical_pool, critical_extras=extras,
                      piercing=piercing, prevent=prevent)
    steps += prot.trace
    if causes_wounds:
        wound = wounds(prot.hits, prot.criticals, sum(prot.critical_extras), wounds_per_hit)
        steps += wound.trace
        value = wound.value
    else:
        wound = None
        value = 0
        steps.append(step(f"{prot.value} hit(s) landed, but this attack deals no wounds",
                          DATA.rule("Sequence of an attack")))
    return AttackResult(value=value, outcome="wounded" if value else
                        ("landed" if prot.value else "no effect"), trace=tuple(steps), hit=hit,
                        cover=cov, protection=prot, wounds=wound, cover_faces=faces)


@dataclass(frozen=True)
class RolledDice:
    """Rolled dice: the chains of the exploding dice, their totals, and plain d6; ``seed``
    replays them (None when they were typed)."""

    seed: int | None
    chains: tuple[tuple[int, ...], ...]
    plain: tuple[int, ...]

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(sum(c) for c in self.chains)


def _draw(source: DiceSource, exploding: int, plain: int) -> RolledDice:
    chains = tuple(source.chain(6, f"exploding die {i}") for i in range(1, exploding + 1))
    return RolledDice(source.seed, chains, source.dice(plain, 6, "plain die"))


def roll_dice(dice: DiceSource | int, exploding: int, plain: int = 0) -> RolledDice:
    """Roll *exploding* compounding d6 (each a chain while it shows 6), then *plain* d6, from
    *dice*: a :class:`~rulescore.dice.DiceSource` (a seed, a whole number, is kept for existing
    callers). Typed dice must all be used (§The hit roll)."""
    source = DiceSource.from_seed_or_source(dice)
    rolled = _draw(source, count("exploding", exploding), count("plain", plain))
    source.finish()
    return rolled


def roll_attack(dice: DiceSource | int, pool: int, *, min_roll: int = BASE_MIN_ROLL,
                crit_at: int = BASE_CRIT_AT, burst: bool = False,
                cover: int | None = None) -> RolledDice:
    """Roll an attack's dice from *dice* (a DiceSource; a seed is kept for existing callers):
    the *pool* hit dice, then one cover die a hit if there is cover (so
    :func:`resolve_attack` can read them)."""
    source = DiceSource.from_seed_or_source(dice)
    count("pool", pool)
    threshold("min_roll", min_roll)
    threshold("crit_at", crit_at)
    flag("burst", burst)
    if cover is not None:
        _cover(cover)
    first = _draw(source, pool, 0)
    if cover is not None:
        hit = hit_roll(first.totals, min_roll, crit_at, burst)
        first = RolledDice(first.seed, first.chains, source.dice(hit.value, 6, "cover die"))
    source.finish()
    return first
