# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, nonecheck=False, embedsignature=True
"""The compiled kernel: the engine's transition, move generation and search in C.

This module mirrors the pure-Python reference (:mod:`basra.transition`,
:mod:`basra.captures`, :mod:`basra.scoring` for playouts, and the search's
policies in :mod:`basra.bots`) on the same card ints and bit masks, for every
rule setting of RULES.md B4. It is optional: :mod:`basra.kernel` loads it when
it was built and ``BASRA_KERNEL`` is not ``0``, and the differential tests
(``tests/test_kernel.py``) play both paths side by side. Read the pure modules
to learn the rules; read this one to see how they run fast.
"""

from libc.stdint cimport uint64_t, int64_t, uint32_t
from libc.string cimport memset, memcpy
from libc.stdlib cimport malloc, free, realloc, qsort

from cpython.list cimport PyList_New, PyList_SET_ITEM, PyList_GET_SIZE, PyList_GET_ITEM, PyList_Append
from cpython.tuple cimport PyTuple_GET_ITEM
from cpython.ref cimport Py_INCREF
from cpython.dict cimport PyDict_GetItem, PyDict_SetItem
from cpython.long cimport PyLong_FromUnsignedLongLong, PyLong_AsUnsignedLongLong

from basra.cards import cards_of as _py_cards_of
from basra.moves import Move as _Move, Play as _Play
from basra.scoring import score_round as _score_round
from basra import transition as _transition

cdef extern from *:
    """
    static inline int k_popcount(unsigned long long x) { return __builtin_popcountll(x); }
    static inline int k_ctz(unsigned long long x) { return __builtin_ctzll(x); }
    /* A tuple subclass instance (a Move or a Play) from its items, as tuple.__new__ makes it. */
    static PyObject* k_tuple2(PyObject* type, PyObject* a, PyObject* b) {
        PyTypeObject* t = (PyTypeObject*)type;
        PyObject* out = t->tp_alloc(t, 2);
        if (out == NULL) return NULL;
        Py_INCREF(a); Py_INCREF(b);
        PyTuple_SET_ITEM(out, 0, a); PyTuple_SET_ITEM(out, 1, b);
        return out;
    }
    static PyObject* k_tuple3(PyObject* type, PyObject* a, PyObject* b, PyObject* c) {
        PyTypeObject* t = (PyTypeObject*)type;
        PyObject* out = t->tp_alloc(t, 3);
        if (out == NULL) return NULL;
        Py_INCREF(a); Py_INCREF(b); Py_INCREF(c);
        PyTuple_SET_ITEM(out, 0, a); PyTuple_SET_ITEM(out, 1, b); PyTuple_SET_ITEM(out, 2, c);
        return out;
    }
    """
    int k_popcount(unsigned long long x) nogil
    int k_ctz(unsigned long long x) nogil
    object k_tuple2(object type, object a, object b)
    object k_tuple3(object type, object a, object b, object c)

cdef int SEVEN_D = 6 * 4 + 2
cdef mask_t SEVEN_BIT = (<mask_t>1) << (6 * 4 + 2)
cdef mask_t NUMERAL = ((<mask_t>1) << 40) - 1
cdef mask_t JACKS = (<mask_t>0b1111) << 40
cdef mask_t TENS_AND_PICTURES = ((<mask_t>0b1111) << 36) | ((<mask_t>0b1111) << 44) | ((<mask_t>0b1111) << 48)
cdef mask_t PACK52 = ((<mask_t>1) << 52) - 1

# A basra's value is looked up by a code: the capturing card + 1, or JACK_CODE for a
# jack on a lone jack (0: no basra). Rule integers may be any size (B5.2), so the
# values themselves stay Python ints where they do not fit in 62 bits.
cdef int64_t BIG = (<int64_t>1) << 62


cdef inline mask_t rank_mask(int rank) noexcept nogil:
    return (<mask_t>0b1111) << (4 * rank)


cdef inline int value_of(int card) noexcept nogil:
    return (card >> 2) + 1 if card < 40 else 0


# ---------------------------------------------------------------- the rules

cdef class KRules:
    """The C tables of one :class:`basra.rules.Rules` (kept in its ``engine_cache``)."""

    def __cinit__(self, rules):
        cdef int card
        self.rules = rules
        c = &self.c
        c.pack = rules.pack
        c.hand_size = rules.hand_size
        c.max_cards = rules.capture_policy == "max_cards"
        c.seven = ("plain", "egyptian", "yemeni", "ethiopian", "no_basra").index(rules.seven_diamonds)
        c.basra_mode = ("clear", "lone_match", "lone_match_or_sum").index(rules.basra_mode)
        c.basra_on_last_play = rules.basra_on_last_play
        c.majority_tie = ("each", "none", "abeyance").index(rules.majority_tie)
        c.end_tie_draw = rules.end_tie == "draw"
        c.lone_seven = rules.lone_seven
        c.sweepers = rules.sweepers
        c.combiners = rules.combiners
        c.bury_mask = rules.bury_mask
        for card in range(52):
            c.reach[card] = rules.reach[card]
            c.grab[card] = rules.grab[card]
        values = [0] + list(rules.basra_values) + [rules.jack_on_lone_jack]
        self.basra_values_py = tuple(values)
        self.big = False
        for card in range(54):
            c.basra_value[card] = self._fit(values[card])
            c.basra_value_f[card] = <double>min(values[card], 10 ** 9)
        for card in range(52):
            c.card_points[card] = self._fit(rules.card_points[card])
            c.card_points_f[card] = <double>min(rules.card_points[card], 10 ** 9)
        c.majority_bonus = self._fit(rules.majority_bonus)
        c.target = self._fit(rules.target)
        c.majority_bonus_f = <double>min(rules.majority_bonus, 10 ** 9)

    cdef int64_t _fit(self, value) except? -1:
        if value >= BIG:
            self.big = True
            return BIG
        return value


