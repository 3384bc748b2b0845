#!/usr/bin/env python3
"""Independent perft derivation for Pentago (rules PG1, PG2, PG3).

Written from scratch from the rules below; shares no code with any engine.

Rules implemented:
  * PG1: 6x6 board in four 3x3 quadrants numbered 1-4 row by row from the
    bottom-left (1 = a1-c3, 2 = d1-f3, 3 = a4-c6, 4 = d4-f6); columns a-f
    from the left, rows 1-6 from the bottom.  X moves first, sides
    alternate.  A move places the mover's mark on an empty cell, then turns
    one quadrant (any, even an empty one) a quarter turn clockwise (`c3/2+`)
    or anticlockwise (`c3/2-`).  Clockwise is as the board is drawn with
    row 6 at the top: the quadrant's top-left cell goes to its top-right,
    top-right to bottom-right, ...  Turning an empty or symmetric quadrant
    is still a distinct move, so a cell normally gives 8 moves.
  * PG2: five or more of one's marks in a row (row, column, either
    diagonal) wins.  A placement that makes five for the mover wins at once,
    WITHOUT a turn: that move is written `c3` alone and is the only move for
    that cell.
  * PG3: after the turn the whole board is judged: five for the mover alone:
    the mover wins; five for the opponent alone: the opponent wins; five for
    both: a draw.  Nobody has five and the board is full: a draw.  A game
    that ended has no moves.
Perft: perft(0)=1, perft(d)=sum over legal moves of perft(d-1); an ended
position has no moves.  "X wins / O wins / draws" at depth d count the move
sequences of length d whose LAST move ended the game that way.

Positions: rows from the top (row 6) down to row 1 separated by '/', X/O for
marks, digits for runs of empty cells, then the side to move
("6/6/6/6/6/6 X").

Two implementations:
  1. bitboards (used for all figures): one int per side, bit 9*q + 3*lr + lc
     for quadrant q (0..3 = quadrants 1..4), local row lr and column lc
     (from the quadrant's bottom-left), so a quadrant is 9 consecutive bits
     and a turn is a lookup in a 512-entry table built from the coordinate
     rule (dx, dy) -> (dy, -dx) (clockwise) about the quadrant's centre.
     Shortcuts: perft 1 is counted without building children (count1), and
     when nobody can hold five marks within the remaining plies and the
     board cannot fill, perft is the product 8e * 8(e-1) * ... (e = empty
     cells).  Both can be switched off (moves1_plain judges every child
     against all 32 windows).
  2. a grid of strings as drawn (row 6 first) with slicing (cross-check
     only): a quadrant is cut out as three 3-character strings and turned
     as a picture (clockwise: the new top row is the old left column read
     bottom-up); fives are found by a regular expression over the rows
     joined with '/' (runs along a row, and with strides 7, 6 and 8 down
     the columns and diagonals).  No shortcuts at all.
"""
import re
import time

OTHER = {"X": "O", "O": "X"}
FILES = "abcdef"


def cell_name(c, r):                     # c, r: 0..5 from the left / bottom
    return FILES[c] + str(r + 1)


