"""VIRUS!: one scenario per rule of the rulebook (seeds/003). Bodies are drawn as text:
`body 0: red, green+green virus` is a red organ and a green organ infected by a green virus."""
import pytest

import virus_envs
from virus_envs import IllegalActionError
from virus_envs.virus_cards.cards import COLOURS
from virus_envs.virus_cards.scenario import body_text, from_text


def names(s):
    return {s.game.actions.name(a) for a in s.legal_actions()}


def act(s, name):
    s.apply_action(s.game.string_to_action(name))


def all_cards(s):
    cards = [c for h in s.hands for c in h] + s.deck + s.discard
    for q in range(s.n):
        for c in range(5):
            if s.organ[q][c] >= 0:
                cards += [s.organ[q][c]] + s.att[q][c]
    return sorted(cards)


# -- setup, turn structure ------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_setup_deals_three_cards_each(n):
    """ "Shuffle the deck and deal 3 cards to each player." """
    s = virus_envs.game("virus_cards_v0", num_players=n).new_initial_state(seed=n)
    assert all(len(h) == 3 for h in s.hands)
    assert len(s.deck) == 68 - 3 * n and s.discard == []
    assert all_cards(s) == list(range(68))


def test_the_deck_is_shuffled_before_the_deal():
    """ "Shuffle the deck and deal 3 cards to each player": over 300 seeds, player 0's first card is
    many different cards (a fair shuffle shows 68 x (1 - (67/68)^300) = 67.2 of the 68 on average;
    at least 60 asked) and no two seeds give the same deck order."""
    g = virus_envs.game("virus_cards_v0", num_players=2)
    firsts, orders = set(), set()
    for seed in range(300):
        s = g.new_initial_state(seed=seed)
        firsts.add(s.hands[0][0])
        orders.add(tuple(s.deck))
    assert len(firsts) >= 60 and len(orders) == 300


def test_turn_is_one_play_or_a_discard_then_draw_back_to_three():
    """ "Play only one card ... OR Discard as many cards as you want" then "Draw as many cards as needed". """
    s = from_text("""
        players: 2
        hand 0: red, blue virus, yellow medicine
        body 1: blue
        deck: green organ, latex glove, contagion
    """)
    legal = names(s)
    # every non-empty subset of the hand may be discarded; no "pass" exists
    assert {"discard 0", "discard 1", "discard 2", "discard 0,1", "discard 0,2", "discard 1,2",
            "discard 0,1,2"} <= legal
    assert not any(x.startswith("pass") for x in legal)
    act(s, "discard 0,2")
    assert [s.game.deck.card_name(c) for c in s.discard] == ["red organ", "yellow medicine"]
    assert len(s.hands[0]) == 3
    assert [s.game.deck.card_name(c) for c in s.hands[0][1:]] == ["green organ", "latex glove"]
    assert s.turn_player == 1


def test_turn_passes_to_the_right_in_seat_order():
    """ "Pass the turn to the player on your right": seat i+1 sits on seat i's right; 0,1,2,0,... """
    s = virus_envs.game("virus_cards_v0", num_players=3).new_initial_state(seed=0)
    seen = []
    for _ in range(6):
        seen.append(s.current_player())
        act(s, "discard 0")
    assert seen == [0, 1, 2, 0, 1, 2]


def test_empty_deck_turns_the_discard_pile_over_without_shuffling():
    """ "When the deck runs out, simply flip over the discard pile. It's not necessary to shuffle." """
    s = from_text("players: 2\nhand 0: red, green, blue\nbody 1: yellow")
    s.discard, s.deck = s.discard + s.deck, []       # everything else lies in the discard pile
    pile = s.discard[:]                              # bottom first
    red = s.hands[0][0]
    act(s, "discard 0")
    # the red organ went on top of the pile; flipped over, the old bottom card is the new top
    assert s.hands[0][2] == pile[0]
    assert s.deck == [red] + pile[:0:-1]             # next draws: pile[1], pile[2], ..., the red organ last
    assert s.discard == []


def test_first_player_config():
    g = virus_envs.game("virus_cards_v0", num_players=4, first_player=2)
    assert g.new_initial_state(seed=0).current_player() == 2
    g = virus_envs.game("virus_cards_v0", num_players=4, first_player=-1)
    firsts = {g.new_initial_state(seed=k).current_player() for k in range(40)}
    assert firsts == {0, 1, 2, 3}


