"""One scenario per rule of the Virus & Co rulebook (positions built directly, see scenario.py)."""
import numpy as np
import pytest

import virus_envs
from virus_envs import IllegalActionError
from virus_envs.virus_co.cards import KIND_SYRINGE, load_catalogue
from virus_envs.virus_co.game import (PH_FEE, PH_GIVE_PILL, PH_GUINEA, PH_INFECTION, PH_RETURN_PILL, PH_RISK_OFFER,
                                      PH_SYRINGE, PH_TURN, PH_WARD)
from virus_envs.virus_co.payment import legal_ways
from virus_envs.virus_co.scenario import build, card_id, do, risk_id


def G(n=4, **cfg):
    return virus_envs.game("virus_co_v0", num_players=n, **cfg)


def names(s):
    return sorted(s.game.action_to_string(a) for a in s.legal_actions())


FULL = {q: (3, 2, 2) for q in range(6)}


# -- setup ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("n,per,boxed", [(3, 6, 2), (4, 5, 0), (5, 4, 0), (6, 3, 2)])
def test_setup_deals_risk_cards_evenly_and_pills(n, per, boxed):
    s = G(n).new_initial_state(5)
    assert [len(h) for h in s.hand] == [per] * n and len(s.rbox) == boxed   # "two cards remain" with 3 or 6
    assert s.pills == [[3, 2, 2]] * n and s.pharm == [3, 2, 2]              # "The same pills ... pharmacy supply"
    assert [s.box[c] + (n + 1) * (3, 2, 2)[c] for c in range(3)] == [21, 14, 14]
    assert [len(st) for st in s.stacks] == [19, 19]
    v = s.view(0)
    assert v["stacks"][0]["face_up"] is not None and v["stacks"][1]["face_up"] is not None


def test_components_seed_and_twelve_syringe_preset():
    for preset, syr in (("seed", 10), ("twelve_syringes", 12)):
        cat = load_catalogue(preset)
        kinds = cat.kind[:cat.num_virus_cards]
        assert len(kinds) == 38 and sum(k == KIND_SYRINGE for k in kinds) == syr
        assert sum(cat.cross) == 8
        vals = [cat.value[c] for c in range(38) if kinds[c] != KIND_SYRINGE]
        assert min(vals) == 1 and max(vals) == 6
        assert all(1 <= sum(cat.pills[c]) <= 3 for c in range(38) if kinds[c] != KIND_SYRINGE)
        assert sum(cat.risk_count) == 20
    g = G(4, deck="twelve_syringes")
    s = g.new_initial_state(0)
    assert sum(g.KIND[c] == KIND_SYRINGE for st in s.stacks for c in st) == 12


# -- 1. take a virus card and keep it ------------------------------------------------------------
def test_take_virus_illness_and_pharmacy_pills_then_turn_passes_left():
    g = G()
    s = build(g, active=2, pills=FULL, pharmacy=(3, 2, 2), up=("V22", None))   # value 5, b y y
    do(s, "take A")
    assert s.illness(2) == 5 and s.pills[2] == [4, 4, 2] and s.pharm == [2, 0, 2]
    assert s.cur == 3 and s.ph == PH_TURN
    assert s.stacks[0][-1] != card_id(g, "V22") and len(s.stacks[0]) == 18   # next card turned over


def test_syringes_halve_rounding_up_then_kill():
    g = G()
    s = build(g, active=0, pills=FULL, displays={0: ["V23", "V11"]}, up=("S01", "S02"))
    assert s.illness(0) == 8
    do(s, "take A")
    assert s.ph == PH_SYRINGE and names(s) == ["card V11", "card V23"]
    do(s, "card V23")
    assert s.illness(0) == 3 + 3                       # 5 -> 3 ("halves its value, rounding up")
    s.active = s.cur = 0
    do(s, "take B", "card V23")
    assert s.illness(0) == 0 + 3                       # "The second syringe on a virus kills it"


def test_third_syringe_sends_to_intensive_care():
    g = G()
    s = build(g, active=1, pills=FULL, displays={1: [("V23", 1)]}, loose={1: 1}, up=("S01", None))
    do(s, "take A")
    assert s.history[-1][1] == -13 and s.round == 1


