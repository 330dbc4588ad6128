"""--option K=V pairs. Values stay strings: the Game checks them against the rules' options."""
from __future__ import annotations

import typer


def parse_options(pairs: list[str] | None) -> dict[str, str]:
    options: dict[str, str] = {}
    for pair in pairs or []:
        name, sep, value = pair.partition("=")
        name, value = name.strip(), value.strip()
        if not sep or not name:
            raise typer.BadParameter(f"{pair!r} is not of the form NAME=VALUE", param_hint="'--option'")
        if name in options:
            raise typer.BadParameter(f"option {name!r} is given twice", param_hint="'--option'")
        options[name] = value
    return options
