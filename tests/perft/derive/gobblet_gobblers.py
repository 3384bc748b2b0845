#!/usr/bin/env python3
"""Independent reference for Gobblet Gobblers (rules GB1, GB2): legal moves,
their results, position text and perft.

Written from the rule text alone; shares no code with the engine.

Rules implemented:
  * GB1: 3x3 board, cells a1..c3 (columns a-c from the left, rows 1-3 from
    the bottom).  X moves first, sides alternate, one move each.  Each side
    starts with six pieces in hand, two each of sizes S < M < L.
  * A move either places a piece from the mover's hand (written `b2=L`) or
    moves one of the mover's visible pieces -- the top piece of a cell, which
    must be the mover's -- to another cell, any distance (written `a1-b2`).
    In both cases the destination must be empty or have a top piece strictly
    smaller than the arriving piece, whoever owns it (so a piece may cover
    the mover's own smaller piece, and never a piece of its own size).  A
    piece may not move to its own cell.  A covered piece stays beneath and
    shows again when its cover leaves.  (Consequently a cell holds at most
    one piece of each size, at most three pieces, larger above smaller.)
  * GB2: the 8 lines (3 rows, 3 columns, 2 diagonals) are judged on the
    visible tops AFTER the whole move (a lifted piece that lands on a cell of
    the line it uncovered breaks that line again): if the mover's opponent
    shows three in a row, the opponent wins, even if the mover shows one
    too; else if the mover shows three in a row, the mover wins; else play
    goes on.  A finished game has no moves.
  * The third occurrence of a position (every stack including covered
    pieces, both hands, side to move) along the game is a draw; the root of
    a perft (the position set up) counts as its first occurrence.  A win on
    the same move takes precedence (for perft both are simply the end).
  * A side to move with no legal move draws.  It cannot happen: a side
    either holds an L (and at most four of the nine tops are L, so it fits
    somewhere) or has both its Ls on the board, always visible, each with
    at least five other cells whose top is not L.
Perft(d): perft(0)=1, perft(d)=sum over legal moves of perft(d-1) of the
child; an ended position has no legal moves.  From the start: 27 moves
(9 cells x 3 sizes); after X's size s on cell c, O has 8 x 3 placements
plus the covers of c by larger sizes (2, 1, 0 for S, M, L): 9*(26+25+24) =
675 = perft(2).

A third occurrence needs a cycle, and a cycle takes at least four plies:
the side to move must be the same (an even number of plies); placements
cannot be undone (hands only shrink), and after two plies that are moves,
the first mover's piece sits on a new cell that only its owner can leave.
So occurrences at plies i < j < k have k >= 8, and a game ended at ply 8
still counts 1 in perft(8): repetition changes perft(d) only for d >= 9
(and for d = 9 only by the root coming back at plies 4 and 8, which is why
position (f) tests that the root counts).  perft_fast (memoised on the
position, blind to the history) is therefore exact for d <= 8 and refuses
more; deeper figures use perft_hist (B with the history kept), checked
against perft_path (A, literal) in the self-test.

Position text (as the engine prints it):
    <board> <side> <hand> -
  board: rows from the top (row 3) down to row 1, separated by '/'; in a
  row, cells left to right; a run of empty cells is a digit; a cell with
  pieces is its top piece, mark + size (XL, OS), followed -- only if pieces
  lie beneath -- by those pieces in parentheses, top first: XL(OMXS).
  side: the side to move (after a game-ending move still flipped).
  hand: X's pieces in hand, then O's, comma separated, each smallest first
  (SSMMLL,SMMLL), a side holding none is '-'.  Last field: '-'.
  Start: 3/3/3 X SSMMLL,SSMMLL -
  Accepted for setup also as just "<board> <side>": the hands follow from
  the board (two of each size per side, less those on the board).

Two deliberately different implementations:
  A (section 2) -- literal: a position is nine stacks (tuples of pieces,
    bottom first), the hands as counts and the side; moves found by looking
    at each stack's last piece; lines listed by cell name.
  B (section 3) -- per-size bitmasks: for each side and size a 9-bit mask
    of the cells holding that piece; tops, visible pieces and free
    destinations computed with mask algebra; lines as masks.  B has its own
    position printer.  B is used for all perft figures (memoised); A for
    moves.txt; the self-test cross-checks them (section 4).

Commands (times on one core):
  python3 gobblet_gobblers.py selftest      (~35 s) perft 1-3 from the
      start counted by hand (start_by_hand), position text cases, the
      properties of the chosen positions, and the A-vs-B cross-check: every
      move, printed child and result of ~5400 positions (random games,
      random arrangements, the chosen ones); perft of 40 random positions
      to depth 3 by perft_path (A), perft_fast and perft_hist (B).
  python3 gobblet_gobblers.py figures > tests/perft/gobblet-gobblers.perft
      (~90 s) that file, every figure computed here: the start to depth 6,
      the chosen positions (CHOSEN, REPETITION) to depth 4, 5 or 9.
  python3 gobblet_gobblers.py perft "<position>" DEPTH     perft 1..DEPTH
  python3 gobblet_gobblers.py moves "<position>"      its moves (A), sorted
  python3 gobblet_gobblers.py movesfile 1 > tests/gobblet/moves.txt
      (~5 s) the move table: the start, the chosen positions and random
      positions reached by random play from the start (seed 1), each with
      every legal move, the position it leads to and the result; A's table
      is asserted equal to B's for every position written.
Checked once, too slow for selftest: perft_path (A) gives the start's
perft 4 and 5 (572472, 16635384) and (f)'s perft 9 (8740892) as B does.
"""
import random
import sys
import time
from collections import Counter

