"""VIRUS!: state_from_dict refuses a corrupted dict with a ValueError naming the field (issue 12):
card conservation, lengths per seat, slots, ranges, and a decision that can be taken."""
import json

import pytest

import virus_envs
from virus_envs.virus_cards.scenario import from_text

BASE = """
    players: 3
    turn: 1
    hand 0: red, green virus, multi medicine
    hand 1: blue, red virus, transplant
    hand 2: yellow, blue medicine, contagion
    body 0: red+red virus, green+green medicine
    body 1: green, multi+red medicine+blue medicine
    body 2: blue+blue virus
    discard: yellow virus, green organ
"""
# card ids of the published deck (cards.py builds it kind by kind, colour by colour):
# organs red 0-4, green 5-9, blue 10-14, yellow 15-19, multi 20; viruses red 21-24, green 25-28,
# blue 29-32, yellow 33-36, multi 37; medicines red 38-41, green 42-45, blue 46-49, yellow 50-53,
# multi 54-57; transplant 58-60, organ thief 61-63, contagion 64-65, latex glove 66, medical error 67
# from_text takes the lowest free id of each type, hands and bodies seat by seat, then the discard
# pile: body 0's red organ carries red virus 21, body 2's blue organ blue virus 29; green virus 26,
# blue organ 12 and yellow organ 16 lie in the deck.
GREEN_ORGAN, RED_VIRUS, BLUE_VIRUS, GREEN_MEDICINE, YELLOW_VIRUS = 5, 21, 29, 42, 33


def base():
    return json.loads(json.dumps(from_text(BASE).to_dict()))


def test_the_base_position_loads_and_the_ids_are_as_written():
    d = base()
    s = virus_envs.game("virus_cards_v0", num_players=3).state_from_dict(d)
    assert s.to_dict() == d
    name = s.game.deck.card_name
    assert [name(c) for c in (GREEN_ORGAN, RED_VIRUS, BLUE_VIRUS, GREEN_MEDICINE, YELLOW_VIRUS)] == [
        "green organ", "red virus", "blue virus", "green medicine", "yellow virus"]


def _set(path, value):
    def f(d):
        x = d
        for k in path[:-1]:
            x = x[k]
        x[path[-1]] = value
    return f


def _swap_first_organ_cards(d):            # body 0's red organ and body 1's green organ trade slots
    d["organ"][0][0], d["organ"][1][1] = d["organ"][1][1], d["organ"][0][0]


def _move(src, dst):
    def f(d):
        x = d
        for k in src[:-1]:
            x = x[k]
        card = x.pop(src[-1])
        y = d
        for k in dst:
            y = y[k]
        y.append(card)
    return f


def _place(card, *dst):
    """Take `card` out of the deck and put it at dst (a list in the dict)."""
    def f(d):
        d["deck"].remove(card)
        y = d
        for k in dst:
            y = y[k]
        y.append(card)
    return f


def _empty_hand(q):
    def f(d):
        d["discard"].extend(d["hands"][q])
        d["hands"][q], d["hand_public"][q] = [], []
    return f


def _win_without_winner(d):                 # player 0 gets four healthy organs: the game would be over
    d["att"][0][0] = []
    d["discard"].append(RED_VIRUS)
    for c, organ in ((2, 12), (3, 16)):
        d["deck"].remove(organ)
        d["organ"][0][c] = organ


