#!/usr/bin/env python3
"""Independent perft derivation for Quixo (rules QX1, QX2).

Written from scratch from the rules below; shares no code with any engine.

Rules implemented:
  * QX1: 5x5 cubes, all blank at the start; cells a1..e5 (column a-e from the
    left, row 1-5 from the bottom).  X moves first, sides alternate.  A move
    takes a BORDER cube that is blank or shows the mover's mark (never the
    opponent's), marks it with the mover's mark and pushes it back in at an
    end of its row or column other than the cell it came from.  Along the
    path from the taken cell to the push-in cell every cube moves one cell
    towards the taken cell; the pushed cube lands on the push-in cell.
    Written `a1-e1` (taken at a1, pushed in at e1).  Corner: 2 moves, other
    border cell: 3 moves.
  * QX2: after the move the whole board is judged: five in a row (row,
    column, either long diagonal) of the mover's marks wins; a move that
    makes five of the opponent's marks LOSES, even if it also makes five of
    the mover's.  The third occurrence of the same position (board + side to
    move) along the game path is a draw; the start counts as the first.
Perft: perft(0)=1, perft(d)=sum over legal moves of perft(d-1); an ended
position has no moves.  "X wins / O wins / draws" at depth d count the move
sequences of length d whose LAST move ended the game that way.

Positions: rows from the top (row 5) down to row 1 separated by '/', X/O for
marks, digits for runs of blanks, then the side to move ("5/5/5/5/5 X").

Two implementations: a flat-array one with precomputed push paths (used for
all figures) and a grid/line-slicing one (used only for the cross-check).
"""
import time

