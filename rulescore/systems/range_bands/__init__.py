"""The range-band skirmish system: bands, movement, cover, stealth, shooting and quick loading.

Difficulties are counted in dice ("4D"). How such a check is rolled is our named assumption
``nd_check`` (switch ``nd_rule``): see :mod:`.checks` and ``data/assumptions.toml``.
"""

from .bands import (BAND_IDS, DIRECTIONS, Band, MoveResult, band, band_for_distance, bands,
                    cross_impassable, dash, dash_difficulty, impassable_difficulty, melee_reach,
                    move, terrain_odds, Terrain, terrains)
from .checks import (ND_RULES, OUTCOMES, CheckResult, Odds, OpposedResult, RolledDice, check,
                     check_odds, difficulty_dice_count, fixed_target, margin_counts, opposed,
                     opposed_odds, roll_groups)
from .cover import (MOVEMENT, CoverResult, StealthResult, can_target, cover_dice,
                    cover_modifier, line_of_sight, stealth, stealth_dice_needed, stealth_odds)
from .shooting import (COMBAT_BANDS, MissEffect, QuickLoadResult, ShotDifficulty, ShotResult,
                       extreme_engagement, miss_effect, modifier, quick_load, quick_load_odds,
                       quick_load_skill, shot, shot_difficulty, shot_odds, ShotPlan,
                       plan_shot)
from .roster import ROSTER
from .fight import Fall, Fight, Hit, Standing, fall_damage, fall_damage_odds

__all__ = [
    "BAND_IDS", "DIRECTIONS", "Band", "MoveResult", "band", "band_for_distance", "bands",
    "cross_impassable", "dash", "dash_difficulty", "impassable_difficulty", "melee_reach",
    "move", "terrain_odds", "Terrain", "terrains",
    "ND_RULES", "OUTCOMES", "CheckResult", "Odds", "OpposedResult", "RolledDice", "check",
    "check_odds", "difficulty_dice_count", "fixed_target", "margin_counts", "opposed",
    "opposed_odds", "roll_groups",
    "MOVEMENT", "CoverResult", "StealthResult", "can_target", "cover_dice", "cover_modifier",
    "line_of_sight", "stealth", "stealth_dice_needed", "stealth_odds",
    "COMBAT_BANDS", "MissEffect", "QuickLoadResult", "ShotDifficulty", "ShotResult",
    "extreme_engagement", "miss_effect", "modifier", "quick_load", "quick_load_odds",
    "quick_load_skill", "shot", "shot_difficulty", "shot_odds", "ShotPlan", "plan_shot",
    # the roster and a fight run on one page
    "ROSTER", "Fight", "Standing", "Hit", "Fall", "fall_damage",
    "fall_damage_odds",
]
