//! `arena`: a match between two players, and its report.

use super::files::rulebook_seen_from;
use super::{Session, open_rulebook, rulebook_ref};
use crate::command::ArenaMatch;
use crate::error::CommandError;
use crate::reply::Reply;
use gridrules_core::arena::{Kept, Match, Played, Player, Tally};
use gridrules_core::openings::OPENINGS;
use gridrules_core::playout::MAX_PLIES;
use gridrules_core::record::{self, MAX_NAME, RecordError, Terms};
use gridrules_core::script::ScriptBudget;
use gridrules_core::search::Budget;
use gridrules_core::{Game, Move, Problem, ProblemKind, Rulebook, Side};
use std::path::{Path, PathBuf};
use std::sync::Arc;

impl Session {
    /// A match between two players on a rulebook (a name or a file).
    pub(super) fn arena(&self, asked: &ArenaMatch) -> Result<Reply, CommandError> {
        let ArenaMatch {
            rulebook,
            players: seats,
            games,
            seed,
            budget,
            openings: file,
            threads,
            save,
        } = asked.clone();
        let rules = open_rulebook(&rulebook)?;
        let openings = match &file {
            Some(file) => read_openings(&rules, file)?,
            None => Vec::new(),
        };
        // A folder that cannot hold the games is said before they are played.
        let made = match &save {
            Some(dir) => prepare_folder(Path::new(dir))?,
            None => None,
        };
        let threads = threads.unwrap_or_else(gridrules_core::cores);
        let bar = self.progress_bar(
            u64::from(games),
            "arena [{bar:30}] {pos}/{len} games, {elapsed} (Ctrl-C stops it)",
        );
        let budget = budget.unwrap_or(Budget::Playouts(rules.table().ai_playouts));
        let m = Match {
            games,
            seed,
            // As each thinks: a program by the clock, whatever the match's.
            budgets: seats
                .each_ref()
                .map(|(player, own)| player.budget(own.unwrap_or(budget))),
            threads,
            openings,
        };
        let players = seats.map(|(player, _)| player);
        let result = m.run_kept(&rules, &players, &self.interrupt, &|done| {
            if let Some(bar) = &bar {
                bar.set_position(u64::from(done));
            }
        });
        if let Some(bar) = bar {
            bar.finish_and_clear();
        }
        let rulebook = rulebook_ref(Path::new(&rulebook));
        // The games finished are saved even when a program or a script
        // failed later.
        let kept = |played: &[Played]| {
            let dir = Path::new(save.as_deref()?);
            if let Some(top) = made.as_deref().filter(|_| played.is_empty()) {
                // Nothing to keep: the folders made for it go (if empty).
                for folder in dir.ancestors() {
                    if std::fs::remove_dir(folder).is_err() || folder == top {
                        break;
                    }
                }
            }
            Some(save_games(
                rules.clone(),
                &rulebook,
                &players,
                dir,
                played,
                games,
            ))
        };
        let Kept {
            tally,
            played,
            failed,
        } = result;
        if let Some(e) = failed {
            return Err(CommandError::Arena(Box::new(e), kept(&played)));
        }
        let mut lines = report(rules.name(), &players, &m, &tally);
        lines.extend(kept(&played));
        Ok(Reply::Lines(lines))
    }
}

/// Makes `dir` for a match's records, or says why it cannot hold them: a
/// file is there, or records of another match, which would mix with these.
/// The highest folder it made, if it made any (those left empty are then
/// taken away).
fn prepare_folder(dir: &Path) -> Result<Option<PathBuf>, CommandError> {
    let refused = |why: String| {
        CommandError::Record(RecordError::from(Problem::bare(
            ProblemKind::Io,
            format!("arena --save {}: {why}", dir.display()),
        )))
    };
    if dir.as_os_str().is_empty() {
        return Err(refused("a folder's name is needed".to_string()));
    }
    if dir.exists() && !dir.is_dir() {
        return Err(refused("is a file, not a folder".to_string()));
    }
    let made = dir
        .ancestors()
        .take_while(|a| !a.as_os_str().is_empty() && !a.exists())
        .last()
        .map(Path::to_path_buf);
    std::fs::create_dir_all(dir).map_err(|e| {
        refused(format!(
            "cannot make the folder for the games' records: {e}"
        ))
    })?;
    let entries = std::fs::read_dir(dir).map_err(|e| refused(format!("cannot read: {e}")))?;
    let taken = entries.filter_map(Result::ok).find_map(|e| {
        let name = e.file_name().to_string_lossy().into_owned();
        (name.starts_with("game-") && name.ends_with(".toml")).then_some(name)
    });
    match taken {
        Some(name) => Err(refused(format!(
            "the folder already holds games ({name}): choose another, or empty it"
        ))),
        None => Ok(made),
    }
}

