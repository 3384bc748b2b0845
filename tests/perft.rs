//! Perft tables (`tests/perft/*.perft`), in shakmaty's style: each line is
//! printed before it is checked, and lines above a node limit are left to the
//! `--ignored` run.

use gridrules_core::perft::{count_games, perft};
use gridrules_core::{Game, Rulebook};
use std::path::Path;
use std::sync::Arc;

/// Above this count a line is skipped unless the test is run with `--ignored`.
const QUICK_LIMIT: u64 = 20_000_000;

fn run_perft_file(path: &Path, min: u64, max: u64) -> usize {
    let text = std::fs::read_to_string(path).unwrap();
    let mut rules = None;
    let mut game = None;
    let mut checked = 0;
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = format!("{}:{}", path.display(), n + 1);
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        match key {
            "rulebook" => rules = Some(Arc::new(Rulebook::builtin(rest).unwrap())),
            "position" => {
                let r = rules.as_ref().expect("rulebook before position");
                let start = r
                    .parse_position(rest)
                    .unwrap_or_else(|e| panic!("{at}: {e}"));
                game = Some(Game::from_position(r.clone(), start));
            }
            "perft" => {
                let (depth, want) = rest.split_once(' ').unwrap();
                let (depth, want): (u32, u64) = (depth.parse().unwrap(), want.parse().unwrap());
                if want < min || want > max {
                    continue;
                }
                println!("{at}: {line}");
                let got = perft(game.as_ref().unwrap(), depth).unwrap();
                assert_eq!(got, want, "{at}: perft {depth}");
                checked += 1;
            }
            "games" => {
                let want: Vec<u64> = rest.split(' ').map(|v| v.parse().unwrap()).collect();
                if want[0] > max {
                    continue;
                }
                println!("{at}: {line}");
                let g = count_games(game.as_ref().unwrap()).unwrap();
                assert_eq!(
                    [g.total(), g.x_wins, g.o_wins, g.draws],
                    want[..],
                    "{at}: games"
                );
                checked += 1;
            }
            other => panic!("{at}: unknown key `{other}`"),
        }
    }
    checked
}

fn quick(name: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("perft")
        .join(format!("{name}.perft"));
    assert!(
        run_perft_file(&path, 0, QUICK_LIMIT) > 0,
        "{name}: nothing checked"
    );
}

#[test]
fn perft_classic() {
    quick("classic");
}

#[test]
fn perft_four() {
    quick("four");
}

#[test]
fn perft_gomoku() {
    quick("gomoku");
}

#[test]
fn perft_ultimate() {
    quick("ultimate");
}

#[test]
fn perft_connect_four() {
    quick("connect-four");
}

#[test]
fn perft_misere() {
    quick("misere");
}

#[test]
fn perft_qubic() {
    quick("qubic");
}

#[test]
fn perft_connect6() {
    quick("connect6");
}

#[test]
fn perft_pente() {
    quick("pente");
}

/// Pente's figures from the set-up position in `tests/perft/pente.perft`,
/// counted here on a plain array with the capture rule written out: a mark
/// takes each pair of opponent marks it flanks with an own mark beyond, in
/// the eight directions (PE2), never its own (PE3). No line of five or fifth
/// capture can happen within three moves, so a path's last move has as many
/// choices as there are empty cells.
#[test]
fn pente_figures_follow_from_the_captures() {
    const N: i64 = 19;
    type Board = [Option<bool>; (N * N) as usize];
    fn place(board: &mut Board, at: usize, x: bool) {
        board[at] = Some(x);
        let (c, r) = (at as i64 % N, at as i64 / N);
        for (dc, dr) in [
            (1, 0),
            (-1, 0),
            (0, 1),
            (0, -1),
            (1, 1),
            (1, -1),
            (-1, 1),
            (-1, -1),
        ] {
            let cell = |i: i64| {
                let (cc, rr) = (c + i * dc, r + i * dr);
                ((0..N).contains(&cc) && (0..N).contains(&rr)).then_some((rr * N + cc) as usize)
            };
            if let (Some(a), Some(b), Some(own)) = (cell(1), cell(2), cell(3))
                && board[a] == Some(!x)
                && board[b] == Some(!x)
                && board[own] == Some(x)
            {
                board[a] = None;
                board[b] = None;
            }
        }
    }
    fn paths(board: &mut Board, x: bool, depth: u32) -> u64 {
        let empty: Vec<usize> = (0..board.len()).filter(|&i| board[i].is_none()).collect();
        if depth == 1 {
            return empty.len() as u64;
        }
        empty
            .into_iter()
            .map(|at| {
                let mut next = *board;
                place(&mut next, at, x);
                paths(&mut next, !x, depth - 1)
            })
            .sum()
    }
    let cell = |name: &str| {
        let col = i64::from(name.as_bytes()[0] - b'a');
        let row: i64 = name[1..].parse().unwrap();
        ((row - 1) * N + col) as usize
    };
    let mut board: Board = [None; (N * N) as usize];
    for (name, x) in [("j10", true), ("a1", true), ("k10", false), ("l10", false)] {
        board[cell(name)] = Some(x);
    }
    let derived: Vec<u64> = (1..=3)
        .map(|d| paths(&mut board.clone(), true, d))
        .collect();
    let figures = perft_figures("pente");
    let empty_board: Vec<u64> = (1..=3).map(|d| (0..d).map(|i| 361 - i).product()).collect();
    assert_eq!(figures[..3], empty_board[..], "from the empty board");
    assert_eq!(figures[3..], derived[..], "from the set-up position");
}

