//! The Gomocup brain (`gridrules brain`, `pbrain-gridrules`) driven through
//! the protocol: in memory with `Brain::handle`, and as a process by a
//! small scripted manager.

use gridrules::brain::{Brain, Options, about, make_rulebook};
use gridrules_core::playout::Rng;
use gridrules_core::search::{Budget, Level, Request, choose};
use gridrules_core::{Game, Move, Outcome, Rulebook, Side};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

fn brain() -> Brain {
    Brain::new(Options::default())
}

/// The one line `brain` answers to `line`, after the one `MESSAGE` a move
/// (and only a move) comes with.
fn ask(brain: &mut Brain, line: &str) -> String {
    let answer = brain.handle(line);
    match &answer.lines[..] {
        [one] => one.to_string(),
        [message, mv] if message.starts_with("MESSAGE ") && mv.contains(',') => mv.to_string(),
        other => panic!("{line}: {other:?}"),
    }
}

/// The lines `brain` answers to a new game on the board with `stones`
/// (`x,y,field`): `RESTART`, `BOARD`, the stones, `DONE`.
fn on_board(brain: &mut Brain, stones: &[&str]) -> Vec<String> {
    assert_eq!(ask(brain, "RESTART"), "OK");
    for line in std::iter::once("BOARD").chain(stones.iter().copied()) {
        assert!(brain.handle(line).lines.is_empty(), "{line}");
    }
    brain
        .handle("DONE")
        .lines
        .into_iter()
        .map(String::from)
        .collect()
}

/// The one line `brain` answers to a new game on the board with `stones`.
fn ask_board(brain: &mut Brain, stones: &[&str]) -> String {
    let lines = on_board(brain, stones);
    lines.last().expect("an answer").to_string()
}

fn xy(answer: &str) -> (u32, u32) {
    let (x, y) = answer
        .split_once(',')
        .unwrap_or_else(|| panic!("not a move: {answer}"));
    let number = |n: &str| n.parse().unwrap_or_else(|_| panic!("not a move: {answer}"));
    (number(x), number(y))
}

#[test]
fn about_names_the_brain_in_the_protocols_format() {
    let mut b = brain();
    let about = ask(&mut b, "ABOUT");
    // As a manager reads it: `key="value"` pairs split at commas.
    let pairs: Vec<(&str, &str)> = about
        .split(',')
        .map(|field| {
            let (key, value) = field.trim().split_once('=').expect("key=value");
            let value = value.strip_prefix('"').and_then(|v| v.strip_suffix('"'));
            (
                key,
                value.unwrap_or_else(|| panic!("unquoted value in {about}")),
            )
        })
        .collect();
    let mut expected = vec![
        ("name", "gridrules"),
        ("version", env!("CARGO_PKG_VERSION")),
        ("author", "the gridrules contributors"),
    ];
    // An address only when the package names one: none is made up.
    if let Some(www) = option_env!("CARGO_PKG_REPOSITORY").filter(|w| !w.is_empty()) {
        expected.push(("www", www));
    }
    assert_eq!(pairs, expected);
}

/// `INFO max_node` caps the search in nodes: two brains answer a middle
/// game with the same move and the same search, within the cap, and
/// without it the search (given the same time) visits more.
#[test]
fn a_cap_in_nodes_gives_the_same_move_within_the_cap() {
    let stones = [
        "10,10,2", "10,11,1", "11,11,2", "9,9,1", "12,12,2", "11,10,1",
    ];
    // The search's own words, without the time it took, and its nodes
    // (none when it ran out of time on a loaded machine).
    let message = |cap: Option<&str>, turn_ms: u32| {
        let mut b = brain();
        assert_eq!(ask(&mut b, "START 20"), "OK");
        b.handle(&format!("INFO timeout_turn {turn_ms}"));
        if let Some(cap) = cap {
            assert!(b.handle(&format!("INFO max_node {cap}")).lines.is_empty());
        }
        let lines = on_board(&mut b, &stones);
        let how = lines[0].rsplit_once(" tm ").map_or(&*lines[0], |(h, _)| h);
        let nodes: Option<u64> = how
            .rsplit_once(" n ")
            .and_then(|(_, n)| n.split_whitespace().next()?.parse().ok());
        (how.to_string(), nodes, lines[1].clone())
    };
    // Time to spare: the cap ends the search. The search stops at the
    // first node past the cap, its threat searches too: a few over.
    let capped = message(Some("20000"), 5000);
    let nodes = capped
        .1
        .unwrap_or_else(|| panic!("no node count: {}", capped.0));
    assert!((15_000..=20_200).contains(&nodes), "{}", capped.0);
    assert_eq!(message(Some("20000"), 5000), capped);
    // 0 is no cap: the time alone bounds the search, which goes past it.
    let (how, unbounded, _) = message(Some("0"), 1000);
    assert!(
        unbounded.map_or(how.contains("ran out of time"), |n| n > 20_200),
        "{how}"
    );
}

