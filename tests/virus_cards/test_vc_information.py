"""VIRUS!: what each seat knows. "When the deck runs out, simply flip over the discard pile. It's not
necessary to shuffle again." The pile lies face up, so after it is turned over every seat knows the
deck's order, and every card drawn from it (issue 12). The view, the observation and determinize
carry that public knowledge; the rest (the first shuffle's cards still in other hands, the deck
before the first turn-over) is resampled."""
import json

import numpy as np
import pytest

import virus_envs
from virus_envs.virus_cards.actions import A_DISCARD, A_PLAY, A_PLAYER, A_SLOT
from virus_envs.virus_cards.cards import LATEX_GLOVE, TYPE_NAMES
from virus_envs.virus_cards.scenario import from_text


def act(s, name):
    s.apply_action(s.game.string_to_action(name))


def named(s, cards):
    return [None if c < 0 else s.game.deck.card_name(c) for c in cards]


def turned_over(deck_file):
    """Player 0 plays its red organ with the deck empty: drawing, it turns the pile over."""
    s = from_text("""
        players: 2
        hand 0: red, green, blue
        hand 1: yellow, red virus, blue virus
        discard: red, green, green virus, multi virus, green medicine, blue medicine, multi medicine, transplant, organ thief
    """, deck_file=deck_file)
    assert s.deck == [] and not s.deck_public
    act(s, "play 0 -> +0 red")
    return s


def test_before_the_pile_is_turned_over_the_deck_and_other_hands_are_unknown():
    s = virus_envs.game("virus_cards_v0", num_players=3).new_initial_state(seed=4)
    v = s.view(0)
    assert v["deck"] is None and v["known_hands"][1] == [-1, -1, -1] and v["known_hands"][0] == s.hands[0]
    assert v["hand_public"] == [False] * 3
    assert set(s.hidden_facts(0)) == {"future chance", "other hands", "deck"}
    o = s.game.layout.unpack(s.observation(0))
    assert o["deck_public"][0] == 0 and not o["deck_top"].any() and not o["known_hands"].any()
    rng = np.random.default_rng(0)
    decks = {tuple(s.determinize(0, rng).deck) for _ in range(10)}
    assert len(decks) == 10


def test_after_the_pile_is_turned_over_everyone_knows_the_deck_order(small_deck):
    """ "simply flip over the discard pile": the pile's bottom card becomes the top of the deck."""
    s = turned_over(small_deck)
    # the pile, bottom first: red, green, green virus, ...; player 0 drew its bottom card, the red organ
    assert named(s, s.hands[0]) == ["green organ", "blue organ", "red organ"]
    next_first = ["green organ", "green virus", "multi virus", "green medicine", "blue medicine",
                  "multi medicine", "transplant", "organ thief"]
    for p in (0, 1):
        v = s.view(p)
        assert named(s, v["deck"][::-1]) == next_first
    # player 1 saw player 0 draw the red organ into its third position; not the two cards before it
    assert named(s, s.view(1)["known_hands"][0]) == [None, None, "red organ"]
    assert s.view(0)["hand_public"] == [False, False, True]
    assert s.view(1)["known_hands"][1] == s.hands[1]
    o = s.game.layout.unpack(s.observation(1))
    assert o["deck_public"][0] == 1
    assert [TYPE_NAMES[np.argmax(row)] for row in o["deck_top"]] == next_first[:6]
    assert [TYPE_NAMES[np.argmax(r)] if r.any() else None for r in o["known_hands"][0]] == [None, None, "red organ"]
    # the deck holds 1 of the 2 green organs, the only green virus
    assert o["deck_counts"][TYPE_NAMES.index("green organ")] == pytest.approx(1 / 2)
    assert o["deck_counts"][TYPE_NAMES.index("green virus")] == pytest.approx(1.0)
    assert o["deck_counts"][TYPE_NAMES.index("red organ")] == 0
    assert s.game.layout.unpack(s.observation(0))["hand_public"].tolist() == [0, 0, 1]
    text = s.render_for(1)
    assert "next: green organ, green virus" in text and "known: red organ" in text


def test_determinize_keeps_the_public_deck_and_known_cards_and_deals_only_the_unknown(small_deck):
    s = turned_over(small_deck)
    act(s, "discard 0")         # player 1 throws the yellow organ, draws the green organ (public)
    assert named(s, s.view(0)["known_hands"][1]) == [None, None, "green organ"]
    # player 0 knows every card but the two player 1 kept from the deal: only their order is open
    truth = sorted(s.hands[1][:2])
    rng = np.random.default_rng(1)
    orders = set()
    for _ in range(30):
        d = s.determinize(0, rng)
        assert d.deck == s.deck and d.hands[0] == s.hands[0] and d.hands[1][2] == s.hands[1][2]
        assert sorted(d.hands[1][:2]) == truth
        orders.add(tuple(d.hands[1]))
    assert len(orders) == 2
    assert set(s.hidden_facts(0)) == {"future chance", "other hands"}
    # player 0 plays a card it drew before the turn-over: player 1 still knows only the red organ
    act(s, "play 0 -> +0 green")
    assert named(s, s.view(1)["known_hands"][0]) == [None, "red organ", "green virus"]


