"""Options written 'name=value': the command line's --option, the text server's 'new', OpenSpiel's
parameters. Light to import (the command line reads it before it loads any rules)."""
from __future__ import annotations

from typing import Iterable

from rulewright.dsl.errors import OptionError


def given_options(pairs: Iterable[str]) -> dict:
    """Options written 'name=value' (the command line's --option, the text server's 'new', OpenSpiel's
    parameters) as a mapping, names and values stripped and values left as text: the Game checks each
    against the rules' options. A pair without '=' or a name, or a name given twice, is refused."""
    options: dict = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        name = name.strip()
        if not sep or not name:
            raise OptionError(f"{pair!r} is not of the form NAME=VALUE")
        if name in options:
            raise OptionError(f"option {name!r} is given twice")
        options[name] = value.strip()
    return options
