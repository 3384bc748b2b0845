//! The methods hard and medium ask, one per rulebook shape, and how their
//! answers rank the moves.

use super::exact::{FirstWin, Proof, Solver, forcing};
use super::request::Search;
use super::retrograde::{Graph, Value, Values};
use super::table::Table;
use super::{At, Budget, Level, Limit, Report, Worth, lines, mcts, rows, tactics, threats};
use crate::error::ScriptError;
use crate::playout::Rng;
use crate::position::{Move, MoveList, Outcome, Position, Side};
use crate::rulebook::Rulebook;
use std::cell::RefCell;
use std::time::Instant;

/// Nodes the alpha-beta solver may visit to value a position before it
/// gives up.
const SOLVE_NODES: u64 = 400_000;

/// Moves hard's MCTS may play to look for a win in two first: a few
/// milliseconds at most.
const WIN_IN_TWO_NODES: u64 = 100_000;

/// What a method says of the candidate moves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Answer {
    /// Play this one.
    Play(Move),
    /// The next method should choose among these: the others are proven
    /// worse.
    Among(Vec<Move>),
    /// The method cannot tell within its limits.
    Pass,
}

impl From<Option<Move>> for Answer {
    fn from(mv: Option<Move>) -> Answer {
        mv.map_or(Answer::Pass, Answer::Play)
    }
}

/// A way of choosing moves and valuing positions. Each lives in its own
/// module; [`methods`] picks them by the rulebook's shape.
pub(super) trait Method {
    /// What the method makes of `candidates` (legal moves of the search's
    /// position) for the side to move.
    fn best(
        &self,
        s: &Search<'_>,
        candidates: &[Move],
        rng: &mut Rng,
        budget: Budget,
    ) -> Result<Answer, ScriptError>;

    /// What the side to move can expect (1 a win, ½ a draw, 0 a loss), or
    /// `None` when the method cannot tell (a method that only picks moves).
    fn expected(
        &self,
        _search: &Search<'_>,
        _rng: &mut Rng,
        _budget: Budget,
    ) -> Result<Option<f64>, ScriptError> {
        Ok(None)
    }
}

/// Line threats, one move deep (module `lines`).
struct Lines;
/// Threat-space search: continuous fours, then alpha-beta over the cells
/// that build and block the most (module `threats`).
struct ThreatSpace;
/// Threats and alpha-beta on a board kept move by move (module `rows`).
struct Rows;
/// Retrograde analysis over every reachable position (module `retrograde`).
struct Retrograde;
/// Alpha-beta to the end of the game (module `exact`).
struct Exact;
/// Monte Carlo tree search (module `mcts`): hard's, with proven values and
/// a tree per thread, or plain UCT for medium.
struct Mcts {
    plain: bool,
}
/// Hard's MCTS.
const STRONG_MCTS: Mcts = Mcts { plain: false };
/// Medium's MCTS.
const PLAIN_MCTS: Mcts = Mcts { plain: true };

impl Method for Lines {
    fn best(
        &self,
        s: &Search<'_>,
        candidates: &[Move],
        rng: &mut Rng,
        _: Budget,
    ) -> Result<Answer, ScriptError> {
        s.noted("lines");
        Ok(Answer::Play(lines::threat_move(
            s.at.rules, s.at.pos, candidates, rng,
        )))
    }
}

impl Method for ThreatSpace {
    fn best(
        &self,
        s: &Search<'_>,
        candidates: &[Move],
        _: &mut Rng,
        budget: Budget,
    ) -> Result<Answer, ScriptError> {
        let (nodes, until) = nodes_within(s, budget, threats::NODES_PER_PLAYOUT);
        let mut search = threats::Threats::new(s.at.rules)
            .with_nodes(nodes)
            .until(until);
        let chosen = search.best(s.at.pos, s.at.history, candidates)?;
        let found = search.found;
        s.note(match found.fours_plies {
            Some(plies) => Report {
                method: "continuous fours",
                value: Some(Worth::Wins(plies)),
                ..Report::default()
            },
            None => Report {
                method: "alpha-beta",
                depth: found.depth,
                nodes: Some(search.nodes()),
                value: found.value.map(worth_of_alpha_beta),
                ..Report::default()
            },
        });
        Ok(chosen.into())
    }
}

