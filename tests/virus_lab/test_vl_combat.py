"""Virus (virus_lab_v0): Combat: rolls, Successes, Dodges and kills, counter-attacks, Shields, fleeing, attacking
together, Bosses; each scenario quotes the rulebook ("Combat", "Creatures counter-attack", "Multi-player combat").
"""
from __future__ import annotations

import numpy as np
import pytest

from vl_helpers import (BOSS, DESU, DOG, TRICKER, VERDUKO, ZOMBIE, at, creatures, decide, empty_state, find_card, four,
                        keep_wounds, patched_data, put)
from virus_envs.virus_lab.actions import A
from virus_envs.virus_lab.components import TK_ADREN, TK_BOOK, TK_FOUR, TK_HEART, TK_SHIELD, TR_GAS, TR_LASERS
from virus_envs.virus_lab.game import PH_ACT, PH_RESULT, PH_ROLL, PH_SHIELD, PH_SPEND, PH_WOUND, VirusLabGame


def test_combat_successes_advantage_example():
    """Rulebook: after spending the Advantage, "2 positive bullet cubes x 2 positive action cubes = 4 Successes"."""
    s = empty_state(1, auto_display_choices=True)
    c = put(s, 1, 5, four(s.g))
    at(s, 0, c)
    creatures(s, c, dog=3)
    s.apply_action(A.ATTACK)
    assert s.ph == PH_ROLL
    s.apply_action(A.ADD_CUBE)
    s.apply_action(A.ADD_BULLET)
    s.apply_action(A.ADD_BULLET)
    s.apply_action(A.ROLL)
    assert s.ph == PH_RESULT
    s.rollres = [1, 1, 2, 0] + [0] * 12           # one action cube landed negative
    s._mask = None
    s.apply_action(A.ADV_CUBE)
    assert s.rollres[:4] == [2, 0, 2, 0]
    assert sum(1 for _, up in s.disp[0] if not up) == 1
    s.apply_action(A.ACCEPT)
    assert s.ph == PH_SPEND and s.succ == 4
    # "He could: 1) kill 1 Creature and Dodge 1 Creature leaving just 1 Creature to attack him"
    s.apply_action(A.KILL + DOG)
    s.apply_action(A.DODGE + DOG)
    assert s.cre[c * 9 + DOG] == 2 and len(s.wounds[0]) == 1 and s.wounds[0][0][1] is True
    assert s.ph == PH_WOUND, "the Wound card may be redrawn with an Advantage"
    s.apply_action(A.KEEP)
    assert s.ph == PH_ACT


def test_book_and_heart_multipliers_and_token_returns():
    s = empty_state(1)
    c = put(s, 1, 5, four(s.g))
    at(s, 0, c)
    creatures(s, c, zombie=1)
    for t in (TK_BOOK, TK_HEART, TK_SHIELD):
        s.tok[0][t] += 1
        s.tok_pool[t] -= 1
    s.roll = [2, 2, 0, 1, 0, 1, 1, 0]
    s.stock[0] -= 1
    s.bullets[0] -= 2
    for t in (TK_BOOK, TK_HEART, TK_SHIELD):
        s.tok[0][t] -= 1
    s.stock[0] -= 1          # the roll holds 2 cubes
    s.rollres = [2, 0, 2, 0, 0, 1, 0, 1, 1, 0] + [0] * 6
    decide(s, PH_RESULT, 0)
    s.apply_action(A.ACCEPT)
    # Books double the positive bullets, Hearts the positive action cubes: (2 x 2) x (2 x 2)
    assert s.succ == 16
    # a positive Shield: the tokens rolled come back to the stock, except that Shield
    assert s.tok[0][TK_BOOK] == 1 and s.tok[0][TK_HEART] == 1 and s.tok[0][TK_SHIELD] == 0


