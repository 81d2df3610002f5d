"""One attack from the hit roll to the wounds, and rolling its dice from a DiceSource."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from rulescore.dice import DiceSource
from rulescore.dice.source import count_to_draw, dice_to_draw_from
from rulescore.errors import RulesError, shown
from rulescore.trace import Resolution, step
from rulescore.errors import require_bool as flag, require_choice as one_of

from ._system import DATA
from .inputs import (MAX_DICE, Chains, count, d6_faces, die_totals, drawn_chains, finished,
                     per_hit, plural, threshold)
from .defence import (PREVENT, CoverRoll, Protection, Wounds, _cover, cover_roll, dodge, parry,
                      protection, shield_use, wounds)
from .hits import (BASE_CRIT_AT, BASE_MIN_ROLL, HitRoll, attack_mode, hit_roll, scored_hits)
from .specials import Contest, disarm, ko_attack


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


FLOW_REACTIONS = ("none", "dodge", "parry", "shield parry")
COVER_STACKING = ("best", "each")
CONTESTS = ("none", "ko", "disarm")


@dataclass(frozen=True, kw_only=True)
class Reacted(Resolution):
    """The defender's reaction inside an attack: ``kind`` (dodge, parry, shield parry),
    ``value`` its successes; the hits and criticals left, ``chains`` its dice as rolled (a
    shield's plain d6 each a chain of one) and the threshold it rolled against."""

    kind: str
    hits: int
    criticals: int
    critical_extras: tuple[int, ...]
    min_roll: int
    chains: Chains = ()


@dataclass(frozen=True, kw_only=True)
class AttackFlow(Resolution):
    """One attack from the hit roll to the wounds, the defender's reaction a step of it.

    ``value`` is the wounds dealt. ``hit`` the hit roll; ``reaction`` the defender's reaction
    (None for none); ``block`` the roll of a raised Shield Block rolled apart from the
    terrain cover (None otherwise); ``cover`` the terrain cover roll (None without one, or when the shield's
    roll counted it); ``protection`` the pool spent and left; ``wounds`` (None for a K.O. or a
    disarming attack) and ``contest`` (the K.O. or disarm contest, else None). ``hits``,
    ``criticals``, ``megacriticals`` and ``extra_wounds`` are what landed after everything;
    ``reaction_actions`` the actions the reaction cost (0 or 1); ``headline`` one line for a
    reader."""

    hit: HitRoll
    reaction: Reacted | None
    cover: CoverRoll | None
    protection: Protection
    wounds: Wounds | None
    contest: Contest | None
    hits: int
    criticals: int
    megacriticals: int
    extra_wounds: int
    reaction_actions: int
    headline: str
    block: CoverRoll | None = None

    @property
    def spent(self) -> int:
        """Protection units spent on this attack."""
        return self.protection.spent

    @property
    def pool_left(self) -> int:
        """Protection units left in the pool after it."""
        return self.protection.pool_left


def _short(what: str, many: int, noun: str, after: str | None) -> str:
    """The message when typed dice run out at a stage: what comes next and how many."""
    dice = plural(many, "die", "dice") if noun == "die" else f"{many} {noun}"
    if after is None:
        return f"more dice needed: {what} needs {dice} more"
    return f"more dice needed: {after}, so {what} needs {dice} next, typed after these"


def _faces_or_draw(name: str, given: object, dice: DiceSource | None, n: int, label: str,
                   after: str, what: str) -> tuple[int, ...]:
    """Plain d6 for a cover or shield roll: the *given* faces, or *n* drawn in order."""
    if dice is None:
        return d6_faces(name, given, expected=n)
    if given not in (None, ()):
        raise RulesError(f"{name} and dice are both given: with dice every die is drawn in "
                         f"order, got {name}={shown(given)}")
    return tuple(dice.d(6, f"{label} {i}", missing=_short(what, n, "d6", after))
                 for i in range(1, n + 1))


def _chains_or_draw(name: str, given: object, dice: DiceSource | None, after: str | None,
                    what: str) -> tuple[tuple[int, ...], Chains]:
    """Exploding dice for a dodge or a parry: their totals, or as many drawn as *given*."""
    if dice is None:
        return die_totals(name, given), ()
    n = count_to_draw(name, given, dice, maximum=MAX_DICE)
    die = what.removeprefix("the ") + " die"
    chains = tuple(dice.chain(6, f"{die} {i}", shortage=lambda c, i=i: (
        _short(what, n - i + 1, "die", after) if not c else
        f"more dice needed: {die} {i} showed 6, so it explodes — type the next roll of its "
        "chain")) for i in range(1, n + 1))
    return tuple(sum(c) for c in chains), chains


def _react(kind: str, hit: HitRoll, mode: str, given: object, min_roll: int, shield: str,
           cover: int | None, stacking: str, prevent: str,
           dice: DiceSource | None) -> Reacted:
    """The defender's reaction (§Reactions, §Dodge, §Parry melee attacks, §Shields)."""
    hits, crits, extras = hit.hits, hit.criticals, hit.critical_extras
    after = f"the hit roll scored {hit.announcement}"
    if kind == "shield parry":
        use = shield_use("parry", shield)
        value = use.cover if cover is None or stacking == "each" else min(use.cover, cover)
        faces = _faces_or_draw("reaction_dice", given, dice, hits + crits, "shield die",
                               after, "the shield parry")
        c = cover_roll(hits, crits, faces[crits:], faces[:crits], value,
                       critical_extras=extras, prevent=prevent)
        steps = list(use.trace)
        if value != use.cover:
            steps.append(step(f"Behind {cover}+ terrain cover: one roll at the better cover, "
                              f"{value}+ (covers do not add up)", DATA.rule("Cover"),
                              cover=value))
        return Reacted(value=c.prevented_hits + c.prevented_criticals, outcome=c.outcome,
                       trace=tuple(steps) + c.trace, kind=kind, hits=c.hits,
                       criticals=c.criticals, critical_extras=c.critical_extras,
                       min_roll=value, chains=tuple((f,) for f in faces))
    what = "the dodge" if kind == "dodge" else "the parry"
    totals, chains = _chains_or_draw("reaction_dice", given, dice, after, what)
    if kind == "dodge":
        d = dodge(totals, hits + crits, min_roll, mode=mode)
        return Reacted(value=d.value, outcome=d.outcome, trace=d.trace, kind=kind,
                       hits=0 if d.dodged else hits, criticals=0 if d.dodged else crits,
                       critical_extras=() if d.dodged else extras, min_roll=d.min_roll,
                       chains=chains)
    p = parry(totals, hits, crits, min_roll, mode=mode)
    return Reacted(value=p.value, outcome=p.outcome, trace=p.trace, kind=kind, hits=p.hits,
                   criticals=p.criticals, critical_extras=extras, min_roll=min_roll,
                   chains=chains)


def _contest(kind: str, landed: int, given: object, min_roll: int,
             dice: DiceSource | None) -> tuple[Contest, Chains]:
    """The K.O. resistance check or the disarm roll after the hits land (§K.O. Attack,
    §Disarming attack)."""
    what = "the resistance check" if kind == "ko" else "the disarm roll"
    if dice is not None and not landed:
        # Nothing landed: the target has nothing to resist, so no die is drawn.
        totals, chains = (), ()
    else:
        totals, chains = _chains_or_draw("contest_dice", given, dice,
                                         f"{plural(landed, 'hit')} landed", what)
    successes = sum(1 for t in totals if t >= min_roll)
    result = ko_attack(landed, successes) if kind == "ko" else disarm(landed, successes)
    return result, chains


def _headline(wounds: Wounds | None, contest: Contest | None, landed: int, mega: int,
              extra: int, reacted: Reacted | None) -> str:
    """One line for a reader: the wounds (a megacritical named with its extra wounds), or
    the contest's outcome, or how the attack was stopped."""
    if contest is not None:
        return {"knocked out": "Knocked out", "conscious": "Stays conscious",
                "disarmed": "Disarmed", "keeps weapon": "Keeps the weapon"}[contest.outcome] \
            + f" ({plural(landed, 'hit')} landed)"
    if reacted is not None and reacted.kind == "dodge" and reacted.outcome == "dodged":
        return "Dodged: no wounds"
    if wounds is None or not wounds.value:
        return "No wounds" + ("" if landed else ": every hit stopped")
    text = plural(wounds.value, "wound")
    if mega:
        text += (f", {'a megacritical' if mega == 1 else f'{mega} megacriticals'} among them "
                 f"(+{plural(extra, 'wound')})")
    return text



def _no_dice(value: object) -> bool:
    """True for an input that gives no dice: nothing, an empty list or the count 0.

    ``False`` and ``0.0`` equal 0 in Python, but neither is a number of dice, so they are
    refused like any other wrong type.
    """
    if value is None:
        return True
    if isinstance(value, (list, tuple)):
        return len(value) == 0
    return type(value) is int and value == 0


def attack(dice_totals: Sequence[int] | int, *, min_roll: int = BASE_MIN_ROLL,
           crit_at: int = BASE_CRIT_AT, burst: bool = False, mode: str = "melee",
           reaction: str = "none", reaction_dice: Sequence[int] | int | None = None,
           reaction_min_roll: int = BASE_MIN_ROLL, shield: str = "round shield",
           cover: int | None = None, cover_faces: Sequence[int] = (),
           stacking: str = "best", pool: int = 0, critical_pool: int = 0,
           piercing: int = 0, wounds_per_hit: int = 1, contest: str = "none",
           contest_dice: Sequence[int] | int | None = None,
           contest_min_roll: int = BASE_MIN_ROLL, prevent: str = "heaviest",
           shield_block: bool = False, dice: DiceSource | None = None) -> AttackFlow:
    """One attack as one flow (§Sequence of an attack, §Reactions): the hit roll; the
    defender's *reaction* (``"none"``, ``"dodge"`` with the Dodge value in dice, ``"parry"``
    with the parrying weapon's dice at its own minimum roll, or ``"shield parry"``, one d6 a
    hit at the shield's cover); the terrain *cover* roll on what is left; protection; and the
    wounds, or for a K.O. or disarming attack (*contest*) the target's roll against the hits
    that landed (§K.O. Attack, §Disarming attack; assumption ``contest_hits``), with no
    wounds.

    A shield parry behind terrain cover rolls once at the better of the two
    (*stacking* ``"best"``, assumption ``cover_stacking``) or once for each, the shield
    first (``"each"``). A raised Shield Block (*shield_block*, §Shields: the shield's cover
    against every attack, no action) behind terrain cover rolls the same two ways: once at
    the better value, or the shield's roll and then the cover's. Criticals are rolled for
    before normal hits in every cover roll.

    Without *dice*, every die is given: *dice_totals* (the hit dice's totals),
    *reaction_dice* (dodge or parry totals, or the shield's d6 criticals first),
    *cover_faces* (a Shield Block's d6 first when it rolls apart) and *contest_dice*. With *dice* (a DiceSource), *dice_totals*,
    *reaction_dice* and *contest_dice* are how many exploding dice to roll, and every die is
    drawn in the order the attack needs it: hit dice, reaction dice, cover dice (one a hit
    still standing), contest dice; typed dice that run out say what comes next."""
    dice = dice_to_draw_from(dice)
    flag("shield_block", shield_block)
    reaction = one_of("reaction", reaction, FLOW_REACTIONS)
    stacking = one_of("stacking", stacking, COVER_STACKING)
    contest = one_of("contest", contest, CONTESTS)
    one_of("prevent", prevent, PREVENT)
    mode_row = attack_mode(mode)
    if cover is not None:
        _cover(cover)
    threshold("reaction_min_roll", reaction_min_roll)
    threshold("contest_min_roll", contest_min_roll)
    per_hit("wounds_per_hit", wounds_per_hit)
    shield_use("parry", shield)   # checked whatever the reaction, like every other input
    if reaction == "none" and not _no_dice(reaction_dice):
        raise RulesError("reaction_dice must be empty when the defender does not react, "
                         f"got {shown(reaction_dice)}")
    if contest == "none" and not _no_dice(contest_dice):
        raise RulesError("contest_dice must be empty unless the attack is a K.O. or "
                         f"disarming attack, got {shown(contest_dice)}")
    if shield_block and reaction == "shield parry":
        raise RulesError("reaction: a raised Shield Block covers already; a Shield Parry "
                         "cannot be added to it")
    if reaction in ("dodge", "parry") and not mode_row[reaction]:
        raise RulesError(f"reaction '{reaction}' works only against a melee attack, got a "
                         f"{mode_row['label'].lower()}")
    if dice is None:
        hit = scored_hits(dice_totals, (), min_roll, crit_at, burst)
    else:
        hit = scored_hits(*_chains_or_draw("dice_totals", dice_totals, dice, None,
                                           "the hit roll"), min_roll, crit_at, burst)
    steps = list(hit.trace)
    hits, crits, extras = hit.hits, hit.criticals, hit.critical_extras
    reacted = None
    if reaction != "none" and not hits + crits:
        steps.append(step(f"No hit to answer: no {reaction} needed, no action spent",
                          DATA.rule("Reactions")))
    elif reaction != "none":
        reacted = _react(reaction, hit, mode, reaction_dice, reaction_min_roll, shield,
                         cover, stacking, prevent, dice)
        steps += reacted.trace
        hits, crits, extras = reacted.hits, reacted.criticals, reacted.critical_extras
    cov = block = None
    in_shield = reaction == "shield parry" and stacking == "best"
    if shield_block:
        use = shield_use("block", shield)
        steps += use.trace
        if cover is None or stacking == "best":
            cover = use.cover if cover is None else min(use.cover, cover)
            steps.append(step(f"The Shield Block's {use.cover}+ and the terrain: one roll at "
                              f"{cover}+ (covers do not add up)", DATA.rule("Cover"),
                              cover=cover))
        elif hits + crits:
            block, cover_faces = _block(hits, crits, extras, use.cover, cover_faces, dice,
                                        prevent)
            steps += block.trace
            hits, crits, extras = block.hits, block.criticals, block.critical_extras
    if cover is not None and not in_shield and hits + crits:
        faces = _faces_or_draw("cover_faces", cover_faces, dice, hits + crits, "cover die",
                               f"{plural(hits + crits, 'hit')} still stand",
                               "the terrain cover roll")
        cov = cover_roll(hits, crits, faces[crits:], faces[:crits], cover,
                         critical_extras=extras, prevent=prevent)
        steps += cov.trace
        hits, crits, extras = cov.hits, cov.criticals, cov.critical_extras
    elif not (isinstance(cover_faces, (list, tuple)) and not cover_faces):
        raise RulesError("cover_faces must be empty: "
                         + ("there is no cover" if cover is None else
                            "the shield's roll counted the cover" if in_shield else
                            "no hit is left for the cover to stop")
                         + f", got {shown(cover_faces)}")
    elif cover is not None and not in_shield:
        steps.append(step("No hit left for the cover to stop", DATA.rule("Cover")))
    prot = protection(hits, crits, pool, critical_pool, critical_extras=extras,
                      piercing=piercing, prevent=prevent)
    steps += prot.trace
    hits, crits, extras = prot.hits, prot.criticals, prot.critical_extras
    wound = con = None
    if contest == "none":
        wound = wounds(hits, crits, sum(extras), wounds_per_hit)
        steps += wound.trace
    else:
        con, chains = _contest(contest, hits + crits, contest_dice, contest_min_roll, dice)
        steps += con.trace
    finished(dice, "attack")
    mega = sum(1 for e in extras if e)
    value = wound.value if wound is not None else 0
    headline = _headline(wound, con, hits + crits, mega, sum(extras), reacted)
    outcome = (con.outcome if con is not None else "dodged" if reacted is not None
               and reacted.outcome == "dodged" else "wounded" if value else "no effect")
    return AttackFlow(value=value, outcome=outcome, trace=tuple(steps), hit=hit,
                      reaction=reacted, cover=cov, protection=prot, wounds=wound,
                      contest=con, hits=hits, criticals=crits, megacriticals=mega,
                      extra_wounds=sum(extras) if wound is not None else 0,
                      reaction_actions=0 if reacted is None else 1, headline=headline,
                      block=block)


def _block(hits: int, crits: int, extras: tuple[int, ...], value: int, cover_faces: object,
           dice: DiceSource | None, prevent: str) -> tuple[CoverRoll, object]:
    """A Shield Block's own roll before the terrain cover's (§Shields, §Cover; assumption
    ``cover_stacking``, a roll each): one d6 a hit standing, criticals first; the typed
    *cover_faces* left for the terrain roll."""
    n = hits + crits
    if dice is None:
        given = d6_faces("cover_faces", cover_faces)
        if len(given) < n:
            raise RulesError(f"cover_faces must hold one die a hit for the Shield Block "
                             f"({n}), then one a hit left for the terrain cover, got "
                             f"{len(given)}")
        faces, rest = given[:n], given[n:]
    else:
        faces = _faces_or_draw("cover_faces", cover_faces, dice, n, "shield die",
                               f"{plural(n, 'hit')} still stand", "the Shield Block's roll")
        rest = cover_faces
    return cover_roll(hits, crits, faces[crits:], faces[:crits], value,
                      critical_extras=extras, prevent=prevent), rest


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
