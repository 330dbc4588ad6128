"""rulewright: a readable rules language for tabletop games.

The facade chains the stages: ``dsl.parse`` -> ``interpreter.check`` -> ``interpreter.compile``.
"""
from rulewright.dsl.errors import (AmbiguousMoveError, IllegalMoveError, OptionError, RulesCompileError,
                                   RulesError, RulesRuntimeError, RulesSyntaxError, SaveError)

import sys
from importlib.machinery import ModuleSpec

_API = ("load", "Game", "State", "Move", "Outcome")
# ``from rulewright import openspiel`` and ``import rulewright.openspiel`` (docs/adapters.md): the adapters
# live in the interpreter package. (No rulewright/pettingzoo.py: run from the source folder, such a file
# would be the 'pettingzoo' the adapter imports.)
_ADAPTERS = {"openspiel": "play.openspiel_adapter", "pettingzoo": "play.pettingzoo_adapter"}


class _AdapterNames:
    """Finds ``rulewright.openspiel`` and ``rulewright.pettingzoo`` for the import statement: each is the
    adapter module itself (one module object under two names, its code run once)."""

    def find_spec(self, fullname, path=None, target=None):
        package, _, name = fullname.partition(".")
        if package == __name__ and name in _ADAPTERS:
            return ModuleSpec(fullname, self)
        return None

    def create_module(self, spec):
        import importlib
        return importlib.import_module(f"{__name__}.interpreter.{_ADAPTERS[spec.name.partition('.')[2]]}")

    def exec_module(self, module):
        pass  # already run, under its own name


sys.meta_path.append(_AdapterNames())


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
