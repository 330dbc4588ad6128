"""Flight, pushes and the Skill and Tactic cards that move planes, over real positions: seeded games
(four players, the 7x7 air show) are played by random legal moves, and wherever a move or a card is
offered it is played on a copy and the air show after it is compared with the rulebook's account,
worked out here from the air show before it:

- "move the plane forward one space in the direction it is facing, having first (optionally) turned
  it 45 degrees" (Flight Checklist, 2b);
- "If a plane moves into a space occupied by another plane, then it pushes that plane ... one space in
  the direction that the pushed plane is facing" and so on down the chain (Chained Manoeuvres);
- "if your plane is on the outer edge of the Air Show ... and is forced out ... it is returned to your
  hangar"."""
from __future__ import annotations

import copy
import re

from rulewright.interpreter.testing import offers, positions

from .helpers import game

SIZE = 7
COMPASS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")          # clockwise, 45 degrees apart
STEPS = {"N": (1, 0), "NE": (1, 1), "E": (0, 1), "SE": (-1, 1), "S": (-1, 0), "SW": (-1, -1), "W": (0, -1),
         "NW": (1, -1)}


def step(x, heading, size=SIZE):
    """The next space along a heading (row A at the bottom, column 1 at the left), None off the show."""
    dr, dc = STEPS[heading]
    row, col = ord(x[0]) - ord("A") + dr, int(x[1:]) + dc
    return f"{chr(ord('A') + row)}{col}" if 0 <= row < size and 1 <= col <= size else None


def turned(heading, eighths):
    return COMPASS[(COMPASS.index(heading) + eighths) % 8]


class Show:
    """The air show as the rulebook tells it: planes by space, hangars by owner."""

    def __init__(self, st):
        self.air = {x: dict(p) for x, p in st.vars["air"].items() if p is not None}
        self.hangar = [list(h) for h in st.vars["hangar"]]
        self.mover = st.to_move()[0]
        self.size = 5 if len(self.hangar) == 2 else SIZE       # Appendix A: the 5x5 air show for two

    def enter(self, plane, at):
        """A plane arrives at ``at`` (None: off the show, home to its hangar), pushing any plane there
        one space along that plane's own heading, and so on. Returns how many planes moved."""
        moved = set()
        while plane is not None:
            moved.add(plane["id"])
            if at is None:
                self.hangar[plane["owner"] - 1].append(plane["id"])
                return len(moved)
            plane, self.air[at] = self.air.get(at), plane
            if plane is not None:
                at = step(at, plane["heading"], self.size)
        return len(moved)

    def fly(self, x, heading):
        return self.enter(dict(self.air.pop(x), heading=heading), step(x, heading, self.size))

    def turn(self, x, heading):
        """The plane at ``x`` turned to ``heading``, in place."""
        self.air[x] = dict(self.air[x], heading=heading)

    def where(self, pid):
        """The space of the plane with this id, None if it is in a hangar."""
        return next((x for x, plane in self.air.items() if plane["id"] == pid), None)

    def take_off(self, owner, heading):
        """The first plane of ``owner``'s hangar, out of it and facing ``heading``."""
        return {"id": self.hangar[owner - 1].pop(0), "owner": owner, "heading": heading}

    def same_as(self, st):
        return ({x: p for x, p in st.vars["air"].items() if p is not None}, st.vars["hangar"]) == \
            (self.air, self.hangar)


def each_offer(pattern, seeds=range(6), each=2):
    """Positions of four-player seeded games where a legal move matches ``pattern``."""
    return positions(game(4), offers(pattern), seeds=seeds, each=each)


def _at_the_edge(st):
    """The player to move may move a plane, and one of theirs could fly off the show."""
    if "move a plane" not in [m.text for m in st.legal_moves()]:
        return False
    mine = [(x, p["heading"]) for x, p in st.vars["air"].items() if p is not None and p["owner"] == st.to_move()[0]]
    return any(step(x, turned(h, k)) is None for x, h in mine for k in (-1, 0, 1))


