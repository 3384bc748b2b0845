//! The rule statements of the built-in rulebooks, checked through the public
//! core API (`Rulebook::builtin`, `Game`, `Rulebook::parse_position`,
//! `position_text`, `legal_moves`, `check`, `play`, `perft`).
//!
//! Statement IDs (C1, U4, …) are those of `RULES.md` (the digest of the source
//! texts); every test names the IDs it covers, in its name or doc comment.
//! Most cases are data: scenario files in `tests/scenarios/*.txt`, run by the
//! small interpreter below. Sweeps over every line or every cell are code.
//!
//! # Scenario file format
//!
//! One statement per line; blank lines and lines starting with `#` are ignored.
//!
//! ```text
//! scenario <name>: <rule IDs…>     starts a scenario; the IDs are what it covers
//! rulebook <name>                  a built-in rulebook (stays until changed)
//! start                            a new game from the initial position
//! setup <position text>            a new game from a set-up position (must parse)
//! legal-before <n>…                for the next `play` line: the number of legal
//!                                  moves before each of its moves
//! play <move>…                     plays the moves in order; each must be in
//!                                  `legal_moves`, pass `check`, and be accepted
//! refuse <move> ~ <reason>         the move is refused by `check` and by
//!                                  `Game::play` with a reason containing <reason>;
//!                                  the game is unchanged and the move is not in
//!                                  `legal_moves` (G2)
//! expect result: <X wins|O wins|draw|none>
//! expect ending: <line|no-moves|repetition|script>
//! expect turn: <X|O>
//! expect legal: <n>                the number of legal moves; also checks that
//!                                  `legal_moves` is exactly the set of moves
//!                                  `check` accepts
//! expect moves: <move>…            the legal moves, in any order
//! expect position: <text>          `position_text` of the current position
//! expect target: <board|->         the board the next move is sent to
//! expect won: <X|O> <board…|->     the boards the side has won
//! expect closed: <board…|->        the closed (won or full) boards
//! expect perft: <depth> <count>    `perft` from the current position
//! roundtrip <text> [=> <printed>]  the text parses, prints as <printed> (default:
//!                                  itself), and the printed text parses back to
//!                                  the same position
//! reject <text> is <kind> [~ <reason>]
//!                                  `parse_position` refuses the text with an error
//!                                  of that kind (`SetupErrorKind`'s variant),
//!                                  pointing into the text, whose message contains
//!                                  <reason> where one is given (the text is the
//!                                  contract where a line pins it)
//! ```
//!
//! Boards are numbered from 1, row by row from the bottom-left, as in the
//! position text. After every move played the interpreter also checks that
//! the side to move alternates (G1) and that the position text round-trips.

use gridrules_conformance::legal;
use gridrules_core::perft::perft;
use gridrules_core::{Ending, Game, Move, Outcome, PlayError, Position, Refusal, Rulebook, Side};
use std::collections::{BTreeSet, HashMap};
use std::path::Path;
use std::sync::Arc;

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

fn builtin(name: &str) -> Arc<Rulebook> {
    Arc::new(Rulebook::builtin(name).unwrap_or_else(|e| panic!("built-in `{name}`: {e}")))
}

/// Every move `check` could be asked about: placements of either mark on
/// every cell, and for rulebooks with pieces, every step between two cells.
fn candidates(book: &Rulebook) -> Vec<Move> {
    let grid = book.grid();
    let mut out: Vec<Move> = grid
        .cells()
        .flat_map(|to| Side::ALL.map(|mark| Move::Place { to, mark }))
        .collect();
    if book.mechanics().pieces().is_some() {
        for from in grid.cells() {
            for to in grid.cells() {
                out.push(Move::Step { from, to });
            }
        }
    }
    out
}

/// `legal_moves` lists exactly the moves that `check` accepts, each once.
fn assert_legal_consistent(book: &Rulebook, pos: &Position, at: &str) {
    let listed = legal(book, pos);
    let set: BTreeSet<String> = listed.iter().map(|&m| book.move_text(m)).collect();
    assert_eq!(
        set.len(),
        listed.len(),
        "{at}: legal_moves lists a move twice"
    );
    for mv in candidates(book) {
        let ok = book.check(pos, &[], mv).is_ok();
        assert_eq!(
            ok,
            listed.contains(&mv),
            "{at}: `{}`: check says {ok}, legal_moves disagrees",
            book.move_text(mv)
        );
    }
}

/// The text of `pos` parses back to `pos` (a repetition draw is not visible in
/// the text, so there only the text is compared).
fn assert_round_trip(book: &Rulebook, pos: &Position, at: &str) {
    let text = book.position_text(pos);
    let back = book
        .parse_position(&text)
        .unwrap_or_else(|e| panic!("{at}: `{text}` does not parse back: {e}"));
    assert_eq!(
        book.position_text(&back),
        text,
        "{at}: round trip of `{text}`"
    );
    if !matches!(pos.ending(), Some((_, Ending::Repetition(_)))) {
        assert!(
            back.same_state(pos),
            "{at}: `{text}` parses to another position:\n{back:?}\n{pos:?}"
        );
    }
}

