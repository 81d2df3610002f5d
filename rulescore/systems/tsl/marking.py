"""TSL Stress on the move: an attack's Stress marked on its target, and the rules that move
Stress between fighters or spend it: Soak the Hit, Steady the Spirit, Grant Reroll's cost and
Spirit abilities (primer §11 Damage, §11 Helping Each Other, §11 A Worked Example).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rulescore.errors import RulesError, require_int, require_text, shown
from rulescore.errors import require_choice as _choice
from rulescore.tables import Row
from rulescore.trace import Resolution, step

from ._system import DATA
from .combat import ZONES, Attack, band_name
from .pools import MAX_STRESS, POOLS, StressPools, StressTaken, check_pools, mark
from .rolls import HIT_BANDS, check_band
from .turns import TurnState, perk_names, spend, support_action_names

#: A Spirit ability's name, in characters.
MAX_ABILITY_NAME = 80
#: What rerolling a failed roll costs (§11 Support Actions, Grant Reroll).
REROLL_STRESS = 1
SUPPORT = "Helping Each Other: Support Actions"



def _check_attack(attack: object, name: str = "attack") -> Attack:
    if not isinstance(attack, Attack):
        raise RulesError(f"{name} must be an attack's result (see attack), got {shown(attack)}")
    check_band(attack.band, f"{name}.band")
    _choice(f"{name}.pool", attack.pool, POOLS)
    require_int(f"{name}.stress", attack.stress, minimum=0, maximum=4)
    return attack


def apply_attack(pools: StressPools, attack: Attack) -> StressTaken:
    """An attack's Stress (0, 1, 2 or 4 by its final band) marked on the pool it hits, and
    whether the target Breaks (§11 Damage)."""
    check_pools(pools)
    _check_attack(attack)
    dealt = attack.stress
    return mark(pools, attack.pool, dealt, f"{band_name(attack.band)} deals {dealt} Stress to "
                 f"the {attack.pool} pool", "Damage")


def soak_the_hit(soaker: StressPools, attack: Attack, *, ally_zone: str = "Engaged"
                 ) -> StressTaken:
    """Soak the Hit: Body Stress meant for an ally Engaged with you lands on your Body pool
    instead (§11 Support Actions; it spends your Reaction, see ``take``)."""
    check_pools(soaker, "soaker")
    _check_attack(attack)
    _choice("ally_zone", ally_zone, ZONES)
    if ally_zone != "Engaged":
        raise RulesError(f"ally_zone must be Engaged for Soak the Hit, got {ally_zone}")
    if attack.pool != "Body":
        raise RulesError(f"attack must deal Body Stress for Soak the Hit, got "
                         f"{attack.pool} Stress")
    taken = mark(soaker, "Body", attack.stress, f"Soak the Hit: the ally's {attack.stress} "
                  "Body Stress lands on your Body pool instead", SUPPORT)
    return taken


@dataclass(frozen=True, kw_only=True)
class StressMoved(Resolution):
    """Stress moved from an ally to a helper: ``value`` is the Stress moved, ``outcome`` the
    helper's ("Breaks" or "holds")."""

    helper: StressPools
    ally: StressPools
    breaks: bool


def steady_the_spirit(helper: StressPools, ally: StressPools) -> StressMoved:
    """Steady the Spirit (or a Steward's Steady Presence): 1 Mind Stress comes off the ally's
    pool onto the helper's own Mind pool, which may Break the helper (§11 Support Actions).
    Its cost and the ally's range are checked by ``spend``."""
    check_pools(helper, "helper")
    check_pools(ally, "ally")
    if ally.stress("Mind") == 0:
        raise RulesError("ally must have Mind Stress to absorb, got an empty Mind pool")
    i = POOLS.index("Mind")
    eased = replace(ally, marked=ally.marked[:i] + (ally.marked[i] - 1,) + ally.marked[i + 1:])
    first = step(f"The ally's Mind pool: {ally.stress('Mind')} − 1 = {eased.stress('Mind')} of "
                 f"{ally.size('Mind')}", DATA.rule(SUPPORT), ally_mind=eased.stress("Mind"))
    taken = mark(helper, "Mind", 1, "Steady the Spirit: you absorb 1 Mind Stress onto your own "
                  "Mind pool", SUPPORT)
    return StressMoved(value=1, outcome=taken.outcome, trace=(first,) + taken.trace,
                       helper=taken.pools, ally=eased, breaks=taken.breaks)


