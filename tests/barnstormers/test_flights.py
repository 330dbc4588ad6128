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

import re

from rulewright.interpreter.testing import offers, positions

from .helpers import game

SIZE = 7
COMPASS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")          # clockwise, 45 degrees apart
STEPS = {"N": (1, 0), "NE": (1, 1), "E": (0, 1), "SE": (-1, 1), "S": (-1, 0), "SW": (-1, -1), "W": (0, -1),
         "NW": (1, -1)}


def step(x, heading):
    """The next space along a heading (row A at the bottom, column 1 at the left), None off the show."""
    dr, dc = STEPS[heading]
    row, col = ord(x[0]) - ord("A") + dr, int(x[1:]) + dc
    return f"{chr(ord('A') + row)}{col}" if 0 <= row < SIZE and 1 <= col <= SIZE else None


def turned(heading, eighths):
    return COMPASS[(COMPASS.index(heading) + eighths) % 8]


class Show:
    """The air show as the rulebook tells it: planes by space, hangars by owner."""

    def __init__(self, st):
        self.air = {x: dict(p) for x, p in st.vars["air"].items() if p is not None}
        self.hangar = [list(h) for h in st.vars["hangar"]]

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
                at = step(at, plane["heading"])
        return len(moved)

    def fly(self, x, heading):
        plane = self.air.pop(x)
        plane["heading"] = heading
        return self.enter(plane, step(x, heading))

    def same_as(self, st):
        return ({x: p for x, p in st.vars["air"].items() if p is not None}, st.vars["hangar"]) == \
            (self.air, self.hangar)


def each_offer(pattern, seeds=range(6), each=2):
    """Positions of four-player seeded games where a legal move matches ``pattern``."""
    return positions(game(4), offers(pattern), seeds=seeds, each=each)


def test_move_turns_at_most_45_degrees_then_flies_one_space():
    """Flight Checklist, 2b, the chained manoeuvres and the clouds, on every "move" a player could make
    at the positions found: the headings offered are the plane's own and 45 degrees either side, and
    each flight lands, pushes a chain or leaves the show for the hangar as told above."""
    seen = set()
    for found in each_offer(r"^move a plane$"):
        st = found.state
        st.apply("move a plane")
        for move in st.legal_moves():
            x, heading = move.text.split()[1:]
            assert heading in {turned(st.vars["air"][x]["heading"], k) for k in (-1, 0, 1)}, move.text
            show, after = Show(st), st.clone()
            planes = show.fly(x, heading)
            after.apply(move)
            assert show.same_as(after), (found, move.text)
            seen.add("chain" if planes > 1 else "home" if step(x, heading) is None else "flies")
    assert seen == {"flies", "chain", "home"}, seen


def _card_flights(card, pattern, fly):
    """Play ``card`` at real positions where it is offered, then each of its choices matching
    ``pattern``; ``fly(show, choice)`` tells what the rulebook has the card do. The card is played "in
    addition to the two actions" (the actions left are as before) and is the turn's one card (none is
    offered after it). Returns what was seen."""
    seen = set()
    for found in each_offer(f"^play {card}$"):
        st = found.state
        actions = st.vars["actions_left"]
        st.apply(f"play {card}")
        for move in [m for m in st.legal_moves() if re.match(pattern, m.text)]:
            show, after = Show(st), st.clone()
            seen.add(fly(show, move.text))
            after.apply(move)
            assert show.same_as(after), (found, card, move.text)
            if after.step == "perform stunt":
                assert after.vars["actions_left"] == actions
                assert "play a Skill and Tactic card" not in [m.text for m in after.legal_moves()]
    return seen


def test_move_rival_plane_pushes_along_the_way():
    """Move Rival Plane: "Fly one rival plane one space straight along its heading", pushing on."""
    def fly(show, text):
        x, heading = text.split()[1:]
        assert heading == show.air[x]["heading"]
        return show.fly(x, heading) > 1
    assert _card_flights("Move Rival Plane", r"^move ", fly) == {False, True}


def test_double_speed_flies_two_spaces_and_out_of_the_air_show():
    """Double Speed: the plane flies one space, then one more along its heading, if still in the show."""
    def fly(show, text):
        x, heading = text.split()[1:3]
        plane = show.air[x]
        show.fly(x, heading)
        now = next((y for y, p in show.air.items() if p is plane), None)
        if now is None:
            return "home"
        show.fly(now, plane["heading"])
        return "home" if plane not in show.air.values() else "flies"
    assert _card_flights("Double Speed", r"^fly ", fly) == {"flies", "home"}


def test_loop_the_loop_flies_backwards():
    """Loop the Loop: "Fly one of your planes one space backwards, towards its tail", its heading kept."""
    def fly(show, text):
        x, back = text.split()[1], text.split()[-1]
        plane = show.air.pop(x)
        behind = step(x, turned(plane["heading"], 4))
        assert back == (behind or "none")           # the move's text names the space behind, or none
        planes = show.enter(plane, behind)
        return "home" if behind is None else "chain" if planes > 1 else "flies"
    assert _card_flights("Loop the Loop", r"^loop ", fly) >= {"flies", "chain"}


def test_recall_any_plane():
    """Recall any Plane: the plane chosen, anyone's, goes back to its owner's hangar."""
    def fly(show, text):
        plane = show.air.pop(text.split()[1])
        show.hangar[plane["owner"] - 1].append(plane["id"])
        return plane["owner"]
    assert len(_card_flights("Recall any Plane", r"^recall ", fly)) > 1      # own and rivals' planes