fn result_text(pos: &Position) -> String {
    pos.outcome()
        .map_or_else(|| "none".to_string(), |o| o.to_string())
}

fn ending_text(pos: &Position) -> &'static str {
    match pos.ending() {
        None => "none",
        Some((_, Ending::Line)) => "line",
        Some((_, Ending::NoMoves(_))) => "no-moves",
        Some((_, Ending::Full)) => "full",
        Some((_, Ending::Repetition(_))) => "repetition",
        Some((_, Ending::Script)) => "script",
        Some((_, Ending::Captures(_))) => "captures",
        Some((_, Ending::Stones(_))) => "stones",
        Some((_, Ending::Reduced(..))) => "reduced",
        Some((_, Ending::Resigned(_) | Ending::Agreed | Ending::MoveLimit(_))) => {
            unreachable!("the board never resigns, agrees or stops a match")
        }
    }
}

/// Board numbers (from 1) in a region mask, as text; `-` for none.
fn boards_text(mask: u32) -> String {
    let list: Vec<String> = (0..32)
        .filter(|r| mask & (1 << r) != 0)
        .map(|r| (r + 1).to_string())
        .collect();
    if list.is_empty() {
        "-".to_string()
    } else {
        list.join(" ")
    }
}

/// A board text from a function of (column, row), both from 0, row 0 at the bottom.
fn board_text(w: u32, h: u32, mark: impl Fn(u32, u32) -> Option<Side>) -> String {
    let mut rows = Vec::new();
    for row in (0..h).rev() {
        let mut s = String::new();
        let mut empty = 0;
        for col in 0..w {
            match mark(col, row) {
                None => empty += 1,
                Some(side) => {
                    if empty > 0 {
                        s += &empty.to_string();
                        empty = 0;
                    }
                    s.push(side.to_char());
                }
            }
        }
        if empty > 0 {
            s += &empty.to_string();
        }
        rows.push(s);
    }
    rows.join("/")
}

fn cell_name(col: u32, row: u32) -> String {
    format!("{}{}", (b'a' + col as u8) as char, row + 1)
}

// ---------------------------------------------------------------------------
// The scenario interpreter
// ---------------------------------------------------------------------------

struct Runner {
    file: String,
    books: HashMap<String, Arc<Rulebook>>,
    book: Option<Arc<Rulebook>>,
    game: Option<Game>,
    scenario: String,
    counts: Option<Vec<usize>>,
    covered: BTreeSet<String>,
    scenarios: usize,
}

impl Runner {
    fn book(&self, at: &str) -> Arc<Rulebook> {
        self.book
            .clone()
            .unwrap_or_else(|| panic!("{at}: no `rulebook` line before this"))
    }

    fn game(&mut self, at: &str) -> &mut Game {
        self.game
            .as_mut()
            .unwrap_or_else(|| panic!("{at}: no `start` or `setup` before this"))
    }

    fn parse_move(&self, text: &str, at: &str) -> Move {
        let book = self.book(at);
        let pos = self
            .game
            .as_ref()
            .map_or_else(|| book.initial(), |g| *g.position());
        book.parse_move(&pos, &[], text)
            .unwrap_or_else(|e| panic!("{at}: {e}"))
    }