#[test]
fn malformed_lines_get_error_or_unknown_and_the_brain_lives_on() {
    let mut b = brain();
    assert!(ask(&mut b, "FROBNICATE 3").starts_with("UNKNOWN "));
    assert!(ask(&mut b, "BEGIN").starts_with("ERROR no board yet"));
    assert!(ask(&mut b, "START fifteen").starts_with("ERROR bad size"));
    assert!(ask(&mut b, "RECTSTART 15").starts_with("ERROR bad size"));
    assert_eq!(ask(&mut b, "start 15"), "OK", "commands in any case");
    assert!(ask(&mut b, "TURN 7").starts_with("ERROR bad coordinates"));
    assert!(ask(&mut b, "TURN 15,0").starts_with("ERROR 15,0 is off the board"));
    assert!(ask(&mut b, "INFO timeout_turn soon").starts_with("ERROR bad value"));
    // A negative limit is refused; a negative time left is the match's
    // time run out, answered at once.
    assert!(ask(&mut b, "INFO timeout_turn -1").starts_with("ERROR bad value"));
    assert!(ask(&mut b, "INFO timeout_match -5").starts_with("ERROR bad value"));
    assert!(b.handle("INFO time_left -5").lines.is_empty());
    assert!(
        b.handle("INFO frobnicate 3").lines.is_empty(),
        "unknown keys are ignored"
    );
    assert!(b.handle("").lines.is_empty());
    assert!(b.handle("BOARD").lines.is_empty());
    assert!(b.handle("7,7,1").lines.is_empty());
    assert!(ask(&mut b, "7,7,9").starts_with("ERROR x,y,field or DONE expected"));
    // One answer for the refused block: its other stones and its DONE
    // are set aside (they came back as UNKNOWN commands).
    for line in ["8,8,2", "DONE"] {
        assert!(b.handle(line).lines.is_empty(), "{line}");
    }
    assert_eq!(
        ask(&mut b, "ABOUT"),
        about(),
        "the board ended; commands again"
    );
    // A block refused and cut short by a command: the command's answer.
    b.handle("BOARD");
    b.handle("x");
    assert_eq!(ask(&mut b, "ABOUT"), about());
    // A cell given twice is named (it was a count of stones), as is one
    // off the board, on its line: a block never holds more than a board's
    // stones (200 000 of them once took seconds to refuse at `DONE`).
    for (twice, why) in [
        ("7,7,1", "ERROR 7,7 is given twice in BOARD"),
        ("15,3,2", "ERROR 15,3 is off the board (15×15)"),
    ] {
        b.handle("BOARD");
        b.handle("7,7,1");
        assert_eq!(ask(&mut b, twice), why);
        for line in ["8,8,2", "DONE"] {
            assert!(b.handle(line).lines.is_empty(), "{line}");
        }
    }
    // A stone on a taken cell is refused, and the game is as it was.
    b.handle("INFO timeout_turn 50");
    let reply = ask(&mut b, "TURN 7,7\r");
    let before = b.position_text();
    assert!(ask(&mut b, &format!("TURN {reply}")).starts_with("ERROR"));
    assert_eq!(b.position_text(), before);
    // Swap2's block gets one UNKNOWN, at its DONE, and changes nothing.
    for line in ["SWAP2BOARD", "7,7", "8,7", "9,9"] {
        assert!(b.handle(line).lines.is_empty(), "{line}");
    }
    assert!(ask(&mut b, "DONE").starts_with("UNKNOWN SWAP2BOARD"));
    assert_eq!(b.position_text(), before);
    // A block cut short by a command: its UNKNOWN, then the command's
    // answer; `END` still ends.
    b.handle("SWAP2BOARD");
    b.handle("7,7");
    let answer = b.handle("END");
    assert!(
        answer.lines[0].starts_with("UNKNOWN SWAP2BOARD"),
        "{answer:?}"
    );
    assert!(answer.end);
}

#[test]
fn unsupported_sizes_and_rules_get_error_with_a_reason() {
    let mut b = brain();
    let answer = ask(&mut b, "START 40");
    assert!(
        answer.starts_with("ERROR unsupported size 40×40: "),
        "{answer}"
    );
    assert!(ask(&mut b, "TURN 1,1").starts_with("ERROR no board yet"));
    assert_eq!(
        ask(&mut b, "RECTSTART 20,12"),
        "OK",
        "any size that fits 26 columns"
    );
    b.handle("INFO rule 2");
    let answer = ask(&mut b, "BEGIN");
    assert!(
        answer.starts_with("ERROR unsupported rule 2: continuous game"),
        "{answer}"
    );
    b.handle("INFO rule 1");
    b.handle("INFO timeout_turn 50");
    xy(&ask(&mut b, "BEGIN"));
    // A rulebook the protocol cannot describe: two marks a turn.
    let mut c = Brain::new(Options {
        rules: "connect6".into(),
        ..Options::default()
    });
    let answer = ask(&mut c, "START 19");
    assert!(answer.contains("one stone a turn"), "{answer}");
    // Marks that vanish: a stone does not stay where it was placed.
    let mut v = Brain::new(Options {
        rules: "vanishing".into(),
        ..Options::default()
    });
    let answer = ask(&mut v, "START 3");
    assert!(answer.contains("and left there"), "{answer}");
}

#[test]
fn the_rule_chooses_whether_an_overline_wins() {
    let free = make_rulebook("gomoku", (15, 15, false, false)).unwrap();
    assert!(free.mechanics().wins_run(gridrules_core::Side::X, 6));
    let exact = make_rulebook("gomoku", (15, 15, true, false)).unwrap();
    assert!(
        exact.mechanics().wins_run(gridrules_core::Side::X, 5)
            && !exact.mechanics().wins_run(gridrules_core::Side::X, 6)
    );
    let wide = make_rulebook("gomoku", (20, 20, true, false)).unwrap();
    assert_eq!((wide.grid().width(), wide.grid().height()), (20, 20));
    assert!(!wide.mechanics().wins_run(gridrules_core::Side::X, 6));
    assert!(!wide.table().pie);
}