cpdef KRules krules(object rules):
    """The kernel's tables for ``rules`` (built once per rules object)."""
    cache = rules.engine_cache
    kr = cache.get("kernel")
    if kr is None:
        kr = cache["kernel"] = KRules(rules)
    return <KRules>kr


# --------------------------------------------------------- growable arrays

cdef struct MaskVec:
    mask_t* data
    int size
    int cap


cdef int mv_push(MaskVec* v, mask_t x) except -1:
    cdef mask_t* grown
    if v.size == v.cap:
        v.cap = 64 if v.cap == 0 else v.cap * 2
        grown = <mask_t*>realloc(v.data, v.cap * sizeof(mask_t))
        if grown == NULL:
            raise MemoryError()
        v.data = grown
    v.data[v.size] = x
    v.size += 1
    return 0


# An open-addressing table from 64-bit keys to (offset, count) in a MaskVec pool:
# the caches of capture options and of sum templates. Cleared when half full.

cdef struct Cache:
    mask_t* keys
    int* offsets
    int* counts
    int cap          # a power of two
    int used
    MaskVec pool


cdef int cache_init(Cache* c, int cap) except -1:
    c.cap = cap
    c.used = 0
    c.keys = <mask_t*>malloc(cap * sizeof(mask_t))
    c.offsets = <int*>malloc(cap * sizeof(int))
    c.counts = <int*>malloc(cap * sizeof(int))
    if c.keys == NULL or c.offsets == NULL or c.counts == NULL:
        raise MemoryError()
    memset(c.counts, 0xff, cap * sizeof(int))   # -1: empty slot
    c.pool.data = NULL
    c.pool.size = 0
    c.pool.cap = 0
    return 0


cdef inline int cache_slot(Cache* c, mask_t key) noexcept nogil:
    """The slot of ``key``, or of the empty slot where it would go."""
    cdef mask_t h = key * <mask_t>0x9E3779B97F4A7C15
    cdef int i = <int>(h >> 40) & (c.cap - 1)
    while c.counts[i] >= 0 and c.keys[i] != key:
        i = (i + 1) & (c.cap - 1)
    return i


cdef void cache_clear(Cache* c) noexcept nogil:
    memset(c.counts, 0xff, c.cap * sizeof(int))
    c.used = 0
    c.pool.size = 0


# ------------------------------------------------------------- the captures
#
# capture_options_c mirrors basra.captures.capture_options; the sum search
# mirrors _sum_unions: the search runs on the multiset of values (templates,
# cached on a packed count signature) and each template is expanded to cards.

cdef MaskVec SHAPES[11]          # per value 2..10: group shapes as packed counts (3 bits a rank)
cdef Cache TEMPLATES             # (signature, value, policy) -> packed templates
cdef Cache OPTIONS[2]            # per policy (0 any_maximal, 1 max_cards): (near, card) -> takes


cdef void _shapes(int value, int smallest, int remaining, mask_t packed, int parts, MaskVec* out):
    cdef int v
    if remaining == 0:
        if parts >= 2:
            mv_push(out, packed)
        return
    v = smallest
    while v <= remaining and v <= value - 1:
        # A shape needing more than four cards of one value never fits a floor
        # (and would not fit in 3 bits): leave it out.
        if (packed >> (3 * (v - 1))) & 7 < 4:
            _shapes(value, v, remaining - v, packed + ((<mask_t>1) << (3 * (v - 1))), parts + 1,
                    out)
        v += 1


cdef int _init_tables() except -1:
    cdef int value
    for value in range(11):
        SHAPES[value].data = NULL
        SHAPES[value].size = 0
        SHAPES[value].cap = 0
        if value >= 2:
            _shapes(value, 1, value, 0, 0, &SHAPES[value])
    cache_init(&TEMPLATES, 1 << 12)
    cache_init(&OPTIONS[0], 1 << 16)
    cache_init(&OPTIONS[1], 1 << 16)
    return 0


_init_tables()


cdef inline int field3(mask_t packed, int rank) noexcept nogil:
    return <int>((packed >> (3 * rank)) & 7)


cdef bint fits(mask_t used, mask_t shape, mask_t counts, int ranks) noexcept nogil:
    cdef int r
    for r in range(ranks):
        if field3(used, r) + field3(shape, r) > field3(counts, r):
            return False
    return True


cdef int total3(mask_t packed, int ranks) noexcept nogil:
    cdef int r, t = 0
    for r in range(ranks):
        t += field3(packed, r)
    return t


cdef bint dominated(mask_t t, mask_t o, int ranks) noexcept nogil:
    """Whether o != t and t <= o componentwise."""
    cdef int r
    if o == t:
        return False
    for r in range(ranks):
        if field3(t, r) > field3(o, r):
            return False
    return True


cdef int templates_of(int value, mask_t counts, bint largest_only, int* offset) except -1:
    """The templates of :func:`basra.captures._value_templates`, cached; returns how many."""
    cdef mask_t key = (counts << 5) | (<mask_t>value << 1) | largest_only
    cdef int slot = cache_slot(&TEMPLATES, key)
    cdef int ranks = value - 1
    cdef MaskVec reach, stack
    cdef mask_t used, nxt
    cdef int i, j, n, best, k, start
    if TEMPLATES.counts[slot] >= 0:
        offset[0] = TEMPLATES.offsets[slot]
        return TEMPLATES.counts[slot]
    # Every count vector reachable by adding group shapes (visited once each).
    reach.data = NULL; reach.size = 0; reach.cap = 0
    stack.data = NULL; stack.size = 0; stack.cap = 0
    seen_keys = {}
    try:
        mv_push(&stack, 0)
        seen_keys[0] = True
        while stack.size:
            stack.size -= 1
            used = stack.data[stack.size]
            if used:
                mv_push(&reach, used)
            for i in range(SHAPES[value].size):
                if fits(used, SHAPES[value].data[i], counts, ranks):
                    nxt = used + SHAPES[value].data[i]
                    if nxt not in seen_keys:
                        seen_keys[nxt] = True
                        mv_push(&stack, nxt)
        if TEMPLATES.used * 2 >= TEMPLATES.cap:
            cache_clear(&TEMPLATES)
            slot = cache_slot(&TEMPLATES, key)
        start = TEMPLATES.pool.size
        n = 0
        if largest_only:
            best = 0
            for i in range(reach.size):
                k = total3(reach.data[i], ranks)
                if k > best:
                    best = k
            for i in range(reach.size):
                if total3(reach.data[i], ranks) == best:
                    mv_push(&TEMPLATES.pool, reach.data[i])
                    n += 1
        else:
            for i in range(reach.size):
                for j in range(reach.size):
                    if dominated(reach.data[i], reach.data[j], ranks):
                        break
                else:
                    mv_push(&TEMPLATES.pool, reach.data[i])
                    n += 1
        TEMPLATES.keys[slot] = key
        TEMPLATES.offsets[slot] = start
        TEMPLATES.counts[slot] = n
        TEMPLATES.used += 1
        offset[0] = start
        return n
    finally:
        free(reach.data)
        free(stack.data)