# -- organs ---------------------------------------------------------------------------------
def test_never_two_organs_of_one_colour():
    """ "You cannot have 2 organs of the same type on your body at any time." """
    s = from_text("players: 2\nhand 0: red, green, multi\nbody 0: red")
    legal = names(s)
    assert "play 0 -> +0 red" not in legal
    assert "play 1 -> +0 green" in legal and "play 2 -> +0 multi" in legal
    with pytest.raises(IllegalActionError):
        act(s, "play 0 -> +0 red")


def test_multicolour_organ_is_a_fifth_organ_and_four_healthy_win():
    """ "Your body can have 5 different organs if one of them is the multicolored organ.
    You will win if 4 of them are healthy." """
    s = from_text("""
        players: 2
        hand 0: multi, red virus, red medicine
        body 0: red+red virus, green, blue, yellow
    """)
    assert s.healthy(0) == 3
    act(s, "play 0 -> +0 multi")
    assert s.is_terminal() and s.returns().tolist() == [1.0, -1.0]
    assert body_text(s, 0).startswith("red+red virus, green, blue, yellow, multi")


def test_four_healthy_organs_win_at_once_vaccinated_and_immunized_count():
    """ "Organs are considered healthy if they are free of viruses, vaccinated or immunized." """
    s = from_text("""
        players: 3
        hand 0: yellow, red virus, red medicine
        body 0: red+red medicine+red medicine, green+green medicine, blue
    """)
    act(s, "play 0 -> +0 yellow")
    assert s.is_terminal() and s.winner == 0 and s.current_player() == -1
    assert s.returns().tolist() == [1.0, -1.0, -1.0]
    assert s.scores() == [4, 0, 0]


def test_infected_organs_do_not_count():
    s = from_text("""
        players: 2
        hand 0: yellow, red virus, red medicine
        body 0: red+red virus, green, blue
    """)
    act(s, "play 0 -> +0 yellow")
    assert not s.is_terminal() and s.healthy(0) == 3


# -- viruses --------------------------------------------------------------------------------
def test_virus_infects_a_free_organ_of_its_colour_only():
    """ "Place a virus card on a free organ of the same color to infect it." """
    s = from_text("players: 2\nhand 0: red virus, blue, green\nbody 1: red, yellow")
    legal = names(s)
    assert "play 0 -> +1 red" in legal and "play 0 -> +1 yellow" not in legal
    act(s, "play 0 -> +1 red")
    assert body_text(s, 1) == "red+red virus, yellow"
    assert s.healthy(1) == 1


def test_viruses_are_not_played_on_own_body_by_default():
    s = from_text("players: 2\nhand 0: red virus, blue, green\nbody 0: red\nbody 1: red")
    assert "play 0 -> +0 red" not in names(s)
    s = from_text("players: 2\nhand 0: red virus, blue, green\nbody 0: red\nbody 1: red", virus_on_own_body=True)
    assert "play 0 -> +0 red" in names(s)


def test_second_virus_destroys_the_organ_all_three_cards_discarded():
    """ "Place a second virus on an infected organ: that organ is now destroyed and all three cards
    must be placed on the discard pile." """
    s = from_text("players: 2\nhand 0: red virus, blue, green\nbody 1: red+red virus")
    act(s, "play 0 -> +1 red")
    assert s.organ[1][0] == -1 and s.att[1][0] == []
    assert sorted(s.game.deck.card_name(c) for c in s.discard) == ["red organ", "red virus", "red virus"]


def test_virus_neutralizes_a_vaccine_both_discarded():
    """ "Use a virus to eliminate a medicine of the same color that is placed on an organ.
    Place both the virus and the vaccine cards on the discard pile." """
    s = from_text("players: 2\nhand 0: blue virus, red, green\nbody 1: blue+blue medicine")
    act(s, "play 0 -> +1 blue")
    assert body_text(s, 1) == "blue"
    assert sorted(s.game.deck.card_name(c) for c in s.discard) == ["blue medicine", "blue virus"]