#[test]
fn board_positions_are_read_with_y_from_the_top() {
    let mut b = brain();
    ask(&mut b, "START 15");
    b.handle("INFO timeout_turn 100");
    // The opponent's stone in the top-left corner: a15 in our notation.
    for line in ["BOARD", "0,0,2"] {
        assert!(b.handle(line).lines.is_empty());
    }
    xy(&ask(&mut b, "DONE"));
    let text = b.position_text().unwrap();
    assert!(text.starts_with("X"), "{text}");
    // Four own stones in a column: the brain completes the five.
    let win = xy(&ask_board(
        &mut b,
        &[
            "7,3,1", "9,9,2", "7,4,1", "10,9,2", "7,5,1", "11,3,2", "7,6,1", "0,14,2",
        ],
    ));
    assert!(win == (7, 2) || win == (7, 7), "{win:?}");
    // The opponent's open four in a row must be blocked.
    let block = xy(&ask_board(
        &mut b,
        &[
            "3,7,2", "0,0,1", "4,7,2", "14,0,1", "5,7,2", "0,14,1", "6,7,2",
        ],
    ));
    assert!(block == (2, 7) || block == (7, 7), "{block:?}");
    // Counts that cannot be the brain's turn.
    assert!(ask_board(&mut b, &["1,1,1", "2,2,1"]).starts_with("ERROR 2 own stones and 0"));
}

#[test]
fn the_first_stone_goes_to_the_centre_and_replies_stay_near() {
    // Every cell four or more from the edges lies in as many windows: the
    // tie must not go to a corner of that block (it went to 4,15 on 20×20).
    // The centre, or next to it (the search may prefer a neighbour).
    for (size, centre) in [(15, 6..=8), (20, 8..=11)] {
        let mut b = brain();
        ask(&mut b, &format!("START {size}"));
        b.handle("INFO timeout_turn 200");
        let first = xy(&ask(&mut b, "BEGIN"));
        assert!(
            centre.contains(&first.0) && centre.contains(&first.1),
            "{size}: {first:?}"
        );
        // A stone of the opponent's away from it: the answer is within two
        // cells of a stone, its own or the opponent's.
        let (x, y) = xy(&ask(&mut b, "TURN 12,12"));
        let near = |(sx, sy): (u32, u32)| x.abs_diff(sx) <= 2 && y.abs_diff(sy) <= 2;
        assert!(near(first) || near((12, 12)), "{size}: {x},{y}");
    }
}

#[test]
fn with_no_time_the_move_is_found_without_search_and_still_blocks() {
    // `timeout_turn 0`: "play as fast as possible", by a static evaluation.
    let mut b = brain();
    ask(&mut b, "START 20");
    b.handle("INFO timeout_turn 0");
    let (x, y) = xy(&ask(&mut b, "BEGIN"));
    assert!((8..=11).contains(&x) && (8..=11).contains(&y), "{x},{y}");
    // The opponent's open four must be blocked, at either end.
    let block = xy(&ask_board(
        &mut b,
        &[
            "3,7,2", "0,0,1", "4,7,2", "19,0,1", "5,7,2", "0,19,1", "6,7,2",
        ],
    ));
    assert!(block == (2, 7) || block == (7, 7), "{block:?}");
}

#[test]
fn a_move_comes_with_a_message_saying_how_it_was_found() {
    let mut b = brain();
    ask(&mut b, "START 15");
    b.handle("INFO timeout_turn 1000");
    let lines = b.handle("TURN 7,7").lines;
    assert_eq!(lines.len(), 2, "{lines:?}");
    let message = &lines[0];
    // How: alpha-beta's words (depth, ev, n) are what managers parse; a
    // machine too busy to finish a pass in time says so instead. Then the
    // time taken.
    let how = message.strip_prefix("MESSAGE ").expect(message);
    assert!(
        how.starts_with("alpha-beta: ") || how.starts_with("the search ran out of time"),
        "{message}"
    );
    let (_, ms) = how.rsplit_once(" tm ").expect(message);
    ms.parse::<u64>().expect(message);
    xy(&lines[1]);
    // Positions whose report is known: what the search found, in plies.
    let known: [(&[&str], &str); 3] = [
        // Four in a column: a win in one.
        (
            &[
                "7,3,1", "9,9,2", "7,4,1", "10,9,2", "7,5,1", "11,3,2", "7,6,1", "0,14,2",
            ],
            "win in one: ev win in 1 tm ",
        ),
        // An open three of its own: a four makes an open four, won in 3.
        (
            &["7,7,1", "0,0,2", "8,7,1", "0,2,2", "9,7,1", "0,4,2"],
            "continuous fours: ev win in 3 tm ",
        ),
        // An open four of the opponent's: lost in 2, whichever end it
        // blocks — read from the two winning cells, without a search.
        (
            &[
                "0,0,1", "3,3,2", "0,2,1", "4,3,2", "14,14,1", "5,3,2", "14,12,1", "6,3,2",
            ],
            "threats: ev loss in 2 ",
        ),
    ];
    for (stones, report) in known {
        let lines = on_board(&mut b, stones);
        assert!(
            lines[0].starts_with(&format!("MESSAGE {report}")),
            "{lines:?}"
        );
    }
    // No time says there was no search.
    b.handle("INFO timeout_turn 0");
    ask(&mut b, "RESTART");
    let lines = b.handle("TURN 7,7").lines;
    assert!(
        lines[0].starts_with("MESSAGE no time to search"),
        "{lines:?}"
    );
}

