"""The rulebook's account of a Biplane turn, worked out in Python apart from the rules file: the shots
moving between turns (4.4.2, 4.4.3), the plane flying its card (4.1.1, 4.1.2, 4.2), crashes (4.3), shots
down (4.4.2), respawns drawn from the top of the deck (4.5) and the tree (7.2). The tests of
test_cover_shots.py play real turns from real positions and compare the state with this account."""
from __future__ import annotations

from .test_cover import ahead, quarter


class Unknown(Exception):
    """The account cannot go on: the deck runs out (the reshuffle is chance; 4.6 has its own test)."""


def label_of(card):
    """(the space a card indicates or None, whether it says "Up"): 4.5 "place it on the indicated space
    ... facing to the right, unless the card says "Up""."""
    words = card.split()
    if words[-1] == "Up":
        return words[-2], True
    return (None if card == "Shoot" else words[-1]), False


def wraps(space, heading):
    """Crossing the copied column 1 at either side (2.0, 4.4.3)."""
    col = int(space[1:])
    return (heading == "right" and col == 12) or (heading == "left" and col == 1)


class Sky:
    """The planes (0-based), the shots and the deck of a state, and what the rules do to them; ``seen``
    collects which outcomes the account went through."""

    def __init__(self, v, tree: bool):
        self.at, self.heading, self.score = list(v["at"]), list(v["heading"]), list(v["score"])
        self.shots = [dict(x) for x in v["shots"]]
        self.deck = list(v["deck"])          # drawn from the end
        self.tree = tree
        self.seen = set()

    # ------------------------------------------------------------ 4.5 respawning, 4.6 drawing
    def draw(self):
        if len(self.deck) <= 1:
            raise Unknown("the deck runs out")
        return self.deck.pop()

    def respawn_space(self, label):
        """7.2: 'Any Biplane that respawns in A2-A6 at the space 6 Columns to the right.'"""
        if self.tree and label and label[0] == "A" and 2 <= int(label[1:]) <= 6:
            self.seen.add("respawn moved by the tree")
            return f"A{int(label[1:]) + 6}"
        return label

    def free(self, space):
        return space not in self.at and all(x["at"] != space for x in self.shots)

    def respawn(self, i):
        """4.5: "Draw the next card from the deck, and place it on the indicated space ... If the space
        is already occupied by a Shot Token or another Biplane Token, then draw again." 7.2: "Any
        Biplane that draws A7 to respawn draws again.\""""
        self.at[i] = None
        while True:
            label, up = label_of(self.draw())
            space = self.respawn_space(label)
            if space and not (self.tree and space == "A7") and self.free(space):
                self.at[i], self.heading[i] = space, "up" if up else "right"
                self.seen.add("respawn facing up" if up else "respawn facing right")
                return
            why = ("no label" if not space else "the tree" if self.tree and space == "A7"
                   else "a plane" if space in self.at else "a shot")
            self.seen.add(f"respawn draws again: {why}" + (" (moved by the tree)" if space != label else ""))

    def hit(self, i, why):
        self.score[i] += 1
        self.seen.add(why)
        self.respawn(i)

    # ------------------------------------------------------------ 4.4 shots
    def shot_down(self, i):
        """4.4.2: "Remove the Shot token. Remove the Biplane token and add one to that player's score.
        Respawn" ("all the Shot Tokens are removed" when it meets several)."""
        if sum(x["at"] == self.at[i] for x in self.shots) > 1:
            self.seen.add("two shots, one hit")
        self.shots = [x for x in self.shots if x["at"] != self.at[i]]
        self.hit(i, "shot down")

    def shot_step(self, x) -> bool:
        """One space of a shot's flight (4.4.3); whether it is still on the board."""
        nxt = ahead(x["at"], x["heading"])
        if nxt is None:                           # "an upward facing shot in Row G ... remove it"
            self.shots.remove(x)
            self.seen.add(f"shot leaves the board going {x['heading']}")
            return False
        if wraps(x["at"], x["heading"]):
            if x["side"] == "orange":             # "If an Orange shot wraps, then remove the shot"
                self.shots.remove(x)
                self.seen.add("orange shot removed on a wrap")
                return False
            x["side"] = "orange"                  # "If a Yellow shot ... wraps, then turn the shot over"
            self.seen.add("yellow shot turns orange")
        x["at"] = nxt
        if nxt == "A7" and not self.tree:
            self.seen.add("a shot enters A7 without the tree")
        if self.tree and nxt == "A7":             # 7.2 "If a shot enters space A7, that shot is removed."
            self.shots.remove(x)
            self.seen.add("tree removes a shot")
            return False
        if sum(y["at"] == nxt for y in self.shots) > 1:
            self.seen.add("shots share a space")
        if nxt in self.at:                        # "If a Biplane and Shot are ever in the same space"
            self.shot_down(self.at.index(nxt))
            return False
        return True

    def between_turns(self, speed):
        """4.4.2: "Before each player reveals the card for his turn, move each Shot token 3 spaces" (2
        with 3 or 4 players, 6.0), one token at a time in the order fired."""
        for x in list(self.shots):
            for _ in range(speed):
                if not any(y is x for y in self.shots) or not self.shot_step(x):
                    break

    def fire(self, i, shot_id):
        """4.4.1: "places a Shot token one space straight in front of the Biplane, and then ... moves
        it one more space forward"."""
        x = {"id": shot_id, "at": self.at[i], "heading": self.heading[i], "side": "yellow"}
        self.shots.append(x)
        if self.shot_step(x):
            self.shot_step(x)

    # ------------------------------------------------------------ 4.1 flying, 4.2 edges, 4.3 crashes
    def enter(self, i, space) -> bool:
        """A plane entering a space: the tree (7.2), a shot (4.4.2), another plane (4.3)."""
        self.at[i] = space
        if space == "A7" and not self.tree:
            self.seen.add("a plane enters A7 without the tree")
        if self.tree and space == "A7":           # "If a Biplane enters space A7, that Biplane crashes"
            self.hit(i, "crashes into the tree")
            return False
        if any(x["at"] == space for x in self.shots):
            self.seen.add("flies into a shot")
            self.shot_down(i)
            return False
        if space in self.at[:i] + self.at[i + 1:]:
            # "those two aircraft crash. Each player adds 1 to his score, and then each plane respawns."
            other = [j for j, s in enumerate(self.at) if s == space and j != i][0]
            self.score[i] += 1
            self.score[other] += 1
            self.at[other] = None
            self.seen.add("mid-air crash")
            self.respawn(i)
            self.respawn(other)
            return False
        return True

    def forward(self, i) -> bool:
        nxt = ahead(self.at[i], self.heading[i])
        if nxt is not None:
            return self.enter(i, nxt)
        if self.heading[i] == "up":               # "turns to face straight down and ends its movement"
            self.heading[i] = "down"
            self.seen.add("ceiling")
        else:                                     # "it crashes into the ground"
            self.hit(i, "ground")
        return False

    def fly(self, i, card):
        """The plane flying a maneuver card, declining every shot."""
        words = card.split()
        if words[0] == "Straight":
            for _ in range(int(words[1])):
                if not self.forward(i):
                    return
            return
        rotation = -1 if words[1] == "CW" else 1
        for _ in range(int(words[0]) // 90):
            curve = quarter(self.at[i], self.heading[i], rotation)
            if curve is None:
                flying = self.forward(i)          # no curved path leads away: one space straight
            else:
                self.heading[i] = curve[1]
                flying = self.enter(i, curve[0])
            if not flying:
                return

