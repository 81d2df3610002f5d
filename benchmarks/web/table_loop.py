"""The scripted reader of the fight pages: one full exchange on each "Running a fight" page, as a
GM at the table would run it, counted and checked on the page.

    .venv/bin/python benchmarks/web/table_loop.py

One Voilà over book/, started as ``rulebook serve`` starts it but on a free 127.0.0.1 port, in a
process group of its own (voila_process.py); Debian's chromium (/usr/bin/chromium) driven
headless by Playwright, one fresh browser context a system (so each page starts from its own
first-visit roster, kept in the reader's browser).

Counting: an interaction is a click, a typed field or a menu pick; a field typed and committed
with Enter counts once. A page is a chapter opened. Opening the page and rolling everyone onto the
fight (Veil & Lead's initiative) come before the exchange and are printed apart, not counted in
it. The dice are typed as a GM types the dice rolled at the table, so the result is exact: the
script works it out from the roster the page starts with and the same dice through rulescore's
own calls, and reads the page (the result line, the fighter's row) to compare. A loop prints
``state checked`` only when every check passed; the script exits 1 if any loop failed, and says
why.

Loops (goals from issue 21 item 6):
- veil_and_lead: Next turn, the acting fighter's attack on the chosen target (their weapon,
  the dice typed), Apply: the target's Vitality and state, the attacker's next tick. Goal: at
  most 6 interactions on 1 page.
- percentile: the missile panel opened, a shot from the acting roster fighter at another (the
  range typed, the dice typed), through the injury, written into the target's record: the
  target's injuries and Shock state in the turn order. Goal: at most 8 interactions.
- percentile melee: Next turn, the melee panel opened, the new acting fighter's melee exchange
  with the one who shot, written into the record (checked the same way).
- percentile healing: the Shock and healing panel opened, the wounded fighter's Treatment Roll
  with no healer (an untreated Grievous injury: a grim wound) and one day of healing, whose grim wound's Shock Roll is typed:
  the record's day, the Shock state and the result line checked.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

import voila_process  # noqa: E402
from rulebook.cli import voila_command, voila_env  # noqa: E402
from rulescore.dice import DiceSource  # noqa: E402
from rulescore.roster import Roster  # noqa: E402
from rulescore.systems import percentile as pc  # noqa: E402
from rulescore.systems import veil_and_lead as vl  # noqa: E402

CHROMIUM, CHROMIUM_ARGS = voila_process.CHROMIUM, voila_process.CHROMIUM_ARGS
READY_JS = (HERE / "ready.js").read_text()
OPEN_TIMEOUT_MS = 120_000     # a chapter's first open on a shared 2-CPU machine
STEP_TIMEOUT_MS = 30_000      # each answer the page gives
SHOWN_MS = 5_000              # how long a menu may take to show the page's own choice

GOAL_VL = 6          # issue 21 item 6: a V&L exchange in at most 6 interactions on 1 page
GOAL_PERCENTILE = 8  # and a percentile shot into the target's record in at most 8

# The dice a GM types. Veil & Lead: the roster's initiative d8s in roster order (Caleb 4, the
# Enforcer 2), then the acting fighter's attack d8s.
VL_INITIATIVE = (8, 7, 1, 1, 2, 1)
VL_ATTACK = (8, 8, 1, 1, 1, 1)
# Percentile: the shot's d100, Zone Dice, Location Dice, impact die and the Shock test; the
# range is typed too (not the field's own default, so the typed value is what counts).
PC_RANGE_FT = 25
PC_SHOT = (45, 4, 4, 6, 6, 1, 9, 7, 30)
# The melee exchange: both d100s, the Zone Die, the Location Die, the impact die, the Shock test.
PC_MELEE = (35, 71, 3, 4, 8, 5)
# The day of healing: the grim wound's daily Shock d100.
PC_HEAL_DAY = (90,)


@dataclass
class Loop:
    """One counted loop: what it did, what it cost, whether the page showed the right state."""

    system: str
    interactions: int = 0
    pages: int = 0
    goal: int | None = None
    goal_pages: int | None = None
    checked: bool = False
    why: str = ""
    notes: list[str] = field(default_factory=list)

    @property
    def met(self) -> bool:
        return (self.checked and (self.goal is None or self.interactions <= self.goal)
                and (self.goal_pages is None or self.pages <= self.goal_pages))

    def line(self) -> str:
        head = (f"loop {self.system}: {self.interactions} interactions, {self.pages} pages"
                + (", state checked" if self.checked else f", state NOT checked ({self.why})"))
        if self.goal is None:
            return head + "  (no goal: reported)"
        where = f" on {self.goal_pages} page" if self.goal_pages else ""
        return head + f"  (goal ≤ {self.goal} interactions{where}: " \
                      f"{'MET' if self.met else 'MISSED'})"


class Reader:
    """A GM at the page: every click, typed field and menu pick goes through here and is
    counted; so is every chapter opened."""

    def __init__(self, page, book_url: str) -> None:
        self.page = page
        self.book_url = book_url
        self.interactions = 0
        self.pages: list[str] = []
        page.set_default_timeout(STEP_TIMEOUT_MS)

    def open(self, chapter: str) -> None:
        """Open *chapter* (e.g. "percentile/fight") and wait until every widget is drawn."""
        if not getattr(self.page, "_table_loop_ready_js", False):
            self.page.add_init_script(READY_JS)
            self.page._table_loop_ready_js = True
        self.page.goto(f"{self.book_url}/{chapter}.ipynb", timeout=OPEN_TIMEOUT_MS)
        self.page.wait_for_function("() => window.__tti !== undefined", timeout=OPEN_TIMEOUT_MS)
        self.pages.append(chapter)

    def click(self, locator) -> None:
        locator.click()
        self.interactions += 1

    def type(self, locator, text: str) -> None:
        """Type into a field (its value is read when a button is pressed)."""
        locator.fill(text)
        self.interactions += 1

    def commit(self, locator, text: str) -> None:
        """Type into a field and press Enter: one interaction."""
        locator.fill(text)
        locator.press("Enter")
        self.interactions += 1

    def pick(self, select, label: str) -> None:
        """Pick *label* in a menu, unless the page fills it in by itself (then nothing is
        done). The page's own choice comes with its answer to the press before, so it is given
        a moment (SHOWN_MS) to arrive: otherwise a menu read a few milliseconds too early would
        count a pick the GM never makes. A menu shows a name's spaces as no-break spaces; a
        label is compared as the reader reads it."""
        from playwright.sync_api import TimeoutError as PlaywrightTimeout
        try:
            select.element_handle().wait_for_element_state("visible")
            self.page.wait_for_function(
                "([s, label]) => s.options[s.selectedIndex] && "
                "s.options[s.selectedIndex].text.replace(/\\u00a0/g, ' ') === label",
                arg=[select.element_handle(), label], timeout=SHOWN_MS)
            return
        except PlaywrightTimeout:
            pass
        index = select.evaluate("(s, label) => [...s.options].findIndex("
                                "o => o.text.replace(/\\u00a0/g, ' ') === label)", label)
        if index < 0:
            raise LookupError(f"the menu offers no {label!r}")
        select.select_option(index=index)
        self.interactions += 1

    def typed_dice(self, entry, dice: tuple[int, ...], name: str = "") -> None:
        """Type the dice rolled at the table into My dice and press Use my dice; for an entry
        named *name* ("initiative"), into its Initiative dice and Use the initiative dice."""
        field = f"{name[:1].upper()}{name[1:]} dice" if name else "My dice"
        use = f"Use the {name} dice" if name else "Use my dice"
        self.type(entry.get_by_label(field, exact=True), ", ".join(map(str, dice)))
        self.click(entry.get_by_role("button", name=use, exact=True))


def counted(reader: Reader, system: str, goal: int | None, goal_pages: int | None,
            run: Callable[[Reader], None]) -> Loop:
    """Run one loop on *reader*'s page, counting what it does; a failed check or a page that
    does not answer is the loop's *why*."""
    from playwright.sync_api import Error as PlaywrightError

    start, pages = reader.interactions, len(reader.pages)
    loop = Loop(system, goal=goal, goal_pages=goal_pages)
    try:
        run(reader)
        loop.checked = True
    except (AssertionError, PlaywrightError, LookupError) as exc:
        loop.why = " ".join(str(exc).split())[:400] or type(exc).__name__
    loop.interactions = reader.interactions - start
    # The pages the loop used: those it opened, or else the one it carried on from.
    loop.pages = max(1, len(reader.pages) - pages)
    return loop