def test_dodge_and_kill_costs():
    """Tricker: +1 Success to Dodge; Zombie: 2 HP (6 Successes to kill); Leaders dodge 2."""
    s = empty_state(1)
    c = put(s, 1, 5, four(s.g))
    at(s, 0, c)
    creatures(s, c, tricker=1, zombie=1, verduko=1)
    decide(s, PH_SPEND, 0)
    s.succ = 5
    m = s.legal_action_mask()
    assert m[A.DODGE + TRICKER] and m[A.DODGE + VERDUKO] and not m[A.KILL + ZOMBIE]
    assert m[A.KILL + TRICKER]
    s.apply_action(A.DODGE + TRICKER)
    assert s.succ == 3 and s.dodged[0][TRICKER] == 1


def test_counter_attack_damage_and_shields():
    """Blooders and Leaders 2 Damage points, others 1; Shields negate Damage points."""
    s = empty_state(1)
    c = put(s, 1, 5, four(s.g))
    at(s, 0, c)
    creatures(s, c, blooder=1, dog=1, mutant=1)
    s.tok[0][TK_SHIELD] = 2
    s.tok_pool[TK_SHIELD] -= 2
    decide(s, PH_SPEND, 0)
    s.succ = 0
    s.apply_action(A.SPEND_DONE)
    assert s.ph == PH_SHIELD and s.dmg == [0, 5, 0, 1], "5 Damage points, no penalty, face-down wounds"
    m = s.legal_action_mask()
    assert m[A.SHIELD + 2] and not m[A.SHIELD + 3]
    s.apply_action(A.SHIELD + 2)
    keep_wounds(s)
    assert len(s.wounds[0]) == 3 and s.tok[0][TK_SHIELD] == 0


def test_at_most_sixteen_shields_against_one_damage(tmp_path):
    """Assumption 53: with a component file of 20 Shield tokens, a Hero holding all 20 against 18 Damage points may
    spend 0 to 16 of them (the action table's choices), and nothing else is offered. (Seed-9 mutation sample:
    `_compute_mask` 100, the cap dropped, survived: the box has 16 Shield tokens, so no test reached it; without the
    cap the mask would set ids past `shield 16`, other actions.)"""
    from virus_envs.virus_lab.actions import MAX_SHIELD
    s = empty_state(1, data_dir=patched_data(tmp_path, "supply.yaml", "  shield: 16\n", "  shield: 20\n"))
    s.tok[0][TK_SHIELD] = s.tok_pool[TK_SHIELD]
    s.tok_pool[TK_SHIELD] = 0
    assert s.tok[0][TK_SHIELD] == 20 and MAX_SHIELD == 16
    s.dmg = [0, 18, 0, 1]
    s.ph, s.cur = PH_SHIELD, 0
    s._mask = None
    m = s.legal_action_mask()
    assert sorted(np.flatnonzero(m)) == [A.SHIELD + k for k in range(17)]


def _hero_among_two_dogs_with_two_shields():
    s = empty_state(1)
    c = put(s, 1, 5, four(s.g))
    at(s, 0, c)
    creatures(s, c, dog=2)
    s.tok[0][TK_SHIELD] = 2
    s.tok_pool[TK_SHIELD] -= 2
    return s, c


def test_flee_penalty_and_explosive():
    """Fleeing: all unDodged Creatures attack, +1 Damage point the Shields cannot stop; a positive Explosive saves it."""
    s, c = _hero_among_two_dogs_with_two_shields()
    s._mask = None
    s.apply_action(A.MOVE + 0)
    assert s.ph == PH_SHIELD and s.dmg == [0, 2, 1, 1], "2 Damage points, 1 penalty point, face-down wounds"
    s.apply_action(A.SHIELD + 2)
    assert len(s.wounds[0]) == 1, "the penalty point stays"
    s2 = empty_state(1)
    c = put(s2, 1, 5, four(s2.g))
    at(s2, 0, c)
    creatures(s2, c, dog=2)
    s2.flee_free[0] = True
    s2.dodged[0][DOG] = 2
    s2._mask = None
    s2.apply_action(A.MOVE + 0)
    assert s2.wounds[0] == []