FILES = "abc"
SIZES = "SML"                  # size index 0, 1, 2
SIDES = "XO"                   # side index 0, 1
CELLS = [f + r for r in "123" for f in FILES]      # a1 b1 c1 a2 .. c3
INDEX = {c: i for i, c in enumerate(CELLS)}


# ------------------------------------------------ 1. position text ---

def parse(text):
    """Position text (full or '<board> <side>') -> implementation A's
    position: (stacks, hands, side), stacks a tuple of nine tuples of
    pieces (mark, size index) bottom first, indexed like CELLS; hands
    ((X's S, M, L counts), (O's ...)); side 'X' or 'O'."""
    fields = text.split()
    assert len(fields) in (2, 4), text
    rows = fields[0].split("/")
    side = fields[1]
    assert len(rows) == 3 and side in SIDES, text
    stacks = [()] * 9
    for k, row in enumerate(rows):
        r = 2 - k
        c, i = 0, 0
        while i < len(row):
            ch = row[i]
            if ch.isdigit():
                c += int(ch)
                i += 1
                continue
            pieces = [(row[i], SIZES.index(row[i + 1]))]   # top first
            i += 2
            if i < len(row) and row[i] == "(":
                j = row.index(")", i)
                inner = row[i + 1:j]
                assert inner and len(inner) % 2 == 0, text
                pieces += [(inner[t], SIZES.index(inner[t + 1]))
                           for t in range(0, len(inner), 2)]
                i = j + 1
            assert all(p[0] in SIDES for p in pieces), text
            # strictly larger above smaller
            assert all(a[1] > b[1] for a, b in zip(pieces, pieces[1:])), text
            assert c < 3, text
            stacks[r * 3 + c] = tuple(reversed(pieces))
            c += 1
        assert c == 3, text
    used = Counter(p for s in stacks for p in s)
    hands = tuple(tuple(2 - used[(m, z)] for z in range(3)) for m in SIDES)
    assert all(n >= 0 for h in hands for n in h), text
    pos = (tuple(stacks), hands, side)
    if len(fields) == 4:
        assert fields[3] == "-", text
        assert fmt(pos) == text, (text, fmt(pos))   # hands must agree
    return pos


def fmt_hand(counts):
    s = "".join(SIZES[z] * counts[z] for z in range(3))
    return s or "-"


def fmt(pos):
    """Implementation A's printer."""
    stacks, hands, side = pos
    rows = []
    for r in (2, 1, 0):
        out, run = "", 0
        for c in range(3):
            st = stacks[r * 3 + c]
            if not st:
                run += 1
                continue
            if run:
                out += str(run)
                run = 0
            top_first = list(reversed(st))
            out += top_first[0][0] + SIZES[top_first[0][1]]
            if len(top_first) > 1:
                out += "(" + "".join(m + SIZES[z] for m, z in top_first[1:]) + ")"
        if run:
            out += str(run)
        rows.append(out)
    return (f"{'/'.join(rows)} {side} "
            f"{fmt_hand(hands[0])},{fmt_hand(hands[1])} -")


START_TEXT = "3/3/3 X SSMMLL,SSMMLL -"


# ------------------------------------- 2. implementation A: stacks ---

LINES_A = (
    ("a1", "b1", "c1"), ("a2", "b2", "c2"), ("a3", "b3", "c3"),
    ("a1", "a2", "a3"), ("b1", "b2", "b3"), ("c1", "c2", "c3"),
    ("a1", "b2", "c3"), ("c1", "b2", "a3"))


def other(side):
    return "O" if side == "X" else "X"


def fits(stack, size):
    """May a piece of `size` arrive on this stack?"""
    return not stack or stack[-1][1] < size


