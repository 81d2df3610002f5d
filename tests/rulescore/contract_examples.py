"""Valid example calls for the engine contract (tests/rulescore/contract.py).

GUESSES fills a required parameter by its name (a value taken from the systems' own tests);
EXAMPLES gives a whole call where a name alone is not enough (objects built by the engine, or
arguments that depend on each other). A function whose guessed call does not return gets no
valid base: every call to it is then all-hostile.
"""

from __future__ import annotations

from typing import Callable

GUESSES: dict[str, object] = {
    "action": "Steady Shot", "actions": 1, "active_dice": [5, 1, 4], "active_pool": 3,
    "aim_actions": 1, "ar": 1, "aspect": "E", "athletics": 2, "attack": "physical",
    "attack_eml": 60, "attack_number": 2, "attack_roll": 30, "attack_type": "Direct",
    "attacker_dice": [6, 5, 4, 3, 2, 1], "attacker_hits": 2, "attacker_ml": 60,
    "attacker_tier": "Trained", "attribute": 3, "awareness": 2, "awareness_a": 2,
    "awareness_b": 3, "band": "success", "base": 4, "base_pool": 4, "base_range": 40,
    "base_speed": 6, "bp": 2, "brawl": 2, "chain": [6, 3], "characters": 3, "clock": 3,
    "cover": "light", "criticals": 1, "current": None, "d10": 5, "d20": 7, "d3": 2, "d6": 4,
    "days": 3, "defence": "Block", "defender_dice": [4, 4, 3, 2, 1, 1],
    "defender_successes": 1, "defender_tier": "Trained", "defense": 10, "deftness": 2,
    "dice": [5, 4, 3], "dice_a": [5, 4], "dice_b": [3, 2], "dice_totals": [7, 3, 11, 5],
    "die": 6, "difficulty": 2, "difficulty_dice": 2, "distance": 10, "dodge_eml": 50,
    "effective_impact": 9, "eml": 60, "end": "Near", "endurance_eml": 50, "existing": ["M1"],
    "exploding": 3, "extra_actions": 1, "faces": [6, 3, 5], "first_dice": [5, 2],
    "grappler_brawl": 2, "grappler_dice": [4, 3], "grappler_iron": 2, "grit": 2, "hammer": 2,
    "hand_to_hand": 3, "healing_base": 5, "heavy_cover_bands": 1, "heft": 2, "hidden": False,
    "hits": 2, "horse_speed": 12, "hours": 2, "hr": 5, "impact_d10": 5, "impact_die": 6,
    "impact_modifier": 3, "impact_roll": 12, "injury": "S2", "injury_hr": 4,
    "injury_level": 2, "injury_shock": 2, "iron": 3, "item": "Rifle", "keep": 3,
    "kind": "dash", "level": "S", "levels": ["S", "F"], "lineage_dodge": 1,
    "location": "Abdomen", "location_roll": 50, "location_rolls": [50], "location_shock": 2,
    "main_weapon": "Peacemaker", "margin": 5, "maximum": 3, "metres": 40, "mettle": 2,
    "min_roll": 5, "ml": 60, "mode": "melee", "name": "Strength", "names": ["Ann", "Bo"],
    "new": "S2", "normal_faces": [6, 2], "off_weapon": "Derringer", "one_handed": True,
    "ones": 4, "opponent_reach": 2, "optimal_bands": ["close"], "option": "Move",
    "order": ["Ann", "Bo"], "passive_dice": [2, 6, 2], "passive_pool": 3, "penalties": 1,
    "perceives": True, "perception": 2, "perception_dice": [3, 3, 1],
    "perception_pool": 3, "physician_eml": 60, "pool": 4, "pool_a": 4, "pool_b": 3,
    "pool_size": 3, "projectile": True, "quick": 3, "quick_a": 3, "quick_b": 2,
    "quickness": 3, "range_class": "Short", "range_ft": 60, "rarity": "Issued",
    "rate": "normal", "reach": 3, "reaction": "Dodge", "reload_time": 2, "resilience": 2,
    "resistance_successes": 1, "ride": 2, "roll": 35, "same_type": True, "savvy": 2,
    "second_dice": [4, 1], "seed": 7, "severity": "S", "shift": 1, "shk": 12,
    "shock_eml": 50, "shock_ml": 50, "size": 5, "skill": 3, "skill_dice": [5, 3],
    "skill_pool": 3, "speed_m": 6, "start": "Engaged", "start_band": "distant", "state": "STN",
    "stealth_dice": [4, 4], "stealth_pool": 3, "steps": 1, "strain": 1, "strength": 3,
    "strength_eml": 50, "successes": 2, "t": 8, "tag": "Reach", "target": 10,
    "target_band": "close", "target_count": 2, "target_rolls": [3, 12], "tempo": 4,
    "tempo_used": 4, "tens": 3, "tension_pool": 2, "terrain": "easy", "test": "attack",
    "tick": 5, "ticks_elapsed": 3, "tier": "Trained", "total": 9, "trigger_tick": 4,
    "use": "block", "uses": 2, "value": 3, "victim": None, "vitality": 11, "way": "walk",
    "weapon": "Peacemaker", "weapon_dice": 2, "weapon_range": 30, "who": "Ann",
    "wound": "S2", "wr": 3, "zone": "Melee", "zone_die": 6, "zone_roll": 3,
    "zone_rolls": [3],
}