def domain_pool(domain: str) -> str:
    """The pool that pays for a roll of *domain* (ruling ``tsl:reroll_pool``)."""
    domains = tuple(r["domain"] for r in DATA.table("combat", "domain_pools"))
    _choice("domain", domain, domains)
    return DATA.table("combat", "domain_pools").find("domain", domain)["pool"]


def grant_reroll(helper: StressPools, band: str, domain: str) -> StressTaken:
    """Grant Reroll, used: the ally's failed roll (*band* Failure or Catastrophic, in *domain*)
    may be rolled again, and the helper, not the ally, pays its 1 Stress from the pool that
    goes with the roll (§11 Support Actions; ruling ``tsl:reroll_pool``). The new roll is made
    with the same inputs and new dice."""
    check_pools(helper, "helper")
    check_band(band)
    if band in HIT_BANDS:
        raise RulesError(f"band must be a failed roll (failure or catastrophic) to reroll, "
                         f"got {band}")
    pool = domain_pool(domain)
    first = step(f"The ally's {domain} roll failed ({band_name(band)}): they may roll it again",
                 DATA.rule(SUPPORT), band=band)
    taken = mark(helper, pool, REROLL_STRESS, f"The reroll's {REROLL_STRESS} Stress is paid "
                  f"by you, from your {pool} pool (the pool of a {domain} roll)", SUPPORT)
    return replace(taken, trace=(first,) + taken.trace)


def spirit_abilities() -> tuple[str, ...]:
    """The Spirit abilities the combat chapter names, with a cost."""
    return tuple(r["ability"] for r in DATA.table("combat", "spirit_abilities"))


def _ability_row(ability: str) -> Row | None:
    for row in DATA.table("combat", "spirit_abilities"):
        if row["ability"] == ability:
            return row
    return None


def spirit_ability(pools: StressPools, ability: str = "Sense the Local Reality", *,
                   cost: int | None = None) -> StressTaken:
    """Use a Spirit ability: no roll; its cost is marked on the user's Spirit pool (Sense the
    Local Reality costs 2), which may Break them (§11 A Worked Example). An ability the chapter
    does not name needs its *cost* from the chapter that describes it."""
    check_pools(pools)
    require_text("ability", ability, max_length=MAX_ABILITY_NAME)
    if not ability.strip():
        raise RulesError("ability must name a Spirit ability, got an empty name")
    if cost is not None:
        require_int("cost", cost, minimum=1, maximum=MAX_STRESS)
    row = _ability_row(ability)
    if row is not None:
        if cost is not None and cost != row["cost"]:
            raise RulesError(f"cost of {ability} must be {row['cost']} (or left out), "
                             f"got {cost}")
        cost = row["cost"]
    elif cost is None:
        raise RulesError(f"cost is needed for {shown(ability)}: the combat chapter gives the "
                         f"cost of {', '.join(spirit_abilities())} only")
    first = step(f"{ability}: a Spirit ability, no roll; the user spends the points",
                 DATA.rule("A Worked Example"), cost=cost)
    taken = mark(pools, "Spirit", cost, f"Mark {cost} Spirit Stress", "A Worked Example")
    return replace(taken, trace=(first,) + taken.trace)


@dataclass(frozen=True, kw_only=True)
class Support(Resolution):
    """A support action given from a fresh turn: ``outcome`` is the option, ``value`` the
    Stress the helper marks; ``uses`` the parts of the turn it spends, ``helper`` and ``ally``
    the pools after it (``ally`` None when the action moves none of the ally's Stress), and
    ``pool`` the helper's pool that takes the Stress (None when none is marked)."""

    option: str
    uses: tuple[str, ...]
    pool: str | None
    helper: StressPools
    ally: StressPools | None
    breaks: bool