/// An alpha-beta search's nodes and deadline for `budget`, at `per_playout`
/// nodes a playout. A time is the clock's: the search deepens until it is
/// up and keeps its last complete pass.
fn nodes_within<'a>(s: &Search<'a>, budget: Budget, per_playout: u64) -> (u64, super::Until<'a>) {
    match budget {
        Budget::Playouts(n) => (u64::from(n) * per_playout, s.until),
        Budget::Time(d) => (u64::MAX, s.until.sooner(Instant::now() + d)),
    }
}

impl Method for Rows {
    fn best(
        &self,
        s: &Search<'_>,
        candidates: &[Move],
        _: &mut Rng,
        budget: Budget,
    ) -> Result<Answer, ScriptError> {
        let (nodes, until) = nodes_within(s, budget, rows::NODES_PER_PLAYOUT);
        // A move searched for a time depends on the machine already, so
        // the threads the request allows help; a budget in nodes stays on
        // one thread, where a seed repeats the move.
        let threads = match budget {
            Budget::Time(_) => s.threads,
            Budget::Playouts(_) => 1,
        };
        let Some(chosen) = rows::choose(s.at.rules, s.at.pos, candidates, nodes, until, threads)
        else {
            return Ok(Answer::Pass);
        };
        s.note(match chosen.how {
            rows::How::AtOnce => Report {
                method: "threats",
                value: chosen.value.map(worth_of_alpha_beta),
                ..Report::default()
            },
            rows::How::Fours => Report {
                method: "continuous fours",
                value: chosen.plies.map(Worth::Wins),
                ..Report::default()
            },
            rows::How::Threats => Report {
                method: "fours and threes",
                value: chosen.plies.map(Worth::Wins),
                ..Report::default()
            },
            rows::How::Turns => Report {
                method: "forcing turns",
                value: chosen.plies.map(Worth::Wins),
                ..Report::default()
            },
            rows::How::Centre => Report {
                method: "the centre of an empty board",
                ..Report::default()
            },
            rows::How::AlphaBeta => Report {
                method: "alpha-beta",
                depth: chosen.depth,
                nodes: Some(chosen.nodes),
                value: chosen.value.map(worth_of_alpha_beta),
                ..Report::default()
            },
        });
        Ok(Answer::Play(chosen.mv))
    }
}

impl Retrograde {
    /// The rulebook's graph, if it is built within the search's deadline;
    /// where it is too large, a table `solve` has solved (never solved
    /// here: it takes minutes).
    fn values(s: &Search<'_>) -> Result<Option<std::sync::Arc<dyn Values>>, ScriptError> {
        let limit = Limit::nodes(u64::MAX).within(s.until);
        Ok(match Graph::of_rulebook(s.at.rules, &limit)? {
            Some(g) => Some(g),
            None => Table::kept(s.at.rules).map(|t| t as std::sync::Arc<dyn Values>),
        })
    }
}

impl Method for Retrograde {
    fn best(
        &self,
        s: &Search<'_>,
        candidates: &[Move],
        rng: &mut Rng,
        _: Budget,
    ) -> Result<Answer, ScriptError> {
        let Some(values) = Retrograde::values(s)? else {
            return Ok(Answer::Pass);
        };
        let Some(ranked) = rank(&*values, &s.at, candidates)? else {
            return Ok(Answer::Pass);
        };
        let best = ranked.iter().map(|&(_, r, _)| r).max();
        if let Some(&(_, _, v)) = ranked.iter().find(|&&(_, r, _)| Some(r) == best) {
            let me = s.at.pos.turn();
            s.note(Report {
                method: "retrograde",
                value: Some(match v {
                    Value::Win { side, plies } if side == me => Worth::Wins(plies + 1),
                    Value::Win { plies, .. } => Worth::Loses(plies + 1),
                    Value::Draw => Worth::Expected(0.5),
                }),
                ..Report::default()
            });
        }
        let top: Vec<Move> = ranked
            .iter()
            .filter(|&&(_, r, _)| Some(r) == best)
            .map(|&(m, _, _)| m)
            .collect();
        Ok(top.get(rng.below(top.len().max(1))).copied().into())
    }