def test_syringe_without_virus_stays_alone_and_never_moves():
    g = G()
    s = build(g, active=0, pills=FULL, up=("S01", "V23"))
    do(s, "take A")                                    # no virus yet: placed alone
    assert len(s.syr[0]) == 1 and s.on[s.syr[0][0]] == -1 and s.cur == 1
    s.active = s.cur = 0
    s._mask = None
    do(s, "take B")                                    # a later virus is not halved by it
    assert s.illness(0) == 5
    # no action ever moves a syringe: the only syringe decision is placing a new one
    assert all(not n.startswith("move") for n in g.actions.names)


# -- 2. circulation ------------------------------------------------------------------------------
def test_plain_virus_and_syringe_go_to_neighbours_only_cross_virus_anywhere():
    """"Viruses without the cross symbol and syringes may only ever be passed to your left or right
    neighbour, but never straight back to the player from whom you received them." / "Viruses with the
    cross symbol may be passed across the table to any fellow player." """
    g = G(6)
    s = build(g, active=0, pills=FULL, up=("V26", "V25"))
    assert not g.CROSS[card_id(g, "V26")] and g.CROSS[card_id(g, "V25")]
    plain = do(s.clone(), "circulate A")
    assert names(plain) == ["seat+1", "seat+5"]
    do(plain, "seat+1", "blue")                        # seat 1 received it from seat 0 (its right neighbour)
    assert names(plain) == ["seat+1"]                  # on to seat 2; never straight back to seat 0
    c = do(s.clone(), "circulate B")
    assert names(c) == ["seat+1", "seat+2", "seat+3", "seat+4", "seat+5"]
    do(c, "seat+3", "blue")                            # cross virus: across the table to seat 3
    # any fellow player, the giver (seat 0 = seat+3 of seat 3) included: the cross lifts both limits
    assert names(c) == ["seat+1", "seat+2", "seat+3", "seat+4", "seat+5"]
    s2 = build(g, active=0, pills=FULL, up=("S01", None))
    assert names(do(s2, "circulate A")) == ["seat+1", "seat+5"]


def test_cross_virus_back_to_giver_option():
    """cross_to_giver=False: the earlier reading, "never straight back" for cross-marked viruses too."""
    g = G(6, cross_to_giver=False)
    c = do(build(g, active=0, pills=FULL, up=("V26", "V25")), "circulate B", "seat+3", "blue")
    assert names(c) == ["seat+1", "seat+2", "seat+4", "seat+5"]


def _pass_scenario(g):
    """3 players. Seat 0 circulates the cross-marked V25 to seat 1, who holds only red pills and must
    overpay the requirement 1 with a red (3); seat 2 pays 2 and hands the card straight back to seat 1."""
    s = build(g, active=0, pills={0: (3, 2, 2), 1: (0, 0, 2), 2: (3, 2, 2)}, up=("V25", None))
    do(s, "circulate A", "seat+1")
    assert names(s) == ["keep", "red"]                 # no exact way: "must use more valuable pills"
    do(s, "red")
    assert s.stake[1] == [0, 0, 1] and s.req == 2      # "does not increase by the surplus value"
    do(s, "seat+1", "yellow")                          # seat 2 puts up 2
    assert s.req == 3
    return s


def test_pass_without_top_up_when_stake_covers_requirement():
    """"A player who has to ward off a card several times ... only needs to top up his or her existing
    stake by the difference to the required amount": seat 1's red (3) already meets the third
    requirement (3), so it passes the card on without adding a pill (`pass`)."""
    s = _pass_scenario(G(3))
    assert names(s) == ["seat+1", "seat+2"]            # seat 2 may hand the cross virus back to seat 1
    do(s, "seat+2")
    assert s.cur == 1 and s.req == 3 and s.stake[1] == [0, 0, 1]
    assert names(s) == ["keep", "pass"]                # the difference is nothing; it may still keep
    do(s, "pass")
    assert s.req == 4 and s.stake[1] == [0, 0, 1] and s.pills[1] == [0, 0, 1] and s.cur == 1
    assert names(s) == ["seat+1", "seat+2"]            # to seat 2 (its giver) or to seat 0
    do(s, "seat+1")
    assert s.cur == 2 and names(s) == ["blue", "keep", "yellow"]   # seat 2 tops up its 2 by 2 to reach 4
    # without the giver as a target the card reaches seat 1 again only after two more ward-offs
    s2 = _pass_scenario(G(3, cross_to_giver=False))
    assert names(s2) == ["seat+1"]


