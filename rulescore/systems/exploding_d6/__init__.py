"""The exploding-d6 success-pool system: initiative, actions and reactions, the hit roll with
criticals and megacriticals, recoil, aiming, cover, shields, protection, wounds, dodge, parry,
special attacks and throwing.

Every die is a compounding d6: a 6 is rolled again and added, so one die's total is its whole
chain (6 + 6 + 5 = 17). Functions take those totals; rolling is separate (:func:`roll_dice`).
"""

from .inputs import MAX_DICE, attribute
from .defence import (PREVENT, REACTIONS, CoverRoll, Dodge, Parry, Protection, ReactionResult,
                      ShieldUse, Wounds, cover_levels, cover_roll, dodge, dodge_value, parry,
                      protection, reaction, shield_cover, shield_use, wounds)
from .hits import (BASE_CRIT_AT, BASE_MIN_ROLL, MODES, SPECIALS, AttackSetup, HitRoll,
                   UnarmedAttack, accurate_min_roll, aim_bonus, announce, attack_mode,
                   attack_setup, chain_total, chains_from_faces, classify, distance_penalty,
                   hit_roll, massive_dice, megacritical_step, recoil_malus, round_recoil,
                   unarmed_attack)
from .odds import (HitOdds, WoundOdds, attack_odds, die_outcomes, hit_distribution, hit_odds,
                   initiative_mean, p_total_at_least, reaction_odds, wound_distribution)
from .roster import ROSTER
from .pipeline import (COVER_STACKING, CONTESTS, FLOW_REACTIONS, AttackFlow, AttackResult,
                       Reacted, RolledDice, attack, resolve_attack, roll_attack, roll_dice)
from .specials import (Contest, CoupDeGrace, Throw, ThrowDice, TwoWeapons, coup_de_grace,
                       coup_de_grace_roll, deviation_offset, disarm, ko_attack, roll_throw, supported_min_roll,
                       throw, two_weapons)
from .turns import (ROUND_PHASES, ActionPool, DiceForActions, Initiative, InitiativeOrder,
                    Reactions, ReactorVerdict, Spend, bonus_die_action, can_react,
                    destiny_die_action,
                    initiative, initiative_order, initiative_table, max_actions, movement,
                    reactions, refresh, round_phases, spend, start_combat)

__all__ = [
    "MAX_DICE", "attribute",
    "PREVENT", "REACTIONS", "CoverRoll", "Dodge", "Parry", "Protection", "ReactionResult",
    "ShieldUse", "Wounds", "cover_levels", "cover_roll", "dodge", "dodge_value", "parry",
    "protection", "reaction", "shield_cover", "shield_use", "wounds",
    "BASE_CRIT_AT", "BASE_MIN_ROLL", "MODES", "SPECIALS", "AttackSetup", "HitRoll",
    "UnarmedAttack", "accurate_min_roll", "aim_bonus", "announce", "attack_mode",
    "attack_setup", "chain_total", "chains_from_faces", "classify", "distance_penalty",
    "hit_roll", "massive_dice", "megacritical_step", "recoil_malus", "round_recoil",
    "unarmed_attack",
    "HitOdds", "WoundOdds", "attack_odds", "die_outcomes", "hit_distribution", "hit_odds",
    "initiative_mean",
    "p_total_at_least", "reaction_odds", "wound_distribution",
    "COVER_STACKING", "CONTESTS", "FLOW_REACTIONS", "AttackFlow", "AttackResult", "Reacted",
    "RolledDice", "attack", "resolve_attack", "roll_attack", "roll_dice",
    "Contest", "CoupDeGrace", "Throw", "ThrowDice", "TwoWeapons", "coup_de_grace",
    "coup_de_grace_roll", "deviation_offset", "disarm", "ko_attack", "roll_throw", "supported_min_roll", "throw",
    "two_weapons",
    "ROSTER",
    "ROUND_PHASES", "ActionPool", "DiceForActions", "Initiative", "InitiativeOrder",
    "Reactions", "ReactorVerdict", "Spend", "bonus_die_action", "can_react",
    "destiny_die_action", "initiative",
    "initiative_order", "initiative_table", "max_actions", "movement", "reactions", "refresh",
    "round_phases", "spend", "start_combat",
]
