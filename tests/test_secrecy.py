"""The secrecy check (interpreter/check/secrecy/): each rule it applies, on a small rules file that
breaks it (the diagnostic word for word, at its line and column) and on the same file answered the
way the guide says (secretly/shown, reveal, revealed(), log ... to, asking uniformly): no diagnostic."""
from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

from rulewright.dsl.parser import parse
from rulewright.interpreter.check import checker
from rulewright.interpreter.api import _apply_extends, shipped_games
from rulewright.interpreter.check.checker import check
from rulewright.interpreter.check.secrecy import secrecy_diagnostics
from rulewright.interpreter.check.secrecy.messages import unparse

HEAD = '''\
game "Secrets"
players 2
var deck = [1, 2, 3, 4, 5, 6] hidden
var discard = []
player var hand = [] secret
player var score = 0
'''


def base_errors(rules) -> list:
    """The checker's errors before the secrecy check (whether check() runs it or not)."""
    return [d.render() for d in checker.Checker(rules).run() if d.severity == "error"]


def rules_of(body: str, head: str = HEAD):
    rules = parse(head + textwrap.dedent(body).lstrip("\n"), "secrets.rules")
    assert base_errors(rules) == [], "the example itself must be valid rules"
    return rules


def reported(body: str, head: str = HEAD):
    """(line, column, message) of each secrecy diagnostic; lines count from the top of HEAD (6 lines)."""
    return [(d.line, d.column, d.message) for d in secrecy_diagnostics(rules_of(body, head))]