def support_options() -> tuple[str, ...]:
    """The support actions and the perks that stand in for one, as ``support`` takes them."""
    return support_action_names() + perk_names()


#: What each support action moves beyond its cost, by the inputs ``support`` needs for it
#: (§11 Support Actions): Grant Reroll is paid for an ally's failed roll of one domain, and
#: Steady the Spirit takes Stress off the ally's Mind pool.
_NEEDS = {"Grant Reroll": ("band", "domain"), "Steady the Spirit": ("ally",)}


def _same_as(option: str) -> str:
    """The support action *option* is, a perk read as the action it stands in for."""
    return (DATA.table("combat", "perks").find("perk", option)["same_as"]
            if option in perk_names() else option)


def support_needs(option: str) -> tuple[str, ...]:
    """The inputs of ``support`` that *option* reads beyond the helper and the ally's zone
    (§11 Support Actions): ``("band", "domain")`` for Grant Reroll (the ally's failed roll and
    its domain), ``("ally",)`` for Steady the Spirit and a perk that does the same (the
    ally's pools, whose Mind Stress moves), nothing for the rest.

    >>> support_needs("Grant Reroll"), support_needs("Steady Presence"), support_needs("Draw Aggro")
    (('band', 'domain'), ('ally',), ())
    """
    _choice("option", option, support_options())
    return _NEEDS.get(_same_as(option), ())


def support(option: str, helper: StressPools, *, ally_zone: str | None = None,
            ally: StressPools | None = None, band: str | None = None,
            domain: str | None = None) -> Support:
    """A support action (or a perk standing in for one) and the Stress it moves (§11 Support
    Actions): what it spends and whether the ally is in reach (see ``spend``), then Ground a
    Path-walker's 1 Spirit Stress on the *helper*'s pool, Grant Reroll's 1 Stress paid by the
    helper when the ally's failed roll (*band* Failure or Catastrophic) of *domain* is rolled
    again (see ``grant_reroll``), or Steady the Spirit's 1 Mind Stress moved from the
    *ally*'s pool onto the helper's (see ``steady_the_spirit``)."""
    _choice("option", option, support_options())
    check_pools(helper, "helper")
    spent = spend(TurnState(), option, ally_zone=ally_zone)
    same, needs = _same_as(option), support_needs(option)
    for name, given, wanted in (("band", band, "Grant Reroll"),
                                ("domain", domain, "Grant Reroll"),
                                ("ally", ally, "Steady the Spirit")):
        if given is not None and name not in needs:
            raise RulesError(f"{name} must be None for {option}: only {wanted} takes it, "
                             f"got {shown(given)}")
    moved_ally = None
    if same == "Grant Reroll":
        if band is None or domain is None:
            raise RulesError(f"{'band' if band is None else 'domain'} is needed for Grant "
                             "Reroll: the ally's failed roll and its domain, got None")
        taken: StressTaken | StressMoved = grant_reroll(helper, band, domain)
    elif same == "Steady the Spirit":
        if ally is None:
            raise RulesError(f"ally is needed for {option}: the ally's pools, got None")
        taken = steady_the_spirit(helper, ally)
        moved_ally = taken.ally
    elif spent.value:
        marked = mark(helper, spent.stress_pool, spent.value, "", SUPPORT)
        taken = replace(marked, trace=marked.trace[1:])  # spend's trace says what it costs
    else:
        return Support(value=0, outcome=option, trace=spent.trace, option=option,
                       uses=spent.uses, pool=None, helper=helper, ally=None, breaks=False)
    if isinstance(taken, StressMoved):
        after, pool = taken.helper, "Mind"
    else:
        after, pool = taken.pools, taken.pool
    return Support(value=taken.value, outcome=option, trace=spent.trace + taken.trace,
                   option=option, uses=spent.uses, pool=pool, helper=after, ally=moved_ally,
                   breaks=taken.breaks)
