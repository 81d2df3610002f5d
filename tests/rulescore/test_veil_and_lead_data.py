"""The Veil & Lead's tables are data: they load and validate, the engine reads them, and a
bad edit is refused with a message naming the table and the row."""

import shutil

import pytest

from rulescore.assumptions import load_assumptions
from rulescore.errors import TableError
from rulescore.rules_index import load_rules_index
from rulescore.systems import veil_and_lead as vl
from rulescore.systems.veil_and_lead._system import DATA as SYSTEM
from rulescore.tables import load_tables

DATA = SYSTEM.package_folder
FILES = ["timeline", "equipment", "actions", "ranges", "injury", "conditions"]


@pytest.fixture
def copy(tmp_path):
    """A copy of the data folder the engine reads instead of its own."""
    folder = tmp_path / "data"
    shutil.copytree(DATA, folder)

    def edit(file, old, new):
        path = folder / f"{file}.toml"
        text = path.read_text()
        assert old in text
        path.write_text(text.replace(old, new, 1))
    with SYSTEM.using(folder):
        yield edit


@pytest.mark.parametrize("file", FILES)
def test_every_table_loads_with_a_source(file):
    tables = load_tables(DATA / f"{file}.toml")
    assert tables
    for t in tables.values():
        assert t.source and len(t) > 0


def test_records_are_complete():
    assert len(vl.weapons()) == 21 and vl.weapon("Peacemaker").wr == 3
    assert {w.name for w in vl.weapons().values() if w.wr_source == "assumed"} == {
        "Saber", "Cavalry Lance", "Volcanic", "LeMat", "Carbine", "Sawed-Off", "Coach Gun",
        "Pump-Action", "Scoped Carbine"}
    assert [vl.armour(a).ar for a in ("None", "Duster", "Boiler Plate", "Consortium Vest",
                                      "Ironbrand Suit")] == [0, 1, 1, 2, 3]
    assert vl.armour("Boiler Plate").hardened and not vl.armour("Duster").hardened
    assert vl.cover("Exposed") == (-1, True) and vl.cover("Fortified") == (6, True)
    assert vl.cover("Total Cover")[1] is False
    assert vl.condition("Suppressed").pool_penalty == 2
    assert vl.condition("Blinded").pool_penalty == 4


def test_weapon_ratings_table_agrees_with_weapons():
    ratings = load_tables(DATA / "equipment.toml")["weapon_ratings"]
    for row in ratings:
        for name in row["weapons"].split(", "):
            name = {"Gatling": "Gatling Gun"}.get(name, name)
            if name == "Shotgun":
                assert all(w.wr == row["wr"] for w in vl.weapons().values() if w.scatter)
            else:
                assert vl.weapon(name).wr == row["wr"], name


def test_engine_reads_the_initiative_bands(copy):
    copy("timeline", 'margin = "0-3"\ntick = 4', 'margin = "0-3"\ntick = 5')
    assert vl.starting_tick(2) == (5, "Slow")
    assert vl.starting_tick_distribution(1) == {(6, "Surprised"): 1}


def test_engine_reads_the_aim_table_and_weapon_ratings(copy):
    copy("timeline", 'aim_actions = 2\nroll_bonus = 3', 'aim_actions = 2\nroll_bonus = 7')
    copy("equipment", 'weapon = "Peacemaker"\nweapon_class = "Medium Pistol"\nkind = "ranged"\n'
                      'range_class = "pistol"\nbase_tempo = 4\nwr = 3',
         'weapon = "Peacemaker"\nweapon_class = "Medium Pistol"\nkind = "ranged"\n'
         'range_class = "pistol"\nbase_tempo = 4\nwr = 4')
    assert vl.aim_bonus(2) == 7
    r = vl.attack([2, 3, 5, 6, 7, 8], attribute=3, skill=3, defense=9, band="Far",
                  cover="Hard Cover", aim_actions=2)
    assert r.final_sum == 22 and r.damage == 4 + 2


def test_engine_reads_the_grievous_threshold(copy):
    copy("injury", 'setting = "grievous_at"\nvalue = 5', 'setting = "grievous_at"\nvalue = 4')
    assert vl.damage(4, 0, 0).grievous


def test_missing_range_cell_is_refused(copy):
    copy("ranges", 'range_class = "rifle"\nband = "Far"', 'range_class = "rifle"\nband = "Near"')
    with pytest.raises(TableError, match="rifle at Near appears twice"):
        vl.range_modifier("rifle", "Far")


def test_death_table_must_match_its_formula(copy):
    copy("injury", "iron = 3\ndeath_at = -5", "iron = 3\ndeath_at = -6")
    with pytest.raises(TableError, match="IRON 3 must die at -5"):
        vl.death_threshold(3)


def test_bad_cells_are_named(copy):
    copy("equipment", 'kind = "melee"', 'kind = "thrown"')
    with pytest.raises(TableError, match="table 'weapons' row 1: kind must be one of"):
        vl.weapon("Hatchet")