def test_fleeing_dodged_creatures_takes_the_penalty_with_no_shield_asked():
    """ "If he does so, all unDodged Creatures in the combat will perform an immediate attack causing Damage points. In
    addition, the Hero takes 1 Damage point as a penalty. This penalty cannot be avoided by using Shield tokens."
    Both Dogs dodged ("Dodge all Creatures ... this can be useful to prepare to flee"): no attack, so nothing a Shield
    could negate; the Hero keeps his 2 Shields, is asked nothing and takes the 1 penalty wound."""
    s, c = _hero_among_two_dogs_with_two_shields()
    s.dodged[0][DOG] = 2
    s._mask = None
    s.apply_action(A.MOVE + 0)
    assert s.ph != PH_SHIELD, "no Shield decision for the penalty alone"
    assert len(s.wounds[0]) == 1 and s.tok[0][TK_SHIELD] == 2

def test_counter_attack_at_end_of_real_time_without_a_roll():
    """ "at least 1 Creature counter-attack must be done for each turn also if the player doesn't attack" """
    s = empty_state(1)
    c = put(s, 1, 5, four(s.g))
    at(s, 0, c)
    creatures(s, c, dog=1, blooder=1)
    plain = [w for w in s.wound_deck if not s.g.comp.wound_heart[w]]
    s.wound_deck = [w for w in s.wound_deck if w not in plain[:4]] + plain[:4]   # no deep wound
    s.apply_action(A.PASS)
    assert s.ph == PH_WOUND
    keep_wounds(s)
    assert len(s.wounds[0]) == 3 and all(w[1] and not w[2] for w in s.wounds[0]), "1 + 2 Damage points, face down"


def test_boss_stats_from_card():
    g = VirusLabGame(num_players=1, difficulty=2)
    s = g.new_initial_state(seed=0)
    b = s.bosses[0]
    at(s, 0, b[0])
    s._enter(0, b[0])
    decide(s, PH_SPEND, 0)
    s.succ = 3 * g.comp.boss_hp[b[2]]
    assert s.legal_action_mask()[A.KILL + BOSS]
    s.succ -= 1
    s._mask = None
    assert not s.legal_action_mask()[A.KILL + BOSS]
    assert s.view(0)["bosses"][0]["hp"] == g.comp.boss_hp[b[2]], "revealed once a Hero meets it"


def test_major_advantage_turns_three_cubes_positive():
    s = empty_state(1)
    c = put(s, 1, 5, four(s.g))
    at(s, 0, c)
    creatures(s, c, zombie=1)
    s.roll = [3, 3, 0, 0, 0, 0, 0, 0]
    s.stock[0] -= 3
    s.bullets[0] -= 3
    s.rollres = [1, 2, 1, 2] + [0] * 12
    decide(s, PH_RESULT, 0)
    s.apply_action(A.MAJOR_CUBES)
    assert s.rollres[0] + s.rollres[2] == 5 and s.rollres[0] * s.rollres[2] == 6