/// `PLAY` is the brain's own move: on the opponent's turn it is refused
/// (it was placed for the side to move, and the brain lost its colour).
#[test]
fn play_is_refused_on_the_opponents_turn() {
    let mut b = brain();
    assert_eq!(ask(&mut b, "START 15"), "OK");
    b.handle("INFO timeout_turn 50");
    assert_eq!(ask(&mut b, "PLAY 7,7"), "7,7", "the brain's first stone: X");
    let before = b.position_text();
    assert_eq!(
        ask(&mut b, "PLAY 0,0"),
        "ERROR PLAY 0,0: the brain plays X and O is to move; the opponent's stone comes with TURN"
    );
    assert_eq!(b.position_text(), before);
    let reply = ask(&mut b, "TURN 8,8");
    assert!(
        ask(&mut b, "PLAY 0,0").starts_with("ERROR PLAY 0,0"),
        "after {reply}"
    );
    // A new game forgets the colour.
    assert_eq!(ask(&mut b, "RESTART"), "OK");
    assert_eq!(ask(&mut b, "PLAY 7,7"), "7,7");
}

#[test]
fn takeback_and_restart() {
    let mut b = brain();
    ask(&mut b, "START 15");
    b.handle("INFO timeout_turn 50");
    let reply = ask(&mut b, "TURN 7,7");
    assert!(ask(&mut b, "TAKEBACK 7,7").starts_with("ERROR 7,7 is not the last stone"));
    assert_eq!(ask(&mut b, &format!("TAKEBACK {reply}")), "OK");
    assert_eq!(ask(&mut b, "TAKEBACK 7,7"), "OK");
    assert_eq!(
        b.position_text().unwrap(),
        "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 X - -"
    );
    xy(&ask(&mut b, "TURN 3,3"));
    assert_eq!(ask(&mut b, "RESTART"), "OK");
    xy(&ask(&mut b, "BEGIN"));
    assert!(ask(&mut b, "BEGIN").starts_with("ERROR BEGIN on a board with stones"));
}

