"""The Veil & Lead, Book II ch. 5 "The Count": the rules engine.

A 0–19 tick timeline (the Cylinder), pools of d8 that add their two highest dice against a
Target Number, tempo and exposure, range and cover, damage = WR + Steps − AR, the health track,
grievous wounds, bleeding out, conditions, holds and duels, hordes and healing.

>>> from rulescore.systems import veil_and_lead as vl
>>> vl.check([2, 3, 5, 6, 7, 8], 15, roll_bonus=5).margin
5
>>> vl.advance(18, 6)
4
"""

from .records import Action, Armour, Condition, GrievousWound, RangeModifier, Weapon
from .combat import (ATTACK_POOL, ATTACK_TN, HORDE_CASUALTIES, HORDE_POOL, INITIATIVE_POOL,
                     AttackPlan, AttackResolution, HordeResolution, InitiativePlan,
                     InitiativeResolution, attack,
                     attack_tn, coup_de_grace, escape, grapple, horde_casualties, horde_pool,
                     horde_tempo, initiative, attack_pool, plan_attack, plan_initiative, pool_with_conditions, resist,
                     stray_shot, stray_shot_among, stray_shot_chances, StrayShotResolution, two_weapon_tempo,
                     wrong_target)
from .core import (DEFENSE, SPEED, VITALITY, CheckResolution, MoveResolution, advance,
                   aim_bonus, check, defense, dice_rolled, effective_speed, exposes,
                   hit_probability, margin_distribution, move_distance, move_token,
                   pool_after_penalties, range_band, red_lines, roll_pools, speed,
                   starting_tick,
                   sum_distribution, tempo, tempo_text, uses_weapon, action_rows, two_highest,
                   vitality)
from .records import (BANDS, action, actions, armour, armours, condition, conditions, cover,
                      cover_names, range_modifier, weapon, weapons)
from .encounter import Encounter, Fighter
from .fight import Fight, Health, Move
from .roster import ROSTER
from .injury import (DAMAGE, DEATH_AT, STABILIZATION_TN, STEPS, BleedResolution,
                     DamageResolution, GrievousResolution, StabilizeResolution, TreatResolution,
                     bleed_out_turn,
                     damage, death_threshold, first_aid, grievous_wound, healer_pool,
                     health_state,
                     knit_flesh, long_rest, long_rest_recovery, stabilization_tn, stabilize, steps,
                     treat_grievous, turns_to_death, wounded_penalty)
from .odds import (AttackOdds, DuelOdds, attack_odds, duel_odds, first_aid_probability,
                   grapple_probability, resist_probability, rescue_probability,
                   stabilization_probability, starting_tick_distribution,
                   treat_grievous_probability)
from .reactions import (ReactionResolution, engaged_exit, engaged_ways, free_reaction,
                        laudanum, medical_attention, reaction_names, stray_ally)
from .gm import aftermath_steps, dragging_signs, narrative_cut, stall_remedies
from .situations import (MountedResolution, combat_pacing, mount_fall, mounted_modifiers,
                         mounted_speed, ride_check, ride_probability, short_rest)
from .timing import (Combatant, DuelResolution, NextTurn, TieResolution, Token, duel,
                     held_action, next_turn, stunned_turn, tension_dice, tie_order, wait)

FORMULAS = (DEFENSE, VITALITY, SPEED, INITIATIVE_POOL, ATTACK_POOL, ATTACK_TN, STEPS, DAMAGE,
            DEATH_AT, STABILIZATION_TN, HORDE_POOL, HORDE_CASUALTIES)
"""The seed's formulas, in the order the chapter gives them (for the book to print)."""

__all__ = [
    # core (§I–§VI)
    "check", "CheckResolution", "roll_pools", "two_highest", "hit_probability", "sum_distribution",
    "margin_distribution", "dice_rolled", "starting_tick", "advance", "move_token",
    "MoveResolution", "red_lines", "aim_bonus", "tempo", "tempo_text", "uses_weapon", "action_rows", "exposes",
    "defense", "vitality",
    "speed", "move_distance", "range_band", "pool_after_penalties", "DEFENSE", "VITALITY",
    "SPEED",
    # combat (§II, §VI, §VII, §XIII)
    "initiative", "InitiativeResolution", "plan_initiative", "InitiativePlan", "attack", "AttackResolution", "attack_tn",
    "plan_attack", "attack_pool", "AttackPlan", "escape", "stray_shot", "stray_shot_among", "stray_shot_chances", "StrayShotResolution", "effective_speed",
    "wrong_target", "grapple", "resist", "coup_de_grace", "two_weapon_tempo", "horde_pool",
    "horde_casualties", "HordeResolution", "horde_tempo", "pool_with_conditions",
    # injury (§VIII–§X, §XIV)
    "damage", "DamageResolution", "steps", "health_state", "wounded_penalty",
    "death_threshold", "grievous_wound", "GrievousResolution", "bleed_out_turn",
    "BleedResolution", "turns_to_death", "stabilization_tn", "stabilize",
    "StabilizeResolution", "healer_pool", "first_aid", "long_rest", "long_rest_recovery", "treat_grievous", "TreatResolution", "knit_flesh",
    "DAMAGE", "STEPS", "DEATH_AT", "STABILIZATION_TN", "FORMULAS", "ATTACK_POOL",
    "ATTACK_TN", "HORDE_POOL", "HORDE_CASUALTIES", "INITIATIVE_POOL",
    # timing (§II ties, §XI Stunned, §XII, §XV)
    "Combatant", "tie_order", "TieResolution", "wait", "stunned_turn", "held_action", "duel",
    "DuelResolution", "tension_dice", "Token", "next_turn", "NextTurn", "Encounter", "Fighter",
    # a whole fight: the roster and each token's health (§VI, §VIII–§XI, §XIII)
    "ROSTER", "Fight", "Health", "Move",
    # situations (§XIII mounted, §XIV rests, §XV pacing)
    "mounted_modifiers", "MountedResolution", "short_rest", "combat_pacing", "ride_check",
    "mount_fall", "ride_probability",
    # reactions and after-care (§III, §VII, §XI, §XIV)
    "free_reaction", "ReactionResolution", "reaction_names", "engaged_exit", "engaged_ways",
    "stray_ally", "laudanum", "medical_attention", "mounted_speed",
    # the GM's pacing tools (§XV)
    "dragging_signs", "stall_remedies", "aftermath_steps", "narrative_cut",
    # odds
    "starting_tick_distribution", "attack_odds", "AttackOdds", "stabilization_probability",
    "duel_odds", "DuelOdds", "rescue_probability", "first_aid_probability",
    "resist_probability", "grapple_probability", "treat_grievous_probability",
    # data
    "weapon", "weapons", "armour", "armours", "action", "actions", "BANDS", "condition", "conditions", "cover",
    "cover_names", "range_modifier", "Weapon", "Armour", "Action", "Condition",
    "RangeModifier", "GrievousWound",
]
