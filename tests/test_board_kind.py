"""A new board kind is one class and its registration: a ring of numbered spaces, as a designer
would add for a race around a circular track. Nothing else in rulewright changes."""
from __future__ import annotations

import pytest

from rulewright.dsl import ast
from rulewright.dsl.parser import parse
from rulewright.interpreter.boards import registry as board_kinds
from rulewright.interpreter.api import Game
from rulewright.interpreter.boards.base import Board, board_function
from rulewright.interpreter.check.checker import check
from rulewright.interpreter.engine.builtins import FRESH
from rulewright.interpreter.engine.kinds import NUMBER, TEXT
from rulewright.interpreter.present.render import render_board


class RingBoard(Board):
    """``board track: ring N``: spaces "1" to "N" in a circle."""
    kind = "ring"

    def __init__(self, name: str, size: int):
        self.name, self.size = name, size
        self.spaces = [str(i) for i in range(1, size + 1)]

    @classmethod
    def check(cls, spec, report):
        words = spec.words
        if len(words) != 1 or not isinstance(words[0], ast.Literal) or not 2 <= words[0].value <= 99:
            report(spec.span, "a ring is declared as 'ring N', with 2 to 99 spaces", "for example: ring 12")

    @classmethod
    def build(cls, name, spec):
        return cls(name, spec.words[0].value)

    def draw(self, texts: dict) -> str:
        return " ".join(f"{s}:{texts[s]}" for s in self.spaces)

    def ahead(self, space, k):
        return str((int(space) - 1 + k) % self.size + 1)

    functions = {"ahead": board_function("ahead", 2, 2, TEXT, "the space k steps clockwise", ((TEXT,), (NUMBER,)),
                                         gives_back=FRESH)}


@pytest.fixture
def ring():
    board_kinds.register(RingBoard)
    yield RingBoard
    del board_kinds.KINDS["ring"]


RACE = '''game "Ring race"
players 2
board track: ring 6
player var at = "1"
player var moved = 0
display s = text(count(p in players where p.at == s))
turn:
    choose k in [1, 2]
    me.at = ahead(me.at, k)
    me.moved += k
    if me.moved >= 12:
        win me
        end game
'''


def test_a_registered_kind_plays(ring):
    game = Game(parse(RACE, "race.rules"))
    st = game.new_state(seed=1)
    while not st.is_over():
        st.apply(st.legal_moves()[-1])  # always two steps, round and round
    assert st.outcome().winners == [1]
    assert st.vars["moved"] == [12, 10] and st.vars["at"] == ["1", "5"]
    assert render_board(st) == "1:1 2:0 3:0 4:0 5:1 6:0"


def test_the_checker_knows_the_new_kind(ring):
    assert [d.render() for d in check(parse(RACE, "race.rules"))] == []
    bad = RACE.replace("ring 6", "ring 1").replace("ahead(me.at, k)", "step(me.at, k)", 1)
    messages = [d.message for d in check(parse(bad, "race.rules"))]
    assert messages == ["a ring is declared as 'ring N', with 2 to 99 spaces",
                        "'step' does not work on board 'track', which is a ring"]


def test_without_registration_the_kind_is_unknown():
    messages = [d.message for d in check(parse(RACE, "race.rules"))]
    assert "there is no board kind 'ring'" in messages