def _expect_text(locator, text: str, what: str) -> None:
    from playwright.sync_api import expect
    try:
        expect(locator).to_have_text(text)
    except AssertionError:
        shown = locator.all_inner_texts()
        raise AssertionError(f"{what}: the page shows {shown!r}, the engine says {text!r}")


def _expect_contains(locator, text: str, what: str) -> None:
    from playwright.sync_api import expect
    try:
        expect(locator).to_contain_text(text)
    except AssertionError:
        shown = locator.all_inner_texts()
        raise AssertionError(f"{what}: the page shows {shown!r}, expected to contain {text!r}")


# --------------------------------------------------------------------- Veil & Lead

@dataclass(frozen=True)
class VLExpected:
    """What the exchange must leave on the page, worked out by rulescore."""

    attacker: str
    target: str
    said: str            # the result line's words, e.g. "Hit: 5 damage"
    full: str            # the target's Vitality before the exchange, "10 / 10"
    vitality: str        # and after it, "5 / 10"
    state: str           # "Wounded"
    tick: str            # the attacker's next tick, "Tick 7"


def vl_roster() -> Roster:
    """The roster a first visit of the V&L fight page starts with (the page's own)."""
    from widgets.veil_and_lead_fight import starter
    return starter()


def vl_expected(roster: Roster, initiative: tuple[int, ...], attack: tuple[int, ...]
                ) -> VLExpected:
    """The fight the roster makes with these initiative dice, the Hammer turned once, the
    acting fighter's Steady Shot at the first standing fighter of the other side with
    *attack*, applied (§II, §VI, §VIII)."""
    fight = vl.Fight()
    rows = list(roster.fighters)
    sizes = [vl.plan_initiative(r["quick"], r["awareness"], armour=r["armour"]).dice_to_roll
             for r in rows]
    for row, faces in zip(rows, vl.roll_pools(DiceSource.typed(list(initiative)), sizes),
                          strict=True):
        rolled = vl.initiative(faces, row["quick"], row["awareness"], armour=row["armour"])
        fight = fight.join(row, rolled.margin).fight
    fight = fight.next_turn().fight
    me = fight.acting()[0]
    mine = roster.fighter(fight.of(me).row)
    target = next(h.name for h in fight.health
                  if h.state not in ("Downed", "Dead")
                  and roster.fighter(h.row).pc != mine.pc)
    setup = fight.attack_inputs(mine, roster.fighter(fight.of(target).row), me, target)
    result = vl.attack(dice=DiceSource.typed(list(attack)), **setup)
    after = fight.apply_attack(me, target, result).fight
    h = after.of(target)
    said = f"{result.outcome}: {result.damage} damage" if result.hit else result.outcome
    return VLExpected(me, target, said, f"{h.full} / {h.full}", f"{h.vitality} / {h.full}",
                      h.state,
                      f"Tick {after.encounter.fighter(me).tick}")


