//! The rules in words: a refusal in the rulebook's own text, the names of
//! regions, and the line that decided a game.

use crate::geometry::{Cell, CellSet};
use crate::position::{Ending, Move, Position, Side};
use crate::refusal::{PlayError, Refusal};
use crate::rulebook::Rulebook;

impl Rulebook {
    /// A refusal of a move's text in `pos`: once the game is over every move
    /// is refused as such (G3), before its mark or column is looked at.
    pub(crate) fn refused_at(&self, pos: &Position, refusal: Refusal) -> PlayError {
        match pos.outcome() {
            Some(o) => self.refused(Refusal::GameOver(o)),
            None => self.refused(refusal),
        }
    }

    /// A refusal with its reason in this rulebook's words.
    pub fn refused(&self, refusal: Refusal) -> PlayError {
        PlayError::Refused {
            reason: self.explain(&refusal),
            refusal,
        }
    }

    /// The reason for a refusal: the rulebook's `[refusals]` text for its
    /// kind with its placeholders (`{cell}`, `{from}`, `{to}`, `{board}`,
    /// `{result}`, `{mark}`, `{text}`, `{lines}`, `{size}`, `{top}`,
    /// `{grid}`) filled
    /// in, or the engine's own words
    /// ([`Refusal::describe`]).
    pub fn explain(&self, refusal: &Refusal) -> String {
        let g = self.grid();
        // A move to show, as the notation writes it in full.
        let example = match refusal {
            Refusal::MustPlace(m) | Refusal::MustMove(m) => m.map(|m| self.move_text(m)),
            Refusal::MustRemove(from, to, take) => {
                Some(crate::refusal::removal_example(g, *from, *to, *take))
            }
            _ => None,
        };
        let template = match refusal {
            // A rulebook that words only `no_slide` words both.
            Refusal::NoSlideFrom(..) => (self.refusal_texts.get("no_slide_from"))
                .or_else(|| self.refusal_texts.get("no_slide")),
            _ => self.refusal_texts.get(refusal.key()),
        };
        let Some(template) = template else {
            return match refusal {
                Refusal::MustPlace(_) => crate::refusal::must_place(example.as_ref()),
                Refusal::MustMove(_) => crate::refusal::must_move(example.as_ref()),
                _ => refusal.describe(g),
            };
        };
        let name = |c: &Cell| g.name(*c).to_string();
        let mut mark = String::new();
        let mut text = String::new();
        let mut lines = String::new();
        let (mut size, mut top) = (String::new(), String::new());
        // `forbidden`'s move number: the side's first move is 1.
        let number = match refusal {
            Refusal::Forbidden(_, _, n) => n.to_string(),
            _ => String::new(),
        };
        // The cells by their names: `{cell}` is the cell the move is
        // refused at, `{from}` and `{to}` the ends of the move.
        let (cell, from, to, board, result) = match refusal {
            Refusal::Occupied(c) | Refusal::ClosedRegion(c) => {
                (name(c), String::new(), name(c), None, None)
            }
            Refusal::Unsupported(c, landing) => (
                name(c),
                String::new(),
                landing.as_ref().map(name).unwrap_or_default(),
                None,
                None,
            ),
            Refusal::ColumnFull(t) | Refusal::NoColumns(t) | Refusal::OffBoard(t) => {
                text = t.clone();
                (String::new(), String::new(), String::new(), None, None)
            }
            Refusal::FixedMark(c, m) | Refusal::Forbidden(c, m, _) => {
                mark = m.to_string();
                (name(c), String::new(), name(c), None, None)
            }
            Refusal::FixedMarkText(t, m) => {
                mark = m.to_string();
                (t.clone(), String::new(), t.clone(), None, None)
            }
            Refusal::UnknownMark(c, t) => {
                text = t.clone();
                (name(c), String::new(), name(c), None, None)
            }
            Refusal::WrongRegion(c, r) => (name(c), String::new(), name(c), Some(*r), None),
            Refusal::NotOwnPiece(c) => (name(c), name(c), String::new(), None, None),
            Refusal::SlideTake(c, m) => {
                mark = m.to_string();
                (name(c), name(c), String::new(), None, None)
            }
            Refusal::SlideEmpty(c) => (name(c), name(c), String::new(), None, None),
            Refusal::NoSlide(a, b) | Refusal::NoSlideFrom(a, b) => {
                text = format!("{}-{}", name(a), name(b));
                (name(b), name(a), name(b), None, None)
            }
            Refusal::Unreachable(a, b) | Refusal::JumpBlocked(a, b) => {
                (name(b), name(a), name(b), None, None)
            }
            Refusal::GameOver(o) => (
                String::new(),
                String::new(),
                String::new(),
                None,
                Some(o.to_string()),
            ),
            Refusal::NoSlideNamed(t) => {
                text = t.clone();
                (t.clone(), t.clone(), t.clone(), None, None)
            }
            Refusal::MustTwist(c) | Refusal::LineBeforeTwist(c) => {
                (name(c), String::new(), name(c), None, None)
            }
            Refusal::NoTwist(t) => {
                text = t.clone();
                (String::new(), String::new(), String::new(), None, None)
            }
            Refusal::Pattern(c, side, _, l) => {
                mark = side.to_string();
                lines = crate::refusal::lines_text(g, l);
                (name(c), String::new(), name(c), None, None)
            }
            Refusal::MustRemove(from, c, _) => {
                text = crate::refusal::written_before_removal(g, *from, *c);
                (name(c), String::new(), name(c), None, None)
            }
            Refusal::RemovesNothing(c) | Refusal::PlacedLineRemoves(c) | Refusal::PlacedLine(c) => {
                (name(c), String::new(), name(c), None, None)
            }
            Refusal::NotRemovable(c, side) | Refusal::TakeInLine(c, side) => {
                mark = side.to_string();
                (name(c), String::new(), String::new(), None, None)
            }
            Refusal::NoSize(c, sizes) => {
                text = crate::refusal::size_choices(&name(c), sizes);
                (name(c), String::new(), name(c), None, None)
            }
            Refusal::UnknownSize(c, t, _) => {
                text = t.clone();
                (name(c), String::new(), name(c), None, None)
            }
            Refusal::NoneInHand(c, side, letter) => {
                mark = side.to_string();
                size = letter.to_string();
                (name(c), String::new(), name(c), None, None)
            }
            Refusal::CannotCover(c, letter, side, shown) => {
                size = letter.to_string();
                top = format!("{side}{shown}");
                (name(c), String::new(), name(c), None, None)
            }
            Refusal::MustPlace(_)
            | Refusal::MustMove(_)
            | Refusal::NoPieRule
            | Refusal::SwapLate
            | Refusal::Script(_) => (String::new(), String::new(), String::new(), None, None),
        };
        // Where the slides from the move's first cell end (`a5 or e1`, or
        // their names where they have them), or for a name, the slides'
        // names (`^a, … or ^g`).
        let ends: Vec<String> = match refusal {
            _ if !template.contains("{ends}") => Vec::new(),
            Refusal::NoSlide(a, _) | Refusal::NoSlideFrom(a, _) => (self.mechanics)
                .slides_from(*a)
                .map(|s| s.name.clone().unwrap_or_else(|| name(&s.to())))
                .collect(),
            Refusal::NoSlideNamed(_) => (self.mechanics.slides().iter())
                .filter_map(|s| s.name.clone())
                .collect(),
            _ => Vec::new(),
        };
        // With no end to name (`^a` where slides have no names, a cube
        // inside the border worded by `no_slide`), the text would say "at"
        // nothing: the engine's own words instead.
        if template.contains("{ends}") && ends.is_empty() {
            return refusal.describe(g);
        }
        let ends = crate::refusal::either(&ends);
        let board = match (refusal, board) {
            (_, Some(r)) => Some(r),
            (Refusal::ClosedRegion(c), None) => self.mechanics.region_of(*c),
            _ => None,
        };
        template
            .replace("{cell}", &cell)
            .replace("{from}", &from)
            .replace("{to}", &to)
            .replace(
                "{board}",
                // Named only when asked for: the name may come from the script.
                &board
                    .filter(|_| template.contains("{board}"))
                    .map_or(String::new(), |r| self.region_name(r)),
            )
            .replace(
                "{span}",
                &board.and_then(|r| self.region_span(r)).unwrap_or_default(),
            )
            .replace("{result}", &result.unwrap_or_default())
            .replace("{mark}", &mark)
            .replace("{text}", &text)
            .replace("{lines}", &lines)
            .replace("{size}", &size)
            .replace("{top}", &top)
            .replace("{example}", example.as_deref().unwrap_or_default())
            .replace("{n}", &number)
            .replace("{grid}", &format!("{}×{}", g.width(), g.height()))
            .replace("{ends}", &ends)
    }