CASES = [
    # card conservation
    ("a card twice in hands", lambda d: d["hands"][1].__setitem__(0, d["hands"][0][0]), "hands"),
    ("a card in deck and discard", lambda d: d["discard"].append(d["deck"][0]), "discard"),
    ("a card vanished from the deck", lambda d: d["deck"].pop(), "vanished"),
    ("an emptied deck", _set(["deck"], []), "vanished"),
    ("a card on a body and in a hand", lambda d: d["hands"][2].__setitem__(0, d["att"][0][0][0]), "att"),
    ("a card id past the deck", _set(["hands", 0, 0], 68), "hands[0][0]"),
    ("a negative card id", _set(["discard", 0], -3), "discard[0]"),
    ("a negative card id in the deck", _set(["deck", 0], -3), "deck[0]"),
    ("a card id past the deck on a body", _set(["organ", 0, 0], 68), "organ[0][0]"),
    # lengths against num_players, per hand and per body
    ("a fourth hand", lambda d: d["hands"].append([]), "hands"),
    ("a hand of four cards", _move(["deck", 0], ["hands", 0]), "hands[0]"),
    ("two bodies for three players", lambda d: d["organ"].pop(), "organ"),
    ("a body of four slots", lambda d: d["organ"][2].pop(), "organ[2]"),
    ("att for two players", lambda d: d["att"].pop(), "att"),
    ("hand_public shorter than its hand", lambda d: d["hand_public"][1].pop(), "hand_public[1]"),
    ("hand_public for two players", lambda d: d["hand_public"].pop(), "hand_public"),
    # slots
    ("an organ in another colour's slot", _swap_first_organ_cards, "organ[0][0]"),
    ("a virus where no organ lies", _move(["att", 0, 0, 0], ["att", 2, 0]), "att[2][0]"),
    ("a blue virus on a red organ", lambda d: _swap_card(d, RED_VIRUS, BLUE_VIRUS), "att[0][0]"),
    ("a virus and a medicine on one organ", _place(26, "att", 0, 1), "att[0][1]"),
    # ranges and counts
    ("a negative turn count", _set(["turns"], -1), "turns"),
    ("more turns than max_turns", _set(["turns"], 10**9), "turns"),
    ("turn_player past the seats", _set(["turn_player"], 3), "turn_player"),
    ("a stage that does not exist", _set(["stage"], 3), "stage"),
    ("a winner past the seats", _set(["winner"], 5), "winner"),
    ("a winner without four healthy organs", _set(["winner"], 2), "winner"),
    ("the first seat as a winner without four healthy organs", _set(["winner"], 0), "winner"),
    ("four healthy organs and no winner", _win_without_winner, "winner"),
    ("truncated and won", lambda d: d.update(winner=0, truncated=True), "truncated"),
    ("truncated not a bool", _set(["truncated"], 1), "truncated"),
    ("deck_public not a bool", _set(["deck_public"], "yes"), "deck_public"),
    ("a known hand card before any turn-over", _set(["hand_public", 0, 0], True), "hand_public[0][0]"),
    # the decision to take
    ("a transplant pick without its first organ", _set(["stage"], 1), "pending"),
    ("a first organ outside the transplant", _set(["pending"], [1, 1]), "pending"),
    ("a first organ that is not there", lambda d: d.update(stage=1, pending=[2, 3]), "pending"),
    ("a contagion without a virus to move", _set(["stage"], 2), "stage"),
    ("an empty hand to play from", _empty_hand(1), "hands[1]"),
]


def _swap_card(d, a, b):
    """Exchange the places of cards a and b wherever they lie."""
    def walk(x):
        for i, v in enumerate(x):
            if isinstance(v, list):
                walk(v)
            elif v == a:
                x[i] = b
            elif v == b:
                x[i] = a
    for k in ("hands", "organ", "att", "deck", "discard"):
        walk(d[k])


@pytest.mark.parametrize("what, corrupt, field", CASES, ids=[c[0] for c in CASES])
def test_a_corrupted_dict_is_refused_naming_the_field(what, corrupt, field):
    g = virus_envs.game("virus_cards_v0", num_players=3)
    d = base()
    corrupt(d)
    with pytest.raises(ValueError) as e:
        g.state_from_dict(d)
    msg = str(e.value)
    # the one message shape: "state dict for <env>: field '<field>' <what is wrong>", the reason a phrase
    # going on from the field's name (a lowercase word or a number), not empty, None or shouted
    assert msg.startswith("state dict for virus_cards_v0: "), msg
    if field == "vanished":
        assert "has vanished" in msg, msg
    else:
        head = f"state dict for virus_cards_v0: field {field!r} "
        assert msg.startswith(head) and (msg[len(head)].islower() or msg[len(head)].isdigit()), msg