/// A brain process and the lines it writes, read on a thread of their own
/// so that a silent brain fails the test instead of hanging it.
struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Process {
    fn start(program: &str, args: &[&str]) -> Process {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (send, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        Process {
            child,
            stdin,
            lines,
        }
    }

    fn pbrain() -> Process {
        Process::start(env!("CARGO_BIN_EXE_pbrain-gridrules"), &[])
    }

    fn tell(&mut self, line: &str) {
        // As managers write them: CR LF.
        write!(self.stdin, "{line}\r\n").unwrap();
        self.stdin.flush().unwrap();
    }

    /// The answer to `line`, and how long it took.
    fn ask(&mut self, line: &str) -> (String, Duration) {
        let started = Instant::now();
        self.tell(line);
        loop {
            let answer = self
                .lines
                .recv_timeout(Duration::from_secs(20))
                .unwrap_or_else(|_| panic!("no answer to {line}"));
            // As a manager does: messages are for its log.
            if !answer.starts_with("MESSAGE ") && !answer.starts_with("DEBUG ") {
                return (answer, started.elapsed());
            }
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = write!(self.stdin, "END\r\n");
        let _ = self.stdin.flush();
        let started = Instant::now();
        while started.elapsed() < Duration::from_secs(5) {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn gomoku() -> Arc<Rulebook> {
    Arc::new(Rulebook::builtin("gomoku").unwrap())
}

/// The move at protocol coordinates, for the manager's own board.
fn place(game: &Game, (x, y): (u32, u32)) -> Move {
    let grid = game.rulebook().grid();
    let to = grid
        .cell(i64::from(x), i64::from(grid.height() - 1 - y))
        .unwrap();
    Move::Place {
        to,
        mark: game.position().turn(),
    }
}

fn protocol_xy(game: &Game, mv: Move) -> String {
    let grid = game.rulebook().grid();
    let cell = mv.to().unwrap();
    format!("{},{}", grid.col(cell), grid.height() - 1 - grid.row(cell))
}

#[test]
fn two_brains_play_a_whole_game() {
    let mut brains = [Process::pbrain(), Process::pbrain()];
    for b in &mut brains {
        assert_eq!(b.ask("START 15").0, "OK");
        b.tell("INFO timeout_turn 100");
        b.tell("INFO rule 0");
    }
    let mut game = Game::new(gomoku());
    let (mut last, _) = brains[0].ask("BEGIN");
    let mut mover = 0;
    loop {
        let mv = place(&game, xy(&last));
        game.play(mv)
            .unwrap_or_else(|e| panic!("brain {mover} played {last}: {e}"));
        if game.is_over() || game.moves().len() >= 225 {
            break;
        }
        mover = 1 - mover;
        last = brains[mover].ask(&format!("TURN {last}")).0;
    }
    assert!(game.is_over(), "the board filled without a result");
}

#[test]
fn the_brain_beats_the_easy_level() {
    let mut b = Process::pbrain();
    assert_eq!(b.ask("START 15").0, "OK");
    b.tell("INFO timeout_turn 100");
    let mut game = Game::new(gomoku());
    let mut rng = Rng::new(7);
    while !game.is_over() {
        // Easy is X, the manager's side; the brain answers as O.
        let request = Request::new(Level::Easy, Budget::Playouts(1));
        let easy = choose(&game, request, &mut rng).unwrap().unwrap();
        game.play(easy).unwrap();
        if game.is_over() {
            break;
        }
        let (answer, _) = b.ask(&format!("TURN {}", protocol_xy(&game, easy)));
        let mv = place(&game, xy(&answer));
        game.play(mv).unwrap_or_else(|e| panic!("{answer}: {e}"));
    }
    assert_eq!(game.outcome(), Some(Outcome::Win(Side::O)));
}

/// Gomoku has no per-move hook: the search thinks past the seven tenths
/// of the time a hooked rulebook's stops at (a margin its hooks need), and
/// the answer still comes within the time.
#[test]
fn without_per_move_hooks_the_search_uses_most_of_the_time() {
    let mut b = brain();
    assert_eq!(ask(&mut b, "START 20"), "OK");
    b.handle("INFO timeout_turn 1000");
    let started = Instant::now();
    let lines = on_board(
        &mut b,
        &["9,9,2", "10,10,1", "10,9,2", "11,9,1", "9,10,2", "8,8,1"],
    );
    let took = started.elapsed();
    let tm: u64 = lines[0]
        .rsplit_once(" tm ")
        .and_then(|(_, t)| t.trim().parse().ok())
        .unwrap_or_else(|| panic!("no time: {lines:?}"));
    assert!(tm >= 800, "{lines:?}");
    assert!(
        took < Duration::from_millis(1500),
        "{lines:?} after {took:?}"
    );
}

#[test]
fn the_answer_comes_well_within_the_time_per_move() {
    // Through the command line's `brain` too.
    let mut b = Process::start(env!("CARGO_BIN_EXE_gridrules"), &["brain"]);
    assert_eq!(b.ask("START 20").0, "OK");
    b.tell("INFO timeout_match 0");
    b.tell("INFO timeout_turn 1000");
    for line in [
        "BOARD", "9,9,2", "10,10,1", "10,9,2", "11,9,1", "9,10,2", "8,8,1", "9,11,2", "9,8,1",
    ] {
        b.tell(line);
    }
    let (answer, took) = b.ask("DONE");
    xy(&answer);
    assert!(
        took < Duration::from_millis(3000),
        "{answer} after {took:?}"
    );
    // The match's time left, shared among the moves to come, is less.
    b.tell("INFO timeout_match 60000");
    b.tell("INFO time_left 500");
    let (answer, took) = b.ask("TURN 0,0");
    xy(&answer);
    assert!(
        took < Duration::from_millis(1500),
        "{answer} after {took:?}"
    );
}

/// A rulebook file `name.toml` in `dir`, with its script `name.rhai`: `k`
/// in a row wins on a `size`×`size` board, and the script has `hooks`.
/// Its path.
fn rulebook_file(dir: &Path, name: &str, size: u32, k: u32, hooks: &str) -> String {
    let toml = format!(
        "name = \"{name}\"\ntitle = \"{name}\"\nscript = \"{name}.rhai\"\n\n\
         [board]\nwidth = {size}\nheight = {size}\n\n[params]\nk = {k}\n"
    );
    let script =
        format!("fn lines() {{ lines::straight(K) }}\nfn wins(run) {{ run >= K }}\n{hooks}");
    std::fs::write(dir.join(format!("{name}.toml")), toml).unwrap();
    std::fs::write(dir.join(format!("{name}.rhai")), script).unwrap();
    dir.join(format!("{name}.toml")).display().to_string()
}

/// Hooks whose texts would forge the brain's answer: a refusal of a1 (`0,14`
/// on 15×15) that holds a move and a `MESSAGE` retitling a terminal, and an
/// error thrown when the game's first stone is on b2 (`1,13`).
const HOSTILE_HOOKS: &str = r#"
fn refuse(state, mv) {
    if mv.to == cell(0, 0) { "taken\n7,7\nMESSAGE \x1b]0;owned\x07" }
}
fn outcome(state) {
    if state.move_count == 1 && state.mark(cell(1, 1)) != "" { throw "boom\n7,7\r\n\x1b[2J\x00"; }
}
"#;

/// Whether `line` is one of the protocol's forms, with no control character
/// (nor any other the REPL shows escaped: bidi and invisible format ones).
fn is_protocol_line(line: &str) -> bool {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let form = line == "OK"
        || line == about()
        || line
            .split_once(',')
            .is_some_and(|(x, y)| digits(x) && digits(y))
        || ["ERROR ", "UNKNOWN ", "MESSAGE "]
            .iter()
            .any(|word| line.strip_prefix(word).is_some_and(|rest| !rest.is_empty()));
    form && !line.contains(|c: char| c == '\n' || c == '\t' || gridrules::edge::hidden(c))
}

#[test]
fn a_refusal_reaches_the_manager_as_one_escaped_line() {
    let dir = tempfile::tempdir().unwrap();
    let rules = rulebook_file(dir.path(), "hostile", 15, 5, HOSTILE_HOOKS);
    let mut b = Process::start(env!("CARGO_BIN_EXE_pbrain-gridrules"), &["--rules", &rules]);
    assert_eq!(b.ask("START 15").0, "OK");
    b.tell("INFO timeout_turn 100");
    // The refusal is one ERROR line, its newlines and escapes written out;
    // a `7,7` of its own would be read as the brain's move.
    let (refused, _) = b.ask("TURN 0,14");
    assert_eq!(
        refused,
        r"ERROR 0,14: taken\u{a}7,7\u{a}MESSAGE \u{1b}]0;owned\u{7}"
    );
    // The next line is the next command's answer.
    assert_eq!(b.ask("ABOUT").0, about());
    // The game is as it was: the brain answers a stone elsewhere.
    xy(&b.ask("TURN 7,7").0);
}

#[test]
fn an_unknown_command_is_echoed_with_its_control_characters_escaped() {
    let mut b = Process::pbrain();
    assert_eq!(
        b.ask("FOO\0\x01\x1b[2J 1").0,
        r"UNKNOWN command `FOO\u{0}\u{1}\u{1b}[2J`"
    );
    assert_eq!(b.ask("ABOUT").0, about());
}

#[test]
fn texts_from_the_rulebook_and_the_manager_are_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let rules = rulebook_file(dir.path(), "hostile", 15, 5, HOSTILE_HOOKS);
    let mut b = Brain::new(Options {
        rules,
        ..Options::default()
    });
    /// The one line `b` answers, checked for its form.
    fn one(b: &mut Brain, line: &str) -> String {
        let answer = b.handle(line);
        assert_eq!(answer.lines.len(), 1, "{line:?}: {:?}", answer.lines);
        let text = answer.lines[0].to_string();
        assert!(is_protocol_line(&text), "{line:?}: {text:?}");
        text
    }
    assert_eq!(one(&mut b, "START 15"), "OK");
    assert!(b.handle("INFO timeout_turn 50").lines.is_empty());
    assert!(one(&mut b, "TURN 1\x1b,2").starts_with(r"ERROR bad coordinates `1\u{1b},2`"));
    assert!(one(&mut b, "INFO timeout_turn \x07").starts_with(r"ERROR bad value `\u{7}`"));
    // A script's error, thrown when the manager's stone lands on b2.
    let thrown = one(&mut b, "TURN 1,13");
    assert!(
        thrown.contains(r"boom\u{a}7,7\u{d}\u{a}\u{1b}[2J\u{0}"),
        "{thrown}"
    );
    // The loader's problems quote the rulebook: its name here.
    std::fs::write(
        dir.path().join("named.toml"),
        "name = \"bad\\u001b]0;x\\u0007\\n7,7\"\ntitle = \"t\"\nscript = \"k_in_a_row.rhai\"\n\
         [board]\nwidth = 15\nheight = 15\n[params]\nk = 5\noverline = true\n",
    )
    .unwrap();
    let mut c = Brain::new(Options {
        rules: dir.path().join("named.toml").display().to_string(),
        ..Options::default()
    });
    let answer = c.handle("START 15").lines;
    assert_eq!(answer.len(), 1, "{answer:?}");
    assert!(is_protocol_line(&answer[0]), "{answer:?}");
    assert!(
        answer[0].contains(r"bad\u{1b}]0;x\u{7}\u{a}7,7"),
        "{answer:?}"
    );
}

/// Protocol words, and arguments for them, right and wrong.
const WORDS: &[&str] = &[
    "START",
    "RECTSTART",
    "RESTART",
    "BEGIN",
    "TURN",
    "PLAY",
    "BOARD",
    "DONE",
    "TAKEBACK",
    "INFO",
    "ABOUT",
    "SWAP2BOARD",
    "END",
    "start",
    "turn",
    "FOO",
    "",
    "7,7",
    "1,1,1",
    "0,0,2",
];
const ARGS: &[&str] = &[
    "",
    "15",
    "9",
    "5",
    "0",
    "30",
    "7,7",
    "0,14",
    "1,13",
    "0,0",
    "8,8",
    "14,14",
    "20,12",
    "timeout_turn 0",
    "timeout_turn 3",
    "time_left 2",
    "timeout_match 0",
    "rule 1",
    "rule 4",
    "max_memory 1",
    "-1",
    "x,y",
    "99999999999,1",
];
/// Characters a hostile line may hold: controls, separators, non-ASCII.
const ODD: &[&str] = &[
    "\0",
    "\x01",
    "\x07",
    "\x08",
    "\x1b",
    "\x1b]0;t\x07",
    "\x1b[2J",
    "\r",
    "\t",
    "\x7f",
    "\u{85}",
    "\u{9b}",
    "\u{2028}",
    "\u{2029}",
    "é",
    "\u{202e}",
    "\u{fffd}",
    "`",
    " ",
];

fn pick<'a>(rng: &mut Rng, from: &[&'a str]) -> &'a str {
    from[rng.below(from.len())]
}

/// A random protocol line, with odd characters put in at random.
fn hostile_line(rng: &mut Rng) -> String {
    let mut line = format!("{} {}", pick(rng, WORDS), pick(rng, ARGS));
    for _ in 0..rng.below(4) {
        let at = rng.below(line.chars().count() + 1);
        let at = line.char_indices().nth(at).map_or(line.len(), |(i, _)| i);
        line.insert_str(at, pick(rng, ODD));
    }
    line
}

#[test]
fn random_lines_get_only_protocol_lines_without_control_characters() {
    let dir = tempfile::tempdir().unwrap();
    let hostile = rulebook_file(dir.path(), "hostile", 15, 5, HOSTILE_HOOKS);
    for seed in 0..40 {
        let mut rng = Rng::new(seed);
        let rules = if seed % 2 == 0 {
            hostile.clone()
        } else {
            "gomoku".to_string()
        };
        let options = Options { rules, seed };
        let mut brain = Brain::new(options.clone());
        // Through `handle`: each answer line on its own.
        let mut input = Vec::new();
        for _ in 0..60 {
            let line = hostile_line(&mut rng);
            for answer in brain.handle(&line).lines {
                assert!(
                    is_protocol_line(&answer),
                    "seed {seed}, {line:?}: {answer:?}"
                );
            }
            // The same, with CR LF and now and then a stray byte, for `run`.
            input.extend_from_slice(line.as_bytes());
            if rng.below(8) == 0 {
                input.push([0xff, 0xc3, 0x00, b'\r'][rng.below(4)]);
            }
            input.extend_from_slice(b"\r\n");
        }
        // Through `run`: what reaches the manager, byte by byte.
        let mut output = Vec::new();
        gridrules::brain::run(&input[..], &mut output, options).unwrap();
        let output = String::from_utf8(output).expect("UTF-8");
        for line in output.lines() {
            assert!(is_protocol_line(line), "seed {seed}: {line:?}");
        }
    }
}

#[test]
fn a_rules_file_is_read_only_if_it_is_a_small_regular_file() {
    let dir = tempfile::tempdir().unwrap();
    // A FIFO: opening it would wait for a writer, forever.
    let fifo = dir.path().join("fifo.toml");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    // Gomoku padded past the rulebook's 1 MiB.
    let big = dir.path().join("big.toml");
    let padding = "# padding\n".repeat(120_000);
    let gomoku = gridrules_core::builtin::rulebook("gomoku").unwrap();
    std::fs::write(&big, format!("{gomoku}{padding}")).unwrap();
    let cases = [
        (&fifo, "not a regular file"),
        (&big, "too large for a rulebook"),
        // Not a `.toml` file: never opened (it would be read for ever).
        (
            &Path::new("/dev/zero").to_path_buf(),
            "a rulebook is a .toml file",
        ),
    ];
    for (path, why) in cases {
        let path = path.display().to_string();
        // Both ways of starting the brain read it alike.
        for (program, args) in [
            (
                env!("CARGO_BIN_EXE_pbrain-gridrules"),
                vec!["--rules", &path],
            ),
            (
                env!("CARGO_BIN_EXE_gridrules"),
                vec!["brain", "--rules", &path],
            ),
        ] {
            let mut b = Process::start(program, &args);
            let (answer, _) = b.ask("START 15");
            assert!(
                answer.starts_with("ERROR ") && answer.contains(why),
                "{path}: {answer}"
            );
        }
    }
}

/// An `outcome` hook that counts to `n` and decides nothing: 6 000 cost
/// about 1 ms a call (`bench` of a 15×15 rulebook with it: 52 random
/// games a second at 1 000, 11 at 5 000, of 112 moves, on two cores).
fn counting_outcome(n: u32) -> String {
    format!("fn outcome(state) {{ let s = 0; for i in 0..{n} {{ s += i; }} }}")
}

impl Process {
    /// The brain's search threads still running (their workers inherit
    /// the name), once they have had `grace` to stop.
    #[cfg(target_os = "linux")]
    fn searching_after(&self, grace: Duration) -> usize {
        let count = || {
            std::fs::read_dir(format!("/proc/{}/task", self.child.id()))
                .map(|tasks| {
                    tasks
                        .filter_map(Result::ok)
                        .filter(|t| {
                            std::fs::read_to_string(t.path().join("comm"))
                                .is_ok_and(|name| name.trim() == "brain-search")
                        })
                        .count()
                })
                .unwrap_or(0)
        };
        let started = Instant::now();
        while count() > 0 && started.elapsed() < grace {
            std::thread::sleep(Duration::from_millis(20));
        }
        count()
    }
}

#[test]
fn per_move_hooks_answer_within_the_time_per_move_and_leave_no_search_running() {
    let dir = tempfile::tempdir().unwrap();
    // A 15×15 rulebook whose `outcome` costs about 1 ms (it answered at
    // 1.1–1.8 s with 1 000 ms a move, and its search ran on), and a 5×5
    // one whose costs about 50 ms (no answer in 25 s).
    let wide = rulebook_file(dir.path(), "wide", 15, 5, &counting_outcome(6_000));
    let small = rulebook_file(dir.path(), "small", 5, 4, &counting_outcome(300_000));
    let cases: [(&str, u32, u64, &[&str]); 3] = [
        (
            &wide,
            15,
            1000,
            &["BEGIN", "TURN 0,0", "TURN 14,14", "TURN 0,14"],
        ),
        (&wide, 15, 300, &["BEGIN", "TURN 0,0", "TURN 14,14"]),
        (&small, 5, 1000, &["BEGIN", "TURN 0,0", "TURN 4,4"]),
    ];
    for (rules, size, turn, commands) in cases {
        let mut b = Process::start(env!("CARGO_BIN_EXE_pbrain-gridrules"), &["--rules", rules]);
        assert_eq!(b.ask(&format!("START {size}")).0, "OK");
        b.tell(&format!("INFO timeout_turn {turn}"));
        for command in commands {
            let (answer, took) = b.ask(command);
            xy(&answer);
            // A late move loses: the answer comes within the time (a half
            // more for a busy machine; it comes at nine tenths).
            assert!(
                took < Duration::from_millis(turn * 3 / 2),
                "{rules}, {turn} ms a move: {command} answered {answer} after {took:?}"
            );
            // And the search does not run on into the opponent's time.
            #[cfg(target_os = "linux")]
            assert_eq!(
                b.searching_after(Duration::from_millis(500)),
                0,
                "{rules}: a search still runs after {command}"
            );
        }
    }
}

#[test]
fn a_move_the_refuse_hook_had_no_time_to_check_and_then_refuses_is_reported() {
    // Each `refuse` costs about 50 ms, and the centre is closed: listing
    // the 25 moves does not fit 300 ms, so the tables alone choose — the
    // centre, unchecked, and the MESSAGE says so.
    let dir = tempfile::tempdir().unwrap();
    let hooks = "fn refuse(state, mv) {\n    let s = 0; for i in 0..300000 { s += i; }\n    \
                 if mv.to == cell(2, 2) { \"the centre is closed\" }\n}\n";
    let rules = rulebook_file(dir.path(), "closed", 5, 4, hooks);
    let mut b = Brain::new(Options {
        rules,
        ..Options::default()
    });
    assert_eq!(ask(&mut b, "START 5"), "OK");
    b.handle("INFO timeout_turn 300");
    let lines = b.handle("BEGIN").lines;
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].contains("the refuse hook not asked"), "{lines:?}");
    assert_eq!(lines[1], "2,2");
    // Played when the next command needs the board, the rulebook refuses
    // it: the board is no longer the manager's, and every move says so.
    // (Time enough for that `refuse` on a busy machine: run out of time,
    // it would be tried again.)
    b.handle("INFO timeout_turn 3000");
    let answer = ask(&mut b, "TURN 0,0");
    assert!(
        answer.starts_with(
            "ERROR the brain's move 2,2 was answered, but the rulebook does not play it"
        ) && answer.contains("the centre is closed"),
        "{answer}"
    );
    assert!(ask(&mut b, "TURN 1,1").starts_with("ERROR the brain's move 2,2"));
    // A new game starts again (its moves may run out of time for their
    // hooks on a busy machine, but the board is the manager's again).
    assert_eq!(ask(&mut b, "RESTART"), "OK");
    b.handle("INFO timeout_turn 300");
    let answer = b.handle("TURN 0,0").lines;
    assert!(!answer[0].contains("the brain's move 2,2"), "{answer:?}");
}

