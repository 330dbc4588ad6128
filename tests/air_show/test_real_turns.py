"""Phases 3, 5, 10 and 11 over real turns (issue 39, item 2): seeded games are played by random legal
moves, and each time a phase is played the state before it and after it are compared with the
rulebook's account of the phase, worked out here from the state before it and the decisions the
players made (which plane they sold, which reward they took). No state is set by hand.

- 3. Auction Resolution: "The player with the highest value wins that card. In case of a tie the card
  will go to the player who first bid on it." "They must pay the K value on the card plus the value of
  their winning bid." "If the player cannot afford the price they must sell to the bank one or more of
  their undamaged plane cards. The price they receive is the K value on the sold plane card ... If no
  planes are available to be sold the player forfeits the purchase and the next highest bidder must
  buy the card."
- 5. Check Hangar Space: "Each hangar can hold a total of seven planes. If they do not have enough
  space then ... a player can buy an additional hangar (if available) or sell planes until all the
  player's planes can be hangared."
- 10. mechanical stress: "All of the breakdown tokens are applied to one plane in the player's air
  show": "The oldest plane (the plane with the lowest year) of the period on the left. The oldest
  plane of the period on the right (if shown). The oldest plane in the show."
- 11. Air Show Results, with the Press Office and the Stands: each period group that flew earns the
  P (or EX) values of its planes and of its card, and a flag for each aerobatic plane under an
  aerobatic card; the Press Office adds a prestige for each group scored, the Stands 3K at the gate."""
from __future__ import annotations

import functools
import random
from collections import Counter

from rulewright.interpreter.testing import offers, positions

from .helpers import game

BIDDING, RESOLUTION = "auction bidding", "auction resolution"
RESULTS = "air show results"
# The weather effects table and the mechanical stress table (docs/games/air-show.md, "The tables"),
# written out here, not read from the rules file.
GROUNDED_FROM = {"A1": 1, "A2": 3, "A3": 5, "A4": 7, "A5": 9, "A6": 11}
STRESS = {"A1": (1, 1, 2, 3), "A2": (0, 1, 2, 2), "A3": (0, 1, 1, 2), "A4": (0, 0, 1, 2), "A5": (0, 0, 1, 1),
          "A6": (0, 0, 0, 1)}                                # at a stress total of 1, 3, 5, 7 and more
SEEDS = range(6)


@functools.lru_cache(maxsize=None)
def crossings(start: str, then: tuple = (), first: bool = False, seeds: tuple = tuple(SEEDS)) -> list:
    """Each time a seeded four-player random game (game seed = agent seed) plays through the step
    ``start`` and the steps ``then``: (the state at the last decision of ``start``, or with ``first``
    its first, the moves made from there, the state at the next decision outside them, or the end).
    Shared by the tests (a turn is cloned once)."""
    steps = (start,) + then
    found = []
    for seed in seeds:
        st, rng = game(4).new_state(seed=seed), random.Random(seed)
        before, made = None, []
        while not st.is_over():
            if st.step == start and (before is None or not first):
                before, made = st.clone(), []
            move = rng.choice(st.legal_moves())
            made.append(move.text)
            st.apply(move)
            if before is not None and (st.is_over() or st.step not in steps):
                found.append((before, tuple(made), st.clone()))
                before = None
    return found


def _bid_totals(bids):
    """Each bidder's total below a card, in the order of their first bid."""
    totals = {}
    for b in bids:
        totals[b["owner"]] = totals.get(b["owner"], 0) + b["value"]
    return totals


def _lots(before, moves):
    """The cards up for auction and the tokens below them: those placed before, and the last one, the
    move made (``bid V on LOT``) by the player to move."""
    lots = [{"plane": l["plane_card"], "event": l["event_card"], "bids": list(l["bids"])} for l in before.vars["lots"]]
    value, lot = moves[0].split(" ", 2)[1:]
    value, lot = int(value), lot.split(" ", 1)[1]
    named = next(l for l in lots if (l["plane"] or f"the event {l['event']}") == lot)
    named["bids"].append({"owner": before.to_move()[0], "value": value})
    return lots