    fn line(&mut self, at: &str, line: &str) {
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        match key {
            "scenario" => {
                let (name, ids) = rest
                    .split_once(':')
                    .unwrap_or_else(|| panic!("{at}: `scenario <name>: <IDs>`"));
                self.scenario = name.trim().to_string();
                self.covered
                    .extend(ids.split_whitespace().map(str::to_string));
                self.game = None;
                self.counts = None;
                self.scenarios += 1;
            }
            "rulebook" => {
                let book = self
                    .books
                    .entry(rest.to_string())
                    .or_insert_with(|| builtin(rest))
                    .clone();
                self.book = Some(book);
                self.game = None;
            }
            "start" => self.game = Some(Game::new(self.book(at))),
            "setup" => {
                let book = self.book(at);
                let pos = book
                    .parse_position(rest)
                    .unwrap_or_else(|e| panic!("{at}: setup `{rest}`: {e}"));
                assert_round_trip(&book, &pos, at);
                self.game = Some(Game::from_position(book, pos));
            }
            "legal-before" => {
                self.counts = Some(
                    rest.split_whitespace()
                        .map(|n| n.parse().expect("a count"))
                        .collect(),
                );
            }
            "play" => self.play(at, rest),
            "refuse" => self.refuse(at, rest),
            "expect" => self.expect(at, rest),
            "roundtrip" => {
                let book = self.book(at);
                let (text, printed) = rest.split_once(" => ").unwrap_or((rest, rest));
                let pos = book
                    .parse_position(text)
                    .unwrap_or_else(|e| panic!("{at}: `{text}`: {e}"));
                assert_eq!(
                    book.position_text(&pos),
                    printed.trim(),
                    "{at}: `{text}` prints"
                );
                assert_round_trip(&book, &pos, at);
            }
            "reject" => {
                let book = self.book(at);
                let (head, reason) = match rest.split_once(" ~ ") {
                    Some((head, reason)) => (head, Some(reason)),
                    None => (rest, None),
                };
                let (text, kind) = head
                    .rsplit_once(" is ")
                    .unwrap_or_else(|| panic!("{at}: `reject <text> is <kind> [~ <reason>]`"));
                let e = match book.parse_position(text) {
                    Ok(pos) => panic!(
                        "{at}: `{text}` was accepted as `{}`",
                        book.position_text(&pos)
                    ),
                    Err(e) => e,
                };
                // The variant's name: its Debug form up to the fields.
                let debug = format!("{:?}", e.kind);
                let variant = debug
                    .split(|c: char| !c.is_alphanumeric())
                    .next()
                    .unwrap_or_default();
                assert_eq!(variant, kind, "{at}: `{text}` refused with `{e}`");
                if let Some(reason) = reason {
                    assert!(
                        e.to_string().contains(reason),
                        "{at}: `{text}` refused with `{e}`, expected `{reason}`"
                    );
                }
                // It points at a field, or into one, or where one is missing.
                let pointed = text
                    .get(e.span.clone())
                    .unwrap_or_else(|| panic!("{at}: {:?} is not a range of `{text}`", e.span));
                assert_eq!(
                    pointed,
                    pointed.trim(),
                    "{at}: `{text}`: {:?} points at spaces",
                    e.span
                );
            }
            other => panic!("{at}: unknown statement `{other}`"),
        }
    }

    fn play(&mut self, at: &str, rest: &str) {
        let book = self.book(at);
        let moves: Vec<&str> = rest.split_whitespace().collect();
        let counts = self.counts.take();
        if let Some(c) = &counts {
            assert_eq!(
                c.len(),
                moves.len(),
                "{at}: `legal-before` and `play` differ in length"
            );
        }
        for (i, text) in moves.iter().enumerate() {
            let at = format!("{at}: move {} `{text}`", i + 1);
            let mv = self.parse_move(text, &at);
            let before = *self.game(&at).position();
            let listed = legal(&book, &before);
            if let Some(c) = &counts {
                assert_eq!(listed.len(), c[i], "{at}: number of legal moves before it");
            }
            assert!(listed.contains(&mv), "{at}: not among the legal moves");
            if let Err(e) = book.check(&before, &[], mv) {
                panic!("{at}: check refuses it: {e}");
            }
            let after = match self.game(&at).play(mv) {
                Ok(p) => *p,
                Err(e) => panic!("{at}: refused: {e}"),
            };
            assert_eq!(
                after.turn(),
                before.turn().other(),
                "{at}: turns alternate (G1)"
            );
            assert_round_trip(&book, &after, &at);
        }
    }

    fn refuse(&mut self, at: &str, rest: &str) {
        let book = self.book(at);
        let (text, reason) = rest
            .split_once(" ~ ")
            .unwrap_or_else(|| panic!("{at}: `refuse <move> ~ <reason>`"));
        let mv = self.parse_move(text.trim(), at);
        let game = self.game(at);
        let before = *game.position();
        let played = game.moves().len();
        let checked = book.check(&before, &[], mv);
        let Err(PlayError::Refused { refusal, .. }) = &checked else {
            panic!("{at}: check accepts `{text}`: {checked:?}");
        };
        let said = refusal.describe(book.grid());
        assert!(
            said.contains(reason),
            "{at}: `{text}` refused with `{said}`, expected `{reason}`"
        );
        if before.is_over() {
            assert!(
                matches!(refusal, Refusal::GameOver(_)),
                "{at}: after the result the reason is the result (G3)"
            );
        }
        let err = game
            .play(mv)
            .expect_err("Game::play accepts a move check refuses");
        assert_eq!(
            Err(err),
            checked,
            "{at}: Game::play and check give the same reason"
        );
        assert_eq!(
            *game.position(),
            before,
            "{at}: a refused move changed the position (G2)"
        );
        assert_eq!(
            game.moves().len(),
            played,
            "{at}: a refused move was recorded (G2)"
        );
        assert!(
            book.play(&before, &[], mv).is_err(),
            "{at}: Rulebook::play accepts it"
        );
        assert!(
            !legal(&book, &before).contains(&mv),
            "{at}: a refused move is listed as legal"
        );
    }