def vl_loop(page, book_url: str) -> tuple[Loop, int]:
    """The Veil & Lead exchange on its fight page. Returns the loop and the interactions spent
    before it (rolling the roster onto the Count, once a fight)."""
    expected = vl_expected(vl_roster(), VL_INITIATIVE, VL_ATTACK)
    reader = Reader(page, book_url)
    reader.open("veil_and_lead/fight")
    panel = page.locator(".rulebook-vl-fight").first
    board = panel.locator(".rulebook-vl-fight-board")

    def join(r: Reader) -> None:
        r.typed_dice(panel, VL_INITIATIVE, name="initiative")
        _expect_text(board.locator(f"tr[data-fighter='{expected.target}'] .vitality"),
                     expected.full,
                     f"{expected.target}'s Vitality before the exchange")

    setup = counted(reader, "veil_and_lead setup", None, None, join)
    if not setup.checked:
        return Loop("veil_and_lead", goal=GOAL_VL, goal_pages=1, pages=1,
                    why=f"the fight did not start: {setup.why}"), setup.interactions

    def exchange(r: Reader) -> None:
        r.click(panel.get_by_role("button", name="Next turn"))
        _expect_contains(panel.locator(".rulebook-vl-acting"), f"{expected.attacker} to act",
                         "the acting line")
        r.pick(panel.get_by_label("Acting fighter", exact=True), expected.attacker)
        r.pick(panel.get_by_label("Target", exact=True), expected.target)
        r.typed_dice(panel.locator(".rulebook-vl-fight-attack"), VL_ATTACK)
        _expect_contains(panel.locator(".rulebook-vl-fight-result"), expected.said,
                         "the attack's result")
        r.click(panel.get_by_role("button", name="Apply to the target"))
        row = board.locator(f"tr[data-fighter='{expected.target}']")
        _expect_text(row.locator(".vitality"), expected.vitality,
                     f"{expected.target}'s Vitality")
        _expect_text(row.locator(".state"), expected.state, f"{expected.target}'s state")
        _expect_text(board.locator(f"tr[data-fighter='{expected.attacker}'] td").nth(1),
                     expected.tick, f"{expected.attacker}'s next tick")

    loop = counted(reader, "veil_and_lead", GOAL_VL, 1, exchange)
    loop.pages = len(reader.pages)
    return loop, setup.interactions


