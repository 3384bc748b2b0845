//! The rulebooks in words: `rules` for the one loaded, `variants` for
//! the built-ins.

use super::{Session, clock_line};
use crate::edge::CONTINUATION;
use crate::layout::wrap;
use crate::reply::Reply;
use gridrules_core::mechanics::LineEnds;
use gridrules_core::rulebook::{FullRegion, LineResult, Marks, NoMoves};
use gridrules_core::{Rulebook, Side};

impl Session {
    pub(super) fn rules(&self) -> Reply {
        let r = self.rulebook();
        let mut lines = vec![format!("{} — {}", r.name(), r.title())];
        // The rulebook's words, indented as a quotation: a line of them
        // never starts a line of output (see `edge`).
        if let Some(d) = r.description() {
            lines.push(String::new());
            lines.extend(
                wrap(d, self.columns() - CONTINUATION.len())
                    .into_iter()
                    .map(|l| format!("{}{l}", CONTINUATION)),
            );
        }
        lines.push(String::new());
        let g = r.grid();
        let t = r.mechanics();
        // A board `shape()` cuts out of the grid: how many cells it keeps.
        let cells = if t.is_shaped(g) {
            format!(" ({} cells)", t.cells().count())
        } else {
            String::new()
        };
        lines.push(format!(
            "board: {}×{}{cells}; rulebook {}; script {}",
            g.width(),
            g.height(),
            r.path(),
            r.script().path()
        ));
        if let Some(start) = r.start() {
            lines.push(format!("games start from: {}", r.position_text(start)));
        }
        if let (Some(x), Some(o)) = (r.role(Side::X), r.role(Side::O)) {
            lines.push(format!("roles: X is {x}, O is {o}"));
        }
        // The table in force: this game's clock and pie rule, as chosen.
        lines.push(format!(
            "at this table — {}; pie rule: {}",
            clock_line(self.clock_limit()),
            if r.table().pie { "on" } else { "off" }
        ));
        lines.extend(lines_and_counts(t, self.columns()));
        lines.extend(other_rules(r, self.columns()));
        lines.extend(script_and_table(r, self.columns()));
        Reply::Lines(lines)
    }
}

/// `rules`' lines on what a completed line does, the pieces and the
/// counts that change the rules, repetition and named marks.
fn lines_and_counts(t: &gridrules_core::mechanics::Mechanics, columns: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let line = if t.removes() {
        use gridrules_core::mechanics::removals::PlacingLines;
        use gridrules_core::mechanics::removals::RemoveRule;
        let which = match t.remove_rule() {
            Some(RemoveRule::NotInLine) => " outside the opponent's lines (any, if all are in one)",
            _ => " (any)",
        };
        let placing = match t.placing_lines() {
            PlacingLines::Remove => "",
            PlacingLines::CountForNothing => "; one made while placing removes nothing",
            PlacingLines::Refused => "; no placement may make one",
        };
        format!("removes an opponent piece{which}{placing}")
    } else {
        line_result_text(t.line_result())
    };
    let ends = match t.line_ends() {
        LineEnds::Any => "",
        LineEnds::NotBothBlocked => " (unless an opponent mark stands beyond each end)",
        LineEnds::BothOpen => " (only with an empty cell beyond each end)",
    };
    // Where lines remove, a longer run may be no line (Dara's).
    let exact = if t.removes() && t.exact_lines() {
        format!(" of exactly {} (a longer run is none)", t.min_run())
    } else {
        String::new()
    };
    let text = format!(
        "a completed line{exact}: {line}{ends}; no legal move: {}{}",
        no_moves_text(t.no_moves()),
        match t.marks() {
            Marks::Own => String::new(),
            Marks::Either => "; a move places X or O (b2=O)".to_string(),
            Marks::Shared => "; both sides place X".to_string(),
        }
    );
    lines.extend(indented(&text, columns));
    // Pieces, and the counts that change the rules: said here, as the
    // hooks list below names them only.
    if let Some(n) = t.pieces() {
        let mut text = format!("pieces: {n} each, placed, then moved");
        if let Some(fly) = t.fly_at() {
            text.push_str(&format!("; a side down to {fly} flies"));
        }
        if let Some(lose) = t.lose_at() {
            text.push_str(&format!("; a side down to {lose} loses"));
        }
        lines.extend(indented(&text, columns));
    }
    if let Some(n) = t.repetition() {
        lines.push(format!(
            "a position met {n} times (the same side to move) is a draw"
        ));
    }
    let turns = t.turns();
    if turns.named_moves() > 0 {
        let named: Vec<String> = (0..turns.named_moves())
            .map(|ply| {
                let mark = turns.named_mark(ply);
                let side = turns.place(ply).side();
                format!("{side} places {}", mark.unwrap_or(side))
            })
            .collect();
        let text = format!(
            "the first moves place named marks, whoever makes them: {}; then each side its own",
            named.join(", ")
        );
        lines.extend(indented(&text, columns));
    }
    lines
}