    fn expect(&mut self, at: &str, rest: &str) {
        let book = self.book(at);
        let (what, want) = rest
            .split_once(':')
            .unwrap_or_else(|| panic!("{at}: `expect <what>: <value>`"));
        let want = want.trim();
        let pos = *self.game(at).position();
        match what {
            "result" => assert_eq!(result_text(&pos), want, "{at}: result"),
            "ending" => assert_eq!(ending_text(&pos), want, "{at}: ending"),
            "turn" => assert_eq!(pos.turn().to_string(), want, "{at}: side to move"),
            "position" => assert_eq!(book.position_text(&pos), want, "{at}: position"),
            "target" => {
                let got = pos
                    .target()
                    .map_or_else(|| "-".to_string(), |t| (t + 1).to_string());
                assert_eq!(got, want, "{at}: target board");
            }
            "legal" => {
                let n: usize = want.parse().expect("a count");
                assert_eq!(legal(&book, &pos).len(), n, "{at}: number of legal moves");
                assert_legal_consistent(&book, &pos, at);
            }
            "moves" => {
                let got: BTreeSet<String> = legal(&book, &pos)
                    .into_iter()
                    .map(|m| book.move_text(m))
                    .collect();
                let want: BTreeSet<String> = want.split_whitespace().map(str::to_string).collect();
                assert_eq!(got, want, "{at}: legal moves");
            }
            "won" => {
                let (side, boards) = want.split_once(' ').unwrap_or((want, "-"));
                let side = side
                    .chars()
                    .next()
                    .and_then(Side::from_char)
                    .expect("X or O");
                assert_eq!(
                    boards_text(pos.regions_won(side)),
                    boards.trim(),
                    "{at}: boards won by {side}"
                );
            }
            "closed" => assert_eq!(
                boards_text(pos.regions_closed()),
                want,
                "{at}: closed boards"
            ),
            "perft" => {
                let (depth, count) = want.split_once(' ').expect("`perft: <depth> <count>`");
                let got = perft(self.game(at), depth.parse().unwrap()).unwrap();
                assert_eq!(got, count.parse::<u64>().unwrap(), "{at}: perft {depth}");
            }
            other => panic!("{at}: unknown expectation `{other}`"),
        }
    }
}

/// Runs `tests/scenarios/<name>`, and checks that its scenarios cover `ids`.
fn run_scenarios(name: &str, ids: &[&str]) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut runner = Runner {
        file: format!("scenarios/{name}"),
        books: HashMap::new(),
        book: None,
        game: None,
        scenario: String::new(),
        counts: None,
        covered: BTreeSet::new(),
        scenarios: 0,
    };
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = format!("{}:{} [{}]", runner.file, n + 1, runner.scenario);
        runner.line(&at, line);
    }
    assert!(runner.scenarios > 0, "{name}: no scenario");
    assert!(
        runner.counts.is_none(),
        "{name}: `legal-before` without a `play` after it"
    );
    for id in ids {
        assert!(
            runner.covered.contains(*id),
            "{name}: no scenario covers {id}"
        );
    }
}

// ---------------------------------------------------------------------------
// Scenario files
// ---------------------------------------------------------------------------

/// C1 empty 3×3 start; C2 occupied cells refused, marks never move; C3 rows,
/// columns and both diagonals win at once; C4 full board without a line is a
/// draw; G1 X first, alternating; G2 refusals change nothing; G3 nothing after
/// a result.
#[test]
fn classic_c1_c2_c3_c4_g1_g2_g3_scenarios() {
    run_scenarios("classic.txt", &["C1", "C2", "C3", "C4", "G1", "G2", "G3"]);
}

/// F1: 4×4, four in a row from edge to edge; three do not win.
#[test]
fn four_f1_scenarios() {
    run_scenarios("four.txt", &["F1"]);
}

/// K1 five anywhere (both diagonals too); K2 overline wins, also by filling a
/// gap; K3 no forbidden moves, no special opening; K4 full board draw; K5 a gap
/// or an opponent's mark breaks a line.
#[test]
fn gomoku_k1_k2_k3_k4_k5_scenarios() {
    run_scenarios("gomoku.txt", &["K1", "K2", "K3", "K4", "K5"]);
}

/// M1–M5, M7 (third occurrence, same side to move: `Ending::Repetition`), M8.
#[test]
fn moving_m1_m2_m3_m4_m5_m7_m8_scenarios() {
    run_scenarios(
        "moving.txt",
        &["M1", "M2", "M3", "M4", "M5", "M7", "M8", "G2", "G3"],
    );
}

/// M9: a jump over an empty cell is allowed, over an occupied one refused.
#[test]
fn moving_jumps_m9_scenarios() {
    run_scenarios("moving-jumps.txt", &["M9", "M3", "M4", "M5"]);
}