/// Every `perft` figure of `tests/perft/<name>.perft`, in file order.
fn perft_figures(name: &str) -> Vec<u64> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("perft/{name}.perft"));
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter_map(|l| l.strip_prefix("perft "))
        .map(|l| l.split(' ').nth(1).unwrap().parse().unwrap())
        .collect()
}

/// Connect6's figures in `tests/perft/connect6.perft`, derived here from the
/// rules alone: marks by turn (one, then two) and six in a row ending the
/// game on whichever mark of a turn makes it.
#[test]
fn connect6_figures_follow_from_the_turns() {
    let free = 361u64;
    let empty: Vec<u64> = (1..=3)
        .map(|d| (0..d).map(|i| free - i).product())
        .collect();
    // X to move, first of two marks, one cell (f1) completing six; 11 marks down.
    let free = 361 - 11;
    let winning = 1;
    // A winning mark ends the game: it counts at its depth, nothing below it.
    let threat = [
        free,
        (free - winning) * (free - 1),
        (free - winning) * ((free - 1) - winning) * (free - 2),
    ];
    let figures = perft_figures("connect6");
    let derived: Vec<u64> = empty.into_iter().chain(threat).collect();
    assert_eq!(figures, derived);
}

/// Qubic's 76 lines and its first perft figures, derived here without the
/// engine's tables: the lines from the 13 directions of space, perft d from
/// the number of cells (no line of four can be completed in three moves, so
/// every sequence of distinct cells counts).
#[test]
fn qubic_lines_and_perft_derived_independently() {
    use std::collections::BTreeSet;
    const N: i32 = 4;
    // The board holds the layers side by side: (x, y, z) is column z*N + x
    // of row y, and the cell index is row * width + column.
    let index = |x: i32, y: i32, z: i32| (y * N * N + z * N + x) as usize;
    let inside = |v: i32| (0..N).contains(&v);

    // One of each pair of opposite directions: the first non-zero
    // component is positive.
    let mut directions = Vec::new();
    for dx in -1..=1 {
        for dy in -1..=1 {
            for dz in -1..=1 {
                let d = [dx, dy, dz];
                if d.iter().find(|&&v| v != 0).is_some_and(|&v| v > 0) {
                    directions.push(d);
                }
            }
        }
    }
    assert_eq!(directions.len(), 13);

    let mut expected: BTreeSet<BTreeSet<usize>> = BTreeSet::new();
    for [dx, dy, dz] in &directions {
        for x in 0..N {
            for y in 0..N {
                for z in 0..N {
                    let end = (x + (N - 1) * dx, y + (N - 1) * dy, z + (N - 1) * dz);
                    if !(inside(end.0) && inside(end.1) && inside(end.2)) {
                        continue;
                    }
                    let line: BTreeSet<usize> = (0..N)
                        .map(|i| index(x + i * dx, y + i * dy, z + i * dz))
                        .collect();
                    expected.insert(line);
                }
            }
        }
    }
    // 48 straight (16 along each axis), 24 diagonals of the 12 axis-parallel
    // planes (2 per plane, 4 planes per axis), 4 diagonals of the cube.
    assert_eq!(expected.len(), 76);

    let rules = Arc::new(Rulebook::builtin("qubic").unwrap());
    let engine_lines = rules.mechanics().lines();
    let engine: BTreeSet<BTreeSet<usize>> = engine_lines
        .iter()
        .map(|l| l.iter().map(|c| c.index()).collect())
        .collect();
    assert_eq!(
        engine_lines.len(),
        76,
        "qubic: the engine lists a line twice"
    );
    assert_eq!(engine, expected, "qubic: the engine's lines");

    // perft d = n! / (n - d)! for the n = N^3 cells.
    let n = (N * N * N) as u64;
    let empty = rules.parse_position("16/16/16/16 X").unwrap();
    let empty = Game::from_position(rules.clone(), empty);
    for depth in 1..=3u32 {
        let want: u64 = (0..u64::from(depth)).map(|i| n - i).product();
        println!("qubic perft {depth}: {want}");
        assert_eq!(perft(&empty, depth).unwrap(), want, "qubic perft {depth}");
    }
}

#[test]
#[ignore = "deep perft lines take minutes; run with --ignored"]
fn perft_deep() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("perft");
    for entry in std::fs::read_dir(dir).unwrap() {
        run_perft_file(&entry.unwrap().path(), QUICK_LIMIT + 1, u64::MAX);
    }
}

#[test]
fn perft_vanishing() {
    quick("vanishing");
}

#[test]
fn perft_popout() {
    quick("popout");
}

#[test]
fn perft_quixo() {
    quick("quixo");
}

#[test]
fn perft_pentago() {
    quick("pentago");
}

#[test]
fn perft_nine_mens_morris() {
    quick("nine-mens-morris");
}

#[test]
fn perft_cube3() {
    quick("cube3");
}

#[test]
fn perft_renju() {
    quick("renju");
}

#[test]
fn perft_gobblet_gobblers() {
    quick("gobblet-gobblers");
}
