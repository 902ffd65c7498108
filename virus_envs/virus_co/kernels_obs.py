"""The Virus & Co observation on the batch's integer rows: `encoding.observe`, field for field.

Seat p's vector is written only from what p may see, as the scalar encoder's: the other seats' risk
hands by their sizes, the face-down circulating risk card's type only for its issuer, the stacks by
their face-up cards and sizes. The same float operations as `encoding.observe` (a double divided,
then stored as float32), so the vectors are equal to the last bit (tests/virus_co/test_vco_batched.py).
"""
from __future__ import annotations

from ..core.jit import njit
from .cards import KIND_SYRINGE
from .kernels import (ACTIVE, CIRC, CUR, DIAG, DOCTOR, GIVECOL, GIVER, HAND, HCAP, ICU, ISSUER, NHAND, NQC, NSTACK,
                      NSYR, NSYRS, NT, NURSE, NVIR, O_BASE, ON, P_N, P_OBS, P_ROUNDS, PAYADD, PAYNEED, PH, PHARM,
                      PILLS, PUB, QCOL, RC, REQ, RND, SCAP, STACK, STAKE, SYCAP, SYR, T_KIND, T_RT, T_VAL, T_VIDX,
                      TOTALS, VCAP, VIR)

# the observation fields, in encoding.layout's order (offsets at TB[O_BASE + k])
(F_PHASE, F_ROUND, F_DECIDER, F_ACTIVE, F_PILLS, F_STAKE, F_ILL, F_SYR, F_LOOSE, F_RHAND, F_TOTAL, F_DOCTOR, F_NURSE,
 F_DIAG, F_VWHERE, F_VSYR, F_SYRUP, F_STACKS, F_PHARM, F_REQ, F_GIVER, F_OWNR, F_PUBR, F_RCIRC, F_ISSUER, F_PAY,
 F_PCOL, F_ICU) = range(28)