/// U1–U8: redirects (U3), to a won or full board (U4), won boards closed
/// (U5), local draws (U6), wins (U7), draws (U8); and three complete random
/// games checked move by move against an independent model.
#[test]
fn ultimate_u1_to_u8_scenarios() {
    run_scenarios(
        "ultimate.txt",
        &[
            "U1", "U2", "U3", "U4", "U5", "U6", "U7", "U8", "G1", "G2", "G3",
        ],
    );
}

/// The position text: round trips; wrong counts, bad rows, targets on closed
/// boards, and pieces in hand that don't add up are refused.
#[test]
fn setup_round_trips_and_refusals() {
    run_scenarios("setup.txt", &["M1", "M2", "U4", "U5"]);
}

// ---------------------------------------------------------------------------
// Sweeps
// ---------------------------------------------------------------------------

/// Straight lines of exactly `k` cells on a `w`×`h` board, as sorted cell lists
/// of (col, row): rows, columns and both diagonals.
fn straight_lines(w: i64, h: i64, k: i64) -> BTreeSet<Vec<(i64, i64)>> {
    let mut out = BTreeSet::new();
    for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
        for c in 0..w {
            for r in 0..h {
                let cells: Vec<(i64, i64)> = (0..k).map(|i| (c + dc * i, r + dr * i)).collect();
                if cells
                    .iter()
                    .all(|&(x, y)| (0..w).contains(&x) && (0..h).contains(&y))
                {
                    let mut cells = cells;
                    cells.sort_unstable();
                    out.insert(cells);
                }
            }
        }
    }
    out
}

fn subsets(n: usize, k: usize) -> Vec<Vec<usize>> {
    fn go(start: usize, n: usize, k: usize, cur: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if cur.len() == k {
            out.push(cur.clone());
            return;
        }
        for i in start..n {
            cur.push(i);
            go(i + 1, n, k, cur, out);
            cur.pop();
        }
    }
    let mut out = Vec::new();
    go(0, n, k, &mut Vec::new(), &mut out);
    out
}

/// For every set of `k` cells of a k×k rulebook, whether X owning them wins, by
/// set-up (X on all k, O to move) and by play (X on k-1, then the last one).
/// Returns the winning sets.
fn winning_sets(name: &str, k: u32) -> BTreeSet<Vec<(i64, i64)>> {
    let book = builtin(name);
    let n = (k * k) as usize;
    let xy = |i: usize| ((i as u32 % k) as i64, (i as u32 / k) as i64);
    let mut wins = BTreeSet::new();
    for set in subsets(n, k as usize) {
        let others: Vec<usize> = (0..n)
            .filter(|i| !set.contains(i))
            .take(k as usize - 1)
            .collect();
        let text = |x: &[usize], side: &str| {
            let t = board_text(k, k, |c, r| {
                let i = (r * k + c) as usize;
                if x.contains(&i) {
                    Some(Side::X)
                } else if others.contains(&i) {
                    Some(Side::O)
                } else {
                    None
                }
            });
            format!("{t} {side}")
        };
        let full = book.parse_position(&text(&set, "O")).unwrap();
        let line = full.outcome() == Some(Outcome::Win(Side::X));
        let (last, rest) = set.split_last().unwrap();
        let before = book.parse_position(&text(rest, "X")).unwrap();
        assert_eq!(before.outcome(), None, "{name}: {} X", text(rest, "X"));
        let (c, r) = xy(*last);
        let mv = book
            .parse_move(&before, &[], &cell_name(c as u32, r as u32))
            .unwrap();
        let after = book.play(&before, &[], mv).unwrap();
        assert_eq!(
            after.outcome() == Some(Outcome::Win(Side::X)),
            line,
            "{name}: set-up and play disagree on {set:?}"
        );
        if line {
            let mut cells: Vec<(i64, i64)> = set.iter().map(|&i| xy(i)).collect();
            cells.sort_unstable();
            wins.insert(cells);
        }
    }
    wins
}

/// C3: exactly eight winning lines (3 rows, 3 columns, 2 diagonals), checked
/// over every set of three cells; C5: a corner lies on three of them, the
/// centre on four, an edge cell on two.
#[test]
fn classic_c3_c5_eight_lines_corner_three_centre_four_edge_two() {
    let wins = winning_sets("classic", 3);
    assert_eq!(wins, straight_lines(3, 3, 3));
    assert_eq!(wins.len(), 8);
    let through = |cell: (i64, i64)| wins.iter().filter(|l| l.contains(&cell)).count();
    for corner in [(0, 0), (2, 0), (0, 2), (2, 2)] {
        assert_eq!(through(corner), 3, "corner {corner:?}");
    }
    assert_eq!(through((1, 1)), 4, "centre");
    for edge in [(1, 0), (0, 1), (2, 1), (1, 2)] {
        assert_eq!(through(edge), 2, "edge {edge:?}");
    }
}

