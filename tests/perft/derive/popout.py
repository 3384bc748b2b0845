#!/usr/bin/env python3
"""Independent perft derivation for "Connect Four Pop Out" (rules CF1, CF2, PO1, PO2).

Written from scratch; shares no code with any engine.

Rules implemented:
  * CF1: 7 columns (a-g, left to right) x 6 rows (1-6, bottom to top).  X moves
    first, sides alternate, one move a turn.  A drop puts the mover's mark
    into a column that is not full; it lands on the lowest empty cell.
  * PO1: a move may instead pop one of the mover's own marks out of row 1 of
    a column (written ^d): the mark leaves the board and every mark above it
    in that column drops one cell.  Legal only if that bottom cell holds the
    mover's own mark.
  * CF2/PO2: after ANY move the whole board is judged: four or more in a row
    (horizontal, vertical, diagonal) -- mover alone: mover wins; opponent
    alone: opponent wins; both: the MOVER wins.  The game ends.
  * PO2: a full board does not end the game while the side to move can pop;
    a side to move with no legal move is a draw.  The third occurrence of the
    same position (marks + side to move) along the game path is a draw; the
    start position counts as its first occurrence.
Perft: perft(0)=1, perft(d)=sum over legal moves of perft(d-1) of the child;
an ended position has no moves.  "X wins / O wins / draws" at depth d count
the move sequences of length d whose LAST move ended the game that way.

Two independent implementations: a bitboard one (used for all figures) and a
plain grid one (used only for the cross-check in section 3).
"""
import time
from collections import Counter

COLS = "abcdefg"

# ---------------------------------------------------------------- bitboards
# Bit (7*c + r) is column c (0=a), row r (0=row 1).  Bit 7*c+6 is a sentinel
# that always stays 0, so line shifts cannot wrap between columns.
COLMASK = [0x3F << (7 * c) for c in range(7)]

def four(b):
    for s in (1, 7, 6, 8):              # vertical, horizontal, two diagonals
        m = b & (b >> s)
        if m & (m >> 2 * s):
            return True
    return False

def children(pos):
    """Yield (move, child) for every legal move; pos = (x, o, side), side 0=X."""
    x, o, side = pos
    me, opp = (x, o) if side == 0 else (o, x)
    occ = x | o
    for c in range(7):                                  # drops
        col = (occ & COLMASK[c]) >> (7 * c)
        h = col.bit_length()
        if h < 6:
            nme = me | (1 << (7 * c + h))
            yield COLS[c], ((nme, opp) if side == 0 else (opp, nme)) + (1 - side,)
    for c in range(7):                                  # pops
        if me >> (7 * c) & 1:
            m = COLMASK[c]
            nme = (me & ~m) | ((me & m) >> 1 & m)
            nopp = (opp & ~m) | ((opp & m) >> 1 & m)
            yield "^" + COLS[c], ((nme, nopp) if side == 0 else (nopp, nme)) + (1 - side,)

def judge(child, seen):
    """Result after the move that produced child: 'X', 'O', 'draw' or None."""
    x, o, side = child
    mover = 1 - side
    fx, fo = four(x), four(o)
    if fx or fo:
        if fx and fo:
            return "XO"[mover]
        return "X" if fx else "O"
    if seen[child] >= 3:
        return "draw"
    if next(children(child), None) is None:
        return "draw"
    return None

def perft_all(pos, depth):
    """One walk to `depth`; returns per-ply Counters {'n','X','O','draw'}."""
    tally = [Counter() for _ in range(depth + 1)]
    seen = Counter([pos])
    def walk(p, ply):
        for _, ch in children(p):
            seen[ch] += 1
            res = judge(ch, seen)
            tally[ply]["n"] += 1
            if res:
                tally[ply][res] += 1
            elif ply < depth:
                walk(ch, ply + 1)
            seen[ch] -= 1
    walk(pos, 1)
    return tally

# ---------------------------------------------------------------- FEN text
def parse(fen):
    rows, side = fen.split()
    x = o = 0
    for i, row in enumerate(rows.split("/")):
        r, c = 5 - i, 0
        for ch in row:
            if ch.isdigit():
                c += int(ch)
            else:
                bit = 1 << (7 * c + r)
                if ch == "X": x |= bit
                else: o |= bit
                c += 1
        assert c == 7, fen
    return (x, o, "XO".index(side))

def fen(pos):
    x, o, side = pos
    out = []
    for r in range(5, -1, -1):
        s, run = "", 0
        for c in range(7):
            bit = 1 << (7 * c + r)
            ch = "X" if x & bit else "O" if o & bit else ""
            if ch:
                s += (str(run) if run else "") + ch
                run = 0
            else:
                run += 1
        out.append(s + (str(run) if run else ""))
    return "/".join(out) + " " + "XO"[side]

def check_setup(pos):
    x, o, side = pos
    nx, no = bin(x).count("1"), bin(o).count("1")
    assert not four(x) and not four(o), "four on board"
    assert (nx == no and side == 0) or (nx == no + 1 and side == 1), "mark counts"
    for c in range(7):
        col = ((x | o) & COLMASK[c]) >> (7 * c)
        assert col & (col + 1) == 0, "floating mark"