# -- medicines ------------------------------------------------------------------------------
def test_medicine_cures_a_virus_both_discarded():
    """ "Use a medicine card to destroy a virus of the same color ... Both cards are then placed on the discard pile." """
    s = from_text("players: 2\nhand 0: green medicine, red, blue\nbody 0: green+green virus")
    act(s, "play 0 -> +0 green")
    assert body_text(s, 0) == "green" and s.healthy(0) == 1
    assert sorted(s.game.deck.card_name(c) for c in s.discard) == ["green medicine", "green virus"]


def test_medicine_vaccinates_then_immunizes():
    """Vaccinate: "Place a medicine on a free organ"; Immunize: "Place a second medicine card on an organ"."""
    s = from_text("players: 2\nhand 0: yellow medicine, yellow medicine, red\nbody 0: yellow\nbody 1: red")
    act(s, "play 0 -> +0 yellow")
    assert body_text(s, 0) == "yellow+yellow medicine"
    act(s, "discard 0,1,2")  # player 1
    h = next(i for i, c in enumerate(s.hands[0]) if s.game.deck.card_name(c) == "yellow medicine")
    act(s, f"play {h} -> +0 yellow")
    assert body_text(s, 0) == "yellow+yellow medicine+yellow medicine"
    assert s.code[0][3] >= 12  # immunized


def test_medicines_only_on_own_body_by_default():
    s = from_text("players: 2\nhand 0: red medicine, blue, green\nbody 1: red+red virus")
    assert "play 0 -> +1 red" not in names(s)
    s = from_text("players: 2\nhand 0: red medicine, blue, green\nbody 1: red+red virus", medicine_on_any_body=True)
    assert "play 0 -> +1 red" in names(s)


def test_immunized_organ_is_immune_to_viruses_and_treatments():
    """ "It will be protected forever against the attacks of any virus and it can no longer be destroyed
    or affected by treatment cards." """
    s = from_text("""
        players: 3
        hand 0: red virus, organ thief, transplant
        body 0: green
        body 1: red+red medicine+red medicine
        body 2: multi+multi virus
    """)
    legal = names(s)
    assert not any(x.endswith("+1 red") for x in legal)                 # no virus, thief nor transplant
    assert "play 2 -> +0 green" in legal                                 # transplant still has other organs
    s = from_text("""
        players: 2
        hand 0: contagion, red, blue
        body 0: red+red virus
        body 1: red+red medicine+red medicine, multi+multi medicine+green medicine
    """)
    assert "play 0" not in names(s)                                      # nowhere to spread the virus


def test_medical_error_swaps_whole_bodies_including_immunized_organs():
    """ "Swap your entire body with another player, including organs, viruses, and vaccines ...
    the immunized organs are exchanged, too." """
    s = from_text("""
        players: 3
        hand 0: medical error, red, blue
        body 0: green+green virus
        body 2: red+red medicine+red medicine, blue+blue medicine, yellow
    """)
    b0, b2 = body_text(s, 0), body_text(s, 2)
    assert {"play 0 -> +1", "play 0 -> +2"} <= names(s)
    act(s, "play 0 -> +2")
    assert body_text(s, 0) == b2 and body_text(s, 2) == b0
    assert s.healthy(0) == 3 and s.healthy(2) == 0


# -- treatments -----------------------------------------------------------------------------
def test_transplant_swaps_organs_between_any_two_players_with_their_cards():
    """ "Swap an organ card between 2 players. It does not matter if these organs are different colors,
    or whether they are healthy, infected or vaccinated." Two opponents may be chosen. """
    s = from_text("""
        players: 3
        hand 0: transplant, red, blue
        body 1: green+green virus, red
        body 2: blue+blue medicine, yellow
    """)
    act(s, "play 0 -> +1 green")
    assert s.phase() == "transplant: second organ" and s.current_player() == 0
    legal = names(s)
    assert "transplant with +2 blue" in legal and "transplant with +2 yellow" in legal
    assert not any("+1" in x for x in legal)               # not with the same player
    act(s, "transplant with +2 blue")
    assert body_text(s, 1) == "red, blue+blue medicine"
    assert body_text(s, 2) == "green+green virus, yellow"
    assert s.current_player() == 1 and len(s.hands[0]) == 3


