"""Balance reports (interpreter/play/balance.py, shown by cli/report.py) and `rulewright compare` /
`simulate --report`: the figures are right on games whose answers are known, the rules and table keys
that fire are counted exactly, the files are written, and the same seed gives the same report."""
from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest
from typer.testing import CliRunner

import rulewright
from rulewright.cli import report
from rulewright.interpreter.play import balance
from rulewright.cli.main import app

runner = CliRunner()


def run(*args):
    result = runner.invoke(app, [str(a) for a in args])
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


# A game whose events are known exactly: two rounds; each player draws a card from a table of three,
# logs it, and either passes (most of the time) or "doubles" (a choice between courses of action).
TOKENS = '''\
game "Tokens"
players 2
table token(name, points):
    "Red Star", 3
    "Blue", 1
    "Blue Moon", 2
player var score = 0

setup:
    log "round {round_number - 1} ends"
    for p in players:
        choose b in [5] by p as "bonus {b}" optional "no bonus"

round:
    for p in players:
        let t = random(token)
        log "player {p} draws {t}"
        score[p] += t.points
    for p in players:
        turn p
    log "{round_number}"
    log "round {round_number} ends"

turn:
    choose:
        "pass":
            pass
        "double":
            score[me] += 1

end when round_number >= 2 after round
'''


@pytest.fixture
def tokens(tmp_path):
    path = tmp_path / "tokens.rules"
    path.write_text(TOKENS, encoding="utf-8")
    return path


# ---------------------------------------------------------------------------------------- statistics
def test_wilson_interval_known_values():
    low, high = balance.wilson(50, 100)
    assert (round(low, 4), round(high, 4)) == (0.4038, 0.5962)
    low, high = balance.wilson(0, 10)  # never 0 wide at the edge, unlike the normal interval
    assert low == 0.0 and round(high, 4) == 0.2775
    assert balance.wilson(0, 0) == (0.0, 1.0)


def test_two_proportion_p_value():
    assert balance.two_proportion_p(50, 100, 50, 100) == 1.0
    assert balance.two_proportion_p(60, 100, 40, 100) < 0.01 < balance.two_proportion_p(55, 100, 45, 100)


# ---------------------------------------------------------------------------------------- tic-tac-toe
def test_tic_tac_toe_random_play_has_the_known_first_player_advantage():
    # Under uniformly random play the first player wins 58.5 % of the games, the second 28.8 %, and
    # 12.7 % are drawn (a known exact result: 737 / 1260 etc. of the weighted game tree).
    game = rulewright.load("tic-tac-toe")
    results = report.run_recorded(game, "tic-tac-toe", list(range(3000)), 1, 1000, agents="random")
    r = balance.analyze(game, results, 0, "random")
    first = r["first_player"]
    assert first["low"] <= 0.585 <= first["high"] and first["high"] - first["low"] < 0.04
    assert first["seats"] == {"1": 3000, "2": 0}  # player 1 always moves first
    assert first["count"] == r["wins"]["1"]["count"]
    assert r["wins"]["2"]["low"] <= 0.288 <= r["wins"]["2"]["high"]
    assert r["draws"]["low"] <= 0.127 <= r["draws"]["high"]
    assert r["finished"] == 3000 and r["shared_wins"] == 0
    assert (r["length"]["min"], r["length"]["max"]) == (5, 9)  # the shortest win and a full grid
    # one rule makes every move: it fires once per decision
    (label, fired), = r["fires"]["rule"].items()
    assert label.startswith("turn: choose cell in grid")
    assert fired["per_game"] == r["length"]["mean"] and fired["games"] == 3000
    assert r["fires"]["kind"]["move"]["total"] == sum(x["decisions"] for x in results)


# ---------------------------------------------------------------------------------------- exact counts
def test_rules_and_table_keys_are_counted_exactly(tokens):
    game = rulewright.load(str(tokens))
    results = report.run_recorded(game, str(tokens), list(range(40)), 1, 1000, agents="first")
    r = balance.analyze(game, results, 0, "first")
    rules = r["fires"]["rule"]
    draws = next(k for k in rules if 'draws {t}' in k)
    assert draws.startswith("round: log") and rules[draws]["per_game"] == 4  # 2 players x 2 rounds
    # "round 1 ends" matches both '{round_number}' and 'round {round_number} ends': the most
    # specific template wins, so each fires twice a game
    # and the setup's "round 0 ends" has the same template: one row for both places
    ends = next(k for k in rules if "ends" in k)
    bare = next(k for k in rules if k.endswith('log "{round_number}"'))
    assert rules[ends]["per_game"] == 3 and rules[bare]["per_game"] == 2
    assert ends.startswith("setup: log") and ends.endswith("(and the same text at tokens.rules:22)")
    # a decision's decline is a row of its own; 'first' takes the bonus, never the decline
    bonus = next(k for k in rules if k.startswith("setup: choose b"))
    assert rules[bonus]["per_game"] == 2 and not any(k.endswith("[declined]") for k in rules)
    # 'first' always takes "pass", the first course of action: 2 turns x 2 rounds
    (passing,) = [k for k in rules if k.endswith('"pass":')]
    assert rules[passing]["per_game"] == 4 and not any(k.endswith('"double":') for k in rules)
    assert balance.UNMATCHED not in rules
    # every draw names one token; "Blue Moon" is never also counted as "Blue"
    cards = r["fires"]["card"]
    assert sum(c["total"] for c in cards.values()) == 4 * 40
    assert set(cards) <= {"Red Star", "Blue", "Blue Moon"} and {c["table"] for c in cards.values()} == {"token"}
    by_log = {}
    for res in results:
        for k, n in res["tally"]["card"].items():
            by_log[k] = by_log.get(k, 0) + n
    assert by_log == {k: c["total"] for k, c in cards.items()}
    assert r["fires"]["head"] == {"pass": {"total": 160, "per_game": 4.0, "per_100_decisions": 66.667, "games": 40},
                                  "bonus": {"total": 80, "per_game": 2.0, "per_100_decisions": 33.333, "games": 40}}
    # scores: 2 draws of 1..3 points each, and 'first' never doubles
    assert 2 <= r["scores"]["1"]["min"] <= r["scores"]["1"]["max"] <= 6