# name -> (the leaking turn, its diagnostics, the same turn answered)
CASES = {
    # 1. a public variable computed from a secret
    "public_variable": (
        """
        turn:
            draw c from deck
            add c to me.hand
            me.score = max(me.hand)
            end game
        """,
        [(10, 5, "the public variable 'score' is computed from the secret 'hand' of player me")],
        """
        turn:
            draw c from deck
            add c to me.hand
            reveal me.hand as "player {me} shows their hand"
            me.score = max(me.hand)
            end game
        """),
    "item_added_to_public_list": (
        """
        turn:
            draw c from deck
            add c to discard
            end game
        """,
        [(9, 5, "the item added to the public variable 'discard' comes from the hidden 'deck'")],
        """
        turn:
            draw c from deck
            add revealed(c) to discard      # drawn face up
            me.score += c                   # and known from then on
            end game
        """),
    "item_moved_out_of_a_secret_hand": (
        """
        turn:
            if len(me.hand) > 0:
                let c = first(me.hand)
                move c from me.hand to discard
            end game
        """,
        [(10, 9, "the item moved into the public variable 'discard' comes from the secret 'hand' of player me")],
        """
        turn:
            if len(me.hand) > 0:
                choose c in me.hand as "discard {c}"
                move c from me.hand to discard
            end game
        """),
    # 2. a public change under a secret condition, directly or in a procedure
    "implicit_flow": (
        """
        turn:
            if 3 in me.hand:
                me.score += 1
            end game
        """,
        [(9, 9, "whether the public variable 'score' changes here depends on the secret 'hand' of player me")],
        """
        turn:
            if revealed(3 in me.hand):     # the rulebook: a player holding a 3 shows it
                me.score += 1
            for c in me.hand:               # as many times as cards in hand: a public count
                me.score += 1
            end game
        """),
    "implicit_flow_through_a_procedure": (
        """
        procedure cheer(p):
            log "player {p} cheers"
        turn:
            if 3 in me.hand:
                cheer(me)
            end game
        """,
        [(11, 9, "whether 'cheer' writes a public log line here depends on the secret 'hand' of player me")],
        """
        procedure cheer(p):
            log "you hold a 3" to p
        turn:
            if 3 in me.hand:
                cheer(me)
            end game
        """),
    # 3. a log line
    "log_line": (
        """
        turn:
            log "player {me} holds {me.hand}"
            end game
        """,
        [(8, 5, "the public log line shows the secret 'hand' of player me")],
        """
        turn:
            log "you hold {me.hand}" to me
            log "player {me} holds {len(me.hand)} cards"
            end game
        """),
    "log_line_to_another_player": (
        """
        turn:
            log "{me.hand}" to next_player(me)
            end game
        """,
        [(8, 5, "the log line to player next_player(me) shows the secret 'hand' of player me")],
        """
        turn:
            log "{next_player(me).hand}" to next_player(me)
            end game
        """),
    "log_line_to_a_list_of_players": (  # each player written out in the list reads it: each must own it
        """
        turn:
            log "{me.hand}" to [me, next_player(me)]
            end game
        """,
        [(8, 5, "the log line to player next_player(me) shows the secret 'hand' of player me")],
        """
        turn:
            log "{me.hand}" to [me]
            end game
        """),
    # 4. the move text of a public decision
    "move_text": (
        """
        turn:
            choose c in [1, 2] as "take {c} ({me.hand})"
            end game
        """,
        [(8, 27, "the move text of this public decision shows the secret 'hand' of player me")],
        """
        turn:
            choose c in [1, 2] as "take {c} ({len(me.hand)} in hand)"
            end game
        """),
    # 5. a choice announced to every player, then kept face down
    "announced_then_kept_secret": (
        """
        player var programmed = none secret
        turn:
            choose c in me.hand as "program {c}" optional "pass"
            me.programmed = c
            end game
        """,
        [(10, 5, "the move text announces the choice of 'c' to every player, but it is kept in the "
                "secret 'programmed'")],
        """
        player var programmed = none secret
        turn:
            choose c in me.hand secretly as "program {c}" optional "pass" shown "programs a card"
            me.programmed = c
            end game
        """),
    "announced_then_kept_secret_by_a_procedure": (
        """
        player var programmed = none secret
        procedure keep(p, c):
            p.programmed = c
        turn:
            choose c in me.hand as "program {c}" optional "pass"
            keep(me, c)
            end game
        """,
        [(9, 5, "the move text announces the choice of 'c' to every player, but it is kept in the "
                "secret 'programmed'")],
        """
        player var programmed = none secret
        procedure keep(p, c):
            p.programmed = c
        turn:
            choose c in me.hand secretly as "program {c}" optional "pass" shown "programs a card"
            keep(me, c)
            end game
        """),
    # 6. whether a player is asked
    "decision_existence": (
        """
        turn:
            if len([c in me.hand where c > 4]) > 0:
                choose c in [x in me.hand where x > 4] as "play {c}"
                move c from me.hand to discard
            end game
        """,
        [(9, 9, "whether player me is asked here depends on the secret 'hand' of player me")],
        """
        turn:
            choose c in [x in me.hand where x > 4] as "play {c}" optional "pass"
            if c != none:
                move c from me.hand to discard
            end game
        """),
    "decision_existence_in_a_procedure": (
        """
        procedure play(p):
            choose c in p.hand by p as "play {c}"
            move c from p.hand to discard
        turn:
            while len(me.hand) > 0 and 6 not in me.hand:
                play(me)
            end game
        """,
        [(12, 9, "whether player me is asked here (in 'play') depends on the secret 'hand' of player me")],
        """
        procedure play(p):
            choose c in p.hand by p as "play {c}"
            move c from p.hand to discard
        turn:
            while len(me.hand) > 0:
                play(me)
            end game
        """),
    "players_asked_at_once": (
        """
        turn:
            each p in [q in players where 6 in q.hand] secretly choose c in p.hand as "keep {c}":
                move c from p.hand to discard
            end game
        """,
        [(8, 5, "which players are asked here depends on the secret 'hand' of player q"),
         (9, 9, "the item moved into the public variable 'discard' comes from the secret choice 'c' of player p")],
        """
        player var kept = [] secret
        turn:
            each p in [q in players where len(q.hand) > 0] secretly choose c in p.hand as "keep {c}":
                move c from p.hand to p.kept
            end game
        """),
    # 7. options shown to the decider
    "options_from_a_hidden_deck": (
        """
        turn:
            choose c in deck as "take {c}"
            end game
        """,
        [(8, 17, "the options offered to player me show the hidden 'deck'")],
        """
        turn:
            choose c in me.hand as "take {c}"
            end game
        """),
    "options_from_another_hand": (
        """
        turn:
            choose:
                "steal" if len([c in next_player(me).hand where c > 4]) > 0:
                    pass
                "wait":
                    pass
            end game
        """,
        [(9, 20, "the options offered to player me show the secret 'hand' of player next_player(me)")],
        """
        turn:
            choose:
                "steal" if len(next_player(me).hand) > 0:
                    pass
                "wait":
                    pass
            end game
        """),
    # 8. the shown text of a secret decision
    "shown_text": (
        """
        turn:
            choose c in me.hand secretly as "play {c}" shown "plays a card and keeps {without(me.hand, c)}"
            end game
        """,
        [(8, 54, "the 'shown' text of this secret decision shows the secret 'hand' of player me")],
        """
        turn:
            choose c in me.hand secretly as "play {c}" shown "plays a card and keeps {len(me.hand) - 1}"
            end game
        """),
    # 9. the text of a reveal
    "reveal_text": (
        """
        turn:
            draw c from deck
            reveal c as "player {me} draws {c} and holds {me.hand}"
            end game
        """,
        [(9, 17, "the text of this 'reveal' shows the secret 'hand' of player me")],
        """
        turn:
            draw c from deck
            reveal c as "player {me} draws {c}"
            log "player {me} drew {c}"
            end game
        """),
    # 10. the end, the teams, the ranking
    "end_condition": (
        """
        turn:
            draw c from deck
            add c to me.hand
        end when any(p in players: 6 in p.hand)
        """,
        [(10, 10, "the end condition depends on the secret 'hand' of player p")],
        """
        turn:
            draw c from deck
            add c to me.hand
        end when any(p in players: len(p.hand) > 2)
        """),
    "rank_by_a_secret": (
        """
        player var points = 0 secret
        rank by points descending
        turn:
            me.points += 1
            end game
        """,
        [(8, 1, "'rank by' ranks the players by the secret variable 'points'")],
        """
        player var points = 0 secret
        rank by points descending
        turn:
            me.points += 1
            end game
        scoring:
            reveal points
        """),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_leak_is_reported_where_it_happens(name):
    leaking, expected, _answered = CASES[name]
    assert reported(leaking) == expected


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_answer_the_guide_gives_is_clean(name):
    _leaking, _expected, answered = CASES[name]
    assert reported(answered) == []


def test_the_diagnostic_names_the_file_line_and_column_and_hints_at_the_answer():
    rules = rules_of("""
        turn:
            if 3 in me.hand:
                me.score += 1
            end game
        """)
    (d,) = secrecy_diagnostics(rules)
    assert d.render() == (
        "secrets.rules:9:9: error: whether the public variable 'score' changes here depends on the secret 'hand' "
        "of player me\n"
        "            me.score += 1\n"
        "            ^\n"
        "  hint: decide it on what every player can see, or 'reveal' the condition first (or wrap what the "
        "rulebook itself shows in revealed(...))")


def test_hints_per_rule():
    def hint(body, head=HEAD):
        (d,) = secrecy_diagnostics(rules_of(body, head))
        return d.hint
    assert hint(CASES["public_variable"][0]) == \
        "make 'score' secret or hidden, or 'reveal' what the rules turn face up"
    assert hint(CASES["decision_existence"][0]) == (
        "ask uniformly (offer the decision every time, with only a decline when there is nothing to choose), "
        "or wrap a condition the rulebook itself reveals in revealed(...)")
    assert hint(CASES["announced_then_kept_secret"][0]) == \
        'choose it secretly (choose ... secretly as "..." shown "...")'
    assert hint(CASES["options_from_a_hidden_deck"][0]) == \
        "offer player me only public values and their own secrets"


def test_a_procedure_parameter_takes_the_callers_player():
    # 'p' in the procedure is player 'me' of the turn: its own hand may be offered to it
    assert reported("""
        procedure offer(p):
            choose c in p.hand by p as "play {c}" optional "pass"
            if c != none:
                move c from p.hand to discard
        turn:
            offer(me)
            end game
        """) == []
    # but not another player's hand
    assert reported("""
        procedure offer(p, q):
            choose c in q.hand by p as "take {c}" optional "pass"
        turn:
            offer(me, next_player(me))
            end game
        """) == [(8, 17, "the options offered to player me show the secret 'hand' of player next_player(me)")]


def test_a_local_is_followed_statement_by_statement_and_joined_after_branches():
    assert reported("""
        turn:
            let x = 0
            me.score = x
            if 3 in me.hand:
                x = 1
            me.score = x
            end game
        """) == [(12, 5, "the public variable 'score' is computed from the secret 'hand' of player me")]


def test_a_loop_runs_twice_so_a_label_grown_in_the_body_reaches_its_start():
    assert reported("""
        turn:
            let x = 0
            repeat 3 times:
                me.score = x
                x = max(me.hand)
            end game
        """) == [(10, 9, "the public variable 'score' is computed from the secret 'hand' of player me")]


def test_len_of_a_variables_list_is_public_but_not_of_a_filtered_one():
    assert reported("""
        turn:
            me.score = len(me.hand) + len(deck) + len(hand[next_player(me)]) + count(c in me.hand)
            end game
        """) == []
    assert reported("""
        turn:
            me.score = len([c in me.hand where c > 3])
            end game
        """) == [(8, 5, "the public variable 'score' is computed from the secret 'hand' of player me")]


def test_a_def_is_analysed_with_its_arguments():
    assert reported("""
        def high(p) = count(c in p.hand where c > 3)
        def size(p) = len(p.hand)
        turn:
            me.score = size(me)
            log "player {me} has {high(me)} high cards" to me
            me.score = high(me)
            end game
        """) == [(12, 5, "the public variable 'score' is computed from the secret 'hand' of player me")]


def test_a_write_through_a_local_reaches_the_variable_it_comes_from():
    head = HEAD + "record token(owner, value)\nvar tokens = []\n"
    assert reported("""
        turn:
            add token(me, 1) to tokens
            let t = last(tokens)
            t.value = max(me.hand)
            tokens[len(tokens)] = t
            end game
        """, head) == [(12, 5, "the public variable 'tokens' is computed from the secret 'hand' of player me"),
                       (13, 5, "the public variable 'tokens' is computed from the secret 'hand' of player me")]


def test_writes_into_secret_or_hidden_places_are_never_reported():
    assert reported("""
        player var kept = [] secret
        turn:
            draw c from deck
            add c to next_player(me).kept
            move c from next_player(me).kept to me.hand
            add c to deck
            end game
        """) == []


def test_face_down_fields_of_records():
    head = HEAD + "record bid(owner, amount secret to owner unless shown, shown)\nvar bids = []\n"
    # the amount is face down until the bid is turned over
    assert reported("""
        turn:
            choose n in [1, 2, 3] secretly as "bid {n}" shown "places a bid"
            add bid(me, n, false) to bids
            for b in bids:
                b.owner.score += b.amount
            end game
        """, head) == [(13, 9, "the public variable 'score' is computed from the face-down field 'amount' of a 'bid'")]
    assert reported("""
        turn:
            choose n in [1, 2, 3] secretly as "bid {n}" shown "places a bid"
            add bid(me, n, false) to bids
            for b in bids:
                log "your bid: {b.amount}" to b.owner
                b.shown = true
                b.owner.score += b.amount
            end game
        """, head) == []


def test_a_secret_choice_is_its_deciders_secret():
    assert reported("""
        turn:
            choose c in me.hand secretly as "play {c}" shown "plays a card"
            log "you played {c}" to me
            log "player {me} played {c}"
            end game
        """) == [(10, 5, "the public log line shows the secret choice 'c' of player me")]


def test_one_report_per_secret_condition_in_a_block():
    # the condition is reported once, at the first thing it decides that others see
    assert reported("""
        turn:
            if 3 in me.hand:
                me.score += 1
                log "a three"
                end game
            end game
        """) == [(9, 9, "whether the public variable 'score' changes here depends on the secret 'hand' of player me")]


def test_the_secret_named_is_the_one_the_condition_reads_itself():
    assert reported("""
        player var secret_side = 0 secret
        turn:
            let x = me.secret_side
            if x > 0 and 3 in me.hand:
                me.score += 1
            end game
        """) == [(11, 9, "whether the public variable 'score' changes here depends on the secret 'hand' of player me")]


def test_unparse_gives_the_source_text_of_a_player_expression():
    rules = parse('game "U"\nplayers 2\nturn:\n    log "{next_player(first(q in players where q != me), 2)}"\n'
                  '    end game\n', "u.rules")
    expr = rules.decls[-1].body[0].message.parts[0]
    assert unparse(expr) == "next_player(first(q in players where q != me), 2)"


@pytest.mark.parametrize("name", ["tic-tac-toe", "connect-four"])
def test_the_classic_games_are_clean(name):
    path = shipped_games()[name]
    assert secrecy_diagnostics(parse(path.read_text(encoding="utf-8"), str(path))) == []


def test_validate_runs_the_secrecy_check():
    rules = parse(HEAD + "turn:\n    log \"{me.hand}\"\n    end game\n", "secrets.rules")
    assert [d.message for d in check(rules)] == ["the public log line shows the secret 'hand' of player me"]


def test_the_secrecy_check_waits_for_the_other_mistakes_to_be_fixed():
    rules = parse(HEAD + "turn:\n    log \"{me.hand} {nope}\"\n    end game\n", "secrets.rules")
    assert [d.message for d in check(rules)] == ["unknown name 'nope'"]


def test_revealed_has_the_kind_of_its_argument():
    rules = parse(HEAD + "turn:\n    me.score = revealed(\"a\")\n    end game\n", "secrets.rules")
    assert [d.message for d in check(rules)] == ["'score' holds a number, not text"]


# ---------------------------------------------------------------- the guide's examples of leaks
DOCS = Path(__file__).resolve().parent.parent / "docs"
FENCE = re.compile(r"^```(rules|text)[ \t]*\n(.*?)^```[ \t]*$", re.S | re.M)


def _guide_section() -> str:
    """The guide's section on the check (its own file until it is merged into language.md)."""
    own = DOCS / "secrecy-check-section.md"
    if own.exists():
        return own.read_text(encoding="utf-8")
    text = (DOCS / "language.md").read_text(encoding="utf-8")
    start = text.index("### The secrecy check")
    end = re.search(r"^#{2,3} ", text[start + 4:], re.M)
    return text[start:start + 4 + end.start()] if end else text[start:]


def _leaks():
    """Each ```text example with '# error: message' lines: the code and the messages it must give."""
    out = []
    for kind, code in FENCE.findall(_guide_section()):
        errors = [line.split("# error: ", 1)[1] for line in code.splitlines() if "# error: " in line]
        if kind == "text" and errors:
            code = "".join(line + "\n" for line in code.splitlines() if "# error: " not in line)
            out.append(pytest.param(code, errors, id=code.splitlines()[-1].strip()[:40]))
    return out


def _examples_game() -> str:
    text = (DOCS / "language.md").read_text(encoding="utf-8")
    return next(code for kind, code in FENCE.findall(text) if code.startswith('game "Examples"'))


@pytest.mark.parametrize("code,errors", _leaks())
def test_the_guides_examples_of_leaks_give_the_reports_it_shows(code, errors, tmp_path):
    (tmp_path / "examples.rules").write_text(_examples_game(), encoding="utf-8")
    if not code.startswith(("turn:", "player ", "var ", "end ", "observe:")):
        code = "turn:\n" + textwrap.indent(code, "    ")
    path = tmp_path / "leak.rules"
    path.write_text('extends "examples.rules"\n' + code, encoding="utf-8")
    rules = _apply_extends(parse(path.read_text(encoding="utf-8"), str(path)), path)
    assert base_errors(rules) == []
    assert [d.message for d in secrecy_diagnostics(rules)] == errors


# ---------------------------------------------------------------- found by review
def test_a_step_or_a_shuffle_under_a_secret_condition_is_seen():
    assert reported("""
        turn:
            if len(me.hand) > 0 and me.hand[1] == 1:
                step "bluffing":
                    pass
            end game
        """) == [(9, 9, "whether the step 'bluffing' begins here depends on the secret 'hand' of player me")]
    assert reported("""
        turn:
            if len(me.hand) > 0 and me.hand[1] == 1:
                shuffle discard
            end game
        """) == [(9, 9, "whether a public list is shuffled here depends on the secret 'hand' of player me")]


def test_who_reads_a_private_log_must_not_depend_on_a_secret():
    head = HEAD + "player var target = 1 secret\n"
    assert reported("""
        turn:
            log "someone has targeted you" to me.target
            end game
        """, head) == [(9, 39, "who reads this log line depends on the secret 'target' of player me")]


def test_revealing_one_players_entry_reveals_no_other():
    assert reported("""
        turn:
            reveal me.hand
            log "mine: {me.hand}"
            log "all: {hand}"
            end game
        """) == [(10, 5, "the public log line shows the secret 'hand' of every player")]


def test_a_secret_score_is_ranked_and_shown_by_the_outcome_without_rank_by():
    head = HEAD.replace("player var score = 0", "player var score = 0 secret")
    assert reported("""
        turn:
            end game
        """, head) == [(6, 1, "the outcome ranks the players by the secret variable 'score'")]


def test_a_diagnostic_in_a_base_file_quotes_the_base_files_line(tmp_path):
    (tmp_path / "base.rules").write_text(HEAD + 'turn:\n    log "player {me} holds {me.hand}"\n    end game\n',
                                         encoding="utf-8")
    path = tmp_path / "variant.rules"
    path.write_text('extends "base.rules"\nvar extra = 1\n', encoding="utf-8")
    rules = _apply_extends(parse(path.read_text(encoding="utf-8"), str(path)), path)
    (d,) = secrecy_diagnostics(rules)
    assert (Path(d.file).name, d.line, d.column) == ("base.rules", 8, 5)
    assert d.source_line == '    log "player {me} holds {me.hand}"'


# ---------------------------------------------------------------- match
def test_a_match_depends_on_its_subject_every_pattern_tested_and_its_arms():
    assert reported("""
        turn:
            me.score = match len(me.hand) { 0: 1, 1 | 2: 2, else: 3 }
            me.score = match { if len(me.hand) > 4: len(deck), else: 0 }
            end game
        """) == []
    assert reported("""
        turn:
            me.score = match { if 6 in me.hand: 2, else: 1 }
            me.score = match 6 { 1 | max(me.hand): 2, else: 1 }
            me.score = match len(me.hand) { 0: 0, else: max(me.hand) }
            me.score = match max(me.hand) { 6: 1, else: 0 }
            end game
        """) == [(8, 5, "the public variable 'score' is computed from the secret 'hand' of player me"),
                 (9, 5, "the public variable 'score' is computed from the secret 'hand' of player me"),
                 (10, 5, "the public variable 'score' is computed from the secret 'hand' of player me"),
                 (11, 5, "the public variable 'score' is computed from the secret 'hand' of player me")]


def test_a_list_chosen_by_a_match_has_the_length_of_the_arm_taken():
    assert reported("""
        turn:
            for c in match len(me.hand) { 0: discard, else: [1, 2] }:
                me.score += 1
            end game
        """) == []
    assert reported("""
        turn:
            for c in match { if 6 in me.hand: discard, else: [1, 2] }:
                me.score += 1
            end game
        """) == [(9, 9, "whether the public variable 'score' changes here depends on the secret 'hand' of player me")]


def test_a_match_on_a_secret_deciding_whether_a_player_is_asked():
    assert reported("""
        turn:
            if match { if 6 in me.hand: true, else: false }:
                choose c in me.hand as "play {c}"
            end game
        """) == [(9, 9, "whether player me is asked here depends on the secret 'hand' of player me")]


def test_revealed_in_a_match_subject_makes_the_local_public_but_not_in_an_arm():
    assert reported("""
        turn:
            let x = len([c in me.hand where c > 3])
            me.score = match revealed(x) { 0: 0, else: 1 }
            me.score = x
            end game
        """) == []
    assert reported("""
        turn:
            let x = len([c in me.hand where c > 3])
            me.score = match len(me.hand) { 0: revealed(x), else: 1 }
            me.score = x
            end game
        """) == [(10, 5, "the public variable 'score' is computed from the secret 'hand' of player me")]


def test_unparse_of_a_match():
    rules = parse('game "U"\nplayers 2\nturn:\n    log "x" to match me { 1 | 2: next_player(me), else: 1 }\n'
                  '    log "y" to match { if me == 1: 2, else: 1 }\n    end game\n', "u.rules")
    turn = rules.decls[-1].body
    assert unparse(turn[0].to) == "match me {1 | 2: next_player(me), else: 1}"
    assert unparse(turn[1].to) == "match {if me == 1: 2, else: 1}"


# ---------------------------------------------------------------- let lines in a def
def test_the_let_lines_of_a_def_bind_their_value_for_the_rest_of_it():
    assert reported("""
        def spare(p) =
            let h = p.hand
            let n = len(h)
            n + len(deck)
        turn:
            me.score = spare(me)
            end game
        """) == []
    assert reported("""
        def best(p) =
            let h = [c in p.hand where c > 2]
            let n = len(h)
            n + 1
        turn:
            me.score = best(me)
            end game
        """) == [(12, 5, "the public variable 'score' is computed from the secret 'hand' of player me")]
    # a let line's local hides what it is named after, the def's parameter too
    assert reported("""
        def top(p, h) =
            let h = p.hand
            max(h)
        turn:
            me.score = top(me, discard)
            end game
        """) == [(11, 5, "the public variable 'score' is computed from the secret 'hand' of player me")]


def test_a_player_named_by_a_let_line_is_the_player_of_its_value():
    # 'q' stands for 'p', which is 'me' at the call: me's own hand may be logged to me
    assert reported("""
        def held(p) =
            let q = p
            q.hand
        turn:
            log "you hold {held(me)}" to me
            log "player {me} holds {held(me)}"
            end game
        """) == [(12, 5, "the public log line shows the secret 'hand' of player me")]


# ---------------------------------------------------------------- choose ... automatic
AUTOMATIC = ("whether player me is asked here ('automatic': only when two options or more are legal) depends on "
             "the secret 'hand' of player me")


def test_an_automatic_decision_is_asked_only_when_its_options_count_says_so():
    # how many cards in a hand everyone sees; a public list filtered by a public 'where' is public
    assert reported("""
        turn:
            choose c in me.hand automatic as "play {c}"
            choose d in discard where d > 3 automatic as "take {d}"
            choose e in me.hand where e > 3 as "play {e}" optional "pass"
            end game
        """) == []
    # which cards pass the 'where' is the decider's own secret, but whether they are asked is public
    assert reported("""
        turn:
            choose c in me.hand where c > 3 automatic as "play {c}"
            choose d in [x in me.hand where x > 3] secretly automatic as "play {d}" optional "pass"
            end game
        """) == [(8, 5, AUTOMATIC), (9, 5, AUTOMATIC)]


def test_an_automatic_decision_hints_at_its_answer():
    (d,) = secrecy_diagnostics(rules_of("""
        turn:
            choose c in me.hand where c > 3 automatic as "play {c}"
            end game
        """))
    assert d.hint == ("drop 'automatic' (ask even when only one option is legal), or make the list public: one "
                      "whose length every player sees, with no 'where' that reads a secret")


def test_automatic_in_an_each_decision():
    head = HEAD + "player var kept = [] secret\n"
    assert reported("""
        turn:
            each p in players secretly choose c in p.hand where c > 3 automatic as "keep {c}":
                move c from p.hand to p.kept
            end game
        """, head) == [(9, 5, "whether player p is asked here ('automatic': only when two options or more are "
                              "legal) depends on the secret 'hand' of player p")]
    assert reported("""
        turn:
            each p in players secretly choose c in p.hand automatic as "keep {c}":
                move c from p.hand to p.kept
            end game
        """, head) == []


# ---------------------------------------------------------------- procedure calls inside expressions
PROCEDURES = {
    "roll": """\
procedure roll(p):
    choose c in [1, 2, 3, 4, 5, 6] by p secretly as "roll {c}" shown "rolls a die"
    return c
""",
    "public_roll": """\
procedure public_roll(p):
    choose c in [1, 2, 3, 4, 5, 6] by p as "roll {c}"
    return c
""",
    "cheer": """\
procedure cheer(p):
    log "player {p} cheers"
    return 1
""",
    "top": """\
procedure top(p):
    return max(p.hand)
""",
    "twice": """\
procedure twice(x):
    return 2 * x
"""}


def with_procedures(*names) -> str:
    """HEAD and the procedures named (each three lines but top and twice, two)."""
    return HEAD + "".join(PROCEDURES[n] for n in names)


def test_the_value_a_procedure_returns_flows_into_the_expression_it_stands_in():
    assert reported("""
        turn:
            if public_roll(me) > 3:
                me.score += 1
            me.score = 2 * public_roll(me) + cheer(me)
            let x = public_roll(me) + public_roll(me)
            me.score = x
            end game
        """, with_procedures("public_roll", "cheer")) == []
    assert reported("""
        turn:
            if roll(me) > 3:
                me.score += 1
            let x = 2 * roll(me)
            me.score = x
            me.score = cheer(me) + top(me)
            end game
        """, with_procedures("roll", "cheer", "top")) == [
            (17, 9, "whether the public variable 'score' changes here depends on the secret choice 'c' of player me"),
            (19, 5, "the public variable 'score' is computed from the secret choice 'c' of player me"),
            (20, 5, "the public variable 'score' is computed from the secret 'hand' of player me")]


def test_the_calls_in_a_calls_arguments_run_first():
    assert reported("""
        turn:
            me.score = twice(roll(me))
            me.score = twice(public_roll(me))
            end game
        """, with_procedures("roll", "public_roll", "twice")) == [
            (16, 5, "the public variable 'score' is computed from the secret choice 'c' of player me")]


def test_what_a_procedure_in_an_expression_does_happens_at_its_statement():
    assert reported("""
        turn:
            if 6 in me.hand:
                let x = cheer(me) + 1
            if len(me.hand) > 2:
                let y = 1 + public_roll(me)
            elif 6 in me.hand:
                pass
            elif public_roll(me) > 3:
                pass
            end game
        """, with_procedures("cheer", "public_roll")) == [
            (15, 17, "whether 'cheer' writes a public log line here depends on the secret 'hand' of player me"),
            (20, 10, "whether player me is asked here (in 'public_roll') depends on the secret 'hand' of player me")]


def test_a_while_condition_calling_a_procedure_runs_it_again_after_each_round():
    assert reported("""
        turn:
            while public_roll(me) > 3:
                me.score += 1
            end game
        """, with_procedures("public_roll")) == []
    # the next roll is asked for only if the secret roll before it was high: the others learn it
    assert reported("""
        turn:
            while roll(me) > 3:
                pass
            end game
        """, with_procedures("roll")) == [
            (11, 11, "whether player me is asked here (in 'roll') depends on the secret choice 'c' of player me")]


def test_procedures_in_the_lists_counts_and_players_of_statements():
    assert reported("""
        turn:
            repeat roll(me) times:
                me.score += 1
            end game
        """, with_procedures("roll")) == [
            (12, 9, "whether the public variable 'score' changes here depends on the secret choice 'c' of player me")]
    assert reported("""
        turn:
            for c in [public_roll(me), roll(me)]:
                me.score += 1
            choose d in [public_roll(me), roll(me)] as "keep {d}"
            win [first(players)] if public_roll(me) > 3 else players
            end game
        """, with_procedures("roll", "public_roll")) == []
    assert reported("""
        turn:
            win [first(players)] if roll(me) > 3 else players
            end game
        """, with_procedures("roll")) == [
            (11, 5, "the winners named here are computed from the secret choice 'c' of player me")]


def test_a_secret_passed_to_a_procedure_is_reported_at_the_call_where_it_enters():
    # the body leaks only what it is given: the report is at the argument, naming the procedure and its line
    assert reported("""
        procedure tell(x):
            log "it is {x}"
        turn:
            tell(1)
            tell(me.hand)
            end game
        """) == [(11, 10, "the public log line shows the secret 'hand' of player me "
                           "(passed here to the procedure 'tell', line 8)")]
    # through two procedures: at the outer call, naming both in the order the value goes
    assert reported("""
        procedure keep(x):
            discard = x
        procedure pass_on(y):
            keep(y)
        turn:
            pass_on(me.hand)
            end game
        """) == [(12, 13, "the public variable 'discard' is computed from the secret 'hand' of player me "
                           "(passed here to the procedure 'pass_on', line 10, then to 'keep', line 8)")]
    # what the body leaks on its own stays in the body
    assert reported("""
        procedure tell(x):
            log "it is {x} {deck}"
        turn:
            tell(1)
            end game
        """) == [(8, 5, "the public log line shows the hidden 'deck'")]


def test_a_face_up_guard_is_followed_into_a_def_call():
    head = HEAD + "record bid(owner, value secret to owner unless turned, turned)\nvar bids = []\n" \
        'def bid_text(b) = "{b.owner}:{b.value}"\n'
    assert reported("""
        turn:
            log "{[b in bids where b.turned: bid_text(b)]}"
            log "{[b in bids where b.turned: b.value]}"
            log "{[b in bids: bid_text(b)]}"
            end game
        """, head) == [(13, 5, "the public log line shows the face-down field 'value' of a 'bid'")]


def test_revealing_every_players_entry_in_a_for_over_players_lasts_to_the_end_of_the_block():
    head = HEAD.replace("player var score = 0", "player var score = 0 secret")
    scoring = """
        turn:
            me.score += 1
            end game
        scoring:
            for p in players:
                reveal p.score
        """
    assert reported(scoring + "rank by score descending\n", head) == []
    assert reported(scoring, head) == []  # the outcome shows the scores: revealed
    assert reported("""
        turn:
            if true:
                for p in players:
                    reveal p.score
                discard = [p in players: p.score]
            discard = [p in players: p.score]
            end game
        scoring:
            for p in players:
                reveal p.score
        """, head) == [(12, 5, "the public variable 'discard' is computed from the secret 'score' of player p")]
    # over some players only, or revealed under a condition in the loop: the variable stays secret
    assert reported("""
        turn:
            end game
        scoring:
            for p in [p in players where p != 1]:
                reveal p.score
        rank by score descending
        """, head) == [(12, 1, "'rank by' ranks the players by the secret variable 'score'")]


def test_the_hint_of_a_secret_ranking_says_how_to_reveal_every_players_entry():
    head = HEAD.replace("player var score = 0", "player var score = 0 secret")
    [d] = secrecy_diagnostics(rules_of("turn:\n    end game\n", head))
    assert "for p in players: reveal p.v" in d.hint