# --------------------------------------------------------------------- percentile

def pc_roster() -> Roster:
    """The roster a first visit of the percentile fight page starts with (the page's own)."""
    from widgets.percentile_fight import starter
    return starter()


def injuries_text(record: pc.InjuryRecord) -> str:
    """A record's open injuries as the turn order lists them, e.g. "S2P abdomen", an arm or
    leg with its side ("G4E right upper arm")."""
    return ", ".join(f"{i.code} {i.where.lower()}" + (" (bleeding)" if i.bleeder else "")
                     for i in record.injuries if i.level) or "none"


@dataclass(frozen=True)
class PCStep:
    """One written result: the result line, and the struck (or healed) fighter's row."""

    who: str
    outcome: str
    injuries: str
    state: str
    day: str


def _row_of(fight: pc.Fight, name: str, outcome: str) -> PCStep:
    c = fight.combatant(name)
    return PCStep(name, outcome, injuries_text(c.record), c.status, str(c.record.day))


def pc_expected(roster: Roster) -> tuple[str, str, list[PCStep]]:
    """The shooter and target, then the shot, the melee exchange and the day of healing as
    rulescore works them out from *roster* and the typed dice, with the page's own defaults for
    the fields the GM leaves alone (Still target, aimed zone 1, the first Zone Die, Precision
    for a shot's CS and Impact for a blow's, the defence on the roster, no healer)."""
    fight = pc.fight_for(roster)
    shooter = fight.actor.name
    target = next(c.name for c in fight.combatants if c.name != shooter and not c.dead)
    shot = pc.missile_attack(fight, roster.fighter(shooter), roster.fighter(target),
                             range_ft=PC_RANGE_FT, target_moves="still", aim_zone=1,
                             advantage="precision", zone_pick=0, near_target=0,
                             dice=DiceSource.typed(list(PC_SHOT)))
    fight = pc.apply_strike(fight, roster.fighter(shot.struck), shot)
    steps = [_row_of(fight, shot.struck, shot.outcome)]
    fight = pc.next_turn(fight)
    attacker = fight.actor.name
    defender = next(c.name for c in fight.combatants if c.name != attacker and not c.dead)
    blow = pc.melee_attack(fight, roster.fighter(attacker), roster.fighter(defender),
                           defence=None, aim_zone=1, advantage="impact", zone_pick=0,
                           dice=DiceSource.typed(list(PC_MELEE)))
    fight = pc.apply_strike(fight, roster.fighter(blow.struck), blow)
    steps.append(_row_of(fight, blow.struck, blow.outcome))
    healed = roster.fighter(blow.struck)
    fight = pc.treat(fight, healed, physician_eml=None, dice=DiceSource.typed([])).fight
    day = pc.heal_day(fight, healed, dice=DiceSource.typed(list(PC_HEAL_DAY)))
    steps.append(_row_of(day.fight, healed.name, day.outcome))
    return shooter, target, steps


