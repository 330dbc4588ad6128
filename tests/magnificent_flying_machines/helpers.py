"""Scenario helpers for Magnificent Flying Machines: a quick-start game past its setup, a machine's
dashboard set by hand, and dice found by trying seeds of the game's generator (a test names the
outcome it needs, the helper finds a roll that gives it and plays the real moves)."""
from __future__ import annotations

import copy
import functools
import random

from rulewright.interpreter.testing import logs, mover, offers, positions, reach, refresh, shipped, sweep, texts

GAME = "magnificent-flying-machines"
COURSE = ["Starting Airfield", "Fields 2", "Town 3", "Water 4", "Mountain 5", "Middle Airfield",
          "Fields 7", "Town 8", "Water 9", "Mountain 10", "Final Airfield"]


def game(players=4, **options):
    return shipped(GAME, players, **options)


def ready(players=3, seed=1, **options):
    """A quick-start game whose first machine is about to choose its first action; every hand empty."""
    st = game(players, **options).new_state(seed=seed)
    for p in range(players):
        st.vars["hand"][p] = []
    refresh(st)
    st.drain_events()
    return st


def ship(st, p):
    """The machine of player ``p`` (one machine each)."""
    st = getattr(st, "state", st)
    return next(s for s in st.vars["ships"] if s["owner"] == p)


def dashboard(st, p, model, pilot="Jing Li", equipment=(), at=1, alt=0, **fields):
    """Player ``p``'s machine set by hand: its model, pilot (by default Jing Li, whose extra cargo
    slot changes nothing the tests look at), equipment (charges full), place; the hold empty."""
    s = ship(st, p)
    charges = {pilot: st.game.columns["charges"][pilot]}
    for e in equipment:
        charges[e] = st.game.columns["charges"][e]
    s.update({"model": model, "pilot": pilot, "equipment": list(equipment), "charges": charges, "at": at,
              "alt": alt, "parts": [], "cargo": [], "pax": [], **fields})
    return s


def weather(st, place, sky):
    st.vars["weather_at"][place - 1] = {"sky": sky, "up": True}


def others(st, p):
    n = st.game.player_count
    return [(p - 1 + k) % n + 1 for k in range(1, n)]


def until(st, moves, wanted, tries=3000):
    """The state after ``moves`` (texts, or callables of the state giving a text) for the first seed
    of the dice that makes ``wanted(state, log lines)`` true."""
    st = getattr(st, "state", st)
    for seed in range(tries):
        trial = st.clone()
        trial.rng.seed(seed)
        trial.drain_events()
        for m in moves:
            text = m(trial) if callable(m) else m
            if text is not None:
                trial.apply(text)
        lines = logs(trial)
        if wanted(trial, lines):
            return Tried(trial, lines)
    raise AssertionError("no roll gives the outcome wanted")


class Tried:
    """A state reached by ``until`` and the log lines of the moves that led to it."""

    def __init__(self, state, lines):
        self.state = state
        self.lines = lines

    def __getattr__(self, attr):
        return getattr(self.state, attr)


def listed_items(text):
    """The items of a text the rules wrote with listed(): "A, B and C" (faces have no spaces)."""
    if text == "nothing":
        return []
    head, _, last = text.rpartition(" and ")
    return (head.split(", ") if head else []) + [last]


def rolled(lines):
    """(dice, symbols got, symbols needed) of each test in the log lines."""
    out = []
    for line in lines:
        if " rolls " in line and " dice for " in line:
            n = int(line.split(" rolls ")[1].split()[0])
            got, need = line.rsplit(": ", 1)[1].split(" of ")
            out.append((n, int(got), int(need.split()[0])))
    return out


def maybe(text):
    """A move made only if it is legal then (a rescue declined only when the test failed)."""
    return lambda st: text if text in texts(st) else None


def next_turn(st):
    """The machine to move ends its turn (hands are empty, so nothing is discarded); the cards drawn
    go back to the deck, so that nobody reacts to the next machine's tests."""
    st.apply("end the turn")
    for hand in st.vars["hand"]:
        st.vars["deck"].extend(hand)
        hand.clear()
    refresh(st)
    st.drain_events()