def test_attack_together_worked_example_4_plus_6_minus_1():
    """ "1 Boss (4 HP, 2 dmg) and 2 Zombies ... One player rolls 4 Successes and the second player rolls 6
    Successes, resulting in 9 Successes (4+6-1=9) ... deal 2 Damage points to one Zombie (6 Successes), ... Dodge
    the Boss (2 Successes) and the other Zombie (1 Success). So there is not a counterattack" """
    s = empty_state(2)
    g = s.g
    c = put(s, 1, 5, four(g))
    at(s, 0, c)
    at(s, 1, c)
    creatures(s, c, zombie=2)
    b01 = g.comp.boss_name.index("Overseer")
    assert (g.comp.boss_hp[b01], g.comp.boss_damage[b01], g.comp.boss_dodge[b01]) == (4, 2, 2)
    s.pool[DESU] -= 1
    s.bosses = [[c, DESU, b01]]
    s.boss_deck.remove(b01)
    s.cre[c * 9 + BOSS] = 1
    s._mask = None
    s.apply_action(A.TOGETHER)
    assert s.team == [0, 1] and s.ph == PH_ROLL and s.cur == 0
    s.apply_action(A.ROLL)
    s.rollres = [2, 0, 2, 0] + [0] * 12          # 2 x 2 = 4 Successes
    s._mask = None
    s.apply_action(A.ACCEPT)
    assert s.ph == PH_ROLL and s.cur == 1, "the partner rolls next"
    s.apply_action(A.ADD_CUBE)
    s.apply_action(A.ADD_CUBE)
    s.apply_action(A.ROLL)
    s.rollres = [3, 0, 2, 0] + [0] * 12          # 3 x 2 = 6 Successes
    s._mask = None
    s.apply_action(A.ACCEPT)
    assert s.ph == PH_SPEND and s.cur == 0 and s.succ == 9
    s.apply_action(A.KILL + ZOMBIE)
    s.apply_action(A.DODGE + BOSS)
    s.apply_action(A.DODGE + ZOMBIE)
    assert s.wounds == [[], []] and s.countered == [[c], [c]], "the group counter-attacked both (0 Damage)"
    assert s.cre[c * 9 + ZOMBIE] == 1 and s.ph == PH_ACT and s.cur == 1


def test_attack_together_damage_divided_rounded_up():
    s = empty_state(2)
    c = put(s, 1, 5, four(s.g))
    at(s, 0, c)
    at(s, 1, c)
    creatures(s, c, blooder=1, dog=1)          # 3 Damage points
    s.apply_action(A.TOGETHER)
    for _ in range(2):
        s.apply_action(A.ROLL)
        s.rollres = [0, 1, 0, 0] + [0] * 12
        s._mask = None
        s.apply_action(A.ACCEPT)
    keep_wounds(s)
    assert [len(w) for w in s.wounds] == [2, 2], "3 / 2 rounded up"


def test_four_leaf_reroll_and_adrenaline_recovery():
    s = empty_state(1)
    c = put(s, 1, 5, four(s.g))
    at(s, 0, c)
    creatures(s, c, zombie=1)
    for t in (TK_FOUR, TK_ADREN):
        s.tok[0][t] = 1
        s.tok_pool[t] -= 1
    s._mask = None
    s.apply_action(A.ATTACK)
    s.apply_action(A.ADD_TOKEN + TK_FOUR)
    s.apply_action(A.ADD_TOKEN + TK_ADREN)
    s.apply_action(A.ADD_BULLET)
    s.apply_action(A.ROLL)
    s.rollres = [0, 1, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0]    # positive four-leaf
    s._mask = None
    assert s.legal_action_mask()[A.REROLL]
    s.apply_action(A.REROLL)
    assert s.roll[2 + TK_FOUR] == 0 and s.tok_pool[TK_FOUR] == 12
    s.rollres = [1, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]    # positive adrenaline
    s._mask = None
    stock = s.stock[0]
    s.apply_action(A.ACCEPT)
    assert s.stock[0] == stock + 1 and s.bullets[0] == 8, "a positive Adrenaline token recovers the cubes"
    assert s.tok[0][TK_ADREN] == 0, "tokens go back to the game reserve without a positive Shield"


def test_roll_probability_parameter():
    g = VirusLabGame(num_players=1, p_positive=0.3)
    s = g.new_initial_state(seed=0)
    s.roll = [2000, 2000, 0, 0, 0, 0, 0, 0]
    s._throw()
    assert abs(s.rollres[0] / 2000 - 0.3) < 0.05 and abs(s.rollres[2] / 2000 - 0.3) < 0.05


