"""The facade: find a rules file, parse, check, compile for a player count and options.

    game = rulewright.load("NAME", players=2, options={"board": "tree"})
    state = game.new_state(seed=7)
"""
from __future__ import annotations

import functools
from pathlib import Path
from typing import Optional

from rulewright.dsl import ast
from rulewright.dsl import cache as rules_cache
from rulewright.dsl.errors import OptionError, RulesCompileError, RulesRuntimeError, suggest
from rulewright.dsl.parser import parse
from rulewright.interpreter.check.checker import check
from rulewright.interpreter.compile.compiler import CompiledGame
from rulewright.interpreter import saves
from rulewright.interpreter.chance import start as chance_start
from rulewright.interpreter.engine import start
from rulewright.interpreter.engine.start import fresh_seed
from rulewright.interpreter.engine.state import Generator, Move, Outcome
from rulewright.interpreter.check.symbols import symbols
from rulewright.interpreter.engine.events import seen_by
from rulewright.interpreter.option_pairs import given_options
from rulewright.interpreter.shipped import shipped_game, shipped_games
from rulewright.interpreter.state import State
from rulewright.interpreter.variants import apply_extends, inside, read_bounded, read_rules

# What the command line, the adapters and the test kit take from the interpreter (docs/architecture.md,
# "The public modules"): games and their states (a seeded Generator to start one with), an event as a
# player sees it, options given as text, files read within bounds, and the save format's name.
__all__ = ["load", "load_rules", "Game", "State", "Move", "Outcome", "find_rules", "shipped_games", "player_range",
           "game_name", "option_values", "fresh_seed", "Generator", "seen_by", "given_options", "read_bounded",
           "read_rules", "inside", "SAVE_FORMAT"]

SAVE_FORMAT = saves.FORMAT


def find_rules(name_or_path: str) -> Path:
    if not isinstance(name_or_path, (str, Path)):
        raise OptionError(f"a game is named by a shipped game's name or a rules file's path, not {name_or_path!r}")
    path = Path(name_or_path)
    if path.suffix == ".rules" or path.exists():
        if not path.exists():
            raise OptionError(f"no rules file at {name_or_path}")
        return path
    return shipped_game(name_or_path, shipped_games())


@functools.lru_cache(maxsize=64)
def _load_file(path: str, mtime: float) -> ast.RulesFile:
    text = read_rules(path)  # a regular file of a bounded size, even when named by the user
    # parsed and checked once per content, across runs (dsl/cache.py)
    return rules_cache.checked_rules(path, text, lambda: _parse_and_check(text, path), read_rules)


def _parse_and_check(text: str, path: str) -> ast.RulesFile:
    rules = parse(text, path)
    rules = _apply_extends(rules, Path(path))
    diagnostics = [d for d in check(rules) if d.severity == "error"]
    if diagnostics:
        raise RulesCompileError(diagnostics)
    return rules


def load_rules(name_or_path: str) -> ast.RulesFile:
    """Parse and check a rules file (by shipped name or path); raise RulesError on any problem."""
    path = find_rules(name_or_path).resolve()
    return _load_file(str(path), path.stat().st_mtime)


def _apply_extends(rules: ast.RulesFile, path: Path) -> ast.RulesFile:
    """The whole game a rules file makes, its base (if it 'extends' one) merged in: see variants.py."""
    return apply_extends(rules, path, shipped_games)


class Game:
    """A rules file compiled for one player count and one set of options."""

    def __init__(self, rules: ast.RulesFile, players: Optional[int] = None, options: Optional[dict] = None,
                 compiler: type = CompiledGame):
        """``compiler``: the class that compiles the rules (coverage.py gives one that notes what they read)."""
        self.rules = rules
        low, high = player_range(rules)
        players = low if players is None else players
        if type(players) is not int:
            raise OptionError(f"the number of players must be a whole number, not {players!r}")
        if options is not None and not isinstance(options, dict):
            raise OptionError(f"options must be a mapping of option names to values, not {options!r}")
        if not low <= players <= high:
            allowed = f"{low}" if low == high else f"{low} to {high}"
            raise OptionError(f"{game_name(rules)} is played by {allowed} players, not {players}")
        self.options = _validate_options(rules, dict(options or {}))
        self.player_count = players
        self.compiled = compiler(rules, players, self.options)
        self.name = self.compiled.name
        self._check_requirements()

    def _check_requirements(self):
        for d in symbols(self.rules).requires:
            ok = self.compiled.exprs.compile(d.cond, set())
            if not hasattr(ok, "const"):  # folding failed (player_count > "a")
                raise RulesRuntimeError(f"{self.compiled.file}:{d.span.line}: this requirement cannot be computed")
            if not ok.const:
                raise OptionError(d.message)

    def new_state(self, seed: Optional[int] = None, chance: str = "seeded") -> State:
        """A new game. Without a seed one is drawn, and kept: every game can be played again, and a save
        checked against its moves. ``chance="explicit"``: chance is a player (interpreter/chance.py)."""
        if chance != "seeded":
            return chance_start(self.compiled, seed, chance)
        if seed is None:
            seed = fresh_seed()
        # random.Random's numbers; a failed move can put its draws back
        return self.start_state(seed, Generator(seed))

    def start_state(self, seed: int, rng: Generator, state_class=State) -> State:
        """The game set up with this generator, up to its first decision."""
        return start.start_state(self.compiled, seed, rng, state_class)

    def load_state(self, data, verify: bool = True) -> State:
        """The state a save holds. With ``verify`` (the default), the save must be what its seed and its
        moves give when played again: a save edited by hand is refused (``verify=False`` loads it)."""
        return self.load_save(data, verify).state

    def load_save(self, data, verify: bool = True, force: bool = False) -> saves.Loaded:
        """``load_state``, saying what changed: a save of rules whose meaning changed since is played
        again on these from its seed, and refused at the first move they do not allow (``force``:
        loaded at that point): interpreter/saves.py."""
        return saves.load(self.compiled, data, verify, force, State)

    def __repr__(self) -> str:
        return f"Game({self.name!r}, players={self.player_count}, options={self.options})"


def load(name_or_path: str, players: Optional[int] = None, options: Optional[dict] = None) -> Game:
    return Game(load_rules(name_or_path), players, options)


def player_range(rules) -> tuple[int, int]:
    """The fewest and the most players the rules allow."""
    return symbols(rules).player_range


def game_name(rules) -> str:
    """The name the rules give the game (the file name if none)."""
    return symbols(rules).game_name


def option_values(rules) -> dict:
    """Each option's allowed values, the first being its default."""
    return {name: list(values) for name, values in symbols(rules).option_values.items()}


def _validate_options(rules, options: dict) -> dict:
    allowed = option_values(rules)
    chosen = {name: values[0] for name, values in allowed.items()}
    for name, value in options.items():
        if not isinstance(name, str):
            raise OptionError(f"an option is named by text, not {name!r}")
        if name not in allowed:
            hint = suggest(name, allowed)
            known = ", ".join(allowed) or "none"
            raise OptionError(f"unknown option {name!r}" + (f"; {hint}" if hint else "") + f" (options: {known})")
        values = allowed[name]
        matched = [v for v in values if v == value or str(v) == str(value)]
        if not matched:
            hint = suggest(str(value), [str(v) for v in values])
            raise OptionError(f"option {name!r} cannot be {value!r}" + (f"; {hint}" if hint else "")
                              + f" (allowed: {' | '.join(str(v) for v in values)})")
        chosen[name] = matched[0]
    return chosen