def set_up(st, prefer=()):
    """Plays a standard, long or random set-up with real moves to the first action phase: each
    decision takes the first of ``prefer`` that is legal then, else the first legal move. Returns
    the moves made, as (player, text)."""
    made = []
    while "end the turn" not in texts(st):
        (p,) = st.to_move()
        offered = texts(st, p)
        move = next((m for m in prefer if m in offered), offered[0])
        made.append((p, move))
        st.apply(move, player=p)
    return made


# ---------------------------------------------------------------- positions reached by real moves
def mover_ship(st):
    """The machine of the one player to move (one machine each)."""
    return ship(st, mover(st))


KIT = "use the Damage Repair Kit"
KEEP_THE_KIT = r"^(?!use the Damage Repair Kit$)"   # steers the random players to keep it for the test


def holds_the_kit(st):
    """The player to move chooses what the machine does next (its turn's actions), holding the Kit."""
    if len(st.to_move()) != 1:
        return False
    s = mover_ship(st)
    return "Damage Repair Kit" in s["equipment"] and s["charges"]["Damage Repair Kit"] > 0 and \
        bool({"end the turn", "sign autographs"} & set(texts(st)))


@functools.lru_cache(maxsize=None)
def kit_positions(players, seed, most=100):
    """The first ``most`` positions of a seeded quick-start game where the machine to move holds the
    Damage Repair Kit and chooses its next action; the players keep the Kit to the end."""
    return list(positions(game(players), holds_the_kit, seeds=[seed], prefer=KEEP_THE_KIT, each=most))


def kit_with_damage():
    """Quick start, 4 players, seed 0, real moves: the Kit offered to a machine with damage on its
    gauge and in its scoring area."""
    return next(pos for pos in kit_positions(4, 0) if KIT in texts(pos.state) and mover_ship(pos.state)["gauge"] > 0
                and mover_ship(pos.state)["scored_damage"] > 0)


def attempt(st):
    """The test under way, as the rules hold it (their ``attempt`` record: kind ``k``, dice ``faces``,
    symbols ``got`` and ``need``), read from the running procedures; None when no test is under way."""
    st = getattr(st, "state", st)
    return next((f.locals["a"] for f in reversed(st.frames) if f.proc == "test" and "a" in f.locals), None)


def shows(face, k):
    """A die face shows the symbol of test kind ``k`` (faces are named by their symbols)."""
    return k.capitalize() in face.split("+")


class Race:
    """A seeded random race played to its end (game seed = agent seed, as ``positions`` plays): its final
    ``state``, its ``moves`` as (player, text), and each weather change card drawn at the end of a round
    with the weather before and after it: ``changes`` of (card, weather before, weather after, pile
    size before, pile size after)."""

    def __init__(self, players, seed, options):
        st = game(players, **dict(options)).new_state(seed=seed)
        rng, self.moves, self.changes = random.Random(seed), [], []
        while not st.is_over():
            sky, drawn, pile = _weather(st), list(st.vars["weather_discard"]), len(st.vars["weather_pile"])
            move = rng.choice(st.legal_moves())
            self.moves.append((move.player, move.text))
            st.apply(move)
            if st.vars["weather_discard"] != drawn:
                self.changes.append((st.vars["weather_discard"][-1], sky, _weather(st), pile,
                                     len(st.vars["weather_pile"])))
        self.state = st


def _weather(st):
    return [dict(w) if w else None for w in st.vars["weather_at"]]


@functools.lru_cache(maxsize=None)
def race(players, seed, **options):
    """The Race of ``players`` and ``seed`` (the game's options as keywords), played once per process;
    its state is shared: clone it before playing on."""
    return Race(players, seed, tuple(sorted(options.items())))


def turns_to_the_end(players, seed, **options):
    """A seeded race (real moves) from the first moment its end is near (``ending``) to the end: the
    state at that moment, and the machines (ids) whose turns come one after another until the game is over."""
    def machine(st):
        return st.vars["ships"][st.vars["current"] - 1]["id"]
    pos = reach(game(players, **options), lambda st: st.vars["ending"], seeds=[seed])
    st, rng = pos.state.clone(), random.Random(seed)
    seen = [machine(st)]
    while not st.is_over():
        st.apply(rng.choice(st.legal_moves()))
        if machine(st) != seen[-1]:
            seen.append(machine(st))
    return pos.state, seen