def test_a_treatment_can_complete_another_players_body_who_wins_at_once():
    """ "a body of 4 healthy organs ... wins": checked for every player after every action."""
    s = from_text("""
        players: 3
        hand 0: transplant, red, blue
        body 1: red, green, blue, yellow+yellow virus
        body 2: multi
    """)
    act(s, "play 0 -> +1 yellow")
    act(s, "transplant with +2 multi")
    assert s.is_terminal() and s.winner == 1 and s.returns().tolist() == [-1.0, 1.0, -1.0]


def test_transplant_colour_rule_and_immunized_organs():
    """ "... unless either of the players ends up with two organs of the same color or the organ is immunized." """
    s = from_text("""
        players: 2
        hand 0: transplant, blue virus, green
        body 0: red, green
        body 1: red+red medicine+red medicine, green, yellow
    """)
    legal = names(s)
    # my red could only go for their yellow... but they have a red (immunized) already: red is not movable to them
    assert "play 0 -> +1 red" not in legal                  # immunized
    assert "play 0 -> +0 green" in legal                    # green for green keeps colours
    assert "play 0 -> +0 red" not in legal                  # red for green/yellow gives them two reds
    act(s, "play 0 -> +0 green")
    assert names(s) == {"transplant with +1 green"}


def test_organ_thief_steals_with_cards_not_immunized_not_a_colour_i_have():
    """ "Steal an organ from another player's body ... healthy, vaccinated or infected organs, but not
    immunized ones. Remember that you cannot have 2 organs of the same color." """
    s = from_text("""
        players: 2
        hand 0: organ thief, red, blue
        body 0: red
        body 1: red, blue+blue virus, green+green medicine+green medicine, yellow+yellow medicine
    """)
    legal = {x for x in names(s) if x.startswith("play 0")}
    assert legal == {"play 0 -> +1 blue", "play 0 -> +1 yellow"}
    act(s, "play 0 -> +1 yellow")
    assert body_text(s, 0) == "red, yellow+yellow medicine"
    assert "yellow" not in body_text(s, 1)


def test_contagion_moves_as_many_viruses_as_possible_each_onto_a_free_organ():
    """ "Transfer as many viruses as you can from your infected organs to other players' organs. You cannot
    play the virus card on vaccinated nor infected organs. You can only infect free organs." The red virus
    could go on the multi organ, but then the green one could go nowhere: the mask allows only the
    choices that still transfer both. """
    s = from_text("""
        players: 3
        hand 0: contagion, blue, yellow
        body 0: red+red virus, green+green virus, blue
        body 1: multi, red+red medicine
        body 2: red, yellow
    """)
    act(s, "play 0")
    assert s.phase() == "contagion: move a virus"
    first = names(s)
    assert first == {"contagion red -> +2 red", "contagion green -> +1 multi"}
    act(s, "contagion green -> +1 multi")
    assert names(s) == {"contagion red -> +2 red"}
    act(s, "contagion red -> +2 red")
    assert body_text(s, 0) == "red, green, blue"
    assert body_text(s, 1) == "red+red medicine, multi+green virus"
    assert body_text(s, 2) == "red+red virus, yellow"
    assert s.current_player() == 1


def test_contagion_can_win_at_once_when_it_cleans_the_body():
    s = from_text("""
        players: 2
        hand 0: contagion, blue, yellow
        body 0: red+red virus, green, blue, yellow
        body 1: red
    """)
    act(s, "play 0")
    act(s, "contagion red -> +1 red")
    assert s.is_terminal() and s.winner == 0


def test_latex_glove_empties_other_hands_and_they_spend_next_turn_drawing():
    """ "All players, except the one playing the latex glove card, discard their hand ... these players
    must spend their turn as if they had chosen the DISCARD action on their turn, drawing a new hand,
    thus skipping a turn." """
    s = from_text("players: 3\nhand 0: latex glove, red, blue\nhand 1: green, red virus, yellow\n"
                  "hand 2: transplant, multi, blue virus")
    act(s, "play 0")
    assert len(s.hands[0]) == 3
    # the glove, then the hands in turn order (they are drawn again from the deck, not this pile)
    assert [s.game.deck.card_name(c) for c in s.discard] == [
        "latex glove", "green organ", "red virus", "yellow organ", "transplant", "multi organ", "blue virus"]
    # players 1 and 2 spend their turns drawing: the next decision is player 0's again
    assert s.current_player() == 0
    assert len(s.hands[1]) == 3 and len(s.hands[2]) == 3
    assert s.turns == 3