def test_the_highest_bid_wins_ties_to_the_first_bidder_paid_by_selling_or_forfeit():
    """Phase 3 at the end of every auction of the games: each card goes to the highest total (a tie to
    the one who bid first), who pays its K value plus the bid, selling undamaged planes at their K
    value when short; one who cannot pay even so forfeits it to the next. Over the games there are
    ties, sales and forfeits."""
    price = game().compiled.columns["price"]
    seen = set()
    for before, moves, after in crossings(BIDDING, (RESOLUTION,)):
        if not moves[0].startswith("bid ") or " on " not in moves[0]:
            continue                                     # the auction's last decision is a token's value
        bv, av, n = before.vars, after.vars, before.game.player_count
        played_events = any(m.startswith("play ") for m in moves)     # an event played for its repairs
        damaged = {a["card"]: a["damage"] for a in bv["display"]}
        # what a bidder can raise: the flags held and the K values of the undamaged planes
        worth = [bv["money"][q] + sum(price[a["card"]] for a in bv["fleet"][q] if a["damage"] == 0) for q in range(n)]
        paid, won = Counter(), {}
        for lot in _lots(before, moves):
            totals = _bid_totals(lot["bids"])
            ranked = sorted(totals, key=lambda q: -totals[q])    # stable: ties keep the first bidder first
            if len(ranked) > 1 and totals[ranked[0]] == totals[ranked[1]]:
                seen.add("tie")
            if ranked and ranked[0] != lot["bids"][0]["owner"]:
                seen.add("outbid")                       # a later bidder's higher total wins
            for q in ranked:
                cost = totals[q] + (price[lot["plane"]] if lot["plane"] else 0)
                if worth[q - 1] >= cost or played_events:
                    won[lot["plane"] or lot["event"]] = q
                    paid[q] += cost
                    worth[q - 1] -= cost
                    if lot["plane"] and damaged[lot["plane"]] == 0:
                        worth[q - 1] += price[lot["plane"]]
                    break
                seen.add("forfeit")
        if played_events:
            seen.add("repair")
            continue                                     # its repairs let a damaged plane be sold
        for card, q in won.items():
            if card in price:
                assert card not in [a["card"] for a in av["display"]], (before, moves)
            else:
                assert av["held_events"][q - 1].count(card) > bv["held_events"][q - 1].count(card)
        for q in range(1, n + 1):
            had = [(a["card"], a["damage"]) for a in bv["fleet"][q - 1]] + \
                [(c, damaged[c]) for c, w in won.items() if w == q and c in price]
            sold = Counter(had) - Counter((a["card"], a["damage"]) for a in av["fleet"][q - 1])
            assert Counter(had) - sold == Counter((a["card"], a["damage"]) for a in av["fleet"][q - 1])
            assert all(level == 0 for _card, level in sold), (before, moves)      # undamaged planes only
            if sold:
                seen.add("sale")
            assert av["money"][q - 1] == bv["money"][q - 1] - paid[q] + sum(price[c] * k for (c, _), k in sold.items())
    assert seen >= {"tie", "outbid", "sale", "forfeit"}, seen


COLUMNS = game().compiled.columns
SIGN = {"sunny": -1, "bad": 1, "green": -1, "red": 1}
EVENTS = set(game().compiled.tables["event"])


def _total(cards, symbol, value):
    """A weather or stress total: bad weather and red spanners add, sunny and green subtract."""
    return sum(SIGN[COLUMNS[symbol][c]] * COLUMNS[value][c] for c in cards)


def _show(st, p):
    """Player p's show once turned over: the planes entered, and the cards played on its groups with
    the master card."""
    v = st.vars
    planes = [a for a in v["fleet"][p - 1] if a["entered"] and a["unveiled"]]
    cards = [g["placed"] for g in v["groups"][p - 1] if g["unveiled"] and g["placed"] is not None]
    return planes, cards + [v["master"]]


def _oldest(planes):
    return min(planes, key=lambda a: COLUMNS["year"][a["card"]])