/// Rule bit 4 plays the built-in renju (RJ1–RJ2) whatever `--rules` says:
/// black's first stone goes on the centre, and black never answers a move
/// renju forbids — here j8, a double three (h8 i8 j8 and j6 j7 j8) that
/// gomoku's weights rate highest.
/// `INFO rule` 8: gomoku with Caro's rule (a five blocked at both ends
/// does not win), with or without exactly five; a rulebook whose script
/// has no Caro twin is refused with the reason, and rule 0 takes Caro's
/// rule off a Caro rulebook.
#[test]
fn rule_8_plays_caro() {
    use gridrules_core::mechanics::LineEnds;
    let caro = make_rulebook("gomoku", (20, 20, false, true)).unwrap();
    assert_eq!(caro.mechanics().line_ends(), LineEnds::NotBothBlocked);
    assert!(caro.mechanics().wins_run(gridrules_core::Side::X, 6));
    assert_eq!(gridrules_core::gomocup::rule(&caro), 8);
    let both = make_rulebook("gomoku", (15, 15, true, true)).unwrap();
    assert_eq!(both.mechanics().line_ends(), LineEnds::NotBothBlocked);
    assert!(!both.mechanics().wins_run(gridrules_core::Side::X, 6));
    assert_eq!(gridrules_core::gomocup::rule(&both), 9);
    // And back: Caro's script, played without the rule.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("c.toml"),
        "name = \"c\"\ntitle = \"t\"\nscript = \"caro.rhai\"\n[board]\nwidth = 15\nheight = 15\n[params]\nk = 5\noverline = true\n",
    )
    .unwrap();
    let file = dir.path().join("c.toml").display().to_string();
    let plain = make_rulebook(&file, (15, 15, false, false)).unwrap();
    assert_eq!(plain.mechanics().line_ends(), LineEnds::Any);
    assert_eq!(
        make_rulebook(&file, (15, 15, false, true)).unwrap().name(),
        "c"
    );
    let err = make_rulebook("renju", (15, 15, false, true)).unwrap_err();
    assert!(err.contains("cannot be played with Caro's rule"), "{err}");
    // Through the protocol: rule 8 is played, not refused.
    let mut b = brain();
    assert_eq!(ask(&mut b, "START 15"), "OK");
    b.handle("INFO rule 8");
    b.handle("INFO timeout_turn 100");
    xy(&ask(&mut b, "BEGIN"));
}