# -- decks ----------------------------------------------------------------------------------
def test_published_deck_has_68_cards_with_the_known_split():
    d = virus_envs.game("virus_cards_v0").deck
    from collections import Counter
    kinds = Counter(d.kind)
    assert d.size == 68 and (kinds[0], kinds[1], kinds[2], kinds[3]) == (21, 17, 20, 10)
    names_ = Counter(d.card_name(c) for c in range(68))
    assert names_["multi organ"] == 1 and names_["multi virus"] == 1 and names_["multi medicine"] == 4
    assert [names_[t] for t in ("transplant", "organ thief", "contagion", "latex glove", "medical error")] == [3, 3, 2, 1, 1]


def test_seed_text_deck_preset_has_13_viruses():
    d = virus_envs.game("virus_cards_v0", deck="seed_text").deck
    assert d.size == 64 and sum(1 for k in d.kind if k == 1) == 13


@pytest.mark.parametrize("content, field", [
    ("presets: {x: 1}", "presets.published"),
    ("presets:\n  published:\n    organ: {red: -1}", "presets.published.organ.red"),
    ("presets:\n  published:\n    organ: {purple: 2}", "presets.published.organ.purple"),
    ("presets:\n  published:\n    spell: {}", "presets.published.spell"),
    ("nothing: here", "presets"),
    ("presets: [", "YAML"),
])
def test_bad_deck_file_names_the_file_and_field(tmp_path, content, field):
    p = tmp_path / "deck.yaml"
    p.write_text(content)
    with pytest.raises(ValueError) as ei:
        virus_envs.game("virus_cards_v0", deck_file=str(p))
    assert str(p) in str(ei.value) and field in str(ei.value)


def test_custom_deck_file(tmp_path):
    p = tmp_path / "deck.yaml"
    p.write_text("presets:\n  published:\n    organ: {red: 2, green: 2, blue: 2, yellow: 2}\n"
                 "    medicine: {multi: 4}\n")
    g = virus_envs.game("virus_cards_v0", deck_file=str(p))
    assert g.deck.size == 12


# -- truncation, returns --------------------------------------------------------------------
def test_max_turns_truncates_with_zero_returns():
    g = virus_envs.game("virus_cards_v0", num_players=2, max_turns=5)
    s = g.new_initial_state(seed=0)
    while not s.is_terminal():
        act(s, "discard 0")
    assert s.is_truncated() and s.turns == 5 and s.returns().tolist() == [0.0, 0.0]


def test_colour_names_cover_the_slots():
    assert COLOURS == ("red", "green", "blue", "yellow", "multi")


def test_a_short_hand_is_made_up_at_the_start_of_the_turn():
    """ "Each player must have 3 cards in their hand at the beginning of each turn." """
    s = from_text("players: 2\nhand 0: red, blue, green\nhand 1: yellow\nbody 1: blue")
    s.discard, s.deck = s.discard + s.deck[:-1], s.deck[-1:]   # one card left to draw
    act(s, "discard 0,1,2")          # player 0 draws the last card, then from the turned-over pile
    assert s.current_player() == 1 and len(s.hands[1]) == 3


#: 7 cards, the fewest a 2-player deck may have (3 x 2 + 1): one organ of each colour, two viruses
TINY_DECK = ("presets:\n  published:\n    organ: {red: 1, green: 1, blue: 1, yellow: 1, multi: 1}\n"
             "    virus: {red: 1, green: 1}\n")


