"""The percentile (d100) combat system of seed 003: missile, melee and injury sequences.

Tests roll d100 against an Effective Mastery Level (EML): at or under succeeds, multiples of 5
are critical. Every table lives in ``data/*.toml``; every resolving function returns a
Resolution whose trace cites the seed section it applies.
"""

from .checks import (TestResolution, d100, effective_eml, level_rank, mishap_type, shift_level,
                     skill_test, success_level, success_level_probabilities)
from .injury import (AmputationResolution, CompoundResolution, ImpactResolution,
                     InjuryResolution, LocationResolution, ShockRerollResolution,
                     ShockResolution, amputation_test, area_location_shock, bleeder,
                     combine_shock_states, compound_injury, face_feature, impact,
                     impact_ta_bonus, injury, injury_level, injury_level_distribution,
                     injury_mishap, locate_strike, impaired_test, injury_impairment, impaled,
                     EvasionResolution, evade_area_attack, shock_state_distribution,
                     grim_wound_shock, location_distribution, location_names, location_row,
                     location_shock, shock, shock_reroll, shock_state, strike_location,
                     zone_count, zone_name, grievous_zone_test, helpless_location)
from .healing import (COMA_HR, BleedingResolution, BloodLossResolution, BloodStoppageResolution,
                      CourseResolution, bleeding_odds, bleeding_period, course_odds,
                      HealingResolution, RegenerationResolution, blood_loss_advance,
                      blood_loss_state, blood_regeneration, blood_stoppage, coma_course,
                      coma_healing_rate, coma_weariness, extended_shock_course, healing_roll,
                      infection_course, infection_healing_rate, infection_weakness,
                      permanent_impairment, TreatmentResolution, combined_treatment_level,
                      required_treatment, treatment_roll, untreated, current_impairment,
                      concentration_broken, aggravation_check, aggravation_period,
                      injury_description, treatment_odds, arcane_bonus,
                      extended_shock_healer_bonus, extended_shock_movement,
                      combine_treatment_rolls, healing_period, infection_amputation)
from .record import (SIDES, InjuryRecord, RecordedInjury, Recovery, has_side, next_roll,
                     next_roll_odds, recover)
from .roster import ROSTER
from .fight import (Combatant, Fight, FightStep, Strike, StrikeOdds, apply_strike, bleed,
                    fight_for, heal_day, melee_attack, melee_odds, missile_attack,
                    missile_odds, defence_untested, attack_untested, next_turn, remove_injury,
                    shock_check, treat)
from .sequence import (InjurySequence, StrikeInputs, injury_sequence, record_injury,
                       strike_from_melee, strike_from_missile)
from .melee import (AdvantagesSpent, MeleeDeclaration, MeleeResolution, Weapon,
                    declare_melee, heft_penalty, melee_eml, melee_exchange,
                    melee_outcome_distribution, reach_modifier, setup_level, spend_advantages,
                    after_injury, MAX_SETUPS)
from .missile import (LAUNCHERS, MissileAttack, MissileEML, MissileRange, MissileShot,
                      StrayStrike, missile_actions, missile_shot,
                      missile_outcome_distribution, missile_skill,
                      direct_missile_attack, missile_eml, missile_range, stray_strike,
                      volley_missile_attack)

__all__ = [
    # tests
    "success_level", "success_level_probabilities", "d100", "effective_eml", "skill_test",
    "mishap_type", "shift_level", "level_rank", "TestResolution",
    # missile sequence
    "missile_actions", "missile_range", "missile_eml", "direct_missile_attack", "volley_missile_attack",
    "stray_strike", "missile_skill", "missile_shot", "MissileShot", "LAUNCHERS", "missile_outcome_distribution", "MissileRange", "MissileEML", "MissileAttack", "StrayStrike",
    # melee sequence
    "melee_exchange", "melee_outcome_distribution", "heft_penalty", "reach_modifier",
    "melee_eml", "MeleeResolution", "declare_melee", "MeleeDeclaration", "Weapon",
    "spend_advantages", "AdvantagesSpent", "setup_level", "MAX_SETUPS", "evade_area_attack",
    "EvasionResolution",
    "after_injury",
    # injury sequence
    "strike_location", "locate_strike", "location_distribution", "location_row",
    "face_feature", "zone_count", "zone_name", "impact", "impact_ta_bonus", "injury_level", "injury",
    "injury_level_distribution", "bleeder", "compound_injury", "amputation_test",
    "shock_state", "shock", "shock_state_distribution", "shock_reroll", "grim_wound_shock", "combine_shock_states", "location_shock",
    "area_location_shock", "injury_mishap", "impaired_test", "injury_impairment", "impaled",
    "grievous_zone_test", "helpless_location",
    "LocationResolution", "ImpactResolution", "InjuryResolution", "CompoundResolution",
    "AmputationResolution", "ShockResolution", "ShockRerollResolution",
    # healing sequence
    "blood_stoppage", "blood_loss_advance", "bleeding_period", "BleedingResolution",
    "bleeding_odds", "course_odds",
    "blood_loss_state", "extended_shock_course",
    "coma_healing_rate", "coma_course", "coma_weariness", "healing_roll", "blood_regeneration",
    "infection_healing_rate", "infection_course", "infection_weakness", "permanent_impairment",
    "COMA_HR", "BloodStoppageResolution", "BloodLossResolution", "CourseResolution",
    "HealingResolution", "RegenerationResolution", "treatment_roll", "untreated",
    "required_treatment", "combined_treatment_level", "TreatmentResolution",
    "current_impairment", "concentration_broken", "aggravation_check", "aggravation_period",
    "injury_description", "arcane_bonus", "extended_shock_healer_bonus",
    "extended_shock_movement", "combine_treatment_rolls", "healing_period",
    "infection_amputation",
    # the injury record and its recovery
    "InjuryRecord", "RecordedInjury", "Recovery", "recover", "next_roll", "next_roll_odds", "treatment_odds", "location_names",
    "SIDES", "has_side",
    "injury_sequence", "InjurySequence",
    # the roster and a fight run on one page
    "ROSTER", "Fight", "Combatant", "Strike", "FightStep", "fight_for", "next_turn",
    "missile_attack", "melee_attack", "apply_strike", "shock_check", "bleed", "heal_day",
    "missile_odds", "melee_odds", "defence_untested", "attack_untested",
    "StrikeOdds", "treat", "remove_injury",
    # one strike handed on: shot or blow -> injury walk -> injury record
    "StrikeInputs", "strike_from_missile", "strike_from_melee", "record_injury",
]