    /// A region's name: the `region_name` hook's, or `board N (a1–c3)`.
    pub fn region_name(&self, region: usize) -> String {
        match self.mechanics.region_names.get(region) {
            Some(name) => name.clone(),
            None => format!("board {}", self.region_place(region)),
        }
    }

    /// What completed the line that ended the game in `pos`, as a result
    /// line names it after ` — `: the cells of the run the last mark made
    /// (`c1 d2 e3`), or the held boards in a line (`boards 1 5 9`).
    pub fn decisive_line(&self, pos: &Position) -> Option<String> {
        let (_, Ending::Line) = pos.ending()? else {
            return None;
        };
        let t = &self.mechanics;
        let g = self.grid();
        if !t.regions.is_empty() {
            // The line of boards one side holds (the loser's, where a line loses).
            let line = Side::ALL.into_iter().find_map(|s| {
                let held = pos.regions_won(s);
                t.region_lines
                    .iter()
                    .flatten()
                    .copied()
                    .find(|&l| l & !held == 0)
            })?;
            let boards: Vec<String> = (0..32)
                .filter(|r| line & (1 << r) != 0)
                .map(|r| (r + 1).to_string())
                .collect();
            return Some(format!("boards {}", boards.join(" ")));
        }
        let runs = self.sided_runs(pos);
        let cells = |run: &[Cell]| {
            let names: Vec<String> = run.iter().map(|&c| g.name(c).to_string()).collect();
            names.join(" ")
        };
        // Only where a side's marks are its own does a line tell whose it is.
        let owned = t.marks == crate::mechanics::words::Marks::Own;
        // The side that made the last move, where a move led here: read
        // from the turn where turns alternate (a set-up position counts its
        // marks as moves, so the count would mislead), else from the count.
        let mover = pos.last_move().filter(|_| owned).map(|_| {
            if t.turns.is_alternating() {
                pos.turn().other()
            } else {
                t.turns.place(pos.marks_played().saturating_sub(1)).side()
            }
        });
        // Where the mover made the opponent's line, alone or beside its
        // own (Quixo's push, Gobblet's lift, Pentago's turn), the result
        // says whose each line is and who made them: the cells alone
        // would read as the winner's own move.
        Some(match (runs.as_slice(), mover) {
            ([], _) => return None,
            ([(side, run)], Some(m)) if *side != m => {
                format!("{} ({side}'s, made by {m}'s move)", cells(run))
            }
            ([(_, run)], _) => cells(run),
            (many, _) if !owned => {
                let each: Vec<String> = many.iter().map(|(_, run)| cells(run)).collect();
                each.join(" and ")
            }
            (many, mover) => {
                let each: Vec<String> = (many.iter())
                    .map(|(side, run)| format!("{} ({side}'s)", cells(run)))
                    .collect();
                let made = mover.map_or(String::new(), |m| format!(", both made by {m}'s move"));
                format!("{}{made}", each.join(" and "))
            }
        })
    }

