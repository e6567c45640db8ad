# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, nonecheck=False, embedsignature=True
"""Many Basra games stepped at once in C: the engine of :func:`basra.env.vector_env`.

One :class:`VecCore` holds ``num_envs`` games, each with one learning seat
against opponents that play in C (``random``: a uniformly random legal move;
``policy``: the search's playout policy, ``policy_value_c``). A step plays each
env's action, lets the opponents play (dealing and ending rounds and games on
the way) up to the learning seat's next turn, and writes the observation, the
action mask, the reward and the episode flags into arrays the caller
allocated once (:mod:`basra.env.vector` makes them and wraps this class in a
Gymnasium ``VectorEnv``).

Nothing here defines a rule. A play is the kernel's one transition
(``round_apply``, ``round_deal_next``, ``round_finish``, ``round_deal`` of
:mod:`basra._kernel`), the end of a game mirrors
:meth:`basra.state.GameState._end_round`, the rewards mirror
:mod:`basra.env.table` and :class:`basra.env.gym.BasraGymEnv` (summed in the
same order, so they are equal to the last bit), and the observation mirrors
:meth:`basra.env.observation.ObservationEncoder.encode`: the layout (every
block's offset) and the constant part come from the Python encoder, and
``tests/test_env_vector.py`` checks every value of both encoders and both
environments against each other. The encoder reads the learning seat's hand
and public information only: the other hands enter as their sizes and as the
re-buried cards dealt to them, which every seat saw (:func:`basra.view.view_of`).
"""

from libc.stdint cimport uint64_t, int64_t, uint8_t, int8_t
from libc.string cimport memset, memcpy
from libc.stdlib cimport malloc, calloc, free, realloc

from basra._kernel cimport (
    mask_t, RulesC, KRules, krules, MoveBuf, RoundC, ScoreC, Rng,
    gen_moves, basra_code, round_apply, round_deal_next, round_finish, round_deal,
    round_table, policy_value_c, rng_seed, rng_uniform, rng_below, rng_shuffle,
)

cdef extern from *:
    """
    static inline int v_popcount(unsigned long long x) { return __builtin_popcountll(x); }
    static inline int v_ctz(unsigned long long x) { return __builtin_ctzll(x); }
    """
    int v_popcount(unsigned long long x) nogil
    int v_ctz(unsigned long long x) nogil


cdef enum:
    PHASE_DEAL = 0
    PHASE_PLAY = 1
    PHASE_OVER = 2
    OPP_RANDOM = 0
    OPP_POLICY = 1
    REWARD_WIN = 0
    REWARD_POINTS = 1
    REWARD_DENSE = 2
    # what a step did to an env
    GOING = 0
    TERMINATED = 1
    TRUNCATED = 2
    ILLEGAL = 3
    # autoreset modes
    NEXT_STEP = 0
    SAME_STEP = 1
    DISABLED = 2

OPPONENT_KINDS = {"random": OPP_RANDOM, "policy": OPP_POLICY}
REWARD_KINDS = {"win": REWARD_WIN, "points": REWARD_POINTS, "dense": REWARD_DENSE}
AUTORESET_MODES = {"NextStep": NEXT_STEP, "SameStep": SAME_STEP, "Disabled": DISABLED}

LAYOUT_BLOCKS = (
    "hand", "floor", "captured", "known", "stock_bottom", "unseen", "last_card", "last_take",
    "phase", "turn", "my_turn", "dealer", "last_player", "lone_trail", "last_capture",
    "last_play_of_round", "hand_sizes", "stock_size", "basras", "basra_points", "scores",
    "carry", "take_size", "take_points",
)
"""The blocks of the observation this module writes (their offsets come from the encoder)."""


# Where each block of the observation starts (ObservationEncoder.slice(name).start).
cdef struct Layout:
    int hand, floor, captured, known, stock_bottom, unseen, last_card, last_take
    int phase, turn, my_turn, dealer, last_player, lone_trail, last_capture
    int last_play_of_round, hand_sizes, stock_size, basras, basra_points, scores
    int carry, take_size, take_points
    int size


