"""VIRUS!: the exact discard and redraw order, followed through two turn-overs of the pile (issue 23).

The order matters because "When the deck runs out, simply flip over the discard pile. It's not
necessary to shuffle again": the first card discarded is the first drawn after the turn-over. Every
expected pile and deck below is written by hand from the rulebook and Assumption 10 of
docs/rules/virus_cards.md ("the played card first, then the cards it removes (organ, then the cards
on it); discarded hand cards in hand order"), drawn cards joining the end of the hand. The game uses
a 15-card deck so that every card is named.
"""
import pytest

from virus_envs.virus_cards.scenario import body_text, from_text


@pytest.fixture
def game_start(small_deck):
    return from_text("""
        players: 2
        hand 0: red virus, blue virus, organ thief
        hand 1: green medicine, transplant, yellow
        body 0: red, green
        body 1: red+multi virus, green+green virus, blue+blue medicine
        deck: multi medicine
    """, deck_file=small_deck)


def act(s, name):
    s.apply_action(s.game.string_to_action(name))


def names(s, cards):
    return [s.game.deck.card_name(c) for c in cards]


def table(s):
    """(pile bottom first, deck next-drawn first, hand 0, hand 1) by card name."""
    return names(s, s.discard), names(s, s.deck[::-1]), names(s, s.hands[0]), names(s, s.hands[1])


def test_discard_and_redraw_order_through_two_turn_overs(game_start):
    s = game_start
    assert len(s.game.deck.kind) == 15 and s.deck != [] and not s.deck_public
    their_red = s.organ[1][0]
    assert s.game.deck.card_name(their_red) == "red organ"

    # 1. player 0, Remove: "Place a second virus on an infected organ: that organ is now destroyed and all
    # three cards must be placed on the discard pile" - the played red virus, the organ, the multi virus on it.
    act(s, "play 0 -> +1 red")
    assert table(s) == (["red virus", "red organ", "multi virus"], [],
                        ["blue virus", "organ thief", "multi medicine"],
                        ["green medicine", "transplant", "yellow organ"])
    assert s.discard[1] == their_red and not s.deck_public

    # 2. player 1, Cure: "Both cards are then placed on the discard pile" - the medicine, then the virus.
    # Player 1 draws one card: the deck is empty, the pile is turned over, its bottom card comes first.
    act(s, "play 0 -> +0 green")
    assert table(s) == ([], ["red organ", "multi virus", "green medicine", "green virus"],
                        ["blue virus", "organ thief", "multi medicine"],
                        ["transplant", "yellow organ", "red virus"])
    assert s.deck_public and s.deck[-1] == their_red
    assert names(s, [c for c in s.view(0)["known_hands"][1] if c >= 0]) == ["red virus"]

    # 3. player 0, Neutralize: "Place both the virus and the vaccine cards on the discard pile".
    act(s, "play 0 -> +1 blue")
    assert table(s) == (["blue virus", "blue medicine"], ["multi virus", "green medicine", "green virus"],
                        ["organ thief", "multi medicine", "red organ"],
                        ["transplant", "yellow organ", "red virus"])
    assert s.hands[0][2] == their_red

    # 4. player 1, Transplant: the card goes to the pile when played; its own blue organ for player 0's red.
    act(s, "play 0 -> +0 blue")
    assert names(s, s.discard) == ["blue virus", "blue medicine", "transplant"] and len(s.hands[1]) == 2
    act(s, "transplant with +1 red")
    assert table(s) == (["blue virus", "blue medicine", "transplant"], ["green medicine", "green virus"],
                        ["organ thief", "multi medicine", "red organ"],
                        ["yellow organ", "red virus", "multi virus"])
    assert (body_text(s, 0), body_text(s, 1)) == ("green, blue", "red, green")

    # 5. player 0, Organ Thief: the card to the pile, the organ to its own body.
    act(s, "play 0 -> +1 red")
    assert table(s) == (["blue virus", "blue medicine", "transplant", "organ thief"], ["green virus"],
                        ["multi medicine", "red organ", "green medicine"],
                        ["yellow organ", "red virus", "multi virus"])
    assert (body_text(s, 0), body_text(s, 1)) == ("red, green, blue", "green")

    # 6. player 1 plays its yellow organ and draws the deck's last card.
    act(s, "play 0 -> +0 yellow")
    assert table(s) == (["blue virus", "blue medicine", "transplant", "organ thief"], [],
                        ["multi medicine", "red organ", "green medicine"],
                        ["red virus", "multi virus", "green virus"])

    # 7. player 0 discards two cards, in hand order, then draws two: the pile is turned over again.
    act(s, "discard 0,2")
    assert table(s) == ([], ["transplant", "organ thief", "multi medicine", "green medicine"],
                        ["red organ", "blue virus", "blue medicine"],
                        ["red virus", "multi virus", "green virus"])

    # 8. player 1 discards its hand and draws three from the turned-over pile.
    act(s, "discard 0,1,2")
    assert table(s) == (["red virus", "multi virus", "green virus"], ["green medicine"],
                        ["red organ", "blue virus", "blue medicine"],
                        ["transplant", "organ thief", "multi medicine"])
    # every card of player 1's hand came from a turned-over pile: player 0 knows them all
    assert s.view(0)["known_hands"][1] == s.hands[1]
    assert not s.is_terminal() and s.turns == 8
