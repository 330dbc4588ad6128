"""rulewright: a readable rules language for tabletop games.

The facade chains the stages: ``dsl.parse`` -> ``interpreter.check`` -> ``interpreter.compile``.
"""
from rulewright.dsl.errors import (AmbiguousMoveError, IllegalMoveError, OptionError, RulesCompileError,
                                   RulesError, RulesRuntimeError, RulesSyntaxError, SaveError)

_API = ("load", "Game", "State", "Move", "Outcome")


def __getattr__(name):
    """The engine loads on first use (rulewright.load, rulewright.Game...): the command line starts
    without it."""
    if name in _API:
        from rulewright.interpreter import api
        return getattr(api, name)
    raise AttributeError(f"module 'rulewright' has no attribute {name!r}")

__all__ = ["load", "Game", "State", "Move", "Outcome", "RulesError", "RulesSyntaxError",
           "RulesCompileError", "RulesRuntimeError", "IllegalMoveError", "AmbiguousMoveError",
           "OptionError", "SaveError"]
