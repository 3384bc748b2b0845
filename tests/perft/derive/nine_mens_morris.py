#!/usr/bin/env python3
"""Independent perft derivation for nine men's morris (rules NM1, NM2, NM3).

Written from scratch from the rules below; shares no code with any engine.

Rules implemented:
  * NM1: 24 points on three nested squares joined at their midpoints, named
    on a 7x7 grid (columns a-g from the left, rows 1-7 from the bottom):
    a1 d1 g1 b2 d2 f2 c3 d3 e3 a4 b4 c4 e4 f4 g4 c5 d5 e5 b6 d6 f6 a7 d7 g7;
    no other cell exists.  The 16 lines (mills) are the rows a7-d7-g7,
    b6-d6-f6, c5-d5-e5, a4-b4-c4, e4-f4-g4, c3-d3-e3, b2-d2-f2, a1-d1-g1 and
    the columns a1-a4-a7, b2-b4-b6, c3-c4-c5, d1-d2-d3, d5-d6-d7, e3-e4-e5,
    f2-f4-f6, g1-g4-g7.  Two points are adjacent when they are consecutive
    on one of these lines (no diagonals).  Each side has nine pieces in
    hand; X moves first, sides alternate.  While a side has pieces in hand
    its move places one on an empty point (`d7`); once its hand is empty
    its move steps one own piece to an adjacent empty point (`d6-d7`).
  * NM2: a move that forms a mill (the moved/placed piece ends on a line
    whose three points all hold the mover's pieces) removes one opponent
    piece that is not in a mill, or any opponent piece if all of the
    opponent's pieces are in mills.  The removal is part of the move
    (`d7xa1`, `d6-d7xa1`); every choice of the removed piece is a separate
    move.  Two mills formed at once still remove one piece.  With no
    opponent piece on the board the move is the plain move (cannot happen
    in play; coded anyway).  A removed piece is gone for good.
  * NM3: a side with exactly three pieces on the board and none in hand
    moves a piece to ANY empty point (flying, `a1-g7`); flying moves form
    mills and remove like any other.  After a move, a side whose pieces (on
    the board plus in hand) number two or fewer has lost: the move that
    takes the opponent's third-last piece wins.  A side with no legal move
    on its turn has lost (the game ends when the blocking move is made:
    that position has no moves and the ending is counted as a win for the
    other side at the depth of the blocking move).  The third occurrence of
    a position (board + side to move + both hands) along the game path is
    a draw; the starting position of a perft run is its first occurrence.
    The judging order after a move: the opponent has two or fewer pieces
    (mover wins); else the opponent has no move (mover wins); else the
    position's third occurrence (draw).  The orders cannot disagree: a move
    that removes a piece makes a position never seen before, and a blocked
    position cannot have been reached before (the game would have ended).
Perft: perft(0)=1, perft(d)=sum over legal moves of perft(d-1); an ended
position has no moves.  "X wins / O wins / draws" at depth d count the move
sequences of length d whose LAST move ended the game that way.

Positions (the engine's text): rows from row 7 (top) down to row 1
separated by '/', each row listing only its playable points from the left
(row 4: a4 b4 c4 e4 f4 g4), 'X', 'O' or a digit for a run of empty points;
then the side to move, the pieces in hand "X,O" and '-':
"3/3/3/6/3/3/3 X 9,9 -".

Two implementations:
  1. bitmasks over the 24 points in the NM1 order (bit 0 = a1 ... bit 23 =
     g7) with the mills and the adjacency masks built from the rule's line
     list as text.  Used for all figures.  Shortcuts (each can be switched
     off, and the cross-check runs it without them too):
       - while anybody has pieces in hand, results are memoised by
         (position, depth): every earlier position of the game has a
         larger hand total, so none can recur below and the subtree does
         not depend on the path;
       - at depth 1 with both hands non-empty and the opponent keeping more
         than two pieces after a removal, nothing can end the game, and the
         moves are counted without building the children;
       - positions are remembered for repetition only once both hands are
         empty (a placement changes a hand, so it never repeats anything).
  2. dictionaries of point names (cross-check only): the points and lines
     are rebuilt from the geometry (three nested squares, corners and
     midpoints, plus the four midpoint cross lines) and checked against
     the rule's list; a board is a dict name -> 'X'/'O'; mills are found by
     scanning the line list; "no legal move" is decided by generating the
     opponent's whole move list; repetition by counting the position text
     in the list of every position of the game.  No shortcuts at all.
  The two are compared on every figure both compute, and on the full move
  list (texts) of every listed position.
"""
import sys
import time