cdef inline bint cards_before(mask_t a, mask_t b) noexcept nogil:
    """Whether the canonical card list of ``a`` sorts before that of ``b`` (a != b)."""
    cdef mask_t d = a ^ b
    cdef mask_t x = d & (~d + 1)
    cdef int at = k_ctz(x)
    cdef mask_t above = ~((x << 1) - 1) if at < 63 else 0
    if a & x:
        return (b & above) != 0
    return (a & above) == 0


cdef int compare_unions(const void* pa, const void* pb) noexcept nogil:
    cdef mask_t a = (<mask_t*>pa)[0]
    cdef mask_t b = (<mask_t*>pb)[0]
    if a == b:
        return 0
    return -1 if cards_before(a, b) else 1


cdef int expand(mask_t candidates, mask_t full, int* ranks_, int* wanted, int nparts, int part,
                mask_t acc, MaskVec* out) except -1:
    """Every union: ``full`` plus, per partial rank, each choice of ``wanted`` of its cards."""
    cdef mask_t cards, sub, pick
    cdef int bits, i, n
    cdef int idx[4]
    if part == nparts:
        mv_push(out, acc | (candidates & full))
        return 0
    cards = candidates & rank_mask(ranks_[part])
    n = 0
    sub = cards
    while sub:
        idx[n] = k_ctz(sub)
        n += 1
        sub &= sub - 1
    # each subset of the rank's n cards of size wanted[part], in any order (sorted later)
    for bits in range(1 << n):
        if k_popcount(bits) != wanted[part]:
            continue
        pick = 0
        for i in range(n):
            if bits >> i & 1:
                pick |= (<mask_t>1) << idx[i]
        expand(candidates, full, ranks_, wanted, nparts, part + 1, acc | pick, out)
    return 0


cdef int sum_unions(int value, mask_t candidates, bint largest_only, MaskVec* out) except -1:
    """Mirror of ``_sum_unions``: appends the unions (sorted), or nothing when no group exists."""
    cdef mask_t counts = 0, template, full
    cdef int rank, offset, n, t, start, wanted_here, nparts
    cdef int ranks_[9]
    cdef int wanted[9]
    for rank in range(value - 1):
        counts |= (<mask_t>k_popcount((candidates >> (4 * rank)) & 15)) << (3 * rank)
    n = templates_of(value, counts, largest_only, &offset)
    start = out.size
    for t in range(n):
        template = TEMPLATES.pool.data[offset + t]
        full = 0
        nparts = 0
        for rank in range(value - 1):
            wanted_here = field3(template, rank)
            if wanted_here and wanted_here == field3(counts, rank):
                full |= rank_mask(rank)
            elif wanted_here:
                ranks_[nparts] = rank
                wanted[nparts] = wanted_here
                nparts += 1
        expand(candidates, full, ranks_, wanted, nparts, 0, 0, out)
    if out.size - start > 1:
        qsort(&out.data[start], out.size - start, sizeof(mask_t), compare_unions)
    return out.size - start


cdef int capture_options_c(const RulesC* r, int card, mask_t floor, MaskVec* out) except -1:
    """Mirror of :func:`basra.captures.capture_options`: appends the options (0: a trail)."""
    cdef int rank, value, n, i, start
    cdef mask_t same, candidates
    if r.sweepers >> card & 1:
        mv_push(out, floor)
        return 1
    if floor == SEVEN_BIT and r.lone_seven:
        mv_push(out, floor)
        return 1
    rank = card >> 2
    same = floor & rank_mask(rank)
    if rank >= 11:
        mv_push(out, same)
        return 1
    value = rank + 1
    candidates = floor & ((((<mask_t>1) << (4 * (value - 1))) - 1) if value > 1 else 0)
    if k_popcount(candidates) < 2:
        mv_push(out, same)
        return 1
    start = out.size
    n = sum_unions(value, candidates, r.max_cards, out)
    if n == 0:
        mv_push(out, same)
        return 1
    for i in range(start, out.size):
        out.data[i] |= same
    return n


cdef int cached_options(const RulesC* r, int card, mask_t near, int* offset) except -1:
    """The capture options of a summing numeral with ``near`` in reach, cached per policy."""
    cdef Cache* c = &OPTIONS[1 if r.max_cards else 0]
    cdef mask_t key = (near << 6) | <mask_t>card
    cdef int slot = cache_slot(c, key)
    cdef int start, n
    if c.counts[slot] >= 0:
        offset[0] = c.offsets[slot]
        return c.counts[slot]
    if c.used * 2 >= c.cap:
        cache_clear(c)
        slot = cache_slot(c, key)
    start = c.pool.size
    n = capture_options_c(r, card, near, &c.pool)
    c.keys[slot] = key
    c.offsets[slot] = start
    c.counts[slot] = n
    c.used += 1
    offset[0] = start
    return n