# ---------------------------------------------------------------- the seeded quick-start races, each played once
# The questions the tests ask of the seeded quick-start races of three players (seeds 0-5), with the most
# positions a race keeps for each (None: all). Each race is played once (the kit's ``sweep``) and every
# answer kept, instead of the race being played again for each question.
QUICK_QUESTIONS = {
    "cards in one's own turn": (lambda st: "play a card" in texts(st), None),
    "boost cards": (lambda st: "play a boost card" in texts(st), None),
    "landings that score": (lambda st: "land" in texts(st) and scores_on_arrival(st), None),
    "cad windows": (lambda st: any(cad_offers(st).values()), 25),
    "action choices": (offers(r"^end the turn$"), 30),
    "trick manoeuvres": (offers(r"^perform a trick manoeuvre$"), 6),
}


@functools.lru_cache(maxsize=None)
def quick_race(seed):
    """The answers to QUICK_QUESTIONS in the quick-start race of three players and ``seed`` (real moves)."""
    limits = {name: most for name, (_, most) in QUICK_QUESTIONS.items() if most is not None}
    return sweep(game(3), seed, {name: where for name, (where, _) in QUICK_QUESTIONS.items()}, limits)


def asked(question, seeds, where=None, each=None):
    """The positions of quick_race(seed) answering ``question`` where ``where(state)`` holds too, the first
    ``each`` of each race: what ``positions(game(3), ..., seeds, each=each)`` finds, without playing again."""
    found = []
    for seed in seeds:
        found += [pos for pos in quick_race(seed)[question] if where is None or where(pos.state)][:each]
    return found


def holds_card(title, also=lambda st: True):
    """A ``where``: the player to move may play cards in their own turn, holds a card titled ``title``,
    and ``also(state)`` holds."""
    def where(st):
        if "play a card" not in texts(st):
            return False
        return any(c.startswith(title + " (") for c in st.vars["hand"][mover(st) - 1]) and also(st)
    return where


@functools.lru_cache(maxsize=None)
def card_positions(title, also=None, seeds=(0, 1, 2), each=3):
    """Positions of seeded quick-start games (3 players, real moves) where ``holds_card(title, also)``
    holds, ``each`` a game."""
    return asked("cards in one's own turn", seeds, holds_card(title, also or (lambda st: True)), each)


def play_from_hand(st, title):
    """The player to move plays a card titled ``title`` from the hand in their own turn (the first such
    card offered); returns the card played, or None when none is offered."""
    st.apply("play a card")
    card = next((t[len("play "):] for t in texts(st) if t.startswith("play %s (" % title)), None)
    if card is not None:
        st.apply("play " + card)
    return card


def own_card_plays(title, playable):
    """Each real position (quick start, 3 players, seeds 0-2) where the player to move holds ``title``:
    the card is offered exactly when ``playable(machine)``; where it is, the machine before and after."""
    played = []
    for pos in card_positions(title):
        st = pos.state.clone()
        before = dict(ship(st, mover(st)))
        card = play_from_hand(st, title)
        assert (card is not None) == playable(before), pos
        if card is not None:
            played.append((before, ship(st, before["owner"])))
    assert played
    return played


def let_stand(st):
    """The target of a dirty trick asked whether to answer it lets it stand."""
    stand = [m for m in st.legal_moves() if m.text.startswith("let ") and m.text.endswith(" stand")]
    if stand:
        st.apply(stand[0])


def others_in(st, hit):
    """The other players' machines that ``hit(machine)`` holds for, by owner."""
    return {s["owner"] for s in st.vars["ships"] if s["owner"] != mover(st) and hit(s)}


