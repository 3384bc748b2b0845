#!/usr/bin/env python3
"""Independent reference for Renju's forbidden moves (RIF rules) and perft.

Written from scratch; shares no code with the engine.

Rules implemented (black = X, white = O):
  * 15x15 board, columns a-o from the left, rows 1-15 from the bottom (a1
    bottom-left, h8 centre).  X moves first and X's first mark must go on
    h8 (on an empty board with X to move, h8 is X's only move).  Sides
    alternate, one mark a move, on any empty cell (X: see below).
  * O wins with five or more in a row (row, column, either diagonal).  X wins
    only with EXACTLY five (the cells just beyond both ends are not X).
    A full board is a draw.  A finished game has no moves.
  * Forbidden to X (O has none), judged from the placed stone s, and only
    when s does not make an exactly-five in some direction (a move making
    exactly five is always allowed and wins, even if it also makes an
    overline in another direction, a double four or a double three):
      - overline: s makes an unbroken run of 6 or more X;
      - double four: s makes two or more fours;
      - double three: s makes threes in two or more directions.
    Precedence of the verdict: five > overline > double-four >
    double-three > allowed.
  * four (made by s, in one direction): an empty cell q on that line such
    that X on q makes an exactly-five containing s.  Each such q is one
    four, except that the two q of a straight four (.XXXX. with both
    completions exact fives) are ONE four.  So X.XXX.X (s one of the middle
    three) and XX.XX.XX-like shapes (s in the middle group) are two fours
    on one line, i.e. a double four by themselves.  (There is at most one q
    on each side of s, so at most two per direction.)
  * straight four: 4 consecutive X, both cells just beyond empty, and X on
    either of them makes an exactly-five (the cell two beyond is not X).
  * three (made by s, in one direction): an empty cell p on that line such
    that X on p makes a straight four containing s, and the move X on p, in
    the position with s placed, is itself not forbidden (this same judge,
    recursively: p may not be an overline, double four or double three
    unless p makes an exactly-five).  A direction holds at most one three,
    however many such p there are.  Only the first non-X cell on each side
    of s can be such a p (the run of four through s and p is unbroken).
  * double three: threes in two or more directions.

Decisions where the wording leaves room (see also selftest):
  * a four or a three must contain s: shapes already on the line that do
    not involve s do not count.
  * a direction holding both a four and a three would need a shape that
    does not exist (selftest: every line with every cell within 5 of s
    empty, X or O, s anywhere from the edge to the centre: a direction
    with a four never also has a straight-four point), so a "four-three"
    is one four plus a three in ANOTHER direction: allowed.
  * .XXXX. with an X two cells beyond one end is not a straight four (that
    completion is six) but still one four; so a three whose only way to
    grow is that shape (f8 g8 [h8] _ _ k8 from the i8 side) is no three on
    that side.
  * cells off the board count as "not X" beyond an end (an exactly-five may
    touch the edge) but are not empty (a straight four needs both end
    cells on the board and empty; a8 b8 [c8] is no three from the edge
    side, and a8..d8 + e8 is a five).
  * the forbidden status of a three's point p is judged with s on the board
    and nothing else changed; p's own judgement applies the same rules,
    recursively, to p's threes (to any depth; it terminates because each
    level adds an X).  A p that makes a five in another direction is
    allowed, so the three counts.
  * only the h8 start rule is implemented (no swap, no opening-pattern or
    distance rules for later moves).

Position text: rows from the top (row 15) down to row 1 separated by '/';
in a row, left to right, X, O, or a decimal number for a run of empty
cells (an empty row is 15); then a space and the side to move.

Python API: board = list of 225 cells '.'/'X'/'O', index row*15 + col
(a1 = 0, b1 = 1, o15 = 224); judge(board, "h8") -> "five", "overline",
"double-four", "double-three" or "allowed" for X on that empty cell;
parse(text) -> (board, side), fmt(board, side) -> text.

Commands (times on one core):
  python3 renju.py selftest           (~8 s) the hand-built positions (HAND)
      with their expected verdicts, an exhaustive check of the one-line
      definitions, and a cross-check of judge against a second, literal
      implementation (judge_literal) on every empty cell of 61 positions.
  python3 renju.py positions 300 1 > file      (~1.5 s) the hand-built
      positions, then 300 random ones (seed 1), one line each:
        <position> | overline: <cells> | double-four: <cells>
                   | double-three: <cells> | five: <cells>
      cells in a1 b1 .. o1 a2 .. o15 order, '-' when none; every empty
      cell not listed is allowed and not a five.  Random positions: 20-55
      stones a side, X to move, nobody with a run of five or more; X
      stones mostly placed along a line from an earlier X stone (several
      styles, see STYLES), O stones partly next to X.  They need not be
      reachable in a game.  A summary goes to stderr.
  python3 renju.py perft "<position>" DEPTH
      perft d N for d = 1..DEPTH (X's moves: empty cells not forbidden,
      five included; O's moves: every empty cell; a game ends when X makes
      exactly five, O five or more, or the board is full), then the
      numbers of games won by X and by O on the last ply.  Start to depth
      3: 0.6 s; a dense position to depth 2: ~1 s, to depth 3: ~2 min.
  python3 renju.py judge "<position>" CELL     one verdict
"""
import random
import sys
import time