# ---------------------------------------------------------------- the moves

cdef int gen_moves(const RulesC* r, mask_t hand, mask_t floor, MoveBuf* out) except -1:
    """Mirror of :func:`basra.transition.generate_moves`: the legal moves, by card."""
    cdef int card, i, n, offset
    cdef mask_t rest = hand, near
    cdef Cache* cache
    out.n = 0
    if r.lone_seven and floor == SEVEN_BIT:
        while rest:
            card = k_ctz(rest)
            rest &= rest - 1
            out.cards[out.n] = card
            out.takes[out.n] = floor
            out.n += 1
        return out.n
    while rest:
        card = k_ctz(rest)
        rest &= rest - 1
        near = floor & r.reach[card]
        if near & (near - 1):
            if r.combiners >> card & 1:
                n = cached_options(r, card, near, &offset)
                cache = &OPTIONS[1 if r.max_cards else 0]
                if out.n + n > MAX_MOVES:
                    raise OverflowError("more than 256 legal moves")
                for i in range(n):
                    out.cards[out.n] = card
                    out.takes[out.n] = cache.pool.data[offset + i]
                    out.n += 1
                continue
            out.cards[out.n] = card
            out.takes[out.n] = near
            out.n += 1
            continue
        if out.n >= MAX_MOVES:
            raise OverflowError("more than 256 legal moves")
        out.cards[out.n] = card
        out.takes[out.n] = near & r.grab[card]
        out.n += 1
    return out.n


cdef inline object move_object(int card, mask_t take):
    """A :class:`basra.moves.Move` value (made in C: as cheap as looking one up)."""
    return k_tuple2(_Move, card, PyLong_FromUnsignedLongLong(take))


cdef list moves_list(MoveBuf* buf):
    cdef list out = PyList_New(buf.n)
    cdef int i
    cdef object m
    for i in range(buf.n):
        m = move_object(buf.cards[i], buf.takes[i])
        Py_INCREF(m)
        PyList_SET_ITEM(out, i, m)
    return out


cdef mask_t mask_of_cards(object cards) except? 0:
    cdef mask_t mask = 0
    for card in cards:
        mask |= (<mask_t>1) << <int>card
    return mask


def generate_moves(rules, cards, mask_t floor):
    """Mirror of :func:`basra.transition.generate_moves` (cards in canonical order)."""
    cdef KRules kr = krules(rules)
    cdef MoveBuf buf
    gen_moves(&kr.c, mask_of_cards(cards), floor, &buf)
    return moves_list(&buf)


def capture_options(rules, int card, mask_t floor):
    """Mirror of :func:`basra.captures.capture_options` (for the differential tests)."""
    cdef KRules kr = krules(rules)
    cdef MaskVec out
    cdef int i
    out.data = NULL; out.size = 0; out.cap = 0
    try:
        capture_options_c(&kr.c, card, floor, &out)
        return tuple([out.data[i] for i in range(out.size)])
    finally:
        free(out.data)


# ---------------------------------------------------------------- the basra

cdef bint partitions(int* values, int count, int target, uint32_t used, int partial,
                     uint32_t full, dict failed) except -1:
    """Mirror of ``captures._partitions``: all values split into groups summing to target."""
    cdef int i, v
    if used == full:
        return partial == 0
    if used in failed:
        return False
    for i in range(count):
        v = values[i]
        if not (used >> i & 1) and partial + v <= target:
            if partitions(values, count, target, used | (1u << i), (partial + v) % target,
                          full, failed):
                return True
            if partial == 0:
                break
    failed[used] = True
    return False


cdef bint equal_groups_c(int* values, int count, int limit) except -1:
    """Mirror of :func:`basra.captures.equal_groups` (values sorted ascending)."""
    cdef int total = 0, i, target, biggest = 1
    if count > 31:
        return False   # 31 numerals cannot split into groups of at most 10
    for i in range(count):
        total += values[i]
        if values[i] > biggest:
            biggest = values[i]
    for target in range(biggest, limit + 1):
        if total % target or total // target < 2:
            continue
        if partitions(values, count, target, 0, 0, (1u << count) - 1, {}):
            return True
    return False


cdef bint seven_basra(int mode, mask_t floor) except -1:
    """Mirror of :func:`basra.captures.seven_diamonds_basra`."""
    cdef int values[52]
    cdef int count = 0, total = 0, card, limit, i, j, v
    cdef mask_t rest = floor
    if mode == SEVEN_PLAIN or mode == SEVEN_NO_BASRA:
        return False
    if mode == SEVEN_YEMENI and not (floor & ~TENS_AND_PICTURES):
        return True
    if floor & ~NUMERAL:
        return False
    while rest:
        card = k_ctz(rest)
        rest &= rest - 1
        v = value_of(card)
        # insertion keeps the values sorted
        i = count
        while i > 0 and values[i - 1] > v:
            values[i] = values[i - 1]
            i -= 1
        values[i] = v
        count += 1
        total += v
    if mode == SEVEN_EGYPTIAN:
        return total <= 10
    limit = 9 if mode == SEVEN_YEMENI else 10
    return total <= limit or equal_groups_c(values, count, limit)


cdef int basra_code(const RulesC* r, int card, mask_t floor, bint lone_trail) except -1:
    """Mirror of :func:`basra.captures.clear_basra`, as a code (0, card + 1 or JACK_CODE)."""
    cdef int x, y
    if card >> 2 == 10:
        if floor & JACKS and not (floor & (floor - 1)):
            return JACK_CODE
        return 0
    if card == SEVEN_D and r.seven != SEVEN_PLAIN:
        return card + 1 if seven_basra(r.seven, floor) else 0
    if floor == SEVEN_BIT and r.seven == SEVEN_ETHIOPIAN:
        return card + 1
    if r.basra_mode == MODE_CLEAR or not (floor & (floor - 1)):
        return card + 1
    if (r.basra_mode == MODE_LONE_MATCH_OR_SUM and lone_trail and card < 40
            and not (floor & ~NUMERAL) and k_popcount(floor) == 2):
        x = k_ctz(floor)
        y = k_ctz(floor & (floor - 1))
        if value_of(x) + value_of(y) == value_of(card):
            return card + 1
    return 0