def test_every_token_kind_in_a_roll_lands_positive_with_p_positive():
    """"As all tokens, they can also spent directly in a combat roll to improve results": a token added to the roll
    is rolled like a cube or a bullet, each landing positive with `p_positive`. 2,000 tokens of each of the six
    kinds at p_positive 0.3: each kind's positive share is 0.3 within 5 points (a binomial sd of about 1), and
    positives plus negatives are the tokens rolled (the seed-5 mutation sample's `_throw` 25, every token
    negative, survived the probability test that rolled only cubes and bullets)."""
    g = VirusLabGame(num_players=1, p_positive=0.3)
    s = g.new_initial_state(seed=0)
    s.roll = [0, 0] + [2000] * 6
    s._throw()
    for t in range(6):
        pos, neg = s.rollres[4 + t], s.rollres[10 + t]
        assert pos + neg == 2000, t
        assert abs(pos / 2000 - 0.3) < 0.05, (t, pos)




# ------------------------------------------------------------------------ issue 12: counter-attacks, Adrenaline, Shields
def _plain_wound_deck(s, k=10):
    """The next k Wound cards without the heart on the back: no deep wound in the scenario."""
    plain = [w for w in s.wound_deck if not s.g.comp.wound_heart[w]][:k]
    s.wound_deck = [w for w in s.wound_deck if w not in plain] + plain


@pytest.mark.parametrize("rule, wounds", [("per_group", 1 + 2 + 4), ("per_turn", 1 + 2)])
def test_counter_attack_owed_by_each_group_stood_against(rule, wounds):
    """ "After the player attack, the creatures make a counter-attack. Note: at least 1 Creature counter-attack must
    be done for each turn also if the player doesn't attack. In this case the counter-attack is done as soon the
    countdown expires." The Hero fights a Dog in room A (a roll of 0 Successes: the Dog counter-attacks, 1 wound),
    flees to room B (the Dog attacks + 1 penalty point: 2 wounds), where 2 Blooders stand, and passes: B's group
    has not counter-attacked him this turn, so it does when the phase ends (2 x 2 = 4 Damage points). The old
    reading, one counter-attack per Hero and turn (`counter_attack="per_turn"`), spares him B's attack."""
    s = empty_state(1, difficulty=1, counter_attack=rule, auto_display_choices=True)
    a, b = put(s, 1, 5, four(s.g)), put(s, 2, 5, four(s.g, k=1))
    at(s, 0, a)
    creatures(s, a, dog=1)
    creatures(s, b, blooder=2)
    _plain_wound_deck(s)
    s.apply_action(A.ATTACK)
    s.apply_action(A.ROLL)
    s.rollres = [0, 1] + [0] * 14                     # the one Action cube landed negative: 0 Successes
    s._mask = None
    s.apply_action(A.ACCEPT)
    keep_wounds(s)
    assert len(s.wounds[0]) == 1 and s.countered[0] == [a]
    assert s.view(0)["heroes"][0]["countered"], "A's group has counter-attacked him"
    s.apply_action(A.MOVE + 2)                        # flee to B
    keep_wounds(s)
    assert len(s.wounds[0]) == 3 and s.pos[0] == b
    assert s.view(0)["heroes"][0]["countered"] == (rule == "per_turn"), "B's group owes its counter-attack"
    assert s.legal_action_mask()[A.PASS]
    s.apply_action(A.PASS)
    keep_wounds(s)
    assert len(s.wounds[0]) == wounds and s.alive[0]


def test_adrenaline_has_no_limit_per_turn():
    """ "USE AN ADRENALINE TOKEN. If used during Real Time Phase allows the Hero to immediately gains 7 Action cubes
    ... At the end of countdown, the player must discard all Action cubes from his stock and return them to his
    reserve and draw 1 Wound card and place it face-up": nothing limits the tokens a turn, each brings its wound.
    The Hero starts with 8 cubes in stock and 8 in the reserve: +7, then the last 1."""
    s = empty_state(1)
    s.tok[0][TK_ADREN] = 2
    s.tok_pool[TK_ADREN] -= 2
    _plain_wound_deck(s)
    s._mask = None
    s.apply_action(A.ADREN)
    assert (s.stock[0], s.reserve[0]) == (15, 1)
    assert s.legal_action_mask()[A.ADREN], "a second token may be used in the same phase"
    s.apply_action(A.ADREN)
    assert (s.stock[0], s.reserve[0], s.tok[0][TK_ADREN]) == (16, 0, 0)
    assert s.view(0)["heroes"][0]["adrenaline_used"] == 2
    s.apply_action(A.PASS)
    keep_wounds(s)
    assert (s.stock[0], s.reserve[0]) == (0, 16) and [w[1] for w in s.wounds[0]] == [False, False], \
        "stock discarded to the reserve, 2 face-up wounds"


