"""The rulebook's worked examples 1-5 and its scoring example, reproduced exactly.

Seating (4 players, turn order to the left): Clemens 0, Beatrix 1, Eva 2, Alfons 3, so that
"his left-hand neighbour Beatrix ... to her left, to Eva ... to Alfons ... returns to Clemens".
"""
import virus_envs
from virus_envs.virus_co.game import PH_PASS, PH_RISK_BACK, PH_RISK_OFFER, PH_SYRINGE, PH_TURN, PH_WARD
from virus_envs.virus_co.scenario import build, card_id, do, risk_id

CLEMENS, BEATRIX, EVA, ALFONS = 0, 1, 2, 3


def game():
    return virus_envs.game("virus_co_v0", num_players=4)


def legal_names(s):
    return sorted(s.game.action_to_string(a) for a in s.legal_actions())


def test_example_1_pharmacy_gives_only_what_is_in_stock():
    """Clemens takes the virus showing blue, yellow and red; only blue is in stock: he gets one blue."""
    g = game()
    s = build(g, active=CLEMENS, pills={CLEMENS: (3, 2, 2)}, pharmacy=(4, 0, 0), up=("V25", None))
    assert g.cat.pills[card_id(g, "V25")] == (1, 1, 1)
    do(s, "take A")
    assert s.pills[CLEMENS] == [4, 2, 2]      # one blue only: "the pharmacy never exchanges"
    assert s.pharm == [3, 0, 0]
    assert s.illness(CLEMENS) == g.cat.value[card_id(g, "V25")]
    assert s.current_player() == BEATRIX and s.ph == PH_TURN


def _example_3_start():
    g = game()
    return build(g, active=CLEMENS, pharmacy=(3, 2, 2), up=("V26", None),
                 pills={CLEMENS: (3, 2, 2), BEATRIX: (3, 2, 2), EVA: (1, 0, 3), ALFONS: (3, 2, 2)})


def test_example_3_circulation_with_rising_stakes_top_ups_and_overpay():
    s = _example_3_start()
    g = s.game
    assert g.cat.value[card_id(g, "V26")] == 6 and not g.cat.cross[card_id(g, "V26")]
    do(s, "circulate A")
    # a plain virus goes to a neighbour only
    assert legal_names(s) == ["seat+1", "seat+3"]
    do(s, "seat+1")                          # Clemens -> Beatrix, no pills for the one who circulates
    assert s.stake[CLEMENS] == [0, 0, 0] and s.cur == BEATRIX and s.ph == PH_WARD
    do(s, "blue")                            # Beatrix: value 1
    assert s.stake[BEATRIX] == [1, 0, 0] and s.req == 2
    assert legal_names(s) == ["seat+1"]      # never straight back to Clemens
    do(s, "seat+1")
    # Eva must put up 2 but has no yellow and one blue only: she must use a red pill
    assert legal_names(s) == ["keep", "red"]
    do(s, "red", "seat+1")
    assert s.stake[EVA] == [0, 0, 1]
    assert s.req == 3                        # the surplus does not raise the next requirement
    do(s, "red", "seat+1")                   # Alfons: value 3 with one red
    assert s.cur == CLEMENS and s.req == 4   # back at Clemens, who now must put up 4
    do(s, "yellow", "yellow", "seat+1")
    assert s.stake[CLEMENS] == [0, 2, 0]
    assert s.cur == BEATRIX and s.req == 5
    do(s, "yellow", "yellow")                # Beatrix tops up her blue by two yellows to reach 5
    assert s.stake[BEATRIX] == [1, 2, 0] and s.ph == PH_PASS
    do(s, "seat+1")
    do(s, "red")                             # Eva adds one red to meet 6
    assert s.stake[EVA] == [0, 0, 2]
    do(s, "seat+1")
    assert s.cur == ALFONS and s.req == 7
    assert "red" in legal_names(s)           # "Alfons could still afford it"
    do(s, "keep")
    # Alfons takes back his stake; the three others' stakes go to the pharmacy; no pharmacy pills
    assert s.pills[ALFONS] == [3, 2, 2]
    assert s.pills[CLEMENS] == [3, 0, 2] and s.pills[BEATRIX] == [2, 0, 2] and s.pills[EVA] == [1, 0, 1]
    assert s.stake == [[0, 0, 0]] * 4
    assert s.pharm == [3 + 1, 2 + 2 + 2, 2 + 2]
    assert s.illness(ALFONS) == 6 and card_id(g, "V26") in s.vir[ALFONS]
    assert s.current_player() == BEATRIX and s.ph == PH_TURN   # the turn passes on from Clemens


def test_example_2_top_up_by_the_difference():
    """Clemens has one blue in his stake; the card reaches him again at 5: he adds pills of value 4."""
    g = game()
    s = build(g, active=ALFONS, pharmacy=(3, 2, 2), up=("V26", None),
              pills={CLEMENS: (3, 2, 2), BEATRIX: (3, 2, 2), EVA: (3, 2, 2), ALFONS: (3, 2, 2)})
    do(s, "circulate A", "seat+1")           # Alfons -> Clemens
    do(s, "blue", "seat+1")                  # Clemens: 1
    do(s, "yellow", "seat+1")                # Beatrix: 2
    do(s, "red", "seat+1")                   # Eva: 3
    do(s, "blue", "red", "seat+1")           # Alfons: 4
    assert s.cur == CLEMENS and s.req == 5 and s.stake[CLEMENS] == [1, 0, 0]
    # exact ways to add 4 from (2 blue, 2 yellow, 2 red): any first pill can start one
    assert legal_names(s) == ["blue", "keep", "red", "yellow"]
    do(s, "yellow")
    assert legal_names(s) == ["blue", "yellow"]   # yellow+yellow or yellow+blue+blue; red would overpay
    do(s, "yellow")
    assert s.stake[CLEMENS] == [1, 2, 0] and s.ph == PH_PASS and s.req == 6