def trick_at_each_target(title, then=None, hit=None, mixed=False):
    """Each real position (quick start, 3 players, seeds 0-2) where the player to move holds the dirty
    trick ``title`` and it has a target (with ``mixed``, and another machine it may not hit): the targets
    offered are the machines it hits (``hit``, by default HITS); played
    at each in turn (the target lets it stand, then ``then(state)`` plays the trickster's choices), the
    game before and the target before and after: (state before, target before, target after, state after)."""
    played, hit = [], hit or HITS[title]
    def where(st):
        hits = len(others_in(st, hit))
        return hits > 0 and (not mixed or hits < len(st.vars["ships"]) - 1)
    for pos in card_positions(title, where):
        st = pos.state.clone()
        p, wanted = mover(st), others_in(st, hit)
        card = play_from_hand(st, title)
        offered = [t for t in texts(st) if t.startswith("play %s against" % card)]
        assert {int(t.rsplit(" ", 1)[1]) for t in offered} == wanted, pos
        for text in offered:
            trial = st.clone()
            q = int(text.rsplit(" ", 1)[1])
            before = copy.deepcopy(ship(trial, q))
            trial.apply(text)
            let_stand(trial)
            if then:
                then(trial)
            assert card in trial.vars["discard"] and card not in trial.vars["hand"][p - 1]
            played.append((st, before, ship(trial, q), trial))
    assert played
    return played


SPECIAL_ACTIONS = ("make good (a take-off test)", "give a speech (a landing test)",
                   "give a flying lesson (a flying test)", "sign autographs")


@functools.lru_cache(maxsize=None)
def special_action_turns():
    """Every position of three seeded quick-start races (4 players, seeds 0-2, real moves) where a
    machine on the final airfield chooses its special action."""
    return list(positions(game(4), offers(r"^sign autographs$"), seeds=(0, 1, 2), each=40))


def let_the_test_go_ahead(st):
    """Every player asked in the reaction window before a test lets it go ahead."""
    while st.pending is not None and st.pending.window and "let the test go ahead" in texts(st):
        for q in st.to_move():
            st.apply("let the test go ahead", player=q)


WEATHER = {"Fine": (0, 0, 0), "Light Rain": (1, 0, 1), "Gusty Wind": (1, 1, 1), "Fog": (0, 1, 2),
           "Headwind": (0, 2, 0), "Thunderstorm": (2, 2, 2)}   # the weather tiles' takeoff, flying, landing symbols


def weather_symbols(st, s, k):
    """The symbols of test kind ``k`` that the weather over machine ``s`` adds (the game page's table),
    one of each kind fewer for Janu Rajan and for the Goggles."""
    w = st.vars["weather_at"][s["at"] - 1]
    ignored = (s["pilot"] == "Janu Rajan") + ("Goggles" in s["equipment"])
    return max(0, WEATHER[w["sky"]][("takeoff", "flying", "landing").index(k)] - ignored) if w else 0


def tried(pos, move, seeds=range(8)):
    """``move`` played at a real position under a few seeds of the dice (the reaction window before its
    test let go ahead): the machine to move before, and each state after."""
    before = copy.deepcopy(mover_ship(pos.state))
    for seed in seeds:
        st = pos.state.clone()
        st.rng.seed(seed)
        st.apply(move)
        let_the_test_go_ahead(st)
        yield before, st


@functools.lru_cache(maxsize=None)
def trick_positions():
    """Positions of three seeded quick-start races (3 players, real moves) where a machine may perform
    a trick manoeuvre, six a race."""
    return asked("trick manoeuvres", range(3))


# The machines each dirty trick may be played against (the game page's card table), by title.
HITS = {
    "Swap the Maps": lambda s: s["alt"] > 0 and s["at"] > 1 and not s["finished"],
    "Grumpy Passenger": lambda s: len(s["pax"]) > 0,
    "Sabotage": lambda s: not s["finished"],
    "Siphoned Fuel": lambda s: s["fuel"] > 0,
    "Pinched Parts": lambda s: len(s["parts"]) > 0,
    "Crosswind": lambda s: s["alt"] > 1,
}


def title_of(card):
    return card.split(" (")[0]


def trick_at_a_holder_of(answer):
    """A ``where``: the player to move may play cards in their own turn and holds a dirty trick that
    may be played against a machine whose owner holds ``answer`` (a card title)."""
    def where(st):
        if "play a card" not in texts(st):
            return False
        p = mover(st)
        holders = {q for q, hand in enumerate(st.vars["hand"], 1)
                   if q != p and any(title_of(c) == answer for c in hand)}
        return any(title_of(c) in HITS and holders & others_in(st, HITS[title_of(c)]) for c in st.vars["hand"][p - 1])
    return where


# ---------------------------------------------------------------- boost cards in a test that falls short
def short_holding(title):
    """A ``where``: a test of the player to move falls short, they may play a boost card, and they hold
    a card titled ``title``."""
    def where(st):
        return "play a boost card" in texts(st) and any(title_of(c) == title for c in st.vars["hand"][mover(st) - 1])
    return where


