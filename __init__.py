"""rulewright: a readable rules language for tabletop games.

The facade chains the stages: ``dsl.parse`` -> ``interpreter.check`` -> ``interpreter.compile``.
"""
from rulewright.dsl.errors import (AmbiguousMoveError, IllegalMoveError, OptionError, RulesCompileError,
                                   RulesError, RulesRuntimeError, RulesSyntaxError, SaveError)

_API = ("load", "Game", "State", "Move", "Outcome")
# ``from rulewright import openspiel`` (docs/adapters.md): the adapters live in the interpreter package
_ADAPTERS = {"openspiel": "openspiel_adapter", "pettingzoo": "pettingzoo_adapter"}


def __getattr__(name):
    """The engine loads on first use (rulewright.load, rulewright.Game...): the command line starts
    without it."""
    if name in _API:
        from rulewright.interpreter import api
        return getattr(api, name)
    if name in _ADAPTERS:
        import importlib
        return importlib.import_module(f"rulewright.interpreter.{_ADAPTERS[name]}")
    raise AttributeError(f"module 'rulewright' has no attribute {name!r}")

__all__ = ["load", "Game", "State", "Move", "Outcome", "RulesError", "RulesSyntaxError",
           "RulesCompileError", "RulesRuntimeError", "IllegalMoveError", "AmbiguousMoveError",
           "OptionError", "SaveError"]