/// F1: ten winning lines on 4×4, each from edge to edge (4 rows, 4 columns, 2
/// diagonals), checked over every set of four cells.
#[test]
fn four_f1_ten_lines_edge_to_edge() {
    let wins = winning_sets("four", 4);
    assert_eq!(wins, straight_lines(4, 4, 4));
    assert_eq!(wins.len(), 10);
}

/// K1: five in a row wins anywhere on the 15×15 board, in all four directions
/// (every one of the 572 windows of five), and four never does.
#[test]
fn gomoku_k1_every_five_wins() {
    let book = builtin("gomoku");
    let windows = straight_lines(15, 15, 5);
    assert_eq!(windows.len(), 15 * 11 * 2 + 11 * 11 * 2);
    // O's four marks: spread out, away from the window.
    let spare: Vec<(i64, i64)> = (0..15)
        .step_by(3)
        .flat_map(|c| (0..15).step_by(4).map(move |r| (c, r)))
        .collect();
    for window in &windows {
        let o: Vec<(i64, i64)> = spare
            .iter()
            .copied()
            .filter(|c| !window.contains(c))
            .take(4)
            .collect();
        let x = &window[..4];
        let text = board_text(15, 15, |c, r| {
            let cell = (i64::from(c), i64::from(r));
            if x.contains(&cell) {
                Some(Side::X)
            } else if o.contains(&cell) {
                Some(Side::O)
            } else {
                None
            }
        });
        let pos = book.parse_position(&format!("{text} X")).unwrap();
        assert_eq!(
            pos.outcome(),
            None,
            "four in a row does not win: {window:?}"
        );
        let (c, r) = window[4];
        let after = book
            .play(
                &pos,
                &[],
                book.parse_move(&pos, &[], &cell_name(c as u32, r as u32))
                    .unwrap(),
            )
            .unwrap();
        assert_eq!(
            after.outcome(),
            Some(Outcome::Win(Side::X)),
            "five in a row wins: {window:?}"
        );
    }
}

/// Ultimate: the cell of board `b` (0-based) at place `p` (0-based, row by row
/// from the bottom-left), as (col, row).
fn ultimate_cell(b: u32, p: u32) -> (u32, u32) {
    ((b % 3) * 3 + p % 3, (b / 3) * 3 + p / 3)
}

/// U2, U3: every first move is legal and sends the opponent to the board at the
/// same place in the big board as the cell in its small board; the top-right
/// cell of every board sends to the top-right board (9, cells g7–i9).
#[test]
fn ultimate_u2_u3_redirect_from_every_cell() {
    let book = builtin("ultimate");
    let start = book.initial();
    for b in 0..9 {
        for p in 0..9 {
            let (c, r) = ultimate_cell(b, p);
            let mv = book.parse_move(&start, &[], &cell_name(c, r)).unwrap();
            let pos = book.play(&start, &[], mv).unwrap();
            assert_eq!(pos.target(), Some(p as usize), "{}", cell_name(c, r));
            let moves: BTreeSet<String> = legal(&book, &pos)
                .into_iter()
                .map(|m| book.move_text(m))
                .collect();
            let want: BTreeSet<String> = (0..9)
                .map(|q| ultimate_cell(p, q))
                .filter(|&cell| cell != (c, r))
                .map(|(c, r)| cell_name(c, r))
                .collect();
            assert_eq!(moves, want, "after {}", cell_name(c, r));
            if p == 8 {
                assert_eq!(moves.iter().next().map(String::as_str), Some("g7"));
                assert!(moves.contains("i9") || (c, r) == (8, 8));
            }
        }
    }
}

/// Ultimate marks: X has won the boards in `x_boards` (bottom row of each),
/// `drawn` boards are full without a line, and O has one or two marks on the
/// other boards so that the counts fit `side` to move.
fn ultimate_marks(x_boards: &[u32], drawn: &[u32], side: Side) -> HashMap<(u32, u32), Side> {
    use Side::{O, X};
    // A full board without a line, rows bottom first: OXX / XOO / XOX.
    const DRAWN: [Side; 9] = [O, X, X, X, O, O, X, O, X];
    let mut marks: HashMap<(u32, u32), Side> = HashMap::new();
    for &b in x_boards {
        for p in 0..3 {
            marks.insert(ultimate_cell(b, p), X);
        }
    }
    for &b in drawn {
        for (p, &m) in DRAWN.iter().enumerate() {
            marks.insert(ultimate_cell(b, p as u32), m);
        }
    }
    let count =
        |marks: &HashMap<(u32, u32), Side>, s: Side| marks.values().filter(|&&m| m == s).count();
    let want_o = match side {
        X => count(&marks, X),
        O => count(&marks, X) - 1,
    };
    // O's extra marks: the top-left, then the top-middle cell of free boards.
    let free: Vec<u32> = (0..9)
        .filter(|b| !x_boards.contains(b) && !drawn.contains(b))
        .collect();
    for place in [6, 7] {
        for &b in &free {
            if count(&marks, O) < want_o {
                marks.insert(ultimate_cell(b, place), O);
            }
        }
    }
    assert_eq!(count(&marks, O), want_o, "not enough room for O's marks");
    marks
}