def test_move_turns_at_most_45_degrees_then_flies_one_space():
    """Flight Checklist, 2b, the chained manoeuvres and the clouds, on every "move" a player could make
    at the positions found: the headings offered are the plane's own and 45 degrees either side, and
    each flight lands, pushes a chain or leaves the show for the hangar as told above."""
    seen = set()
    for found in positions(game(4), _at_the_edge, seeds=range(4), each=1):
        st = found.state
        st.apply("move a plane")
        for move in st.legal_moves():
            x, heading = move.text.split()[1:]
            assert heading in {turned(st.vars["air"][x]["heading"], k) for k in (-1, 0, 1)}, move.text
            show, after = Show(st), st.clone()
            planes = show.fly(x, heading)
            after.apply(move)
            assert show.same_as(after), (found, move.text)
            # the turn's longest chain: the most planes one manoeuvre moved, each plane once
            assert after.vars["longest_chain"] == max(st.vars["longest_chain"], planes), (found, move.text)
            seen.add("chain" if planes > 1 else "home" if step(x, heading) is None else "flies")
    assert seen == {"flies", "chain", "home"}, seen


def _card_flights(card, fly, *patterns, some=3):
    """Play ``card`` at real positions where it is offered, then each of its choices matching the first
    of ``patterns``, and for each, ``some`` of the next choice's (an empty space and spaces with a plane),
    and so on; ``fly(show, *choices)`` tells what the rulebook has the card do. The card is played "in
    addition to the two actions" (the actions left are as before) and is the turn's one card (none is
    offered after it). Returns what ``fly`` saw."""
    seen = set()
    for found in each_offer(f"^play {card}$"):
        st = found.state
        actions = st.vars["actions_left"]
        st.apply(f"play {card}")
        for after, choices in _choices(st, patterns, some):
            show = Show(st)
            seen.add(fly(show, *choices))
            assert show.same_as(after), (found, card, choices)
            if after.step == "perform stunt":
                assert after.vars["actions_left"] == actions
                assert "play a Skill and Tactic card" not in [m.text for m in after.legal_moves()]
    return seen


def _choices(st, patterns, some, made=()):
    """(the state after, the texts chosen) for each way through the choices matching ``patterns``."""
    if not patterns:
        yield st, made
        return
    for move in _matching(st, patterns[0], None if not made else some):
        after = st.clone()
        after.apply(move)
        yield from _choices(after, patterns[1:], some, made + (move.text,))


def _matching(st, pattern, some=None):
    """The legal moves matching ``pattern``; with ``some``, that many: one naming an empty space and
    the others spaces with a plane, where the plane arriving pushes."""
    moves = [m for m in st.legal_moves() if re.match(pattern, m.text)]
    if some is None:
        return moves
    air = st.vars["air"]
    taken = [m for m in moves if air.get(m.text.split()[-1]) is not None]
    return taken[:some - 1] + [m for m in moves if m not in taken][:1]


def test_move_rival_plane_pushes_along_the_way():
    """Move Rival Plane: "Fly one rival plane one space straight along its heading", pushing on."""
    def fly(show, text):
        x, heading = text.split()[1:]
        assert heading == show.air[x]["heading"]
        return show.fly(x, heading) > 1
    assert _card_flights("Move Rival Plane", fly, r"^move ") == {False, True}


def test_double_speed_flies_two_spaces_and_out_of_the_air_show():
    """Double Speed: the plane flies one space, then one more along its heading, if still in the show."""
    def fly(show, text):
        x, heading = text.split()[1:3]
        pid = show.air[x]["id"]
        show.fly(x, heading)
        now = show.where(pid)
        if now is None:
            return "home"
        show.fly(now, show.air[now]["heading"])
        return "home" if show.where(pid) is None else "flies"
    assert _card_flights("Double Speed", fly, r"^fly ") == {"flies", "home"}


def test_loop_the_loop_flies_backwards():
    """Loop the Loop: "Fly one of your planes one space backwards, towards its tail", its heading kept."""
    def fly(show, text):
        x = text.split()[1]
        plane = show.air.pop(x)
        behind = step(x, turned(plane["heading"], 4))
        # the move's text names the space behind, or the hangar the plane leaves the show for
        assert text.endswith(f"back to {behind}" if behind else "back off the air show to its hangar")
        planes = show.enter(plane, behind)
        return "home" if behind is None else "chain" if planes > 1 else "flies"
    assert _card_flights("Loop the Loop", fly, r"^loop ") >= {"flies", "chain"}