def shows_line_a(stacks, mark):
    for line in LINES_A:
        if all(stacks[INDEX[c]] and stacks[INDEX[c]][-1][0] == mark
               for c in line):
            return True
    return False


def moves_a(pos):
    """Legal move texts (unsorted).  Does not know whether pos is over."""
    stacks, hands, side = pos
    hand = hands[SIDES.index(side)]
    out = []
    for z in range(3):
        if hand[z] > 0:
            for i in range(9):
                if fits(stacks[i], z):
                    out.append(f"{CELLS[i]}={SIZES[z]}")
    for i in range(9):
        if stacks[i] and stacks[i][-1][0] == side:
            z = stacks[i][-1][1]
            for j in range(9):
                if j != i and fits(stacks[j], z):
                    out.append(f"{CELLS[i]}-{CELLS[j]}")
    return out


def play_a(pos, move):
    """-> (child position, winner 'X'/'O' or None)."""
    stacks, hands, side = pos
    stacks = list(stacks)
    hands = [list(h) for h in hands]
    if "=" in move:
        cell, size = move.split("=")
        z = SIZES.index(size)
        j = INDEX[cell]
        assert hands[SIDES.index(side)][z] > 0 and fits(stacks[j], z), move
        hands[SIDES.index(side)][z] -= 1
        piece = (side, z)
    else:
        src, dst = move.split("-")
        i, j = INDEX[src], INDEX[dst]
        assert i != j and stacks[i] and stacks[i][-1][0] == side, move
        piece = stacks[i][-1]
        stacks[i] = stacks[i][:-1]
        assert fits(stacks[j], piece[1]), move
    stacks[j] = stacks[j] + (piece,)
    child = (tuple(stacks), tuple(tuple(h) for h in hands), other(side))
    if shows_line_a(child[0], other(side)):
        return child, other(side)
    if shows_line_a(child[0], side):
        return child, side
    return child, None


def over_a(pos):
    """Winner of a position as set up (someone already shows a line)?"""
    xs, os_ = shows_line_a(pos[0], "X"), shows_line_a(pos[0], "O")
    return xs or os_


def perft_path(pos, depth, hist=None):
    """Literal perft on implementation A with the game's history (a Counter
    of positions on the path, the root included)."""
    if hist is None:
        hist = Counter({pos: 1})
    if depth == 0:
        return 1
    total = 0
    for mv in moves_a(pos):
        child, winner = play_a(pos, mv)
        if depth == 1:
            total += 1
            continue
        if winner is not None:
            continue                    # ended: perft(d - 1 >= 1) = 0
        hist[child] += 1
        if hist[child] < 3:             # third occurrence: draw, ended
            total += perft_path(child, depth - 1, hist)
        hist[child] -= 1
    return total


# ------------------------------ 3. implementation B: size bitmasks ---
# state = (m, h, s): m[s*3 + z] = 9-bit mask of the cells holding side s's
# piece of size z (bit row*3 + col); h[s*3 + z] = pieces of it in hand;
# s = 0 (X) or 1 (O) to move.

FULL = 0x1FF
LINES_B = tuple([0b111 << (3 * r) for r in range(3)]
                + [0b001001001 << c for c in range(3)]
                + [0b100010001, 0b001010100])


def to_b(pos):
    stacks, hands, side = pos
    m = [0] * 6
    for i, st in enumerate(stacks):
        for mark, z in st:
            m[SIDES.index(mark) * 3 + z] |= 1 << i
    return (tuple(m), hands[0] + hands[1], SIDES.index(side))


def visible_b(m):
    """(X's visible cells, O's visible cells)."""
    any_m = m[1] | m[4]
    any_l = m[2] | m[5]
    above_s = any_m | any_l
    return (m[2] | (m[1] & ~any_l) | (m[0] & ~above_s),
            m[5] | (m[4] & ~any_l) | (m[3] & ~above_s))


def line_b(v):
    for ln in LINES_B:
        if v & ln == ln:
            return True
    return False


def free_b(m):
    """free[z] = cells a piece of size z may arrive on: no piece of size
    z or larger there."""
    any_l = m[2] | m[5]
    any_ml = any_l | m[1] | m[4]
    return (FULL & ~(any_ml | m[0] | m[3]), FULL & ~any_ml, FULL & ~any_l)