def _x6_pool():
    from rulescore.systems import exploding_d6 as x6
    return x6.start_combat(3)


def _x6_refreshed():
    from rulescore.systems import exploding_d6 as x6
    return x6.refresh(x6.start_combat(3))


def _pc_weapon():
    from rulescore.systems import percentile as pc
    return pc.Weapon("broadsword", reach=3, heft=5, zone_die=6, aspect="E")


def _pc_shot():
    from rulescore.systems import percentile as pc
    return pc.missile_shot(75, 20, 60, roll=45)


def _pc_walk():
    from rulescore.systems import percentile as pc
    return pc.injury_sequence(zone_die=6, aim_zone=4, impact_die=10, impact_modifier=3,
                              dice=[2, 7, 8, 75])


def _typed(values):
    from rulescore.dice import DiceSource
    return DiceSource.typed(values)


def _pc_record():
    from rulescore.systems import percentile as pc
    return pc.InjuryRecord().add_injury("Abdomen", "Edge", 2)


def _pc_roster():
    from rulescore.roster import Roster
    from rulescore.systems import percentile as pc
    return Roster(pc.ROSTER).add("Ann", archery=75).add("Bo", shock=65)


def _pc_fight():
    from rulescore.systems import percentile as pc
    return pc.fight_for(_pc_roster())


def _pc_row(name):
    return lambda: _pc_roster().fighter(name)


def _pc_dice(*values):
    from rulescore.dice import DiceSource
    return lambda: DiceSource.typed(list(values))


def _pc_strike():
    from rulescore.systems import percentile as pc
    return pc.missile_attack(_pc_fight(), _pc_row("Ann")(), _pc_row("Bo")(), range_ft=20,
                             dice=_pc_dice(45, 4, 4, 6, 6, 1, 9, 7, 75)())


def _pc_bleeding():
    from rulescore.systems import percentile as pc
    fight = _pc_fight()
    record = fight.combatant("Bo").record.add_injury("Shoulder", "Edge", 4, bleeder=True)
    return fight.with_combatant(pc.Combatant("Bo", record, "INC", 5))


def _tsl_weapon():
    from rulescore.systems import tsl
    return tsl.make_weapon("Melee", ["Reach"])


def _tsl_encounter():
    from rulescore.systems import tsl
    return tsl.new_encounter(["Ann", "Bo"])


def _x6_initiative():
    from rulescore.systems import exploding_d6 as x6
    return x6.initiative([4, 5, 1], 3, 2, name="Ann")


def _vl_token():
    from rulescore.systems.veil_and_lead.timing import Token
    return Token("Ann", 5)