fn marks_text(marks: &HashMap<(u32, u32), Side>) -> String {
    board_text(9, 9, |c, r| marks.get(&(c, r)).copied())
}

/// U7, U10: of all 84 sets of three boards, exactly the eight lines of the big
/// board (3 rows, 3 columns, 2 diagonals) win, by set-up and by play; four lines
/// go through the centre board, three through each corner, two through each edge.
#[test]
fn ultimate_u7_u10_eight_big_lines() {
    let book = builtin("ultimate");
    let mut lines = BTreeSet::new();
    for set in subsets(9, 3) {
        let set: Vec<u32> = set.into_iter().map(|b| b as u32).collect();
        let mut marks = ultimate_marks(&set, &[], Side::O);
        let pos = book
            .parse_position(&format!("{} O", marks_text(&marks)))
            .unwrap();
        let line = pos.outcome() == Some(Outcome::Win(Side::X));
        if line {
            assert_eq!(pos.ending().map(|(_, e)| e), Some(Ending::Line));
        }
        // By play: the third board still lacks its last cell, and X plays
        // it (free to: no mark of O's explains a target board).
        let last = set[2];
        let (c, r) = ultimate_cell(last, 2);
        marks.remove(&(c, r));
        let text = format!("{} X - -", marks_text(&marks));
        let before = book.parse_position(&text).unwrap();
        assert_eq!(before.outcome(), None, "{text}");
        let after = book
            .play(
                &before,
                &[],
                book.parse_move(&before, &[], &cell_name(c, r)).unwrap(),
            )
            .unwrap();
        assert_eq!(
            after.outcome() == Some(Outcome::Win(Side::X)),
            line,
            "boards {set:?}: set-up and play disagree"
        );
        if line {
            lines.insert(set);
        }
    }
    let want: BTreeSet<Vec<u32>> = straight_lines(3, 3, 3)
        .into_iter()
        .map(|l| {
            let mut v: Vec<u32> = l.into_iter().map(|(c, r)| (r * 3 + c) as u32).collect();
            v.sort_unstable();
            v
        })
        .collect();
    assert_eq!(lines, want);
    let through = |b: u32| lines.iter().filter(|l| l.contains(&b)).count();
    assert_eq!(through(4), 4, "centre board");
    for corner in [0, 2, 6, 8] {
        assert_eq!(through(corner), 3, "corner board {}", corner + 1);
    }
    for edge in [1, 3, 5, 7] {
        assert_eq!(through(edge), 2, "edge board {}", edge + 1);
    }
}

/// U6: for each of the eight big lines and each of its boards, a local draw on
/// that board with X owning the other two leaves the game undecided: the drawn
/// board belongs to nobody and is closed.
#[test]
fn ultimate_u6_local_draw_blocks_every_line() {
    let book = builtin("ultimate");
    for line in straight_lines(3, 3, 3) {
        let boards: Vec<u32> = line.iter().map(|&(c, r)| (r * 3 + c) as u32).collect();
        for &drawn in &boards {
            let won: Vec<u32> = boards.iter().copied().filter(|&b| b != drawn).collect();
            let text = format!("{} O", marks_text(&ultimate_marks(&won, &[drawn], Side::O)));
            let pos = book
                .parse_position(&text)
                .unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(pos.outcome(), None, "{text}");
            assert_eq!(
                pos.regions_won(Side::X),
                won.iter().map(|b| 1 << b).sum::<u32>()
            );
            assert_eq!(pos.regions_won(Side::O), 0);
            assert_ne!(
                pos.regions_closed() & (1 << drawn),
                0,
                "a drawn board is closed"
            );
            assert!(!legal(&book, &pos).is_empty());
        }
    }
}