# One game: its round in the kernel's RoundC plus what a GameState keeps around it.
cdef struct EnvC:
    RoundC g                     # the round; g.scores and g.carry are the game's
    Rng rng                      # deals, seats and the opponents' choices
    Rng sampler                  # sample_actions() only, so sampling never changes a game
    int seat                     # the learning seat
    int first_dealer
    int dealer
    int rounds                   # rounds dealt this episode
    int phase
    int winner                   # the winning side once the game is over, -1: a draw
    bint done                    # the episode has ended (NEXT_STEP: reset at the next step)
    mask_t buried                # cards re-buried at this round's deal
    mask_t stock_mask            # the cards still in the stock
    mask_t gone                  # cards out of play (positions built by hand only)
    int last_seat                # the round's last play (-1: none yet)
    int last_card
    mask_t last_take
    int64_t round_points[4]      # the last finished round's points per side
    int64_t so_far[4]            # "dense": each side's points of this round credited so far
    double pending               # reward the opponents scored before the first agent step
    int opp_kind[4]              # per seat (the learning seat's entry is unused)
    double opp_eps[4]
    MoveBuf moves                # the learning seat's legal moves (n = 0 when it is not to move)
    # the episode's record, for game(): its packs and every play's card and take
    int8_t* packs
    int packs_cap
    int8_t* play_cards
    uint64_t* play_takes
    int n_plays
    int plays_cap


cdef inline void set_bits(float* out, mask_t mask) noexcept nogil:
    while mask:
        out[v_ctz(mask)] = 1.0
        mask &= mask - 1


cdef inline float unit(double x) noexcept nogil:
    """``min(x, 1.0)`` as float32, as the Python encoder rounds it."""
    return <float>(x if x < 1.0 else 1.0)


cdef inline int64_t card_points(const RulesC* r, mask_t cards) noexcept nogil:
    cdef int64_t total = 0
    while cards:
        total += r.card_points[v_ctz(cards)]
        cards &= cards - 1
    return total


cdef inline bint is_last_play(const RoundC* g) noexcept nogil:
    return g.in_hands == 1 and g.stock_pos == g.stock_len


cdef mask_t stock_left(const RoundC* g) noexcept nogil:
    cdef mask_t m = 0
    cdef int i
    for i in range(g.stock_pos, g.stock_len):
        m |= (<mask_t>1) << g.stock[i]
    return m