/// Writes a record of each game of `played` in `dir` (`game-01.toml` …,
/// numbered to the width of `games`), each of which `open` replays;
/// `rulebook` is the rulebook's name or canonical path. The report's line:
/// what was saved where, or from which game on it could not be.
fn save_games(
    rules: Rulebook,
    rulebook: &str,
    players: &[Player; 2],
    dir: &Path,
    played: &[Played],
    games: u32,
) -> String {
    let rules = Arc::new(rules);
    let width = games.to_string().len().max(2);
    let file = |n: u32| dir.join(format!("game-{n:0width$}.toml"));
    for p in played {
        let path = file(p.number);
        let mut game = Game::new(Arc::clone(&rules));
        let saved = match played.iter().take_while(|q| q.number < p.number).count() {
            1 => "1 game".to_string(),
            n => format!("{n} games"),
        };
        // Replaying a game runs its hooks, which the Ctrl-C that stopped the
        // match must not stop too: the finished games are kept.
        let replayed = ScriptBudget::command()
            .replacing(|| p.moves.iter().find_map(|&mv| game.play(mv).err()));
        if let Some(refused) = replayed {
            return format!(
                "{saved} saved in {}, not game {} on: {refused}",
                dir.display(),
                p.number
            );
        }
        // The tally counts a game cut short a draw; its record says so.
        if p.cut_short && !game.is_over() {
            let _ = game.draw_at_move_limit();
        }
        let [first, second] = seat_names(players).map(Some);
        let (x, o) = if p.first_player_side == Side::X {
            (first, second)
        } else {
            (second, first)
        };
        let terms = Terms {
            x,
            o,
            clock: None,
            pie: None,
        };
        let text = record::to_text(&game, &rulebook_seen_from(rulebook, &path), &terms);
        if let Err(e) = record::write(&path, &text, record::HEADER, false) {
            return format!(
                "{saved} saved in {}, not game {} on: {e}",
                dir.display(),
                p.number
            );
        }
    }
    match (played.first(), played.last()) {
        (Some(a), Some(b)) => format!(
            "games saved: {} in {} ({} to {}), each for `open`",
            match played.len() {
                1 => "1 record".to_string(),
                n => format!("{n} records"),
            },
            dir.display(),
            file(a.number).file_name().unwrap_or_default().display(),
            file(b.number).file_name().unwrap_or_default().display(),
        ),
        _ => "games saved: none (no game finished)".to_string(),
    }
}

/// The names a record gives the two seats: a program by its file's name,
/// within the length a name may have; the same name twice is told apart.
fn seat_names(players: &[Player; 2]) -> [String; 2] {
    let [p, q] = players.each_ref().map(seat_name);
    if p == q {
        let short: String = p.chars().take(MAX_NAME - 2).collect();
        return [format!("{short} 1"), format!("{short} 2")];
    }
    [p, q]
}

/// A player as a record names its seat.
fn seat_name(player: &Player) -> String {
    let name = match player {
        Player::Program(path, _) => path
            .file_name()
            .map_or_else(|| player.to_string(), |n| n.to_string_lossy().into_owned()),
        _ => player.to_string(),
    };
    name.chars().take(MAX_NAME).collect()
}

/// The openings in `file` for `rules`, or why not, with the place.
fn read_openings(rules: &Rulebook, file: &str) -> Result<Vec<Vec<Move>>, CommandError> {
    let path = PathBuf::from(file);
    let failed = |line, col, message| CommandError::Openings {
        path: path.clone(),
        line,
        col,
        message,
    };
    let text =
        gridrules_core::files::read(&path, OPENINGS).map_err(|e| failed(0, 0, e.to_string()))?;
    gridrules_core::openings::parse(rules, &text).map_err(|e| failed(e.line, e.col, e.message))
}