def test_example_4_syringe_in_circulation():
    g = game()
    s = build(g, active=EVA, pharmacy=(3, 2, 2), up=("S01", None),
              pills={CLEMENS: (1, 0, 2), BEATRIX: (3, 2, 2), EVA: (3, 2, 2), ALFONS: (3, 2, 2)},
              displays={CLEMENS: [("V16", 1), ("V11", 1)], ALFONS: ["V26", "V21", "V20"]})
    assert len(s.syr[CLEMENS]) == 2
    do(s, "circulate A", "seat+3")           # Eva -> Beatrix (her right neighbour)
    do(s, "blue")
    assert legal_names(s) == ["seat+3"]      # on to Clemens, not back to Eva
    do(s, "seat+3")
    assert legal_names(s) == ["keep", "red"]  # lacking a yellow pill, he must use a red one
    do(s, "red", "seat+3")                   # Clemens -> Alfons
    assert s.cur == ALFONS
    do(s, "keep")
    assert s.ph == PH_SYRINGE and s.cur == ALFONS
    assert legal_names(s) == ["card V20", "card V21", "card V26"]
    do(s, "card V26")
    assert s.illness(ALFONS) == 3 + 5 + 4
    assert s.pharm == [3 + 1, 2, 2 + 1]      # Beatrix's blue and Clemens's red
    assert s.pills[ALFONS] == [3, 2, 2]
    assert s.current_player() == ALFONS and s.ph == PH_TURN   # Eva's turn is over: Alfons is next


def test_example_5_risk_card_round_trip_and_infection():
    g = game()
    s = build(g, active=ALFONS, pharmacy=(3, 2, 2),
              pills={CLEMENS: (3, 2, 2), BEATRIX: (3, 2, 2), EVA: (0, 0, 3), ALFONS: (3, 2, 2)},
              displays={ALFONS: ["V16"], BEATRIX: ["V01", ("V11", 1)], CLEMENS: [("V06", 1), ("V14", 1)]},
              hands={ALFONS: ["Infection", "Plague 2"]}, up=("V02", "V03"))
    assert "risk Infection" in legal_names(s)
    do(s, "risk Infection", "seat+2")        # face down before Beatrix
    assert s.cur == BEATRIX and s.ph == PH_RISK_OFFER
    assert s.view(BEATRIX)["risk_card"]["card"] is None      # she may not look at it
    assert s.view(ALFONS)["risk_card"]["card"] == "Infection"
    do(s, "blue")                            # one blue pill to Alfons
    assert s.pills[ALFONS] == [4, 2, 2]
    assert legal_names(s) == ["seat+1", "seat+2", "seat+3"]   # to any fellow player
    do(s, "seat+3")                          # Beatrix -> Clemens
    do(s, "blue", "seat+3")                  # Clemens pays Alfons one blue and passes it back to him
    assert s.cur == ALFONS and s.ph == PH_RISK_BACK and s.pills[ALFONS] == [5, 2, 2]
    do(s, "blue", "blue")                    # pills of value 2 to the pharmacy
    assert s.pharm == [5, 2, 2] and s.pills[ALFONS] == [3, 2, 2]
    do(s, "seat+3")                          # Alfons -> Eva
    assert s.cur == EVA and legal_names(s) == ["keep", "red"]   # only a red pill would pass it on
    do(s, "keep")                            # Infection: take a virus from a fellow player
    assert legal_names(s) == ["card V01", "card V16"]         # V11 has a syringe on it; Clemens's both too
    do(s, "card V01")
    assert card_id(g, "V01") in s.vir[EVA] and card_id(g, "V01") not in s.vir[BEATRIX]
    assert s.illness(EVA) == 1 and s.illness(BEATRIX) == 2
    assert risk_id(g, "Infection", ()) in s.used
    assert s.current_player() == CLEMENS and s.ph == PH_TURN   # Alfons's turn is over


def test_scoring_example():
    """Clemens -3, Beatrix +1, Eva +2, Alfons -13."""
    g = game()
    s = build(g, active=ALFONS, pharmacy=(0, 0, 0), up=("S01", None),
              pills={CLEMENS: (0, 0, 1), BEATRIX: (3, 3, 1), EVA: (3, 2, 0), ALFONS: (6, 4, 4)},
              displays={CLEMENS: [("V16", 1), ("V23", 1), "V01"], BEATRIX: ["V20", "V11"],
                        EVA: ["V18", "V14"], ALFONS: [("V26", 2)]})
    diag = risk_id(g, "Diagnosis", ())
    nurse = risk_id(g, "Nurse", ())
    for c in (diag, nurse):
        s.rbox.remove(c)
    s.front[BEATRIX].append(diag)
    s.diag[BEATRIX] = CLEMENS           # "she has diagnosed that Clemens lands in the INTENSIVE CARE UNIT"
    s.front[EVA].append(nurse)
    s.nurse[EVA] = BEATRIX              # "a good NURSE while caring for Beatrix"
    assert s.illness(CLEMENS) == 6 and s.pill_value(CLEMENS) == 3
    assert s.illness(BEATRIX) == 7 and s.pill_value(BEATRIX) == 12
    assert s.illness(EVA) == 7 and s.pill_value(EVA) == 7
    assert len(s.syr[ALFONS]) == 2
    do(s, "take A")                     # Alfons lays his third syringe: intensive care, the round ends
    assert s.history[0] == [-3, 1, 2, -13]
    assert list(s.totals) == [-3, 1, 2, -13]
    assert s.round == 1 and s.active == ALFONS and s.cur == ALFONS   # he holds the referral slip