N = 15
FILES = "abcdefghijklmno"
DIRS = ((1, 0), (0, 1), (1, 1), (1, -1))        # (dcol, drow)
EMPTY, X, O = ".", "X", "O"


# --------------------------------------------------------------- cells ---

def idx(name):
    """'h8' -> index row*15 + col (row 0 = row 1)."""
    return (int(name[1:]) - 1) * N + FILES.index(name[0])


def name(i):
    return FILES[i % N] + str(i // N + 1)


def step(i, d, k):
    """Index of the cell k steps from i along direction d, or -1 off board."""
    c, r = i % N + d[0] * k, i // N + d[1] * k
    if 0 <= c < N and 0 <= r < N:
        return r * N + c
    return -1


# LINE[i][di] = (cells going backwards from i, cells going forwards from i)
LINE = [[(tuple(j for j in (step(i, d, -k) for k in range(1, N)) if j >= 0),
          tuple(j for j in (step(i, d, k) for k in range(1, N)) if j >= 0))
         for d in DIRS] for i in range(N * N)]
for _i in range(N * N):                       # the cut-at-edge must be exact
    for _d, (_b, _f) in zip(DIRS, LINE[_i]):
        assert all(step(_i, _d, -k) == _b[k - 1] for k in range(1, len(_b) + 1))
        assert step(_i, _d, -len(_b) - 1) == -1 and step(_i, _d, len(_f) + 1) == -1


# ----------------------------------------------------------- positions ---

def parse(text):
    """Position text -> (board list of 225 '.'/'X'/'O', side to move)."""
    rows, side = text.split()
    rows = rows.split("/")
    assert len(rows) == N and side in (X, O), text
    board = [EMPTY] * (N * N)
    for k, row in enumerate(rows):
        r = N - 1 - k
        c, num = 0, ""
        for ch in row + ";":
            if ch.isdigit():
                num += ch
                continue
            if num:
                c += int(num)
                num = ""
            if ch in (X, O):
                board[r * N + c] = ch
                c += 1
            else:
                assert ch == ";", text
        assert c == N, text
    return board, side


def fmt(board, side):
    out = []
    for r in range(N - 1, -1, -1):
        s, run = "", 0
        for c in range(N):
            v = board[r * N + c]
            if v == EMPTY:
                run += 1
            else:
                if run:
                    s += str(run)
                    run = 0
                s += v
        if run:
            s += str(run)
        out.append(s)
    return "/".join(out) + " " + side


def build(xs, os_):
    """Board from two strings of cell names."""
    board = [EMPTY] * (N * N)
    for who, cells in ((X, xs), (O, os_)):
        for c in cells.split():
            assert board[idx(c)] == EMPTY, c
            board[idx(c)] = who
    return board


# --------------------------------------------------------------- judge ---

def run_through(board, i, di, who=X):
    """Length of the unbroken run of `who` through i (i counts as `who`)."""
    back, fwd = LINE[i][di]
    n = 1
    for j in back:
        if board[j] != who:
            break
        n += 1
    for j in fwd:
        if board[j] != who:
            break
        n += 1
    return n


def first_gap(board, cells):
    """The first cell of `cells` that is not X, or -1 (off board)."""
    for j in cells:
        if board[j] != X:
            return j
    return -1


def fours_in(board, s, di):
    """Number of fours s (already placed) makes along direction di."""
    back, fwd = LINE[s][di]
    qs = []
    for cells in (back, fwd):
        q = first_gap(board, cells)
        if q >= 0 and board[q] == EMPTY:
            board[q] = X
            if run_through(board, s, di) == 5:
                qs.append(q)
            board[q] = EMPTY
    if len(qs) == 2:
        # between the two q every cell is X; 4 of them = a straight four
        if run_through(board, s, di) == 4:
            return 1
    return len(qs)


def straight_four(board, s, di):
    """Whether the run of X through s along di is a straight four: 4 long,
    both cells just beyond it on the board and empty, and neither of the
    cells two beyond an X (each completion is then an exactly-five)."""
    if run_through(board, s, di) != 4:
        return False
    for cells in LINE[s][di]:
        k = 0
        while k < len(cells) and board[cells[k]] == X:
            k += 1
        if k == len(cells) or board[cells[k]] != EMPTY:
            return False                   # the run touches the edge / an O
        if k + 1 < len(cells) and board[cells[k + 1]] == X:
            return False                   # completion would be an overline
    return True


def has_three(board, s, di, memo, flat=False):
    """Whether s (already placed) makes a three along di (recursive RIF;
    flat=True skips the check of p, for statistics only)."""
    back, fwd = LINE[s][di]
    for cells in (back, fwd):
        p = first_gap(board, cells)
        if p < 0 or board[p] != EMPTY:
            continue
        board[p] = X
        sf = straight_four(board, s, di)
        board[p] = EMPTY
        if sf and (flat or judge_idx(board, p, memo) not in FORBIDDEN):
            return True
    return False


FORBIDDEN = ("overline", "double-four", "double-three")


def judge_idx(board, s, memo=None, flat=False):
    """Verdict for X on the empty cell s: five / overline / double-four /
    double-three / allowed.  `board` is restored before returning.  memo:
    a dict of earlier verdicts (keyed by the whole board and the cell).
    flat=True: threes without the recursive check (statistics only)."""
    assert board[s] == EMPTY
    key = None
    if memo is not None:
        key = ("".join(board), s, flat)
        if key in memo:
            return memo[key]
    else:
        memo = {}
    board[s] = X
    try:
        runs = [run_through(board, s, di) for di in range(4)]
        if 5 in runs:
            res = "five"
        elif max(runs) >= 6:
            res = "overline"
        elif sum(fours_in(board, s, di) for di in range(4)) >= 2:
            res = "double-four"
        else:
            threes = 0
            for di in range(4):
                if has_three(board, s, di, memo, flat):
                    threes += 1
                    if threes >= 2:
                        break
            res = "double-three" if threes >= 2 else "allowed"
    finally:
        board[s] = EMPTY
    if key is not None:
        memo[key] = res
    return res


def judge(board, cell):
    """Public entry: board = list of 225 '.'/'X'/'O' (index row*15+col,
    a1 = 0, o15 = 224), cell = name ('h8') or index."""
    if isinstance(cell, str):
        cell = idx(cell)
    return judge_idx(board, cell, {})


def has_long_run(board, who, minimum):
    """Any run of `who` of length >= minimum anywhere on the board."""
    for i in range(N * N):
        if board[i] != who:
            continue
        for di in range(4):
            back, _ = LINE[i][di]
            if back and board[back[0]] == who:
                continue                          # not the run's start
            if run_through(board, i, di, who) >= minimum:
                return True
    return False


def classify(board):
    """Empty cells by verdict (all cells in a1 b1 .. o15 order)."""
    memo = {}
    out = {k: [] for k in ("overline", "double-four", "double-three", "five",
                           "allowed")}
    for i in range(N * N):
        if board[i] == EMPTY:
            out[judge_idx(board, i, memo)].append(i)
    return out


def line_of(board):
    c = classify(board)
    parts = [fmt(board, X)]
    for k in ("overline", "double-four", "double-three", "five"):
        parts.append(f"{k}: " + (" ".join(name(i) for i in c[k]) or "-"))
    return " | ".join(parts), c


# --------------------------------------------------------- hand-built ---
# Each: (label, X cells, O cells, cell to judge, expected verdict).  Cells
# are listed as built; pad() then adds far-away stones so that X count ==
# O count (X to move) without touching the cells near the action.

HAND = [
    # (a) h8 would make two threes: the column h6 h7 h8 (its straight-four
    # points h9 and h5 are ordinary cells) and the row (O d8) f8 g8 h8
    # whose only straight-four point is i8 (e8 is useless: d8 is O).  But
    # i8 is an overline for X (i4 i5 i6 i7 _ i9), so the row is not a
    # three: h8 makes one three and is allowed.
    ("a: three whose straight-four point is an overline (not a three)",
     "h6 h7 f8 g8 i4 i5 i6 i7 i9", "d8", "h8", "allowed"),
    # (a') control for (a): without the i-column stones h8 is a double
    # three.
    ("a': control of (a) without the overline at i8",
     "h6 h7 f8 g8", "d8", "h8", "double-three"),
    # (a'') as (a), but i8 is a double four: with h8 placed, i8 makes the
    # straight four f8-i8 (one four), the column four i5 i6 i7 i8 (O on
    # i4, point i9) and the anti-diagonal four i8 j7 k6 l5 (O on m4, point
    # h9).  So the row through h8 is not a three: h8 is allowed.
    ("a'': three whose straight-four point is a double four (not a three)",
     "h6 h7 f8 g8 i5 i6 i7 j7 k6 l5", "d8 i4 m4", "h8", "allowed"),
    # (b) h8 makes exactly five on row 8 (d8-h8, O on c8 and i8) and also
    # fours on the column (h9 h10 h11) and the diagonal (i9 j10 k11).
    ("b: five that also makes a double four",
     "d8 e8 f8 g8 h9 h10 h11 i9 j10 k11", "c8 i8", "h8", "five"),
    # (c) h8 makes exactly five on row 8 and the overline h5-h10.
    ("c: five that also makes an overline",
     "d8 e8 f8 g8 h5 h6 h7 h9 h10", "c8 i8", "h8", "five"),
    # (d) plain overline: c8 d8 e8 _ g8 h8, f8 makes six.
    ("d: plain overline", "c8 d8 e8 g8 h8", "", "f8", "overline"),
    # (e) double four on one line: d8 _ f8 [g8] h8 _ j8 (X.XXX.X).
    ("e: double four on one line (X.XXX.X)", "d8 f8 h8 j8", "", "g8",
     "double-four"),
    # (e') d8 e8 _ g8 [h8] _ j8 k8 (XX.XX.XX), the judged stone in the
    # middle group.
    ("e': double four on one line (XX.XX.XX)", "d8 e8 g8 j8 k8", "", "h8",
     "double-four"),
    # (f) double four across two lines: (O d8) e8 f8 g8 + h8 is a four
    # (point i8) and h9 h10 h11 + h8 is a straight four (one four).
    ("f: double four across two lines", "e8 f8 g8 h9 h10 h11", "d8", "h8",
     "double-four"),
    # (g) plain double three: f8 g8 + h8 and h6 h7 + h8.
    ("g: double three", "f8 g8 h6 h7", "", "h8", "double-three"),
    # (h) fake three: (O e8) f8 g8 + h8 can never become a straight four,
    # so with the column three h6 h7 h8 the move is allowed.
    ("h: three blocked at one end (fake three) + a three", "f8 g8 h6 h7",
     "e8", "h8", "allowed"),
    # (i) split three .X.XX. (e8 _ g8 h8; f8 makes the straight four
    # e8-h8) + the column three h6 h7 h8: double three.
    ("i: split three (.X.XX.) + a three", "e8 g8 h6 h7", "", "h8",
     "double-three"),
    # (j) four-three: (O d8) e8 f8 g8 + h8 is a four (point i8), h6 h7 + h8
    # a three: allowed.
    ("j: four-three", "e8 f8 g8 h6 h7", "d8", "h8", "allowed"),
    # (k) three whose only straight-four point is a double three: (O d8)
    # f8 g8 + h8, point i8 only.  With h8 placed, i8 makes the straight
    # four f8-i8 and threes on the column (i9 i10) and the anti-diagonal
    # (j7 k6): a double three (a four does not excuse it), so the row is no
    # three and h8 (column three h6 h7) is allowed.
    ("k: three whose straight-four point is a double three (not a three)",
     "f8 g8 h6 h7 i9 i10 j7 k6", "d8", "h8", "allowed"),
    # (k') control of (k): O on i6 and i12 kill i8's column three (both of
    # its straight fours would be blocked), i8 is then four + one three =
    # allowed, the row through h8 is a three again: double three.
    ("k': control of (k): i8's column three blocked",
     "f8 g8 h6 h7 i9 i10 j7 k6", "d8 i6 i12", "h8", "double-three"),
    # (l) recursion two levels deep.  As (k) with O on g10, so that i8's
    # anti-diagonal three (i8 j7 k6) can only become a straight four at l5
    # (h9 gives h9-k6 next to the O); and i2 j3 k4 _ m6 n7 make l5 an
    # overline.  So for i8 the anti-diagonal is no three, i8 = straight
    # four + one three (column, point i7 or i11) = allowed, the row f8 g8
    # h8 is a three, and h8 (with the column three h6 h7) is a double
    # three.
    ("l: two-level recursion: i8 allowed because ITS point l5 is forbidden",
     "f8 g8 h6 h7 i9 i10 j7 k6 i2 j3 k4 m6 n7", "d8 g10", "h8",
     "double-three"),
    # (l') control of (l) without i2 j3 k4 m6 n7: i8 is a double three
    # again, so h8 is allowed.
    ("l': control of (l) without the overline at l5",
     "f8 g8 h6 h7 i9 i10 j7 k6", "d8 g10", "h8", "allowed"),
    # (m) a four whose other completion would be an overline: c8 d8 e8
    # [f8] _ h8 i8: g8 would make seven, b8 makes five b8-f8: one four on
    # the row; with the column f9 f10 f11 (O f12, point f7) a second four:
    # double four.
    ("m: four with an overline on its other side + a four",
     "c8 d8 e8 h8 i8 f9 f10 f11", "f12", "f8", "double-four"),
    # (n) .XXXX. with an X two beyond one end is not a straight four
    # (e8 f8 g8 [h8] _ j8: i8 makes six) but it is still one four: allowed.
    ("n: four next to an X two cells away (one four only)",
     "e8 f8 g8 j8", "", "h8", "allowed"),
    # (o) the same with the column straight four h9 h10 h11: double four.
    ("o: (n) + a column four: double four",
     "e8 f8 g8 j8 h9 h10 h11", "", "h8", "double-four"),
    # (p) d8 _ f8 g8 [h8]: e8 makes the five d8-h8, so the row is a four
    # (not a three; i8 would give f8-i8 whose e8 completion is six); with
    # the column three h6 h7 it is a four-three: allowed.
    ("p: X.XX[X] is a four, not a three: four-three",
     "d8 f8 g8 h6 h7", "", "h8", "allowed"),
]


def pad(board):
    """Add O stones (or X) on spaced-out cells along the edges until X
    count == O count (no runs arise: the cells are two apart)."""
    far = [idx(c) for c in (
        "a1 c1 e1 g1 i1 k1 m1 o1 a3 c3 m3 o3 a13 c13 m13 o13 "
        "a15 c15 e15 g15 i15 k15 m15 o15").split()]
    nx, no = board.count(X), board.count(O)
    who = O if nx > no else X
    for j in far:
        if board.count(X) == board.count(O):
            break
        if board[j] == EMPTY:
            board[j] = who
    assert board.count(X) == board.count(O)
    return board


def hand_boards():
    out = []
    for label, xs, os_, cell, want in HAND:
        b = pad(build(xs, os_))
        assert not has_long_run(b, X, 5) and not has_long_run(b, O, 5), label
        out.append((label, b, cell, want))
    return out


# ------------------------------------------------------ random boards ---

STYLES = (
    # (new-centre probability, X step lengths, O near-X probability,
    #  interleave X and O, what an X stone may not make when placed:
    #  0 nothing, 1 a four, 2 a four or a three)
    (0.08, (-3, -2, -1, 1, 2, 3), 0.5, False, 0),  # dense X cluster
    (0.15, (-2, -1, 1, 2), 0.8, True, 0),       # game-like, many blocks
    (0.25, (-3, -2, 2, 3), 0.6, True, 0),       # split shapes
    (0.30, (-2, -1, 1, 2), 0.3, True, 0),       # several loose groups
    (0.10, (-3, -2, -1, 1, 2, 3), 0.4, True, 1),  # twos and threes
    (0.10, (-2, -1, 1, 2), 0.2, False, 1),      # twos and threes
    (0.10, (-3, -2, -1, 1, 2, 3), 0.3, True, 2),  # twos
    (0.20, (-2, -1, 1, 2), 0.1, False, 2),      # twos
)


def random_board(rng):
    """A dense position, X to move: 20-55 stones a side, X stones mostly
    placed along a line from an earlier X stone (so many threes and fours
    arise), O stones partly next to X (blocks), partly anywhere.  Cells
    that would give either side a run of five or more are skipped."""
    while True:
        k = rng.randint(20, 55)                 # stones per side
        new_p, steps, near_p, inter, limit = rng.choice(STYLES)
        spread = rng.choice((3, 4, 5, 7))
        cx, cy = rng.randint(3, 11), rng.randint(3, 11)
        board = [EMPTY] * (N * N)
        xs, nx, no = [], 0, 0

        def put(who):
            for _ in range(200):
                if who == X:
                    if not xs or rng.random() < new_p:
                        c = min(N - 1, max(0, cx + rng.randint(-spread, spread)))
                        r = min(N - 1, max(0, cy + rng.randint(-spread, spread)))
                        j = r * N + c
                    else:
                        j = step(rng.choice(xs), rng.choice(DIRS),
                                 rng.choice(steps))
                elif xs and rng.random() < near_p:
                    j = step(rng.choice(xs), rng.choice(DIRS),
                             rng.choice((-2, -1, 1, 2)))
                else:
                    j = rng.randrange(N * N)
                if j < 0 or board[j] != EMPTY:
                    continue
                board[j] = who
                if has_run_at(board, j, who, 5) or (
                        who == X and limit and too_strong(board, j, limit)):
                    board[j] = EMPTY
                    continue
                if who == X:
                    xs.append(j)
                return True
            return False

        if inter:
            for _ in range(k):
                nx += put(X)
                no += put(O)
        else:
            for _ in range(k):
                nx += put(X)
            for _ in range(k):
                no += put(O)
        if nx == no == k:
            assert not has_long_run(board, X, 5)
            assert not has_long_run(board, O, 5)
            return board


def too_strong(board, j, limit):
    """Whether X, already on j, makes a four (limit 1), or a four or a
    three (limit 2)."""
    if any(fours_in(board, j, di) for di in range(4)):
        return True
    return limit >= 2 and any(has_three(board, j, di, {}) for di in range(4))


def has_run_at(board, j, who, minimum):
    return any(run_through(board, j, di, who) >= minimum for di in range(4))


def cmd_positions(n, seed):
    """Hand-built positions first, then n random ones; the summary (counts
    of verdicts, and of cells where the recursive three check changed the
    verdict) goes to stderr."""
    rng = random.Random(seed)
    t0 = time.time()
    totals = {k: 0 for k in ("overline", "double-four", "double-three",
                             "five", "allowed")}
    with_forbidden = changed = changed_pos = 0
    boards = [b for _, b, _, _ in hand_boards()]
    boards += [random_board(rng) for _ in range(n)]
    for b in boards:
        line, c = line_of(b)
        print(line)
        for k in totals:
            totals[k] += len(c[k])
        if c["overline"] or c["double-four"] or c["double-three"]:
            with_forbidden += 1
        memo, d = {}, 0
        for k, cells in c.items():
            for i in cells:
                d += judge_idx(b, i, memo, flat=True) != k
        changed += d
        changed_pos += d > 0
    print(f"# renju.py positions {n} {seed}: {len(HAND)} hand-built + {n} "
          f"random = {len(boards)} positions, {with_forbidden} with a "
          f"forbidden cell; empty cells: "
          + ", ".join(f"{k} {v}" for k, v in totals.items())
          + f"; verdict changed by the recursive three check: {changed} "
          f"cells in {changed_pos} positions; {time.time() - t0:.1f}s",
          file=sys.stderr)


# --------------------------------------------------------------- perft ---

def o_wins(board, j):
    return has_run_at(board, j, O, 5)


def perft(board, side, depth, wins):
    """Move sequences of length depth; wins[(side)] counts games won on
    the last ply."""
    if depth == 0:
        return 1
    empties = [i for i in range(N * N) if board[i] == EMPTY]
    if side == X and len(empties) == N * N:
        empties = [idx("h8")]
    total = 0
    if side == X:
        memo = {}
        for i in empties:
            v = judge_idx(board, i, memo)
            if v in FORBIDDEN:
                continue
            if v == "five":
                total += depth == 1
                if depth == 1:
                    wins[X] += 1
                continue
            if depth == 1:
                total += 1
                continue
            board[i] = X
            total += perft(board, O, depth - 1, wins)
            board[i] = EMPTY
    else:
        for i in empties:
            board[i] = O
            if o_wins(board, i):
                if depth == 1:
                    total += 1
                    wins[O] += 1
            elif depth == 1:
                total += 1
            else:
                total += perft(board, X, depth - 1, wins)
            board[i] = EMPTY
    return total


def cmd_perft(text, depth):
    board, side = parse(text)
    t0 = time.time()
    for d in range(1, depth + 1):
        wins = {X: 0, O: 0}
        n = perft(board, side, d, wins)
        print(f"perft {d} {n}", flush=True)
    print(f"# wins on ply {depth}: X {wins[X]}, O {wins[O]}; "
          f"{time.time() - t0:.1f}s")


# ------------------------------------------------------------ selftest ---

def line_check():
    """Exhaustive check of the one-line definitions on row 8: s on each of
    a8..h8 (the rest follows by symmetry), every cell within 5 of s empty,
    X or O (nothing further away can matter), the rest empty.  The fast
    fours_in / straight-four search of has_three are compared with a
    literal reading (all 5-cell windows with s and four X around one empty
    cell; every empty p of the line, and every 4-cell window holding s and
    p), and it is checked that a direction with a four never has a
    straight-four point too (so a "four-three on one line" cannot arise and
    no choice is needed there)."""
    import itertools
    row = [idx(FILES[c] + "8") for c in range(N)]
    both = 0
    for sc in range(8):
        s = row[sc]
        var = [row[c] for c in range(max(0, sc - 5), min(N, sc + 6)) if c != sc]
        for pat in itertools.product(".XO", repeat=len(var)):
            both += line_case(row, s, sc, var, pat)
    assert both == 0, both


def line_case(row, s, sc, var, pat):
    board = [EMPTY] * (N * N)
    for j, v in zip(var, pat):
        board[j] = v
    board[s] = X
    if run_through(board, s, 0) >= 5:
        return 0
    # literal fours: completion cells q making an exact five with s
    qs = set()
    for start in range(max(0, sc - 4), min(sc, N - 5) + 1):
        win = row[start:start + 5]
        gaps = [j for j in win if board[j] != X]
        if len(gaps) == 1 and board[gaps[0]] == EMPTY:
            board[gaps[0]] = X
            if run_through(board, s, 0) == 5:
                qs.add(gaps[0])
            board[gaps[0]] = EMPTY
    lit = len(qs)
    if lit == 2:
        a_, b_ = sorted(row.index(q) for q in qs)
        if b_ - a_ == 5:                         # .XXXX. straight four
            lit = 1
    assert fours_in(board, s, 0) == lit, pat
    # literal straight-four points
    lit_sf = set()
    for p in row:
        if board[p] != EMPTY:
            continue
        board[p] = X
        for start in range(N - 3):
            win = row[start:start + 4]
            if s in win and p in win and all(board[j] == X for j in win):
                ends = [row[start - 1] if start > 0 else -1,
                        row[start + 4] if start + 4 < N else -1]
                beyond = [row[start - 2] if start > 1 else -1,
                          row[start + 5] if start + 5 < N else -1]
                if (all(e >= 0 and board[e] == EMPTY for e in ends)
                        and all(z < 0 or board[z] != X for z in beyond)):
                    lit_sf.add(p)
        board[p] = EMPTY
    fast_sf = set()
    for cells in LINE[s][0]:
        p = first_gap(board, cells)
        if p >= 0 and board[p] == EMPTY:
            board[p] = X
            if straight_four(board, s, 0):
                fast_sf.add(p)
            board[p] = EMPTY
    assert fast_sf == lit_sf, pat
    return 1 if lit and lit_sf else 0


def judge_literal(grid, c, r):
    """A second, slow reading of the rules straight from the text, for the
    cross-check only: grid is a dict (col, row) -> 'X'/'O' (absent =
    empty); lines are rebuilt from coordinates each time; fours come from
    all 5-cell windows through s, threes from every empty p of the line
    and every 4-cell window holding s and p."""
    def at(q):
        return grid.get(q, EMPTY) if 0 <= q[0] < N and 0 <= q[1] < N else None

    def run(q, d):
        n = 1
        for sgn in (1, -1):
            k = 1
            while at((q[0] + sgn * k * d[0], q[1] + sgn * k * d[1])) == X:
                n += 1
                k += 1
        return n

    s = (c, r)
    grid[s] = X
    try:
        runs = [run(s, d) for d in DIRS]
        if 5 in runs:
            return "five"
        if max(runs) >= 6:
            return "overline"
        fours = 0
        for d in DIRS:
            line = [(c + k * d[0], r + k * d[1]) for k in range(-6, 7)]
            qs = set()
            for a in range(len(line) - 4):
                win = line[a:a + 5]
                if s not in win or any(at(q) is None for q in win):
                    continue
                gaps = [q for q in win if at(q) != X]
                if len(gaps) == 1 and at(gaps[0]) == EMPTY:
                    grid[gaps[0]] = X
                    if run(s, d) == 5:
                        qs.add(line.index(gaps[0]))
                    del grid[gaps[0]]
            n = len(qs)
            if n == 2 and max(qs) - min(qs) == 5:
                n = 1
            fours += n
        if fours >= 2:
            return "double-four"
        threes = 0
        for d in DIRS:
            line = [(c + k * d[0], r + k * d[1]) for k in range(-6, 7)]
            found = False
            for p in line:
                if found or at(p) != EMPTY:
                    continue
                grid[p] = X
                sf = False
                for a in range(1, len(line) - 4):
                    win = line[a:a + 4]
                    if (s in win and p in win
                            and all(at(q) == X for q in win)
                            and at(line[a - 1]) == EMPTY
                            and at(line[a + 4]) == EMPTY
                            and at(line[a - 2] if a >= 2 else
                                   (line[0][0] - d[0], line[0][1] - d[1]))
                            != X
                            and at(line[a + 5] if a + 5 < len(line) else
                                   (line[-1][0] + d[0], line[-1][1] + d[1]))
                            != X):
                        sf = True
                del grid[p]
                if sf and judge_literal(grid, *p) not in FORBIDDEN:
                    found = True
            threes += found
        return "double-three" if threes >= 2 else "allowed"
    finally:
        del grid[s]


def cross_check(count, seed):
    """judge_idx against judge_literal on every empty cell of `count`
    random positions and of the hand-built ones."""
    rng = random.Random(seed)
    boards = [b for _, b, _, _ in hand_boards()]
    boards += [random_board(rng) for _ in range(count)]
    cells = 0
    for b in boards:
        grid = {(i % N, i // N): v for i, v in enumerate(b) if v != EMPTY}
        memo = {}
        for i in range(N * N):
            if b[i] == EMPTY:
                want = judge_literal(grid, i % N, i // N)
                got = judge_idx(b, i, memo)
                assert got == want, (fmt(b, X), name(i), got, want)
                cells += 1
    return len(boards), cells


def cmd_selftest():
    t0 = time.time()
    line_check()
    for label, b, cell, want in hand_boards():
        got = judge(b, cell)
        print(f"{'ok ' if got == want else 'BAD'} {label}: {cell} -> {got}")
        assert got == want, (label, got, want)
        assert b.count(X) == b.count(O)
    # a few more direct checks on an otherwise empty board
    for xs, os_, cell, want in (
            ("f8 g8", "", "h8", "allowed"),              # one three
            ("e8 f8 g8", "", "h8", "allowed"),           # straight four
            ("d8 e8 f8 g8", "", "h8", "five"),
            ("d8 e8 f8 g8 j8", "", "h8", "five"),        # i8 empty: five
            ("d8 e8 f8 g8 i8", "", "h8", "overline"),
            ("f8 g8 j8 h6 h7", "", "h8", "allowed"),     # four + three
            ("f8 g8 k8 h6 h7", "", "h8", "double-three"),
            ("f8 g8 h6 h7", "e8 i8", "h8", "allowed"),   # row dead
            ("f8 g8 h6 h7", "d8 j8", "h8", "allowed"),   # .XXX. in O..O
            ("f8 g8 h6 h7", "c8 j8", "h8", "double-three"),  # e8 works
            ("a8 b8 h6 h7", "", "c8", "allowed"),        # edge: a8 b8 c8
            ("b8 c8 h6 h7", "", "d8", "allowed"),        # no h8 cross
            ("b8 c8 d6 d7", "", "d8", "double-three"),   # a8 b8 c8 d8 e8
            ("a8 b8 c8 d8", "", "e8", "five"),           # five at the edge
            ("b8 c8 d8 e8", "", "a8", "five"),
            ("f8 g8 k8 h6 h7", "e8", "h8", "allowed"),  # i8: f8-i8 + k8
            # i8 (the row's only straight-four point) also makes the
            # five i4-i8: it is not forbidden, so the row is a three.
            ("f8 g8 h6 h7 i4 i5 i6 i7", "d8 i10", "h8", "double-three"),
            # with X also on i9, i8 makes the overline i4-i9 instead: the
            # row is no three.
            ("f8 g8 h6 h7 i4 i5 i6 i7 i9", "d8 i10", "h8", "allowed"),
    ):
        b = build(xs, os_)
        got = judge(b, cell)
        assert got == want, (xs, os_, cell, got, want)
    # position text round trip and the start rule
    for _, b, _, _ in hand_boards():
        assert parse(fmt(b, X)) == (b, X)
    empty = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 X"
    assert parse(empty)[0] == [EMPTY] * (N * N)
    w = {X: 0, O: 0}
    assert perft(parse(empty)[0], X, 1, w) == 1
    assert perft(parse(empty)[0], X, 2, w) == 224
    # game ends: O to move with O a1 b1 c1 d1 (e1 wins) and X h8 i9 j10 _
    # l12 (k11 is X's five on ply 2 unless O took it)
    b = build("h8 i9 j10 l12", "a1 b1 c1 d1")
    w = {X: 0, O: 0}
    assert perft(b, O, 1, w) == 217 and w == {X: 0, O: 1}
    w = {X: 0, O: 0}
    assert perft(b, O, 2, w) == 216 * 216 and w == {X: 215, O: 0}
    b = build("h8", "a1 b1 c1 e1 f1")
    b[idx("d1")] = O
    assert o_wins(b, idx("d1"))                  # O wins with six too
    nb, nc = cross_check(40, 12345)
    print(f"cross-check with the literal reading: {nb} positions, {nc} "
          f"cells agree")
    print(f"selftest passed ({time.time() - t0:.1f}s)")


# ---------------------------------------------------------------- main ---

def main(argv):
    if len(argv) < 2 or argv[1] == "selftest":
        cmd_selftest()
    elif argv[1] == "positions":
        n = int(argv[2]) if len(argv) > 2 else 300
        seed = int(argv[3]) if len(argv) > 3 else 1
        cmd_positions(n, seed)
    elif argv[1] == "perft":
        cmd_perft(argv[2], int(argv[3]))
    elif argv[1] == "judge":
        board, _ = parse(argv[2])
        print(judge(board, argv[3]))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