def test_cannot_pay_must_keep():
    g = G()
    s = build(g, active=0, pills={0: (3, 2, 2), 1: (0, 0, 0)}, up=("V26", None))
    do(s, "circulate A", "seat+1")
    assert names(s) == ["keep"]


def test_legal_ways_exact_first_else_minimal_overpay():
    assert legal_ways(2, 2, 1, 1) == ((2, 0, 0), (0, 1, 0))
    assert legal_ways(2, 1, 0, 3) == ((0, 0, 1),)                   # Example 3: Eva's red
    assert set(legal_ways(4, 0, 1, 2)) == {(0, 0, 2), (0, 1, 1)}    # 6 or 5: no pill left out without falling short
    assert legal_ways(7, 1, 1, 1) == ()


def test_payment_pill_by_pill_reaches_only_legal_ways():
    g = G()
    s = build(g, active=0, pills={0: FULL[0], 1: (2, 0, 1)}, up=("V26", None))
    do(s, "circulate A", "seat+1")
    s.req = 2  # need 2 from (2 blue, 0 yellow, 1 red): exact 2 blues only
    s._mask = None
    assert names(s) == ["blue", "keep"]
    do(s, "blue")
    assert names(s) == ["blue"]                        # the payment is finished before passing
    with pytest.raises(IllegalActionError):
        s.apply_action(g.string_to_action("red"))


# -- 3. risk cards -----------------------------------------------------------------------------
def test_risk_card_needs_illness_four_after_syringes():
    g = G()
    s = build(g, active=0, pills=FULL, displays={0: [("V23", 1)]}, hands={0: ["Recall"]}, up=("V01", "V02"))
    assert s.illness(0) == 3 and "risk Recall" not in names(s)
    s2 = build(g, active=0, pills=FULL, displays={0: ["V16"]}, hands={0: ["Recall"]}, up=("V01", "V02"))
    assert "risk Recall" in names(s2)
    do(s2, "risk Recall")
    assert names(s2) == ["seat+1", "seat+2", "seat+3"]        # never before oneself


def _risk(g, card, target_pills=(3, 2, 2), n=4, extra=None, **kw):
    pills = {q: (3, 2, 2) for q in range(n)}
    pills[1] = target_pills
    disp = {0: ["V16"]}
    disp.update(extra or {})
    s = build(g, active=0, pills=pills, pharmacy=(3, 2, 2), displays=disp, hands={0: [card]},
              up=("V01", "V02"), **kw)
    do(s, f"risk {card}", "seat+1")
    assert s.ph == PH_RISK_OFFER and s.cur == 1
    return s


def test_risk_holder_without_pills_must_keep():
    g = G()
    s = _risk(g, "Recall", target_pills=(0, 0, 0))
    assert names(s) == ["keep"]


def test_issuer_without_value_two_must_keep():
    """"If the risk card returns to the player who put it into circulation, that player (the "issuer")
    pays pills of value 2 to the pharmacy, if he or she wishes to pass the card on." """
    g = G()
    s = _risk(g, "Recall")
    do(s, "blue", "seat+3")
    s.pills[0] = [0, 0, 0]
    s._mask = None
    assert names(s) == ["keep"]
    s.pills[0] = [0, 0, 1]
    s._mask = None
    assert names(s) == ["keep", "red"]                 # overpay with red when value 2 cannot be met exactly
    s.pills[0] = [0, 1, 0]
    s._mask = None
    assert names(s) == ["keep", "yellow"]              # "pills of value 2": one yellow
    s.pills[0] = [1, 0, 0]
    s._mask = None
    assert names(s) == ["keep"]                        # a blue alone does not reach 2