@functools.lru_cache(maxsize=None)
def boost_positions(title):
    """Positions of six seeded quick-start races (3 players, real moves) where ``short_holding(title)``."""
    return asked("boost cards", range(6), short_holding(title), each=2)


def boosts_played(title, seeds=range(4)):
    """The boost card ``title`` played in each test of boost_positions under a few seeds of the dice:
    (the test before, the test after or None once it has passed, the state after); where the card is
    not offered for the test, (the test before, None, None)."""
    for pos in boost_positions(title):
        for seed in seeds:
            st = pos.state.clone()
            st.rng.seed(seed)
            before = copy.deepcopy(attempt(st))
            p = mover(st)
            st.apply("play a boost card")
            card = next((t[len("play "):] for t in texts(st) if t.startswith("play %s (" % title)), None)
            if card is None:
                yield before, None, None
                break
            st.apply("play " + card)
            assert card in st.vars["discard"] and card not in st.vars["hand"][p - 1]
            yield before, attempt(st), st


def dice_added(title):
    """The dice a boost card added to the tests it was played in (those still short afterwards)."""
    return {len(after["faces"]) - len(before["faces"]) for before, after, _ in boosts_played(title)
            if after is not None and after["faces"][:len(before["faces"])] == before["faces"]}


def pinch_the_first_kind(st):
    """The trickster pinches the first kind of part offered, from inside when asked."""
    st.apply(next(t for t in texts(st) if t.startswith("pinch a ")))
    if "take one from inside" in texts(st):
        st.apply("take one from inside")


# ---------------------------------------------------------------- the dice of every test rolled
def test_frame(st):
    """The locals of the test under way (the rules' procedure ``test``), or None."""
    st = getattr(st, "state", st)
    return next((f.locals for f in reversed(st.frames) if f.proc == "test"), None)


def falls_short(st):
    """A test of a machine has fallen short: its player chooses a rescue."""
    return test_frame(st) is not None and "accept the failure" in texts(st)


def roll_of(st):
    """The test of a machine that has fallen short at ``st``: the machine (a copy), the tile's terrain, the
    test's kind, whether it is a final-airfield action, the dice rolled and whether a cad symbol took one."""
    frame, s = test_frame(st), machine_tested(st)
    tile = st.vars["course"][s["at"] - 1]
    return dict(machine=copy.deepcopy(s), terrain="Airfield" if "Airfield" in tile else tile.split()[0],
                k=frame["k"], special=frame["special"], dice=frame["n"], cad=frame["cad_played"])


KEPT_SHORT = 150   # the positions a race keeps for short_positions


@functools.lru_cache(maxsize=None)
def shortfalls(players, seed, course):
    """One pass over a seeded race (real moves): ``roll_of`` every test at the moment it falls short, and
    the first KEPT_SHORT of those positions."""
    found, kept = [], []
    for pos in positions(game(players, race=course), falls_short, seeds=[seed], each=10 ** 6):
        found.append(roll_of(pos.state))
        if len(kept) < KEPT_SHORT:
            kept.append(pos)
    return found, kept


def rolls(players, seed, course):
    """``roll_of`` every test of a seeded race (real moves) that fell short."""
    return shortfalls(players, seed, course)[0]


KINDS = ("takeoff", "flying", "landing")
# The dice as the game page's tables give them: takeoff, flying, landing.
DASHBOARD_DICE = {"Monoplane": (4, 5, 4), "Biplane": (5, 4, 4), "Seaplane": (4, 4, 4), "Pusher Plane": (5, 4, 4),
                  "Triplane": (5, 5, 4), "Helicopter": (4, 3, 4)}
EXTRA_DICE = {"Amelia Skyfoot": (0, 2, 0), "Condesa Isabella Sanchez": (2, 0, 1), "Elinah Mwangi": (0, 0, 1),
              "Oberst Andre Schneider": (1, 0, 2), "Sikosi Akimoto": (1, 1, 1), "Finely Tuned Engine": (1, 0, 0),
              "New Wing Design": (0, 1, 0), "Superior Tyres": (0, 0, 1)}
