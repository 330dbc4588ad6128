"""The rules language as the tools that read rules without playing them see it (the editor server,
`list`, `validate`, `check`, the manual): a file's diagnostics and symbol table, the built-in functions
and names, the board kinds' functions, the grammar's keywords, a variant laid over its base, and the
cache of what was read. A public module, beside api.py (docs/architecture.md, "The public modules")."""
from __future__ import annotations

from rulewright.dsl import cache  # noqa: F401 (the names below are what this module offers)
from rulewright.dsl.grammar import keywords  # noqa: F401
from rulewright.interpreter.boards.registry import board_functions  # noqa: F401
from rulewright.interpreter.check.checker import check  # noqa: F401
from rulewright.interpreter.check.symbols import symbols  # noqa: F401
from rulewright.interpreter.engine.builtin_names import NAMES, RESERVED  # noqa: F401
from rulewright.interpreter.engine.builtins import BUILTINS  # noqa: F401
from rulewright.interpreter.variants import apply_extends, base_file  # noqa: F401

__all__ = ["cache", "keywords", "board_functions", "check", "symbols", "NAMES", "RESERVED", "BUILTINS",
           "apply_extends", "base_file"]