def test_infection_takes_an_unsyringed_virus():
    g = G()
    s = _risk(g, "Infection", extra={2: [("V20", 1), "V11"], 3: []})
    do(s, "keep")
    assert s.ph == PH_INFECTION and names(s) == ["card V11", "card V16"]
    do(s, "card V16")
    assert s.illness(1) == 4 and s.illness(0) == 0


def test_diagnosis_right_wrong_and_lost_in_intensive_care():
    g = G()
    s = _risk(g, "Diagnosis")
    do(s, "keep")
    assert names(s) == ["seat+1", "seat+2", "seat+3"]   # "may not nominate oneself"
    do(s, "seat+2")
    assert s.diag[1] == 3
    # seat 1: pills 3 blue + 2 yellow + 2 red = 13 points, no virus; the card: right +12, wrong -4
    assert s.round_scores(3)[1] == 13 + 12
    assert s.round_scores(2)[1] == 13 - 4              # "For this MISDIAGNOSIS she receives 4 minus points"
    assert s.round_scores(-1)[1] == 13 - 4             # nobody in intensive care: the diagnosis was wrong
    assert s.round_scores(1)[1] == -13                 # "the minus points ... are lost"


def test_nurse_bonus_penalty_and_lost_in_intensive_care():
    g = G()
    s = _risk(g, "Nurse")
    do(s, "keep")
    assert names(s) == ["seat+1", "seat+2", "seat+3"]   # "may not nurse herself"
    do(s, "seat+1")
    assert s.nurse[1] == 2
    # seat 1: pills 3 blue + 2 yellow + 2 red = 13 points, no virus; the card: +2, or -4 if the patient
    # lands in intensive care; "If the NURSE lands in the INTENSIVE CARE UNIT, her bonus points are lost"
    assert s.round_scores(-1)[1] == 13 + 2 and s.round_scores(0)[1] == 13 + 2
    assert s.round_scores(2)[1] == 13 - 4 and s.round_scores(1)[1] == -13


def test_mr_doctor_lies_in_front_and_costs_no_pill():
    """"MR. DOCTOR (HERR DOKTOR): Whoever turns over this card places it in front of himself or herself.
    The card remains in effect until a player lands in the INTENSIVE CARE UNIT." The seed gives the
    card no pill effect: by default handing him a card costs nothing."""
    g = G()
    assert g.config["mr_doctor"] == "off"
    s = _risk(g, "Mr. Doctor")
    do(s, "keep")
    assert s.doctor == 1 and s.cur == 1 and s.front[1] == [risk_id(g, "Mr. Doctor", ())]
    assert s.view(3)["mr_doctor"] == 1                  # lies open in front of him
    s.active = s.cur = 0
    p0, p1 = list(s.pills[0]), list(s.pills[1])
    do(s, "circulate A", "seat+1")                      # a circulating card handed to him
    assert s.cur == 1 and s.ph == PH_WARD and s.pills[0] == p0 and s.pills[1] == p1
    s2 = build(g, active=0, pills=FULL, displays={0: ["V16"]}, hands={0: ["Recall"]}, up=("V01", "V02"))
    s2.doctor = 2
    do(s2, "risk Recall", "seat+2")                     # a risk card placed before him
    assert s2.cur == 2 and s2.ph == PH_RISK_OFFER and s2.pills[0] == [3, 2, 2] and s2.pills[2] == [3, 2, 2]
    assert PH_FEE not in {s.ph, s2.ph}


def test_mr_doctor_fee_on_pass_option():
    """mr_doctor="fee_on_pass": a stand-in for the table talk ("address him as Sir/Madam or pay a pill"):
    whoever hands Mr. Doctor a card first pays him one pill of their choice."""
    g = G(4, mr_doctor="fee_on_pass")
    s = _risk(g, "Mr. Doctor")
    do(s, "keep")
    assert s.doctor == 1 and s.cur == 1 and s.front[1] == [risk_id(g, "Mr. Doctor", ())]
    # seat 0 hands a circulating card to Mr. Doctor: first pays him a pill of its choice
    s.active = s.cur = 0
    before0, before1 = list(s.pills[0]), list(s.pills[1])
    do(s, "circulate A", "seat+1")
    assert s.ph == PH_FEE and s.cur == 0 and names(s) == ["blue", "red", "yellow"]
    do(s, "red")
    assert s.pills[0] == before0[:2] + [before0[2] - 1] and s.pills[1] == before1[:2] + [before1[2] + 1]
    assert s.cur == 1 and s.ph == PH_WARD               # then Mr. Doctor decides on the card
    # a giver without pills hands the card over for free
    s2 = _risk(g, "Mr. Doctor")
    do(s2, "keep")
    s2.active = s2.cur = 0
    s2.box = [s2.box[c] + s2.pills[0][c] for c in range(3)]
    s2.pills[0] = [0, 0, 0]
    do(s2, "circulate A", "seat+1")
    assert s2.cur == 1 and s2.ph == PH_WARD