ON_WATER = {"Seaplane": 2, "Floats": 2}   # more take-off and landing dice on water tiles
# seeded races with every dashboard and every card that adds dice
DICE_RACES = ((3, 1, "standard"), (3, 4, "standard"), (3, 5, "standard"), (6, 0, "quick_start"))


def dice_rolls(holds=lambda r: True):
    """The rolls of DICE_RACES whose machine ``holds(roll)`` (the model, pilot at the controls or an
    equipment card; see ``rolls``)."""
    return [r for players, seed, course in DICE_RACES for r in rolls(players, seed, course) if holds(r)]


def dice_expected(r, dashboards=DASHBOARD_DICE, extra=EXTRA_DICE, on_water=ON_WATER):
    """8.2: the dice a test rolls: the dashboard's, the pilot's and the equipment's extra dice (on water
    the Seaplane's and the Floats'), one fewer for each earlier test of its kind this turn and two for
    a trick manoeuvre passed (flying), and one fewer for a cad symbol."""
    s, i = r["machine"], KINDS.index(r["k"])
    dice = dashboards[s["model"]][i] + sum(extra.get(x, (0, 0, 0))[i] for x in [s["pilot"], *s["equipment"]])
    if r["k"] != "flying" and r["terrain"] == "Water":
        dice += sum(on_water.get(x, 0) for x in [s["model"], *s["equipment"]])
    dice = max(0, dice - (s["tested"][r["k"]] - 1) - (s["tricks"] if r["k"] == "flying" else 0))
    return max(0, dice - 1) if r["cad"] else dice


def assert_dice(holds, kinds=KINDS, **tables):
    """Every roll of DICE_RACES whose machine ``holds`` rolled the dice the tables give, and such rolls
    were seen in each of ``kinds``."""
    seen = set()
    for r in dice_rolls(holds):
        assert r["dice"] == dice_expected(r, **tables), r
        seen.add(r["k"])
    assert seen >= set(kinds), seen


def total_damage(s):
    """The damage markers of machine ``s``, on its fuel gauge and in its scoring area."""
    return s["gauge"] + s["scored_damage"]


def machine_tested(st):
    """The machine taking the test under way (or about to, in the reaction window before it)."""
    return next(t for t in st.vars["ships"] if t["id"] == st.vars["testing"])


@functools.lru_cache(maxsize=None)
def short_positions():
    """Positions of the seeded races of DICE_RACES and one more (3 players, standard, seed 7: the
    Improved Landing Gear, the Flying Manual) where a test has fallen short, up to 150 a race."""
    return [pos for race in DICE_RACES for pos in shortfalls(*race)[1]] + \
        list(positions(game(3, race="standard"), falls_short, seeds=[7], each=KEPT_SHORT))


def rescued(move, holds, then=None):
    """At each position of short_positions whose tester ``holds(machine)``: (whether ``move`` is
    offered, the tester and the test before, the state after the move (and ``then(state)``, the choices
    it asks for) or None where not offered,
    whether the same turn goes on after it: a test passed in a turn's last phase ends the turn, and
    the end of the turn changes the machine too)."""
    for pos in short_positions():
        s = machine_tested(pos.state)
        if not holds(s):
            continue
        before = (copy.deepcopy(s), copy.deepcopy(attempt(pos.state)))
        if move not in texts(pos.state):
            yield False, before[0], before[1], None, False
            continue
        st = pos.state.clone()
        st.apply(move)
        if then:
            then(st)
        yield True, before[0], before[1], st, st.vars["current"] == pos.state.vars["current"] and not st.is_over()


# ---------------------------------------------------------------- landings and deliveries
def terrain(st, at):
    """The terrain of tile ``at`` (1-based): fields, town, water, mountain or airfield."""
    return st.game.columns["kind"][st.vars["course"][at - 1]]


def destination(st, cargo):
    """The terrain a cargo token is delivered to (None: general cargo, delivered to the final airfield)."""
    return st.game.columns["destination"][cargo]


def deliverable(st, s):
    """(the special cargo, the passengers, the general cargo) machine ``s`` delivers on arriving at its
    tile: 10.2 special cargo on a tile of its terrain; 10.3 a passenger at a town or airfield after the
    tile it boarded at; 10.2.3 general cargo at the final airfield."""
    kind, final = terrain(st, s["at"]), s["at"] == len(st.vars["course"])
    return ([c for c in s["cargo"] if destination(st, c) == kind],
            [o for o in s["pax"] if kind in ("town", "airfield") and o < s["at"]],
            [c for c in s["cargo"] if final and destination(st, c) is None])


