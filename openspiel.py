"""rulewright games for OpenSpiel: ``rulewright.openspiel.load("kuhn-poker")`` is a pyspiel game (see
docs/adapters.md). Needs open_spiel installed."""
from rulewright.interpreter.openspiel_adapter import RulewrightGame, RulewrightState, load  # noqa: F401

__all__ = ["load", "RulewrightGame", "RulewrightState"]