def test_mr_doctor_removed_at_intensive_care():
    """"During scoring there is therefore no MR. DOCTOR any more." """
    g = G()
    s = build(g, active=0, pills=FULL, displays={0: [("V16", 1), ("V11", 1)]}, up=("S01", None))
    s.doctor = 2
    do(s, "take A")
    assert s.doctor == -1
    # in the last round too, where no new round is dealt: the finished game shows no Mr. Doctor
    s = build(g, active=0, pills=FULL, displays={0: [("V16", 1), ("V11", 1)]}, up=("S01", None),
              history=[[0] * 4, [0] * 4])
    s.doctor = 2
    do(s, "take A")
    assert s.is_terminal() and s.doctor == -1 and s.view(1)["mr_doctor"] == -1


def test_injection_is_a_syringe_and_can_be_the_third():
    g = G()
    s = _risk(g, "Injection", extra={1: ["V23"]})
    do(s, "keep")
    assert s.ph == PH_SYRINGE and names(s) == ["card V23"]
    do(s, "card V23")
    assert s.illness(1) == 3 and len(s.syr[1]) == 1
    s2 = _risk(g, "Injection", extra={1: [("V23", 2)]})
    do(s2, "keep")
    assert s2.history[-1][1] == -13


def test_injection_alone_variant():
    g = G(4, injection_on_virus=False)
    s = _risk(g, "Injection", extra={1: ["V23"]})
    do(s, "keep")
    assert s.ph == PH_TURN and s.illness(1) == 5 and len(s.syr[1]) == 1 and s.on[s.syr[1][0]] == -1


def test_medicare_patient_returns_a_pill_of_choice():
    g = G()
    s = _risk(g, "Medicare Patient", target_pills=(0, 1, 1))
    do(s, "keep")
    assert s.ph == PH_RETURN_PILL and s.cur == 1 and names(s) == ["red", "yellow"]
    do(s, "red")
    assert s.pills[1] == [0, 1, 0] and s.pharm == [3, 2, 3] and s.cur == 1 and s.ph == PH_TURN
    s2 = _risk(g, "Medicare Patient", target_pills=(0, 0, 0))   # "if you have one"
    do(s2, "keep")
    assert s2.ph == PH_TURN and s2.cur == 1


def test_pharmaceutical_trial_gives_a_pill():
    g = G()
    s = _risk(g, "Pharmaceutical Trial")
    do(s, "keep")
    assert s.ph == PH_GIVE_PILL
    do(s, "yellow", "seat+2")
    assert s.pills[1] == [3, 1, 2] and s.pills[3] == [3, 3, 2]


def test_plague_2_before_yourself_plague_3_before_a_player_of_choice():
    g = G()
    s = _risk(g, "Plague 2")
    do(s, "keep")
    assert s.illness(1) == 2
    s = _risk(g, "Plague 3", extra={3: ["V26", "V20"]})
    do(s, "keep")
    assert names(s) == ["seat+1", "seat+2", "seat+3"]
    do(s, "seat+2")                                    # seat 3: 6 + 4 + 3 = 13 > 12
    assert s.history[-1][3] == -13


def test_recall_every_other_player_returns_a_pill():
    g = G()
    s = _risk(g, "Recall")
    s.pills[3] = [0, 0, 0]
    do(s, "keep")
    order = []
    while s.ph == PH_RETURN_PILL:
        order.append(s.cur)
        do(s, "blue")
    assert order == [2, 0]                             # seat 3 has none; the keeper returns nothing
    assert s.pharm == [5, 2, 2]