def test_random_seats_double_sometimes_and_the_scores_follow(tokens):
    game = rulewright.load(str(tokens))
    results = report.run_recorded(game, str(tokens), list(range(60)), 1, 1000, agents="random")
    r = balance.analyze(game, results, 5, "random")
    doubles = next(v for k, v in r["fires"]["rule"].items() if k.endswith('"double":'))
    passes = next(v for k, v in r["fires"]["rule"].items() if k.endswith('"pass":'))
    assert doubles["total"] + passes["total"] == 4 * 60 and 0 < doubles["total"] < 4 * 60
    assert r["fires"]["head"]["double"]["total"] == doubles["total"]
    declined = next(v for k, v in r["fires"]["rule"].items() if k.endswith('optional "no bonus"  [declined]'))
    taken = next(v for k, v in r["fires"]["rule"].items() if k.endswith('optional "no bonus"'))
    assert declined["total"] + taken["total"] == 2 * 60 and 0 < declined["total"] < 2 * 60


# ---------------------------------------------------------------------------------------- the commands
def test_simulate_report_keeps_the_summary_and_writes_the_files(tmp_path):
    args = ["simulate", "tic-tac-toe", "--games", "40", "--seed", "3", "--workers", "1", "--json"]
    plain = run(*args)
    reported = run(*args, "--report", tmp_path / "out")
    assert plain.exit_code == reported.exit_code == 0, reported.output
    assert json.loads(plain.stdout) == json.loads(reported.stdout)  # the same games, move for move
    names = {p.name for p in (tmp_path / "out").iterdir()}
    assert {"report.json", "fires.csv", "wins.png", "wins.svg", "length.png", "length.svg"} <= names
    data = json.loads((tmp_path / "out" / "report.json").read_text())
    (r,) = data["reports"]
    summary = json.loads(plain.stdout)
    assert {p: w["count"] for p, w in r["wins"].items()} == summary["wins"]
    assert r["draws"]["count"] == summary["draws"] and r["games"] == 40
    assert (tmp_path / "out" / "wins.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert ET.parse(tmp_path / "out" / "wins.svg").getroot().tag.endswith("svg")


def test_compare_a_shipped_variant_pair(tmp_path):
    # Biplane with more ammunition adds four Shoot cards: only B's games can name them
    out = tmp_path / "cmp"
    result = run("compare", "biplane", "biplane-more-ammo", "--games", "6", "--seed", "11", "--workers", "1",
                 "--report", out, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    a, b = data["reports"]
    assert (a["game"], b["game"]) == ("Biplane", "Biplane: more ammunition")
    assert a["games"] == b["games"] == 6 and a["seed"] == b["seed"] == 11
    new = {"Shoot D3", "Shoot D5", "Shoot D9", "Shoot D11"}
    assert not new & set(a["fires"]["card"]) and new & set(b["fires"]["card"])
    assert all(b["fires"]["card"][k]["table"] == "card" for k in new & set(b["fires"]["card"]))
    assert set(data["differences"]) == {"seat 1", "seat 2", "first player", "draws"}
    for r in (a, b):
        assert sum(w["count"] for w in r["wins"].values()) >= r["finished"] - r["draws"]["count"]
        assert r["fires"]["kind"]["move"]["total"] == round(r["length"]["mean"] * 6)
    assert {"wins.svg", "length.svg", "scores.svg", "rules.svg", "rules.png"} <= set(data["files"])
    assert all((out / f).stat().st_size > 0 for f in data["files"])
    readable = run("compare", "biplane", "biplane-more-ammo", "--games", "2", "--seed", "11", "--workers", "1")
    assert readable.exit_code == 0
    text = readable.stdout
    assert "A: Biplane (2 players" in text and "B: Biplane: more ammunition" in text
    assert "first player wins" in text and "rules that fire" in text and "key (table)" in text


# A title and texts a spreadsheet would run and matplotlib would read as mathematics, and a control
# character XML forbids.
HOSTILE_TEXTS = '''\
game "Cash $\\\\nope$ \\x01"
players 2
player var score = 0

turn:
    choose n in [1, 2] as "=HYPERLINK(\\"http://x\\") {n}"
    choose m in [1] as "@SUM(A1) {m}"
    log "+1 $\\\\frac{{1}}{{2}}$"
    log "-2"
    log "\\tx"
    me.score += n
end when round_number > 1 after round
rank by score descending
'''


def test_report_files_hold_any_text_safely(tmp_path):
    """A '$' or mathtext in a title or a move text is drawn as written (no mathtext error), a text that
    begins like a formula is no formula in fires.csv (OWASP: a leading apostrophe), and every SVG plot is
    well-formed XML whatever control character a text holds; the tables show it escaped."""
    import csv
    rules = tmp_path / "cash.rules"
    rules.write_text(HOSTILE_TEXTS, encoding="utf-8")
    out = tmp_path / "out"
    result = run("compare", rules, rules, "--games", "2", "--seed", "1", "--workers", "1", "--report", out)
    assert result.exit_code == 0, result.output
    assert "\x01" not in result.stdout and "Cash $\\nope$ \\x01" in result.stdout  # the tables, escaped
    written = {p.name for p in out.iterdir()}
    assert {"wins.svg", "wins.png", "rules.svg", "rules.png", "fires.csv", "report.json"} <= written
    for svg in out.glob("*.svg"):
        ET.parse(svg)
    with open(out / "fires.csv", encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    cells = [cell for row in rows[1:] for cell in row[1:4]]
    assert not [cell for cell in cells if cell.startswith(("=", "+", "-", "@", "\t", "\r"))]
    assert "'=HYPERLINK(\"http://x\")" in cells and "'@SUM(A1)" in cells
    assert all(float(row[5]) >= 0 for row in rows[1:])  # numbers stay numbers
    game = json.loads((out / "report.json").read_text(encoding="utf-8"))["reports"][0]["game"]
    assert game == "Cash $\\nope$ \x01"  # report.json keeps the text itself


def test_compare_is_deterministic_and_workers_do_not_matter(tmp_path):
    args = ["compare", "tic-tac-toe", "tic-tac-toe", "--option-b", "nonexistent=1"]
    bad = run(*args, "--games", "2")
    assert bad.exit_code == 1 and "unknown option 'nonexistent'" in bad.output
    args = ["compare", "tic-tac-toe", "connect-four", "--games", "12", "--seed", "5", "--agents", "first,random"]
    one = run(*args, "--workers", "1", "--report", tmp_path / "one")
    two = run(*args, "--workers", "2", "--report", tmp_path / "two")
    assert one.exit_code == two.exit_code == 0, one.output
    for name in ("report.json", "fires.csv", "wins.svg", "wins.png"):
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "two" / name).read_bytes(), name


def test_compare_refuses_bad_input_with_a_message(tmp_path):
    unknown = run("compare", "tic-tac-toe", "tic-tac-toe", "--games", "2", "--agents", "wizard")
    assert unknown.exit_code == 2 and "unknown agent 'wizard'" in unknown.output
    seats = run("compare", "tic-tac-toe", "tic-tac-toe", "--games", "2", "--agents", "first,first,first")
    assert seats.exit_code == 2 and "3 agents for 2 seats" in seats.output
    players = run("compare", "tic-tac-toe", "biplane", "--games", "2", "--players", "3")
    assert players.exit_code == 1 and "played by 2 players, not 3" in players.output
    missing = run("compare", "tic-tac-toe", "no-such-game", "--games", "2")
    assert missing.exit_code == 1 and "unknown game 'no-such-game'" in missing.output
    blocked = tmp_path / "file"
    blocked.write_text("x")
    notdir = run("compare", "tic-tac-toe", "tic-tac-toe", "--games", "2", "--report", blocked)
    assert notdir.exit_code == 1 and "error" in notdir.output


def test_table_keys_are_read_from_the_values_beside_the_texts(tmp_path):
    """The game compiled for the tally makes the same events, each log carrying the values its text was
    made from; a key its words merely spell ('Blue' in "Blue skies") is not one it names."""
    path = tmp_path / "said.rules"
    path.write_text(TOKENS.replace('    log "{round_number}"\n', '    log "Blue skies"\n'), encoding="utf-8")
    game = rulewright.load(str(path))
    plain, noted = game.new_state(seed=4), balance.noting(game).new_state(seed=4)
    while not plain.is_over():
        move = plain.legal_moves()[-1]
        plain.apply(move.text, move.player)
        noted.apply(move.text, move.player)
    events = noted.drain_events()
    draws = [e for e in events if e.get("values") and e["text"].startswith("player")]
    assert [e["values"][1] in ("Red Star", "Blue", "Blue Moon") for e in draws] == [True] * 4
    assert [{k: v for k, v in e.items() if k != "values"} for e in events] == plain.drain_events()
    (result,) = report.run_recorded(game, str(path), [4], 1, 1000, agents="first")
    assert sum(result["tally"]["card"].values()) == 4  # the draws, never the "Blue skies" lines
