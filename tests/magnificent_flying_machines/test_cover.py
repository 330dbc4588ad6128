"""Rules and cards the scenarios elsewhere leave out (issue 39, item 2; the table is "Rule and card
coverage" in docs/games/magnificent-flying-machines.md): the set-up's order and cargo, the weather
change cards, the Helicopter and the Seaplane, the cards played in one's own turn (Swap the Maps,
Crosswind, Field Repairs, Spare Fuel Can, Official Scrutiny), the answers to a dirty trick or a cad
symbol (Immunity, This Means War), the final airfield's once-only tests and the two-player end.
Each plays real moves and checks the state before and after."""
from __future__ import annotations

import copy

import pytest

from rulewright.interpreter.testing import logs, mover, positions, refresh, texts

from .helpers import HITS, SPECIAL_ACTIONS, asked, assert_dice, attempt, decline, game, is_cad_answer, machine_tested, \
    mover_ship, others_in, own_card_plays, race, set_up, ship, special_action_turns, title_of, total_damage, \
    trick_at_a_holder_of, trick_at_each_target, turns_to_the_end, weather, weather_symbols
from .real_positions import cad_windows_of, dice_against, scrutiny_windows


FIELDS, TOWN, WATER, MOUNTAIN, FINAL = 2, 3, 4, 5, 11


def quiet(st):
    for place in range(2, 12):
        weather(st, place, "Fine")


# ---------------------------------------------------------------- 6 set-up, standard rules
@pytest.mark.parametrize("race", ["standard", "long", "random"])
def test_special_cargo_never_lies_on_a_tile_of_its_own_terrain(race):
    """6.6: "As you place each special cargo token on a terrain tile check to ensure that the terrain
    of the tile does not match the terrain of the special cargo ... If it does replace it with another
    special cargo token." Over a few set-ups, every special cargo token lies on another terrain."""
    seen = 0
    for seed in range(6):
        st = game(4, race=race).new_state(seed=seed)
        kinds, cargo_kind = st.game.columns["kind"], st.game.columns["destination"]
        middle = st.vars["course"].index("Middle Airfield")
        for i, (place, here) in enumerate(zip(st.vars["course"], st.vars["tile_cargo"])):
            for token in here:
                # 6.2: general cargo from the middle airfield on, special cargo before it
                assert (cargo_kind[token] in ("none", None)) == (i >= middle), (seed, place, token)
                if cargo_kind[token] not in ("none", None):
                    seen += 1
                    assert cargo_kind[token] != kinds[place], (seed, place, token)
    assert seen >= 6 * 4                                    # special cargo was placed at all


def test_pilots_machines_and_equipment_are_chosen_anti_clockwise_from_the_right_of_the_first_player():
    """6.7 "The player to the right of the first player chooses a pilot ... Continue round
    anti-clockwise", 6.8 the same for the machines, 6.9 for each round of equipment."""
    st = game(4, race="standard").new_state(seed=2)
    first = st.vars["first_player"]
    clockwise = sorted(range(1, 5), key=lambda q: st.vars["order"][q - 1])
    assert clockwise[0] == first
    anti = clockwise[::-1]                                   # the player to the right of the first first
    assert st.vars["ships"] == []
    made = set_up(st)
    pilots = [p for p, m in made if m.endswith(" as pilot")]
    machines = [p for p, m in made if m.startswith("choose the ")]
    equipment = [p for p, m in made if m.startswith("take ")]
    assert pilots == anti and machines == anti
    assert equipment[:8] == anti + anti
    owners = {s["owner"]: s for s in st.vars["ships"]}
    for p, m in made:
        if m.endswith(" as pilot"):
            assert owners[p]["pilot"] == m[len("choose "):-len(" as pilot")]


# ---------------------------------------------------------------- 8.5 end of round: the weather change cards
# Every weather change card drawn in two seeded races (quick start, 3 players, seeds 19 and 32, real
# moves), with the weather over the course before and after it.
RACES = (19, 32)


def changes(card):
    found = [c[1:] for seed in RACES for c in race(3, seed).changes if c[0] == card]
    assert found, card
    return found


def skies(weather):
    return [w["sky"] if w else None for w in weather]


TERRAIN = ["Fields", "Town", "Water", "Mountain", "Airfield"]