cdef inline int play_basra_code(const RulesC* r, int card, mask_t take, mask_t floor,
                                bint lone_trail, bint last_play) except -1:
    """Mirror of :func:`basra.transition.play_basra`, as a code."""
    if not take or take != floor or (last_play and not r.basra_on_last_play):
        return 0
    return basra_code(r, card, floor, lone_trail)


def play_basra(rules, int card, mask_t take, mask_t floor, *, bint lone_trail, bint last_play):
    """Mirror of :func:`basra.transition.play_basra` (for the differential tests)."""
    cdef KRules kr = krules(rules)
    return kr.basra_values_py[play_basra_code(&kr.c, card, take, floor, lone_trail, last_play)]


# ------------------------------------------------------------- the playout policy

cdef double policy_value_c(const RulesC* r, int card, mask_t take, mask_t floor,
                           bint lone) noexcept:
    """Mirror of :func:`basra.bots.sim.policy_value` (how much the playouts like a move)."""
    cdef double value
    cdef mask_t rest
    cdef int code
    if take:
        value = (10.0 + (0.5 + r.majority_bonus_f / 20.0) * (k_popcount(take) + 1)
                 + r.card_points_f[card])
        rest = take
        while rest:
            value += r.card_points_f[k_ctz(rest)]
            rest &= rest - 1
        if take == floor:
            code = basra_code(r, card, floor, lone)
            value += r.basra_value_f[code]
        elif r.sweepers >> card & 1:
            value -= 4.0
        return value
    value = -1.5 * r.card_points_f[card]
    if r.sweepers >> card & 1:
        value -= 8.0
    elif not floor:
        value -= 5.0
    elif card < 40:
        value += 0.1 * (9 - (card >> 2))
    return value


def policy_value(rules, int card, mask_t take, mask_t floor, bint lone):
    """Mirror of :func:`basra.bots.sim.policy_value` (for the differential tests)."""
    return policy_value_c(&krules(rules).c, card, take, floor, lone)


# ------------------------------------------------------------ the random source
#
# xoshiro256** (Blackman & Vigna), seeded by splitmix64: for what runs wholly in
# C (the vector environments). The search and the bots draw from Python's
# random.Random so that both engines make the same choices.

cdef inline uint64_t rotl(uint64_t x, int k) noexcept nogil:
    return (x << k) | (x >> (64 - k))


cdef void rng_seed(Rng* rng, uint64_t seed) noexcept nogil:
    cdef int i
    cdef uint64_t z
    for i in range(4):
        seed += <uint64_t>0x9E3779B97F4A7C15
        z = seed
        z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
        z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
        rng.s[i] = z ^ (z >> 31)


cdef uint64_t rng_next(Rng* rng) noexcept nogil:
    cdef uint64_t result = rotl(rng.s[1] * 5, 7) * 9
    cdef uint64_t t = rng.s[1] << 17
    rng.s[2] ^= rng.s[0]
    rng.s[3] ^= rng.s[1]
    rng.s[1] ^= rng.s[2]
    rng.s[0] ^= rng.s[3]
    rng.s[2] ^= t
    rng.s[3] = rotl(rng.s[3], 45)
    return result


cdef double rng_uniform(Rng* rng) noexcept nogil:
    """A double in [0, 1)."""
    return (rng_next(rng) >> 11) * (1.0 / 9007199254740992.0)


cdef int rng_below(Rng* rng, int n) noexcept nogil:
    """An int in [0, n) (n > 0)."""
    return <int>(rng_uniform(rng) * n)


cdef void rng_shuffle(Rng* rng, int* cards, int n) noexcept nogil:
    """Fisher-Yates."""
    cdef int i, j, t
    i = n - 1
    while i > 0:
        j = rng_below(rng, i + 1)
        t = cards[i]
        cards[i] = cards[j]
        cards[j] = t
        i -= 1


# ------------------------------------------------------------- a round in C
#
# RoundC and these functions are the mirror of basra.transition.Round; the
# Round class below wraps one for Python, and search and the vector
# environments use them directly.

cdef void round_table(RoundC* g, const RulesC* r, int players, bint teams) noexcept nogil:
    """Seat a table (basra.transition.seating) and clear the round."""
    cdef int seat
    memset(g, 0, sizeof(RoundC))
    g.r = r
    g.players = players
    for seat in range(players):
        g.side[seat] = seat % 2 if teams else seat
    g.n_sides = 2 if teams else players


cdef int round_apply(RoundC* g, int card, mask_t take) except -1:
    """Mirror of :meth:`basra.transition.Round.apply`; returns the basra code (0: none)."""
    cdef int seat = g.turn, side, code = 0
    cdef mask_t floor = g.floor
    g.hands[seat] ^= (<mask_t>1) << card
    g.in_hands -= 1
    if take:
        side = g.side[seat]
        if take == floor and (g.in_hands or g.stock_pos < g.stock_len
                              or g.r.basra_on_last_play):
            code = basra_code(g.r, card, floor, g.lone_last & 1)
            if code and g.r.basra_value[code] == 0:
                code = 0
            if code:
                g.basras[side] += 1
                g.basra_pts[side] += g.r.basra_value[code]
        g.floor = floor ^ take
        g.piles[side] |= take | ((<mask_t>1) << card)
        g.lone_last = (side + 1) << 1
    else:
        g.floor = floor | ((<mask_t>1) << card)
        g.lone_last = (g.lone_last & ~1) | (floor != 0 and not (floor & (floor - 1)))
    g.turn = seat + 1 if seat + 1 < g.players else 0
    return code


