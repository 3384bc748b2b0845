#!/usr/bin/env python3
"""Independent perft derivation for "vanishing tic-tac-toe" (rules VA1, VA2).

Written from scratch; shares no code with the engine.

Rules implemented:
  * 3x3 board, cells a1..c3 (column a-c from the left, row 1-3 from the bottom).
    X moves first, sides alternate, one mark per move.
  * A move places the mover's mark on a cell that is empty before the move.
  * Each side keeps at most three marks.  If the mover already had three,
    its oldest mark (earliest placed among those on the board) vanishes after
    the placement.  The age order of each side's marks is part of the position.
  * After the vanishing, if the mover has three in a row (3 rows, 3 columns,
    2 diagonals) the mover wins; the game ends.  Only the mover is judged.
  * The third occurrence of the same position (marks, age order, side to
    move) along the game path is a draw; the game ends.  The root position
    counts as its first occurrence.
  * A side with no legal move draws (cannot happen here, but is coded).
Perft(d): perft(0)=1, perft(d)=sum over legal moves of perft(d-1) of the child;
an ended position has no legal moves.  "wins" = sequences of length d whose
last move won the game.
"""
import sys, time
from collections import Counter

CELLS = [c + r for r in "123" for c in "abc"]
LINES = [set(l) for l in (
    ["a1", "b1", "c1"], ["a2", "b2", "c2"], ["a3", "b3", "c3"],
    ["a1", "a2", "a3"], ["b1", "b2", "b3"], ["c1", "c2", "c3"],
    ["a1", "b2", "c3"], ["c1", "b2", "a3"])]

def has_line(marks):
    s = set(marks)
    return any(l <= s for l in LINES)

# Position = (x_marks_oldest_first, o_marks_oldest_first, side_to_move)
def moves(pos):
    x, o, side = pos
    occupied = set(x) | set(o)
    return [c for c in CELLS if c not in occupied]

def play(pos, cell):
    """Return (child_position, mover_won)."""
    x, o, side = pos
    mine = (x if side == "X" else o) + (cell,)
    if len(mine) > 3:
        mine = mine[1:]                     # oldest mark vanishes
    won = has_line(mine)
    child = (mine, o, "O") if side == "X" else (x, mine, "X")
    return child, won

def perft(pos, depth, hist, wins):
    """hist: Counter of occurrences of positions on the path (incl. pos)."""
    if depth == 0:
        return 1
    total = 0
    for cell in moves(pos):
        child, won = play(pos, cell)
        if won:
            wins[depth - 1] += 1            # game over: leaf only at depth 0
            total += 1 if depth == 1 else 0
            continue
        hist[child] += 1
        if hist[child] >= 3:                # third occurrence: draw, ended
            total += 1 if depth == 1 else 0
        else:
            total += perft(child, depth - 1, hist, wins)
        hist[child] -= 1
    return total

def run(name, pos, maxdepth):
    x, o, _ = pos
    assert not has_line(x) and not has_line(o), name + " already won"
    for d in range(1, maxdepth + 1):
        wins = Counter()
        n = perft(pos, d, Counter({pos: 1}), wins)
        print(f"{name} {d} {n} wins {wins[0]}", flush=True)

def reachable(start):
    """Distinct positions reachable by legal moves (ignoring repetition);
    won positions are counted but not expanded."""
    seen, stack = {start}, [start]
    decided = 0
    while stack:
        pos = stack.pop()
        for cell in moves(pos):
            child, won = play(pos, cell)
            if child not in seen:
                seen.add(child)
                if won:
                    decided += 1
                else:
                    stack.append(child)
    return len(seen), decided

if __name__ == "__main__":
    t0 = time.time()
    START = ((), (), "X")
    run("start", START, int(sys.argv[1]) if len(sys.argv) > 1 else 9)
    run("A", (("a1", "b1", "c2"), ("a3", "b3", "c1"), "X"), 6)
    run("B", (("a1", "c1", "b2"), ("a2", "c3"), "O"), 6)
    run("C", (("b1", "a1"), ("b2", "c3", "a3"), "X"), 6)
    n, decided = reachable(START)
    print(f"reachable positions: {n} (decided by a line: {decided}, "
          f"undecided: {n - decided})")
    print(f"runtime {time.time() - t0:.1f}s")