OTHER = {"X": "O", "O": "X"}

# ============================================== implementation 1 (bitmasks)
POINTS = "a1 d1 g1 b2 d2 f2 c3 d3 e3 a4 b4 c4 e4 f4 g4 c5 d5 e5 b6 d6 f6 a7 d7 g7".split()
IDX = {p: i for i, p in enumerate(POINTS)}
FULL = (1 << 24) - 1
LINE_TEXT = ("a7-d7-g7 b6-d6-f6 c5-d5-e5 a4-b4-c4 e4-f4-g4 c3-d3-e3 b2-d2-f2 a1-d1-g1 "
             "a1-a4-a7 b2-b4-b6 c3-c4-c5 d1-d2-d3 d5-d6-d7 e3-e4-e5 f2-f4-f6 g1-g4-g7")
LINES1 = [[IDX[p] for p in t.split("-")] for t in LINE_TEXT.split()]
assert len(LINES1) == 16 and all(len(l) == 3 for l in LINES1)
MILLS = [sum(1 << i for i in l) for l in LINES1]
MILLS_AT = [[m for m in MILLS if m >> i & 1] for i in range(24)]
assert all(len(ms) == 2 for ms in MILLS_AT)          # every point lies on two lines
ADJ = [0] * 24
for a, b, c in LINES1:
    ADJ[a] |= 1 << b; ADJ[b] |= 1 << a | 1 << c; ADJ[c] |= 1 << b
assert sum(bin(m).count("1") for m in ADJ) == 2 * 32  # 16 lines x 2 steps, both ways
# A step can never form two mills at once: the two lines through the target
# are the only lines through it, and the piece comes from a neighbour on one
# of them, which it leaves empty.  (Only a placement can make two.)
for t in range(24):
    for s in range(24):
        if ADJ[t] >> s & 1:
            assert sum(1 for m in MILLS_AT[t] if not m >> s & 1) == 1
ROWS1 = [[IDX[p] for p in sorted((p for p in POINTS if p[1] == str(r)))] for r in range(7, 0, -1)]


def bits(m):
    while m:
        low = m & -m
        yield low.bit_length() - 1
        m ^= low


def pc(m):
    return bin(m).count("1")


def parse(fen):
    """(x, o, side, hx, ho) from the position text (format only; see plausible)."""
    board, side, hands, tail = fen.split(" ")
    assert side in "XO" and len(side) == 1 and tail == "-", fen
    hx, ho = (int(v) for v in hands.split(","))
    rows = board.split("/")
    assert len(rows) == 7, fen
    x = o = 0
    for row, pts in zip(rows, ROWS1):
        k = 0
        for ch in row:
            if ch.isdigit():
                k += int(ch)
            else:
                assert ch in "XO", fen
                if ch == "X":
                    x |= 1 << pts[k]
                else:
                    o |= 1 << pts[k]
                k += 1
        assert k == len(pts), fen
    return x, o, side, hx, ho


def to_fen(x, o, side, hx, ho):
    out = []
    for pts in ROWS1:
        s, run = "", 0
        for i in pts:
            v = "X" if x >> i & 1 else "O" if o >> i & 1 else None
            if v is None:
                run += 1
            else:
                s += (str(run) if run else "") + v
                run = 0
        out.append(s + (str(run) if run else ""))
    return "/".join(out) + " %s %d,%d -" % (side, hx, ho)


def plausible(x, o, side, hx, ho):
    """Checks that a listed position could come from play and has not ended."""
    assert not x & o
    assert pc(x) + hx <= 9 and pc(o) + ho <= 9
    # placement alternates, X first: X to move with equal hands, O to move
    # with one piece fewer in X's hand (or both hands empty, either side)
    assert (hx, ho) == (0, 0) or (hx == ho if side == "X" else hx == ho - 1)
    assert pc(x) + hx > 2 and pc(o) + ho > 2, "the game has already ended"


def in_mills(p):
    m = 0
    for mill in MILLS:
        if p & mill == mill:
            m |= mill
    return m


def can_step(p, other):
    free = FULL & ~(p | other)
    for s in bits(p):
        if ADJ[s] & free:
            return True
    return False


def raw_moves(me, opp, hme):
    """(from, to) pairs, from = None for a placement."""
    free = FULL & ~(me | opp)
    if hme:
        return [(None, t) for t in bits(free)]
    if pc(me) == 3:                                      # NM3: flying
        return [(s, t) for s in bits(me) for t in bits(free)]
    return [(s, t) for s in bits(me) for t in bits(ADJ[s] & free)]


