# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, nonecheck=False, embedsignature=True
"""The search bots' inner loop in C: determinization, hand reading, playouts, ISMCTS.

This is the compiled form of :mod:`basra.bots.sim` (the sampler, the playout
policy and its hand reading) and of the search loop of :mod:`basra.bots.ismcts`,
built on the kernel's round (:mod:`basra._kernel`: ``RoundC``, the one
transition, the move generator). The Python bots prepare a :class:`Search`
from a seat's view and read back the root's statistics; the random draws come
from the kernel's generator, seeded by the bot's decision generator, so a
decision is deterministic for a seed and a budget.
"""

from libc.math cimport erf, exp, log, sqrt
from libc.stdint cimport int64_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy, memset

from basra._kernel cimport (
    KRules,
    basra_code,
    MoveBuf,
    Rng,
    RoundC,
    RulesC,
    ScoreC,
    gen_moves,
    mask_t,
    policy_value_c,
    rng_below,
    rng_seed,
    rng_shuffle,
    rng_uniform,
    round_apply,
    round_deal_next,
    round_finish,
)

import time

cdef extern from *:
    """
    static inline int s_popcount(unsigned long long x) { return __builtin_popcountll(x); }
    static inline int s_ctz(unsigned long long x) { return __builtin_ctzll(x); }
    """
    int s_popcount(unsigned long long x) nogil
    int s_ctz(unsigned long long x) nogil


# ------------------------------------------------------------------ a playout

cdef struct Node:
    # a node of the search tree: the move that leads to it, and the side that made it
    int card
    mask_t take
    int side
    int visits
    int avail
    double total       # the rewards backed up (what the search compares)
    double mtotal      # the side's round margins backed up (what the analysis reports)
    int first_child
    int next_sibling


cdef struct Sim:
    RoundC g
    int deals          # later deals made since the simulation started
    bint due           # the hands are empty and the next deal is still to be made
    bint done          # the round is over: result is set
    int unshuffled     # the first stock cards still in canonical order
    ScoreC result


cdef inline void sim_deal(Sim* s, Rng* rng) noexcept nogil:
    if s.unshuffled:
        rng_shuffle(rng, &s.g.stock[s.g.stock_pos], s.unshuffled)
        s.unshuffled = 0
    round_deal_next(&s.g)
    s.due = False


cdef inline int sim_moves(Sim* s, Rng* rng, MoveBuf* buf) except -1:
    """Mirror of ``Sim.moves``."""
    if s.due:
        sim_deal(s, rng)
    return gen_moves(s.g.r, s.g.hands[s.g.turn], s.g.floor, buf)


cdef inline int sim_play(Sim* s, Rng* rng, int card, mask_t take) except -1:
    """Mirror of ``Sim.play``."""
    cdef int code
    if s.due:
        sim_deal(s, rng)
    code = round_apply(&s.g, card, take)
    if not s.g.in_hands:
        if s.g.stock_pos < s.g.stock_len:
            s.due = True
            s.deals += 1
        else:
            round_finish(&s.g, &s.result)
            s.done = True
    return code


cdef inline int policy_index(Sim* s, MoveBuf* buf, Rng* rng, double eps) noexcept:
    """The playout policy's choice (mirror of ``rollout``'s): a share ``eps`` at random."""
    cdef int i, best_i = 0
    cdef double value, best = -1e9
    cdef bint lone = s.g.lone_last & 1
    if buf.n == 1:
        return 0
    if rng_uniform(rng) < eps:
        return rng_below(rng, buf.n)
    for i in range(buf.n):
        value = policy_value_c(s.g.r, buf.cards[i], buf.takes[i], s.g.floor, lone)
        value += rng_uniform(rng) * 0.01
        if value > best:
            best = value
            best_i = i
    return best_i


cdef inline double gain_of(const RulesC* r, int card, mask_t take, mask_t floor, bint lone,
                           double per_card) noexcept:
    """What a play takes at once: point cards, basra, cards towards the majority."""
    cdef double value
    cdef mask_t rest
    if not take:
        return 0.0
    value = r.card_points_f[card] + per_card * (s_popcount(take) + 1)
    rest = take
    while rest:
        value += r.card_points_f[s_ctz(rest)]
        rest &= rest - 1
    if take == floor:
        value += r.basra_value_f[basra_code(r, card, floor, lone)]
    return value


cdef double best_reply(Sim* s, int seat, mask_t floor, bint lone, double per_card) except? -1:
    """The most ``seat`` (its hand known in this determinization) can take at once from ``floor``."""
    cdef MoveBuf buf
    cdef double best = 0.0, value
    cdef int i
    if not floor or not s.g.hands[seat]:
        return 0.0
    gen_moves(s.g.r, s.g.hands[seat], floor, &buf)
    for i in range(buf.n):
        value = gain_of(s.g.r, buf.cards[i], buf.takes[i], floor, lone, per_card)
        if value > best:
            best = value
    return best


