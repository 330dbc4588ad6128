"""Magnificent Flying Machines: what the tests do at the positions seeded races reach (real moves), shared
by several test modules: landings played out and the points they score, cad symbols played in the
reaction windows before tests and answered, Official Scrutiny before a test, the ends of turns, and
failures accepted. The positions come from helpers (``quick_race``, ``short_positions``); each function
is cached or cheap, so that the tests sharing it play each race once."""
from __future__ import annotations

import copy
import functools

from rulewright.interpreter.testing import positions, texts

from .helpers import action_choices, arrival_points, attempt, cad_offers, cad_windows, card_positions, decline, \
    deliverable, first_to_land_points, game, landing_positions, let_the_test_go_ahead, machine_tested, mover_ship, \
    others, play_from_hand, race, settle, ship, short_positions, test_frame, title_of


def landed(pos, dice):
    """The machine to move at ``pos`` lands under each of these seeds of the dice, the test's reaction window
    let go ahead and a failure accepted: (machine before, the dice of the failed test or None when it
    passed, state before, state after) each."""
    s = copy.deepcopy(mover_ship(pos.state))
    for seed in dice:
        st = pos.state.clone()
        st.rng.seed(seed)
        st.apply("land")
        let_the_test_go_ahead(st)
        test = attempt(st)
        faces = list(test["faces"]) if test is not None and st.vars["testing"] == s["id"] else None
        if faces is not None:
            st.apply("accept the failure")
        yield s, faces, pos.state, st


@functools.lru_cache(maxsize=None)
def landings(dice=(0, 5)):
    """Each of landing_positions ``landed`` under two seeds of the dice (0 and 5 give safe, bumpy and crash
    landings)."""
    return [out for pos in landing_positions() for out in landed(pos, dice)]


# What a pilot's landing may score, for pilot_landings.
SCORES = {"first to land": lambda st, s: first_to_land_points(st, s) > 0,
          "a passenger": lambda st, s: len(deliverable(st, s)[1]) > 0}


@functools.lru_cache(maxsize=None)
def pilot_landings(pilot, scores, seed, race="quick_start", each=3):
    """The first ``each`` positions of a seeded race (3 players, real moves) where ``pilot``'s machine may land
    and would score ``scores`` (a key of SCORES) by it, each ``landed`` under six seeds of the dice."""
    def where(st):
        flying = [s for s in st.vars["ships"] if s["pilot"] == pilot and s["alt"] > 0]
        return bool(flying) and st.to_move() == [flying[0]["owner"]] and SCORES[scores](st, flying[0]) \
            and "land" in texts(st)
    return [out for pos in positions(game(3, race=race), where, seeds=[seed], each=each)
            for out in landed(pos, range(6))]


def extra_points(pilot, scores, seed, race="quick_start", each=3):
    """At each safe landing of ``pilot_landings``: what it would score ``scores`` for, and the points the
    machine scored beyond what another pilot would (first to land and the arrival's points, computed by
    the game page's tables)."""
    out = []
    for s, faces, st, after in pilot_landings(pilot, scores, seed, race, each):
        if faces is None:
            anyone = dict(s, pilot="another pilot")
            scored = ship(after, s["owner"])["vp"] - s["vp"]
            more = scored - first_to_land_points(st, anyone) - arrival_points(st, anyone)
            out.append((first_to_land_points(st, anyone), deliverable(st, s)[1], more))
    assert out, (pilot, scores, seed)
    return out


def comben_first_landings():
    """Captain Matthew Comben first to land in a seeded race (standard, seed 9, the only one of seeds 0-11
    where he flies and lands first; found once): (first-to-land points, passengers, points more)."""
    return extra_points("Captain Matthew Comben", "first to land", 9, "standard", each=5)


def karishma_passengers():
    """Karishma Khana delivering a passenger in a seeded race (quick start, seed 7, found once over the
    quick-start seeds where she flies; the one such landing of the race): (first-to-land points,
    passengers, points more)."""
    return extra_points("Karishma Khana", "a passenger", 7, each=1)


def dice_against(pos, answers, then=decline, seeds=range(12)):
    """The dice the test of ``pos`` (a reaction window) rolls when ``answers`` ((player, text) each) are
    played and everyone else declines (``then``), beside the dice it rolls when everybody declines, for the
    first seed of the dice where both fall short (a test under way shows its dice): (dice with the answers,
    dice without, the state after the answers), or None when no seed makes both fall short."""
    testing = pos.state.vars["testing"]
    def short_dice(st):
        a = attempt(st)
        return len(a["faces"]) if a is not None and st.vars["testing"] == testing else None
    for seed in seeds:
        plain, answered = pos.state.clone(), pos.state.clone()
        for st in (plain, answered):
            st.rng.seed(seed)
        decline(plain)
        for q, text in answers:
            answered.apply(text, player=q)
        then(answered)
        if short_dice(plain) is not None and short_dice(answered) is not None:
            return short_dice(answered), short_dice(plain), answered
    return None


TEST_ACTIONS = ("take off", "fly on", "land", "perform a trick manoeuvre")   # the actions that take a test


def asked_in_window(st):
    """The players asked in the reaction window open now, with the answers offered to each."""
    return {q: texts(st, q) for q in st.to_move()} if st.pending is not None and st.pending.window else {}