    /// The cells of the runs of marks that ended the game in `pos`, when a
    /// line of cells did (not a line of boards): the last mark's run, or
    /// after a move that rewrote the board or in a set-up position, each
    /// side's that holds one, the winner's first (where a line loses, the
    /// loser's).
    pub fn decisive_runs(&self, pos: &Position) -> Vec<Vec<Cell>> {
        (self.sided_runs(pos).into_iter())
            .map(|(_, run)| run)
            .collect()
    }

    /// [`Rulebook::decisive_runs`], each with the side whose run it is.
    fn sided_runs(&self, pos: &Position) -> Vec<(Side, Vec<Cell>)> {
        let Some((_, Ending::Line)) = pos.ending() else {
            return Vec::new();
        };
        let t = &self.mechanics;
        if !t.regions.is_empty() {
            return Vec::new();
        }
        let run_of = |side: Side, own: CellSet, line: &[Cell], i: usize| {
            let run = crate::mechanics::run_at(line, i, own);
            let theirs = pos.marks(side.other());
            (t.run_wins(side, line, run.clone(), own, theirs)).then(|| (side, line[run].to_vec()))
        };
        // After a move that rewrote the board (a slide, a twist, a piece
        // lifted off a stack), or in a set-up position, where no last move
        // points at the line: the whole board, each side's line.
        if t.has_stacks()
            || matches!(
                pos.last_move(),
                Some(Move::Slide { .. } | Move::Twist { .. }) | None
            )
        {
            let first = (pos.outcome().and_then(|o| o.winner())).unwrap_or(pos.turn());
            return [first, first.other()]
                .into_iter()
                .filter_map(|side| {
                    let own = pos.marks(side);
                    t.lines.iter().find_map(|line| {
                        (0..line.len()).find_map(|i| {
                            own.contains(line[i])
                                .then(|| run_of(side, own, line, i))
                                .flatten()
                        })
                    })
                })
                .collect();
        }
        let Some(to) = pos.last_move().and_then(Move::to) else {
            return Vec::new();
        };
        let Some(mark) = pos.mark_at(to) else {
            return Vec::new();
        };
        let own = pos.marks(mark);
        (t.lines.iter())
            .find_map(|line| run_of(mark, own, line, line.iter().position(|&c| c == to)?))
            .into_iter()
            .collect()
    }