@pytest.mark.parametrize("terrain", TERRAIN)
def test_a_change_in_the_weather_replaces_the_face_up_tiles_of_its_terrain(terrain):
    """8.5: "5 of them show the phrase "Change in the Weather" and a terrain symbol ... Remove any face
    up tiles on terrain tiles matching these symbols and deal out a replacement." A face-down tile of
    that terrain, and every other tile, stays as it was."""
    course = race(3, RACES[0]).state.vars["course"]
    replaced = 0
    for before, after, pile, pile_after in changes("Change in the Weather: %s" % terrain):
        hit = [i for i in range(1, len(course)) if terrain in course[i] and before[i]["up"]]
        for i in range(1, len(course)):
            if i in hit:
                assert after[i]["up"], course[i]          # a new tile, dealt face up
            else:
                assert after[i] == before[i], course[i]
        if pile >= len(hit):                              # the new tiles come off the pile
            assert pile - pile_after == len(hit)
        replaced += len(hit)
    assert replaced > 0


def test_a_westerly_wind_moves_every_weather_tile_one_to_the_right():
    """8.5: "Move all the terrain tiles one space to the right, discard the tile that has as a result
    been pushed off the end of the board and deal out a new one to the empty space at the far left."
    The new tile is face up (it is next to the starting airfield)."""
    for before, after, pile, pile_after in changes("Westerly Wind"):
        assert skies(after)[2:] == skies(before)[1:-1]
        assert after[1]["up"] and (pile == 0 or pile - pile_after == 1)


def test_an_easterly_wind_moves_every_weather_tile_one_to_the_left():
    """8.5: "Move all the terrain tiles one space to the left, discard any tile that has as a result
    been pushed off the end of the board and deal out a new one to the empty space at the far right.\""""
    for before, after, pile, pile_after in changes("Easterly Wind"):
        assert skies(after)[1:-1] == skies(before)[2:]
        assert pile == 0 or pile - pile_after == 1


def test_no_change_leaves_the_weather_as_it_is():
    for before, after, pile, pile_after in changes("No Change"):
        assert after == before and pile_after == pile


# ---------------------------------------------------------------- 15 special abilities
TERRAIN_SYMBOLS = {"Airfield": (1, 1, 1), "Fields": (2, 2, 1), "Town": (2, 3, 2), "Water": (2, 2, 3),
                   "Mountain": (3, 3, 3)}    # the game page's terrain table: takeoff, flying, landing


def failing_ground_tests(st):
    """A take-off or landing test under way that has failed so far (its player chooses a rescue)."""
    test = attempt(st)
    return test is not None and test["k"] in ("takeoff", "landing") and "accept the failure" in texts(st)


def test_the_helicopter_never_needs_more_than_two_terrain_symbols_to_take_off_or_land():
    """15: "the terrain difficulty of take off and landing is never higher than a 2". Every failing
    take-off and landing test of three seeded races (quick start, 3 players, real moves): the symbols
    needed are the tile's terrain symbols, at most two for the Helicopter, plus the weather's (a
    machine without the Flying Manual, whose charges take terrain symbols off)."""
    capped = 0
    for pos in positions(game(3), failing_ground_tests, seeds=range(3), each=40):
        st, test = pos.state, attempt(pos.state)
        s = next(t for t in st.vars["ships"] if t["id"] == st.vars["testing"])
        if "Flying Manual" in s["equipment"]:
            continue
        tile = st.vars["course"][s["at"] - 1]                # "Water 4", "Middle Airfield"
        terrain = TERRAIN_SYMBOLS["Airfield" if "Airfield" in tile else tile.split()[0]]
        need = terrain[("takeoff", "flying", "landing").index(test["k"])]
        if s["model"] == "Helicopter":
            capped += need > 2
            need = min(2, need)
        assert test["need"] == need + test["weather_left"], pos
        assert test["weather_left"] in (0, weather_symbols(st, s, test["k"])), pos
    assert capped > 0


def test_the_seaplane_rolls_two_more_dice_for_take_off_and_landing_on_water_only():
    """15: "gains 2 dice for all take off and landing tests on water tiles" (4 takeoff dice). Every test
    a Seaplane fell short in, in seeded races (helpers.DICE_RACES, real moves), by the dice rolled."""
    assert_dice(lambda r: r["machine"]["model"] == "Seaplane" and r["terrain"] == "Water", ("takeoff", "landing"))
    assert_dice(lambda r: r["machine"]["model"] == "Seaplane" and r["terrain"] != "Water")