@njit
def observe_batch(S, seats, TB, OUT):
    """VirusCoState.observation(seats[i]) for every game into OUT (zeroed here): seat-relative float32."""
    n = TB[P_N]
    w = n + 3
    o_phase, o_round, o_decider, o_active = TB[O_BASE + F_PHASE], TB[O_BASE + F_ROUND], TB[O_BASE + F_DECIDER], \
        TB[O_BASE + F_ACTIVE]
    op, ost, oil, osy, ols = TB[O_BASE + F_PILLS], TB[O_BASE + F_STAKE], TB[O_BASE + F_ILL], TB[O_BASE + F_SYR], \
        TB[O_BASE + F_LOOSE]
    orh, otot, o_doctor, o_nurse, o_diag = TB[O_BASE + F_RHAND], TB[O_BASE + F_TOTAL], TB[O_BASE + F_DOCTOR], \
        TB[O_BASE + F_NURSE], TB[O_BASE + F_DIAG]
    ovw, ovs, osu, o_stacks, oph = TB[O_BASE + F_VWHERE], TB[O_BASE + F_VSYR], TB[O_BASE + F_SYRUP], \
        TB[O_BASE + F_STACKS], TB[O_BASE + F_PHARM]
    o_req, o_giver, oor, opr, o_rc = TB[O_BASE + F_REQ], TB[O_BASE + F_GIVER], TB[O_BASE + F_OWNR], \
        TB[O_BASE + F_PUBR], TB[O_BASE + F_RCIRC]
    o_iss, opy, o_pc, o_icu = TB[O_BASE + F_ISSUER], TB[O_BASE + F_PAY], TB[O_BASE + F_PCOL], TB[O_BASE + F_ICU]
    for i in range(S.shape[0]):
        vec = OUT[i]
        for k in range(TB[P_OBS]):
            vec[k] = 0.0
        p = seats[i]
        vec[o_phase + S[i, PH]] = 1.0
        vec[o_active + (S[i, ACTIVE] - p) % n] = 1.0
        if S[i, RND] < TB[P_ROUNDS]:
            vec[o_round + S[i, RND]] = 1.0
        if S[i, CUR] >= 0:
            vec[o_decider + (S[i, CUR] - p) % n] = 1.0
        for q in range(n):
            r = (q - p) % n
            b = op + 3 * r
            vec[b] = S[i, PILLS + 3 * q] / 21.0
            vec[b + 1] = S[i, PILLS + 3 * q + 1] / 21.0
            vec[b + 2] = S[i, PILLS + 3 * q + 2] / 21.0
            s0, s1, s2 = S[i, STAKE + 3 * q], S[i, STAKE + 3 * q + 1], S[i, STAKE + 3 * q + 2]
            if s0 or s1 or s2:
                b = ost + 3 * r
                vec[b] = s0 / 21.0
                vec[b + 1] = s1 / 21.0
                vec[b + 2] = s2 / 21.0
            nv = S[i, NVIR + q]
            if nv:
                ill = 0
                for j in range(nv):
                    v = S[i, VIR + VCAP * q + j]
                    k = S[i, NSYR + v]
                    vv = TB[T_VAL + v]
                    if k == 0:
                        ill += vv
                    else:
                        if k == 1:
                            ill += (vv + 1) // 2
                        vec[ovs + TB[T_VIDX + v]] = k * 0.5
                    vec[ovw + TB[T_VIDX + v] * w + r] = 1.0
                vec[oil + r] = ill / 30.0 if ill < 30 else 1.0
            ns = S[i, NSYRS + q]
            if ns:
                vec[osy + r] = ns / 3.0 if ns < 3 else 1.0
                loose = 0
                for j in range(ns):
                    if S[i, ON + S[i, SYR + SYCAP * q + j]] < 0:
                        loose += 1
                if loose:
                    vec[ols + r] = loose / 3.0 if loose < 3 else 1.0
            nh = S[i, NHAND + q]
            if nh:
                vec[orh + r] = nh / 7.0
            tt = (S[i, TOTALS + q] + 60) / 400.0
            vec[otot + r] = 0.0 if tt < 0.0 else (1.0 if tt > 1.0 else tt)
            if S[i, NURSE + q] >= 0:
                vec[o_nurse + r * n + (S[i, NURSE + q] - p) % n] = 1.0
            if S[i, DIAG + q] >= 0:
                vec[o_diag + r * n + (S[i, DIAG + q] - p) % n] = 1.0
        if S[i, DOCTOR] >= 0:
            vec[o_doctor + (S[i, DOCTOR] - p) % n] = 1.0
        for k in range(2):
            m = S[i, NSTACK + k]
            if m:
                c = S[i, STACK + SCAP * k + m - 1]
                if TB[T_KIND + c] == KIND_SYRINGE:
                    vec[osu + k] = 1.0
                else:
                    vec[ovw + TB[T_VIDX + c] * w + n + k] = 1.0
                vec[o_stacks + k] = m / 19.0
        c = S[i, CIRC]
        if c >= 0:
            if TB[T_KIND + c] == KIND_SYRINGE:
                vec[osu + 2] = 1.0
            else:
                vec[ovw + TB[T_VIDX + c] * w + n + 2] = 1.0
            vec[o_req] = S[i, REQ] / 40.0 if S[i, REQ] < 40 else 1.0
            if S[i, GIVER] >= 0:
                vec[o_giver + (S[i, GIVER] - p) % n] = 1.0
        vec[oph] = S[i, PHARM] / 21.0
        vec[oph + 1] = S[i, PHARM + 1] / 21.0
        vec[oph + 2] = S[i, PHARM + 2] / 21.0
        for t in range(NT):
            own = 0
            for j in range(S[i, NHAND + p]):
                if TB[T_RT + S[i, HAND + HCAP * p + j]] == t:
                    own += 1
            if own:
                vec[oor + t] = own / 3.0 if own < 3 else 1.0
            pub = S[i, PUB + t]
            if pub:
                vec[opr + t] = pub / 3.0 if pub < 3 else 1.0
        if S[i, RC] >= 0:
            if S[i, ISSUER] == p:     # the face-down card is known to its issuer only
                vec[o_rc + TB[T_RT + S[i, RC]]] = 1.0
            vec[o_iss + (S[i, ISSUER] - p) % n] = 1.0
        need = S[i, PAYNEED]
        if need:
            a0, a1, a2 = S[i, PAYADD], S[i, PAYADD + 1], S[i, PAYADD + 2]
            rest = (need - a0 - 2 * a1 - 3 * a2) / 20.0
            vec[opy] = rest if rest < 1.0 else 1.0
            vec[opy + 1] = a0 / 21.0
            vec[opy + 2] = a1 / 21.0
            vec[opy + 3] = a2 / 21.0
        col = S[i, QCOL] if S[i, NQC] else S[i, GIVECOL]
        if col >= 0:
            vec[o_pc + col] = 1.0
        if S[i, ICU] >= 0:
            vec[o_icu + (S[i, ICU] - p) % n] = 1.0