def _shields(s, p, k):
    s.tok[p][TK_SHIELD] += k
    s.tok_pool[TK_SHIELD] -= k
    s._mask = None


@pytest.mark.parametrize("rule", ["damage_points", "creature_attacks"])
def test_shields_negate_laser_damage_not_gas_wounds(rule):
    """ "Shield tokens can prevent damage. For each Shield token spent ... a player may negate 1 Damage point";
    Lasers: "any Creature/Hero who enters the room immediately suffers 1 Damage point. Affected players draw a
    face-up Wound card"; Gas: "any Hero who enters the room immediately draws 1 face-down Wound card" (a Wound card,
    not a Damage point). `shields="creature_attacks"` is the old reading: Shields against Creatures only."""
    s = empty_state(1, shields=rule)
    g = s.g
    las = put(s, 1, 5, find_card(g, doors=15, trap=TR_LASERS), trap=True)
    gas = put(s, 1, 4, find_card(g, doors=15, trap=TR_GAS), trap=True)
    _shields(s, 0, 2)
    s.apply_action(A.MOVE + 2)                        # into the Lasers
    if rule == "damage_points":
        assert s.ph == PH_SHIELD and s.dmg == [0, 1, 0, 0], "1 Damage point, face up"
        assert s.legal_action_mask()[A.SHIELD + 1]
        s.apply_action(A.SHIELD + 1)
        assert s.wounds[0] == [] and s.tok[0][TK_SHIELD] == 1
    else:
        keep_wounds(s)
        assert len(s.wounds[0]) == 1 and s.wounds[0][0][1] is False and s.tok[0][TK_SHIELD] == 2
    n = len(s.wounds[0])
    s.apply_action(A.MOVE + 3)                        # into the Gas: no Shield decision
    assert s.ph in (PH_WOUND, PH_ACT) and s.pos[0] == gas
    keep_wounds(s)
    assert len(s.wounds[0]) == n + 1 and s.wounds[0][-1][1] is True
    del las


@pytest.mark.parametrize("rule", ["damage_points", "creature_attacks"])
def test_shields_negate_explosion_damage(rule):
    """ "The explosion deals X Damage points ... If a Hero takes Damage points, the player draws 1 Wound card for
    each damage point he suffers and places it face up"; Shields negate Damage points. Seat 0 leaves 3 armed
    Explosives with seat 1 in the room; seat 1 spends 2 Shields: 1 face-up wound."""
    s = empty_state(2, shields=rule, auto_display_choices=True)
    a = put(s, 1, 5, four(s.g))
    at(s, 0, a)
    at(s, 1, a)
    s.expl[a], s.expl_by[a] = 3, 0
    s.tok_pool[5] -= 3
    _shields(s, 1, 2)
    s.apply_action(A.MOVE + 0)
    if rule == "damage_points":
        assert s.ph == PH_SHIELD and s.cur == 1 and s.dmg == [1, 3, 0, 0]
        s.apply_action(A.SHIELD + 2)
    keep_wounds(s)
    want = 1 if rule == "damage_points" else 3
    assert len(s.wounds[1]) == want and all(w[1] is False for w in s.wounds[1])