cdef int lookahead_index(Sim* s, MoveBuf* buf, Rng* rng, double eps) except -1:
    """The one-reply playout policy: points now less the next player's best reply
    (its hand is known in a determinization), as the greedy bot plays."""
    cdef int i, best_i = 0, card, nxt
    cdef double value, best = -1e300
    cdef double per_card = 0.1 + s.g.r.majority_bonus_f / s.g.r.pack
    cdef mask_t floor = s.g.floor, take, after
    cdef bint lone = s.g.lone_last & 1, last
    if buf.n == 1:
        return 0
    if rng_uniform(rng) < eps:
        return rng_below(rng, buf.n)
    nxt = s.g.turn + 1 if s.g.turn + 1 < s.g.players else 0
    last = s.g.in_hands == 1 and s.g.stock_pos == s.g.stock_len
    for i in range(buf.n):
        card = buf.cards[i]
        take = buf.takes[i]
        if take:
            value = gain_of(s.g.r, card, take, floor, lone, per_card)
            if last and take == floor and not s.g.r.basra_on_last_play:
                value -= s.g.r.basra_value_f[basra_code(s.g.r, card, floor, lone)]
            after = floor ^ take
            if not last:
                value -= best_reply(s, nxt, after, False, per_card)
        else:
            value = -1.5 * s.g.r.card_points_f[card]
            if s.g.r.sweepers >> card & 1:
                value -= 4.0
            elif card < 40:
                value += 0.05 * (9 - (card >> 2))
            after = floor | ((<mask_t>1) << card)
            if not last:
                value -= best_reply(s, nxt, after, floor != 0 and not (floor & (floor - 1)),
                                    per_card)
        value += rng_uniform(rng) * 0.01
        if value > best:
            best = value
            best_i = i
    return best_i


cdef int rollout(Sim* s, Rng* rng, double eps, int horizon, int tail, int policy) except -1:
    """Mirror of :func:`basra.bots.ismcts.rollout` (``policy`` 2: the one-reply policy)."""
    cdef MoveBuf buf
    cdef int stop = horizon if horizon > 0 else 1 << 30, i
    while not s.done:
        if s.deals >= stop:
            if tail <= 0:
                break
            tail -= 1
        sim_moves(s, rng, &buf)
        if policy == 2:
            i = lookahead_index(s, &buf, rng, eps)
        else:
            i = policy_index(s, &buf, rng, eps)
        sim_play(s, rng, buf.cards[i], buf.takes[i])
    return 0


# ------------------------------------------------------------- the valuation

cdef inline double majority_chance(double lead, int remaining) noexcept nogil:
    """Mirror of :func:`basra.bots.heuristic.majority_chance`."""
    cdef double spread = 1.8 * sqrt(remaining + 4)
    return 0.5 * (1.0 + erf(lead / (spread * sqrt(2.0))))


cdef void expected_points(Sim* s, double* out) noexcept nogil:
    """Mirror of :func:`basra.bots.ismcts.expected_points`."""
    cdef RoundC* g = &s.g
    cdef int side, other, remaining, lead_cards, most
    cdef double bonus = g.r.majority_bonus_f + <double>g.carry, value
    cdef mask_t rest
    remaining = s_popcount(g.floor) + g.in_hands + g.stock_len - g.stock_pos
    for side in range(g.n_sides):
        value = <double>g.basra_pts[side]
        rest = g.piles[side]
        while rest:
            value += g.r.card_points_f[s_ctz(rest)]
            rest &= rest - 1
        if bonus:
            most = -1
            for other in range(g.n_sides):
                if other != side and s_popcount(g.piles[other]) > most:
                    most = s_popcount(g.piles[other])
            value += bonus * majority_chance(s_popcount(g.piles[side]) - most, remaining)
        out[side] = value


cdef void floor_correction(Sim* s, double weight, double* points) noexcept nogil:
    """At a deal's end, what the floor is worth to the side that plays first in the next deal.

    Fitted on the expert's self-play (2 sides, Egyptian rules): that side ends the
    round about 1.5 points better per floor card, more with a lone card or a small
    all-numeral floor, less with a jack on it. ``weight`` scales it (0: off).
    """
    cdef RoundC* g = &s.g
    cdef int first, card, total = 0, last
    cdef mask_t rest = g.floor
    cdef double delta
    if weight == 0.0 or g.n_sides != 2 or not s.due:
        return
    first = g.side[g.first]
    delta = 1.5 * s_popcount(g.floor)
    while rest:
        card = s_ctz(rest)
        rest &= rest - 1
        delta += 0.45 * g.r.card_points_f[card]
        total += (card >> 2) + 1
    if s_popcount(g.floor) == 1:
        delta += 2.4
    if g.floor & ((<mask_t>0b1111) << 40):
        delta -= 4.8
    if g.floor and not (g.floor & ~(((<mask_t>1) << 40) - 1)) and total <= 10:
        delta += 3.1
    last = (g.lone_last >> 1) - 1
    if last >= 0:
        delta += 0.86 if last == first else -0.86
    points[first] += weight * delta / 2
    points[1 - first] -= weight * delta / 2


cdef struct RewardC:
    double mu
    int sides
    double target
    double scale
    double pace
    double spread
    int shape          # 1 linear (never clipped), 0 clipped to [0, 1] (before issue 27)


cdef inline double margin_reward(RewardC* w, double margin) noexcept nogil:
    """Mirror of ``Reward.of_margin``: the round margin's part of the reward."""
    cdef double value = 0.5 + margin / (2 * w.scale)
    if w.shape == 0:
        value = 0.0 if value < 0.0 else 1.0 if value > 1.0 else value
    return value


cdef void margins_of(int sides, double* points, double* out) noexcept nogil:
    """Each side's round margin: its points less the mean of the other sides' (the coach's)."""
    cdef int side
    cdef double total = 0.0
    for side in range(sides):
        total += points[side]
    for side in range(sides):
        out[side] = points[side] - (total - points[side]) / (sides - 1)