PERFORMANCE = ("air show preparation", ("determine master weather and mechanical stress check",
                                         "resolve air show performance"))


def test_the_stress_strikes_the_oldest_plane_of_the_masters_period_else_the_oldest_shown():
    """Phase 10 in every turn of the games: the stress total (the played cards' and the master's
    spanners) gives the breakdown level of the stress table's row of the plane it strikes: the oldest
    of the master's left period, else of its right, else the oldest in the show. Over the games the
    stress strikes by each of the three and a total of less than 1 strikes nothing."""
    seen = set()
    for before, moves, after in crossings(*PERFORMANCE):
        if after.is_over() or after.step != RESULTS or after.vars["master"] is None \
                or any(m.startswith("play ") and m[5:] in EVENTS for m in moves):
            continue                                     # no show to read, or an event repaired the plane
        master = after.vars["master"]
        for p in range(1, after.game.player_count + 1):
            planes, cards = _show(after, p)
            was = {a["card"]: a["damage"] for a in before.vars["fleet"][p - 1]}
            now = {a["card"]: a["damage"] for a in after.vars["fleet"][p - 1]}
            if not planes:
                assert now == was
                continue
            stress = _total(cards, "spanner", "spanner_value")
            left = [a for a in planes if COLUMNS["period"][a["card"]] == COLUMNS["left"][master]]
            right = [a for a in planes if COLUMNS["period"][a["card"]] == COLUMNS["right"][master]]
            hit = _oldest(left or right or planes)
            row = STRESS[COLUMNS["period"][hit["card"]]]
            level = next((row[k] for k, at in reversed(list(enumerate((1, 3, 5, 7)))) if stress >= at), 0)
            seen.add("nothing" if stress < 1 else "left" if left else "right" if right else "oldest")
            assert now == {c: d + (level if c == hit["card"] else 0) for c, d in was.items()}, (p, before.seed)
    assert seen == {"nothing", "left", "right", "oldest"}, seen


def test_each_group_that_flew_earns_its_reward_with_the_press_office_and_the_stands():
    """Phase 11 in every turn of the games: each period group with a plane that flies (shown,
    undamaged, its period not grounded by the weather total) earns, as its owner chooses, the P (or
    EX) values of its planes and of its card, plus a flag for each aerobatic plane under an aerobatic
    card; the Press Office then adds a prestige for each group scored, the Stands 3K if one was (and
    nothing if none was). Over the games players hold the Press Office and the Stands, with groups
    scored and without, and planes are grounded."""
    seen = set()
    for before, moves, after in crossings(RESULTS, first=True):
        v, n = before.vars, before.game.player_count
        takes = iter(m for m in moves if m.startswith("take "))
        for p in [(v["first_player"] - 1 + k) % n + 1 for k in range(n)]:
            planes, cards = _show(before, p)
            weather = _total(cards, "weather", "weather_value")
            prestige = money = scored = 0
            for g in v["groups"][p - 1]:
                period = g["group_period"]
                shown = [a["card"] for a in planes if COLUMNS["period"][a["card"]] == period and a["damage"] == 0]
                flying = shown if weather < GROUNDED_FROM[period] else []
                if shown and not flying:
                    seen.add("grounded")
                if not flying:
                    continue
                card = g["placed"]
                bonus = sum(COLUMNS["aerobatic"][c] for c in flying) if card and COLUMNS["aerobatic"][card] else 0
                seen.update({"aerobatic bonus"} if bonus else ())
                chosen = next(takes)
                assert chosen.endswith(f" for {period}"), (chosen, period)
                value = "p_value" if chosen.startswith("take prestige") else "ex_value"
                seen.add(value)
                gain = sum(COLUMNS[value][c] for c in flying) + (COLUMNS[value][card] if card else 0) + bonus
                prestige, money = (prestige + gain, money) if value == "p_value" else (prestige, money + gain)
                scored += 1
            built = v["developments"][p - 1]
            if scored and "Press Office" in built:
                prestige += scored
                seen.add("Press Office")
            if "Stands" in built:
                money += 3 if scored else 0
                seen.add("Stands" if scored else "Stands, nothing flew")
            a = after.vars
            assert (a["prestige"][p - 1], a["money"][p - 1]) == \
                (v["prestige"][p - 1] + prestige, v["money"][p - 1] + money), (p, before.seed, moves)
    assert seen == {"p_value", "ex_value", "grounded", "aerobatic bonus", "Press Office", "Stands",
                    "Stands, nothing flew"}, seen