def test_when_every_card_is_known_nothing_but_future_chance_is_hidden(small_deck):
    s = turned_over(small_deck)
    act(s, "discard 0,1,2")     # player 1 redraws three cards from the public deck
    assert all(c >= 0 for c in s.view(0)["known_hands"][1])
    assert set(s.hidden_facts(0)) == {"future chance"}
    assert set(s.hidden_facts(1)) == {"future chance", "other hands"}   # player 0's green and blue organs
    act(s, "discard 0,1")       # player 0 throws the two cards of the deal
    assert set(s.hidden_facts(1)) == {"future chance"}
    d = s.determinize(1, np.random.default_rng(0))
    assert d.hands == s.hands and d.deck == s.deck


def test_state_from_view_rebuilds_the_public_knowledge(small_deck):
    g = virus_envs.game("virus_cards_v0", num_players=2, deck_file=small_deck)
    s = turned_over(small_deck)
    for p in (0, 1):
        t = g.state_from_view(s.view(p), np.random.default_rng(p))
        assert t.view(p) == s.view(p)
        assert np.array_equal(t.observation(p), s.observation(p))


def _kept(pl, me, q, hand, glove):
    """The cards of seat q's hand that stay in it through action payload pl (public: the action names
    the hand positions it uses)."""
    if q != me:
        return [] if glove else hand
    if pl[0] in (A_SLOT, A_PLAYER, A_PLAY):
        return hand[:pl[1]] + hand[pl[1] + 1:]
    if pl[0] == A_DISCARD:
        return [c for i, c in enumerate(hand) if not pl[1] >> i & 1]
    return hand


@pytest.mark.parametrize("n", [2, 3, 4, 6])
def test_known_cards_are_exactly_those_drawn_from_a_turned_over_pile(n):
    """An observer's own account, from the table alone: a card drawn into a hand is known to all when it
    came from the face-up pile, that is, when the pile had been turned over before the draw, or when the
    card was not in the deck before the action (it went through the pile during it). The view of every
    other seat must show exactly those cards, at their positions, and the deck once turned over."""
    g = virus_envs.game("virus_cards_v0", num_players=n, max_turns=400)
    rng = np.random.default_rng(n)
    flips = checked = 0
    for k in range(6):
        s = g.new_initial_state(seed=50 + k)
        known = [[False] * 3 for _ in range(n)]
        flipped = False
        while not s.is_terminal():
            legal = s.legal_actions()
            a = int(legal[rng.integers(len(legal))])
            pl, me = g.A.payload[a], s.turn_player
            glove = pl[0] == A_PLAY and g.TREAT[s.hands[me][pl[1]]] == LATEX_GLOVE
            before_deck = set(s.deck)
            kept = [_kept(pl, me, q, list(zip(s.hands[q], known[q])), glove) for q in range(n)]
            s.apply_action(a)
            for q in range(n):
                drawn = s.hands[q][len(kept[q]):]
                assert [c for c, _ in kept[q]] == s.hands[q][:len(kept[q])]
                known[q] = [k for _, k in kept[q]] + [flipped or c not in before_deck for c in drawn]
            flipped = flipped or any(c not in before_deck for c in s.deck)
            flips += flipped
            for p in range(n):
                v = s.view(p)
                assert (v["deck"] is not None) == flipped
                if flipped:
                    assert v["deck"] == s.deck
                for q in range(n):
                    expect = s.hands[q] if q == p else [c if k else -1 for c, k in zip(s.hands[q], known[q])]
                    assert v["known_hands"][q] == expect
                assert v["hand_public"] == known[p]
            checked += 1
    assert flips > 50 and checked > 300


@pytest.mark.parametrize("n", [2, 4, 6])
def test_determinize_resamples_only_what_is_unknown_in_long_games(n):
    g = virus_envs.game("virus_cards_v0", num_players=n)
    rng = np.random.default_rng(10 + n)
    public_seen = 0
    for k in range(4):
        s = g.new_initial_state(seed=900 + k)
        step = 0
        while not s.is_terminal():
            if step % 7 == 3:
                p = s.current_player()
                d = s.determinize(p, rng)
                assert d.view(p) == s.view(p)
                assert np.array_equal(d.observation(p), s.observation(p))
                g.state_from_dict(json.loads(json.dumps(d.to_dict())))
                if s.deck_public:
                    public_seen += 1
                    assert d.deck == s.deck
                for q in range(n):
                    for i, c in enumerate(s.view(p)["known_hands"][q]):
                        if c >= 0:
                            assert d.hands[q][i] == c
            legal = s.legal_actions()
            s.apply_action(int(legal[rng.integers(len(legal))]))
            step += 1
    assert public_seen > 10


def test_a_seat_picture_shows_the_public_cards_face_up(small_deck):
    """The picture of player 1's seat after the turn-over: player 0's red organ face up and marked
    "known", the two cards of the deal face down; the deck shows its next card, the green organ."""
    s = turned_over(small_deck)
    svg = s.picture(1)
    assert svg.count(">?</text>") == 2 and svg.count(">known</text>") == 1
    assert "(order known)" in svg and ">next</text>" in svg
    before = from_text("players: 2\nhand 0: red, green, blue", deck_file=small_deck).picture(1)
    assert before.count(">?</text>") == 3 and "order known" not in before