def percentile_loops(page, book_url: str) -> list[Loop]:
    """The percentile shot into the record (counted against the goal), then the melee
    exchange and the day of healing, on the one fight page."""
    shooter, target, (shot, blow, day) = pc_expected(pc_roster())
    reader = Reader(page, book_url)
    reader.open("percentile/fight")
    order = page.locator(".rulebook-pc-fight-order")
    missile = page.locator(".rulebook-pc-fight-missile").first
    melee = page.locator(".rulebook-pc-fight-melee").first
    after = page.locator(".rulebook-pc-fight-after").first

    def open_panel(r: Reader, label: str) -> None:
        """Open a panel of the page (each is built the first time the GM opens it)."""
        r.click(page.locator(".rulebook-fight").first.get_by_role("button", name=label,
                                                                   exact=True))

    def check_row(step: PCStep, panel_result, what: str) -> None:
        _expect_text(panel_result, step.outcome, f"the {what}'s result")
        row = order.locator(f"tr[data-fighter='{step.who}']")
        _expect_text(row.locator(".rulebook-pc-injuries"), step.injuries,
                     f"{step.who}'s injuries in the turn order")
        _expect_text(row.locator(".rulebook-pc-state"), step.state,
                     f"{step.who}'s Shock state in the turn order")
        _expect_text(row.locator("td").nth(4), step.day, f"{step.who}'s record day")

    def shoot(r: Reader) -> None:
        open_panel(r, "Missile shot")
        r.pick(missile.get_by_label("Shooter", exact=True), shooter)
        r.pick(missile.get_by_label("Target", exact=True), target)
        r.commit(missile.get_by_label("Range (ft)"), str(PC_RANGE_FT))
        r.typed_dice(missile, PC_SHOT, name="shot")
        _expect_text(missile.locator(".rulebook-pc-fight-result"), shot.outcome,
                     "the shot's result")
        r.click(missile.get_by_role("button", name=f"Write it into {shot.who}'s record"))
        check_row(shot, missile.locator(".rulebook-pc-fight-result"), "shot")

    def exchange(r: Reader) -> None:
        r.click(order.get_by_role("button", name="Next turn"))
        attacker = next(n for n in (shooter, target) if n != blow.who)
        _expect_contains(order, f"{attacker} acts", "the turn order's acting line")
        open_panel(r, "Melee exchange")
        r.pick(melee.get_by_label("Attacker", exact=True), attacker)
        r.pick(melee.get_by_label("Defender", exact=True), blow.who)
        r.typed_dice(melee, PC_MELEE, name="exchange")
        _expect_text(melee.locator(".rulebook-pc-fight-result"), blow.outcome,
                     "the melee exchange's result")
        r.click(melee.get_by_role("button", name=f"Write it into {blow.who}'s record"))
        check_row(blow, melee.locator(".rulebook-pc-fight-result"), "melee exchange")

    def heal(r: Reader) -> None:
        open_panel(r, "Shock and healing")
        r.pick(after.get_by_label("Fighter", exact=True), day.who)
        r.pick(after.get_by_label("Roll for", exact=True),
               "Treatment Roll (the injury picked)")
        # No healer (Physician EML 0): no die is read, so Roll is the one press.
        r.click(after.get_by_role("button", name="Roll", exact=True))
        _expect_contains(after.locator(".rulebook-pc-fight-after-result"), f"{day.who}: ",
                         "the Treatment Roll's result")
        r.pick(after.get_by_label("Roll for", exact=True), "One day of healing")
        r.typed_dice(after, PC_HEAL_DAY)
        check_row(day, after.locator(".rulebook-pc-fight-after-result"), "day of healing")

    loops = [counted(reader, "percentile", GOAL_PERCENTILE, 1, shoot)]
    for name, run in (("percentile melee", exchange), ("percentile healing", heal)):
        if not loops[-1].checked:
            loops.append(Loop(name, why="not run: the loop before it failed"))
            continue
        loops.append(counted(reader, name, None, None, run))
    return loops


# --------------------------------------------------------------------- running it

def run_all(browser, book_url: str) -> list[Loop]:
    """Every loop, each system in a fresh browser context (its first-visit roster)."""
    loops = []
    for go in (_vl_lines, percentile_loops, *_more_systems()):
        context = browser.new_context(viewport={"width": 1280, "height": 1600})
        context.route("**/*", lambda route: route.continue_()
                      if route.request.url.startswith(("http://127.0.0.1", "data:", "blob:"))
                      else route.abort())
        try:
            loops += go(context.new_page(), book_url)
        finally:
            context.close()
    return loops


def _more_systems() -> list[Callable]:
    """The loops of the other systems, each in its own module ``loop_<system>.py`` beside this
    one, exposing ``loops(page, book_url) -> list[Loop]`` (issue 22 item 5)."""
    import importlib
    found = []
    for path in sorted(HERE.glob("loop_*.py")):
        found.append(importlib.import_module(path.stem).loops)
    return found


def _vl_lines(page, book_url: str) -> list[Loop]:
    loop, before = vl_loop(page, book_url)
    loop.notes.append(f"  (before it, once a fight: the roster rolled onto the Count, "
                      f"{before} interactions)")
    return [loop]


def main() -> int:
    from playwright.sync_api import sync_playwright

    port = voila_process.free_port()
    base = f"http://127.0.0.1:{port}"
    log_path = Path(f"/tmp/table_loop_voila_{port}.log")
    with open(log_path, "w") as log:
        proc = voila_process.start(voila_command("127.0.0.1", port, ROOT / "book"),
                                   voila_env(ROOT), log, base + "/", seconds=120)
        if proc is None:
            print(f"table_loop: Voilà did not start (log: {log_path})")
            return 1
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                try:
                    loops = run_all(browser, base + "/voila/render")
                finally:
                    browser.close()
        finally:
            voila_process.stop(proc)
    for loop in loops:
        print(loop.line())
        for note in loop.notes:
            print(note)
    failed = [loop for loop in loops if not loop.checked]
    for loop in failed:
        print(f"FAILED loop {loop.system}: {loop.why}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