def test_recall_any_plane():
    """Recall any Plane: the plane chosen, anyone's, goes back to its owner's hangar."""
    def fly(show, text):
        plane = show.air.pop(text.split()[1])
        show.enter(plane, None)                     # off the show: home to its owner's hangar
        return plane["owner"]
    assert len(_card_flights("Recall any Plane", fly, r"^recall ")) > 1      # own and rivals' planes


def test_swap_any_two_planes():
    """Swap any Two Planes: the two planes chosen, anyone's, change places, each keeping its heading."""
    def fly(show, first, second):
        x, y = first.split()[1], second.split()[1]
        show.air[x], show.air[y] = show.air[y], show.air[x]
        return show.air[x]["owner"] == show.air[y]["owner"]
    assert _card_flights("Swap any Two Planes", fly, r"^swap ", r"^with ") == {False, True}


def test_encounter_a_tailwind_into_an_occupied_space():
    """Encounter a Tailwind: one of your planes lifted and put on any other space, its heading kept; a
    plane already there is pushed on as in a chain."""
    def fly(show, first, second):
        plane = show.air.pop(first.split()[1])
        return show.enter(plane, second.split()[-1]) > 1
    assert _card_flights("Encounter a Tailwind", fly, r"^lift ", r"^put it at ") == {False, True}


def test_dispatch_a_plane_without_rolling():
    """Dispatch a Plane: a plane from your hangar, facing the heading you choose (no roll of the die),
    on the space you choose, pushing a plane there on."""
    def fly(show, first, second):
        p = show.mover
        plane = show.take_off(p, first.split()[-1])
        return show.enter(plane, second.split()[-1]) > 1
    assert _card_flights("Dispatch a Plane", fly, r"^dispatch facing ", r"^place at ", some=2) == {False, True}


def test_adjust_and_move_a_rival_plane():
    """Adjust AND Move a Plane: a rival's plane turned at most 45 degrees and flown one space on."""
    def fly(show, text):
        x, heading = text.split()[1:]
        assert show.air[x]["owner"] != show.mover
        assert heading in {turned(show.air[x]["heading"], k) for k in (-1, 0, 1)}
        return show.fly(x, heading) > 1
    assert False in _card_flights("Adjust AND Move a Plane", fly, r"^move ")


def test_move_two_planes_moves_two_different_planes():
    """Move Two Planes: one of your planes flown (turned at most 45 degrees), then another of yours."""
    def fly(show, first, second):
        (x, heading), (y, other) = first.split()[1:], second.split()[1:]
        pid = show.air[x]["id"]
        show.fly(x, heading)
        assert show.where(pid) != y and show.air[y]["owner"] == show.mover
        assert other in {turned(show.air[y]["heading"], k) for k in (-1, 0, 1)}
        return show.fly(y, other) > 1
    assert False in _card_flights("Move Two Planes", fly, r"^move ", r"^move ")


def test_intercept_orders_moves_a_rival_or_resets_your_own():
    """Intercept Orders: a rival's plane flown one space along its heading, or one of yours turned to
    any new heading and flown one space."""
    def rival(show, _branch, text):
        x, heading = text.split()[1:]
        assert show.air[x]["owner"] != show.mover and heading == show.air[x]["heading"]
        return show.fly(x, heading) > 1

    def own(show, _branch, reset, face):
        x, heading = reset.split()[1], face.split()[1]
        assert show.air[x]["owner"] == show.mover and heading != show.air[x]["heading"]
        return show.fly(x, heading) > 1
    assert _card_flights("Intercept Orders", rival, r"^move a rival's plane$", r"^move ")
    assert _card_flights("Intercept Orders", own, r"^reset and move your own plane$", r"^reset ", r"^face ")


def _dispatched(show, after, text):
    """The rulebook's dispatch on ``show``: the first plane of the mover's hangar enters the space the
    move ``text`` names, facing the compass roll, pushing a plane there on. The roll is read on the
    plane where it stands after (or, pushed home by a chain that came back, any heading the die has).
    Returns how many planes moved, None if no roll gives the air show ``after``."""
    p, at = show.mover, text.split()[-1]
    pid = show.hangar[p - 1][0]
    rolls = [plane["heading"] for plane in after.vars["air"].values() if plane is not None and plane["id"] == pid]
    for heading in rolls or COMPASS:
        trial = copy.deepcopy(show)
        planes = trial.enter(trial.take_off(p, heading), at)
        if trial.same_as(after):
            show.air, show.hangar = trial.air, trial.hangar
            return planes
    return None