# ---------------------------------------------------------------- grid version
# Independent second implementation: board = 7 lists (bottom first) of 'X'/'O'.
def g_from_fen(f):
    rows, side = f.split()
    grid = [[] for _ in range(7)]
    for row in reversed(rows.split("/")):
        c = 0
        for ch in row:
            if ch.isdigit():
                c += int(ch)
            else:
                grid[c].append(ch)
                c += 1
    return grid, side

def g_key(grid, side):
    return "|".join("".join(col) for col in grid) + side

def g_has_four(grid, mark):
    cell = lambda c, r: grid[c][r] if 0 <= c < 7 and 0 <= r < len(grid[c]) else None
    return any(all(cell(c + i * dc, r + i * dr) == mark for i in range(4))
               for c in range(7) for r in range(6)
               for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)))

def g_moves(grid, side):
    out = []
    for c in range(7):
        if len(grid[c]) < 6:
            out.append([col + [side] if i == c else col for i, col in enumerate(grid)])
    for c in range(7):
        if grid[c] and grid[c][0] == side:
            out.append([col[1:] if i == c else col for i, col in enumerate(grid)])
    return out

def g_perft(grid, side, depth, path, tally, ply=1):
    other = "O" if side == "X" else "X"
    for ng in g_moves(grid, side):
        path.append(g_key(ng, other))
        tally[ply]["n"] += 1
        wx, wo = g_has_four(ng, "X"), g_has_four(ng, "O")
        if wx and wo: res = side
        elif wx: res = "X"
        elif wo: res = "O"
        elif path.count(path[-1]) >= 3 or not g_moves(ng, other): res = "draw"
        else: res = None
        if res:
            tally[ply][res] += 1
        elif ply < depth:
            g_perft(ng, other, depth, path, tally, ply + 1)
        path.pop()
    return tally

def g_perft_all(f, depth):
    grid, side = g_from_fen(f)
    return g_perft(grid, side, depth, [g_key(grid, side)], [Counter() for _ in range(depth + 1)])

# ---------------------------------------------------------------- main
START = "7/7/7/7/7/7 X"
SETUPS = [
    ("P1", "a pop that makes four for both",
     "7/7/3O3/OOOX3/XXXO3/OXOXX2 X",
     "^d drops d2..d4 (O,X,O) to d1..d3: X gets a2-b2-c2-d2 and O gets "
     "a3-b3-c3-d3 at once, so the mover X wins"),
    ("P2", "a pop that makes four for the opponent only",
     "7/7/7/7/XX1O3/OOOXX2 X",
     "^d drops O from d2 to d1: a1-b1-c1-d1 is four for O only, so O wins"),
    ("P3", "full board, pops only",
     "OXXOOXO/XOOOXOX/OXXOXXX/OXOXOXX/XXOOOXO/OOXXOOX X",
     "full board, no four; X owns c1, d1, g1, so X may only pop; no pop makes "
     "four, so the game goes on"),
]

def line(t, d):
    return (f"  perft {d} = {t[d]['n']:>9}   X wins {t[d]['X']:>7}"
            f"   O wins {t[d]['O']:>7}   draws {t[d]['draw']:>5}")

def main():
    t0 = time.time()
    print("1. Start position", START)
    root = parse(START)
    assert fen(root) == START
    tally = perft_all(root, 6)
    for d in range(1, 7):
        print(line(tally, d))
    print(f"  (depth 1..6 in one walk: {time.time() - t0:.1f}s)")

    print("\n2. Set-up positions")
    for name, title, f, why in SETUPS:
        pos = parse(f)
        assert fen(pos) == f
        check_setup(pos)
        print(f"{name} ({title}): {f}")
        print(f"  why: {why}")
        seen = Counter([pos])
        mv = []
        for m, ch in children(pos):
            seen[ch] += 1
            res = judge(ch, seen)
            seen[ch] -= 1
            mv.append(m + ("" if res is None else f"[{res}]"))
        print("  moves ([..] = game ends: winner or draw):", " ".join(mv))
        tally = perft_all(pos, 4)
        for d in range(1, 5):
            print(line(tally, d))

    print("\n3. Cross-check: bitboard walk vs. separate grid implementation")
    for name, f, depth in [("start", START, 4)] + [(s[0], s[2], 3) for s in SETUPS]:
        a, b = perft_all(parse(f), depth), g_perft_all(f, depth)
        ok = all(a[d] == b[d] for d in range(1, depth + 1))
        print(f"  {name:5} depth 1..{depth}: {[b[d]['n'] for d in range(1, depth + 1)]}"
              f" {'agree' if ok else 'DISAGREE'}")
    # repetition: d e ^d ^e twice returns to the empty board a third time (ply 8)
    pos, seen = root, Counter([root])
    for m in "d e ^d ^e d e ^d ^e".split():
        pos = dict(children(pos))[m]
        seen[pos] += 1
    print("  repetition: d e ^d ^e d e ^d ^e ->", judge(pos, seen))
    print(f"\ntotal runtime {time.time() - t0:.1f}s")

if __name__ == "__main__":
    main()