cdef void reward_of(RewardC* w, double* points, double* score, double* out) noexcept nogil:
    """Mirror of :class:`basra.bots.ismcts.Reward` (``__call__``)."""
    cdef int side, s
    cdef double others, margin, lead, best, rounds, z, win, top_other
    best = score[0]
    for s in range(1, w.sides):
        if score[s] > best:
            best = score[s]
    for side in range(w.sides):
        others = -1e300
        top_other = -1e300
        for s in range(w.sides):
            if s != side:
                if points[s] > others:
                    others = points[s]
                if score[s] > top_other:
                    top_other = score[s]
        margin = margin_reward(w, points[side] - others)
        if w.mu:
            lead = score[side] - top_other
            if best >= w.target:
                win = 1.0 if lead > 0 else 0.0 if lead < 0 else 0.5
            else:
                rounds = (w.target - best) / w.pace
                if rounds < 1.0:
                    rounds = 1.0
                z = lead / (w.spread * sqrt(rounds))
                win = 0.5 * (1.0 + erf(z / sqrt(2.0)))
            out[side] = w.mu * win + (1.0 - w.mu) * margin
        else:
            out[side] = margin


cdef void value_sim(Sim* s, RewardC* w, double* rewards, double* margins,
                    double floor_weight=0.0) noexcept nogil:
    """The rewards and round margins of a playout that finished the round or stopped at
    its horizon (there the margins are expected ones, :func:`expected_points`)."""
    cdef double points[4]
    cdef double score[4]
    cdef int side
    if s.done:
        for side in range(s.g.n_sides):
            points[side] = <double>s.result.points[side]
            score[side] = <double>s.result.score[side]
    else:
        expected_points(s, points)
        floor_correction(s, floor_weight, points)
        for side in range(s.g.n_sides):
            score[side] = <double>s.g.scores[side] + points[side]
    reward_of(w, points, score, rewards)
    margins_of(s.g.n_sides, points, margins)


cdef void reward_setup(RewardC* w, object rules, int sides, double mu, int shape=1):
    """Mirror of ``Reward.__init__`` (rule integers clamped for doubles)."""
    card_points = min(sum(rules.card_points[: rules.pack]), 10 ** 9)
    flat = min(rules.basra_points, 10 ** 9)
    bonus = min(rules.majority_bonus, 10 ** 9)
    w.mu = mu
    w.shape = shape
    w.sides = sides
    w.target = <double>min(rules.target, 10 ** 15)
    w.scale = <double>max(bonus + card_points + 2 * flat, 1)
    w.pace = max((card_points + bonus + flat) / sides, 1.0)
    w.spread = sqrt((0.8 * bonus) ** 2 + (1.5 * flat) ** 2 + 16.0)


# ------------------------------------------------------- exact perfect play
#
# When every card is placed (a determinization, or a 2-player last deal where
# the other hand is exactly the unseen cards), the rest of the round is a game
# of perfect information: solved exactly, with alpha-beta between two sides
# (each maximizing its own value; two sides' rewards add up to 1, their margins
# to 0) and max^n between three or four. Moves are tried best first by the
# playout policy. The values are the bots' rewards, or (for the coach) the
# round margins themselves, in points and never clipped. :mod:`basra.bots.solve`
# is the pure-Python mirror (same order, same ties, same node count).

cdef struct Solver:
    RewardC* w
    bint margins       # solve on round margins (the analysis) instead of rewards (the bots)
    double pair        # what two sides' values add up to: 1 (rewards) or 0 (margins)
    long long nodes
    long long limit
    bint aborted


cdef int ordered_moves(RoundC* g, MoveBuf* buf, int* order) except -1:
    """The legal moves, best first by the playout policy."""
    cdef double values[256]
    cdef double v
    cdef int i, j, k
    cdef bint lone = g.lone_last & 1
    gen_moves(g.r, g.hands[g.turn], g.floor, buf)
    for i in range(buf.n):
        v = policy_value_c(g.r, buf.cards[i], buf.takes[i], g.floor, lone)
        j = i
        while j > 0 and values[j - 1] < v:
            values[j] = values[j - 1]
            order[j] = order[j - 1]
            j -= 1
        values[j] = v
        order[j] = i
    return buf.n


cdef bint settle(RoundC* g, Solver* sv, double* rewards) noexcept:
    """Deal the next hands when due; at the round's end, score it into ``rewards`` (True)."""
    cdef ScoreC score
    cdef double points[4]
    cdef double total[4]
    cdef int side
    while g.in_hands == 0:
        if g.stock_pos < g.stock_len:
            round_deal_next(g)
            continue
        round_finish(g, &score)
        for side in range(g.n_sides):
            points[side] = <double>score.points[side]
            total[side] = <double>score.score[side]
        if sv.margins:
            margins_of(g.n_sides, points, rewards)
        else:
            reward_of(sv.w, points, total, rewards)
        return True
    return False