# ---------------------------------------------------------------- trick and boost cards in one's own turn
def test_swap_the_maps_sends_a_machine_in_the_air_back_one_tile():
    """"once it has exited a particular terrain tile it is not possible for the flying machine to
    return to it (except by the playing of the Swap the Maps Dirty Tricks card)": a machine in the air
    past the starting airfield goes back one tile, at its altitude; a machine on the ground is no target."""
    for _, before, after, _ in trick_at_each_target("Swap the Maps"):
        assert (after["at"], after["alt"]) == (before["at"] - 1, before["alt"])


def test_crosswind_drops_a_machine_to_the_lowest_band():
    """Crosswind (designed): a machine in the air above the lowest band drops to it; one already in the
    lowest band, or on the ground, is no target."""
    for _, before, after, _ in trick_at_each_target("Crosswind"):
        assert before["alt"] > 1 and (after["alt"], after["at"]) == (1, before["at"])


def tricks_at_holders_of(answer, seeds=range(6)):
    """Real positions of seeded races (quick start, 3 players) where a player may play a dirty trick at a
    machine whose owner holds ``answer`` (a card title), the trick played at it: the target's owner is
    asked, alone, and may answer with it or let the trick stand. Yields (the state with the question
    asked, the trickster, the target's owner, the trick, the answer card)."""
    for pos in asked("cards in one's own turn", seeds, trick_at_a_holder_of(answer), each=1):
        st = pos.state.clone()
        p = mover(st)
        holders = {q for q, hand in enumerate(st.vars["hand"], 1) if any(title_of(c) == answer for c in hand)}
        trick = next(c for c in st.vars["hand"][p - 1] if title_of(c) in HITS
                     and holders & others_in(st, HITS[title_of(c)]))
        st.apply("play a card")
        st.apply("play " + trick)
        text = next(t for t in texts(st) if int(t.rsplit(" ", 1)[1]) in holders)
        q = int(text.rsplit(" ", 1)[1])
        st.apply(text)
        card = next(c for c in st.vars["hand"][q - 1] if title_of(c) == answer)
        assert st.to_move() == [q]
        assert {"answer with %s" % card, "let %s stand" % title_of(trick)} <= set(texts(st, q))
        yield st, p, q, trick, card


def immunity_answers():
    """Immunity answering each dirty trick of tricks_at_holders_of: the machine is as it was; both cards
    are discarded. Returns how many were answered."""
    answered = 0
    for st, p, q, trick, immunity in tricks_at_holders_of("Immunity"):
        before = copy.deepcopy(ship(st, q))
        st.apply("answer with %s" % immunity, player=q)
        assert ship(st, q) == before and immunity not in st.vars["hand"][q - 1]
        assert {trick, immunity} <= set(st.vars["discard"])
        answered += 1
    return answered


def war_answers_to_tricks():
    """This Means War answering each dirty trick of tricks_at_holders_of: the target ends as it would had
    the trick been let stand, the trickster's machine has one damage more. Returns how many were answered."""
    answered = 0
    for st, p, q, trick, war in tricks_at_holders_of("This Means War"):
        stood = st.clone()
        stood.apply("let %s stand" % title_of(trick), player=q)
        trickster = copy.deepcopy(ship(st, p))
        st.apply("answer with %s" % war, player=q)
        assert ship(st, q) == ship(stood, q) and war in st.vars["discard"]
        assert total_damage(ship(st, p)) == total_damage(trickster) + 1
        answered += 1
    return answered


def war_answers_to_cads():
    """This Means War answering a cad symbol at the windows of real_positions.cad_windows_of where one player may
    play one and the tester holds the card: the cad's machine takes one damage, the cad symbol still takes
    its die. Returns how many were answered."""
    answered = 0
    for pos, cads, war in cad_windows_of(1, "This Means War"):
        owner, (q,) = machine_tested(pos.state)["owner"], list(cads)
        found = dice_against(pos, [(q, cads[q][0])], then=lambda st: decline(st, but=[(owner, "answer with " + war)]))
        if found:
            with_cad, without, after = found
            assert with_cad == without - 1 and war in after.vars["discard"]
            assert total_damage(ship(after, q)) == total_damage(ship(pos.state, q)) + 1
            answered += 1
    return answered