    /// A region's number from 1 and its first and last cells: `9 (g7–i9)`.
    pub fn region_place(&self, region: usize) -> String {
        match self.region_span(region) {
            Some(span) => format!("{} ({span})", region + 1),
            None => (region + 1).to_string(),
        }
    }

    /// A region's first and last cells: `g7–i9`.
    pub fn region_span(&self, region: usize) -> Option<String> {
        let cells = self
            .mechanics
            .regions()
            .get(region)
            .copied()
            .unwrap_or_default();
        let g = self.grid();
        let (a, b) = (cells.first()?, cells.into_iter().last()?);
        Some(format!("{}–{}", g.name(a), g.name(b)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Outcome;
    use crate::refusal::Pattern;
    use crate::refusal::{REFUSAL_KEYS, refusal_placeholders};

    /// A decided position names its line wherever the game ended: after a
    /// placement, in a set-up position (no last move points at it), and
    /// after a move that lifts a piece off a stack and uncovers the
    /// opponent's line (not the mover's own line beside it first).
    #[test]
    fn the_deciding_line_is_named_after_setup_and_after_a_lift() {
        let classic = Rulebook::builtin("classic").unwrap();
        let pos = classic.parse_position("XXX/OO1/3 O").unwrap();
        assert_eq!(classic.decisive_line(&pos).as_deref(), Some("a3 b3 c3"));
        let gobblet = Rulebook::builtin("gobblet-gobblers").unwrap();
        let pos = gobblet.parse_position("2OM/XS1XL(OS)/XS1OS X").unwrap();
        let mv = gobblet.parse_move(&pos, &[], "c2-b2").unwrap();
        let lost = gobblet.play(&pos, &[], mv).unwrap();
        assert_eq!(lost.outcome(), Some(Outcome::Win(Side::O)));
        assert_eq!(
            gobblet.decisive_line(&lost).as_deref(),
            Some("c1 c2 c3 (O's, made by X's move)"),
            "the line is the loser's doing"
        );
        let mv = gobblet.parse_move(&pos, &[], "c2-a3").unwrap();
        let both = gobblet.play(&pos, &[], mv).unwrap();
        assert_eq!(
            gobblet.decisive_line(&both).as_deref(),
            Some("c1 c2 c3 (O's) and a1 a2 a3 (X's), both made by X's move"),
            "the winner's line first"
        );
    }

    /// `{ends}` names where the pushes from a cell end; a rulebook that
    /// words only `no_slide` words a cube inside the border by it too, and
    /// where there is no end to name, the engine's words stand in ("at
    /// none" was printed). `^a` where no slide has a name is no notation.
    #[test]
    fn a_push_names_its_ends_and_never_none() {
        let script = "fn lines() { lines::straight(3) }\n\
            fn wins(run) { run >= 3 }\n\
            fn pieces() { 0 }\n\
            fn slides(c) { slides::push_in(c) }\n";
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("q.rhai"), script).unwrap();
        let text = "name = \"q\"\ntitle = \"t\"\nscript = \"q.rhai\"\n[board]\nwidth = 4\nheight = 4\n[refusals]\nno_slide = \"{text}: back in at {ends} (Q1)\"\n";
        let rules = Rulebook::from_str_at(text, "q.toml", Some(dir.path().to_path_buf())).unwrap();
        let pos = rules.initial();
        let refused = |text: &str| match rules.parse_move(&pos, &[], text) {
            Err(e) => e.to_string(),
            Ok(mv) => rules.play(&pos, &[], mv).unwrap_err().to_string(),
        };
        assert_eq!(refused("a1-c1"), "a1-c1: back in at d1 or a4 (Q1)");
        assert_eq!(refused("b2-b4"), "no slide starts at b2");
        assert!(refused("^a").contains("is not a move"), "{}", refused("^a"));
    }

    /// Every `[refusals]` text of a built-in rulebook ends with the rule it
    /// applies, in parentheses, as the user sees them everywhere (renju
    /// put its ID first; one with sub-boards named none for `occupied`).
    #[test]
    fn every_built_in_refusal_text_names_its_rule_last() {
        for name in Rulebook::builtin_names() {
            let rules = Rulebook::builtin(name).unwrap();
            for (key, text) in &rules.refusal_texts {
                let id = text
                    .strip_suffix(')')
                    .and_then(|t| t.rsplit_once('('))
                    .map(|(_, ids)| ids);
                let names_rules = id.is_some_and(|ids| {
                    ids.split(", ").all(|id| {
                        let digits = id.trim_start_matches(|c: char| c.is_ascii_uppercase());
                        digits.len() < id.len()
                            && !digits.is_empty()
                            && digits.chars().all(|c| c.is_ascii_digit())
                    })
                });
                assert!(names_rules, "{name}: {key} = {text:?}");
            }
        }
    }

    /// Every placeholder a refusal key allows is filled in when that refusal
    /// is explained: none prints empty (the loader refuses the others).
    #[test]
    fn every_allowed_placeholder_is_filled_in() {
        let (a1, b2) = (Cell(0), Cell(4));
        let b1 = Cell(1);
        let samples = [
            Refusal::GameOver(Outcome::Draw),
            Refusal::Occupied(b2),
            Refusal::ClosedRegion(b2),
            Refusal::WrongRegion(b2, 0),
            Refusal::MustPlace(Some(Move::Place {
                to: b2,
                mark: Side::X,
            })),
            Refusal::MustMove(Some(Move::Step { from: a1, to: b2 })),
            Refusal::NotOwnPiece(b2),
            Refusal::Unreachable(a1, b2),
            Refusal::JumpBlocked(a1, b2),
            Refusal::Unsupported(b2, Some(b1)),
            Refusal::ColumnFull("b".to_string()),
            Refusal::NoColumns("b".to_string()),
            Refusal::FixedMark(b2, Side::X),
            Refusal::UnknownMark(b2, "Q".to_string()),
            Refusal::OffBoard("z9".to_string()),
            Refusal::NoPieRule,
            Refusal::SwapLate,
            Refusal::NoSlide(a1, b2),
            Refusal::NoSlideFrom(b2, a1),
            Refusal::SlideTake(a1, Side::O),
            Refusal::SlideEmpty(a1),
            Refusal::MustTwist(b2),
            Refusal::LineBeforeTwist(b2),
            Refusal::NoTwist("9+".to_string()),
            Refusal::MustRemove(Some(a1), b2, a1),
            Refusal::RemovesNothing(b2),
            Refusal::PlacedLineRemoves(b2),
            Refusal::PlacedLine(b2),
            Refusal::NotRemovable(b2, Side::O),
            Refusal::TakeInLine(b2, Side::O),
            Refusal::Forbidden(b2, Side::X, 1),
            Refusal::Pattern(b2, Side::X, Pattern::Overline, vec![vec![b2]]),
            Refusal::Pattern(b2, Side::X, Pattern::DoubleFour, vec![vec![b2], vec![b2]]),
            Refusal::Pattern(b2, Side::X, Pattern::DoubleThree, vec![vec![b2], vec![b2]]),
            Refusal::NoSize(b2, vec!['S', 'L']),
            Refusal::UnknownSize(b2, "Q".to_string(), vec!['S', 'L']),
            Refusal::NoneInHand(b2, Side::X, 'L'),
            Refusal::CannotCover(b2, 'S', Side::O, 'L'),
        ];
        let keys: Vec<&str> = samples.iter().map(Refusal::key).collect();
        assert_eq!(keys, REFUSAL_KEYS, "one sample per key, in order");
        // Regions give `{board}` a name to print.
        let script = "fn lines() { lines::straight(3) }\nfn wins(run) { run >= 3 }\nfn regions() { [[0, 1, 2, 3, 4, 5, 6, 7, 8]] }\nfn region_lines() { [] }\n";
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("ph.rhai"), script).unwrap();
        let refusals: String = REFUSAL_KEYS
            .iter()
            .map(|k| format!("{k} = \"<{}>\"\n", refusal_placeholders(k).join("|")))
            .collect();
        let text = format!(
            "name = \"ph\"\ntitle = \"t\"\nscript = \"ph.rhai\"\n[board]\nwidth = 3\nheight = 3\n[refusals]\n{refusals}"
        );
        let rules = Rulebook::from_str_at(&text, "ph.toml", Some(dir.path().to_path_buf()))
            .unwrap_or_else(|e| panic!("{e}"));
        // A second kind of refusal under one key: its text as written.
        let extra = [
            Refusal::FixedMarkText("d".to_string(), Side::O),
            Refusal::MustRemove(None, b2, a1),
            Refusal::NoSlideNamed("q".to_string()),
        ];
        for r in samples.iter().chain(&extra) {
            let shown = rules.explain(r);
            let inner = shown.trim_start_matches('<').trim_end_matches('>');
            assert!(
                inner.split('|').all(|part| !part.is_empty()),
                "{}: {shown}",
                r.key()
            );
        }
    }
}
