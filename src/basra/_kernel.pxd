# The compiled kernel's C interface, for Cython modules that build on it
# (cimport basra._kernel). See _kernel.pyx; the pure-Python reference is
# basra.transition.

from libc.stdint cimport int64_t, uint64_t

ctypedef uint64_t mask_t

cdef enum:
    SEVEN_PLAIN = 0
    SEVEN_EGYPTIAN = 1
    SEVEN_YEMENI = 2
    SEVEN_ETHIOPIAN = 3
    SEVEN_NO_BASRA = 4
    MODE_CLEAR = 0
    MODE_LONE_MATCH = 1
    MODE_LONE_MATCH_OR_SUM = 2
    TIE_EACH = 0
    TIE_NONE = 1
    TIE_ABEYANCE = 2
    JACK_CODE = 53        # the basra code of a jack taking a lone jack
    MAX_MOVES = 256


# One set of rules as C tables (RULES.md B4), see KRules.
cdef struct RulesC:
    int pack
    int hand_size
    bint max_cards
    int seven
    int basra_mode
    bint basra_on_last_play
    int majority_tie
    bint end_tie_draw
    bint lone_seven
    mask_t sweepers
    mask_t combiners
    mask_t bury_mask
    mask_t reach[52]
    mask_t grab[52]
    int64_t basra_value[54]      # by basra code (0, card + 1, JACK_CODE); clamped to 2**62
    int64_t card_points[52]      # clamped to 2**62
    int64_t majority_bonus       # clamped to 2**62
    int64_t target               # clamped to 2**62
    double basra_value_f[54]     # the same as doubles for the search, clamped to 1e9
    double card_points_f[52]
    double majority_bonus_f


cdef class KRules:
    cdef RulesC c
    cdef readonly object rules
    cdef readonly object basra_values_py   # by basra code: the exact Python ints
    cdef readonly bint big                 # some rule integer does not fit in 62 bits
    cdef int64_t _fit(self, value) except? -1


# The legal moves of one position: card i takes takes[i].
cdef struct MoveBuf:
    int n
    int cards[256]
    mask_t takes[256]


# One round on C fields: the mirror of basra.transition.Round's fields, with
# numeric basra points and scores (clamped) for playouts.
cdef struct RoundC:
    const RulesC* r
    int players
    int n_sides
    int side[4]
    mask_t hands[4]
    mask_t floor
    int stock[52]
    int stock_len
    int stock_pos
    int in_hands
    mask_t piles[4]
    int basras[4]
    int64_t basra_pts[4]
    int lone_last                # bit 0: lone_plus_trail; >> 1: last capturing side + 1
    int turn
    int first
    int64_t scores[4]
    int64_t carry


# A round's result: the mirror of basra.scoring.RoundScore.
cdef struct ScoreC:
    int last_capture_side        # -1: nobody captured
    int cards[4]
    int64_t card_points[4]
    int64_t majority[4]
    int64_t points[4]
    int64_t score[4]
    int64_t carry


# A small, fast random generator (xoshiro256**) for what runs wholly in C.
cdef struct Rng:
    uint64_t s[4]


cpdef KRules krules(object rules)
cdef int gen_moves(const RulesC* r, mask_t hand, mask_t floor, MoveBuf* out) except -1
cdef int basra_code(const RulesC* r, int card, mask_t floor, bint lone_trail) except -1
cdef int round_apply(RoundC* g, int card, mask_t take) except -1
cdef int round_deal_next(RoundC* g) noexcept nogil
cdef void round_finish(RoundC* g, ScoreC* out) noexcept nogil
cdef int round_deal(RoundC* g, const int* pack, int dealer, int* buried) except -1
cdef void round_table(RoundC* g, const RulesC* r, int players, bint teams) noexcept nogil
cdef double policy_value_c(const RulesC* r, int card, mask_t take, mask_t floor,
                           bint lone) noexcept
cdef void rng_seed(Rng* rng, uint64_t seed) noexcept nogil
cdef uint64_t rng_next(Rng* rng) noexcept nogil
cdef double rng_uniform(Rng* rng) noexcept nogil
cdef int rng_below(Rng* rng, int n) noexcept nogil
cdef void rng_shuffle(Rng* rng, int* cards, int n) noexcept nogil


cdef class Round:
    cdef KRules kr
    cdef RoundC g
    cdef object _side_of
    cdef list _basra_points
    cdef list _scores
    cdef object _carry
    cdef list _plays
    cdef int u_lone[64]
    cdef int u_event[64]
    cdef int u_n
    cdef list _round_ends
    cdef _set_table(self, object rules, int players, tuple side_of)
    cdef _load(self, object hands, mask_t floor, object stock, int first_player, int turn,
               list plays)
    cdef object _score(self, int seat, int code)
    cpdef list legal_moves(self)
    cpdef push(self, object move)
    cpdef pop(self)