def test_when_no_card_is_left_to_draw_and_no_one_holds_one_the_game_is_truncated(tmp_path):
    """Assumption 12: "if both deck and discard pile are empty a player draws what there is"; a player
    with no card spends the turn drawing (as after a Latex Glove) and the turn passes; "if no one has
    cards and none can be drawn, the game is truncated". Every card but player 0's red organ lies on a
    body, player 1's hand is empty. Player 0 plays the organ (turn 1), then player 1 (turn 2) and player 0
    (turn 3) each find nothing to draw: after a full round of empty turns nobody can act again."""
    deck = tmp_path / "tiny.yaml"
    deck.write_text(TINY_DECK)
    s = from_text("players: 2\nhand 0: red\nhand 1:\nbody 0: green+green virus\nbody 1: blue, yellow, multi+red virus",
                  deck_file=str(deck))
    assert s.deck == [] and s.discard == [] and s.hands[1] == []
    act(s, "play 0 -> +0 red")
    assert s.is_terminal() and s.is_truncated() and s.winner == -1
    assert s.turns == 3 and s.hands == [[], []]
    assert s.returns().tolist() == [0.0, 0.0] and s.scores() == [1, 2]    # red; blue, yellow (multi infected)


def test_a_player_without_cards_skips_the_turn_and_the_next_one_plays(tmp_path):
    """The same table, but player 0 discards the organ instead: the pile is turned over and player 0 draws
    it straight back ("draw as many cards as needed"); player 1, empty-handed, finds nothing to draw and
    spends the turn (turn 2), so player 0 acts again, holding the organ everyone saw."""
    deck = tmp_path / "tiny.yaml"
    deck.write_text(TINY_DECK)
    s = from_text("players: 2\nhand 0: red\nhand 1:\nbody 0: green+green virus\nbody 1: blue, yellow, multi+red virus",
                  deck_file=str(deck))
    red = s.hands[0][0]
    act(s, "discard 0")
    assert not s.is_terminal() and s.current_player() == 0 and s.turns == 2
    assert s.hands == [[red], []] and s.view(1)["known_hands"][0] == [red]


@pytest.mark.parametrize("content, players, fragment", [
    ("presets:\n  published:\n    organ: {red: 2, green: 2, blue: 2, yellow: 2}\n", 5, "need at least 16"),
    ("presets:\n  published:\n    organ: {red: 8}\n    virus: {red: 8}\n", 2, "at least 4 colours"),
])
def test_a_deck_that_cannot_be_dealt_or_won_is_refused(tmp_path, content, players, fragment):
    p = tmp_path / "deck.yaml"
    p.write_text(content)
    with pytest.raises(ValueError, match=fragment):
        virus_envs.game("virus_cards_v0", num_players=players, deck_file=str(p))


# -- bad input ------------------------------------------------------------------------------
def test_illegal_actions_in_every_phase_leave_the_state_unchanged():
    import json
    s = from_text("""
        players: 3
        hand 0: transplant, contagion, red
        body 0: green+green virus, blue
        body 1: green, yellow
        body 2: red
    """)
    cases = ["play 2 -> +1 red", "transplant with +1 green", "contagion green -> +1 yellow", "play 0 -> +0 red",
             "contagion green -> +2 red", "discard 0"]
    phases = set()
    for phase_action in (None, "play 0 -> +1 green"):
        if phase_action:
            act(s, phase_action)
        for bad in cases:
            a = s.game.string_to_action(bad)
            if s.legal_action_mask()[a]:
                continue
            before = json.dumps(s.to_dict(), sort_keys=True)
            with pytest.raises(IllegalActionError) as ei:
                s.apply_action(a)
            assert s.phase() in str(ei.value) and bad in str(ei.value) and "player 0" in str(ei.value)
            assert json.dumps(s.to_dict(), sort_keys=True) == before
            phases.add(s.phase())
    s = from_text("""
        players: 3
        hand 0: contagion, red, blue
        body 0: green+green virus, yellow+yellow virus
        body 1: green, yellow
        body 2: red
    """)
    act(s, "play 0")
    for bad in cases:
        a = s.game.string_to_action(bad)
        before = json.dumps(s.to_dict(), sort_keys=True)
        with pytest.raises(IllegalActionError, match="contagion: move a virus"):
            s.apply_action(a)
        assert json.dumps(s.to_dict(), sort_keys=True) == before
    assert phases == {"play or discard", "transplant: second organ"}
    s.apply_action(s.legal_actions()[0])
    while not s.is_terminal():
        s.apply_action(s.legal_actions()[-1])
    with pytest.raises(IllegalActionError, match="game over"):
        s.apply_action(0)
