#!/usr/bin/env python3
"""Independent derivation for 3x3x3 tic-tac-toe (rule CB1): perft, and the
exact value of the start, written from the rule alone; shares no code with
the engine.

CB1: a 3x3x3 cube drawn as three 3x3 layers side by side, layer z being
columns 3z..3z+2 (a-c, d-f, g-i) of a 9x3 board, rows 1-3 from the bottom;
the same row and column of each layer stand above one another.  X moves
first, one mark a move, on any empty cell; three in a row along any of the
49 lines of the cube wins at once; X's first mark may not take the centre of
the cube (layer 2, middle: e2).

Perft: perft(d) counts the move sequences of length d (a finished game has
no moves).  Value: the fewest plies within which one side forces a win
(an AND/OR search over (X cells, O cells), trying only a win in one, else
the blocks of the opponent's win in one, where there are any).

Run: python3 cube3.py
"""
import functools
import itertools

N = 3


def cell(x, y, z):
    """The board cell of (x, y) in layer z: index row*9 + column."""
    return y * 9 + z * N + x


def name(c):
    return "abcdefghi"[c % 9] + str(c // 9 + 1)


def lines():
    out = set()
    dirs = [d for d in itertools.product((-1, 0, 1), repeat=3) if d != (0, 0, 0)]
    for x, y, z in itertools.product(range(N), repeat=3):
        for dx, dy, dz in dirs:
            pts = [(x + i * dx, y + i * dy, z + i * dz) for i in range(N)]
            if all(0 <= a < N for p in pts for a in p):
                out.add(frozenset(cell(*p) for p in pts))
    return [sorted(line) for line in out]


LINES = lines()
assert len(LINES) == 49, len(LINES)
CELLS = [cell(x, y, z) for x, y, z in itertools.product(range(N), repeat=3)]
CENTRE = cell(1, 1, 1)
assert name(CENTRE) == "e2"
MASKS = [sum(1 << c for c in line) for line in LINES]
THROUGH = {c: [m for m in MASKS if m >> c & 1] for c in CELLS}


def wins(own, c):
    """Whether the mark just placed on c completes a line of `own`."""
    return any(own & m == m for m in THROUGH[c])


def moves(x, o, ply):
    """The legal cells: empty, and not the centre on X's first move."""
    taken = x | o
    return [c for c in CELLS if not taken >> c & 1 and not (ply == 0 and c == CENTRE)]


def perft(x, o, ply, depth):
    if depth == 0:
        return 1
    own, other = (x, o) if ply % 2 == 0 else (o, x)
    legal = moves(x, o, ply)
    if depth == 1:
        return len(legal)
    total = 0
    for c in legal:
        mine = own | 1 << c
        if wins(mine, c) or ply + 1 == 27:
            continue
        else:
            nx, no = (mine, other) if ply % 2 == 0 else (other, mine)
            total += perft(nx, no, ply + 1, depth - 1)
    return total


def winning(own, cells):
    """The cells of `cells` where a mark of `own` completes a line."""
    return [c for c in cells if wins(own | 1 << c, c)]


def forced(own, other, ply):
    """The side to move's moves worth trying, and whether it wins at once:
    a win in one if there is one; else, if the opponent could win in one,
    the cells that block it (none left when it has two); else all."""
    legal = moves(own, other, ply)
    if winning(own, legal):
        return legal, True
    threats = set(winning(other, legal + ([CENTRE] if ply == 0 else [])))
    if len(threats) >= 2:
        return [], False
    return [c for c in legal if c in threats] or legal, False


@functools.lru_cache(maxsize=None)
def wins_within(own, other, ply, d):
    """Whether the side to move can force a win on one of the next `d` plies."""
    if d <= 0:
        return False
    cands, now = forced(own, other, ply)
    if now:
        return True
    return any(loses_within(other, own | 1 << c, ply + 1, d - 1) for c in cands)


@functools.lru_cache(maxsize=None)
def loses_within(own, other, ply, d):
    """Whether the opponent can force a win on one of the next `d` plies."""
    if d <= 0 or not moves(own, other, ply):
        return False
    cands, now = forced(own, other, ply)
    if now:
        return False
    if not cands:
        # Two threats: whatever the mover does, one wins next ply.
        return d >= 2
    return all(wins_within(other, own | 1 << c, ply + 1, d - 1) for c in cands)


if __name__ == "__main__":
    for d in range(1, 6):
        print(f"perft {d} {perft(0, 0, 0, d)}")
    # The shortest win either side can force from the start, in plies.
    for d in range(1, 28):
        if wins_within(0, 0, 0, d):
            print(f"value: X wins in {d}")
            break
        if loses_within(0, 0, 0, d):
            print(f"value: O wins in {d}")
            break