# --------------------------------------------------------------------------------- issue 12: a Boss nobody has met
def _boss_here(s, cell, card):
    s.pool[DESU] -= 1
    s.bosses = [[cell, DESU, card]]
    s.boss_deck.remove(card)
    s.cre[cell * 9 + BOSS] = 1
    s._mask = None


def test_unrevealed_boss_shapes_no_choice_and_an_attack_reveals_it():
    """ "Keep the Boss card hidden until a Hero interacts with the Boss (moves up its room or performs a ranged
    attack)." A Boss came to the Hero (the Slow phase): its card stays hidden, so the Hero's choices are the same
    whatever the card; attacking its group is interacting with it: the card is revealed, and the Successes are
    spent against its true stats (HP x 3 to kill)."""
    g = VirusLabGame(num_players=1)
    comp = g.comp
    weak = min(range(15), key=lambda b: comp.boss_hp[b])
    strong = max(range(15), key=lambda b: comp.boss_hp[b])
    assert comp.boss_hp[weak] < comp.boss_hp[strong]
    masks = []
    for card in (weak, strong):
        s = empty_state(1)
        c = put(s, 1, 5, four(s.g))
        at(s, 0, c)                                   # the Boss came to him: nobody moved up its room
        _boss_here(s, c, card)
        assert s.view(0)["bosses"] == [] and s.boss_seen == []
        masks.append(s.legal_action_mask().copy())
    assert (masks[0] == masks[1]).all(), "the hidden card shapes no choice"
    gone = [list(x) for x in s.boss_gone]             # the Irreducible Boss, discarded at setup (no Final Attack)
    s.apply_action(A.ATTACK)
    assert s.view(0)["bosses"] == [{"cell": c, "hp": comp.boss_hp[strong], "damage": comp.boss_damage[strong],
                                    "dodge": comp.boss_dodge[strong]}], "revealed by the attack"
    s.apply_action(A.ROLL)
    k = comp.boss_hp[strong] * 3
    s.rollres = [1, 0, k, 0] + [0] * 12               # exactly the Successes to kill this Boss
    s._mask = None
    s.apply_action(A.ACCEPT)
    assert s.ph == PH_SPEND and s.legal_action_mask()[A.KILL + BOSS]
    s.apply_action(A.KILL + BOSS)
    assert s.bosses == [] and s.boss_gone == gone + [[strong, 1]] and s.pool[DESU] == 2


def test_a_boss_that_attacks_is_revealed():
    """The Boss's counter-attack at the end of the phase (the Hero did not attack) deals its card's Damage: the
    card is no secret any more."""
    s = empty_state(1, difficulty=1)
    comp = s.g.comp
    c = put(s, 1, 5, four(s.g))
    at(s, 0, c)
    card = s.boss_deck[-1]
    _boss_here(s, c, card)
    _plain_wound_deck(s)
    s.apply_action(A.PASS)
    assert s.boss_seen == [0] and s.view(0)["bosses"][0]["damage"] == comp.boss_damage[card]
    for _ in range(comp.boss_damage[card] - 1):
        assert s.ph == PH_WOUND
        s.apply_action(A.KEEP)
    assert len(s.wounds[0]) == comp.boss_damage[card] and s.wpend[1] == 0, "the Boss's Damage, from its card"
    keep_wounds(s)
    assert len(s.wounds[0]) == comp.boss_damage[card] + 1, \
        "then Verduko's Distance Attack after its (null) movement: Bosses have all the Leader powers"


@pytest.mark.parametrize("bullets", [0, 1, 2])
def test_a_single_bullet_cube_may_be_added_to_the_roll(bullets):
    """Building the roll: a bullet cube may be added while the Hero has one left, the last one included."""
    s = empty_state(1)
    c = put(s, 1, 5, four(s.g))
    at(s, 0, c)
    creatures(s, c, dog=1)
    s.apply_action(A.ATTACK)
    assert s.ph == PH_ROLL
    s.bullets[0] = bullets
    s._mask = None
    assert bool(s.legal_action_mask()[A.ADD_BULLET]) == (bullets > 0)

