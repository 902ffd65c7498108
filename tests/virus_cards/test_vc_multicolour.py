"""VIRUS!: multicolour cards and the colour of Cure and Neutralize (rulebook seeds/003, issue 12).

"Use a medicine card to destroy a virus of the same color that is placed on an organ." (Cure)
"Use a virus to eliminate a medicine of the same color that is placed on an organ." (Neutralize)
"A multicolored card does not affect the color of a card it's played on, and can be applied to all
of them." The publisher's FAQ: a coloured virus lying on the multicolour organ is cured only by a
medicine of that colour or a multicolour medicine; the mirror case holds for Neutralize.
Default `colour_rule="card"`; the older readings are the options `card_or_organ`, `card_and_organ`.
Every expectation below is written out by hand from those sentences.
"""
import pytest

import virus_envs
from virus_envs import agents
from virus_envs.agents.base import decision_for
from virus_envs.virus_cards.scenario import body_text, from_text

RULES = ("card", "card_or_organ", "card_and_organ")


def names(s):
    return {s.game.actions.name(a) for a in s.legal_actions()}


def act(s, name):
    s.apply_action(s.game.string_to_action(name))


def pile(s):
    return [s.game.deck.card_name(c) for c in s.discard]


def test_default_colour_rule_is_the_cards_own_colour():
    assert virus_envs.game("virus_cards_v0").config["colour_rule"] == "card"


# (played card, target slot as `organ+card on it`, legal under card / card_or_organ / card_and_organ,
#  the rulebook words that decide it). Viruses go on player 1's body, medicines on player 0's own.
CASES = [
    # Infect, Remove: the virus against the organ
    ("red virus", "multi", (1, 1, 1), "a multicolored card ... can be applied to all of them"),
    ("multi virus", "blue", (1, 1, 1), "the multicolored virus can affect any organ"),
    ("blue virus", "red", (0, 0, 0), "place a virus card on a free organ of the same color"),
    ("blue virus", "multi+red virus", (1, 1, 1), "destroyed by 2 viruses of a different color"),
    ("red virus", "red+multi virus", (1, 1, 1), "place a second virus on an infected organ"),
    ("blue virus", "red+multi virus", (0, 0, 0), "the viruses only have an effect on organs ... of the same color"),
    # Neutralize: the virus against the medicine it eliminates
    ("red virus", "multi+red medicine", (1, 1, 1), "eliminate a medicine of the same color"),
    ("multi virus", "multi+red medicine", (1, 1, 1), "the multicolored virus can affect any ... medicine"),
    ("blue virus", "multi+red medicine", (0, 1, 0), "FAQ: only a virus of that colour or a multicolour one"),
    ("blue virus", "multi+multi medicine", (1, 1, 1), "the multicolored medicine ... destroyed by a virus of any color"),
    ("blue virus", "red+multi medicine", (1, 1, 0), "the multicolored medicine ... destroyed by a virus of any color"),
    ("blue virus", "red+red medicine", (0, 0, 0), "eliminate a medicine of the same color"),
    # Vaccinate, Immunize: the medicine against the organ
    ("blue medicine", "multi", (1, 1, 1), "a multicolored card ... can be applied to all of them"),
    ("multi medicine", "red", (1, 1, 1), "the multicolored medicine can affect any virus or organ"),
    ("blue medicine", "red", (0, 0, 0), "use medicine cards only on organs or viruses of the same color"),
    ("blue medicine", "multi+red medicine", (1, 1, 1), "immunized with two different types of medicines"),
    ("red medicine", "red+multi medicine", (1, 1, 1), "place a second medicine card on an organ"),
    ("blue medicine", "red+multi medicine", (0, 0, 0), "use medicine cards only on organs ... of the same color"),
    # Cure: the medicine against the virus it destroys
    ("red medicine", "multi+red virus", (1, 1, 1), "destroy a virus of the same color"),
    ("multi medicine", "multi+red virus", (1, 1, 1), "the multicolored medicine can affect any virus"),
    ("blue medicine", "multi+red virus", (0, 1, 0), "FAQ: only a medicine of that colour or a multicolour one"),
    ("blue medicine", "red+multi virus", (1, 1, 0), "the multicolored virus ... cured by a medicine card of any color"),
    ("blue medicine", "multi+multi virus", (1, 1, 1), "the multicolored virus ... cured by a medicine card of any color"),
    ("blue medicine", "red+red virus", (0, 0, 0), "destroy a virus of the same color"),
]


@pytest.mark.parametrize("card, slot, allowed, words", CASES, ids=[f"{c[0]} on {c[1]}" for c in CASES])
@pytest.mark.parametrize("rule", RULES)
def test_colour_of_every_virus_and_medicine_play(rule, card, slot, allowed, words):
    virus = card.endswith("virus")
    seat = 1 if virus else 0
    s = from_text(f"players: 2\nhand 0: {card}, green, yellow\nbody {seat}: {slot}", colour_rule=rule)
    colour = slot.split("+")[0]
    action = f"play 0 -> +{seat} {colour}"
    assert (action in names(s)) == bool(allowed[RULES.index(rule)]), words


def test_faq_a_red_virus_on_the_multicolour_organ_is_cured_by_red_or_multicolour_medicine_only():
    """ "Use a medicine card to destroy a virus of the same color ... Both cards are then placed on the
    discard pile." and "A multicolored card does not affect the color of a card it's played on." """
    text = "players: 2\nhand 0: blue medicine, red medicine, multi medicine\nbody 0: multi+red virus\nbody 1: green"
    s = from_text(text)
    legal = names(s)
    assert "play 0 -> +0 multi" not in legal                     # blue: a different colour
    assert {"play 1 -> +0 multi", "play 2 -> +0 multi"} <= legal  # red, multicolour
    act(s, "play 1 -> +0 multi")
    assert body_text(s, 0) == "multi" and pile(s) == ["red medicine", "red virus"]
    s = from_text(text)
    act(s, "play 2 -> +0 multi")
    assert body_text(s, 0) == "multi" and pile(s) == ["multi medicine", "red virus"]