def bits(mask):
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def children_b(state):
    """Yield (move text, child state, winner 0/1/None)."""
    m, h, s = state
    free = free_b(m)
    any_l = m[2] | m[5]
    on_top = (m[s * 3] & ~(any_l | m[1] | m[4]),
              m[s * 3 + 1] & ~any_l,
              m[s * 3 + 2])
    t = 1 - s
    for z in range(3):
        k = s * 3 + z
        if h[k]:
            nh = h[:k] + (h[k] - 1,) + h[k + 1:]
            for j in bits(free[z]):
                nm = m[:k] + (m[k] | 1 << j,) + m[k + 1:]
                yield f"{CELLS[j]}={SIZES[z]}", (nm, nh, t), judge_b(nm, s)
    for z in range(3):
        k = s * 3 + z
        for i in bits(on_top[z]):
            lifted = m[k] & ~(1 << i)
            for j in bits(free[z] & ~(1 << i)):
                nm = m[:k] + (lifted | 1 << j,) + m[k + 1:]
                yield f"{CELLS[i]}-{CELLS[j]}", (nm, h, t), judge_b(nm, s)


def judge_b(m, mover):
    v = visible_b(m)
    if line_b(v[1 - mover]):
        return 1 - mover
    if line_b(v[mover]):
        return mover
    return None