cdef double alphabeta(RoundC* g, Solver* sv, double alpha, double beta) except? -9.0:
    """Side 0's value under perfect play by two sides."""
    cdef RoundC child
    cdef MoveBuf buf
    cdef int order[256]
    cdef double rewards[4]
    cdef double v, best
    cdef int n, k
    cdef bint maximizing
    if settle(g, sv, rewards):
        return rewards[0]
    sv.nodes += 1
    if sv.nodes > sv.limit:
        sv.aborted = True
        return 0.5
    n = ordered_moves(g, &buf, order)
    maximizing = g.side[g.turn] == 0
    best = -1e300 if maximizing else 1e300
    for k in range(n):
        memcpy(&child, g, sizeof(RoundC))
        round_apply(&child, buf.cards[order[k]], buf.takes[order[k]])
        v = alphabeta(&child, sv, alpha, beta)
        if maximizing:
            if v > best:
                best = v
            if best > alpha:
                alpha = best
        else:
            if v < best:
                best = v
            if best < beta:
                beta = best
        if alpha >= beta or sv.aborted:
            break
    return best


cdef int maxn(RoundC* g, Solver* sv, double* out) except -1:
    """Every side's value under max^n play (each side maximizing its own)."""
    cdef RoundC child
    cdef MoveBuf buf
    cdef int order[256]
    cdef double values[4]
    cdef int n, k, side, mover
    if settle(g, sv, out):
        return 0
    sv.nodes += 1
    if sv.nodes > sv.limit:
        sv.aborted = True
        for side in range(g.n_sides):
            out[side] = 0.5
        return 0
    n = ordered_moves(g, &buf, order)
    mover = g.side[g.turn]
    out[mover] = -1e300
    for k in range(n):
        memcpy(&child, g, sizeof(RoundC))
        round_apply(&child, buf.cards[order[k]], buf.takes[order[k]])
        maxn(&child, sv, values)
        if values[mover] > out[mover]:
            for side in range(g.n_sides):
                out[side] = values[side]
        if sv.aborted:
            break
    return 0


cdef double exact_value(RoundC* g, Solver* sv, int side) except? -9.0:
    """``side``'s value from ``g`` under perfect play."""
    cdef double values[4]
    cdef double value
    if g.n_sides == 2:
        value = alphabeta(g, sv, -1e300, 1e300)
        return value if side == 0 else sv.pair - value
    maxn(g, sv, values)
    return values[side]


# -------------------------------------------------------------- the sampler

cdef int64_t clamp(object value):
    return value if value < (1 << 62) else (1 << 62)


