"""Integer weights: the exact counting behind every dice distribution.

A table of weights ``{total: w}`` gives each total a whole-number weight, relative to the sum
of all weights (a probability is ``w / sum``). Counting in integers and dividing once keeps
every step exact and avoids a Fraction (and its gcd) per addition.

A die is given as *blocks*: runs of consecutive faces that share a weight, ``(first face,
number of faces, weight)``. A plain d8 is one block ``(1, 8, 1)``; a compounding d6 is one
block per number of explosions, ``(6k + 1, 5, 6 ** (depth - k))``. Summing dice block by block
costs one window sum per block, however many faces the block has.

Each function here has a cost estimate beside it in :mod:`rulescore.dice.budget`; a change to
how one counts must change its estimate too.
"""

from __future__ import annotations

from math import comb

Weights = dict[int, int]
Block = tuple[int, int, int]           # (first face, number of faces, weight of each face)


def uniform(sides: int) -> tuple[Block, ...]:
    """A plain die of *sides* faces."""
    return ((1, sides, 1),)


def faces(blocks: tuple[Block, ...]) -> list[tuple[int, int]]:
    """(face, weight) of every face of a die, highest first."""
    return [(s + i, w) for s, n, w in sorted(blocks, reverse=True) for i in range(n - 1, -1, -1)]


def sum_of_dice(blocks: tuple[Block, ...], count: int) -> Weights:
    """The sum of *count* dice, one die at a time.

    Adding a die to a table of totals adds, for each block, a window sum of the table (the
    totals the block's faces can reach) times the block's weight; prefix sums make each window
    two lookups, so a die costs (blocks × totals) additions whatever its number of faces."""
    if len(blocks) == 1 and blocks[0][2] == 1:
        return _uniform_sum(count, blocks[0][0], blocks[0][1])
    low = min(s for s, _, _ in blocks)
    high = max(s + n - 1 for s, n, _ in blocks)
    ways = [1]                                    # ways[i] = weight of total (dice so far · low) + i
    for _ in range(count):
        prefix = [0]
        for v in ways:
            prefix.append(prefix[-1] + v)
        size = len(ways)
        nxt = [0] * (size + high - low)
        for start, length, weight in blocks:
            shift = start - low
            for t in range(size + length - 1):    # the window ways[t - length + 1 .. t]
                v = prefix[t + 1 if t < size else size] - prefix[t - length + 1 if t >= length else 0]
                if v:
                    nxt[t + shift] += v if weight == 1 else v * weight
        ways = nxt
    base = low * count
    return {base + i: w for i, w in enumerate(ways) if w}


def _uniform_sum(count: int, first: int, sides: int) -> Weights:
    """The sum of *count* dice showing *first* .. *first* + *sides* − 1, each face once: one
    die at a time, each new total a running window of the old ones (no prefix table, no
    multiplication: the commonest case, kept lean)."""
    ways = [1]
    for _ in range(count):
        running, nxt = 0, []
        for t in range(len(ways) + sides - 1):
            running += ways[t] if t < len(ways) else 0
            running -= ways[t - sides] if t >= sides else 0
            nxt.append(running)
        ways = nxt
    return {t + first * count: w for t, w in enumerate(ways)}


def highest_sum(die: list[tuple[int, int]], count: int, keep: int) -> Weights:
    """The sum of the highest *keep* of *count* dice, each die weighted as *die* (faces given
    highest first, as (face, weight)).

    Faces are taken from the top down. A state is (dice placed so far, their sum) while every
    placed die is kept. When face f completes the kept dice, the rest of the pool (count −
    placed − c) shows faces below f: ``below ** rest`` weights, where *below* is the weight of
    the faces under f; ``C(left, c) · weight(f) ** c`` places the c dice showing f. This counts
    each roll once, by its sorted faces, without listing the pool."""
    rows = [[comb(left, c) for c in range(left + 1)] for left in range(count + 1)]
    below = sum(w for _, w in die)
    done: Weights = {}
    states = {(0, 0): 1}
    for face, weight in die:
        below -= weight
        own = [weight ** c for c in range(count + 1)]
        under = [below ** r for r in range(count + 1)]
        nxt: dict[tuple[int, int], int] = {}
        for (placed, total), w in states.items():
            left = count - placed
            row = rows[left]
            need = keep - placed
            for c in range(need):                 # all kept, still short of *keep*
                key = (placed + c, total + c * face)
                nxt[key] = nxt.get(key, 0) + w * row[c] * own[c]
            rest = sum(row[c] * own[c] * under[left - c] for c in range(need, left + 1))
            if rest:
                kept = total + need * face
                done[kept] = done.get(kept, 0) + w * rest
        states = nxt
    return {t: w for t, w in sorted(done.items()) if w}


def lowest_sum(die: list[tuple[int, int]], count: int, keep: int) -> Weights:
    """The sum of the lowest *keep* of *count* dice: the highest *keep* of the negated faces."""
    mirrored = [(-f, w) for f, w in reversed(die)]
    return {-t: w for t, w in reversed(highest_sum(mirrored, count, keep).items())}


def binomial(count: int, hits: int, misses: int) -> Weights:
    """Successes among *count* dice, each a success in *hits* of *hits + misses* weights."""
    return {s: comb(count, s) * hits ** s * misses ** (count - s) for s in range(count + 1)
            if (hits or s == 0) and (misses or s == count)}


def add(a: Weights, b: Weights) -> Weights:
    """The weights of the sum of two independent totals.

    Small tables are convolved pair by pair. Large ones (``50d100+50d99``: 25 million pairs,
    about 6 s that way) by Kronecker substitution: each table becomes one integer whose
    base-2**(8·width) digits are its weights, wide enough that no digit of the product
    overflows, and Python's big-integer product does the convolution in one call."""
    if len(a) * len(b) <= 4096:
        out: Weights = {}
        for u, wu in a.items():
            for v, wv in b.items():
                out[u + v] = out.get(u + v, 0) + wu * wv
        return dict(sorted(out.items()))
    lo_a, lo_b = min(a), min(b)
    span_a, span_b = max(a) - lo_a + 1, max(b) - lo_b + 1
    width = (max(a.values()).bit_length() + max(b.values()).bit_length()
             + min(span_a, span_b).bit_length() + 7) // 8         # bytes a product digit needs

    def packed(weights: Weights, lo: int, span: int) -> int:
        return int.from_bytes(b"".join(weights.get(lo + i, 0).to_bytes(width, "little")
                                       for i in range(span)), "little")

    digits = (packed(a, lo_a, span_a) * packed(b, lo_b, span_b)).to_bytes(
        width * (span_a + span_b - 1), "little")
    out = {}
    for i in range(span_a + span_b - 1):
        w = int.from_bytes(digits[i * width:(i + 1) * width], "little")
        if w:
            out[lo_a + lo_b + i] = w
    return out