def children1(x, o, side, hx, ho):
    """Yield (text, x', o', side', hx', ho', result), result None or 'X'/'O'
    (won by the mover because the opponent is down to two or blocked).
    Repetition is judged by the caller."""
    me, opp, hme, hopp = (x, o, hx, ho) if side == "X" else (o, x, ho, hx)
    nxt = OTHER[side]
    free_opp = opp & ~in_mills(opp)
    removable = free_opp if free_opp else opp           # NM2
    for s, t in raw_moves(me, opp, hme):
        nme = (me & ~(1 << s) if s is not None else me) | 1 << t
        nh = hme - 1 if s is None else hme
        text = POINTS[t] if s is None else POINTS[s] + "-" + POINTS[t]
        mill = any(nme & m == m for m in MILLS_AT[t])
        outs = [(text + "x" + POINTS[r], opp & ~(1 << r)) for r in bits(removable)] if mill and opp \
            else [(text, opp)]
        for txt, nopp in outs:
            if pc(nopp) + hopp <= 2:
                res = side
            elif hopp == 0 and pc(nopp) > 3 and not can_step(nopp, nme):
                res = side                                  # the opponent is blocked
            else:
                res = None
            if side == "X":
                yield txt, nme, nopp, nxt, nh, hopp, res
            else:
                yield txt, nopp, nme, nxt, hopp, nh, res


KEY = {"X": 1, "O": 2, "D": 3}


def count1(x, o, side, hx, ho):
    """perft 1 when nothing can end the game: both hands non-empty and the
    opponent keeps more than two pieces after a removal."""
    me, opp, hme, hopp = (x, o, hx, ho) if side == "X" else (o, x, ho, hx)
    free_opp = opp & ~in_mills(opp)
    nrem = pc(free_opp if free_opp else opp) or 1
    n = 0
    for t in bits(FULL & ~(me | opp)):
        nme = me | 1 << t
        n += nrem if any(nme & m == m for m in MILLS_AT[t]) else 1
    return [n, 0, 0, 0]


class Perft1:
    def __init__(self, memo=True, bulk=True):
        self.memo, self.bulk, self.table = memo, bulk, {}
        self.repeats = 0                                    # sequences ended by repetition

    def run(self, fen, depth):
        x, o, side, hx, ho = parse(fen)
        hist = {}
        if hx == ho == 0:
            hist[(x, o, side)] = 1
        return self.perft(x, o, side, hx, ho, depth, hist)

    def perft(self, x, o, side, hx, ho, depth, hist):
        if depth == 0:
            return [1, 0, 0, 0]
        placing = hx + ho > 0
        if placing and self.memo:
            key = (x, o, side, hx, ho, depth)
            r = self.table.get(key)
            if r is not None:
                return r
        if (self.bulk and depth == 1 and hx and ho and
                (pc(x) + hx - 1 > 2 if side == "O" else pc(o) + ho - 1 > 2)):
            r = count1(x, o, side, hx, ho)
        else:
            r = [0, 0, 0, 0]
            for _, nx, no, ns, nhx, nho, res in children1(x, o, side, hx, ho):
                key = None
                if res is None and nhx == nho == 0:
                    key = (nx, no, ns)
                    hist[key] = hist.get(key, 0) + 1
                    if hist[key] >= 3:
                        res = "D"
                        if depth == 1:
                            self.repeats += 1
                if res is not None:
                    if depth == 1:
                        r[0] += 1
                        r[KEY[res]] += 1
                else:
                    c = self.perft(nx, no, ns, nhx, nho, depth - 1, hist)
                    r = [a + b for a, b in zip(r, c)]
                if key is not None:
                    hist[key] -= 1
                    if not hist[key]:
                        del hist[key]
        if placing and self.memo:
            self.table[(x, o, side, hx, ho, depth)] = r
        return r


def moves1(fen):
    return [c[0] for c in children1(*parse(fen))]


# ====================================== implementation 2 (names and dicts)
COLS = "abcdefg"


def nm(c, r):                                        # c, r: 0..6 from the left / bottom
    return COLS[c] + str(r + 1)