def test_immunity_cancels_a_dirty_trick_played_in_the_tricksters_own_turn():
    """Immunity (designed): "cancel a dirty trick played against you". Real positions of seeded races
    (quick start, 3 players) where a player may play a dirty trick at a machine whose owner holds
    Immunity: the owner is asked, answers, and the machine is as it was; both cards are discarded."""
    assert immunity_answers() > 0


def test_this_means_war_lets_the_trick_stand_and_damages_the_tricksters_machine():
    """This Means War (designed): the dirty trick stands, and the trickster's machine takes one damage.
    At real positions of seeded races where a player may play a dirty trick at a holder of the card."""
    assert war_answers_to_tricks() > 0


def test_this_means_war_answers_a_cad_symbol_and_the_cad_symbol_still_counts():
    """This Means War against a cad symbol, at the reaction windows of seeded races (real moves) where the
    tester holds it and another player may play a cad symbol."""
    assert war_answers_to_cads() > 0


def test_field_repairs_takes_a_damage_marker_off_the_gauge_first():
    """Field Repairs (designed): "discard one damage marker, from the fuel gauge first, else from the
    scoring area"; not offered to a machine without damage."""
    for before, after in own_card_plays("Field Repairs", lambda s: s["gauge"] + s["scored_damage"] > 0):
        if before["gauge"] > 0:
            assert (after["gauge"], after["scored_damage"]) == (before["gauge"] - 1, before["scored_damage"])
        else:
            assert (after["gauge"], after["scored_damage"]) == (0, before["scored_damage"] - 1)


def test_spare_fuel_can_adds_two_fuel_cubes_as_far_as_the_gauge_has_room():
    """Spare Fuel Can (designed): two fuel cubes, as far as the gauge's four spaces (less its damage
    markers) have room; not offered to a full gauge."""
    def room(s):
        return 4 - s["gauge"] - s["fuel"]
    for before, after in own_card_plays("Spare Fuel Can", lambda s: room(s) > 0):
        assert after["fuel"] == before["fuel"] + min(2, room(before))


def without_cad_symbols(asked):
    """The answers of a reaction window with the cad symbols taken out: a player left with nothing to play
    is not asked."""
    left = {q: [t for t in answers if not is_cad_answer(t)] for q, answers in asked.items()}
    return {q: answers for q, answers in left.items() if answers != ["let the test go ahead"]}


def test_official_scrutiny_played_keeps_cad_symbols_off_the_tests_of_the_turn():
    """Official Scrutiny (designed): "no cad symbols may be played against your machine's tests for the
    rest of the turn". At each real position of seeded races where it may be played before a test
    (real_positions.scrutiny_windows): played, the machine is under scrutiny, and the window before its test asks
    what it would have asked without the card, less every cad symbol."""
    stopped = 0
    for plain, watched, machine in scrutiny_windows():
        assert machine["scrutiny"] and watched == without_cad_symbols(plain)
        stopped += any(is_cad_answer(t) for answers in plain.values() for t in answers)
    assert stopped > 0


# ---------------------------------------------------------------- 11 final airfield: once each
@pytest.mark.parametrize("action, done", [("make good (a take-off test)", "made_good"),
                                          ("give a flying lesson (a flying test)", "lesson")])
def test_a_final_airfield_test_is_taken_once_a_machine_passed_or_not(action, done):
    """11: "Only one make good action may be conducted on each flying machine in the game", "Only one
    flying lesson may be given in each flying machine in the game"; "After attempting any of the above
    three tests mark the relevant ability display ... to show it cannot be attempted again." At every
    special action of three seeded races: offered exactly to a machine that has not attempted it, and
    marked as soon as it is attempted, before its test is decided."""
    seen = set()
    for pos in special_action_turns():
        s = mover_ship(pos.state)
        assert (action in texts(pos.state)) == (not s[done]), pos
        seen.add(s[done])
        if not s[done]:
            st = pos.state.clone()
            st.apply(action)
            assert ship(st, s["owner"])[done]
    assert seen == {False, True}


def test_a_speech_is_given_once_by_each_pilot():
    """11: "Only one speech may be given by each pilot in the game." At every special action of three
    seeded races: offered exactly when the pilot at the controls has given none, and the pilot marked
    when it is given."""
    seen = set()
    for pos in special_action_turns():
        s = mover_ship(pos.state)
        gave = s["pilot"] in s["speeches"]
        assert ("give a speech (a landing test)" in texts(pos.state)) == (not gave), pos
        seen.add(gave)
        if not gave:
            st = pos.state.clone()
            st.apply("give a speech (a landing test)")
            assert ship(st, s["owner"])["speeches"] == s["speeches"] + [s["pilot"]]
    assert seen == {False, True}