cdef class VecCore:
    """``num_envs`` games of one table stepped together (see the module docstring).

    The arrays are the caller's and are written in place: ``obs`` (float32,
    ``(num_envs, size)``), ``final_obs`` (the same shape: the last observation
    of episodes that ended in a SAME_STEP step), ``mask`` (uint8 view of the
    bool action masks, ``(num_envs, actions)``), ``rewards`` (float64),
    ``terminations``, ``truncations`` and ``illegal`` (uint8 views of bool
    arrays), ``seats`` (int64, the learning seat of each env). ``template`` is
    the encoder's constant part; ``layout`` maps block names to offsets.
    """

    cdef KRules kr
    cdef const RulesC* r
    cdef EnvC* envs
    cdef readonly int num_envs
    cdef int players
    cdef bint teams
    cdef int sides
    cdef int n_actions
    cdef int fixed_seat                  # -1: a random seat every episode
    cdef int n_opp
    cdef int opp_kind[3]
    cdef double opp_eps[3]
    cdef bint episode_round
    cdef int reward_kind
    cdef int max_rounds
    cdef double illegal_reward
    cdef int autoreset
    cdef mask_t pack_mask
    cdef Layout L
    cdef float[::1] template
    cdef float[:, ::1] obs
    cdef float[:, ::1] final_obs
    cdef uint8_t[:, ::1] mask
    cdef double[::1] rewards
    cdef uint8_t[::1] terminations
    cdef uint8_t[::1] truncations
    cdef uint8_t[::1] illegal
    cdef int64_t[::1] seats

    def __cinit__(self, *args, **kwargs):
        self.envs = NULL
        self.num_envs = 0

    def __init__(self, rules, int num_envs, int players, bint teams, *, seat, opponents,
                 bint episode_round, str reward, int max_rounds, double illegal_reward,
                 str autoreset, dict layout, float[::1] template, float[:, ::1] obs,
                 float[:, ::1] final_obs, uint8_t[:, ::1] mask, double[::1] rewards,
                 uint8_t[::1] terminations, uint8_t[::1] truncations, uint8_t[::1] illegal,
                 int64_t[::1] seats):
        cdef int i
        if num_envs < 1:
            raise ValueError("num_envs must be at least 1")
        self.kr = krules(rules)
        self.r = &self.kr.c
        self.players = players
        self.teams = teams
        self.sides = 2 if teams else players
        self.n_actions = mask.shape[1]
        self.fixed_seat = -1 if seat is None else seat
        self.n_opp = min(len(opponents), 3)
        for i in range(self.n_opp):
            kind, eps = opponents[i]
            self.opp_kind[i] = OPPONENT_KINDS[kind]
            self.opp_eps[i] = eps
        self.episode_round = episode_round
        self.reward_kind = REWARD_KINDS[reward]
        self.max_rounds = max_rounds
        self.illegal_reward = illegal_reward
        self.autoreset = AUTORESET_MODES[autoreset]
        self.pack_mask = ((<mask_t>1) << self.r.pack) - 1
        self._set_layout(layout)
        if template.shape[0] != self.L.size or obs.shape[1] != self.L.size:
            raise ValueError("the observation arrays do not match the layout")
        if (obs.shape[0] != num_envs or final_obs.shape[0] != num_envs
                or final_obs.shape[1] != self.L.size or mask.shape[0] != num_envs
                or rewards.shape[0] != num_envs or terminations.shape[0] != num_envs
                or truncations.shape[0] != num_envs or illegal.shape[0] != num_envs
                or seats.shape[0] != num_envs):
            raise ValueError("the arrays must have num_envs rows")
        self.template = template
        self.obs = obs
        self.final_obs = final_obs
        self.mask = mask
        self.rewards = rewards
        self.terminations = terminations
        self.truncations = truncations
        self.illegal = illegal
        self.seats = seats
        self.envs = <EnvC*>calloc(num_envs, sizeof(EnvC))
        if self.envs == NULL:
            raise MemoryError()
        self.num_envs = num_envs
        for i in range(num_envs):
            round_table(&self.envs[i].g, self.r, players, teams)
            self.envs[i].done = True

    def __dealloc__(self):
        cdef int i
        if self.envs != NULL:
            for i in range(self.num_envs):
                free(self.envs[i].packs)
                free(self.envs[i].play_cards)
                free(self.envs[i].play_takes)
            free(self.envs)
            self.envs = NULL

    cdef _set_layout(self, dict layout):
        L = &self.L
        L.hand = layout["hand"]
        L.floor = layout["floor"]
        L.captured = layout["captured"]
        L.known = layout["known"]
        L.stock_bottom = layout["stock_bottom"]
        L.unseen = layout["unseen"]
        L.last_card = layout["last_card"]
        L.last_take = layout["last_take"]
        L.phase = layout["phase"]
        L.turn = layout["turn"]
        L.my_turn = layout["my_turn"]
        L.dealer = layout["dealer"]
        L.last_player = layout["last_player"]
        L.lone_trail = layout["lone_trail"]
        L.last_capture = layout["last_capture"]
        L.last_play_of_round = layout["last_play_of_round"]
        L.hand_sizes = layout["hand_sizes"]
        L.stock_size = layout["stock_size"]
        L.basras = layout["basras"]
        L.basra_points = layout["basra_points"]
        L.scores = layout["scores"]
        L.carry = layout["carry"]
        L.take_size = layout["take_size"]
        L.take_points = layout["take_points"]
        L.size = layout["size"]

    # ------------------------------------------------------------- seeding

    def seed(self, int i, uint64_t seed):
        """Seed env ``i``'s generators (its games, and :meth:`sample_actions`' draws)."""
        self._check(i)
        rng_seed(&self.envs[i].rng, seed)
        rng_seed(&self.envs[i].sampler, seed ^ <uint64_t>0xA5A5A5A5DEADBEEF)

    cdef _check(self, int i):
        if not 0 <= i < self.num_envs:
            raise IndexError(f"env index must be from 0 to {self.num_envs - 1}, not {i}")

    # ------------------------------------------------------------- the record

    cdef int log_pack(self, EnvC* e, const int* pack) except -1:
        cdef int need = (e.rounds + 1) * 52, i
        cdef int8_t* grown
        if need > e.packs_cap:
            grown = <int8_t*>realloc(e.packs, max(need, 2 * e.packs_cap) * sizeof(int8_t))
            if grown == NULL:
                raise MemoryError()
            e.packs = grown
            e.packs_cap = max(need, 2 * e.packs_cap)
        for i in range(self.r.pack):
            e.packs[e.rounds * 52 + i] = <int8_t>pack[i]
        return 0

    cdef int log_play(self, EnvC* e, int card, mask_t take) except -1:
        cdef int cap
        cdef int8_t* cards
        cdef uint64_t* takes
        if e.n_plays == e.plays_cap:
            cap = 64 if e.plays_cap == 0 else 2 * e.plays_cap
            cards = <int8_t*>realloc(e.play_cards, cap * sizeof(int8_t))
            if cards == NULL:
                raise MemoryError()
            e.play_cards = cards
            takes = <uint64_t*>realloc(e.play_takes, cap * sizeof(uint64_t))
            if takes == NULL:
                raise MemoryError()
            e.play_takes = takes
            e.plays_cap = cap
        e.play_cards[e.n_plays] = <int8_t>card
        e.play_takes[e.n_plays] = take
        e.n_plays += 1
        return 0

    def record(self, int i):
        """Env ``i``'s episode so far: (first dealer, the packs dealt, the plays as (card, take)).

        :func:`basra.env.vector` replays it into a :class:`basra.state.GameState`.
        """
        cdef EnvC* e
        cdef int k, j
        self._check(i)
        e = &self.envs[i]
        packs = [[int(e.packs[k * 52 + j]) for j in range(self.r.pack)] for k in range(e.rounds)]
        plays = [(int(e.play_cards[k]), int(e.play_takes[k])) for k in range(e.n_plays)]
        return e.first_dealer, packs, plays

    # ------------------------------------------------------------- the game

    cdef int deal(self, EnvC* e) except -1:
        """The next round: a shuffled pack dealt by the canonical procedure (GameState.deal)."""
        cdef int pack[52]
        cdef int buried[64]
        cdef int i, count
        cdef RoundC* g = &e.g
        for i in range(self.r.pack):
            pack[i] = i
        rng_shuffle(&e.rng, pack, self.r.pack)
        self.log_pack(e, pack)
        e.dealer = (e.first_dealer + e.rounds) % self.players
        count = round_deal(g, pack, e.dealer, buried)
        e.buried = 0
        for i in range(count):
            e.buried |= (<mask_t>1) << buried[i]
        e.stock_mask = stock_left(g)
        e.rounds += 1
        e.phase = PHASE_PLAY
        e.last_seat = -1
        for i in range(4):
            e.so_far[i] = 0
        return 0

    cdef int end_round(self, EnvC* e) except -1:
        """Mirror of GameState._end_round: leftovers, scoring, the end of the game."""
        cdef ScoreC score
        cdef RoundC* g = &e.g
        cdef int side, leaders = 0, leader = 0
        cdef int64_t top
        round_finish(g, &score)
        for side in range(g.n_sides):
            g.scores[side] = score.score[side]
            e.round_points[side] = score.points[side]
        g.carry = score.carry
        e.phase = PHASE_DEAL
        top = g.scores[0]
        for side in range(1, g.n_sides):
            if g.scores[side] > top:
                top = g.scores[side]
        if top >= self.r.target:
            for side in range(g.n_sides):
                if g.scores[side] == top:
                    leaders += 1
                    leader = side
            if leaders == 1:
                e.winner = leader
                e.phase = PHASE_OVER
            elif self.r.end_tie_draw:
                e.winner = -1
                e.phase = PHASE_OVER
        return 0

    cdef int play(self, EnvC* e, int card, mask_t take) except -1:
        """The seat to move plays (the kernel's transition), then deals or ends the round."""
        cdef RoundC* g = &e.g
        e.last_seat = g.turn
        e.last_card = card
        e.last_take = take
        self.log_play(e, card, take)
        round_apply(g, card, take)
        if g.in_hands == 0:
            if g.stock_pos < g.stock_len:
                round_deal_next(g)
                e.stock_mask = stock_left(g)
            else:
                self.end_round(e)
        return 0

    cdef double dense(self, EnvC* e) noexcept:
        """Mirror of PointLedger.rewards for the learning seat ("dense" rewards, else 0)."""
        cdef RoundC* g = &e.g
        cdef int64_t now, total = 0
        cdef int64_t delta[4]
        cdef int side
        if self.reward_kind != REWARD_DENSE:
            return 0.0
        for side in range(g.n_sides):
            if e.phase == PHASE_PLAY:
                now = card_points(self.r, g.piles[side]) + g.basra_pts[side]
            else:
                now = e.round_points[side]
            delta[side] = now - e.so_far[side]
            e.so_far[side] = now
            total += delta[side]
        return <double>delta[g.side[e.seat]] - <double>total / <double>g.n_sides

    cdef int opponent_move(self, EnvC* e, int* card, mask_t* take) except -1:
        cdef RoundC* g = &e.g
        cdef MoveBuf buf
        cdef int seat = g.turn, i, best_i = 0
        cdef double value, best = -1e300
        cdef bint lone
        gen_moves(self.r, g.hands[seat], g.floor, &buf)
        if buf.n == 1:
            best_i = 0
        elif e.opp_kind[seat] == OPP_RANDOM:
            best_i = rng_below(&e.rng, buf.n)
        elif e.opp_eps[seat] > 0 and rng_uniform(&e.rng) < e.opp_eps[seat]:
            best_i = rng_below(&e.rng, buf.n)
        else:
            # the search's playout policy (basra.bots.ismcts.rollout), ties broken at random
            lone = g.lone_last & 1
            for i in range(buf.n):
                value = (policy_value_c(self.r, buf.cards[i], buf.takes[i], g.floor, lone)
                         + rng_uniform(&e.rng) * 0.01)
                if value > best:
                    best = value
                    best_i = i
        card[0] = buf.cards[best_i]
        take[0] = buf.takes[best_i]
        return 0

    cdef int play_on(self, EnvC* e, double* more) except -1:
        """Mirror of BasraGymEnv._play_bots: opponents play and rounds are dealt until the
        learning seat is to move (GOING) or the episode ends (TERMINATED, TRUNCATED).
        Rewards are added to ``more`` in the Python environment's order."""
        cdef RoundC* g = &e.g
        cdef int card, side, me = e.seat
        cdef mask_t take
        cdef int64_t total
        cdef bint over
        cdef double reward
        while True:
            if e.phase == PHASE_PLAY:
                if g.turn == me:
                    gen_moves(self.r, g.hands[me], g.floor, &e.moves)
                    return GOING
                self.opponent_move(e, &card, &take)
                self.play(e, card, take)
                more[0] += self.dense(e)
                continue
            if self.reward_kind == REWARD_POINTS:
                total = 0
                for side in range(g.n_sides):
                    total += e.round_points[side]
                more[0] += (<double>e.round_points[g.side[me]]
                            - <double>total / <double>g.n_sides)
            over = e.phase == PHASE_OVER or self.episode_round
            if not over and e.rounds < self.max_rounds:
                self.deal(e)
                continue
            e.done = True
            e.moves.n = 0
            if over and self.reward_kind == REWARD_WIN:
                more[0] += self.win_reward(e)
            return TERMINATED if over else TRUNCATED

    cdef double win_reward(self, EnvC* e) noexcept:
        """Mirror of win_rewards(episode_winner(...)) for the learning seat."""
        cdef RoundC* g = &e.g
        cdef int winner = -1, side, leaders = 0
        cdef int64_t top
        if self.episode_round:
            # round_winner: the side with the most round points, None when shared
            top = e.round_points[0]
            for side in range(1, g.n_sides):
                if e.round_points[side] > top:
                    top = e.round_points[side]
            for side in range(g.n_sides):
                if e.round_points[side] == top:
                    leaders += 1
                    winner = side
            if leaders != 1:
                winner = -1
        else:
            winner = e.winner
        if winner < 0:
            return 0.0
        if g.side[e.seat] == winner:
            return 1.0
        return -1.0 / (self.sides - 1)

    cdef int reset_env(self, EnvC* e) except -1:
        """A new episode (mirror of BasraGymEnv.reset): seat, opponents, first deal, and the
        opponents' plays up to the learning seat's first turn."""
        cdef int k, seat, side, n = self.players
        cdef double more = 0.0
        e.seat = self.fixed_seat if self.fixed_seat >= 0 else rng_below(&e.rng, n)
        for k in range(1, n):
            seat = (e.seat + k) % n
            e.opp_kind[seat] = self.opp_kind[(k - 1) % self.n_opp]
            e.opp_eps[seat] = self.opp_eps[(k - 1) % self.n_opp]
        e.first_dealer = rng_below(&e.rng, n)
        e.rounds = 0
        e.n_plays = 0
        e.winner = -1
        e.done = False
        e.gone = 0
        for side in range(4):
            e.g.scores[side] = 0
        e.g.carry = 0
        self.deal(e)
        self.play_on(e, &more)
        e.pending = more
        return 0

    cdef int step_env(self, EnvC* e, int64_t action, double* reward) except -1:
        """Mirror of BasraGymEnv.step; returns GOING, TERMINATED, TRUNCATED or ILLEGAL."""
        cdef int card, option, i, k = 0, status
        cdef mask_t take = 0
        cdef bint found = False
        cdef double own, more = 0.0
        if 0 <= action < self.n_actions:
            card = <int>(action % 52)
            option = <int>(action // 52)
            for i in range(e.moves.n):
                if e.moves.cards[i] == card:
                    if k == option:
                        take = e.moves.takes[i]
                        found = True
                        break
                    k += 1
        if not found:
            e.done = True
            e.moves.n = 0
            reward[0] = self.illegal_reward
            return ILLEGAL
        self.play(e, card, take)
        own = e.pending + self.dense(e)
        e.pending = 0.0
        status = self.play_on(e, &more)
        reward[0] = own + more
        return status

    # ------------------------------------------------------------- writing

    cdef void write_mask(self, EnvC* e, uint8_t* out) noexcept:
        cdef int i, previous = -1, option = 0, card
        memset(out, 0, self.n_actions)
        for i in range(e.moves.n):
            card = e.moves.cards[i]
            option = option + 1 if card == previous else 0
            previous = card
            out[option * 52 + card] = 1

    cdef int encode(self, EnvC* e, float* out) except -1:
        """Mirror of ObservationEncoder.encode(view_of(game, e.seat))."""
        cdef const RulesC* r = self.r
        cdef const Layout* L = &self.L
        cdef const RoundC* g = &e.g
        cdef int n = self.players, ns = g.n_sides, me = e.seat, my_side = g.side[me]
        cdef int k, seat, side, previous, card, code
        cdef mask_t hand = g.hands[me], located, known, bottom, take, rest
        cdef int64_t points, target = r.target
        cdef bint last, lone = g.lone_last & 1
        cdef MoveBuf local
        cdef const MoveBuf* buf = &e.moves
        memcpy(out, &self.template[0], L.size * sizeof(float))
        set_bits(out + L.hand, hand)
        set_bits(out + L.floor, g.floor)
        located = g.floor | e.gone | hand
        for k in range(ns):
            side = (my_side + k) % ns
            set_bits(out + L.captured + 52 * k, g.piles[side])
            located |= g.piles[side]
        for k in range(1, n):
            # the re-buried cards dealt to that seat: everyone saw them turned up
            known = g.hands[(me + k) % n] & e.buried
            set_bits(out + L.known + 52 * (k - 1), known)
            located |= known
        bottom = e.buried & e.stock_mask
        set_bits(out + L.stock_bottom, bottom)
        located |= bottom
        set_bits(out + L.unseen, self.pack_mask & ~located)
        if e.last_seat >= 0:
            out[L.last_card + e.last_card] = 1.0
            set_bits(out + L.last_take, e.last_take)
            out[L.last_player + (e.last_seat - me + n) % n] = 1.0
        last = is_last_play(g)
        if e.phase == PHASE_PLAY:
            out[L.phase + 1] = 1.0
            k = (g.turn - me + n) % n
            out[L.turn + k] = 1.0
            if k == 0:
                out[L.my_turn] = 1.0
            if last:
                out[L.last_play_of_round] = 1.0
        else:
            out[L.phase + (0 if e.phase == PHASE_DEAL else 2)] = 1.0
        out[L.dealer + (e.dealer - me + n) % n] = 1.0
        if lone:
            out[L.lone_trail] = 1.0
        if g.lone_last > 1:
            out[L.last_capture + ((g.lone_last >> 1) - 1 - my_side + ns) % ns] = 1.0
        for k in range(n):
            out[L.hand_sizes + k] = <float>(v_popcount(g.hands[(me + k) % n]) / 6.0)
        out[L.stock_size] = <float>((g.stock_len - g.stock_pos) / 52.0)
        for k in range(ns):
            side = (my_side + k) % ns
            out[L.basras + k] = unit(g.basras[side] / 10.0)
            out[L.basra_points + k] = unit(<double>g.basra_pts[side] / <double>target)
            out[L.scores + k] = unit(<double>g.scores[side] / <double>target)
        out[L.carry] = unit(<double>g.carry / <double>target)
        # the preview: option 0 of each card in hand (ObservationEncoder._preview)
        if hand:
            if not (e.phase == PHASE_PLAY and g.turn == me and e.moves.n):
                gen_moves(r, hand, g.floor, &local)
                buf = &local
            previous = -1
            for k in range(buf.n):
                card = buf.cards[k]
                take = buf.takes[k]
                if card == previous or not take:
                    previous = card
                    continue
                previous = card
                points = card_points(r, take | ((<mask_t>1) << card))
                if take == g.floor and not (last and not r.basra_on_last_play):
                    code = basra_code(r, card, g.floor, lone)
                    points += r.basra_value[code]
                out[L.take_size + card] = unit(v_popcount(take) / 10.0)
                out[L.take_points + card] = unit(points / 20.0)
        return 0

    cdef int write(self, int i) except -1:
        cdef EnvC* e = &self.envs[i]
        self.encode(e, &self.obs[i, 0])
        self.write_mask(e, &self.mask[i, 0])
        self.seats[i] = e.seat
        return 0

    # ------------------------------------------------------------- the batch

    def reset(self, const uint8_t[::1] which):
        """Start a new episode in every env where ``which`` is nonzero and write its row."""
        cdef int i
        for i in range(self.num_envs):
            if which[i]:
                self.reset_env(&self.envs[i])
                self.rewards[i] = 0.0
                self.terminations[i] = 0
                self.truncations[i] = 0
                self.illegal[i] = 0
                self.write(i)

    def step(self, const int64_t[::1] actions):
        """Step every env; returns (episodes ended, illegal actions) in this step.

        NEXT_STEP: an env whose episode ended in the previous step is reset
        instead (its action ignored, reward 0). SAME_STEP: an env whose episode
        ends is reset at once and its last observation is in ``final_obs``.
        DISABLED: stepping an env whose episode ended is an error.
        """
        cdef int i, status, ended = 0, illegal = 0
        cdef EnvC* e
        cdef double reward
        if actions.shape[0] != self.num_envs:
            raise ValueError(f"expected {self.num_envs} actions, got {actions.shape[0]}")
        if self.autoreset == DISABLED:
            for i in range(self.num_envs):
                if self.envs[i].done:
                    raise RuntimeError(
                        f"env {i}'s episode is over: reset it first "
                        "(reset(options={'reset_mask': ...}))"
                    )
        for i in range(self.num_envs):
            e = &self.envs[i]
            self.illegal[i] = 0
            if e.done:   # NEXT_STEP: the episode ended last step
                self.reset_env(e)
                self.rewards[i] = 0.0
                self.terminations[i] = 0
                self.truncations[i] = 0
                self.write(i)
                continue
            reward = 0.0
            status = self.step_env(e, actions[i], &reward)
            self.rewards[i] = reward
            self.terminations[i] = status == TERMINATED or status == ILLEGAL
            self.truncations[i] = status == TRUNCATED
            if status == ILLEGAL:
                self.illegal[i] = 1
                illegal += 1
            self.write(i)
            if status != GOING:
                ended += 1
                if self.autoreset == SAME_STEP:
                    memcpy(&self.final_obs[i, 0], &self.obs[i, 0], self.L.size * sizeof(float))
                    self.reset_env(e)
                    self.write(i)
        return ended, illegal

    def sample_actions(self, int64_t[::1] out):
        """A uniformly random legal action of each env into ``out`` (0 where none is legal),
        drawn from each env's own sampling generator."""
        cdef int i, k, j, previous, option
        cdef EnvC* e
        for i in range(self.num_envs):
            e = &self.envs[i]
            if e.moves.n == 0:
                out[i] = 0
                continue
            k = rng_below(&e.sampler, e.moves.n)
            option = 0
            previous = -1
            for j in range(k + 1):
                option = option + 1 if e.moves.cards[j] == previous else 0
                previous = e.moves.cards[j]
            out[i] = option * 52 + e.moves.cards[k]

    def is_done(self, int i):
        """Whether env ``i``'s episode has ended (and it waits for a reset)."""
        self._check(i)
        return bool(self.envs[i].done)

    # ------------------------------------------------------------- any position

    def encode_state(self, state, int seat, float[::1] out, uint8_t[::1] mask):
        """Encode ``seat``'s view of a :class:`basra.state.GameState` of this table with the
        C encoder, and its legal actions when it is to move (for the tests)."""
        cdef EnvC e
        cdef int i, side
        cdef RoundC* g = &e.g
        if out.shape[0] != self.L.size or mask.shape[0] != self.n_actions:
            raise ValueError("out and mask must have the observation's and actions' sizes")
        memset(&e, 0, sizeof(EnvC))
        round_table(g, self.r, self.players, self.teams)
        for i in range(self.players):
            g.hands[i] = state.hands[i]
            g.in_hands += v_popcount(g.hands[i])
        g.floor = state.floor
        stock = state.stock[state.stock_pos:]
        g.stock_len = len(stock)
        for i in range(g.stock_len):
            g.stock[i] = stock[i]
        for side in range(g.n_sides):
            g.piles[side] = state.piles[side]
            g.basras[side] = state.basras[side]
            g.basra_pts[side] = state.basra_points[side]
            g.scores[side] = state.scores[side]
        g.carry = state.carry
        g.lone_last = state.lone_last
        g.turn = state.turn
        g.first = state.first_player
        e.seat = seat
        e.dealer = state.dealer
        e.phase = {"deal": PHASE_DEAL, "play": PHASE_PLAY, "over": PHASE_OVER}[state.phase]
        e.gone = state.out_of_play
        e.stock_mask = stock_left(g)
        e.last_seat = -1
        rounds = state.rounds
        if rounds:
            current = rounds[len(rounds) - 1]
            for card in current.buried:
                e.buried |= (<mask_t>1) << <int>card
            plays = current.plays
            if plays:
                last_play = plays[len(plays) - 1]
                e.last_seat = last_play[0]
                e.last_card = last_play[1][0]
                e.last_take = last_play[1][1]
        if e.phase == PHASE_PLAY and g.turn == seat:
            gen_moves(self.r, g.hands[seat], g.floor, &e.moves)
        self.encode(&e, &out[0])
        self.write_mask(&e, &mask[0])