def build_geometry():
    pts, lines = set(), []
    for k in range(3):                               # squares: outer, middle, inner
        lo, hi = k, 6 - k
        corners = [(lo, lo), (hi, lo), (hi, hi), (lo, hi)]
        for i in range(4):                           # each side: corner, midpoint, corner
            (c1, r1), (c2, r2) = corners[i], corners[(i + 1) % 4]
            side = [(c1, r1), ((c1 + c2) // 2, (r1 + r2) // 2), (c2, r2)]
            lines.append([nm(c, r) for c, r in side])
            pts.update(nm(c, r) for c, r in side)
    for dc, dr in ((0, -1), (0, 1), (-1, 0), (1, 0)):  # the midpoints joined, square to square
        lines.append([nm(3 + dc * (3 - k), 3 + dr * (3 - k)) for k in range(3)])
    return pts, lines

POINTS2, LINES2 = build_geometry()
NB2 = {p: set() for p in POINTS2}
for ln in LINES2:
    for a, b in zip(ln, ln[1:]):
        NB2[a].add(b)
        NB2[b].add(a)
# the geometry must give the rule's 24 points and 16 lines
assert POINTS2 == set(POINTS)
assert sorted(sorted(l) for l in LINES2) == sorted(sorted(t.split("-")) for t in LINE_TEXT.split())
ROW_CELLS2 = {r: [nm(c, r) for c in range(7) if nm(c, r) in POINTS2] for r in range(7)}


def grid_of(fen):
    rows, side, hands, _ = fen.split()
    board = {}
    for text, r in zip(rows.split("/"), range(6, -1, -1)):
        cells = "".join("." * int(ch) if ch.isdigit() else ch for ch in text)
        assert len(cells) == len(ROW_CELLS2[r])
        for p, v in zip(ROW_CELLS2[r], cells):
            if v != ".":
                board[p] = v
    hx, ho = hands.split(",")
    return board, side, {"X": int(hx), "O": int(ho)}


def text_of(board, side, hands):
    rows = []
    for r in range(6, -1, -1):
        s = "".join(board.get(p, "1") for p in ROW_CELLS2[r])
        for n in range(6, 1, -1):                    # runs of empty points as one digit
            s = s.replace("1" * n, str(n))
        rows.append(s)
    return "/".join(rows) + " " + side + " " + str(hands["X"]) + "," + str(hands["O"]) + " -"


def in_mill2(board, p):
    return any(all(board.get(q) == board[p] for q in ln) for ln in LINES2 if p in ln)


def moves2(board, side, hands):
    """All legal moves as (text, board', hands')."""
    opp = OTHER[side]
    mine = [p for p in board if board[p] == side]
    empty = [p for p in POINTS2 if p not in board]
    if hands[side] > 0:
        plain = [(None, t) for t in empty]
    elif len(mine) == 3:
        plain = [(s, t) for s in mine for t in empty]
    else:
        plain = [(s, t) for s in mine for t in NB2[s] if t not in board]
    out = []
    for s, t in plain:
        b = dict(board)
        h = dict(hands)
        if s is None:
            h[side] -= 1
            text = t
        else:
            del b[s]
            text = s + "-" + t
        b[t] = side
        if any(all(b.get(q) == side for q in ln) for ln in LINES2 if t in ln):
            theirs = [p for p in b if b[p] == opp]
            loose = [p for p in theirs if not in_mill2(b, p)]
            targets = loose if loose else theirs
            if not targets:
                out.append((text, b, h))
            for r in targets:
                b2 = dict(b)
                del b2[r]
                out.append((text + "x" + r, b2, h))
        else:
            out.append((text, b, h))
    return out


def result2(board, mover, hands):
    """After `mover` moved: the winner or None (repetition is separate)."""
    opp = OTHER[mover]
    if sum(1 for v in board.values() if v == opp) + hands[opp] <= 2:
        return mover
    if not moves2(board, opp, hands):
        return mover
    return None


def perft2(board, side, hands, depth, seen):
    if depth == 0:
        return [1, 0, 0, 0]
    tot = [0, 0, 0, 0]
    for _, b, h in moves2(board, side, hands):
        t = text_of(b, OTHER[side], h)
        seen.append(t)
        res = result2(b, side, h)
        if res is None and seen.count(t) >= 3:
            res = "D"
        if res is not None:
            if depth == 1:
                tot[0] += 1
                tot[KEY[res]] += 1
        else:
            tot = [a + c for a, c in zip(tot, perft2(b, OTHER[side], h, depth - 1, seen))]
        seen.pop()
    return tot


def run2(fen, depth):
    board, side, hands = grid_of(fen)
    assert text_of(board, side, hands) == fen
    return perft2(board, side, hands, depth, [fen])


def moves2_of(fen):
    return [m[0] for m in moves2(*grid_of(fen))]


# ====================================================================== main
START = "3/3/3/6/3/3/3 X 9,9 -"
# (a) placement: X a7 g7 d6 d5, O a1 d1 g1 (mill) e4 f2; d7 makes two mills
POS_A = "X1X/1X1/1X1/3O2/3/2O/OOO X 4,4 -"
# (b) placement: X b6 d6 c4, O a1 d1 g1 g4 g7, all five in mills; f6 makes a mill
POS_B = "2O/XX1/3/2X2O/3/3/OOO X 4,4 -"
# (c) movement: X a7 g7 d6 c3 e3 g1, O b2 d2 f2 (mill) c5 e5 g4; d6-d7 makes a mill
POS_C = "X1X/1X1/O1O/5O/X1X/OOO/2X X 0,0 -"
# (d) O flies with a1 d1 c5; X a7 d7 g7 (mill) b4 e3; c5-g1 makes a mill
POS_D = "XXX/3/O2/1X4/2X/3/OO1 O 0,0 -"
# (e) O has b2 f2 e5; X a7 g7 d6 c3 e4; d6-d7 takes O to two
POS_E = "X1X/1X1/2O/3X2/X2/O1O/3 X 0,0 -"
# (f) O a1 d1 g1 a7 shut in by X a4 d2 g4 d7 (+ c4 e4); one ply earlier X's d6-d7 does it
POS_F = "OX1/3/3/X1XX1X/3/1X1/OOO O 0,0 -"
POS_F0 = "O2/1X1/3/X1XX1X/3/1X1/OOO X 0,0 -"
# (g) placement, one in hand each: X a7 d7 c3 b2 d2 f4, O b4 e5 g1
POS_G = "XX1/3/2O/1O2X1/X2/XX1/2O X 1,1 -"
# (h) repetition: nine each, no mill, X's only move a4-b4
POS_H = "OXX/1OO/3/X2OXO/OOX/OXX/XOX X 0,0 -"

# (fen, depths) in the order of the .perft file
LISTED = [(START, 6), (POS_A, 4), (POS_B, 4), (POS_C, 5), (POS_D, 4), (POS_E, 3),
          (POS_F, 2), (POS_F0, 5), (POS_G, 4), (POS_H, 8)]
IMPL2_MAX = {START: 4}                    # implementation 2 is too slow beyond these
PLAIN_MAX = {START: 5}                    # implementation 1 without shortcuts


def ending_moves(fen, depth):
    """{last move without its removal: count} over the sequences of `depth`
    plies whose last move ended the game."""
    acc = {}

    def walk(x, o, side, hx, ho, d):
        for t, nx, no, ns, nhx, nho, res in children1(x, o, side, hx, ho):
            if res is not None:
                if d == 1:
                    k = t.split("x")[0]
                    acc[k] = acc.get(k, 0) + 1
            elif d > 1:
                walk(nx, no, ns, nhx, nho, d - 1)
    walk(*parse(fen), depth)
    return acc


def round_trips(fen):
    """4-ply sequences from fen back to fen."""
    n = 0
    for _, a, b, s, h1, h2, r in children1(*parse(fen)):
        for _, c, d, s2, h3, h4, r2 in ([] if r else children1(a, b, s, h1, h2)):
            for _, e, f, s3, h5, h6, r3 in ([] if r2 else children1(c, d, s2, h3, h4)):
                for _, g, h, s4, h7, h8, r4 in ([] if r3 else children1(e, f, s3, h5, h6)):
                    n += r4 is None and to_fen(g, h, s4, h7, h8) == fen
    return n


def check_job(args):
    kind, fen, d = args
    t = time.time()
    r = run2(fen, d) if kind == "impl2" else Perft1(memo=False, bulk=False).run(fen, d)
    return kind, fen, d, r, time.time() - t


def grp(n):                       # digit groups; \x01 keeps them on one line
    return "{:,}".format(n).replace(",", "\x01")


def endings(rows):
    return ", ".join("%d/%d/%d" % tuple(r[1:]) for r in rows)


def main():
    t0 = time.time()
    for fen, _ in LISTED:
        x, o, side, hx, ho = parse(fen)
        plausible(x, o, side, hx, ho)
        assert to_fen(x, o, side, hx, ho) == fen
    # figures (implementation 1 with its shortcuts)
    res, repeats = {}, {}
    for fen, depth in LISTED:
        p = Perft1()
        res[fen] = [p.run(fen, d) for d in range(1, depth + 1)]
        repeats[fen] = p.repeats
    R = lambda fen, d: res[fen][d - 1]
    P = lambda fen, d: res[fen][d - 1][0]
    mv = {fen: moves1(fen) for fen, _ in LISTED}
    mills = lambda fen: [m for m in mv[fen] if "x" in m]

    # ---- the claims made in the comments below
    prod = lambda n, k: 1 if k == 0 else n * prod(n - 1, k - 1)
    for d in range(1, 5):
        assert P(START, d) == prod(24, d)
    seq5 = 16 * 6 * 21 * 20                                   # X's three on a line at ply 5
    assert P(START, 5) == prod(24, 5) + seq5
    o_mill6 = 16 * 6 * (21 * 20 * 19 - 12 * 6)               # O's three on a line at ply 6
    assert sum(1 for l in MILLS for m in MILLS if not l & m) == 16 * 12
    assert P(START, 6) == prod(24, 6) - seq5 * 19 + 2 * seq5 * 20 + 2 * o_mill6
    assert sum(r[1] + r[2] + r[3] for r in res[START]) == 0
    assert sorted(mills(POS_A)) == ["d7xe4", "d7xf2"] and P(POS_A, 1) == 14 + 2
    assert P(POS_A, 2) == 14 * 14 + 2 * 15
    assert sorted(mills(POS_B)) == ["f6xa1", "f6xd1", "f6xg1", "f6xg4", "f6xg7"]
    assert P(POS_B, 1) == 15 + 5 and P(POS_B, 2) == 15 * 15 + 5 * 16
    assert sorted(mills(POS_C)) == ["d6-d7xc5", "d6-d7xe5", "d6-d7xg4"] and P(POS_C, 1) == 11 + 3
    assert sorted(mills(POS_D)) == ["c5-g1xb4", "c5-g1xe3"] and P(POS_D, 1) == 3 * 16 - 1 + 2
    assert ending_moves(POS_D, 4) == {"a4-a7": 6312, "d6-d7": 6312, "g4-g7": 6312}
    assert sorted(mills(POS_E)) == ["d6-d7xb2", "d6-d7xe5", "d6-d7xf2"]
    assert R(POS_E, 1) == [14, 3, 0, 0] and P(POS_E, 2) == 11 * (3 * 16 - 1 + 5)
    assert ending_moves(POS_E, 3) == {"d6-d7": R(POS_E, 3)[1]} == {"d6-d7": 4 * 46 * 3}
    assert R(POS_F, 1) == [0, 0, 0, 0]
    f0 = [c for c in children1(*parse(POS_F0)) if c[0] == "d6-d7"][0]
    assert to_fen(*f0[1:6]) == POS_F and f0[6] == "X"
    assert R(POS_F0, 1) == [16, 1, 0, 0] and P(POS_F0, 2) == 9 + 3 * 2 + 3 + 2 * 2
    assert sorted(mills(POS_G)) == sorted("%sx%s" % (a, b) for a in ("f2", "g7") for b in ("b4", "e5", "g1"))
    assert P(POS_G, 1) == 13 + 6 and ending_moves(POS_G, 3) == {"f4-f2": 3 * 14 * 3}
    assert R(POS_G, 3)[1] == 3 * 14 * 3
    assert mv[POS_H] == ["a4-b4"] and round_trips(POS_H) == 4
    assert R(POS_H, 8)[3] == 4 * 4 == repeats[POS_H]
    assert ending_moves(POS_H, 4) == {"c4-b4": 1} and R(POS_H, 4)[2] == 1
    assert all(repeats[fen] == 0 and all(r[3] == 0 for r in res[fen]) for fen, _ in LISTED if fen != POS_H)

    # ---- cross-check: implementation 2, and implementation 1 without shortcuts
    t_pool = time.time() - t0
    jobs = []
    for fen, depth in LISTED:
        jobs += [("impl2", fen, d) for d in range(1, IMPL2_MAX.get(fen, depth) + 1)]
        jobs += [("plain", fen, d) for d in range(1, PLAIN_MAX.get(fen, depth) + 1)]
    jobs.sort(key=lambda j: -P(j[1], j[2]))                   # long jobs first
    from concurrent.futures import ProcessPoolExecutor
    with ProcessPoolExecutor(max_workers=2) as pool:
        out = list(pool.map(check_job, jobs))
    bad = [(k, f, d, r, R(f, d)) for k, f, d, r, _ in out if r != R(f, d)]
    for fen, _ in LISTED:                                     # the move lists themselves
        if sorted(moves2_of(fen)) != sorted(mv[fen]):
            bad.append(("moves", fen, 1, sorted(moves2_of(fen)), sorted(mv[fen])))
    if "-v" in sys.argv:
        for k, f, d, r, secs in sorted(out, key=lambda j: -j[4]):
            print("%-5s %-36s d=%d %-28s %.1fs" % (k, f, d, r, secs), file=sys.stderr)
        print("figures and checks before the pool: %.1fs" % t_pool, file=sys.stderr)
    n2 = sum(1 for k, *_ in out if k == "impl2")
    np_ = len(out) - n2
    if bad:
        for b in bad:
            print("MISMATCH", b, file=sys.stderr)
        sys.exit(1)

    # ---- the .perft file
    L = []
    import textwrap

    def c(text):                                              # a comment, refilled
        words = " ".join(text.split())
        L.extend("# " + line.replace("\x01", " ")
                 for line in textwrap.wrap(words, 74, break_long_words=False,
                                           break_on_hyphens=False))

    def block(fen, text, ends=True):
        c(text)
        if ends:
            c("Endings by depth (X wins / O wins / draws): %s." % endings(res[fen]))
        L.append("position " + fen)
        L.extend("perft %d %d" % (d, r[0]) for d, r in enumerate(res[fen], 1))

    c("""
nine-mens-morris: 24 points on three nested squares joined at their
midpoints (NM1). Nine pieces each, placed one a move, X first; with the
hand empty a move steps a piece along a line to an adjacent empty point. A
move that forms a mill removes one opponent piece not in a mill, or any
piece if all are in mills, each choice a separate move (`d7xa1`,
`d6-d7xa1`); two mills at once still remove one (NM2). Three pieces and an
empty hand fly to any empty point; a side down to two pieces (board plus
hand) or without a legal move on its turn has lost; the third occurrence
of a position (board, side to move, hands) is a draw (NM3). Derived
without the engine by tests/perft/derive/nine_mens_morris.py: two
implementations (bitmasks; dicts of point names) that agree on every
figure below and on the move list of every position. Draws (repetition)
occur only in the last position; nowhere else within these depths.""")
    L.append("rulebook nine-mens-morris")
    block(START, """
No mill is possible before X's third piece (ply 5): perft 1-4 are 24,
24·23, 24·23·22, 24·23·22·21. At ply 5 X's three pieces lie on a line in
16·3!·21·20 = %s sequences (O's two pieces anywhere else), each with two
moves (either O piece goes, neither is in a mill) instead of one:
24·23·22·21·20 + %s = %s. At ply 6 those %s sequences leave O one
piece and 20 empty points; O's three pieces on a line while X's are not
(16·3!·(21·20·19 - 12·3!) = %s; 12 lines miss a given line) give three
removals each: 24·…·19 - %s·19 + %s·20 + 2·%s = %s (implementation 2
and implementation 1 without its shortcuts stop at 4 and 5; the formula
checks 6). Nothing can end the game in the placement phase and no position
repeats while a hand shrinks: no endings.""" % (
        grp(seq5), grp(seq5), grp(P(START, 5)), grp(2 * seq5), grp(o_mill6), grp(seq5),
        grp(2 * seq5), grp(o_mill6), grp(P(START, 6))), ends=False)
    block(POS_A, """
(a) Placement, four in hand each. X a7 g7 d6 d5; O a1 d1 g1 (a mill), e4,
f2. 15 empty points. d7 completes a7-d7-g7 and d5-d6-d7 at once: still one
removal, and only e4 or f2 may go (a1 d1 g1 stand in a mill): `d7xe4`,
`d7xf2`; 14 + 2 = 16. O has no mill to complete: perft 2 = 14·14 (14 empty
points after a plain placement) + 2·15 (after `d7x…`) = 226. No game ends
within 4 plies.""", ends=False)
    block(POS_B, """
(b) Placement, four in hand each. X b6 d6 c4; O a1 d1 g1 g4 g7: two mills
sharing g1, so every O piece stands in a mill and f6 (completing
b6-d6-f6) may take any of the five: `f6xa1` `f6xd1` `f6xg1` `f6xg4`
`f6xg7`; 15 other points: 20. perft 2 = 15·15 + 5·16 = 305 (O has no mill
to complete). No game ends within 4 plies.""", ends=False)
    block(POS_C, """
(c) Movement, hands empty. X a7 g7 d6 c3 e3 g1; O b2 d2 f2 (a mill), c5,
e5, g4. d6-d7 completes a7-d7-g7 and takes c5, e5 or g4, not the mill:
`d6-d7xc5` `d6-d7xe5` `d6-d7xg4`; a7-d7 and g7-d7 leave the line; 11 plain
steps: 14. A step can never form two mills at once: the piece leaves a
neighbour of its target, which lies on one of the target's two lines (the
script checks every step); two mills at once come from a placement, as d7
in (a); a flying side's three pieces cannot fill two lines. O can open its mill (d2-d1,
d2-d3) and close it two plies later, taking an X piece. Nobody falls to
two or is shut in within 5 plies: no endings.""", ends=False)
    block(POS_D, """
(d) O has three pieces, a1 d1 c5, and none in hand: it flies, 3 × 16 empty
points = 48 moves. c5-g1 completes a1-d1-g1 and takes b4 or e3 (X's a7 d7
g7 stand in a mill): `c5-g1xb4` `c5-g1xe3`; a1-g1 and d1-g1 leave the line:
47 + 2 = 49. X (five pieces) steps. At depth 4 X, having stepped out of its
mill (a7-a4, d7-d6, g7-g4), steps back in and takes O's third-last piece:
X wins, %s sequences for each of the three.""" % grp(6312))
    block(POS_E, """
(e) O has three pieces, b2 f2 e5, none in hand. d6-d7 completes a7-d7-g7
and takes any O piece (none in a mill), leaving O two: X wins at once, 3
endings at depth 1. After the 11 other steps O flies: 3 × 16 = 48, less
e5-d2 which completes b2-d2-f2 and takes any of X's five (none in a
mill): 47 + 5 = 52 each, 11·52 = 572. The depth-3 wins: X's first step moves c3 or
e4 (4 steps that keep a7 g7 d6), O's reply neither flies to d7 (3 moves) nor
takes a7, g7 or d6 (3 moves): 52 - 6 = 46, then d6-d7 with three removals:
4·46·3 = 552.""")
    block(POS_F, """
(f) O a1 d1 g1 a7 (four pieces, none in hand) is shut in by X's a4 d2 g4
d7: no legal move, the game is over (X has won): perft 1 = 0.""", ends=False)
    block(POS_F0, """
(f) One ply earlier: X's d6-d7 shuts O in (the position above), a win
counted at depth 1. After the other 15 steps O's move is a7-d7, and also
d1-d2 after X's d2 steps away (d2-b2, d2-f2, d2-d3), a1-a4 and a7-a4 after
a4-b4, g1-g4 after g4-f4 or g4-g7: perft 2 = 9·1 + 3·2 + 3 + 2·2 = 22. The
depth-5 wins shut O in again (d6-d7 %d times, and other squeezes).""" % ending_moves(POS_F0, 5)["d6-d7"])
    block(POS_G, """
(g) Placement, one piece in hand each. X a7 d7 c3 b2 d2 f4; O b4 e5 g1
(none in a mill). g7 completes a7-d7-g7 and f2 completes b2-d2-f2, three
removals each; 13 other points: 19. After a removal O has two pieces on
the board and one in hand: three, so the game goes on. O places its last
piece and from then on flies with three. The depth-3 wins: after `g7x…`
and O's placement (not on f2), X's f4-f2 completes b2-d2-f2 and takes O's
third-last piece: 3 removals by g7 · 14 placements (15 empty points, less
f2) · 3 removals by f4-f2 = 126.""")
    block(POS_H, """
(h) Repetition. Nine pieces each, none in a mill, hands empty; X's only
move is a4-b4. A position can recur only after a 4-ply round trip, so
within 8 plies only the start can occur a third time, at ply 8. X a4-b4,
O one of c3-c4, e4-e5, d6-d5, d6-b6, X b4-a4, O steps back: 4 round trips;
two in a row bring the start back a third time: 4·4 = 16 draws at depth
8. O wins by shutting X in: at depth 4 by a4-b4 c3-c4 b4-a4 c4-b4 (the
empty points are then c3 c4 c5 d5 e5 b6, none next to an X piece), and 66
times at depth 8.""")
    secs = time.time() - t0
    import os
    tm = os.times()
    cpu = tm.user + tm.system + tm.children_user + tm.children_system
    c("""
Cross-check: implementation 2 agreed on %d figures (the start to depth 4,
every other figure), implementation 1 without shortcuts on %d (the start
to depth 5); move lists agreed for all %d positions. Generated in %.0f s
of wall time (%.0f s of CPU, 2 processes) by:""" % (n2, np_, len(LISTED), secs, cpu))
    L.append("#   python3 tests/perft/derive/nine_mens_morris.py > tests/perft/nine-mens-morris.perft")
    print("\n".join(L))


if __name__ == "__main__":
    main()