def fmt_b(state):
    """Implementation B's own printer."""
    m, h, s = state
    rows = []
    for r in (2, 1, 0):
        cells = []
        for c in range(3):
            i = r * 3 + c
            pieces = [SIDES[k // 3] + SIZES[k % 3]
                      for z in (2, 1, 0) for k in (z, 3 + z) if m[k] >> i & 1]
            cells.append(pieces[0] + (f"({''.join(pieces[1:])})"
                                      if len(pieces) > 1 else "")
                         if pieces else None)
        row, run = "", 0
        for x in cells + ["end"]:
            if x is None:
                run += 1
                continue
            if run:
                row += str(run)
                run = 0
            if x != "end":
                row += x
        rows.append(row)
    hand = ",".join("".join(SIZES[z] * h[k * 3 + z] for z in range(3)) or "-"
                    for k in range(2))
    return f"{'/'.join(rows)} {SIDES[s]} {hand} -"


_MEMO = {}


def perft_fast(state, depth):
    """Memoised perft on implementation B, blind to the history: exact for
    depth <= 8 (see the module doc)."""
    assert depth <= 8, "repetition can matter from depth 9: use perft_hist"
    return _perft_fast(state, depth)


def _perft_fast(state, depth):
    if depth == 0:
        return 1
    key = (state, depth)
    got = _MEMO.get(key)
    if got is not None:
        return got
    total = 0
    if depth == 1:
        total = sum(1 for _ in children_b(state))
    else:
        for _, child, winner in children_b(state):
            if winner is None:
                total += _perft_fast(child, depth - 1)
    _MEMO[key] = total
    return total


def perft_hist(state, depth, hist=None):
    """Perft on implementation B with the history kept (no memo)."""
    if hist is None:
        hist = Counter({state: 1})
    if depth == 0:
        return 1
    if depth == 1:
        return sum(1 for _ in children_b(state))
    total = 0
    for _, child, winner in children_b(state):
        if winner is not None:
            continue
        hist[child] += 1
        if hist[child] < 3:
            total += perft_hist(child, depth - 1, hist)
        hist[child] -= 1
    return total


_FIGURES = {}


def perft(text, depth):
    """The figure for a position text (B; memoised when exact)."""
    if (text, depth) not in _FIGURES:
        state = to_b(parse(text))
        _FIGURES[text, depth] = (perft_fast(state, depth) if depth <= 8
                                 else perft_hist(state, depth))
    return _FIGURES[text, depth]


# ------------------------------------------------- 4. cross-check ---

def table_a(pos):
    """{move: (child text, result)} by implementation A."""
    out = {}
    for mv in moves_a(pos):
        child, winner = play_a(pos, mv)
        out[mv] = (fmt(child), f"{winner} wins" if winner else "-")
    return out


def table_b(pos):
    out = {}
    for mv, child, winner in children_b(to_b(pos)):
        assert mv not in out, mv
        out[mv] = (fmt_b(child),
                   f"{SIDES[winner]} wins" if winner is not None else "-")
    return out


def random_game_positions(rng, cover_bias=0.0):
    """Positions (not over) along one random game from the start; with
    cover_bias, moves landing on a piece are preferred (deeper stacks)."""
    pos = parse(START_TEXT)
    seen = [pos]
    for _ in range(60):
        mvs = sorted(moves_a(pos))
        if cover_bias and rng.random() < cover_bias:
            covers = [mv for mv in mvs
                      if pos[0][INDEX[mv[3:5] if "-" in mv else mv[:2]]]]
            if covers:
                mvs = covers
        mv = rng.choice(mvs)
        pos, winner = play_a(pos, mv)
        if winner:
            break
        seen.append(pos)
    return seen


def random_setup(rng):
    """A random arrangement (not necessarily reachable): each piece either
    in hand or on a random cell holding no piece of its size."""
    stacks = [[] for _ in range(9)]
    hands = [[0, 0, 0], [0, 0, 0]]
    keep = rng.random()
    for s in range(2):
        for z in range(3):
            for _ in range(2):
                room = [i for i in range(9)
                        if all(p[1] != z for p in stacks[i])]
                if rng.random() < keep and room:
                    stacks[rng.choice(room)].append((SIDES[s], z))
                else:
                    hands[s][z] += 1
    stacks = tuple(tuple(sorted(st, key=lambda p: p[1])) for st in stacks)
    return (stacks, tuple(map(tuple, hands)), rng.choice(SIDES))


def cross_check(seed, games, setups):
    rng = random.Random(seed)
    positions = [parse(START_TEXT)] + [parse(c[1]) for c in CHOSEN]
    positions.append(parse(REPETITION[1]))
    for g in range(games):
        positions += random_game_positions(rng, cover_bias=(g % 3) * 0.4)
    positions += [random_setup(rng) for _ in range(setups)]
    n_moves = 0
    for pos in positions:
        text = fmt(pos)
        assert fmt_b(to_b(pos)) == text, text
        assert parse(text) == pos, text
        ta, tb = table_a(pos), table_b(pos)
        assert ta == tb, (text, set(ta) ^ set(tb),
                          [(k, ta[k], tb.get(k)) for k in ta if ta[k] != tb.get(k)])
        n_moves += len(ta)
    return len(positions), n_moves


def perft_cross_check(seed, count, depth):
    """perft_path (A, history) against perft_fast and perft_hist (B)."""
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        game = random_game_positions(rng, cover_bias=rng.random())
        positions.append(rng.choice(game))
    nodes = 0
    for pos in positions:
        for d in range(1, depth + 1):
            a = perft_path(pos, d)
            b = perft_fast(to_b(pos), d)
            c = perft_hist(to_b(pos), d)
            assert a == b == c, (fmt(pos), d, a, b, c)
            nodes += a
    return len(positions), nodes


# ----------------------------------------------- 5. chosen positions ---
# (label, position text, comment for the .perft file, deepest perft).
# selftest checks that each is valid, not over, and has the property its
# comment claims.

CHOSEN = [
    ("a", "XS2/1OLXM/OSXL(OM)OM X SML,SL -",
     "(a) X's L on b1 covers O's M of O's row 1 (O shows a1, c1). Lifting\n"
     "it reveals the row: b1-a2, a3, b3, c2, c3 lose at once (O wins);\n"
     "b1-a1 and b1-c1 cover a cell of that row and play goes on.", 4),
    ("b", "3/OMXL(OS)OM/XM1XS X SML,SLL -",
     "(b) X's L on b2 covers O's S of O's row 2. b2-b1 completes X's row 1\n"
     "and reveals O's row 2: both show a line, O (the mover's opponent)\n"
     "wins. Placing on b1 wins for X; b2-a2 and b2-c2 cover O's row.", 4),
    ("b-mirror", "3/XMOL(XS)XM/OM1OS O SLL,SML -",
     "(b') the same with the colours swapped, O to move: b2-b1 shows both\n"
     "lines and X wins.", 4),
    ("c", "OMXMOM/XL(OS)OLXM/1XL(OS)1 X SS,L -",
     "(c) hands partly empty: X holds S S (they only go on the empty a1,\n"
     "c1), O holds one L. Equal sizes block covers: X's M cannot take O's M\n"
     "on a3 or c3, X's L not O's L on b2. O threatens a1 and c1.", 5),
    ("d", "OL(XM)XS1/1OM(XS)1/OL(XM)XLXL(OS) X -,SM -",
     "(d) X's hand is empty: X has only moves, 13 of them. X's L on c1\n"
     "holds down O's diagonal c1-b2-a3: c1-b2 covers its b2 and completes\n"
     "X's column b (X wins); c1 anywhere else loses. O holds S M and\n"
     "threatens a2 and c3.", 5),
    ("e", "1OSOM/XMXL(OMXS)1/OL2 X SML,SL -",
     "(e) a three-deep stack on b2: X's L over O's M over X's S. Lifting\n"
     "the L reveals O's diagonal a1-b2-c3: O wins, also after b2-a2 (over\n"
     "X's own M); only b2-c3 covers the diagonal. After b2-c3, O's M\n"
     "lifting off b2 reveals X's S.", 4),
]

# (f) the repetition rule.  Found by a search over random arrangements of
# all twelve pieces (both hands empty) for few quiet moves and a quiet
# four-ply cycle back to the root; the smallest perft 9 found.
REPETITION = (
    "f", "OMOLXL(OS)/XL(OS)OL(XS)OM/XM(XS)1XM X -,- -",
    "(f) the third occurrence is a draw, the root counting as the first.\n"
    "Both hands empty. X has 12 moves: a1-b1, a2-c2, c3-a3 win; lifting\n"
    "the L from a2 or c3 elsewhere reveals O's S and O's row 2 or 3 (8\n"
    "lose); c1-b1 goes on. Four-ply cycles (c1-b1 b2-a1 b1-c1 a1-b2 and 3\n"
    "more) bring the root back at plies 4 and 8: those games end drawn at\n"
    "ply 8, so perft 9 is 8740892, not 8741084 as without the rule\n"
    "(figures below depth 9 cannot depend on it).", 9)
REPETITION_WITHOUT = 8741084      # perft 9 of (f) if repetition were ignored


def check_chosen():
    """The properties the comments claim."""
    def tab(label):
        text = dict((lb, t) for lb, t, _, _ in CHOSEN)[label]
        pos = parse(text)
        assert fmt(pos) == text and not over_a(pos), label
        return pos, table_a(pos)

    pos, t = tab("a")
    from_b1 = {mv: r for mv, (_, r) in t.items() if mv.startswith("b1-")}
    assert from_b1 == {"b1-a1": "-", "b1-c1": "-", "b1-a2": "O wins",
                       "b1-a3": "O wins", "b1-b3": "O wins",
                       "b1-c2": "O wins", "b1-c3": "O wins"}, from_b1
    assert sum(r == "O wins" for _, r in t.values()) == 5

    for label, me, you in (("b", "X", "O"), ("b-mirror", "O", "X")):
        pos, t = tab(label)
        child = parse(t["b2-b1"][0])
        assert t["b2-b1"][1] == f"{you} wins", label
        assert shows_line_a(child[0], me) and shows_line_a(child[0], you)
        for size in SIZES:
            assert t[f"b1={size}"][1] == f"{me} wins", label
        assert t["b2-a2"][1] == t["b2-c2"][1] == "-", label

    pos, t = tab("c")
    places = sorted(mv for mv in t if "=" in mv)
    assert places == ["a1=S", "c1=S"], places
    assert not {"b3-a3", "b3-c3", "c2-a3", "c2-c3", "a2-b2", "b1-b2"} & set(t)
    for mv in t:
        child = parse(t[mv][0])
        if t[mv][1] == "-":
            assert all(m.endswith("=L") for m in moves_a(child) if "=" in m)

    pos, t = tab("d")
    assert pos[1][0] == (0, 0, 0) and all("-" in mv for mv in t)
    assert len(t) == 13 and [m for m in t if t[m][1] == "X wins"] == ["c1-b2"]

    pos, t = tab("e")
    from_b2 = {mv: r for mv, (_, r) in t.items() if mv.startswith("b2-")}
    assert from_b2 == {"b2-c3": "-", **{f"b2-{c}": "O wins" for c in
                       ("b1", "c1", "a2", "c2", "a3", "b3")}}, from_b2
    child = parse(t["b2-c3"][0])
    assert child[0][INDEX["b2"]] == (("X", 0), ("O", 1))
    grand = table_a(child)
    assert parse(grand["b2-b1"][0])[0][INDEX["b2"]] == (("X", 0),)

    pos = parse(REPETITION[1])
    assert fmt(pos) == REPETITION[1] and not over_a(pos)
    t = table_a(pos)
    assert pos[1] == ((0, 0, 0), (0, 0, 0)) and len(t) == 12
    assert sorted(m for m in t if t[m][1] == "X wins") == \
        ["a1-b1", "a2-c2", "c3-a3"]
    assert [m for m in t if t[m][1] == "-"] == ["c1-b1"]
    assert sum(r == "O wins" for _, r in t.values()) == 8

    def quiet(p):
        return [(m, c) for m in sorted(moves_a(p))
                for c, w in [play_a(p, m)] if w is None]
    cycles = [(m1, m2, m3, m4) for m1, c1 in quiet(pos) for m2, c2 in quiet(c1)
              for m3, c3 in quiet(c2) for m4, c4 in quiet(c3) if c4 == pos]
    assert len(cycles) == 4 and ("c1-b1", "b2-a1", "b1-c1", "a1-b2") in cycles
    # without the history the memoised count is the rule-blind figure
    _MEMO.clear()
    assert _perft_fast(to_b(pos), 9) == REPETITION_WITHOUT


# ------------------------------------------------------ 6. commands ---

def start_by_hand(depth):
    """perft 1..3 from the start counted by cases, without generating moves.
    Ply 1: X's size a on cell c (27).  Ply 2: O places size b on one of the
    8 other cells, or covers c with b > a.  Ply 3, after O on another cell
    d: X places any size z (X still holds all three sizes) on the 7 empty
    cells, on c if a < z, on d if b < z, or moves its piece from c to the 7
    empty cells or onto d if b < a (no line can show before ply 5).  After
    O covered c: X places z on the 8 empty cells or on c if b < z; X has
    nothing visible to move."""
    if depth == 1:
        return 9 * 3
    if depth == 2:
        return 9 * sum(8 * 3 + (2 - a) for a in range(3))
    assert depth == 3
    total = 0
    for a in range(3):
        for b in range(3):                  # O elsewhere: 9 * 8 (c, d)
            total += 9 * 8 * (sum(7 + (a < z) + (b < z) for z in range(3))
                              + 7 + (b < a))
        for b in range(a + 1, 3):           # O covers c
            total += 9 * sum(8 + (b < z) for z in range(3))
    return total


def cmd_selftest():
    t0 = time.time()
    start = parse(START_TEXT)
    assert fmt(start) == START_TEXT and parse("3/3/3 X") == start
    assert fmt_b(to_b(start)) == START_TEXT
    for d in (1, 2, 3):
        want = start_by_hand(d)
        assert perft_path(start, d) == perft_fast(to_b(start), d) == want, d
        print(f"start perft {d} = {want}, as counted by hand")
    assert start_by_hand(2) == 675
    # the position text on a few hand-written cases
    pos = parse("XL(OMXS)1OS/3/2OL(OS) O")
    assert pos[0][INDEX["a3"]] == (("X", 0), ("O", 1), ("X", 2))
    assert pos[0][INDEX["c1"]] == (("O", 0), ("O", 2))
    assert fmt(pos) == "XL(OMXS)1OS/3/2OL(OS) O SMML,ML -"
    assert fmt(parse("XLXLOL/OLXMXM/XSXSOS O")).endswith(" O -,SMM -")
    for bad in ("XS(XL)2/3/3 X", "XSXSXS/3/3 O", "4/3/3 X", "3/3/3 X - -",
                "3/3/3 X SSMMLL,SSMML -"):
        try:
            parse(bad)
        except (AssertionError, ValueError):
            continue
        raise AssertionError(f"accepted {bad}")
    check_chosen()
    print("chosen positions: properties hold")
    np_, nm = cross_check(seed=2024, games=300, setups=300)
    print(f"cross-check A vs B: {np_} positions, {nm} moves (move, printed "
          f"child, result) agree")
    npp, nodes = perft_cross_check(seed=99, count=40, depth=3)
    print(f"perft cross-check A (history) vs B (memo, history): {npp} "
          f"positions to depth 3, {nodes} nodes agree")
    # every position not over has a move (the no-move draw never arises)
    rng = random.Random(5)
    for _ in range(2000):
        pos = random_setup(rng)
        assert over_a(pos) or moves_a(pos), fmt(pos)
    print(f"selftest passed ({time.time() - t0:.1f}s)")


SLOW = 5_000_000          # figures above this go after a '# slow' line
START_DEPTH = 6

HEADER = """\
# gobblet-gobblers: 3x3, six pieces a side (two each of S < M < L), placed
# from hand or moved from the top of a cell, onto an empty cell or a
# strictly smaller top (GB1); lines judged on the visible tops after the
# whole move, the mover's opponent first (GB2); the third occurrence of a
# position is a draw (never within eight plies, so none of these figures
# depends on it unless said so). Every figure derived without the engine by
# tests/perft/derive/gobblet_gobblers.py (`figures`, which prints this
# file), where two implementations (stacks, size bitmasks) agree on every
# move and result of many random positions and on perft. Figures above
# 5 million follow a `# slow` line (perft.rs still checks those up to its
# QUICK_LIMIT, 20 million, in the quick run; 442903368 only with
# --ignored)."""


def perft_block(text, depth, comment):
    lines = [f"# {c}" for c in comment.split("\n")]
    lines.append(f"position {text}")
    for d in range(1, depth + 1):
        n = perft(text, d)
        if n > SLOW:
            lines.append("# slow")
        lines.append(f"perft {d} {n}")
    return lines


def cmd_figures():
    t0 = time.time()
    out = [HEADER, "rulebook gobblet-gobblers"]
    out += perft_block(
        START_TEXT, START_DEPTH,
        "The start: 27 = 9 cells x 3 sizes; 675 = 9 x (26 + 25 + 24), O's\n"
        "8 x 3 placements plus its covers of X's piece; 20313 by hand too\n"
        "(start_by_hand).")
    for _, text, comment, depth in CHOSEN + [REPETITION]:
        out += perft_block(text, depth, comment)
    assert perft(REPETITION[1], 9) != REPETITION_WITHOUT
    print("\n".join(out))
    print(f"figures: {time.time() - t0:.1f}s", file=sys.stderr)


def features(pos):
    """Short description of what a position for moves.txt holds."""
    stacks, hands, side = pos
    tab = table_a(pos)
    notes = []
    deep = max(len(s) for s in stacks)
    if deep >= 2:
        notes.append(f"stacks up to {deep} deep")
    if hands[SIDES.index(side)] == (0, 0, 0):
        notes.append("mover's hand empty")
    elif 0 in hands[SIDES.index(side)]:
        notes.append("mover lacks a size")
    wins = Counter(r for _, r in tab.values())
    for r in ("X wins", "O wins"):
        if wins[r]:
            notes.append(f"{wins[r]} move{'s' * (wins[r] > 1)}: {r}")
    both = sum(1 for mv, (c, r) in tab.items() if r != "-"
               and shows_line_a(parse(c)[0], "X")
               and shows_line_a(parse(c)[0], "O"))
    if both:
        notes.append(f"{both} move{'s' * (both > 1)} showing both lines")
    return notes, deep, wins, both


def cmd_movesfile(seed, count=150):
    """The start, the chosen positions, then random positions from seeded
    random games, picked to include deep stacks, empty hands, moves that
    end the game and moves that show both lines."""
    rng = random.Random(seed)
    chosen = [("the start", parse(START_TEXT))]
    chosen += [(f"chosen position ({lb}) of the perft file", parse(t))
               for lb, t, _, _ in CHOSEN + [REPETITION]]
    seen = {p for _, p in chosen}
    pool = []
    for g in range(400):
        game = random_game_positions(rng, cover_bias=(g % 4) * 0.3)
        for ply, pos in enumerate(game):
            if pos not in seen:
                seen.add(pos)
                pool.append(((g, ply), f"random game {g} (cover bias "
                             f"{(g % 4) * 0.3:.1f}), ply {ply}", pos))
    rng.shuffle(pool)
    info = [(lb, pos, features(pos)) for _, lb, pos in pool]
    quotas = [
        (lambda f: f[1] == 3, 30),                       # three-deep stack
        (lambda f: f[3] > 0, 12),                        # both lines shown
        (lambda f: "mover's hand empty" in f[0], 12),
        (lambda f: "mover lacks a size" in f[0], 12),
        (lambda f: f[2]["X wins"] + f[2]["O wins"] > 0, 30),   # near the end
    ]
    used = set()
    for want, n in quotas:
        got = [k for k, (_, _, f) in enumerate(info) if k not in used
               and want(f)][:n]
        used.update(got)
    rest = count - len(chosen) - len(used)
    used.update([k for k in range(len(info)) if k not in used][:rest])
    picks = chosen + [(info[k][0], info[k][1])
                      for k in sorted(used, key=lambda k: pool[k][0])]
    out = ["# Gobblet Gobblers (GB1-GB2): every legal move of each position,",
           "# with the position it leads to and the result (`-`, `X wins`,",
           "# `O wins`); each position taken as set up fresh (no repetition",
           "# history). Moves sorted by their text (byte order). Generated by",
           f"#   python3 tests/perft/derive/gobblet_gobblers.py movesfile {seed}",
           ""]
    nmoves = 0
    for label, pos in picks:
        assert not over_a(pos), fmt(pos)
        notes, _, _, _ = features(pos)
        ta, tb = table_a(pos), table_b(pos)
        assert ta == tb, fmt(pos)
        out.append(f"# {label}" + (f": {', '.join(notes)}" if notes else ""))
        out.append(f"position {fmt(pos)}")
        for mv in sorted(ta):
            child, result = ta[mv]
            out.append(f"{mv} {child} | {result}")
            nmoves += 1
        out.append("")
    print("\n".join(out).rstrip("\n"))
    print(f"movesfile: {len(picks)} positions, {nmoves} moves",
          file=sys.stderr)


def cmd_moves(text):
    pos = parse(text)
    for mv in sorted(moves_a(pos)):
        child, winner = play_a(pos, mv)
        print(mv, fmt(child), "|", f"{winner} wins" if winner else "-")


def cmd_perft(text, depth):
    t0 = time.time()
    for d in range(1, depth + 1):
        print(f"perft {d} {perft(text, d)}", flush=True)
    print(f"# {time.time() - t0:.1f}s")


def main(argv):
    if len(argv) < 2 or argv[1] == "selftest":
        cmd_selftest()
    elif argv[1] == "perft":
        cmd_perft(argv[2], int(argv[3]))
    elif argv[1] == "moves":
        cmd_moves(argv[2])
    elif argv[1] == "figures":
        cmd_figures()
    elif argv[1] == "movesfile":
        cmd_movesfile(int(argv[2]) if len(argv) > 2 else 1)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