# the Hangar token's price (docs/games/air-show.md, "The development tokens and the deployment table")
HANGAR_COST = 10
# Seeded games of three players (random moves) in which a player's planes outnumber the hangars, found
# once by a search over seeds 0-39: in 0 they can only sell, in 3 and 14 they may buy a hangar too.
CROWDED = (0, 3, 14)


def _capacity(developments):
    """"Each hangar can hold a total of seven planes": the printed hangar space and each Hangar token."""
    return 7 * (1 + developments.count("Hangar"))


def test_planes_beyond_the_hangars_room_make_their_owner_buy_a_hangar_or_sell():
    """Phase 5 wherever a seeded game asks it: a player whose planes outnumber the room may buy a
    hangar, if one is in its stack, affordable and the airfield has a square (or the printed space)
    for it, and otherwise only sell; a hangar bought adds seven places for 10K, a plane sold (any of
    them) goes for its K value; the player is asked again until the planes fit."""
    price = COLUMNS["price"]
    seen = set()
    for found in positions(game(3), offers("^sell a plane$"), seeds=CROWDED, each=3):
        st = found.state
        p, v = st.to_move()[0], st.vars
        fleet, built, money = [a["card"] for a in v["fleet"][p - 1]], v["developments"][p - 1], v["money"][p - 1]
        assert len(fleet) > _capacity(built)
        may_buy = v["stock"]["Hangar"] > 0 and money >= HANGAR_COST and len(built) < 6
        assert [m.text for m in st.legal_moves()] == ["buy a hangar"] * may_buy + ["sell a plane"]
        if may_buy:
            seen.add("buy")
            bought = st.clone()
            bought.apply("buy a hangar")
            b = bought.vars
            assert (b["developments"][p - 1], b["money"][p - 1], b["stock"]["Hangar"]) == \
                (built + ["Hangar"], money - HANGAR_COST, v["stock"]["Hangar"] - 1)
        st.apply("sell a plane")
        assert sorted(m.text for m in st.legal_moves()) == sorted(f"sell {c} for {price[c]}K" for c in fleet)
        for card in fleet:
            sold = st.clone()
            sold.apply(f"sell {card} for {price[card]}K")
            assert Counter(a["card"] for a in sold.vars["fleet"][p - 1]) == Counter(fleet) - Counter([card])
            assert sold.vars["money"][p - 1] == money + price[card]
            still = len(fleet) - 1 > _capacity(built)
            assert (sold.step == "check hangar space" and sold.to_move() == [p]
                    and "sell a plane" in [m.text for m in sold.legal_moves()]) == still
            seen.add("asked again" if still else "fits")
    assert seen == {"buy", "asked again", "fits"}, seen


def test_a_master_card_drawn_from_an_empty_deck_comes_from_the_shuffled_discards():
    """Phase 9 in every turn of the games: "The first player turns over the top card of the air show
    deck ... Shuffle the discard deck if a new deck is needed." (and phase 7: "Should the air show draw
    pile run out then immediately shuffle the discard pile to form a new draw deck"). Where the deck
    is empty when the master card is due, the discards become the new deck, the master its top card."""
    reshuffled = 0
    for before, _moves, after in crossings(*PERFORMANCE):
        if before.vars["show_deck"] or after.is_over() or after.step != RESULTS:
            continue
        discards, a = Counter(before.vars["show_discard"]), after.vars
        if not discards:
            assert a["master"] is None                    # every card in the hands: no master card
            continue
        reshuffled += 1
        assert a["master"] in discards and a["show_discard"] == []
        assert Counter(a["show_deck"]) + Counter([a["master"]]) == discards
    assert reshuffled