/// `rules`' lines on regions, sizes, lines for both sides, sides' own
/// wins, restrictions by move number and forbidden patterns.
fn other_rules(r: &Rulebook, columns: usize) -> Vec<String> {
    let (g, t) = (r.grid(), r.mechanics());
    let mut lines = Vec::new();
    if !t.regions().is_empty() {
        lines.push(format!(
            "a region filled without a line counts for {}",
            match t.full_region() {
                FullRegion::Nobody => "nobody",
                FullRegion::Both => "both sides",
                FullRegion::Mover => "the side that filled it",
            }
        ));
    }
    if !t.sizes().is_empty() {
        let each: Vec<String> = (t.sizes().iter())
            .map(|&(letter, n)| format!("{n} {letter}"))
            .collect();
        let text = format!(
            "pieces: each side holds {}, smallest first; a larger piece covers a smaller one",
            each.join(", ")
        );
        lines.extend(indented(&text, columns));
    }
    if let Some(both) = t.both_lines() {
        use gridrules_core::mechanics::whole_board::BothLines;
        lines.push(format!(
            "a move that leaves lines for both sides: {}",
            match both {
                BothLines::MoverWins => "the mover wins",
                BothLines::OpponentWins => "the opponent wins",
                BothLines::Draw => "a draw",
            }
        ));
    }
    if t.sided_wins() {
        let runs = |side: Side| {
            let wins: Vec<String> = (1..=g.len())
                .filter(|&n| t.wins_run(side, n))
                .map(|n| n.to_string())
                .collect();
            match wins.as_slice() {
                [one] => format!("exactly {one}"),
                [first, .., last] if last.parse() == Ok(g.len()) || wins.len() > 3 => {
                    format!("{first} or more")
                }
                _ => wins.join(" or "),
            }
        };
        lines.push(format!(
            "a line wins with {} in a row for X, {} for O",
            runs(Side::X),
            runs(Side::O)
        ));
    } else if !t.removes() && !(t.min_run()..=g.len()).all(|n| t.wins_run(Side::X, n)) {
        // Not every run from the shortest win on wins (exactly five): the
        // length is said, as for sides that win apart (a one-sided
        // `wins(run)` said none).
        let wins: Vec<String> = (1..=g.len())
            .filter(|&n| t.wins_run(Side::X, n))
            .map(|n| n.to_string())
            .collect();
        let runs = match wins.as_slice() {
            [one] => format!("exactly {one}"),
            _ => wins.join(" or "),
        };
        lines.push(format!("a line wins with {runs} in a row"));
    }
    for (side, n, cells) in t.restrictions() {
        // A move with one cell left open is named by that cell.
        let open = t.cells() & !cells;
        let (verb, named) = if open.count() < cells.count() {
            ("may take only", open)
        } else {
            ("may not take", cells)
        };
        let names: Vec<String> = named.into_iter().map(|c| g.name(c).to_string()).collect();
        let nth = gridrules_core::ordinal::ordinal(n as usize);
        let text = format!("{side}'s {nth} move {verb} {}", names.join(" "));
        lines.extend(indented(&text, columns));
    }
    for side in Side::ALL {
        let patterns: Vec<String> = (t.forbidden_patterns(side).into_iter())
            .map(|p| p.named())
            .collect();
        if let Some((last, rest)) = patterns.split_last() {
            let list = if rest.is_empty() {
                last.to_string()
            } else {
                format!("{} or {last}", rest.join(", "))
            };
            let text = format!("{side} may not make {list}, unless the move wins");
            lines.extend(indented(&text, columns));
        }
    }
    lines
}