OTHER = {"X": "O", "O": "X"}
sq = lambda c, r: 5 * r + c                      # c: 0..4 = a..e, r: 0..4 = rows 1..5
name = lambda i: "abcde"[i % 5] + str(i // 5 + 1)

LINES = ([[sq(c, r) for c in range(5)] for r in range(5)] +
         [[sq(c, r) for r in range(5)] for c in range(5)] +
         [[sq(i, i) for i in range(5)], [sq(i, 4 - i) for i in range(5)]])


def parse(fen):
    rows, side = fen.split()
    board = ["."] * 25
    for k, row in enumerate(rows.split("/")):    # k=0 is row 5
        c = 0
        for ch in row:
            if ch.isdigit():
                c += int(ch)
            else:
                board[sq(c, 4 - k)] = ch
                c += 1
        assert c == 5, fen
    return tuple(board), side


def to_fen(board, side):
    out = []
    for r in range(4, -1, -1):
        s, run = "", 0
        for c in range(5):
            v = board[sq(c, r)]
            if v == ".":
                run += 1
            else:
                s += (str(run) if run else "") + v
                run = 0
        out.append(s + (str(run) if run else ""))
    return "/".join(out) + " " + side


# ------------------------------------------------ implementation 1 (main)
def build_moves():
    """(taken, push-in, path from taken to push-in inclusive) for every border cell."""
    moves = []
    for r in range(5):
        for c in range(5):
            if 0 < c < 4 and 0 < r < 4:
                continue                               # interior cube
            for tc, tr in ((0, r), (4, r), (c, 0), (c, 4)):
                if (tc, tr) == (c, r):
                    continue
                dc, dr = (tc > c) - (tc < c), (tr > r) - (tr < r)
                n = max(abs(tc - c), abs(tr - r))
                path = [sq(c + k * dc, r + k * dr) for k in range(n + 1)]
                moves.append((path[0], path[-1], path))
    return moves

MOVES = build_moves()
assert len(MOVES) == 44


def play(board, move, mark):
    b = list(board)
    path = move[2]
    for i in range(len(path) - 1):
        b[path[i]] = b[path[i + 1]]                    # shift towards the taken cell
    b[path[-1]] = mark
    return tuple(b)


def winner(board, mover):
    """Winner after `mover` produced `board`, or None."""
    fives = {board[l[0]] for l in LINES
             if board[l[0]] != "." and all(board[i] == board[l[0]] for i in l)}
    if OTHER[mover] in fives:
        return OTHER[mover]                            # opponent's five: mover loses
    return mover if mover in fives else None


def legal(board, side):
    return [m for m in MOVES if board[m[0]] != OTHER[side]]


def perft(board, side, depth, hist):
    """Returns [total, X wins, O wins, draws] at exactly `depth` plies."""
    if depth == 0:
        return [1, 0, 0, 0]
    moves, opp = legal(board, side), OTHER[side]
    # Bulk count: no move can end the game if the mover cannot reach 5 marks,
    # the opponent has fewer than 5, and no position has occurred twice yet.
    if (depth == 1 and board.count(side) < 4 and board.count(opp) < 5
            and max(hist.values()) < 2):
        return [len(moves), 0, 0, 0]
    tot = [0, 0, 0, 0]
    for m in moves:
        nb = play(board, m, side)
        key = (nb, opp)
        hist[key] = hist.get(key, 0) + 1
        w = winner(nb, side)
        if w or hist[key] >= 3:                        # game over: no further moves
            res = [1, w == "X", w == "O", not w] if depth == 1 else [0, 0, 0, 0]
        else:
            res = perft(nb, opp, depth - 1, hist)
        hist[key] -= 1
        if not hist[key]:
            del hist[key]
        tot = [a + b for a, b in zip(tot, res)]
    return tot


def run(fen, depth):
    board, side = parse(fen)
    return perft(board, side, depth, {(board, side): 1})


# ------------------------------------- implementation 2 (cross-check only)
def grid_of(fen):
    rows, side = fen.split()
    expand = lambda row: [ch for x in row for ch in (" " * int(x) if x.isdigit() else x)]
    return [expand(row) for row in reversed(rows.split("/"))], side   # grid[r][c], r=0 is row 1


def children2(grid, side):
    for r in range(5):
        for c in range(5):
            if r not in (0, 4) and c not in (0, 4) or grid[r][c] not in (" ", side):
                continue
            row, col = grid[r][:], [grid[k][c] for k in range(5)]
            for end in (0, 4):
                if c != end:                           # push into the row at column `end`
                    rest = row[:c] + row[c + 1:]
                    g = [x[:] for x in grid]
                    g[r] = [side] + rest if end == 0 else rest + [side]
                    yield g
                if r != end:                           # push into the column at row `end`
                    rest = col[:r] + col[r + 1:]
                    new = [side] + rest if end == 0 else rest + [side]
                    g = [x[:] for x in grid]
                    for k in range(5):
                        g[k][c] = new[k]
                    yield g


def fives2(grid):
    lines = ["".join(row) for row in grid]
    lines += ["".join(grid[r][c] for r in range(5)) for c in range(5)]
    lines += ["".join(grid[i][i] for i in range(5)), "".join(grid[i][4 - i] for i in range(5))]
    return {p for p in "XO" if p * 5 in lines}


def perft2(grid, side, depth, seen):
    counts = [0, 0, 0, 0]
    if depth == 0:
        return [1, 0, 0, 0]
    for g in children2(grid, side):
        f, opp = fives2(g), ("O" if side == "X" else "X")
        key = (str(g), opp)
        seen.append(key)
        ended = opp if opp in f else side if side in f else None   # opponent's five first
        draw = ended is None and seen.count(key) >= 3
        if ended or draw:
            if depth == 1:
                counts[0] += 1
                counts[{"X": 1, "O": 2, None: 3}[ended]] += 1
        else:
            counts = [a + b for a, b in zip(counts, perft2(g, opp, depth - 1, seen))]
        seen.pop()
    return counts


def run2(fen, depth):
    grid, side = grid_of(fen)
    return perft2(grid, side, depth, [(str(grid), side)])


# ------------------------------------------------------------------ main
START = "5/5/5/5/5 X"
# Q1: row 4 needs X at a4, row 2 needs O at a2.  a1-a5 shifts column a down:
#     a5's X lands on a4 and a3's O on a2 -> five for both -> X (mover) loses.
#     a4-e4 / a4-a5 put X on a4 -> five for X alone.
Q1 = "X4/1XXXX/O4/1OOOO/5 X"
# Q2: O cube on c1 between blank b1 and d1 (X may not take it); X's own cube
#     on a5 may be taken.  41 X moves instead of 44.
Q2 = "X4/5/5/5/2O2 X"


def describe_setups():
    for label, fen in (("Q1", Q1), ("Q2", Q2)):
        board, side = parse(fen)
        assert to_fen(board, side) == fen
        assert not any(all(board[i] == p for i in l) for l in LINES for p in "XO"), "five as given"
        kinds = {}
        for m in legal(board, side):
            nb = play(board, m, side)
            both = {p for p in "XO" if any(all(nb[i] == p for i in l) for l in LINES)}
            kinds.setdefault("+".join(sorted(both)) or "none", []).append(name(m[0]) + "-" + name(m[1]))
        print(f"{label}: {fen}   ({len(legal(board, side))} moves)")
        for k, v in sorted(kinds.items()):
            if k != "none":
                print(f"    moves making five for {k}: {' '.join(v)}")
        skipped = sorted({name(i) for i in range(25) if board[i] == OTHER[side]
                          and i in {m[0] for m in MOVES}})
        if skipped:
            print(f"    border cubes X may not take: {' '.join(skipped)}")


def main():
    t0 = time.time()
    print("Quixo perft (independent derivation)")
    print(f"start: {START}")
    for d in range(1, 6):
        t = time.time()
        n = run(START, d)[0]
        print(f"  perft({d}) = {n}   [{time.time() - t:.1f}s]")
        if d == 4 and 44 * (time.time() - t) > 120:   # depth 5 would exceed ~2 minutes
            break
    print()
    describe_setups()
    for label, fen in (("Q1", Q1), ("Q2", Q2)):
        print(f"{label} {fen}")
        print("  depth      total     X wins     O wins      draws")
        for d in range(1, 4):
            print("  %5d %10d %10d %10d %10d" % (d, *run(fen, d)))
    print()
    print("cross-check with implementation 2 (grid / line slicing, no bulk counting):")
    ok = True
    for label, fen in (("start", START), ("Q1", Q1)):
        for d in range(1, 4):
            a, b = run(fen, d), run2(fen, d)
            ok &= a == b
            print(f"  {label:5} d={d}: impl1 {a}  impl2 {b}  {'OK' if a == b else 'MISMATCH'}")
    print("cross-check", "PASSED" if ok else "FAILED")
    print(f"total runtime {time.time() - t0:.1f}s")


if __name__ == "__main__":
    main()
