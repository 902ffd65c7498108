"""VIRUS!: seeded random playouts (2,000+ games across 2-6 players) asserting the invariants,
and the mask checked against an independent reading of the rules, action by action."""
import json
import numpy as np
import pytest

import virus_envs
from virus_envs.virus_cards.actions import A_DISCARD, A_MOVE, A_PICK, A_PLAY, A_PLAYER, A_SLOT
from virus_envs.virus_cards.game import CONTAGION_MOVE, TRANSPLANT_PICK

ORGAN, VIRUS, MEDICINE, TREAT = 0, 1, 2, 3
TRANSPLANT, THIEF, CONTAGION, GLOVE, MED_ERROR = range(5)


def match(a, b):
    return a == b or a == 4 or b == 4


def cards_everywhere(s):
    cards = [c for h in s.hands for c in h] + s.deck + s.discard
    for q in range(s.n):
        for c in range(5):
            if s.organ[q][c] >= 0:
                cards += [s.organ[q][c]] + s.att[q][c]
    return cards


# ---- an independent oracle of legality, one action at a time, from the rule text ----------
def oracle(s, a):
    g = s.game
    K, C, T = g.KIND, g.COLOUR, g.TREAT
    pl = g.A.payload[a]
    me, n = s.turn_player, s.n
    hand = s.hands[me]

    def slot(t, c):
        return s.organ[t][c], s.att[t][c]

    def immune(t, c):
        return len(s.att[t][c]) == 2

    def swap_ok(A, c1, B, c2):
        if A == B or s.organ[A][c1] < 0 or s.organ[B][c2] < 0 or immune(A, c1) or immune(B, c2):
            return False
        a_after = {c for c in range(5) if s.organ[A][c] >= 0 and c != c1}
        b_after = {c for c in range(5) if s.organ[B][c] >= 0 and c != c2}
        return c2 not in a_after and c1 not in b_after

    def contagion_max(organ, att):
        """Most viruses movable, by trying every order (tiny)."""
        srcs = [c for c in range(5) if len(att[me][c]) == 1 and K[att[me][c][0]] == VIRUS]
        dests = [(t, d) for t in range(n) if t != me for d in range(5) if organ[t][d] >= 0 and not att[t][d]]

        def rec(i, used):
            if i == len(srcs):
                return 0
            vcol = C[att[me][srcs[i]][0]]
            best_ = rec(i + 1, used)
            for dd in dests:
                if dd not in used and match(vcol, dd[1]):
                    best_ = max(best_, 1 + rec(i + 1, used | {dd}))
            return best_
        return rec(0, frozenset())

    if s.stage == TRANSPLANT_PICK:
        if pl[0] != A_PICK:
            return False
        A_, c1 = s.pending
        return swap_ok(A_, c1, (me + pl[1]) % n, pl[2])
    if s.stage == CONTAGION_MOVE:
        if pl[0] != A_MOVE:
            return False
        _, c, r, d = pl
        t = (me + r) % n
        a_ = s.att[me][c]
        if not (len(a_) == 1 and K[a_[0]] == VIRUS and s.organ[t][d] >= 0 and not s.att[t][d]
                and match(C[a_[0]], d)):
            return False
        before = contagion_max(s.organ, s.att)
        att2 = [[x[:] for x in body] for body in s.att]
        att2[t][d], att2[me][c] = att2[me][c], []
        return 1 + contagion_max(s.organ, att2) == before
    kind = pl[0]
    if kind == A_DISCARD:
        return pl[1] < (1 << len(hand))
    if kind in (A_PICK, A_MOVE):
        return False
    h = pl[1]
    if h >= len(hand):
        return False
    card = hand[h]
    k = K[card]
    if kind == A_PLAY:
        if k != TREAT:
            return False
        if T[card] == GLOVE:
            return True
        if T[card] == CONTAGION:
            return contagion_max(s.organ, s.att) > 0
        return False
    if kind == A_PLAYER:
        return k == TREAT and T[card] == MED_ERROR and pl[2] != 0
    _, h, r, c = pl
    t = (me + r) % n
    o, at = slot(t, c)
    if k == ORGAN:
        return t == me and C[card] == c and s.organ[me][c] < 0
    cfg = g.config

    def cure_or_neutralize(played, on):
        """Cure / Neutralize: the played card against the card it destroys and/or the organ."""
        a_, b_ = match(C[played], C[on]), match(C[played], c)
        return {"card": a_, "card_or_organ": a_ or b_, "card_and_organ": a_ and b_}[cfg["colour_rule"]]

    if k == VIRUS:
        if (t == me and not cfg["virus_on_own_body"]) or o < 0 or len(at) == 2:
            return False
        if not at or K[at[0]] == VIRUS:                 # Infect, Remove
            return match(C[card], c)
        return cure_or_neutralize(card, at[0])          # Neutralize
    if k == MEDICINE:
        if (t != me and not cfg["medicine_on_any_body"]) or o < 0 or len(at) == 2:
            return False
        if at and K[at[0]] == VIRUS:                    # Cure
            return cure_or_neutralize(card, at[0])
        return match(C[card], c)                        # Vaccinate, Immunize
    if T[card] == THIEF:
        return t != me and o >= 0 and len(at) < 2 and s.organ[me][c] < 0
    if T[card] == TRANSPLANT:
        return any(swap_ok(t, c, B, c2) for B in range(n) for c2 in range(5))
    return False