#[test]
fn rule_4_plays_renju_and_never_a_forbidden_move() {
    let mut b = brain();
    assert_eq!(ask(&mut b, "START 15"), "OK");
    b.handle("INFO rule 4");
    b.handle("INFO timeout_turn 300");
    assert_eq!(ask(&mut b, "BEGIN"), "7,7", "RJ1: the centre");
    for seed in 0..3 {
        let mut b = Brain::new(Options {
            seed,
            ..Options::default()
        });
        assert_eq!(ask(&mut b, "START 15"), "OK");
        b.handle("INFO rule 4");
        b.handle("INFO timeout_turn 300");
        // Black (1, the brain) h8 i8 j6 j7; white a1 a3 a5 a7; y counts from the top.
        let stones = [
            "7,7,1", "0,14,2", "8,7,1", "0,12,2", "9,9,1", "0,10,2", "9,8,1", "0,8,2",
        ];
        let mv = ask_board(&mut b, &stones);
        assert_ne!(mv, "9,7", "seed {seed}: j8 is a double three");
        xy(&mv);
    }
    // An opening whose first black stone (g9) is off the centre: replayed
    // it is refused (RJ1), so it is set up as it stands.
    let mut b = brain();
    assert_eq!(ask(&mut b, "START 15"), "OK");
    b.handle("INFO rule 4");
    b.handle("INFO timeout_turn 300");
    let stones = ["6,6,1", "0,14,2", "8,8,1", "0,12,2"];
    let (x, y) = xy(&ask_board(&mut b, &stones));
    assert!(x < 15 && y < 15);
}
