"""Additional Final Attack (config `final_attack=True`) and the Irreducible Boss: scenario tests quoting the
rulebook's "ADDITIONAL FINAL ATTACK" section.

Damage written out by hand: Zombie 1, Blooder 2 ("Each Creature's attack causes 1 Damage point, except Blooders
and Leaders which cause 2"); the Irreducible Boss is card B15 (id 14) of data/bosses.yaml, Damage 3.
"""
from __future__ import annotations

import pytest

from virus_envs.virus_lab.actions import A
from virus_envs.virus_lab.components import TK_SHIELD
from virus_envs.virus_lab.game import PH_SHIELD, VirusLabGame
from vl_helpers import BOSS, DESU, at, creatures, empty_state, four, keep_wounds, play_random, put

IRREDUCIBLE = 14     # B15 "Irreducible Boss", damage 3


def _shields(s, p, k):
    s.tok[p][TK_SHIELD] += k
    s.tok_pool[TK_SHIELD] -= k


def _fight_here(s, c, heroes):
    """Heroes in room c, already counter-attacked there this turn (so the end of the phase owes nothing) and
    having Dodged every Creature of the room."""
    for p in heroes:
        at(s, p, c)
        s.countered[p] = [c]
        s.dodged[p] = [s.cre[c * 9 + k] for k in range(9)]


def _end_real_time(s):
    while s.ph == 3:                  # everyone passes
        s.apply_action(A.PASS)


def _boss_here(s, c, card):
    s.boss_deck.remove(card)
    s.pool[DESU] -= 1
    s.bosses.append([c, DESU, card])
    s.cre[c * 9 + BOSS] += 1


def test_all_creatures_attack_and_cannot_be_dodged():
    """ "If at the beginning of Slow Phase a Hero is located in the same room with some creatures, all creatures
    will attack the Hero ... Is not possible to dodge this attack, but it's possible to use Shield tokens to
    absorb it." 2 Zombies + 1 Blooder, all Dodged: 1 + 1 + 2 = 4 Damage points, Shields offered."""
    s = empty_state(1, final_attack=True)
    c = put(s, 1, 5, four(s.g))
    creatures(s, c, zombie=2, blooder=1)
    _fight_here(s, c, [0])
    _shields(s, 0, 3)
    _end_real_time(s)
    assert s.ph == PH_SHIELD and s.dmg == [0, 4, 0, 1], "4 Damage points, face down (Creatures)"
    m = s.legal_action_mask()
    assert all(m[A.SHIELD + k] for k in range(4)) and not m[A.SHIELD + 4], "0 to 3 Shields absorb it"
    s.apply_action(A.SHIELD + 3)
    keep_wounds(s)
    assert s.tok[0][TK_SHIELD] == 0 and len(s.wounds[0]) >= 1


def test_without_the_option_no_final_attack():
    """The base game: the Dodged Creatures that already counter-attacked do not attack again."""
    s = empty_state(1)
    c = put(s, 1, 5, four(s.g))
    creatures(s, c, zombie=2, blooder=1)
    _fight_here(s, c, [0])
    _shields(s, 0, 3)
    _end_real_time(s)
    assert s.ph != PH_SHIELD and s.wounds[0] == []


def test_damage_divided_between_heroes_rounded_up():
    """ "If there are more than an Hero damage points are divided between them (rounded up)": 1 Zombie + 1 Blooder
    (3 Damage points) against 2 Heroes: 2 each."""
    s = empty_state(2, final_attack=True)
    c = put(s, 1, 5, four(s.g))
    creatures(s, c, zombie=1, blooder=1)
    _fight_here(s, c, [0, 1])
    _shields(s, 0, 1)
    _shields(s, 1, 1)
    _end_real_time(s)
    assert s.ph == PH_SHIELD and s.dmg == [0, 2, 0, 1]
    s.apply_action(A.SHIELD + 0)
    keep_wounds(s)
    assert s.ph == PH_SHIELD and s.dmg == [1, 2, 0, 1]


def test_a_hero_alone_in_his_room_is_not_attacked():
    s = empty_state(2, final_attack=True)
    c, d = put(s, 1, 5, four(s.g)), put(s, 1, 4, four(s.g))
    creatures(s, c, zombie=1)
    _fight_here(s, c, [0])
    at(s, 1, d)
    _shields(s, 0, 1)
    _shields(s, 1, 1)
    _end_real_time(s)
    assert s.ph == PH_SHIELD and s.dmg == [0, 1, 0, 1]
    s.apply_action(A.SHIELD + 1)
    keep_wounds(s)
    assert s.ph != PH_SHIELD and s.wounds[1] == []


def test_irreducible_boss_is_discarded_without_the_final_attack():
    """ "Note: Irreducible Boss needs this additional element into the game. If you are not using it, discard the
    Boss." Without it the card is out of the game in sight of all; with it the card is in the Boss deck."""
    base = VirusLabGame(num_players=1, difficulty=3).new_initial_state(seed=5)
    assert IRREDUCIBLE not in base.boss_deck and [IRREDUCIBLE, 1] in base.boss_gone
    assert all(b[2] != IRREDUCIBLE for b in base.bosses)
    with_it = VirusLabGame(num_players=1, difficulty=3, final_attack=True).new_initial_state(seed=5)
    held = with_it.boss_deck + [b[2] for b in with_it.bosses]
    assert IRREDUCIBLE in held and with_it.boss_gone == []
    assert sorted(held) == list(range(15))


def test_irreducible_boss_damage_is_not_divided_nor_absorbed():
    """DESIGNED power of the Irreducible Boss (its card's text is not public): its Final Attack Damage "cannot be
    reduced": each of the 2 Heroes takes its 3 Damage points, and Shields absorb only the rest (the Zombie's 1
    point, divided: 1 each)."""
    s = empty_state(2, final_attack=True)
    c = put(s, 1, 5, four(s.g))
    creatures(s, c, zombie=1)
    _boss_here(s, c, IRREDUCIBLE)
    _fight_here(s, c, [0, 1])
    _shields(s, 0, 2)
    _end_real_time(s)
    assert s.ph == PH_SHIELD and s.dmg == [0, 1, 3, 1], "1 point Shields may absorb, 3 they may not"
    assert not s.legal_action_mask()[A.SHIELD + 2]
    assert 0 in s.boss_seen, "attacked by it: the Boss card is revealed"


@pytest.mark.parametrize("n", [1, 2, 4])
def test_random_playouts_keep_the_invariants(n):
    g = VirusLabGame(num_players=n, final_attack=True, difficulty=3)
    for seed in range(3):
        play_random(g, seed, check=True)