def test_a_machine_on_the_final_airfield_keeps_its_turns_its_cards_and_the_special_actions():
    """10: "Once a flying machine lands at the final airfield, the players continue to take turns in
    order. Players on the final airfield may continue to play trick and boost cards in the normal way
    and may also carry out final airfield actions (see Section 11)." 11: "If a flying machine is
    stationery on the final airfield at the start of the player's turn, then the player may choose one
    of the following actions". At every special action of three seeded races (4 players, real moves):
    the machine is on the final airfield while others still race, it chooses among the special
    actions only; after signing autographs (one point) it takes no action phase, and plays a card
    where its hand holds one it may play."""
    played = 0
    for pos in special_action_turns():
        st, s = pos.state.clone(), mover_ship(pos.state)
        assert s["finished"] and not st.is_over() and any(not t["finished"] for t in st.vars["ships"])
        assert set(texts(st)) <= set(SPECIAL_ACTIONS)
        st.apply("sign autographs")
        assert ship(st, s["owner"])["vp"] == s["vp"] + 1
        after = texts(st)
        assert "end the turn" in after and not {"take off", "repair and scavenge", "fly on", "land"} & set(after)
        if "play a card" in after:
            hand = list(st.vars["hand"][s["owner"] - 1])
            st.apply("play a card")
            card = texts(st)[0][len("play "):].split(" against ")[0]
            st.apply(texts(st)[0])
            assert card in st.vars["discard"] and len(st.vars["hand"][s["owner"] - 1]) == len(hand) - 1
            played += 1
    assert played > 0


# ---------------------------------------------------------------- 12.2 two players
def test_two_players_the_game_ends_after_the_others_one_more_turn():
    """12.2: "When one player has landed their second flying machine on the final airfield, the game
    will end when the other player has taken one more turn." A seeded two-player race (standard, seed
    2, real moves): player 2's machines are both on the final airfield; player 1 takes one more turn
    and the game is over."""
    st, seen = turns_to_the_end(2, 2, race="standard")
    owner = {s["id"]: s["owner"] for s in st.vars["ships"]}
    done = [q for q in (1, 2) if all(s["finished"] for s in st.vars["ships"] if s["owner"] == q)]
    assert done == [2] and st.vars["last_player"] == 1
    assert [owner[m] for m in seen] == [1]                # one turn of player 1, then the end


# ---------------------------------------------------------------- 6.4 first player, 12.3 team play
@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_the_first_player_rolled_the_most_flying_symbols(seed):
    """6.4: "Each player rolls five dice in turn. The player who rolls the highest number of flying
    symbols is first player. In the case of a draw, the affected players re-roll." The rolls are read
    from the log (the dice are not kept), the first player from the state."""
    st = game(4, race="standard").new_state(seed=seed)
    rounds = []
    for text in logs(st):
        if " rolls " in text and text.endswith(" flying symbols"):
            q, n = int(text.split()[1]), int(text.split()[3])
            if not rounds or q <= rounds[-1][-1][0]:
                rounds.append([])                             # the leaders re-roll, in seat order
            rounds[-1].append((q, n))
    last = rounds[-1]
    best = max(n for _, n in last)
    assert [q for q, n in last if n == best] == [st.vars["first_player"]]
    for earlier, later in zip(rounds, rounds[1:]):          # a re-roll is among the tied leaders only
        top = max(n for _, n in earlier)
        assert [q for q, _ in later] == [q for q, n in earlier if n == top]


def test_team_play_the_highest_combined_total_wins():
    """12.3: "At the end of the game each team totals the scores for their flying machines and the team
    with the highest combined total wins the game." The real final states of two seeded races (4
    players in pairs, seeds 0 and 1): in each a rival holds the best single score, and the pair whose
    two scores add up to more wins."""
    for seed in (0, 1):
        out = race(4, seed, team_play="pairs").state.outcome()
        assert sorted(map(sorted, out.teams)) == [[1, 3], [2, 4]]    # not side by side
        totals = {tuple(sorted(t)): sum(out.scores[q] for q in t) for t in out.teams}
        best = max(totals, key=totals.get)
        assert totals[best] > min(totals.values()) and sorted(out.winners) == list(best), seed
        assert max(out.scores, key=out.scores.get) not in best, seed