cdef int round_deal_next(RoundC* g) noexcept nogil:
    """Mirror of :meth:`basra.transition.Round.deal_next`."""
    cdef int n = g.players, each, i, j, seat, pos = g.stock_pos
    cdef mask_t mask
    each = (g.stock_len - pos) // n
    if each > g.r.hand_size:
        each = g.r.hand_size
    for i in range(n):
        seat = (g.first + i) % n
        mask = 0
        for j in range(each):
            mask |= (<mask_t>1) << g.stock[pos + j]
        g.hands[seat] = mask
        pos += each
    g.stock_pos = pos
    g.in_hands = n * each
    return each


cdef void round_finish(RoundC* g, ScoreC* out) noexcept nogil:
    """Mirror of :meth:`basra.transition.Round.finish` and basra.scoring.score_round."""
    cdef int last = (g.lone_last >> 1) - 1, side, most = -1, leaders = 0, leader = 0
    cdef mask_t rest
    cdef int64_t points
    if last >= 0:
        g.piles[last] |= g.floor
        g.floor = 0
    out.last_capture_side = last
    out.carry = g.carry
    for side in range(g.n_sides):
        out.cards[side] = k_popcount(g.piles[side])
        points = 0
        rest = g.piles[side]
        while rest:
            points += g.r.card_points[k_ctz(rest)]
            rest &= rest - 1
        out.card_points[side] = points
        out.majority[side] = 0
        if out.cards[side] > most:
            most = out.cards[side]
            leaders = 1
            leader = side
        elif out.cards[side] == most:
            leaders += 1
    if leaders == 1:
        out.majority[leader] = g.r.majority_bonus + out.carry
        out.carry = 0
    elif g.r.majority_tie == TIE_EACH:
        for side in range(g.n_sides):
            if out.cards[side] == most:
                out.majority[side] = g.r.majority_bonus
    elif g.r.majority_tie == TIE_ABEYANCE:
        out.carry += g.r.majority_bonus
    for side in range(g.n_sides):
        out.points[side] = out.card_points[side] + out.majority[side] + g.basra_pts[side]
        out.score[side] = g.scores[side] + out.points[side]


cdef int round_deal(RoundC* g, const int* pack, int dealer, int* buried) except -1:
    """Mirror of :meth:`basra.state.GameState.deal` for ``pack`` (top first, r.pack cards).

    Deals the hands from the first player, turns up the floor and re-buries
    (A3); the round's fields start afresh (scores and carry are kept). Writes
    the re-buried cards to ``buried`` (may be NULL) and returns how many.
    """
    cdef const RulesC* r = g.r
    cdef int n = g.players, hand = r.hand_size, size = r.pack, first = (dealer + 1) % n
    cdef int i, j, seat, pos, floor_n, card, index, head, tail, count = 0
    cdef int floor[8]
    cdef int queue[104]
    for i in range(n):
        seat = (first + i) % n
        g.hands[seat] = 0
        for j in range(hand):
            g.hands[seat] |= (<mask_t>1) << pack[i * hand + j]
    for i in range(n, 4):
        g.hands[i] = 0
    pos = n * hand
    floor_n = 4 + (size - 4) % n
    for i in range(floor_n):
        floor[i] = pack[pos + i]
    head = 0
    tail = 0
    for i in range(pos + floor_n, size):
        queue[tail] = pack[i]
        tail += 1
    index = 0
    while index < floor_n:
        card = floor[index]
        if r.bury_mask >> card & 1:
            if buried != NULL:
                buried[count] = card
            count += 1
            if count > 52:
                raise RuntimeError("the stock holds only buried cards")
            queue[tail] = card
            tail += 1
            floor[index] = queue[head]
            head += 1
            index = 0
        else:
            index += 1
    g.floor = 0
    for i in range(floor_n):
        g.floor |= (<mask_t>1) << floor[i]
    g.stock_len = tail - head
    for i in range(g.stock_len):
        g.stock[i] = queue[head + i]
    g.stock_pos = 0
    g.in_hands = n * hand
    for i in range(4):
        g.piles[i] = 0
        g.basras[i] = 0
        g.basra_pts[i] = 0
    g.lone_last = 0
    g.first = first
    g.turn = first
    return count


def random_rounds(rules, int players, int rounds, uint64_t seed):
    """The kernel's own loop: shuffle, deal and play ``rounds`` random rounds wholly in C.

    Uniformly random legal moves with the kernel's generator; dealers go round.
    Returns the number of plays made (``basra bench`` times it).
    """
    cdef KRules kr = krules(rules)
    cdef RoundC g
    cdef Rng rng
    cdef MoveBuf buf
    cdef ScoreC score
    cdef int pack[52]
    cdef int i, r, plays = 0
    rng_seed(&rng, seed)
    round_table(&g, &kr.c, players, False)
    for r in range(rounds):
        for i in range(kr.c.pack):
            pack[i] = i
        rng_shuffle(&rng, pack, kr.c.pack)
        round_deal(&g, pack, r % players, NULL)
        while True:
            gen_moves(g.r, g.hands[g.turn], g.floor, &buf)
            i = rng_below(&rng, buf.n)
            round_apply(&g, buf.cards[i], buf.takes[i])
            plays += 1
            if not g.in_hands:
                if g.stock_pos < g.stock_len:
                    round_deal_next(&g)
                else:
                    round_finish(&g, &score)
                    break
    return plays


def deal_pack(rules, int players, int dealer, pack):
    """Mirror of the canonical deal (for the differential tests): hands, floor, stock, buried."""
    cdef KRules kr = krules(rules)
    cdef RoundC g
    cdef int cards[52]
    cdef int buried[64]
    cdef int i, n
    round_table(&g, &kr.c, players, False)
    for i in range(kr.c.pack):
        cards[i] = pack[i]
    n = round_deal(&g, cards, dealer, buried)
    return (
        [g.hands[i] for i in range(players)],
        g.floor,
        [g.stock[i] for i in range(g.stock_len)],
        [buried[i] for i in range(n)],
    )