def test_faq_mirror_a_red_medicine_on_the_multicolour_organ_falls_to_red_or_multicolour_virus_only():
    """ "Use a virus to eliminate a medicine of the same color that is placed on an organ. Place both the
    virus and the vaccine cards on the discard pile." """
    text = "players: 2\nhand 0: blue virus, red virus, multi virus\nbody 1: multi+red medicine"
    s = from_text(text)
    legal = names(s)
    assert "play 0 -> +1 multi" not in legal
    assert {"play 1 -> +1 multi", "play 2 -> +1 multi"} <= legal
    act(s, "play 1 -> +1 multi")
    assert body_text(s, 1) == "multi" and pile(s) == ["red virus", "red medicine"]
    s = from_text(text)
    act(s, "play 2 -> +1 multi")
    assert body_text(s, 1) == "multi" and pile(s) == ["multi virus", "red medicine"]


def test_multicolour_organ_immunized_by_two_medicines_of_different_colours():
    """ "The multicolored organ can be immunized with two different types of medicines." """
    s = from_text("players: 2\nhand 0: red medicine, blue medicine, green\nbody 0: multi")
    act(s, "play 0 -> +0 multi")
    act(s, "discard 0,1,2")
    h = next(i for i, c in enumerate(s.hands[0]) if s.game.deck.card_name(c) == "blue medicine")
    act(s, f"play {h} -> +0 multi")
    assert body_text(s, 0) == "multi+red medicine+blue medicine" and s.code[0][4] >= 12


def test_multicolour_organ_destroyed_by_two_viruses_of_different_colours():
    """ "... but it can also be destroyed by 2 viruses of a different color." """
    s = from_text("players: 2\nhand 0: red virus, green virus, blue\nbody 1: multi")
    act(s, "play 0 -> +1 multi")
    act(s, "discard 0,1,2")
    h = next(i for i, c in enumerate(s.hands[0]) if s.game.deck.card_name(c) == "green virus")
    act(s, f"play {h} -> +1 multi")
    assert s.organ[1][4] == -1
    assert pile(s)[-3:] == ["green virus", "multi organ", "red virus"]


@pytest.mark.parametrize("colour", ["red", "green", "blue", "yellow"])
def test_multicolour_virus_acts_on_any_colour_and_is_cured_by_any_medicine(colour):
    """ "The multicolored virus can affect any organ or medicine, but it can also be cured by a
    medicine card of any color." """
    s = from_text(f"players: 2\nhand 0: multi virus, red, blue\nbody 1: {colour}+{colour} medicine")
    assert f"play 0 -> +1 {colour}" in names(s)          # neutralize any medicine
    s = from_text(f"players: 2\nhand 0: multi virus, red, blue\nbody 1: {colour}")
    act(s, f"play 0 -> +1 {colour}")                       # infect any organ
    assert body_text(s, 1) == f"{colour}+multi virus"
    other = "red" if colour != "red" else "blue"
    s = from_text(f"players: 2\nhand 0: {other} medicine, green, yellow\nbody 0: {colour}+multi virus")
    act(s, f"play 0 -> +0 {colour}")                       # cured by a medicine of any colour
    assert body_text(s, 0) == colour


@pytest.mark.parametrize("colour", ["red", "green", "blue", "yellow"])
def test_multicolour_medicine_acts_on_any_and_falls_to_any_virus(colour):
    """ "The multicolored medicine can affect any virus or organ. However, it can also be destroyed by a
    virus of any color." """
    other = "red" if colour != "red" else "blue"
    s = from_text(f"players: 2\nhand 0: multi medicine, green, yellow\nbody 0: {colour}+{colour} virus")
    act(s, f"play 0 -> +0 {colour}")
    assert body_text(s, 0) == colour
    s = from_text(f"players: 2\nhand 0: {other} virus, green, yellow\nbody 1: {colour}+multi medicine")
    act(s, f"play 0 -> +1 {colour}")
    assert body_text(s, 1) == colour


def test_contagion_matches_the_virus_with_the_organ_it_lands_on():
    """ "Transfer as many viruses as you can from your infected organs to other players' organs ...
    You can only infect free organs": a red virus leaving the multicolour organ still infects only
    a red or a multicolour organ ("place a virus card on a free organ of the same color")."""
    for rule in RULES:
        s = from_text("players: 2\nhand 0: contagion, green, yellow\nbody 0: multi+red virus\nbody 1: blue, red",
                      colour_rule=rule)
        act(s, "play 0")
        assert names(s) == {"contagion multi -> +1 red"}
        act(s, "contagion multi -> +1 red")
        assert body_text(s, 1) == "red+red virus, blue"


def test_the_heuristic_plays_the_same_colour_rule():
    """The heuristic tries each legal action on the engine: with a blue and a red medicine before a red
    virus on its multicolour organ, the cure it finds is the red one (the blue one is not offered)."""
    s = from_text("players: 2\nhand 0: blue medicine, red medicine, yellow virus\nbody 0: multi+red virus, green")
    assert "play 0 -> +0 multi" not in names(s)
    a = agents.make("heuristic", s.game, seed=0).act(decision_for(s))
    assert s.game.actions.name(a) == "play 1 -> +0 multi"
