"""TSL (primer §11 Combat): 5d6 keep-N rolls, outcome bands, Stress, zones, weapon tags,
armour, ammunition, support actions and the GM's turn order.

>>> from rulescore.systems import tsl
>>> tsl.static_roll([6, 4, 3, 3, 1], "Proficient", 11).band
'success'
>>> tsl.stress("crit"), tsl.armour("success"), tsl.impact_tag("mixed")
(4, 'mixed', 'success')
"""

from .combat import (ORDERS, OUT_OF_ZONE, RARITIES, SNARES, WEAPON_ZONES, ZONES, Attack,
                     AttackOdds, AmmoUse, ArmourResult, FirstStrike, Move, Repair, Snare, Weapon,
                     WeaponProfile, armour, armour_against, attack, attack_odds, attack_types,
                     band_name, defence_domain, defence_domains, fights_at, impact_tag,
                     make_weapon, move, rarity_origin, reach_first_strike, repair,
                     REPAIR_TARGET, RepairPlan, repair_dice, repair_needs_roll, repair_odds,
                     repair_plan, snare,
                     spend_use, starting_uses, stress, stress_pool, tag_family, tag_names,
                     utility_edge, weapon_breaks, weapon_profile, zone_shift, zone_step)
from .pools import (FIGHTER_KINDS, POOLS, StressPools, StressTaken, new_pools, pool_size,
                    take_stress)
from .rolls import (BANDS, CRIT_MARGIN, HIT_BANDS, TIER_LIMITS, TIERS, EffectiveTier,
                    OpposedRoll, RollTotal, StaticRoll, band_for, band_odds, band_schemes,
                    band_table, check_dice, effective_tier, keep_count, keep_distribution,
                    opposed_band, opposed_margin_odds, opposed_odds, opposed_roll, roll_dice,
                    roll_pair, roll_total, static_roll)
from .marking import (StressMoved, Support, apply_attack, domain_pool, grant_reroll,
                      soak_the_hit, spirit_abilities, spirit_ability, steady_the_spirit, support,
                      support_needs, support_options)
from .fight import Fight, FightMove, Kit
from .roster import DOMAINS, ROSTER
from .turns import (OPTIONS, READY_LIMIT, Encounter, EncounterStep, Loadout, ReadyChange,
                    Spend, TurnState, encounter_from_dict, encounter_to_dict, make_loadout,
                    new_encounter, next_turn, perk_names, ready_item, set_order, spend,
                    start_turn, support_action_names, take, turn_options, turn_order, uses_of)

__all__ = [
    # rolls and bands
    "BANDS", "HIT_BANDS", "TIERS", "TIER_LIMITS", "CRIT_MARGIN", "EffectiveTier", "RollTotal",
    "StaticRoll", "OpposedRoll", "band_for", "band_odds", "band_schemes", "band_table",
    "check_dice", "effective_tier", "keep_count", "keep_distribution", "opposed_band",
    "opposed_margin_odds", "opposed_odds", "opposed_roll", "roll_dice", "roll_pair", "roll_total",
    "static_roll",
    # combat
    "ZONES", "WEAPON_ZONES", "RARITIES", "ORDERS", "OUT_OF_ZONE", "Attack", "AttackOdds",
    "AmmoUse", "ArmourResult", "Move", "Repair", "Weapon", "WeaponProfile", "armour",
    "armour_against", "attack", "attack_odds", "attack_types", "band_name", "defence_domain",
    "defence_domains", "fights_at", "impact_tag", "make_weapon", "move", "rarity_origin",
    "repair", "REPAIR_TARGET", "RepairPlan", "repair_dice", "repair_needs_roll", "repair_odds",
    "repair_plan", "spend_use", "starting_uses", "stress", "stress_pool",
    "tag_family", "tag_names", "weapon_breaks", "weapon_profile", "zone_shift", "zone_step",
    # what Positioning and Utility tags do
    "SNARES", "FirstStrike", "Snare", "reach_first_strike", "snare", "utility_edge",
    # Stress pools and Breaking
    "POOLS", "FIGHTER_KINDS", "StressPools", "StressTaken", "StressMoved", "new_pools",
    "pool_size", "take_stress", "apply_attack", "soak_the_hit", "steady_the_spirit",
    "domain_pool", "grant_reroll", "spirit_abilities", "spirit_ability", "Support", "support",
    "support_needs", "support_options",
    # turns
    "OPTIONS", "READY_LIMIT", "Encounter", "EncounterStep", "Loadout", "ReadyChange", "Spend",
    "TurnState", "encounter_from_dict", "encounter_to_dict", "make_loadout", "new_encounter",
    "next_turn", "perk_names", "ready_item", "set_order", "spend", "start_turn",
    "support_action_names", "take", "turn_options", "turn_order", "uses_of",
    # the roster and a whole fight
    "ROSTER", "DOMAINS", "Fight", "FightMove", "Kit",
]