    fn expected(&self, s: &Search<'_>, _: &mut Rng, _: Budget) -> Result<Option<f64>, ScriptError> {
        let Some(values) = Retrograde::values(s)? else {
            return Ok(None);
        };
        Ok(values.value(s.at.pos).map(|v| score_of(v, s.at.pos.turn())))
    }
}

impl Method for Exact {
    fn best(
        &self,
        s: &Search<'_>,
        candidates: &[Move],
        _: &mut Rng,
        budget: Budget,
    ) -> Result<Answer, ScriptError> {
        let (rules, pos) = (s.at.rules, s.at.pos);
        let whole = Limit::of_budget(budget, s.until);
        let mut spent = 0;
        // Where lines force replies, a win by threats may lie far beyond
        // the horizon the budget lets alpha-beta reach (qubic's do): a
        // quarter of the budget looks for one, the rest is alpha-beta's.
        if forcing(rules) {
            let limit = Limit::of_budget(budget.scaled_down(4), s.until);
            let mut proof = Solver::new(rules, s.at.history, limit);
            if let FirstWin::Win(mv, plies) = proof.threat_win(pos)?
                && candidates.contains(&mv)
            {
                s.note(Report {
                    method: "exact",
                    value: Some(Worth::Wins(plies)),
                    ..Report::default()
                });
                return Ok(Answer::Play(mv));
            }
            spent = proof.nodes();
        }
        let limit = whole.less(spent);
        Ok(
            match Solver::new(rules, s.at.history, limit).deepen(pos, candidates)? {
                Proof::Win(mv, plies) => {
                    s.note(Report {
                        method: "exact",
                        value: Some(Worth::Wins(plies)),
                        ..Report::default()
                    });
                    Answer::Play(mv)
                }
                Proof::Lost(mv) => {
                    s.noted("exact");
                    Answer::Play(mv)
                }
                Proof::Draws(draws) => {
                    s.note(Report {
                        method: "exact",
                        value: Some(Worth::Expected(0.5)),
                        ..Report::default()
                    });
                    draws.first().copied().into()
                }
                Proof::Open(open) if open.len() == 1 => {
                    s.noted("exact");
                    Answer::Play(open[0])
                }
                Proof::Open(open) if open.len() == candidates.len() => Answer::Pass,
                Proof::Open(open) => Answer::Among(open),
            },
        )
    }

    fn expected(&self, s: &Search<'_>, _: &mut Rng, _: Budget) -> Result<Option<f64>, ScriptError> {
        let value = Solver::new(
            s.at.rules,
            s.at.history,
            Limit::nodes(SOLVE_NODES).within(s.until),
        )
        .value_of(s.at.pos)?;
        Ok(value.map(|v| match v.signum() {
            1 => 1.0,
            0 => 0.5,
            _ => 0.0,
        }))
    }
}

impl Mcts {
    fn config(&self, rules: &Rulebook) -> mcts::Config {
        if self.plain {
            mcts::Config::PLAIN
        } else {
            mcts::Config::strong(rules)
        }
    }
}

/// What bounds an MCTS run within `s`: `budget`, the search's deadline,
/// and its scripts' budget on every thread that grows a tree.
fn bounds<'a>(s: &Search<'a>, budget: Budget) -> mcts::Bounds<'a> {
    mcts::Bounds {
        budget,
        until: s.until,
        scripts: s.scripts,
    }
}

impl Method for Mcts {
    fn best(
        &self,
        s: &Search<'_>,
        candidates: &[Move],
        rng: &mut Rng,
        budget: Budget,
    ) -> Result<Answer, ScriptError> {
        // Sampling can miss a short forced win among many moves; hard
        // looks for one first, within a fixed count of moves played.
        if !self.plain
            && let Some(mv) = tactics::win_in_two(
                s.at.rules,
                s.at.pos,
                s.at.history,
                s.at.keys,
                candidates,
                WIN_IN_TWO_NODES,
            )?
        {
            s.note(Report {
                method: "win in two",
                value: Some(Worth::Wins(3)),
                ..Report::default()
            });
            return Ok(Answer::Play(mv));
        }
        let config = self.config(s.at.rules);
        let mut memory = s.memory.map(RefCell::borrow_mut);
        let found = mcts::mcts(
            &s.at,
            candidates,
            rng,
            bounds(s, budget),
            config,
            memory.as_deref_mut(),
        )?;
        if let Some((_, value)) = found {
            s.note(Report {
                method: "mcts",
                value: Some(Worth::Expected(value)),
                ..Report::default()
            });
        }
        Ok(found.map(|(mv, _)| mv).into())
    }