def test_the_empty_hand_case_is_a_short_hand_at_a_decision():
    """Player 1 (to act) holding 2 cards while the deck still has cards: "Each player must have 3 cards
    in their hand at the beginning of each turn"."""
    g = virus_envs.game("virus_cards_v0", num_players=3)
    d = base()
    d["discard"].append(d["hands"][1].pop())
    d["hand_public"][1].pop()
    with pytest.raises(ValueError, match=r"'hands\[1\]'.*3 cards"):
        g.state_from_dict(d)


# The message says why, in the one shape "state dict for <env>: field '<field>' <what is wrong>", each
# written out in full (a reader who loads a broken file sees exactly this line).
WHY = [
    (_set(["hand_public", 0, 0], True),
     "field 'hand_public[0][0]' is true, but no card was drawn from a turned-over pile yet (deck_public is false)"),
    (_set(["stage"], 1),
     "field 'pending' must be the Transplant's first organ exactly when stage is 1 (transplant: second organ); "
     "stage is 1, pending is None"),
    (_place(26, "att", 0, 1),
     "field 'att[0][1]' must be nothing, one virus, one medicine or two medicines (immunized)"),
    (_empty_hand(1),
     "field 'hands[1]' is empty at its player's decision (an empty hand is refilled before the turn)"),
    (_set(["stage"], 2), "field 'stage' is 2 (contagion), but no virus of the player can move"),
    # a range or a length is itself the reason (with it dropped, a later check refused for another reason
    # or the loader failed with an IndexError): 3 seats, 5 slots a body, max_turns 4000
    (_set(["turns"], 10**9), "field 'turns' must be in 0..4000, got 1000000000"),
    (_set(["stage"], 3), "field 'stage' must be in 0..2, got 3"),
    (lambda d: d.update(stage=1, pending=[0, 5]), "field 'pending[1]' must be in 0..4, got 5"),
    (lambda d: d.update(stage=1, pending=[3, 0]), "field 'pending[0]' must be in 0..2, got 3"),
    (lambda d: d.update(stage=1, pending=[1]), "field 'pending' must have 2 entries (one per seat or slot), got 1"),
    (lambda d: d["att"][2].pop(), "field 'att[2]' must have 5 entries (one per seat or slot), got 4"),
    # a card on an organ is a card of the 68-card deck (ids 0-67), named by its place on the body
    (lambda d: d["att"][0][0].__setitem__(0, 99), "field 'att[0][0][0]' must be in 0..67, got 99"),
    # Transplant swaps organs that are not immunized: body 1's multi organ carries two medicines, so a Transplant
    # can never have picked it first, even though other organs could partner it
    (lambda d: d.update(stage=1, pending=[1, 4]),
     "field 'pending' names player 1's multi slot, which no Transplant can swap"),
]


@pytest.mark.parametrize("corrupt, why", WHY, ids=[w[1].split("'")[1] for w in WHY])
def test_the_message_says_why(corrupt, why):
    g = virus_envs.game("virus_cards_v0", num_players=3)
    d = base()
    corrupt(d)
    with pytest.raises(ValueError) as e:
        g.state_from_dict(d)
    assert str(e.value) == "state dict for virus_cards_v0: " + why


def test_a_short_hand_message_quotes_the_rule():
    g = virus_envs.game("virus_cards_v0", num_players=3)
    d = base()
    d["discard"].append(d["hands"][1].pop())
    d["hand_public"][1].pop()
    with pytest.raises(ValueError) as e:
        g.state_from_dict(d)
    assert str(e.value) == ("state dict for virus_cards_v0: field 'hands[1]' holds 2 cards at the start of its "
                            "player's turn while cards remain to draw (\"Each player must have 3 cards\")")