# ---------------------------------------------------------------- the round

cdef class Round:
    """Mirror of :class:`basra.transition.Round` on a :c:type:`RoundC`.

    The same methods and readable fields; lists read from it are fresh copies
    (``scores`` and ``plays`` excepted, as in the reference). ``scores``,
    ``carry`` and the basra points stay Python ints (rule integers may be of
    any size); everything played move by move is C.
    """

    def __cinit__(self, *args, **kwargs):
        self._side_of = ()
        self._basra_points = []
        self._scores = []
        self._carry = 0
        self._plays = []
        self._round_ends = []

    def __init__(self, rules, int players, tuple side_of):
        self._set_table(rules, players, side_of)
        self._basra_points = [0] * self.g.n_sides
        self._scores = [0] * self.g.n_sides
        self._carry = 0
        self._plays = []

    cdef _set_table(self, object rules, int players, tuple side_of):
        cdef int seat
        self.kr = krules(rules)
        self.g.r = &self.kr.c
        self.g.players = players
        self._side_of = side_of
        for seat in range(players):
            self.g.side[seat] = side_of[seat]
        self.g.n_sides = max(side_of) + 1

    # ------------------------------------------------------------ reading

    @property
    def rules(self):
        return self.kr.rules

    @property
    def players(self):
        return self.g.players

    @property
    def side_of(self):
        return self._side_of

    @property
    def hands(self):
        return [self.g.hands[i] for i in range(self.g.players)]

    @property
    def hand_cards(self):
        return [_py_cards_of(self.g.hands[i]) for i in range(self.g.players)]

    @property
    def floor(self):
        return self.g.floor

    @property
    def stock(self):
        return [self.g.stock[i] for i in range(self.g.stock_len)]

    @property
    def stock_pos(self):
        return self.g.stock_pos

    @property
    def in_hands(self):
        return self.g.in_hands

    @property
    def piles(self):
        return [self.g.piles[i] for i in range(self.g.n_sides)]

    @property
    def basras(self):
        return [self.g.basras[i] for i in range(self.g.n_sides)]

    @property
    def basra_points(self):
        return list(self._basra_points)

    @property
    def lone_last(self):
        return self.g.lone_last

    @property
    def turn(self):
        return self.g.turn

    @turn.setter
    def turn(self, int value):
        self.g.turn = value

    @property
    def first_player(self):
        return self.g.first

    @first_player.setter
    def first_player(self, int value):
        self.g.first = value

    @property
    def scores(self):
        return self._scores

    @scores.setter
    def scores(self, value):
        self._scores = list(value)

    @property
    def carry(self):
        return self._carry

    @carry.setter
    def carry(self, value):
        self._carry = value

    @property
    def plays(self):
        return self._plays

    @property
    def lone_trail(self):
        return bool(self.g.lone_last & 1)

    @property
    def last_capture_side(self):
        return (self.g.lone_last >> 1) - 1 if self.g.lone_last > 1 else None

    @property
    def stock_size(self):
        return self.g.stock_len - self.g.stock_pos

    @property
    def is_last_play(self):
        return self.g.in_hands == 1 and self.g.stock_pos == self.g.stock_len

    cpdef list legal_moves(self):
        """Every legal move of the seat to move, by card in canonical order."""
        cdef MoveBuf buf
        gen_moves(self.g.r, self.g.hands[self.g.turn], self.g.floor, &buf)
        return moves_list(&buf)

    # ------------------------------------------------------------ loading

    def start_round(self, hands, mask_t floor, stock, int first_player, list plays):
        cdef int side
        self._load(hands, floor, stock, first_player, first_player, plays)
        for side in range(self.g.n_sides):
            self.g.piles[side] = 0
            self.g.basras[side] = 0
            self.g.basra_pts[side] = 0
        self._basra_points = [0] * self.g.n_sides
        self.g.lone_last = 0

    cdef _load(self, object hands, mask_t floor, object stock, int first_player, int turn,
               list plays):
        cdef int i, n = 0
        if len(stock) > 52:
            raise ValueError("a stock of more than 52 cards")
        for i in range(self.g.players):
            self.g.hands[i] = hands[i]
            n += k_popcount(self.g.hands[i])
        self.g.in_hands = n
        self.g.floor = floor
        self.g.stock_len = len(stock)
        for i in range(self.g.stock_len):
            self.g.stock[i] = stock[i]
        self.g.stock_pos = 0
        self.g.first = first_player
        self.g.turn = turn
        self._plays = plays
        self.u_n = 0
        self._round_ends = []

    def load_round(self, *, hands, mask_t floor, stock, int first_player, int turn, piles,
                   basras, basra_points, int lone_last, scores, carry, list plays):
        cdef int side
        self._load(hands, floor, stock, first_player, turn, plays)
        for side in range(self.g.n_sides):
            self.g.piles[side] = piles[side]
            self.g.basras[side] = basras[side]
            self.g.basra_pts[side] = min(basra_points[side], BIG)
        self._basra_points = list(basra_points)
        self.g.lone_last = lone_last
        self._scores = list(scores)
        self._carry = carry

    def round_fields(self):
        """Mirror of :meth:`basra.transition.Round.round_fields` (the same plain values)."""
        cdef int i
        undo = []
        ends = iter(self._round_ends)
        for i in range(self.u_n):
            if self.u_event[i] == 0:
                undo.append(self.u_lone[i])
            elif self.u_event[i] > 0:
                undo.append((self.u_lone[i], self.u_event[i]))
            else:
                undo.append((self.u_lone[i], next(ends)))
        return {
            "hands": self.hands,
            "floor": self.g.floor,
            "stock": self.stock,
            "stock_pos": self.g.stock_pos,
            "piles": self.piles,
            "basras": self.basras,
            "basra_points": list(self._basra_points),
            "lone_last": self.g.lone_last,
            "turn": self.g.turn,
            "first_player": self.g.first,
            "scores": list(self._scores),
            "carry": self._carry,
            "plays": self._plays,
            "undo_log": undo,
        }

    def set_round_fields(self, dict fields):
        """Mirror of :meth:`basra.transition.Round.set_round_fields`."""
        cdef int i, side
        self._load(fields["hands"], fields["floor"], fields["stock"], fields["first_player"],
                   fields["turn"], fields["plays"])
        self.g.stock_pos = fields["stock_pos"]
        for side in range(self.g.n_sides):
            self.g.piles[side] = fields["piles"][side]
            self.g.basras[side] = fields["basras"][side]
            self.g.basra_pts[side] = min(fields["basra_points"][side], BIG)
        self._basra_points = fields["basra_points"]
        self.g.lone_last = fields["lone_last"]
        self._scores = fields["scores"]
        self._carry = fields["carry"]
        undo = fields["undo_log"]
        if len(undo) > 64:
            raise OverflowError("more than 64 plays in a round")
        self.u_n = len(undo)
        for i, entry in enumerate(undo):
            if type(entry) is int:
                self.u_lone[i] = entry
                self.u_event[i] = 0
            else:
                self.u_lone[i] = entry[0]
                if type(entry[1]) is int:
                    self.u_event[i] = entry[1]
                else:
                    self.u_event[i] = -1
                    self._round_ends.append(entry[1])

    # --------------------------------------------------------- the transition

    cdef object _score(self, int seat, int code):
        """The exact points of a basra of ``code`` by ``seat`` (counted in the Python list)."""
        cdef int side
        if not code:
            return 0
        value = self.kr.basra_values_py[code]
        side = self.g.side[seat]
        self._basra_points[side] = self._basra_points[side] + value
        return value

    def apply(self, int card, mask_t take):
        """Mirror of :meth:`basra.transition.Round.apply`."""
        cdef int seat = self.g.turn
        return self._score(seat, round_apply(&self.g, card, take))

    def unapply(self, int seat, int card, mask_t take, basra, int lone_last):
        """Mirror of :meth:`basra.transition.Round.unapply`."""
        cdef int side = self.g.side[seat]
        cdef mask_t bit = (<mask_t>1) << card
        self.g.hands[seat] |= bit
        if take:
            self.g.floor |= take
            self.g.piles[side] ^= take | bit
        else:
            self.g.floor ^= bit
        if basra:
            self.g.basras[side] -= 1
            self._basra_points[side] = self._basra_points[side] - basra
            self.g.basra_pts[side] = min(self._basra_points[side], BIG)
        self.g.lone_last = lone_last
        self.g.in_hands += 1
        self.g.turn = seat

    def deal_next(self):
        """Mirror of :meth:`basra.transition.Round.deal_next`."""
        return round_deal_next(&self.g)

    def finish(self):
        """Mirror of :meth:`basra.transition.Round.finish` (the pure scorer scores)."""
        cdef int last = (self.g.lone_last >> 1) - 1
        if last >= 0:
            self.g.piles[last] |= self.g.floor
            self.g.floor = 0
        return _score_round(
            self.kr.rules, self.piles, self.basras, self._basra_points,
            last if last >= 0 else None, self._scores, self._carry,
        )

    def restore_leftovers(self, mask_t floor, mask_t pile):
        cdef int last = (self.g.lone_last >> 1) - 1
        self.g.floor = floor
        if last >= 0:
            self.g.piles[last] = pile

    # ------------------------------------------------------------ history

    cpdef push(self, object move):
        """Mirror of :meth:`basra.transition.Round.push`."""
        cdef int card, seat = self.g.turn, lone = self.g.lone_last, code, i = self.u_n
        cdef mask_t take
        card = <int>(<object>PyTuple_GET_ITEM(move, 0))
        take = PyLong_AsUnsignedLongLong(<object>PyTuple_GET_ITEM(move, 1))
        if i >= 64:
            raise OverflowError("more than 64 plays in a round")
        code = round_apply(&self.g, card, take)
        basra = self._score(seat, code)
        PyList_Append(self._plays, k_tuple3(_Play, seat, move, basra))
        self.u_lone[i] = lone
        self.u_n = i + 1
        if self.g.in_hands:
            self.u_event[i] = 0
        elif self.g.stock_pos < self.g.stock_len:
            self.u_event[i] = round_deal_next(&self.g)
        else:
            self.u_event[i] = -1
            self._round_ends.append(self._end_round())

    cpdef pop(self):
        """Mirror of :meth:`basra.transition.Round.pop`."""
        cdef int i, event, other
        if self.u_n == 0:
            raise IndexError("no play of this round to undo")
        i = self.u_n - 1
        event = self.u_event[i]
        if event > 0:
            for other in range(self.g.players):
                self.g.hands[other] = 0
            self.g.stock_pos -= event * self.g.players
            self.g.in_hands = 0
        elif event < 0:
            self._reopen_round(self._round_ends.pop())
        self.u_n = i
        seat, move, basra = self._plays.pop()
        self.unapply(seat, move[0], move[1], basra, self.u_lone[i])
        return move

    def play_random(self, list draws):
        """Play the round to its end choosing as :class:`basra.bots.RandomBot` does.

        Seat ``s`` plays ``moves[int(draws[s]() * len(moves))]`` of its legal
        moves (``draws[s]`` is its bot's ``random.random``), so the plays are
        exactly those of the bots on their views. Returns how many were made.
        """
        cdef MoveBuf buf
        cdef int i, plays = 0
        while self.g.in_hands:
            gen_moves(self.g.r, self.g.hands[self.g.turn], self.g.floor, &buf)
            i = <int>(<double>draws[self.g.turn]() * buf.n)
            self.push(move_object(buf.cards[i], buf.takes[i]))
            plays += 1
        return plays

    def _end_round(self):
        last = self.last_capture_side
        token = (self.g.floor, self.g.piles[last] if last is not None else 0)
        self.finish()
        return token

    def _reopen_round(self, token):
        self.restore_leftovers(*token)