def test_use_by_date_neighbours_return_a_pill():
    g = G()
    s = _risk(g, "Use-by Date")
    do(s, "keep")
    order = []
    while s.ph == PH_RETURN_PILL:
        order.append(s.cur)
        do(s, "yellow")
    assert order == [2, 0]


def test_prescription_takes_pills_shown_as_far_as_in_stock():
    g = G()
    s = _risk(g, "Prescription")
    s.pharm = [1, 0, 2]
    s.box = [s.box[0] + 2, s.box[1] + 2, s.box[2]]
    do(s, "keep")
    assert g.cat.risk_pills[g.RTYPE[risk_id(g, "Prescription", ())]] == (0, 1)
    assert s.pills[1] == [4, 2, 2] and s.pharm == [0, 0, 2]


def test_guinea_pig_takes_shown_pills_from_players_of_choice():
    g = G()
    s = _risk(g, "Guinea Pig")
    for q in (0, 2, 3):
        s.pills[q] = [0, 0, 0]
    s.pills[2] = [1, 0, 1]
    do(s, "keep")
    assert s.ph == PH_GUINEA and names(s) == ["seat+1"]    # blue: only seat 2 has one
    do(s, "seat+1")
    assert s.ph == PH_GUINEA and names(s) == ["seat+1"]    # yellow: nobody has one -> forgone; red: seat 2
    do(s, "seat+1")
    assert s.pills[1] == [4, 2, 3] and s.pills[2] == [0, 0, 0] and s.ph == PH_TURN


# -- end of round, scoring, game -------------------------------------------------------------------
def test_more_than_twelve_illness_ends_round_next_starts_with_slip_holder():
    g = G()
    s = build(g, active=2, pills=FULL, displays={2: ["V26", "V24"]}, up=("V11", None))   # 11 + 3 = 14
    do(s, "take A")
    assert s.history[-1][2] == -13 and s.round == 1 and s.cur == 2 and s.active == 2
    assert s.pills == [[3, 2, 2]] * 4 and all(not v for v in s.vir)   # pills dealt anew


def test_twelve_illness_is_not_intensive_care():
    g = G()
    s = build(g, active=2, pills=FULL, displays={2: ["V26", "V24"]}, up=("V04", None))   # 12
    do(s, "take A")
    assert s.round == 0 and s.illness(2) == 12


def test_three_rounds_then_best_total_wins():
    g = G()
    s = build(g, active=0, pills=FULL, displays={0: ["V26", "V24"]}, up=("V11", None),
              history=[[4, 2, 5, 8], [6, 3, 0, 12]])             # totals 10, 5, 5, 20 after two rounds
    do(s, "take A")
    assert s.is_terminal() and not s.is_truncated() and s.current_player() == -1
    assert list(s.scores()) == [10 - 13, 5 + 13, 5 + 13, 20 + 13]
    assert list(s.returns()) == [-1, -1, -1, 1]
    assert g.state_from_dict(s.to_dict()).to_dict() == s.to_dict()   # a finished game saves and loads


def test_returns_are_zero_and_scores_the_totals_so_far_until_the_game_is_over():
    """"The player who, after three rounds, has the best total score" wins: after round 2 of 3 nobody has
    won yet (returns 0 to all), while scores() are the rulebook's points summed over the rounds so far."""
    g = G()
    s = build(g, active=0, pills=FULL, displays={0: ["V26", "V24"]}, up=("V11", None), history=[[4, 2, 5, 8]])
    do(s, "take A")                                   # 6 + 5 + 3 = 14 > 12: seat 0 in intensive care
    assert s.round == 2 and not s.is_terminal()
    assert list(s.returns()) == [0, 0, 0, 0]
    # -13 for intensive care; the others hold 3 blue, 2 yellow, 2 red (3 + 4 + 6 = 13) and no virus
    assert s.scores().dtype == np.float64 and list(s.scores()) == [4 - 13, 2 + 13, 5 + 13, 8 + 13]


def test_tied_winners_share():
    g = G(3)
    s = build(g, active=0, pills={q: (3, 2, 2) for q in range(3)}, displays={0: ["V26", "V24"]},
              up=("V11", None), history=[[0, 3, 7], [0, 4, 0]])
    do(s, "take A")
    assert list(s.returns()) == [-1, 0.5, 0.5]