/// M6: on the built-in 3×3 boards a player can never be left without a move
/// (three pieces cannot all be walled in without the wall being a line of
/// three), so every valid movement position has a legal move. M6 itself is then
/// checked with the same script on a 4×3 board (four in a row, which three
/// pieces never make): a player with no legal move loses, in a set-up position
/// and when the opponent's move walls them in.
#[test]
fn moving_m6_no_legal_move_loses() {
    for name in ["moving", "moving-jumps"] {
        let book = builtin(name);
        for x in subsets(9, 3) {
            let rest: Vec<usize> = (0..9).filter(|i| !x.contains(i)).collect();
            for o in subsets(6, 3) {
                let o: Vec<usize> = o.iter().map(|&i| rest[i]).collect();
                let board = board_text(3, 3, |c, r| {
                    let i = (r * 3 + c) as usize;
                    if x.contains(&i) {
                        Some(Side::X)
                    } else if o.contains(&i) {
                        Some(Side::O)
                    } else {
                        None
                    }
                });
                for side in ["X", "O"] {
                    let Ok(pos) = book.parse_position(&format!("{board} {side} 0,0 -")) else {
                        continue;
                    };
                    if pos.outcome().is_none() {
                        assert!(!legal(&book, &pos).is_empty(), "{name}: {board} {side}");
                    } else {
                        assert_eq!(ending_text(&pos), "line", "{name}: {board} {side}");
                    }
                }
            }
        }
    }

    let wide = r#"
name = "moving-wide"
title = "Moving tic-tac-toe on 4×3, four in a row"
script = "moving.rhai"

[board]
width = 4
height = 3

[params]
k = 4
pieces = 3
jumps = false
repetition = 3
"#;
    let book = Arc::new(Rulebook::from_str_at(wide, "moving-wide.toml", None).unwrap());
    // X (a1, a2, b1) is walled in by O (a3, b2, c1) and is to move: X has lost.
    let pos = book.parse_position("O3/XO2/XXO1 X 0,0 -").unwrap();
    assert!(legal(&book, &pos).is_empty());
    assert_eq!(
        pos.ending(),
        Some((Outcome::Win(Side::O), Ending::NoMoves(Side::X)))
    );
    // The same by play: O's c2-b2 walls X in.
    let start = book.parse_position("O3/X1O1/XXO1 O 0,0 -").unwrap();
    let mut game = Game::from_position(book.clone(), start);
    assert_eq!(game.outcome(), None);
    game.play(game.parse_move("c2-b2").unwrap()).unwrap();
    assert_eq!(book.position_text(game.position()), "O3/XO2/XXO1 X 0,0 -");
    assert_eq!(
        game.position().ending(),
        Some((Outcome::Win(Side::O), Ending::NoMoves(Side::X)))
    );
    let refused = game.play(game.parse_move("a2-a3").unwrap()).unwrap_err();
    assert!(matches!(
        refused,
        PlayError::Refused {
            refusal: Refusal::GameOver(Outcome::Win(Side::O)),
            ..
        }
    ));
}

/// G1: in every built-in rulebook X moves first, the sides alternate (by
/// turns of as many marks as `turn_marks()` says: connect6, SX1), and the
/// side to move always has a move until the result (no passing is ever needed).
#[test]
fn g1_x_first_and_alternating_in_every_rulebook() {
    for name in Rulebook::builtin_names() {
        let book = builtin(name);
        // The movers, turn by turn: X for the first count, O for the next, …
        let counts = book.mechanics().turns().counts().to_vec();
        let sides: Vec<Side> = (0..400)
            .flat_map(|turn: usize| {
                let n = counts[turn.min(counts.len() - 1)];
                let side = if turn.is_multiple_of(2) {
                    Side::X
                } else {
                    Side::O
                };
                std::iter::repeat_n(side, n as usize)
            })
            .take(400)
            .collect();
        assert!(
            name == "connect6" || counts == [1],
            "{name}: turns of several marks"
        );
        let mut game = Game::new(book.clone());
        assert_eq!(game.position().turn(), Side::X, "{name}");
        // A deterministic game: always the middle legal move.
        for (ply, &side) in sides.iter().enumerate() {
            let pos = *game.position();
            let moves = legal(&book, &pos);
            if pos.is_over() {
                assert!(moves.is_empty(), "{name}: moves after the result");
                break;
            }
            assert!(!moves.is_empty(), "{name}: no move before the result");
            assert_eq!(pos.turn(), side, "{name}: ply {ply}");
            game.play(moves[moves.len() / 2]).unwrap();
        }
    }
}

/// `core/` names no variant: a variant is TOML and Rhai, and the engine
/// chooses by a rulebook's shape. The two names most tempting to special-case
/// must not appear in `core/src`, comments and tests included.
#[test]
fn core_names_neither_of_the_variants_most_tempting_to_special_case() {
    fn walk(dir: &Path, found: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, found);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                for (i, line) in text.lines().enumerate() {
                    let lower = line.to_lowercase();
                    let words = lower.split(|c: char| !c.is_alphanumeric());
                    if words.into_iter().any(|w| w == "ultimate" || w == "gomoku") {
                        found.push(format!("{}:{}: {line}", path.display(), i + 1));
                    }
                }
            }
        }
    }
    let core = Path::new(env!("CARGO_MANIFEST_DIR")).join("../core/src");
    let mut found = Vec::new();
    walk(&core, &mut found);
    assert!(found.is_empty(), "{}", found.join("\n"));
}