def _vl_combatant():
    from rulescore.systems.veil_and_lead.timing import Combatant
    return Combatant("Ann", True, 2, 3)


def _tsl_turn_state():
    from rulescore.systems import tsl
    return tsl.TurnState()


def _call(*args: object, **kwargs: object) -> Callable[[], tuple[tuple, dict]]:
    """A valid call's arguments; a callable in them is built afresh for each call."""
    def build() -> tuple[tuple, dict]:
        fresh = lambda v: v() if callable(v) else v  # noqa: E731
        return tuple(map(fresh, args)), {k: fresh(v) for k, v in kwargs.items()}
    return build


#: "system.function" -> a function returning (args, kwargs) of a valid call.
EXAMPLES: dict[str, Callable[[], tuple[tuple, dict]]] = {
    "exploding_d6.cover_roll": _call(2, 1, [4, 6], [5], cover=5),
    "exploding_d6.reaction": _call("dodge", [7, 3], 2),
    "exploding_d6.round_recoil": _call(["attack", "attack"]),
    "exploding_d6.hit_distribution": _call(3),
    "exploding_d6.hit_odds": _call(3),
    "exploding_d6.reaction_odds": _call("dodge", 3, 2),
    "exploding_d6.wound_distribution": _call(3),
    "exploding_d6.attack_odds": _call(3, reaction="parry", reaction_dice=2, cover=5),
    "exploding_d6.roll_attack": _call(7, 3),
    "exploding_d6.roll_throw": _call(7, 3),
    "exploding_d6.roll_dice": _call(7, 3, 1),
    "exploding_d6.coup_de_grace": _call(2, "unconscious"),
    "exploding_d6.coup_de_grace_roll": _call([5, 11, 2], "dying", 1),
    "exploding_d6.deviation_offset": _call(3, 2),
    "exploding_d6.bonus_die_action": _call(_x6_pool),
    "exploding_d6.can_react": _call(_x6_pool, True),
    "exploding_d6.destiny_die_action": _call(_x6_pool, _x6_pool),
    "exploding_d6.refresh": _call(_x6_pool),
    "exploding_d6.spend": _call(lambda: _x6_refreshed(), "attack"),
    "exploding_d6.initiative_order": _call(lambda: [_x6_initiative()]),
    "exploding_d6.initiative_table": _call([("Rogue", 4, 3), ("Robber", 2, 2)],
                                           [4, 5, 1, 17, 3, 3]),
    "exploding_d6.movement": _call("walk", 3),
    "exploding_d6.initiative": _call([4, 5, 1], 3),
    "exploding_d6.reactions": _call(lambda: [("Hagen", 12, _x6_refreshed(), True),
                                             ("Guard", 14, _x6_pool(), False)]),
    "percentile.missile_actions": _call("Crossbow"),
    "percentile.zone_name": _call(5),
    "percentile.stray_strike": _call([12], 5, 2),
    "percentile.missile_skill": _call("bow", archery=50),
    "percentile.melee_exchange": _call(10, 70, "Block", 90, 40),
    "percentile.melee_outcome_distribution": _call(70, "Block", 40),
    "percentile.declare_melee": _call(60, _pc_weapon, "Block", defender_ml=50,
                                      defender_weapon=_pc_weapon),
    "percentile.spend_advantages": _call(lambda: pc_win(), ["precision", "impact"]),
    "percentile.strike_location": _call(3, 5),
    "percentile.locate_strike": _call([3], [5]),
    "percentile.compound_injury": _call(["M1E"], "S2E", 5),
    "percentile.amputation_test": _call(35, 50, "Forearm"),
    "percentile.shock_reroll": _call(35, 50, "INC"),
    "percentile.grim_wound_shock": _call(35, 50, "Abdomen", "G4"),
    "percentile.combine_shock_states": _call("STN", "INC"),
    "percentile.injury_mishap": _call("Arms", "Serious"),
    "percentile.impaired_test": _call("Archery", "Arms"),
    "percentile.injury_impairment": _call("Serious"),
    "percentile.treatment_roll": _call(35, 60, "Edge", "S2"),
    "percentile.untreated": _call("Edge", "S2"),
    "percentile.required_treatment": _call("Edge", "S2"),
    "percentile.concentration_broken": _call(["STN"]),
    "percentile.aggravation_period": _call("Half Move"),
    "percentile.injury_description": _call("Serious", "Edge"),
    "percentile.recover": _call(_pc_record),
    "percentile.next_roll": _call(_pc_record),
    "percentile.next_roll_odds": _call(_pc_record),
    "percentile.treatment_odds": _call(60, "Edge", "S2"),
    "percentile.after_injury": _call(lambda: pc_win(), free_press_rolls=1),
    "percentile.grievous_zone_test": _call("Arms", "Block"),
    "percentile.helpless_location": _call(5, 7),
    "percentile.arcane_bonus": _call([5, 10]),
    "percentile.extended_shock_healer_bonus": _call([1, 2]),
    "percentile.extended_shock_movement": _call("INC", 25),
    "percentile.combine_treatment_rolls": _call([("Ana", 2, "S"), ("Bo", 3, "F")]),
    "percentile.healing_period": _call(2),
    "percentile.infection_amputation": _call(45, 50, "Forearm"),
    "percentile.strike_from_missile": _call(_pc_shot),
    "percentile.strike_from_melee": _call(lambda: pc_win(), _pc_weapon),
    "percentile.record_injury": _call(_pc_record, _pc_walk),
    "percentile.course_odds": _call("extended shock", 13, 5),
    "percentile.bleeding_odds": _call(60, 1, "INC", physician_eml=40),
    "percentile.bleeding_period": _call(60, 1, "INC", physician_eml=40,
                                        dice=lambda: _typed([33, 33])),
    "percentile.fight_for": _call(_pc_roster),
    "percentile.next_turn": _call(_pc_fight),
    "percentile.missile_attack": _call(_pc_fight, _pc_row("Ann"), _pc_row("Bo"), range_ft=20,
                                       dice=_pc_dice(45, 4, 4, 6, 6, 1, 9, 7, 75)),
    "percentile.melee_attack": _call(_pc_fight, _pc_row("Ann"), _pc_row("Bo"),
                                     attack_setups=1, defence_setups=1,
                                     dice=_pc_dice(71, 35)),
    "percentile.apply_strike": _call(_pc_fight, _pc_row("Bo"), _pc_strike),
    "percentile.shock_check": _call(lambda: __import__("rulescore").systems.percentile
                                    .apply_strike(_pc_fight(), _pc_row("Bo")(), _pc_strike()),
                                    _pc_row("Bo"), dice=_pc_dice(42)),
    "percentile.heal_day": _call(_pc_fight, _pc_row("Bo"), dice=_pc_dice()),
    "percentile.missile_odds": _call(_pc_fight, _pc_row("Ann"), _pc_row("Bo"), range_ft=20),
    "percentile.melee_odds": _call(_pc_fight, _pc_row("Ann"), _pc_row("Bo"), attack_setups=1,
                                   defence_setups=2),
    "percentile.defence_untested": _call(_pc_fight, _pc_row("Bo"), defence="Ignore"),
    "percentile.attack_untested": _call(_pc_fight, _pc_row("Ann"), _pc_row("Bo"), helpless=True),
    "percentile.treat": _call(_pc_bleeding, _pc_row("Bo"), physician_eml=60, dice=_pc_dice(42)),
    "percentile.remove_injury": _call(_pc_bleeding, _pc_row("Bo"), 0),
    "percentile.bleed": _call(_pc_bleeding, _pc_row("Bo"), physician_eml=40,
                              dice=_pc_dice(32, 58)),
    "range_bands.band": _call("close"),
    "range_bands.cross_impassable": _call("distant", "closer", "hard", [5, 3], [2, 2, 2, 2]),
    "range_bands.impassable_difficulty": _call("hard"),
    "range_bands.check": _call([1, 2, 4], 2, [3, 3]),
    "range_bands.roll_groups": _call({"skill_dice": 2, "difficulty_dice": 2}, seed=7),
    "range_bands.modifier": _call("snapshot"),
    "range_bands.quick_load": _call("firearm", 2, [5, 3], [2, 2, 2, 2]),
    "range_bands.quick_load_odds": _call("firearm", 3),
    "range_bands.quick_load_skill": _call("firearm"),
    "range_bands.shot": _call(2, [5, 3], [3, 3]),
    "range_bands.fall_damage": _call(2, dice=lambda: _typed([3, 4])),
    "range_bands.fall_damage_odds": _call(2),
    "tsl.check_dice": _call([6, 5, 4, 3, 2]),
    "tsl.opposed_roll": _call([6, 5, 4, 3, 2], "Trained", [4, 4, 3, 2, 1], "Trained"),
    "tsl.roll_total": _call([6, 5, 4, 3, 2], "Trained"),
    "tsl.roll_dice": _call(7),
    "tsl.roll_pair": _call(7),
    "tsl.static_roll": _call([6, 5, 4, 3, 2], "Trained", 10),
    "tsl.attack": _call([6, 5, 4, 3, 2], "Trained", target=10),
    "tsl.attack_odds": _call("Trained", target=10),
    "tsl.defence_domain": _call("Melee weapon"),
    "tsl.defence_domains": _call("Melee weapon"),
    "tsl.fights_at": _call(_tsl_weapon),
    "tsl.make_weapon": _call("Melee", ["Reach"]),
    "tsl.spend_use": _call("Ranged", 2),
    "tsl.stress_pool": _call("Melee weapon"),
    "tsl.weapon_profile": _call(_tsl_weapon),
    "tsl.zone_shift": _call(_tsl_weapon, "Near"),
    "tsl.zone_step": _call("Near"),
    "tsl.encounter_from_dict": _call(lambda: tsl_encounter_dict()),
    "tsl.encounter_to_dict": _call(_tsl_encounter),
    "tsl.next_turn": _call(_tsl_encounter),
    "tsl.ready_item": _call(lambda: tsl_loadout(), "b"),
    "tsl.set_order": _call(_tsl_encounter, ["Bo", "Ann"]),
    "tsl.spend": _call(_tsl_turn_state, "Movement"),
    "tsl.start_turn": _call(_tsl_turn_state),
    "tsl.take": _call(_tsl_encounter, "Ann", "Movement"),
    "tsl.uses_of": _call("Action"),
    "tsl.new_pools": _call("grunt"),
    "tsl.pool_size": _call("character"),
    "tsl.take_stress": _call(lambda: tsl_pools(), "Body", 2),
    "tsl.apply_attack": _call(lambda: tsl_pools(), lambda: tsl_hit()),
    "tsl.soak_the_hit": _call(lambda: tsl_pools(), lambda: tsl_hit()),
    "tsl.steady_the_spirit": _call(lambda: tsl_pools(), lambda: tsl_pools(mind=2)),
    "tsl.domain_pool": _call("Hand"),
    "tsl.grant_reroll": _call(lambda: tsl_pools(), "failure", "Hand"),
    "tsl.spirit_ability": _call(lambda: tsl_pools(), "Sense the Local Reality"),
    "tsl.support": _call("Grant Reroll", lambda: tsl_pools(), ally_zone="Near",
                         band="failure", domain="Hand"),
    "tsl.reach_first_strike": _call(_tsl_weapon, "Far", "Near"),
    "tsl.snare": _call(lambda: tsl_snaring(), "success", "Near"),
    "tsl.utility_edge": _call("Wayfinder's Chain", applies=True),
    "tsl.support_needs": _call("Steady Presence"),
    "tsl.repair_needs_roll": _call("Issued", irreplaceable=False),
    "tsl.repair_dice": _call("Salvaged", irreplaceable=False),
    "tsl.repair_plan": _call("Salvaged", irreplaceable=False, tier="Trained"),
    "veil_and_lead.check": _call([5, 4, 3], 10),
    "veil_and_lead.roll_pools": _call(7, (3, 4)),
    "veil_and_lead.hit_probability": _call(3, 10),
    "veil_and_lead.margin_distribution": _call(3, 10),
    "veil_and_lead.tempo": _call("Steady Shot", "Peacemaker"),
    "veil_and_lead.move_distance": _call("Shift", 6),
    "veil_and_lead.initiative": _call([5, 4, 3, 2, 1], 3, 2),
    "veil_and_lead.attack": _call([2, 3, 5, 6, 7, 8], attribute=3, skill=3, defense=9,
                                  weapon="Peacemaker", band="Far", cover="Hard Cover"),
    "veil_and_lead.escape": _call([5, 4, 3, 2, 1], [4, 3, 2, 1], iron=3, brawl=2,
                                  grappler_iron=2, grappler_brawl=2),
    "veil_and_lead.grapple": _call([5, 4, 3, 2, 1], 3, 2, 10),
    "veil_and_lead.resist": _call([5, 4, 3, 2], 2, 2),
    "veil_and_lead.coup_de_grace": _call(3, 10, 1),
    "veil_and_lead.horde_tempo": _call("melee"),
    "veil_and_lead.healer_pool": _call(2, 1),
    "veil_and_lead.attack_pool": _call(3, 2),
    "veil_and_lead.ride_probability": _call(2, 1),
    "veil_and_lead.grievous_wound": _call(5),
    "veil_and_lead.treat_grievous": _call([5, 4], "Flesh Wound"),
    "veil_and_lead.treat_grievous_probability": _call(3, "Broken Bone"),
    "veil_and_lead.tie_order": _call(lambda: [_vl_combatant()]),
    "veil_and_lead.duel": _call([5, 4, 3, 2, 1], [5, 4, 3, 2, 1], quick_a=3, awareness_a=2,
                                quick_b=3, awareness_b=2),
    "veil_and_lead.next_turn": _call(3, lambda: [_vl_token()]),
    "veil_and_lead.ride_check": _call([5, 4, 3, 2, 1], 3, 2),
    "veil_and_lead.mount_fall": _call(2, 5, 3),
    "veil_and_lead.pool_with_conditions": _call(6, ["Leg Hit"], kind="movement"),
    "veil_and_lead.long_rest_recovery": _call(2, 3),
    "veil_and_lead.engaged_exit": _call("Disengage"),
    "veil_and_lead.stray_ally": _call(["Ann", "Bo"], 2),
    "veil_and_lead.stray_shot_among": _call(["Ann", "Bo"], 3, 1, 2, 2),
    "veil_and_lead.stray_shot_chances": _call(["Ann", "Bo"], scatter=True),
    "veil_and_lead.narrative_cut": _call(3, 2),
    "veil_and_lead.attack_odds": _call(3, 10, 3),
    "veil_and_lead.weapon": _call("Peacemaker"),
    "veil_and_lead.armour": _call("Duster"),
    "veil_and_lead.action": _call("Steady Shot"),
    "veil_and_lead.condition": _call("Prone"),
    "veil_and_lead.cover": _call("Light Cover"),
    "veil_and_lead.range_modifier": _call("pistol", "Near"),
}


def pc_win():
    from rulescore.systems import percentile as pc
    return pc.melee_exchange(10, 70, "Block", 90, 40)


def tsl_loadout():
    from rulescore.systems import tsl
    return tsl.make_loadout(["a"], stowed=["b"])


def tsl_pools(**marked):
    from rulescore.systems import tsl
    return tsl.new_pools(**marked)


def tsl_hit():
    from rulescore.systems import tsl
    return tsl.attack([6, 5, 4, 3, 2], "Trained", target=10)


def tsl_snaring():
    from rulescore.systems import tsl
    return tsl.make_weapon("Thrown", ["Snaring"])


def tsl_encounter_dict():
    from rulescore.systems import tsl
    return tsl.encounter_to_dict(tsl.new_encounter(["Ann", "Bo"]))