def test_bad_action_rule_is_named(copy):
    copy("actions", 'tempo_rule = "base"', 'tempo_rule = "slowish"')
    with pytest.raises(TableError, match="tempo_rule must be one of"):
        vl.tempo("Quick Shot", "Peacemaker")


def test_assumptions_and_options():
    found = {a.id: a for a in load_assumptions("veil_and_lead")}
    assert {"small_pools", "range_table_reading", "critical_bonus", "bleed_dice",
            "exposure_by_tempo", "missing_weapon_ratings"} <= set(found)
    assert found["small_pools"].option == "small_pool"
    assert found["bleed_dice"].option == "backlash_rule"


def test_rules_index_lists_the_seed_sections():
    entries = load_rules_index("veil_and_lead")
    romans = {e.section.split()[0] for e in entries}
    assert {"I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII",
            "XIII", "XIV", "XV"} <= romans


def test_trace_steps_cite_sections_of_the_seed():
    indexed = {e.section.split(" — ")[0] for e in load_rules_index("veil_and_lead")}
    results = [
        vl.attack([2, 3, 5, 6, 7, 8], attribute=3, skill=3, defense=9, band="Far",
                  cover="Hard Cover", aim_actions=2, roll_bonus=2, critical=1,
                  firing_into_melee=False),
        vl.attack([3, 4], attribute=3, skill=3, defense=9, action="Called Shot",
                  called_location="Head", firing_into_melee=True),
        vl.initiative([8, 8, 1], 2, 1, ambush=True), vl.damage(5, 6, 1, hardened=True),
        vl.stabilize([6, 4], -1, fumble=True), vl.bleed_out_turn(0, 1), vl.grievous_wound(8),
        vl.horde_casualties(3, 4, 6), vl.stunned_turn(3), vl.move_token(18, 6),
        vl.combat_pacing(35), vl.mounted_modifiers("Saber", first_charge_attack=True),
        vl.escape([6, 5], [5, 5], iron=1, brawl=1, grappler_iron=1, grappler_brawl=1),
        vl.duel([6, 6], [6, 6], quick_a=1, awareness_a=1, quick_b=1, awareness_b=1),
    ]
    cited = {s.rule.section for r in results for s in r.trace}
    assert all(s.rule.system == "veil_and_lead" for r in results for s in r.trace)
    assert cited - indexed == set()


def test_printed_quick_reference_tables_agree_with_the_engine():
    common = load_tables(DATA / "actions.toml")["common_tempos"]
    engine = {"Draw Weapon": vl.tempo("Draw Weapon"), "Aim": vl.tempo("Aim"),
              "Scramble": vl.tempo("Scramble"), "Take Cover": vl.tempo("Take Cover"),
              "Steady Shot (Pistol)": vl.tempo("Steady Shot", "Peacemaker"),
              "Strike (Medium Melee)": vl.tempo("Strike", "Hatchet"),
              "Reload (Speed)": vl.tempo("Reload (Speed)"), "Grapple": vl.tempo("Grapple"),
              "Steady Shot (Rifle)": vl.tempo("Steady Shot", "Repeater"),
              "Recover / Manual Reload": vl.tempo("Recover")}
    assert {r["action"]: r["tempo"] for r in common} == engine
    examples = load_tables(DATA / "actions.toml")["exposure_examples"]
    named = {"Draw Weapon": ("Draw Weapon", None), "Aim": ("Aim", None),
             "Shiv (light melee)": ("Shiv", "Brass Knuckles"),
             "Quick Shot (pistol)": ("Quick Shot", "Peacemaker"), "Scramble": ("Scramble", None),
             "Take Cover": ("Take Cover", None), "Steady Shot (pistol)": ("Steady Shot",
                                                                          "Peacemaker"),
             "All other Tempo 4+": ("Interact", None)}
    for row in examples:
        action, weapon = named[row["action"]]
        t = vl.tempo(action, weapon)
        assert t == row["tempo"], row["action"]
        assert vl.exposes(action, t) is row["exposed"], row["action"]
    bands = load_tables(DATA / "timeline.toml")["initiative_bands"]
    assert [(r["tick"], r["state"]) for r in bands] == [
        vl.starting_tick(r.span.high if r.span.high is not None else r.span.low) for r in bands]


def test_weapon_tempo_must_fit_its_class(copy):
    copy("equipment", 'weapon = "Hatchet"\nweapon_class = "Medium Melee"\nkind = "melee"\n'
                      'range_class = "melee"\nbase_tempo = 4',
         'weapon = "Hatchet"\nweapon_class = "Medium Melee"\nkind = "melee"\n'
         'range_class = "melee"\nbase_tempo = 7')
    with pytest.raises(TableError, match="Hatchet's base tempo 7 is outside its class"):
        vl.weapon("Hatchet")


def test_tie_rule_names_come_from_the_table(copy):
    copy("timeline", 'rule = "PCs before NPCs"', 'rule = "Players first"')
    r = vl.tie_order([vl.Combatant("A", False, 1, 1), vl.Combatant("B", True, 0, 1)])
    assert r.decided_by == ("Players first",)