@functools.lru_cache(maxsize=None)
def scrutiny_windows():
    """Each position of seeded quick-start races (card_positions) where the player to move may play Official
    Scrutiny, then a test: the first test action offered taken with and without the card played first:
    (who is asked what in the window before the test without it, the same with it, the machine after
    playing it)."""
    out = []
    for pos in card_positions("Official Scrutiny"):
        plain, watched = pos.state.clone(), pos.state.clone()
        play_from_hand(watched, "Official Scrutiny")
        action = next((t for t in TEST_ACTIONS if t in texts(watched)), None)
        if action is not None:
            machine = copy.deepcopy(mover_ship(watched))
            plain.apply(action)
            watched.apply(action)
            out.append((asked_in_window(plain), asked_in_window(watched), machine))
    return out


ANSWERS_TO_CADS = ("An Honourable Pilot", "This Means War")


def cad_windows_of(offering, tester_holds=None):
    """The cad_windows where ``offering`` players may play a cad symbol and the tester holds a card titled
    ``tester_holds`` (None: neither card of ANSWERS_TO_CADS, nothing to answer with): (position, the cad
    symbols offered by player in clockwise order from the tester, the tester's card or None)."""
    for pos in cad_windows():
        offered = cad_offers(pos.state)
        clockwise = {q: offered[q] for q in others(pos.state, machine_tested(pos.state)["owner"]) if offered.get(q)}
        hand = pos.state.vars["hand"][machine_tested(pos.state)["owner"] - 1]
        answers = [c for c in hand if title_of(c) in ANSWERS_TO_CADS]
        mine = [c for c in answers if title_of(c) == tester_holds]
        if len(clockwise) == offering and (mine if tester_holds else not answers):
            yield pos, clockwise, (mine or [None])[0]


def cad_card(text):
    """The card a cad symbol's answer text discards, or None (a Box of Tricks charge, Sir Archibald's)."""
    return text[len("discard "):-len(" for its cad symbol")] if text.startswith("discard ") else None


def all_cads(pos, cads, then=decline):
    """Every player offering a cad symbol at ``pos`` plays one, the last clockwise first: ``dice_against``."""
    return dice_against(pos, [(q, cads[q][0]) for q in reversed(list(cads))], then)


def cads_against_one_test():
    """8.2 "Only one cad symbol may be applied to any single test", checked where two players may play one
    (cad_windows_of): both played, the test rolls one die fewer than unanswered, and the second clockwise
    keeps the card. Returns the windows checked."""
    seen = 0
    for pos, cads, _ in cad_windows_of(2):
        found = all_cads(pos, cads)
        if found:
            with_cads, without, st = found
            assert with_cads == without - 1, pos
            second = list(cads)[1]
            kept = cad_card(cads[second][0])
            before, after = pos.state.vars["hand"][second - 1], st.vars["hand"][second - 1]
            assert kept is None or after.count(kept) == before.count(kept)
            seen += 1
    return seen


def honoured_cads(offering):
    """An Honourable Pilot answering the first cad symbol where ``offering`` players may play one and the
    tester holds the card (cad_windows_of): all play one, the tester answers; the answer and the cad cards
    are discarded. Returns (dice with the cad symbols, dice unanswered) of each window; fails when none."""
    out = []
    for pos, cads, honour in cad_windows_of(offering, "An Honourable Pilot"):
        owner = machine_tested(pos.state)["owner"]
        found = all_cads(pos, cads, then=lambda st: decline(st, but=[(owner, "answer with " + honour)]))
        if found:
            with_cads, without, st = found
            played = [cad_card(cads[q][0]) for q in cads]
            assert honour in st.vars["discard"] and all(c in st.vars["discard"] for c in played if c), pos
            out.append((with_cads, without))
    assert out, offering
    return out


@functools.lru_cache(maxsize=None)
def turn_ends():
    """Each of action_choices with the turn ended: (the machine before, the turn's start, the luck supply
    before, the machine after). The turn's start is what the rules kept of the machine when its turn began
    (``start_vp``, ``start_at``, ``start_alt``)."""
    out = []
    for pos in action_choices():
        st = pos.state.clone()
        s = copy.deepcopy(mover_ship(st))
        start = next(f.locals for f in st.frames if "start_vp" in f.locals)
        start = {k: start[k] for k in ("start_vp", "start_at", "start_alt")}
        st.apply("end the turn")
        out.append((s, start, pos.state.vars["luck_supply"], ship(st, s["owner"])))
    return out


def catastrophic(s, k, faces):
    """3.3: an explosion among the dice of a failed test makes the failure catastrophic; the Armour Plating
    disregards one explosion, St Christopher makes any catastrophe a plain failure, Pierre DuPont a flying
    test's (the game page's card table)."""
    explosions = faces.count("Explosion") - ("Armour Plating" in s["equipment"])
    return explosions > 0 and "St Christopher" not in s["equipment"] \
        and not (k == "flying" and s["pilot"] == "Pierre DuPont")


@functools.lru_cache(maxsize=None)
def failures():
    """Every test of helpers.short_positions (real moves; not the final airfield's special actions) with the
    failure accepted: (the tester before, what the test was, the test (its kind and dice), the tester just
    after, the tester once a forced landing is played out)."""
    out = []
    for pos in short_positions():
        frame = test_frame(pos.state)
        if frame["special"]:
            continue
        s, test = copy.deepcopy(machine_tested(pos.state)), copy.deepcopy(attempt(pos.state))
        st = pos.state.clone()
        st.apply("accept the failure")
        now = copy.deepcopy(ship(st, s["owner"]))
        settle(st)
        out.append((s, frame["what"], test, now, ship(st, s["owner"])))
    return out
