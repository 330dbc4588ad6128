"""rulewright: a readable rules language for tabletop games.

The facade chains the stages: ``dsl.parse`` -> ``interpreter.check`` -> ``interpreter.compile``.
"""
from rulewright.interpreter.api import Game, Move, Outcome, State, load
from rulewright.dsl.errors import (AmbiguousMoveError, IllegalMoveError, OptionError, RulesCompileError,
                                   RulesError, RulesRuntimeError, RulesSyntaxError, SaveError)

__all__ = ["load", "Game", "State", "Move", "Outcome", "RulesError", "RulesSyntaxError",
           "RulesCompileError", "RulesRuntimeError", "IllegalMoveError", "AmbiguousMoveError",
           "OptionError", "SaveError"]