def arrival_points(st, s):
    """The points machine ``s`` (before landing, state ``st``) scores on arriving at its tile, as the game
    page's tables give them: each special cargo 3 and each general cargo its value (Hamish McTarn one more
    each), each passenger 2 (Karishma Khana 4), the National Flag 5 at the final airfield, and the highest
    placing marker left at the middle (once) and final airfields."""
    special, pax, general = deliverable(st, s)
    cargo = 3 * len(special) + sum(st.game.columns["value"][c] for c in general)
    cargo += (len(special) + len(general)) * (s["pilot"] == "Hamish McTarn")
    points = cargo + len(pax) * (4 if s["pilot"] == "Karishma Khana" else 2)
    final = s["at"] == len(st.vars["course"])
    points += 5 * (final and "National Flag" in s["equipment"])
    middle = s["at"] == (len(st.vars["course"]) + 1) // 2 and "middle" not in s["placed"]
    placing = st.vars["placing_final"] if final else st.vars["placing_middle"] if middle else []
    return points + max(placing, default=0)


def first_to_land_points(st, s):
    """6.5: the first-to-land points still on the tile (Captain Matthew Comben one more)."""
    marks = st.vars["first_marks"][s["at"] - 1]
    return marks + (marks > 0 and s["pilot"] == "Captain Matthew Comben")


def scores_on_arrival(st):
    """A ``where`` filter: the machine to move would score on landing where it is (first-to-land points,
    a delivery or a placing marker)."""
    s = mover_ship(st)
    return first_to_land_points(st, s) > 0 or arrival_points(st, s) > 0


@functools.lru_cache(maxsize=None)
def landing_positions():
    """The positions of three seeded quick-start races (3 players, seeds 0-2, real moves) where the machine
    to move may land and would score by it (``scores_on_arrival``)."""
    return asked("landings that score", range(3))


# ---------------------------------------------------------------- cad symbols in the reaction window before a test
DECLINES = ("let the test go ahead", "accept the cad symbol")


def decline(st, but=()):
    """Every player asked in a reaction window declines (lets the test go ahead, accepts a cad symbol, lets
    a dirty trick stand), but for the answers ``but`` ((player, text) each), given when offered."""
    for _ in range(10):
        if st.pending is None or not st.pending.window:
            return
        for q in st.to_move():
            offered = texts(st, q)
            answer = [text for who, text in but if who == q and text in offered]
            declines = [t for t in offered if t in DECLINES or (t.startswith("let ") and t.endswith(" stand"))]
            st.apply((answer or declines)[0], player=q)


def cad_offers(st):
    """The players asked in a reaction window just opened (nobody has answered yet), by player, with the cad
    symbols they may play."""
    if st.pending is None or not st.pending.window or st.pending.chosen:
        return {}
    return {q: [t for t in texts(st, q) if is_cad_answer(t)] for q in st.to_move()}


@functools.lru_cache(maxsize=None)
def cad_windows():
    """Positions of three seeded quick-start races (3 players, real moves) where a test's reaction window is
    open and another player may play a cad symbol against it, up to 25 a race."""
    return asked("cad windows", range(3))


def is_cad_answer(text):
    """An answer in a reaction window that plays a cad symbol (a card's, a Box of Tricks charge, Sir
    Archibald's)."""
    return text.endswith("for its cad symbol") or text in ("use a Box of Tricks charge",
                                                           "use Sir Archibald's cad symbol")


# ---------------------------------------------------------------- the end of a turn
@functools.lru_cache(maxsize=None)
def action_choices():
    """The first 30 positions of three seeded quick-start races (3 players, seeds 0-2, real moves) where the
    machine to move chooses its next action (it may end its turn)."""
    return asked("action choices", range(3))


# ---------------------------------------------------------------- failures accepted
def settle(st):
    """A test under way (a forced landing) played out: its reaction windows let go ahead, a failure accepted."""
    for _ in range(10):
        let_the_test_go_ahead(st)
        if "accept the failure" not in texts(st):
            return
        st.apply("accept the failure")