VARIANTS = [(n, {}) for n in (2, 3, 4, 5, 6)] + [
    (3, {"colour_rule": "card_or_organ"}), (4, {"colour_rule": "card_and_organ"}),
    (3, {"virus_on_own_body": True, "medicine_on_any_body": True}),
]


@pytest.mark.parametrize("n, config", VARIANTS)
def test_mask_equals_the_oracle(n, config):
    g = virus_envs.game("virus_cards_v0", num_players=n, **config)
    rng = np.random.default_rng(100 + n)
    checked = 0
    phases = set()
    for k in range(80):   # at least 12 games, and until Transplant and Contagion decisions were seen
        if k >= 12 and len(phases) == 3:
            break
        s = g.new_initial_state(seed=1000 * n + k)
        while not s.is_terminal():
            mask = s.legal_action_mask()
            expect = np.array([oracle(s, a) for a in range(g.num_actions)])
            bad = np.flatnonzero(mask != expect)
            assert bad.size == 0, (f"mask disagrees with the rules on "
                                   f"{[(g.action_to_string(int(a)), bool(mask[a])) for a in bad]}\n{s}")
            checked += 1
            phases.add(s.stage)
            s.apply_action(int(rng.choice(np.flatnonzero(mask))))
    assert checked > 100 and phases == {0, TRANSPLANT_PICK, CONTAGION_MOVE}


def _immunized(s):
    return {s.organ[q][c]: (q, c) for q in range(s.n) for c in range(5) if len(s.att[q][c]) == 2}


CHUNKS = [(n, k) for n in (2, 3, 4, 5, 6) for k in range(4)]   # 20 chunks x 100 games = 2,000 games


@pytest.mark.parametrize("n, chunk", CHUNKS)
def test_random_playouts_keep_the_invariants(n, chunk):
    g = virus_envs.game("virus_cards_v0", num_players=n)
    total = g.deck.size
    rng = np.random.default_rng(7 * n + chunk)
    resampled = 0
    for k in range(100):
        s = g.new_initial_state(seed=10_000 * n + 100 * chunk + k)
        step = 0
        while not s.is_terminal():
            legal = s.legal_actions()
            a = int(legal[rng.integers(len(legal))])
            imm = _immunized(s)
            bodies_before = [[s.organ[q][c] for c in range(5)] for q in range(n)]
            if step % 37 == 5:
                p = s.current_player()
                d = s.to_dict()
                fresh = g.state_from_dict(json.loads(json.dumps(d)))
                assert fresh.to_dict() == d
                # derived data (slot codes, running discard counts) equals a recount from scratch
                assert np.array_equal(fresh.observation(p), s.observation(p))
                det = s.determinize(p, np.random.default_rng(step))
                assert det.view(p) == s.view(p)
                assert np.array_equal(det.observation(p), s.observation(p))
                assert sorted(cards_everywhere(det)) == list(range(total))
                # what p cannot tell: other hands' cards the view leaves at -1, the deck until it is public
                v = s.view(p)
                hidden = [s.hands[q][i] for q in range(n) for i, c in enumerate(v["known_hands"][q]) if c < 0]
                if v["deck"] is None:
                    hidden += s.deck
                else:
                    assert det.deck == s.deck
                if len(hidden) > 1:
                    resampled += (det.deck != s.deck or any(det.hands[q] != s.hands[q] for q in range(n) if q != p))
            s.apply_action(a)
            step += 1
            # cards conserved: every card exactly once
            everywhere = cards_everywhere(s)
            assert len(everywhere) == total and len(set(everywhere)) == total
            # no duplicate colour: an organ lies in the slot of its own colour; at most 2 cards on it
            for q in range(n):
                for c in range(5):
                    o = s.organ[q][c]
                    assert o < 0 and not s.att[q][c] or g.COLOUR[o] == c and len(s.att[q][c]) <= 2
            # immunized organs never move, except with a whole body by Medical Error
            kind = g.A.payload[a][0]
            for card, (q, c) in imm.items():
                if s.organ[q][c] != card:
                    assert kind == A_PLAYER, f"immunized organ moved by {g.action_to_string(a)}"
                    t = next(t for t in range(n) if s.organ[t][c] == card)
                    assert [s.organ[t][x] for x in range(5)] == bodies_before[q]
            # the game ends exactly when a body has 4 healthy organs (or on truncation), counted here
            # from the cards: an organ is healthy when no virus lies on it
            healthy = [sum(1 for c in range(5) if s.organ[q][c] >= 0
                           and not any(g.KIND[x] == VIRUS for x in s.att[q][c])) for q in range(n)]
            assert healthy == s.scores()
            if s.is_terminal() and not s.is_truncated():
                assert healthy[s.winner] >= 4
            elif not s.is_terminal():
                assert max(healthy) < 4
        r = s.returns()
        assert r.shape == (n,)
        assert (r.tolist().count(1.0) == 1 and r.sum() == 1 - (n - 1)) or (s.is_truncated() and not r.any())
    assert resampled > 50   # determinize really deals the hidden cards again
