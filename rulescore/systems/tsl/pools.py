"""TSL Stress pools: a fighter's Body, Mind and Spirit pools, the Stress marked on them and
Breaking (primer §11 Damage).

How big a pool is comes from the damage rule: a tough foe's Success (2 Stress) takes half of a
starting pool, so a starting pool holds 4, and a Crit (4) fills it, which is how it can Break a
character outright; a Grunt Breaks on one solid hit, so its pools hold 2 (ruling
``tsl:stress_pool_size``). A pool Breaks when its marked Stress reaches its size.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rulescore.errors import RulesError, require_int, shown
from rulescore.errors import require_choice as _choice
from rulescore.trace import Resolution, Step, step

from ._system import DATA

POOLS = ("Body", "Mind", "Spirit")
FIGHTER_KINDS = ("character", "grunt")
#: Bubbles on one pool: far past any starting pool, to bound a pool built by hand.
MAX_POOL = 40
#: The Stress one rule can move at once (a Crit deals 4; a Spirit ability may cost more).
MAX_STRESS = MAX_POOL



def pool_size(kind: str) -> int:
    """The size of each starting pool of a *kind* of fighter: 4 for a character, 2 for a Grunt
    (§11 Damage; ruling ``tsl:stress_pool_size``)."""
    _choice("kind", kind, FIGHTER_KINDS)
    return DATA.table("combat", "pool_sizes").find("kind", kind)["size"]


@dataclass(frozen=True)
class StressPools:
    """One fighter's Body, Mind and Spirit pools: each pool's size and the Stress marked on it
    (in the order of :data:`POOLS`)."""

    kind: str = "character"
    sizes: tuple[int, int, int] = (4, 4, 4)
    marked: tuple[int, int, int] = (0, 0, 0)

    def size(self, pool: str) -> int:
        return self.sizes[POOLS.index(pool)]

    def stress(self, pool: str) -> int:
        return self.marked[POOLS.index(pool)]

    def left(self, pool: str) -> int:
        """Bubbles still empty on *pool*."""
        return max(0, self.size(pool) - self.stress(pool))

    def broken(self, pool: str) -> bool:
        """Is *pool* full, so the fighter has Broken on it?"""
        return self.stress(pool) >= self.size(pool)

    @property
    def broken_pools(self) -> tuple[str, ...]:
        return tuple(p for p in POOLS if self.broken(p))


def new_pools(kind: str = "character", *, size: int | None = None, body: int = 0,
              mind: int = 0, spirit: int = 0) -> StressPools:
    """A fighter's pools: each the starting size of *kind* (or *size*, for a fighter whose
    pools have grown), with *body*, *mind* and *spirit* Stress already marked."""
    base = pool_size(kind)
    if size is not None:
        base = require_int("size", size, minimum=1, maximum=MAX_POOL)
    marked = tuple(require_int(name, value, minimum=0, maximum=base)
                   for name, value in (("body", body), ("mind", mind), ("spirit", spirit)))
    return StressPools(kind, (base, base, base), marked)  # type: ignore[arg-type]


def check_pools(pools: object, name: str = "pools") -> StressPools:
    """*pools* if it is a StressPools whose fields hold together (one built by hand included)."""
    if not isinstance(pools, StressPools):
        raise RulesError(f"{name} must be a fighter's Stress pools (see new_pools), "
                         f"got {shown(pools)}")
    _choice(f"{name}.kind", pools.kind, FIGHTER_KINDS)
    for field in ("sizes", "marked"):
        value = getattr(pools, field)
        if not isinstance(value, tuple) or len(value) != len(POOLS):
            raise RulesError(f"{name}.{field} must be a tuple of three whole numbers (Body, "
                             f"Mind, Spirit), got {shown(value)}")
    for pool, size, marked in zip(POOLS, pools.sizes, pools.marked):
        require_int(f"{name}.sizes ({pool})", size, minimum=1, maximum=MAX_POOL)
        require_int(f"{name}.marked ({pool})", marked, minimum=0, maximum=size)
    return pools


@dataclass(frozen=True, kw_only=True)
class StressTaken(Resolution):
    """Stress marked on one pool: ``value`` is the Stress marked, ``outcome`` "Breaks",
    "holds", "already Broken" or "no Stress"; ``pools`` the fighter's pools after it."""

    pools: StressPools
    pool: str
    stress: int
    before: int
    after: int
    size: int
    breaks: bool
    overflow: int


def mark(pools: StressPools, pool: str, amount: int, why: str, rule_section: str
         ) -> StressTaken:
    """Mark *amount* Stress on *pool* (the caller has checked all three) and say whether the
    fighter Breaks; *why* opens the trace, citing *rule_section*."""
    before, size = pools.stress(pool), pools.size(pool)
    after = min(size, before + amount)
    overflow = before + amount - after
    i = POOLS.index(pool)
    new = replace(pools, marked=pools.marked[:i] + (after,) + pools.marked[i + 1:])
    steps: list[Step] = [step(why, DATA.rule(rule_section), stress=amount, pool=pool)]
    if amount == 0:
        outcome = "no Stress"
        steps.append(step(f"Nothing is marked: the {pool} pool stays at {before} of {size}",
                          DATA.rule("Damage"), marked=before))
    elif before >= size:
        outcome = "already Broken"
        steps.append(step(f"The {pool} pool is already full ({size} of {size}): the fighter has "
                          f"Broken already, and the {amount} Stress has nowhere to go",
                          DATA.rule("Damage"), marked=after))
    else:
        steps.append(step(f"{pool} pool: {before} + {amount} = {before + amount} of {size}"
                          + (f" (full at {size}; {overflow} more has nowhere to go)"
                             if overflow else ""), DATA.rule("Damage"), marked=after))
        outcome = "Breaks" if after >= size else "holds"
        steps.append(step(f"The {pool} pool is full: the fighter Breaks" if after >= size else
                          f"{size - after} left on the {pool} pool: the fighter holds",
                          DATA.rule("Damage"), left=size - after))
    return StressTaken(value=amount, outcome=outcome, trace=tuple(steps), pools=new, pool=pool,
                       stress=amount, before=before, after=after, size=size,
                       breaks=outcome == "Breaks", overflow=overflow)


def take_stress(pools: StressPools, pool: str, stress: int) -> StressTaken:
    """Mark *stress* on one of a fighter's pools; the fighter Breaks when it is full (§11
    Damage)."""
    check_pools(pools)
    _choice("pool", pool, POOLS)
    require_int("stress", stress, minimum=0, maximum=MAX_STRESS)
    return mark(pools, pool, stress, f"{stress} Stress to the {pool} pool", "Damage")