/// The report of match `m` on `rulebook` between `players`: the match,
/// the first player's results, the first mover's share, and the Elo
/// difference.
fn report(rulebook: &str, players: &[Player; 2], m: &Match, t: &Tally) -> Vec<String> {
    let [p, q] = players;
    let seed = m.seed;
    let of = |b: Budget| match b {
        Budget::Playouts(n) => format!("{n} playouts a tree"),
        Budget::Time(d) => format!("{} s a move", d.as_secs_f64()),
    };
    // One budget for both, or each player's own after its name, with a
    // brain's settings.
    let label = |player: &Player, budget: Option<Budget>| {
        let budget = budget.filter(|_| player.uses_budget());
        let mut about: Vec<String> = budget.map(of).into_iter().collect();
        if let Player::Program(_, settings) = player {
            about.extend(settings.iter().map(ToString::to_string));
        }
        match about[..] {
            [] => player.to_string(),
            _ => format!("{player} ({})", about.join(", ")),
        }
    };
    let [bp, bq] = m.budgets;
    let (vs, budgets) = if bp == bq {
        let vs = format!("{} vs {}", label(p, None), label(q, None));
        let thinks = p.uses_budget() || q.uses_budget();
        (
            vs,
            if thinks {
                format!(", {}", of(bp))
            } else {
                String::new()
            },
        )
    } else {
        let vs = format!("{} vs {}", label(p, Some(bp)), label(q, Some(bq)));
        (vs, String::new())
    };
    let plural = |n: u32, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let elo = t.elo();
    let signed = |x: f64| {
        if x.is_infinite() {
            if x > 0.0 {
                "+inf".to_string()
            } else {
                "-inf".to_string()
            }
        } else {
            format!("{:+}", x.round() as i64)
        }
    };
    // By the clock, results depend on how many games shared the cores.
    let by_clock = |(p, b): (&Player, &Budget)| p.uses_budget() && matches!(b, Budget::Time(_));
    let at_once = if players.iter().zip(&m.budgets).any(by_clock) {
        match m.games_at_once() {
            1 => ", 1 game at a time".to_string(),
            n => format!(", {n} games at once"),
        }
    } else {
        String::new()
    };
    let mut lines = vec![
        format!(
            "arena {rulebook}: {vs}, {}{}, sides alternating, seed {seed}{budgets}{at_once}{}",
            plural(t.games(), "game", "games"),
            if t.stopped {
                " (Ctrl-C stopped the rest)"
            } else {
                ""
            },
            openings_played(m.openings.len(), m.games),
        ),
        format!(
            "{p}: {}, {}{}, {} (score {:.1} %)",
            plural(t.wins, "win", "wins"),
            plural(t.draws, "draw", "draws"),
            match t.cut_short {
                0 => String::new(),
                n => format!(" ({n} cut short at {MAX_PLIES} moves)"),
            },
            plural(t.losses, "loss", "losses"),
            100.0 * t.score()
        ),
        format!(
            "first mover (X): {:.1} % of the points",
            100.0 * t.first_mover_share()
        ),
    ];
    if t.games() == 0 {
        lines.truncate(1);
        lines.push("no game finished".to_string());
    } else {
        lines.push(format!(
            "Elo difference: {} (95 %: {} to {})",
            signed(elo.difference),
            signed(elo.low),
            signed(elo.high)
        ));
    }
    // A level the cap held below its budget played weaker than its name
    // says (a per-move hook makes each playout slow): said, not hidden.
    let names = seat_names(players);
    for (seat, &n) in t.capped.iter().enumerate().filter(|(_, n)| **n > 0) {
        lines.push(format!(
            "note: {} stopped at its {} s cap before its budget was spent on {n} of its {} moves: it played below its level there",
            names[seat],
            gridrules_core::search::SEARCH_CAP.as_secs(),
            t.searched[seat],
        ));
    }
    lines
}