def test_round_ends_when_both_stacks_are_empty():
    g = G()
    s = build(g, active=0, pills=FULL, up=("V01", None))
    s.stacks = [[card_id(g, "V01")], []]
    do(s, "take A")
    assert s.round == 1 and s.history[-1] == [13 - 1, 13, 13, 13] and s.active == 1
    # one stack used up, the other not: the round goes on, with the other stack only
    s = build(g, active=0, pills=FULL, up=("V01", None))
    s.stacks = [[card_id(g, "V01")], [card_id(g, "V02"), card_id(g, "V03")]]
    do(s, "take A")
    assert s.round == 0 and s.cur == 1 and names(s) == ["circulate B", "take B"]


def test_max_turns_truncates_with_zero_returns():
    g = G(4, max_turns=3)
    s = g.new_initial_state(0)
    while not s.is_terminal():
        s.apply_action(s.legal_actions()[0])
    assert s.is_truncated() and s.turns == 3 and list(s.returns()) == [0, 0, 0, 0]
    # a truncated game is over like any other: nobody to decide, and it saves and loads as it is
    assert s.current_player() == -1 and s.to_dict()["cur"] == -1 and s.to_dict()["keeper"] == -1
    t = g.state_from_dict(s.to_dict())
    assert t.to_dict() == s.to_dict() and t.is_truncated()


def test_circulating_virus_keeper_gets_no_pharmacy_pills():
    g = G()
    s = build(g, active=0, pills=FULL, pharmacy=(3, 2, 2), up=("V25", None))
    do(s, "circulate A", "seat+1", "keep")
    assert s.pills[1] == [3, 2, 2] and s.pharm == [3, 2, 2] and s.illness(1) == 6


def test_face_down_risk_card_known_to_issuer_only_and_resampled_for_others():
    g = G()
    s = _risk(g, "Plague 2", extra=None)
    s.hand[2] = [risk_id(g, "Recall", ())]
    s.rbox.remove(s.hand[2][0])
    assert s.view(0)["risk_card"]["card"] == "Plague 2" and s.view(1)["risk_card"]["card"] is None
    kinds = {g.RTYPE[s.determinize(1, np.random.default_rng(k)).rc] for k in range(30)}
    assert len(kinds) > 1                                  # the holder cannot tell which card it is
    assert {s.determinize(0, np.random.default_rng(k)).rc for k in range(10)} == {s.rc}


def test_mr_doctor_fee_also_when_handing_a_risk_card():
    g = G(4, mr_doctor="fee_on_pass")
    s = build(g, active=0, pills=FULL, displays={0: ["V16"]}, hands={0: ["Recall"]}, up=("V01", "V02"))
    s.doctor = 2
    do(s, "risk Recall", "seat+2", "blue")
    assert s.pills[0] == [2, 2, 2] and s.pills[2] == [4, 2, 2]
    assert s.cur == 2 and s.ph == PH_RISK_OFFER


def test_first_player_config():
    assert G(4, first_player=2).new_initial_state(0).current_player() == 2
    seats = {G(4, first_player=-1).new_initial_state(k).current_player() for k in range(20)}
    assert len(seats) > 1


def test_legal_ways_match_brute_force():
    from itertools import product
    for need in range(0, 13):
        for b, y, r in product(range(4), range(3), range(3)):
            ways = [(nb, ny, nr) for nb in range(b + 1) for ny in range(y + 1) for nr in range(r + 1)]
            exact = [w for w in ways if w[0] + 2 * w[1] + 3 * w[2] == max(need, 0)]
            if need <= 0:
                expect = [(0, 0, 0)]
            elif exact:
                expect = exact
            else:   # reach the value, and fall short when any one pill is left out
                expect = [w for w in ways if (tot := w[0] + 2 * w[1] + 3 * w[2]) >= need
                          and all(tot - v < need for c, v in ((0, 1), (1, 2), (2, 3)) if w[c])]
            assert sorted(legal_ways(need, b, y, r)) == sorted(expect), (need, b, y, r)