# ================================================ implementation 1 (bitboards)
def bit_of(c, r):
    q = (r // 3) * 2 + (c // 3)          # 0: a1-c3, 1: d1-f3, 2: a4-c6, 3: d4-f6
    return 9 * q + 3 * (r % 3) + (c % 3)

CELL = {(c, r): bit_of(c, r) for c in range(6) for r in range(6)}
COORD = {b: cr for cr, b in CELL.items()}
assert sorted(CELL.values()) == list(range(36))
FULL = (1 << 36) - 1
QMASK = [511 << (9 * q) for q in range(4)]


def build_turn_table(clockwise):
    """ROT[v] = 9-bit quadrant contents v after a quarter turn."""
    perm = {}
    for lr in range(3):
        for lc in range(3):
            dx, dy = lc - 1, lr - 1                       # relative to the centre
            ndx, ndy = (dy, -dx) if clockwise else (-dy, dx)
            perm[3 * lr + lc] = 3 * (ndy + 1) + (ndx + 1)
    table = []
    for v in range(512):
        t = 0
        for i in range(9):
            if v >> i & 1:
                t |= 1 << perm[i]
        table.append(t)
    return table

TURN = {"+": build_turn_table(True), "-": build_turn_table(False)}
# sanity: as drawn, clockwise sends top-left (lc 0, lr 2) to top-right (lc 2, lr 2)
assert TURN["+"][1 << 6] == 1 << 8 and TURN["+"][1 << 8] == 1 << 2
assert all(TURN["-"][TURN["+"][v]] == v for v in range(512))
# (mask to keep, shift, table) for every turn, in the order quadrant 1..4, + then -
TURNS = [(q + 1, d, FULL & ~QMASK[q], 9 * q, TURN[d]) for q in range(4) for d in "+-"]


def build_windows():
    """Every run of five cells in a line, as (list of (c, r), mask)."""
    wins = []
    for c0 in range(6):
        for r0 in range(6):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = [(c0 + k * dc, r0 + k * dr) for k in range(5)]
                if all(0 <= c < 6 and 0 <= r < 6 for c, r in cells):
                    m = 0
                    for cr in cells:
                        m |= 1 << CELL[cr]
                    wins.append((cells, m))
    return wins

WINDOWS = build_windows()
assert len(WINDOWS) == 32                      # 12 rows + 12 columns + 8 diagonals
WIN_MASKS = [m for _, m in WINDOWS]
WIN_THROUGH = {b: [m for m in WIN_MASKS if m >> b & 1] for b in range(36)}


def five(b):
    if b.bit_count() < 5:
        return False
    for m in WIN_MASKS:
        if b & m == m:
            return True
    return False


def parse(fen):
    rows, side = fen.split()
    x = o = 0
    rows = rows.split("/")
    assert len(rows) == 6, fen
    for k, row in enumerate(rows):               # k = 0 is row 6
        c = 0
        for ch in row:
            if ch.isdigit():
                c += int(ch)
            else:
                assert ch in "XO", fen
                if ch == "X":
                    x |= 1 << CELL[(c, 5 - k)]
                else:
                    o |= 1 << CELL[(c, 5 - k)]
                c += 1
        assert c == 6, fen
    nx, no = x.bit_count(), o.bit_count()
    assert side == ("X" if nx == no else "O") and nx - no in (0, 1), fen
    assert not five(x) and not five(o), "the position already has five: " + fen
    assert (x | o) != FULL, "the board is full: " + fen
    return x, o, side


def to_fen(x, o, side):
    out = []
    for r in range(5, -1, -1):
        s, run = "", 0
        for c in range(6):
            b = 1 << CELL[(c, r)]
            v = "X" if x & b else "O" if o & b else None
            if v is None:
                run += 1
            else:
                s += (str(run) if run else "") + v
                run = 0
        out.append(s + (str(run) if run else ""))
    return "/".join(out) + " " + side


# For the judging after a turn of quadrant q only the windows that meet q
# can change; each is split into its cells outside q (a board mask) and
# inside q (a 9-bit quadrant mask).  A window that misses q is unchanged by
# the turn, and it cannot be full: the position had no five (games stop at
# the first five) and the placement made none (else it won at once).
WIN_SPLIT = [[(m & ~QMASK[q], (m & QMASK[q]) >> (9 * q)) for m in WIN_MASKS if m & QMASK[q]]
             for q in range(4)]


def moves1(x, o, side, boards=True):
    """Yield (text, x', o', result) for every legal move; result is None
    (the game goes on) or 'X' / 'O' (that side wins) or 'D' (draw).
    With boards=False, x' and o' are not built (None)."""
    me, opp = (x, o) if side == "X" else (o, x)
    occ = x | o
    for b in range(36):
        bit = 1 << b
        if occ & bit:
            continue
        name = cell_name(*COORD[b])
        nme = me | bit
        if any(nme & m == m for m in WIN_THROUGH[b]):          # PG2: five at once
            if boards:
                yield (name, nme, opp, side) if side == "X" else (name, opp, nme, side)
            else:
                yield name, None, None, side
            continue
        full = (occ | bit) == FULL
        for q in range(4):
            sh, keep = 9 * q, FULL & ~QMASK[q]
            # windows whose cells outside q are all the mover's / opponent's
            c_me = [wi for wo, wi in WIN_SPLIT[q] if nme & wo == wo]
            c_opp = [wi for wo, wi in WIN_SPLIT[q] if opp & wo == wo]
            v_me, v_opp = (nme >> sh) & 511, (opp >> sh) & 511
            for d in "+-":
                table = TURN[d]
                r_me, r_opp = table[v_me], table[v_opp]
                f_me = any(r_me & wi == wi for wi in c_me)
                f_opp = any(r_opp & wi == wi for wi in c_opp)
                if f_me and f_opp:
                    res = "D"
                elif f_me:
                    res = side
                elif f_opp:
                    res = OTHER[side]
                else:
                    res = "D" if full else None
                text = "%s/%d%s" % (name, q + 1, d)
                if boards:
                    tm, to = (nme & keep) | (r_me << sh), (opp & keep) | (r_opp << sh)
                    yield (text, tm, to, res) if side == "X" else (text, to, tm, res)
                else:
                    yield text, None, None, res


def moves1_plain(x, o, side):
    """The same moves judged the slow way: the whole board against all 32
    windows after every turn (used to check moves1)."""
    me, opp = (x, o) if side == "X" else (o, x)
    occ = x | o
    for b in range(36):
        bit = 1 << b
        if occ & bit:
            continue
        name = cell_name(*COORD[b])
        nme = me | bit
        if five(nme):
            yield (name, nme, opp, side) if side == "X" else (name, opp, nme, side)
            continue
        for q, d, keep, sh, table in TURNS:
            tm = (nme & keep) | (table[(nme >> sh) & 511] << sh)
            to = (opp & keep) | (table[(opp >> sh) & 511] << sh)
            f_me, f_opp = five(tm), five(to)
            res = ("D" if f_me and f_opp else side if f_me else OTHER[side] if f_opp
                   else "D" if (tm | to) == FULL else None)
            text = "%s/%d%s" % (name, q, d)
            yield (text, tm, to, res) if side == "X" else (text, to, tm, res)


KEY = {"X": 1, "O": 2, "D": 3}


def count1(x, o, side):
    """perft 1 with its outcomes, counted without building the children:
    [total, X wins, O wins, draws]."""
    me, opp = (x, o) if side == "X" else (o, x)
    occ = x | o
    full_after = (occ.bit_count() == 35)          # the placement fills the board
    win_me, win_opp = KEY[side], KEY[OTHER[side]]
    tot = [0, 0, 0, 0]
    # windows (per quadrant) the opponent fills outside q: fixed for the node
    opp_c = [[wi for wo, wi in WIN_SPLIT[q] if opp & wo == wo] for q in range(4)]
    # windows the mover may fill outside q after one placement: no opponent
    # mark outside q and at most one cell outside q missing
    me_pre = [[(wo, wi) for wo, wi in WIN_SPLIT[q]
               if not wo & opp and not (wo & ~me) & ((wo & ~me) - 1)] for q in range(4)]
    for b in range(36):
        bit = 1 << b
        if occ & bit:
            continue
        nme = me | bit
        if any(nme & m == m for m in WIN_THROUGH[b]):          # PG2: five at once
            tot[0] += 1
            tot[win_me] += 1
            continue
        for q in range(4):
            c_opp = opp_c[q]
            c_me = [wi for wo, wi in me_pre[q] if nme & wo == wo]
            if not c_me and not c_opp:                        # neither turn can make five
                tot[0] += 2
                if full_after:
                    tot[3] += 2
                continue
            sh = 9 * q
            v_me, v_opp = (nme >> sh) & 511, (opp >> sh) & 511
            for table in (TURN["+"], TURN["-"]):
                r_me, r_opp = table[v_me], table[v_opp]
                f_me = any(r_me & wi == wi for wi in c_me)
                f_opp = any(r_opp & wi == wi for wi in c_opp)
                tot[0] += 1
                if f_me and f_opp:
                    tot[3] += 1
                elif f_me:
                    tot[win_me] += 1
                elif f_opp:
                    tot[win_opp] += 1
                elif full_after:
                    tot[3] += 1
    return tot


def perft1(x, o, side, depth, shortcut=True):
    """[total, X wins, O wins, draws] over the move sequences of `depth` plies.
    shortcut=False: no bulk formula and no count1 (the children are all
    generated and judged by moves1_plain)."""
    if depth == 0:
        return [1, 0, 0, 0]
    if shortcut:
        # Nothing can end within `depth` plies if neither side can hold five
        # marks by then and the board cannot fill: every ply then has
        # 8 * (empty cells) moves and no sequence ends early.
        e = 36 - (x | o).bit_count()
        nme, nopp = (x, o) if side == "X" else (o, x)
        if (nme.bit_count() + (depth + 1) // 2 < 5 and nopp.bit_count() + depth // 2 < 5
                and e > depth):
            n = 1
            for i in range(depth):
                n *= 8 * (e - i)
            return [n, 0, 0, 0]
        if depth == 1:
            return count1(x, o, side)
    tot = [0, 0, 0, 0]
    nxt = OTHER[side]
    gen = moves1(x, o, side) if shortcut else moves1_plain(x, o, side)
    for _, nx, no, res in gen:
        if res is not None:
            if depth == 1:
                tot[0] += 1
                tot[KEY[res]] += 1
        elif depth == 1:
            tot[0] += 1
        else:
            r = perft1(nx, no, nxt, depth - 1, shortcut)
            tot[0] += r[0]; tot[1] += r[1]; tot[2] += r[2]; tot[3] += r[3]
    return tot


def run1(fen, depth, shortcut=True):
    return perft1(*parse(fen), depth, shortcut)


# ========================================== implementation 2 (grid / slicing)
# grid: list of 6 strings, grid[0] is row 6 (as drawn), grid[k][c] column c.
# quadrant n -> (first grid row, first column) of its 3x3 block as drawn
QUAD_AT = {1: (3, 0), 2: (3, 3), 3: (0, 0), 4: (0, 3)}


def grid_of(fen):
    rows, side = fen.split()
    expand = lambda row: "".join("." * int(ch) if ch.isdigit() else ch for ch in row)
    return [expand(row) for row in rows.split("/")], side


def turn_picture_cw(block):
    """Clockwise quarter turn of a picture (list of row strings, top first):
    the new top row is the old left column read from the bottom up."""
    return ["".join(col) for col in zip(*reversed(block))]


def turn_quadrant(grid, n, d):
    r0, c0 = QUAD_AT[n]
    block = [row[c0:c0 + 3] for row in grid[r0:r0 + 3]]
    for _ in range(1 if d == "+" else 3):            # anticlockwise = 3 clockwise
        block = turn_picture_cw(block)
    g = grid[:]
    for i in range(3):
        g[r0 + i] = g[r0 + i][:c0] + block[i] + g[r0 + i][c0 + 3:]
    return g


# The grid joined with '/' puts cell (k, c) at 7k + c: a column steps 7
# characters, the diagonals 8 (down-right as drawn) and 6 (down-left); a
# diagonal that runs off the board lands on a '/' and stops the match.
FIVE_RE = {p: re.compile("{0}{0}{0}{0}{0}|{0}(?:.{{5}}{0}){{4}}|{0}(?:.{{6}}{0}){{4}}|{0}(?:.{{7}}{0}){{4}}"
                         .format(p), re.S) for p in "XO"}


def fives2(grid):
    s = "/".join(grid)
    return {p for p in "XO" if FIVE_RE[p].search(s)}


def children2(grid, side):
    """Yield (text, grid', result) with result None / 'X' / 'O' / 'D'."""
    for k in range(6):
        for c in range(6):
            if grid[k][c] != ".":
                continue
            g = grid[:]
            g[k] = g[k][:c] + side + g[k][c + 1:]
            name = FILES[c] + str(6 - k)
            if side in fives2(g):                     # the placement made five
                yield name, g, side
                continue
            for n in (1, 2, 3, 4):
                for d in "+-":
                    t = turn_quadrant(g, n, d)
                    f = fives2(t)
                    if len(f) == 2:
                        res = "D"
                    elif f:
                        res = f.pop()
                    elif "." not in "".join(t):
                        res = "D"
                    else:
                        res = None
                    yield "%s/%d%s" % (name, n, d), t, res


def perft2(grid, side, depth):
    """[total, X wins, O wins, draws, draws on a full board without five,
    wins by a placement alone (PG2)] over the sequences of `depth` plies."""
    if depth == 0:
        return [1, 0, 0, 0, 0, 0]
    tot = [0, 0, 0, 0, 0, 0]
    for text, g, res in children2(grid, side):
        if res is not None:
            if depth == 1:
                tot[0] += 1
                tot[KEY[res]] += 1
                if res == "D" and not fives2(g):
                    tot[4] += 1
                if "/" not in text:
                    tot[5] += 1
        else:
            r = perft2(g, OTHER[side], depth - 1)
            tot = [a + b for a, b in zip(tot, r)]
    return tot


def games2(grid, side):
    """Every complete game from here by its result: [all, X wins, O wins, draws]."""
    tot = [0, 0, 0, 0]
    for _, g, res in children2(grid, side):
        if res is None:
            tot = [a + b for a, b in zip(tot, games2(g, OTHER[side]))]
        else:
            tot[0] += 1
            tot[KEY[res]] += 1
    return tot


def run2(fen, depth):
    return perft2(*grid_of(fen), depth)


# ====================================================================== main
START = "6/6/6/6/6/6 X"
# P2: X holds b1-e1 (row 1), so a1 and f1 each make five at once (a1-e1,
#     b1-f1): one move each, `a1` and `f1`, no turn.  Every other empty
#     cell (22 of them) gives 8 moves and none ends the game: on row 1 a
#     turn of quadrant 1 or 2 brings an O or an empty cell into b1-e1 (q1+
#     puts c2's O on b1, q1- the empty a1 on c1, q2+ the empty f1 on d1,
#     q2- d3 and d2 on d1 and e1, at most one of them X's), and O's a6-d6
#     cannot be completed by X's move (any turn of quadrant 4 moves d6).
#     perft 1 = 2 + 22*8 = 178.  O threatens e6 (a6-e6) in reply.
P2 = "OOOO2/4X1/2O3/1X4/2O3/1XXXX1 X"
# P3: a clockwise turn of quadrant 4 (d4-f6) sends d4->d6, d5->e6,
#     f4->d4, f5->e4.  O holds a4 b4 c4 f4 f5: after an X placement on any
#     empty cell but d5, /4+ gives O a4-e4, five for the opponent alone ->
#     O wins (21 moves).  X holds a6 b6 c6 d4: `d5/4+` also gives X a6-e6
#     -> five for both -> draw.  `c3/3+` (q3 clockwise: a6->c6, b6->c5,
#     c6->c4) gives X c2-c6 and breaks O's row 4 -> X wins.  No placement
#     makes five at once: perft 1 = 22*8 = 176.
P3 = "XXX3/5O/OOOX1O/4X1/1OX3/X4O X"
# P4: four empty cells a1 b5 c4 d4, 16 marks each.  `a1` makes a1-e1 at
#     once.  q4 (d4-f6) clockwise sends e4->d5, e6->f5, d4->d6;
#     anticlockwise f6->d6, f5->e6, e6->d5, e4->f5.  `b5/4+`: row 5
#     becomes X a5-f5 (six) and row 6 stays broken at d6 -> X wins.
#     `b5/4-`: row 5 X a5-f5 and row 6 O a6-e6 -> draw.  `c4/4-`, `d4/4-`:
#     O a6-e6 alone (b5 empty) -> O wins.  The fourth ply fills the board:
#     without five, a draw.  perft 1 = 1 + 3*8 = 25; perft 5 = 0.
P4 = "OOOOXO/X1XOXO/OO2XX/OXOOXO/XOXXOX/1XXXXO X"

SETUPS = (("P2", P2, 3), ("P3", P3, 3), ("P4", P4, 5))


def describe(label, fen):
    x, o, side = parse(fen)
    assert to_fen(x, o, side) == fen
    kinds, n = {}, 0
    for text, _, _, res in moves1(x, o, side):
        n += 1
        if res is not None:
            kinds.setdefault(res, []).append(text)
    print(f"{label}: {fen}   ({n} moves, {36 - (x | o).bit_count()} empty cells)")
    names = {"X": "X wins", "O": "O wins", "D": "draw"}
    for k in "XOD":
        if k in kinds:
            print(f"    {names[k]:7}: {' '.join(kinds[k])}")


def table(rows):
    print("  depth          total       X wins       O wins        draws")
    for d, r in rows:
        print("  %5d %14d %12d %12d %12d" % (d, *r[:4]))


def check_job(args):
    kind, fen, d = args
    t = time.time()
    r = run2(fen, d) if kind == "impl2" else run1(fen, d, shortcut=False)
    return kind, fen, d, r, time.time() - t


def main():
    t0 = time.time()
    print("Pentago perft (independent derivation)")
    print(f"start: {START}")
    rows = []
    for d in range(1, 5):
        rows.append((d, run1(START, d)))
    table(rows)
    print("  (288*280*272 = %d, *264 = %d: nobody can hold five marks before ply 9)"
          % (288 * 280 * 272, 288 * 280 * 272 * 264))
    print()
    for label, fen, depth in SETUPS:
        describe(label, fen)
        rows = []
        for d in range(1, depth + 1):
            rows.append((d, run1(fen, d)))
        table(rows)
        if rows[-1][1][0] == 0:
            # every game has ended by the last depth: the games by result are
            # the sums of the sequences that ended at each depth
            g = [sum(r[i] for _, r in rows) for i in (1, 2, 3)]
            print("  games (all, X wins, O wins, draws): %d %d %d %d" % (sum(g), *g))
            g2 = games2(*grid_of(fen))
            print("  games counted by implementation 2:   %d %d %d %d  %s"
                  % (*g2, "OK" if g2 == [sum(g), *g] else "MISMATCH"))
            assert g2 == [sum(g), *g]
        print()

    print("cross-check: implementation 2 (grid / slicing, no shortcuts) and")
    print("implementation 1 without its shortcuts (no bulk formula, no count1,")
    print("whole-board judging by moves1_plain; start to depth 3, the bulk")
    print("formula's last exact check); 2 processes")
    jobs = ([("impl2", START, d) for d in (1, 2)] + [("plain", START, d) for d in (1, 2, 3)] +
            [("impl2", fen, d) for _, fen, depth in SETUPS for d in range(1, depth + 1)] +
            [("plain", fen, d) for _, fen, depth in SETUPS for d in range(1, min(depth, 2) + 1)] +
            [("plain", P4, d) for d in (3, 4, 5)])
    jobs.sort(key=lambda j: -j[2])                    # long jobs first
    from concurrent.futures import ProcessPoolExecutor
    ok = True
    label_of = {START: "start", **{fen: lab for lab, fen, _ in SETUPS}}
    with ProcessPoolExecutor(max_workers=2) as pool:
        out = list(pool.map(check_job, jobs))
    out.sort(key=lambda j: (list(label_of).index(j[1]), j[0], j[2]))
    for kind, fen, d, r, secs in out:
        ref = run1(fen, d)
        same = r[:4] == ref
        ok &= same
        extra = ""
        if kind == "impl2":
            extra = f"  (draws on a full board {r[4]}, wins by placement {r[5]})"
        print(f"  {label_of[fen]:5} d={d} {kind:5}: {r[:4]} {'OK' if same else 'MISMATCH ' + str(ref)}"
              f"{extra}  [{secs:.1f}s]")
    print("cross-check", "PASSED" if ok else "FAILED")
    print(f"total runtime {time.time() - t0:.1f}s")


if __name__ == "__main__":
    main()