/// What the header says of the openings: those the games reach, not all
/// the file holds, each played by two games in turn, one with each colour
/// (an odd last game plays its opening once).
fn openings_played(openings: usize, games: u32) -> String {
    let games = games as usize;
    let reached = openings.min(games.div_ceil(2));
    match reached {
        0 => String::new(),
        _ if games >= 2 * openings || games.is_multiple_of(2) => match reached {
            1 => ", 1 opening played with both colours".to_string(),
            n => format!(", {n} openings each played with both colours"),
        },
        1 => ", 1 opening".to_string(),
        n => format!(", {n} openings each played with both colours but the last, once"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gridrules_core::Outcome;
    use gridrules_core::search::Level;

    /// The header counts the openings the games reach, and says when the
    /// last of them is played once.
    #[test]
    fn the_header_counts_the_openings_played_and_how() {
        for (openings, games, said) in [
            (0, 4, ""),
            (26, 52, ", 26 openings each played with both colours"),
            (26, 20, ", 10 openings each played with both colours"),
            (
                26,
                3,
                ", 2 openings each played with both colours but the last, once",
            ),
            (26, 1, ", 1 opening"),
            (1, 3, ", 1 opening played with both colours"),
            (2, 5, ", 2 openings each played with both colours"),
        ] {
            assert_eq!(openings_played(openings, games), said, "{openings} {games}");
        }
    }

    /// A player whose time cap cut its searches short is said to have
    /// played below its level, with how often (a variant author's hard,
    /// held by a slow hook to a fraction of its budget, looked only weak).
    #[test]
    fn the_report_says_where_the_cap_held_a_level_below_its_budget() {
        let players = [
            Player::Computer(Level::Medium),
            Player::Computer(Level::Hard),
        ];
        let m = Match {
            games: 2,
            seed: 1,
            budgets: [Budget::Playouts(100); 2],
            threads: 1,
            openings: Vec::new(),
        };
        let mut t = Tally {
            wins: 1,
            losses: 1,
            searched: [9, 8],
            ..Tally::default()
        };
        assert!(
            !report("classic", &players, &m, &t)
                .iter()
                .any(|l| l.contains("cap"))
        );
        t.capped = [0, 3];
        let lines = report("classic", &players, &m, &t);
        assert_eq!(
            lines.last().map(String::as_str),
            Some(
                "note: hard stopped at its 6 s cap before its budget was spent on 3 of its 8 moves: it played below its level there"
            )
        );
    }

    /// Where a record cannot be written, the line says how many were saved
    /// and from which game on none was: here a folder that is not there.
    #[test]
    fn a_record_that_cannot_be_written_is_named_with_those_saved() {
        let dir = tempfile::tempdir().unwrap();
        let rules = Rulebook::builtin("classic").unwrap();
        let mv = |text| rules.parse_move(&rules.initial(), &[], text).unwrap();
        let played = |number| Played {
            number,
            first_player_side: Side::X,
            moves: vec![mv("b2")],
            outcome: Outcome::Draw,
            cut_short: false,
            capped: [0, 0],
            searched: [0, 0],
        };
        let players = [Player::Random, Player::Random];
        let gone = dir.path().join("gone");
        let line = save_games(rules.clone(), "classic", &players, &gone, &[played(1)], 2);
        assert_eq!(
            line.split(", not").next(),
            Some(format!("0 games saved in {}", gone.display()).as_str()),
            "{line}"
        );
        assert!(line.contains("not game 1 on: "), "{line}");
    }

    /// A game the match cut short at its move limit is saved as a draw at
    /// that limit, which `open` reads back as the tally counted it.
    #[test]
    fn a_game_cut_short_is_saved_as_a_draw_at_the_move_limit() {
        let dir = tempfile::tempdir().unwrap();
        let rules = Rulebook::builtin("classic").unwrap();
        let mut moves = Vec::new();
        let mut pos = rules.initial();
        for text in ["b2", "a1", "c3"] {
            let mv = rules.parse_move(&pos, &moves, text).unwrap();
            pos = rules.play(&pos, &moves, mv).unwrap();
            moves.push(mv);
        }
        let cut = Played {
            number: 1,
            first_player_side: Side::X,
            moves,
            outcome: Outcome::Draw,
            cut_short: true,
            capped: [0, 0],
            searched: [0, 0],
        };
        let players = [Player::Random, Player::Random];
        let line = save_games(rules, "classic", &players, dir.path(), &[cut], 1);
        assert!(line.starts_with("games saved: 1 record"), "{line}");
        let path = dir.path().join("game-01.toml");
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains("ending = \"move-limit\""), "{text}");
        let opened = gridrules_core::record::open(&path).unwrap();
        assert_eq!(
            opened.game.ending(),
            Some((Outcome::Draw, gridrules_core::Ending::MoveLimit(3)))
        );
    }

    /// The games a Ctrl-C left finished are saved though the flag is still
    /// raised: replaying them runs the rulebook's hooks, which the raised
    /// flag would stop (a review found "0 games saved").
    #[test]
    fn games_are_saved_after_ctrl_c_though_replaying_runs_hooks() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("h.rhai"),
            "fn lines() { lines::straight(3) }\nfn wins(run) { run >= 3 }\n\
             fn refuse(state, mv) { () }\n",
        )
        .unwrap();
        let text =
            "name = \"h\"\ntitle = \"t\"\nscript = \"h.rhai\"\n[board]\nwidth = 3\nheight = 3\n";
        let rules = Rulebook::from_str_at(text, "h.toml", Some(dir.path().to_path_buf())).unwrap();
        assert!(rules.has_per_move_hooks());
        let mv = rules.parse_move(&rules.initial(), &[], "b2").unwrap();
        let played = Played {
            number: 1,
            first_player_side: Side::X,
            moves: vec![mv],
            outcome: Outcome::Draw,
            cut_short: false,
            capped: [0, 0],
            searched: [0, 0],
        };
        let flag = gridrules_core::interrupt::Interrupt::new();
        flag.raise();
        let players = [Player::Random, Player::Random];
        let out = dir.path().join("games");
        std::fs::create_dir(&out).unwrap();
        let line = ScriptBudget::UNLIMITED
            .stopped_by(&flag)
            .replacing(|| save_games(rules, "h.toml", &players, &out, &[played], 1));
        assert!(line.starts_with("games saved: 1 record"), "{line}");
    }
}