cdef class Search:
    """One decision's search: what the seat knows, the hidden cards, and the tree.

    Built from a view by :func:`basra.bots.ismcts.kernel_search` (or from the
    true hands, for the cheater). :meth:`run` returns the root moves' visits
    and total rewards.
    """

    cdef KRules kr
    cdef RoundC base          # the position with this seat's hand; other hands hold known cards
    cdef int me
    cdef int unseen[52]
    cdef int n_unseen
    cdef int needs[4]
    cdef int dealt
    cdef int bottom[52]
    cdef int n_bottom
    cdef Rng rng
    # hand reading: decisions seen in this deal, and a pool of weighted deals
    cdef double read
    cdef int pool_size
    cdef int n_decisions
    cdef int d_seat[64]
    cdef mask_t d_floor[64]
    cdef bint d_lone[64]
    cdef int d_card[64]
    cdef mask_t d_take[64]
    cdef mask_t d_later[64]
    cdef mask_t* pool           # pool_size x 4 hands
    cdef double* cumulative
    cdef bint pool_built
    # the learned belief: a Markov chain over deals weighted by the product of each
    # unseen card's chance of being where the deal puts it (basra.belief)
    cdef bint belief_on
    cdef int belief_sweeps
    cdef double b_lw[52][5]      # per unseen card (its index in `unseen`), log weight of each
                                 # place: seats 0-3, 4 the stock
    cdef int b_loc[52]           # the chain's deal: each unseen card's place
    cdef int b_held[52]          # the unseen cards (indices) the chain puts in hands
    cdef int b_slot[52]          # each unseen card's index in b_held (-1: in the stock)
    cdef bint b_moves            # the unseen cards lie in two places or more
    # the tree
    cdef Node* nodes
    cdef int n_nodes
    cdef int cap_nodes

    def __cinit__(self):
        self.pool = NULL
        self.cumulative = NULL
        self.nodes = NULL

    def __dealloc__(self):
        free(self.pool)
        free(self.cumulative)
        free(self.nodes)

    def __init__(self, KRules kr, int players, tuple side_of, int me, list hands, mask_t floor,
                 list unseen, list needs, list bottom, list piles, list basras,
                 list basra_points, int lone_last, int turn, int first, list scores,
                 carry, list decisions, double read, int pool, uint64_t seed):
        cdef int i
        self.kr = kr
        memset(&self.base, 0, sizeof(RoundC))
        self.base.r = &kr.c
        self.base.players = players
        self.base.n_sides = max(side_of) + 1
        for i in range(players):
            self.base.side[i] = side_of[i]
            self.base.hands[i] = hands[i]
            self.needs[i] = needs[i]
        self.base.floor = floor
        for i in range(self.base.n_sides):
            self.base.piles[i] = piles[i]
            self.base.basras[i] = basras[i]
            self.base.basra_pts[i] = clamp(basra_points[i])
            self.base.scores[i] = clamp(scores[i])
        self.base.carry = clamp(carry)
        self.base.lone_last = lone_last
        self.base.turn = turn
        self.base.first = first
        self.me = me
        self.n_unseen = len(unseen)
        for i in range(self.n_unseen):
            self.unseen[i] = unseen[i]
        self.dealt = sum(needs)
        self.n_bottom = len(bottom)
        for i in range(self.n_bottom):
            self.bottom[i] = bottom[i]
        if self.dealt > self.n_unseen:
            raise ValueError("the view is inconsistent: too few unseen cards for the hands")
        self.read = read
        self.pool_size = pool
        self.n_decisions = min(len(decisions), 64)
        for i in range(self.n_decisions):
            seat, dfloor, lone, card, take, later = decisions[i]
            self.d_seat[i] = seat
            self.d_floor[i] = dfloor
            self.d_lone[i] = lone
            self.d_card[i] = card
            self.d_take[i] = take
            self.d_later[i] = later
        self.pool_built = False
        self.belief_on = False
        rng_seed(&self.rng, seed)

    def set_belief(self, list weights, int sweeps=2, int burn=50):
        """Draw the hidden cards from the learned belief from now on (mirror of
        ``Sampler.set_belief``).

        ``weights[c]`` gives card ``c``'s log weight for each place (seats 0-3, then 4
        the stock), read for the unseen cards only. Deals are drawn from the
        distribution proportional to the product of the weights of where each unseen
        card lies, hand sizes fixed, by a Metropolis chain of swaps of two cards'
        places: ``sweeps`` times as many proposals as unseen cards between two
        draws, after ``burn`` sweeps from a random deal. A sweep proposes, as many
        times as the hands hold unseen cards, to swap a card in a hand (drawn at
        random) with a card elsewhere (drawn at random): a symmetric proposal.
        """
        cdef int i, k, seat, pos = 0, card
        cdef int order[52]
        for i in range(self.n_unseen):
            card = self.unseen[i]
            row = weights[card]
            for k in range(5):
                self.b_lw[i][k] = row[k]
            order[i] = i
        for i in range(self.n_unseen):  # a random deal to start from
            k = i + rng_below(&self.rng, self.n_unseen - i)
            order[i], order[k] = order[k], order[i]
        for seat in range(self.base.players):
            for k in range(self.needs[seat]):
                self.b_loc[order[pos]] = seat
                self.b_held[pos] = order[pos]
                self.b_slot[order[pos]] = pos
                pos += 1
        while pos < self.n_unseen:
            self.b_loc[order[pos]] = 4
            self.b_slot[order[pos]] = -1
            pos += 1
        k = 1 if self.dealt < self.n_unseen else 0
        for seat in range(self.base.players):
            if self.needs[seat]:
                k += 1
        self.b_moves = k >= 2
        self.belief_on = True
        self.belief_sweeps = sweeps
        self.belief_walk(burn)

    cdef void belief_walk(self, int sweeps) noexcept nogil:
        """Metropolis proposals (``sweeps`` times as many as the hands hold unseen cards):
        swap the places of a card in a hand and a card elsewhere."""
        cdef int step, i, j, a, b, si, sj
        cdef double delta
        if not self.b_moves:
            return  # every unseen card lies in one place
        for step in range(sweeps * self.dealt):
            i = self.b_held[rng_below(&self.rng, self.dealt)]
            a = self.b_loc[i]
            j = rng_below(&self.rng, self.n_unseen)
            while self.b_loc[j] == a:
                j = rng_below(&self.rng, self.n_unseen)
            b = self.b_loc[j]
            delta = self.b_lw[i][b] + self.b_lw[j][a] - self.b_lw[i][a] - self.b_lw[j][b]
            if delta >= 0.0 or rng_uniform(&self.rng) < exp(delta):
                self.b_loc[i] = b
                self.b_loc[j] = a
                si = self.b_slot[i]
                sj = self.b_slot[j]
                self.b_slot[i] = sj
                self.b_slot[j] = si
                self.b_held[si] = j
                if sj >= 0:
                    self.b_held[sj] = i

    def location_probabilities(self, int pool=0):
        """Each card's chance of being in each seat's hand, or the stock (index 4), as the
        sampler deals: ``[[p_seat0, ..., p_seat3, p_stock] for card 0-51]`` (0 for a card
        that is not hidden). With hand reading, from a pool of ``pool`` weighted deals
        (the reading's own pool when 0); with the belief, from ``pool`` draws of its chain;
        otherwise the shares of a random deal. For measuring the samplers."""
        cdef int p, i, seat, card
        cdef double weight, total = 0.0
        cdef mask_t hands[4]
        cdef Sim s
        out = [[0.0] * 5 for _ in range(52)]
        if self.belief_on:
            for p in range(max(pool, 1)):
                self.sample(&s)
                for i in range(self.n_unseen):
                    card = self.unseen[i]
                    out[card][self.b_loc[i]] += 1.0
            total = max(pool, 1)
        elif self.n_decisions and self.read > 0:
            if pool:
                self.pool_size = pool
                free(self.pool)
                free(self.cumulative)
                self.pool = NULL
                self.cumulative = NULL
                self.pool_built = False
            if not self.pool_built:
                self.build_pool()
            for p in range(self.pool_size):
                weight = self.cumulative[p] - (self.cumulative[p - 1] if p else 0.0)
                total += weight
                for seat in range(self.base.players):
                    for i in range(self.n_unseen):
                        card = self.unseen[i]
                        if self.pool[4 * p + seat] >> card & 1 and not (self.base.hands[seat] >> card & 1):
                            out[card][seat] += weight
        else:
            for i in range(self.n_unseen):
                card = self.unseen[i]
                for seat in range(self.base.players):
                    out[card][seat] = self.needs[seat]
            total = self.n_unseen
        for i in range(self.n_unseen):
            card = self.unseen[i]
            for seat in range(4):
                out[card][seat] /= total
            if not self.belief_on:
                out[card][4] = 1.0 - sum(out[card][:4])
            else:
                out[card][4] /= total
        return out

    cdef void deal_hands(self, mask_t* hands) noexcept nogil:
        """Known cards plus unseen ones at random (mirror of ``Unseen.hands``)."""
        cdef int cards[52]
        cdef int i, j, t, seat, pos = 0, k
        memcpy(cards, self.unseen, self.n_unseen * sizeof(int))
        for i in range(self.dealt):  # a partial Fisher-Yates: the first `dealt` are the sample
            j = i + rng_below(&self.rng, self.n_unseen - i)
            t = cards[i]
            cards[i] = cards[j]
            cards[j] = t
        for seat in range(self.base.players):
            hands[seat] = self.base.hands[seat]
            for k in range(self.needs[seat]):
                hands[seat] |= (<mask_t>1) << cards[pos]
                pos += 1

    cdef double likelihood(self, mask_t hand, int d) noexcept:
        """Mirror of :func:`basra.bots.sim.likelihood` for decision ``d``."""
        cdef MoveBuf buf
        cdef double values[256]
        cdef double top = -1e300, total = 0.0, chosen = 0.0, weight
        cdef int i
        if gen_moves(self.base.r, hand, self.d_floor[d], &buf) < 0:
            return 1.0
        for i in range(buf.n):
            values[i] = policy_value_c(self.base.r, buf.cards[i], buf.takes[i], self.d_floor[d],
                                       self.d_lone[d])
            if values[i] > top:
                top = values[i]
        for i in range(buf.n):
            weight = exp(self.read * (values[i] - top))
            total += weight
            if buf.cards[i] == self.d_card[d] and buf.takes[i] == self.d_take[d]:
                chosen = weight
        return 0.98 * chosen / total + 0.02 / buf.n

    cdef int build_pool(self) except -1:
        """Mirror of ``Sampler._build_pool``: deals weighted by how well they explain the plays."""
        cdef int p, d
        cdef double weight, total = 0.0
        cdef mask_t held
        cdef mask_t* hands
        self.pool = <mask_t*>malloc(self.pool_size * 4 * sizeof(mask_t))
        self.cumulative = <double*>malloc(self.pool_size * sizeof(double))
        if self.pool == NULL or self.cumulative == NULL:
            raise MemoryError()
        for p in range(self.pool_size):
            hands = &self.pool[4 * p]
            self.deal_hands(hands)
            weight = 1.0
            for d in range(self.n_decisions):
                held = hands[self.d_seat[d]] | self.d_later[d] | ((<mask_t>1) << self.d_card[d])
                weight *= self.likelihood(held, d)
            total += weight
            self.cumulative[p] = total
        self.pool_built = True
        return 0

    cdef int sample(self, Sim* s) except -1:
        """A determinization: the hidden hands (read from the pool) and the stock."""
        cdef mask_t hands[4]
        cdef mask_t held = 0
        cdef double x
        cdef int lo, hi, mid, i, n = 0, seat
        if self.belief_on:
            self.belief_walk(self.belief_sweeps)
            for seat in range(self.base.players):
                hands[seat] = self.base.hands[seat]
            for i in range(self.n_unseen):
                if self.b_loc[i] < 4:
                    hands[self.b_loc[i]] |= (<mask_t>1) << self.unseen[i]
        elif self.n_decisions and self.read > 0:
            if not self.pool_built:
                self.build_pool()
            x = rng_uniform(&self.rng) * self.cumulative[self.pool_size - 1]
            lo = 0
            hi = self.pool_size - 1
            while lo < hi:   # the first cumulative weight above x
                mid = (lo + hi) // 2
                if self.cumulative[mid] > x:
                    hi = mid
                else:
                    lo = mid + 1
            memcpy(hands, &self.pool[4 * lo], 4 * sizeof(mask_t))
        else:
            self.deal_hands(hands)
        memcpy(&s.g, &self.base, sizeof(RoundC))
        for seat in range(s.g.players):
            s.g.hands[seat] = hands[seat]
            s.g.in_hands += s_popcount(hands[seat])
            if seat != self.me:
                held |= hands[seat]
        for i in range(self.n_unseen):
            if not (held >> self.unseen[i] & 1):
                s.g.stock[n] = self.unseen[i]
                n += 1
        s.unshuffled = n
        for i in range(self.n_bottom):
            s.g.stock[n] = self.bottom[i]
            n += 1
        s.g.stock_len = n
        s.g.stock_pos = 0
        s.deals = 0
        s.due = False
        s.done = False
        return 0

    def weights(self):
        """The pool's weights (for tests): empty when no hand is read."""
        cdef int p
        if not (self.n_decisions and self.read > 0):
            return []
        if not self.pool_built:
            self.build_pool()
        return [self.cumulative[p] - (self.cumulative[p - 1] if p else 0.0)
                for p in range(self.pool_size)]

    def sample_hands(self):
        """One sampled determinization's hands and stock (for tests)."""
        cdef Sim s
        self.sample(&s)
        return ([s.g.hands[i] for i in range(s.g.players)],
                [s.g.stock[i] for i in range(s.g.stock_len)])

    # ------------------------------------------------------------- the tree

    cdef int new_node(self, int card, mask_t take, int side) except -1:
        cdef Node* grown
        cdef Node* node
        if self.n_nodes == self.cap_nodes:
            self.cap_nodes = 1024 if self.cap_nodes == 0 else self.cap_nodes * 2
            grown = <Node*>realloc(self.nodes, self.cap_nodes * sizeof(Node))
            if grown == NULL:
                raise MemoryError()
            self.nodes = grown
        node = &self.nodes[self.n_nodes]
        node.card = card
        node.take = take
        node.side = side
        node.visits = 0
        node.avail = 1
        node.total = 0.0
        node.mtotal = 0.0
        node.first_child = -1
        node.next_sibling = -1
        self.n_nodes += 1
        return self.n_nodes - 1

    cdef inline int child_of(self, int parent, int card, mask_t take) noexcept nogil:
        cdef int c = self.nodes[parent].first_child
        while c >= 0:
            if self.nodes[c].card == card and self.nodes[c].take == take:
                return c
            c = self.nodes[c].next_sibling
        return -1

    cdef int add_child(self, int parent, int card, mask_t take, int side) except -1:
        cdef int c = self.new_node(card, take, side)
        self.nodes[c].next_sibling = self.nodes[parent].first_child
        self.nodes[parent].first_child = c
        return c

    def hidden(self):
        """How many cards are hidden from this seat in the hands and the stock (0: none)."""
        cdef int seat, holders = 0
        for seat in range(self.base.players):
            if self.needs[seat]:
                holders += 1
        if self.n_unseen == self.dealt and holders <= 1:
            return 0  # every unseen card is in the one hand that holds any
        return self.n_unseen

    def remaining(self):
        """The plays left in the round."""
        cdef int seat, held = 0
        for seat in range(self.base.players):
            held += s_popcount(self.base.hands[seat]) + self.needs[seat]
        return held + self.n_unseen - self.dealt + self.n_bottom

    def exact(self, int samples, double mu=0.5, long long node_limit=2000000,
              bint margins=False, int shape=1):
        """Each root move's reward, solved exactly in ``samples`` determinizations.

        With ``margins`` the values are the mover's side's round margins in points
        (its points less the mean of the other sides'), each side playing for its
        own margin: what the coach reports. With nothing hidden one determinization
        is the position itself. Returns ``([(card, take, samples, total), ...],
        samples)``, or ``None`` when a solve needs more than ``node_limit`` nodes.
        """
        cdef Sim s
        cdef RoundC child
        cdef MoveBuf buf
        cdef RewardC w
        cdef Solver sv
        cdef double totals[256]
        cdef int n, i, k, me_side
        if self.hidden() == 0:
            samples = 1
        reward_setup(&w, self.kr.rules, self.base.n_sides, mu, shape)
        sv.w = &w
        sv.margins = margins
        sv.pair = 0.0 if margins else 1.0
        sv.limit = node_limit
        sv.aborted = False
        self.sample(&s)
        gen_moves(s.g.r, s.g.hands[s.g.turn], s.g.floor, &buf)
        n = buf.n
        for i in range(n):
            totals[i] = 0.0
        me_side = s.g.side[s.g.turn]
        for k in range(samples):
            if k:
                self.sample(&s)
            for i in range(n):
                sv.nodes = 0
                memcpy(&child, &s.g, sizeof(RoundC))
                round_apply(&child, buf.cards[i], buf.takes[i])
                totals[i] += exact_value(&child, &sv, me_side)
                if sv.aborted:
                    return None
        return [(buf.cards[i], buf.takes[i], samples, totals[i]) for i in range(n)], samples

    def evaluate(self, int samples, double eps=0.1, int policy=2, seconds=None):
        """Each root move's round outcome, by flat Monte Carlo over determinizations.

        In each of ``samples`` determinizations every root move is played and
        the round is played out (the same random draws for every move: their
        differences are what matter), then scored; the outcome is the mover's
        side's point margin (its round points less the mean of the other
        sides'). Returns ``(moves, sums, cross, wins, done)``: the root moves
        as ``(card, take)``, the sum of each move's margins, the sums of
        products of every two moves' margins (row-major, for the errors of
        differences), the sum of each move's chance of winning the match
        from the scores after the round (the search's model, see ``Reward``),
        and the number of determinizations made (fewer when ``seconds`` runs
        out).
        """
        cdef Sim s, child
        cdef MoveBuf buf
        cdef Rng keep
        cdef double margins[256]
        cdef double* sums
        cdef double* cross
        cdef double wins[256]
        cdef double rewards[4]
        cdef double ends[4]
        cdef RewardC w
        cdef double others, value
        cdef int n, i, j, k, side, me_side, done = 0
        cdef double deadline = 0.0
        if seconds is not None:
            deadline = time.perf_counter() + seconds
        reward_setup(&w, self.kr.rules, self.base.n_sides, 1.0)
        self.sample(&s)
        gen_moves(s.g.r, s.g.hands[s.g.turn], s.g.floor, &buf)
        n = buf.n
        me_side = s.g.side[s.g.turn]
        sums = <double*>malloc(n * sizeof(double))
        cross = <double*>malloc(n * n * sizeof(double))
        if sums == NULL or cross == NULL:
            free(sums)
            free(cross)
            raise MemoryError()
        try:
            memset(sums, 0, n * sizeof(double))
            memset(cross, 0, n * n * sizeof(double))
            memset(wins, 0, n * sizeof(double))
            for k in range(samples):
                if seconds is not None and k and (k & 7) == 0 and time.perf_counter() > deadline:
                    break
                if k:
                    self.sample(&s)
                keep = self.rng
                for i in range(n):
                    self.rng = keep  # common random numbers: the same draws for every move
                    memcpy(&child, &s, sizeof(Sim))
                    sim_play(&child, &self.rng, buf.cards[i], buf.takes[i])
                    rollout(&child, &self.rng, eps, 0, 0, policy)
                    others = 0.0
                    for side in range(child.g.n_sides):
                        if side != me_side:
                            others += <double>child.result.points[side]
                    value = (<double>child.result.points[me_side]
                             - others / (child.g.n_sides - 1))
                    margins[i] = value
                    sums[i] += value
                    value_sim(&child, &w, rewards, ends)
                    wins[i] += rewards[me_side]
                for i in range(n):
                    for j in range(n):
                        cross[i * n + j] += margins[i] * margins[j]
                done += 1
            return ([(buf.cards[i], buf.takes[i]) for i in range(n)],
                    [sums[i] for i in range(n)],
                    [cross[i] for i in range(n * n)],
                    [wins[i] for i in range(n)],
                    done)
        finally:
            free(sums)
            free(cross)

    def run(self, iterations, seconds, double c=0.7, double eps=0.1, double mu=0.5,
            int horizon=1, int tail=0, int model=0, int policy=1, double floor=0.0,
            int forced_card=-1, mask_t forced_take=0, int depth=1, int shape=1):
        """ISMCTS from the root (mirror of :func:`basra.bots.ismcts.search`).

        The tree covers the rest of this deal and ``depth`` - 1 deals more
        (``horizon`` must reach as far). With ``forced_card`` >= 0 the root's move
        is that one (taking
        ``forced_take``): the search then values what follows it, for the
        analyser. ``shape`` is the reward's shape of the round margin (``Reward``).
        Returns ``([(card, take, visits, total, margins), ...] for the root's
        children, iterations)``: ``total`` sums the rewards the search compares,
        ``margins`` the mover's side's round margins in points (never clipped).
        """
        cdef Sim s
        cdef MoveBuf buf
        cdef RewardC w
        cdef double rewards[4]
        cdef double margins[4]
        cdef int path[64]
        cdef int n_path, node, child, i, me_side, side, chosen, other, n_untried, pick, root
        cdef int untried[256]
        cdef double best_value, value
        cdef long long limit = iterations if iterations is not None else (1 << 62)
        cdef long long done = 0
        cdef double deadline = 0.0
        reward_setup(&w, self.kr.rules, self.base.n_sides, mu, shape)
        if seconds is not None:
            deadline = time.perf_counter() + seconds
        self.n_nodes = 0
        root = self.new_node(-1, 0, -1)
        while done < limit:
            if seconds is not None and (done & 15) == 0 and time.perf_counter() > deadline:
                break
            done += 1
            self.sample(&s)
            me_side = s.g.side[s.g.turn]
            node = root
            n_path = 0
            while not s.done and s.deals < depth:
                sim_moves(&s, &self.rng, &buf)
                if forced_card >= 0 and node == root:
                    buf.cards[0] = forced_card
                    buf.takes[0] = forced_take
                    buf.n = 1
                side = s.g.side[s.g.turn]
                if model and side != me_side:
                    i = policy_index(&s, &buf, &self.rng, eps)
                    child = self.child_of(node, buf.cards[i], buf.takes[i])
                    if child < 0:
                        child = self.add_child(node, buf.cards[i], buf.takes[i], side)
                    sim_play(&s, &self.rng, buf.cards[i], buf.takes[i])
                    node = child
                    continue
                n_untried = 0
                for i in range(buf.n):
                    if self.child_of(node, buf.cards[i], buf.takes[i]) < 0:
                        untried[n_untried] = i
                        n_untried += 1
                if n_untried:
                    pick = untried[rng_below(&self.rng, n_untried)]
                    child = self.add_child(node, buf.cards[pick], buf.takes[pick], side)
                    for i in range(buf.n):
                        other = self.child_of(node, buf.cards[i], buf.takes[i])
                        if other >= 0 and other != child:
                            self.nodes[other].avail += 1
                    sim_play(&s, &self.rng, buf.cards[pick], buf.takes[pick])
                    path[n_path] = child
                    n_path += 1
                    break
                best_value = -1e300
                chosen = -1
                for i in range(buf.n):
                    other = self.child_of(node, buf.cards[i], buf.takes[i])
                    self.nodes[other].avail += 1
                    value = (self.nodes[other].total / self.nodes[other].visits
                             + c * sqrt(log(self.nodes[other].avail) / self.nodes[other].visits))
                    if value > best_value:
                        best_value = value
                        chosen = other
                node = chosen
                sim_play(&s, &self.rng, self.nodes[node].card, self.nodes[node].take)
                path[n_path] = node
                n_path += 1
            rollout(&s, &self.rng, eps, horizon, tail, policy)
            value_sim(&s, &w, rewards, margins, floor)
            for i in range(n_path):
                self.nodes[path[i]].visits += 1
                self.nodes[path[i]].total += rewards[self.nodes[path[i]].side]
                self.nodes[path[i]].mtotal += margins[self.nodes[path[i]].side]
        out = []
        child = self.nodes[root].first_child
        while child >= 0:
            out.append((self.nodes[child].card, self.nodes[child].take,
                        self.nodes[child].visits, self.nodes[child].total,
                        self.nodes[child].mtotal))
            child = self.nodes[child].next_sibling
        return out, done