    fn expected(
        &self,
        s: &Search<'_>,
        rng: &mut Rng,
        budget: Budget,
    ) -> Result<Option<f64>, ScriptError> {
        let mut list = MoveList::new();
        s.at.rules.legal_moves(s.at.pos, s.at.history, &mut list)?;
        let config = self.config(s.at.rules);
        let found = mcts::mcts(&s.at, &list, rng, bounds(s, budget), config, None)?;
        Ok(found.map(|(_, value)| value))
    }
}

/// The methods for `level` on `pos`, by the rulebook's shape (never its
/// name), most exact first.
pub(super) fn methods(
    rules: &Rulebook,
    pos: &Position,
    level: Level,
) -> &'static [&'static dyn Method] {
    if lines::suits(rules, pos) {
        return if level == Level::Hard && rows::applies(rules, pos) {
            &[&Rows, &Lines]
        } else if level == Level::Hard && threats::Threats::applies(rules) {
            &[&ThreatSpace, &Lines]
        } else {
            &[&Lines]
        };
    }
    if level != Level::Hard {
        return &[&PLAIN_MCTS];
    }
    if rules.mechanics().repetition().is_some() {
        if Graph::applies(rules) {
            &[&Retrograde, &STRONG_MCTS]
        } else {
            &[&STRONG_MCTS]
        }
    } else if Solver::applies(rules) {
        &[&Exact, &STRONG_MCTS]
    } else {
        &[&STRONG_MCTS]
    }
}

/// The value of each of `candidates` from the mover's side, from exact
/// `values` (a graph's or a table's; a win sooner is better, a loss later
/// is less bad), or `None` if they lack one of the positions the moves
/// lead to.
pub(super) fn rank(
    values: &dyn Values,
    at: &At<'_>,
    candidates: &[Move],
) -> Result<Option<Vec<Ranked>>, ScriptError> {
    let me = at.pos.turn();
    let mut ranked = Vec::with_capacity(candidates.len());
    for &mv in candidates {
        let mut next = at.rules.play_unchecked(at.pos, at.history, mv)?;
        // The values are of positions alone; the game's repetition rule may
        // already make this one a draw.
        at.rules.settle_repetition(&mut next, at.keys);
        let v = if next.is_over() {
            match next.outcome() {
                Some(Outcome::Win(side)) => Value::Win { side, plies: 0 },
                _ => Value::Draw,
            }
        } else {
            match values.value(&next) {
                Some(v) => v,
                None => return Ok(None),
            }
        };
        ranked.push((mv, rank_of(v, me), v));
    }
    Ok(Some(ranked))
}

/// A move, its value as a number for its mover (higher is better), and the
/// value of the position it leads to.
pub(super) type Ranked = (Move, i64, Value);

/// A value as a number for `side`: higher is better.
pub(super) fn rank_of(v: Value, side: Side) -> i64 {
    match v {
        Value::Draw => 0,
        Value::Win { side: s, plies } if s == side => i64::from(u32::MAX - plies),
        Value::Win { plies, .. } => -i64::from(u32::MAX - plies),
    }
}

/// A value as an expected score for `side`.
pub(super) fn score_of(v: Value, side: Side) -> f64 {
    match v {
        Value::Draw => 0.5,
        Value::Win { side: s, .. } if s == side => 1.0,
        Value::Win { .. } => 0.0,
    }
}

/// A threat search's alpha-beta value as a worth: beyond half of
/// [`threats::WIN`] it counts the plies to the end (a win at ply `p`
/// scores `WIN - p`).
pub(super) fn worth_of_alpha_beta(v: i32) -> Worth {
    use threats::WIN;
    if v >= WIN / 2 {
        Worth::Wins((WIN - v).unsigned_abs())
    } else if v <= -WIN / 2 {
        Worth::Loses((WIN + v).unsigned_abs())
    } else {
        Worth::Eval(v)
    }
}