/// `rules`' last lines: the script's hooks, the params and the rulebook's
/// clock.
fn script_and_table(r: &Rulebook, columns: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let hooks: Vec<String> = r
        .script()
        .hooks()
        .iter()
        .map(|&h| {
            let signature = if r.script().defines_sided(h) {
                h.spec().sided_signature()
            } else {
                h.spec().signature()
            };
            format!("{signature} ({})", h.spec().kind.as_str())
        })
        .collect();
    lines.extend(indented(&format!("hooks: {}", hooks.join(", ")), columns));
    if !r.params().is_empty() {
        let params: Vec<String> = r
            .params()
            .iter()
            .map(|(k, v)| format!("{k} = {v}"))
            .collect();
        lines.push(format!("params: {}", params.join(", ")));
    }
    let t = r.table();
    let clock = match (t.clock, t.clock_options.is_empty()) {
        (Some(s), _) => format!("{s} s per move"),
        (None, true) => "none".to_string(),
        (None, false) => {
            let o: Vec<String> = t.clock_options.iter().map(u32::to_string).collect();
            format!("none by default; {} s can be chosen", o.join(" or "))
        }
    };
    let swap = if t.alternate {
        "the marks change seats"
    } else {
        "the seats keep their marks"
    };
    lines.push(format!(
        "the rulebook's clock: {clock}; in a rematch {swap}"
    ));
    lines
}

/// A line result in words, for `rules`.
fn line_result_text(rule: LineResult) -> String {
    match rule {
        LineResult::OwnerWins => "wins for the side whose marks form it".to_string(),
        LineResult::OwnerLoses => "loses for the side whose marks form it".to_string(),
        LineResult::MoverWins => "wins for the side that completes it".to_string(),
        LineResult::MoverLoses => "loses for the side that completes it".to_string(),
        LineResult::Wins(side) => format!("wins for {side}, whoever completes it"),
    }
}

/// What having no legal move means, in words, for `rules`.
fn no_moves_text(rule: NoMoves) -> String {
    match rule {
        NoMoves::Draw => "a draw".to_string(),
        NoMoves::Loss => "that side loses".to_string(),
        NoMoves::Win => "that side wins".to_string(),
        NoMoves::Wins(side) => format!("{side} wins"),
    }
}

pub(super) fn variants() -> Reply {
    let width = Rulebook::builtin_names().map(str::len).max().unwrap_or(0);
    let lines = Rulebook::builtin_names()
        .map(|n| match Rulebook::builtin(n) {
            // Two spaces at least: a title's wrapped words continue under
            // the second column, which `layout::fit` finds by that gap.
            Ok(r) => format!("{n:<width$}  {}", r.title()),
            Err(e) => format!("{n:<width$}  (does not load: {e})"),
        })
        .collect();
    Reply::Lines(lines)
}

/// `text` wrapped at `width`, its continuation lines indented as every
/// wrapped line of output is (piped, or fitted to a terminal, alike).
fn indented(text: &str, width: usize) -> Vec<String> {
    let mut parts = wrap(text, width).into_iter();
    let Some(first) = parts.next() else {
        return Vec::new();
    };
    let rest: Vec<String> = parts.collect();
    let mut out = vec![first];
    if !rest.is_empty() {
        out.extend(
            wrap(&rest.join(" "), width - CONTINUATION.len())
                .into_iter()
                .map(|l| format!("{CONTINUATION}{l}")),
        );
    }
    out
}