def test_dispatch_two_planes_rolls_for_each_or_dispatches_the_only_one():
    """Dispatch Two Planes: "Dispatch two planes from your hangar one after the other, rolling the
    wind for each" (one, with one plane in the hangar), each on the space chosen, pushing on."""
    seen = set()
    for found in each_offer("^play Dispatch Two Planes$", seeds=range(4)):
        st = found.state
        actions, p = st.vars["actions_left"], st.to_move()[0]
        st.apply("play Dispatch Two Planes")
        for first in _matching(st, r"^place at ", 2):
            after = st.clone()
            after.apply(first)
            assert _dispatched(Show(st), after, first.text), (found, first.text)
            second_asked = any(m.text.startswith("place at ") for m in after.legal_moves())
            assert second_asked == (len(after.vars["hangar"][p - 1]) > 0)   # a plane pushed out is home again
            if not second_asked:
                seen.add("the only one")
                continue
            for second in _matching(after, r"^place at ", 2):
                done = after.clone()
                done.apply(second)
                planes = _dispatched(Show(after), done, second.text)
                assert planes, (found, first.text, second.text)
                seen.add("pushes" if planes > 1 else "two")
                if done.step == "perform stunt":       # played in addition to the two actions
                    assert done.vars["actions_left"] == actions
    assert seen == {"two", "pushes", "the only one"}, seen


def test_dispatch_and_move_planes_dispatches_then_may_fly_one():
    """Dispatch AND Move Planes: "Dispatch a plane (roll the wind), then you may fly any one of your
    planes one space" (turned at most 45 degrees first), or none."""
    seen = set()
    for found in each_offer("^play Dispatch AND Move Planes$"):
        st = found.state
        st.apply("play Dispatch AND Move Planes")
        for place in _matching(st, r"^place at ", 2):
            placed = st.clone()
            placed.apply(place)
            show = Show(st)
            assert _dispatched(show, placed, place.text), (found, place.text)
            moves = [m.text for m in placed.legal_moves()]
            mine = {x: plane["heading"] for x, plane in placed.vars["air"].items()
                    if plane is not None and plane["owner"] == show.mover}
            assert moves[-1] == "no move"
            assert sorted(moves[:-1]) == sorted(f"move {x} {h}" for x, heading in mine.items()
                                                for h in {turned(heading, k) for k in (-1, 0, 1)})
            for text in moves[:1] + moves[-1:]:
                after, flown = placed.clone(), Show(placed)
                after.apply(text)
                if text != "no move":
                    flown.fly(*text.split()[1:])
                seen.add(text.split()[0])
                assert flown.same_as(after), (found, place.text, text)
    assert seen == {"move", "no"}, seen


def test_fig2_a_plane_placed_on_one_in_the_clouds_forces_it_out_to_its_hangar():
    """Fig. 2 (its picture is lost; the same rule at real positions): "Placing another plane in air
    spaces A or B would force either plane out of the Air Show to be returned to their hangar as they
    are 'in the clouds'": wherever a plane is dispatched onto a plane that faces out of the air show,
    that plane goes home and the new one takes its space, a chain of two."""
    seen = 0
    for found in each_offer("^dispatch a plane$", seeds=range(2), each=4):
        st = found.state
        st.apply("dispatch a plane")
        air = st.vars["air"]
        for move in st.legal_moves():
            x = move.text.split()[-1]
            plane = air.get(x)
            if plane is None or step(x, plane["heading"]) is not None:
                continue                                  # not a plane in the clouds facing out
            after = st.clone()
            after.apply(move)
            assert _dispatched(Show(st), after, move.text) == 2, (found, move.text)
            assert after.vars["hangar"][plane["owner"] - 1][-1] == plane["id"]
            assert after.vars["air"][x]["owner"] == st.to_move()[0]
            seen += 1
    assert seen
