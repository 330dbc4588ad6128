"""`validate` generates a def, procedure or block again only for new values of the options it may read
(interpreter/check/option_reads.py): what each part may read, and an error only one late variant shows."""
from __future__ import annotations

from rulewright.cli.validate import validate
from rulewright.dsl.parser import parse
from rulewright.interpreter.check.checker import check
from rulewright.interpreter.check.option_reads import option_reads

RULES = """game "Reads"
players 2
option fast: no | yes
option long: no | yes
var score = 0
def quick() = fast == yes
procedure bump():
    if quick():
        score += 2
procedure plain():
    score += 1
turn:
    bump()
    if long == yes:
        plain()
    end game
"""


def test_a_part_reads_its_options_and_those_of_what_it_calls():
    rules = parse(RULES, "r.rules")
    assert not [d for d in check(rules) if d.severity == "error"]
    reads = option_reads(rules)
    assert reads["quick"] == {"fast"} and reads["bump"] == {"fast"}  # through the def it calls
    assert reads["plain"] == frozenset()
    assert reads["turn"] == {"fast", "long"}  # its own, and bump's


def test_an_option_named_outside_the_parts_is_read_by_every_part():
    # a board only some values of 'long' give may change what any part's names mean
    rules = parse(RULES.replace("turn:", "board grid when long == no: grid 3 by 3\nturn:"), "r.rules")
    assert option_reads(rules)["plain"] == {"long"}


def test_an_error_only_a_late_variant_shows_is_found(tmp_path):
    # 'grid' is missing only with 3 players and size=big: the last variant, generated in part after
    # three variants that each had the board
    path = tmp_path / "late.rules"
    path.write_text('game "Late"\nplayers 2..3\noption size: small | big\n'
                    "board grid when size == small or player_count == 2: grid 3 by 3\n"
                    "procedure pick():\n    choose s in grid\n"
                    "turn:\n    pick()\n    end game\n", encoding="utf-8")
    problems = validate(str(path))
    assert len(problems) == 1, problems
    assert "with 3 players, size=big" in problems[0] and "'grid'" in problems[0]
