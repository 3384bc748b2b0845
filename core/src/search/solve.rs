//! Exact values: a position solved by alpha-beta or over its graph of
//! positions, or why it cannot be.

use super::exact::{FirstWin, Solver, WIN, forcing};
use super::methods::{Ranked, rank, rank_of};
use super::request::Limit;
use super::retrograde::{Graph, Unbuilt, Value, Values};
use super::table::{Stage, Table};
use super::{At, Until};
use crate::error::ScriptError;
use crate::interrupt::Interrupt;
use crate::position::{Move, MoveList, Outcome, Side};
use crate::script::ScriptBudget;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A position's value under perfect play and the moves that keep it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    /// The value, with the plies to the end when a side wins.
    pub value: Value,
    /// The legal moves that keep the value (a win still a win, a draw still
    /// at least a draw), best first; a lost position's moves all lose, and
    /// those that hold out longest are listed.
    pub moves: Vec<Move>,
    /// Positions can come back and no repetition rule ends such play: a
    /// draw then means that neither side can force a win (the game may go
    /// on forever); a win is forced all the same.
    pub endless: bool,
}

/// A win shown where the whole tree is too large to value every move: a
/// move that wins at once, or, where lines force replies, a sequence of
/// threats to win that the loser can only answer, to the end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Won {
    /// How the win was shown.
    pub shown: Shown,
    /// The side that wins.
    pub side: Side,
    /// The plies to the win: the fewest when `quickest`, else at most so
    /// many.
    pub plies: u32,
    /// Whether a search of every move, to its end, showed no quicker win.
    pub quickest: bool,
}

impl Won {
    /// Where the side to move wins, a move that wins in `plies`; where it
    /// loses, none: every move loses.
    pub fn first_move(&self) -> Option<Move> {
        match &self.shown {
            Shown::AtOnce(moves) => moves.first().copied(),
            Shown::Threats(first) => *first,
        }
    }
}

/// How a [`Won`] was shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shown {
    /// Moves that end the game won, every one of them (never none), with
    /// every other move unvalued.
    AtOnce(Vec<Move>),
    /// A sequence of threats: where the side to move wins, the move that
    /// starts it; where it loses, none.
    Threats(Option<Move>),
}

/// What [`solve`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Solved {
    /// The exact value.
    Exact(Solution),
    /// A win, shown by threats or by a move that wins at once, where the
    /// exact value of every move is beyond reach.
    Won(Won),
    /// More positions than the exact methods hold, whatever the time.
    TooLarge,
    /// The time ran out (or the solve was interrupted) first.
    OutOfTime,
    /// No exact method applies: a repetition rule with per-move hooks (which
    /// may read the path) or with the pie rule (which exchanges players).
    Unsupported,
}

/// The exact value of the position `from` a game or a position ([`At`])
/// within `within` of computing, else a win shown by threats or by a move
/// that wins at once, or why there is neither. Games with a repetition
/// rule are solved over their graph of positions, others by alpha-beta. Where `from` holds the game's earlier
/// positions, a move that would repeat a position for the last time
/// allowed is a draw.
///
/// # Errors
/// A failing per-move hook.
pub fn solve<'a>(
    from: impl Into<At<'a>>,
    within: Duration,
    stop: &Interrupt,
) -> Result<Solved, ScriptError> {
    solve_watched(from, within, stop, &mut |_, _, _| {})
}

/// [`solve`], telling `progress` how far the solving of a table of every
/// position has come (the one method that can take minutes: Teeko's 170
/// million positions take a few on two cores): its [`Stage`], the
/// positions done and how many there are.
///
/// # Errors
/// A failing per-move hook.
pub fn solve_watched<'a>(
    from: impl Into<At<'a>>,
    within: Duration,
    stop: &Interrupt,
    progress: &mut dyn FnMut(Stage, u64, u64),
) -> Result<Solved, ScriptError> {
    let at = from.into();
    // Slow per-move hooks must not hold the answer past its time: the
    // scripts stop there too, and the time is up.
    let deadline = Instant::now().checked_add(within);
    let scripts = deadline.map_or(ScriptBudget::UNLIMITED, |end| {
        ScriptBudget::until(end, "solve's time ran out")
    });
    let expired = || stop.is_raised() || deadline.is_some_and(|end| Instant::now() >= end);
    let solved = match scripts.run(|| solve_exactly(&at, within, stop, progress)) {
        // A script stopped by the time or the stop, not a hook's own fault.
        Err(e) if e.kind == crate::error::ScriptErrorKind::Limit && expired() => Solved::OutOfTime,
        other => other?,
    };
    if !matches!(
        solved,
        Solved::TooLarge | Solved::OutOfTime | Solved::Unsupported
    ) || stop.is_raised()
    {
        return Ok(solved);
    }
    // Whatever the size of the game, a move that wins at once is a win.
    let wins = match stop.settle(wins_at_once(&at).map(Some))? {
        Some(wins) => wins,
        None => return Ok(solved),
    };
    Ok(if wins.is_empty() {
        solved
    } else {
        Solved::Won(Won {
            shown: Shown::AtOnce(wins),
            side: at.pos.turn(),
            plies: 1,
            quickest: true,
        })
    })
}

/// Every legal move of `at`'s side to move that ends the game won for it.
fn wins_at_once(at: &At<'_>) -> Result<Vec<Move>, ScriptError> {
    let mut list = MoveList::new();
    at.rules.legal_moves(at.pos, at.history, &mut list)?;
    super::tactics::winning_moves(at.rules, at.pos, at.history, &list)
}

/// [`solve_watched`] by the exact methods and the threats alone.
fn solve_exactly(
    at: &At<'_>,
    within: Duration,
    stop: &Interrupt,
    progress: &mut dyn FnMut(Stage, u64, u64),
) -> Result<Solved, ScriptError> {
    let at = *at;
    let (rules, pos, history) = (at.rules, at.pos, at.history);
    if let Some(o) = pos.outcome() {
        let value = match o {
            Outcome::Draw => Value::Draw,
            Outcome::Win(side) => Value::Win { side, plies: 0 },
        };
        return Ok(Solved::Exact(Solution {
            value,
            moves: Vec::new(),
            endless: false,
        }));
    }
    let mut list = MoveList::new();
    rules.legal_moves(pos, history, &mut list)?;
    let moves = list.to_vec();
    let started = Instant::now();
    let limit = Limit::time(within, stop);
    let expired = || stop.is_raised() || started.elapsed() >= within;
    let me = pos.turn();
    // Over the graph of positions: where a repetition rule ends cycles, or
    // where alpha-beta cannot (below).
    let mut by_graph = |limit: &Limit<'_>| -> Result<Result<Vec<Ranked>, Solved>, ScriptError> {
        if !Graph::applies(rules) {
            return Ok(Err(Solved::Unsupported));
        }
        // Kept from an earlier solve, or built from here; a table of every
        // position where the graph from here is too large.
        let values: Arc<dyn Values> = match Graph::of_rulebook(rules, limit)? {
            Some(g) if g.value(pos).is_some() => g,
            _ if expired() => return Ok(Err(Solved::OutOfTime)),
            _ => match Table::kept(rules).filter(|t| t.value(pos).is_some()) {
                Some(t) => t,
                None => match Graph::build(rules, pos, limit)? {
                    Ok(g) => Arc::new(g),
                    Err(Unbuilt::OutOfTime) => return Ok(Err(Solved::OutOfTime)),
                    Err(Unbuilt::TooLarge) => match Table::of_rulebook(rules, limit, progress)? {
                        Some(t) if t.value(pos).is_some() => t,
                        _ if expired() => return Ok(Err(Solved::OutOfTime)),
                        _ => return Ok(Err(Solved::TooLarge)),
                    },
                },
            },
        };
        Ok(rank(&*values, &at, &moves)?.ok_or(Solved::TooLarge))
    };
    let ranked = if rules.mechanics().repetition().is_some() || !Solver::applies(rules) {
        match by_graph(&limit)? {
            Ok(r) => r,
            Err(why) => return Ok(why),
        }
    } else {
        let until = Until::at_or_stopped(started + within, stop);
        // Where lines force replies, a win by threats answers at once; the
        // exact value of every move, which lists every winning move, is
        // then given nodes in proportion to the time, no more.
        let won = if forcing(rules) {
            by_threats(&at, &moves, until)?
        } else {
            None
        };
        let nodes = match won {
            Some(_) => (within.as_secs_f64() * EXACT_NODES_PER_SECOND) as u64,
            None => u64::MAX,
        };
        let Some(values) =
            Solver::new(rules, history, Limit::nodes(nodes).within(until)).values(pos, &moves)?
        else {
            if let Some(won) = won {
                return Ok(Solved::Won(won));
            }
            if expired() {
                return Ok(Solved::OutOfTime);
            }
            if !rules.mechanics().positions_recur() {
                return Ok(Solved::TooLarge);
            }
            // Alpha-beta never ends where positions come back with no
            // repetition rule to end the play (pieces that move): the graph
            // holds the cycles, and a side that can keep them going is not
            // beaten.
            return Ok(match by_graph(&limit)? {
                Ok(ranked) => solution(ranked, true).map_or(Solved::TooLarge, Solved::Exact),
                Err(why) => why,
            });
        };
        moves
            .iter()
            .zip(values)
            .map(|(&m, v)| {
                // Values are the mover's, who after a swap plays the other side.
                let mover = if m == Move::Swap { me.other() } else { me };
                let value = match v.signum() {
                    0 => Value::Draw,
                    // Plies from the position the move leads to, as the graph counts.
                    1 => Value::Win {
                        side: mover,
                        plies: (WIN - v) as u32 - 1,
                    },
                    _ => Value::Win {
                        side: mover.other(),
                        plies: (WIN + v) as u32 - 1,
                    },
                };
                (m, rank_of(value, mover), value)
            })
            .collect()
    };
    Ok(solution(ranked, false).map_or(Solved::TooLarge, Solved::Exact))
}

/// Nodes a threat proof may visit.
const THREAT_NODES: u64 = 2_000_000;
/// Nodes the search for a quicker win than the threats' may visit.
const QUICKER_NODES: u64 = 2_000_000;
/// Nodes the exact value of every move may take once a win by threats is
/// shown, per second `solve` is given (2 million at its default 10 s).
const EXACT_NODES_PER_SECOND: f64 = 200_000.0;

/// A win by threats from `at`, whose legal moves are `list`, for the side
/// to move, or against it after every move, within `until`; the plies the
/// fewest where a search of every move, to its end, shows no quicker win
/// for the side to move.
fn by_threats(at: &At<'_>, list: &[Move], until: Until<'_>) -> Result<Option<Won>, ScriptError> {
    let (rules, pos, history) = (at.rules, at.pos, at.history);
    let me = pos.turn();
    let limit = |nodes| Limit::nodes(nodes).within(until);
    let proof = |history: &[Move]| Solver::new(rules, history, limit(THREAT_NODES));
    match proof(history).threat_win(pos)? {
        FirstWin::Win(mv, plies) => {
            let quicker =
                Solver::new(rules, history, limit(QUICKER_NODES)).quicker_win(pos, list, plies)?;
            let (mv, plies, quickest) = match quicker {
                FirstWin::Win(m, p) => (m, p, true),
                FirstWin::NoWin => (mv, plies, true),
                FirstWin::Unknown => (mv, plies, false),
            };
            return Ok(Some(Won {
                shown: Shown::Threats(Some(mv)),
                side: me,
                plies,
                quickest,
            }));
        }
        // Not known: nor, then, is a loss after every move.
        FirstWin::Unknown => return Ok(None),
        FirstWin::NoWin => {}
    }
    // Lost: the opponent wins by threats after every move.
    let mut longest = 0;
    let mut line = history.to_vec();
    for &mv in list {
        let next = rules.play_unchecked(pos, history, mv)?;
        line.push(mv);
        let theirs = proof(&line).threat_win(&next)?;
        line.pop();
        match theirs {
            FirstWin::Win(_, plies) => longest = longest.max(plies),
            FirstWin::NoWin | FirstWin::Unknown => return Ok(None),
        }
    }
    Ok((!list.is_empty()).then(|| Won {
        shown: Shown::Threats(None),
        side: me.other(),
        plies: longest + 1,
        quickest: false,
    }))
}

/// The solution from each move's rank for its mover: the best move's
/// value one ply earlier, and the moves that keep it. `None` without moves.
fn solution(mut ranked: Vec<Ranked>, endless: bool) -> Option<Solution> {
    ranked.sort_by_key(|&(_, r, _)| std::cmp::Reverse(r));
    let &(_, best, best_value) = ranked.first()?;
    let value = match best_value {
        Value::Draw => Value::Draw,
        Value::Win { side, plies } => Value::Win {
            side,
            plies: plies + 1,
        },
    };
    let moves = ranked
        .into_iter()
        .filter(|&(_, r, _)| r.signum() == best.signum() && (best >= 0 || r == best))
        .map(|(m, _, _)| m)
        .collect();
    Some(Solution {
        value,
        moves,
        endless,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Side;
    use crate::rulebook::Rulebook;
    use crate::search::exact::random_position;
    use crate::search::retrograde::reachable;

    #[test]
    fn retrograde_agrees_with_alpha_beta_where_there_are_no_cycles() {
        for name in ["classic", "misere", "notakto", "wild"] {
            let rules = Rulebook::builtin(name).unwrap();
            let graph = Graph::of_rulebook(&rules, &Limit::unbounded())
                .unwrap()
                .expect("small");
            for pos in reachable(&rules) {
                let exact = Solver::new(&rules, &[], Limit::unbounded())
                    .value_of(&pos)
                    .unwrap()
                    .unwrap();
                let me = pos.turn();
                let expected = match exact.signum() {
                    0 => Value::Draw,
                    1 => Value::Win {
                        side: me,
                        plies: (WIN - exact) as u32,
                    },
                    _ => Value::Win {
                        side: me.other(),
                        plies: (WIN + exact) as u32,
                    },
                };
                let text = rules.position_text(&pos);
                assert_eq!(graph.value(&pos), Some(expected), "{name}: {text}");
            }
        }
    }

    /// The retrograde values of games with cycles, checked move by move: a
    /// win in `d` has a move to a win in `d - 1` (and none quicker); a loss
    /// in `d` has only moves to wins for the other side, the longest in
    /// `d - 1`; a draw has no winning move and some move that does not lose.
    /// Together with finite distances this proves every value.
    #[test]
    fn retrograde_values_hold_move_by_move_in_games_with_cycles() {
        for name in ["moving", "moving-jumps", "three-mens-morris"] {
            let rules = Rulebook::builtin(name).unwrap();
            let graph = Graph::of_rulebook(&rules, &Limit::unbounded())
                .unwrap()
                .expect("small");
            let mut list = MoveList::new();
            let mut drawn = 0;
            for pos in reachable(&rules) {
                let text = rules.position_text(&pos);
                let value = graph.value(&pos).unwrap();
                if let Some(o) = pos.outcome() {
                    let expected = match o {
                        Outcome::Draw => Value::Draw,
                        Outcome::Win(side) => Value::Win { side, plies: 0 },
                    };
                    assert_eq!(value, expected, "{name}: {text}");
                    continue;
                }
                let me = pos.turn();
                rules.legal_moves(&pos, &[], &mut list).unwrap();
                let children: Vec<Value> = list
                    .iter()
                    .map(|&m| {
                        graph
                            .value(&rules.play_unchecked(&pos, &[], m).unwrap())
                            .unwrap()
                    })
                    .collect();
                let wins = |side: Side| {
                    children.iter().filter_map(move |&v| match v {
                        Value::Win { side: s, plies } if s == side => Some(plies),
                        _ => None,
                    })
                };
                match value {
                    Value::Win { side, plies } if side == me => {
                        assert_eq!(wins(me).min(), Some(plies - 1), "{name}: {text}");
                    }
                    Value::Win { side, plies } => {
                        assert_eq!(wins(side).count(), children.len(), "{name}: {text}");
                        assert_eq!(wins(side).max(), Some(plies - 1), "{name}: {text}");
                    }
                    Value::Draw => {
                        drawn += 1;
                        assert_eq!(wins(me).count(), 0, "{name}: {text}");
                        assert!(children.contains(&Value::Draw), "{name}: {text}");
                    }
                }
            }
            assert!(
                drawn > 0,
                "{name}: no drawn position: the cycles go untested"
            );
        }
    }

    /// On 3×3×3 positions small enough to value exactly, a win by threats
    /// (for the side to move, or against it after every move) names the
    /// winner, no fewer plies than the exact ones, the same where it says
    /// they are the fewest, and a move that wins that soon.
    #[test]
    fn wins_by_threats_agree_with_the_exact_values_on_cube3() {
        use crate::playout::Rng;
        let rules = Rulebook::builtin("cube3").unwrap();
        let mut rng = Rng::new(9);
        let (mut won, mut lost) = (0, 0);
        for _ in 0..300 {
            let plies = 4 + rng.below(7);
            let Some((pos, mut line)) = random_position(&rules, &mut rng, plies) else {
                continue;
            };
            let at = At::new(&rules, &pos, &line);
            let mut list = MoveList::new();
            rules.legal_moves(&pos, &line, &mut list).unwrap();
            let Some(w) = by_threats(&at, &list, Until::never()).unwrap() else {
                continue;
            };
            let Ok(Solved::Exact(exact)) = solve(at, Duration::from_secs(60), &Interrupt::new())
            else {
                panic!("cube3 is small");
            };
            let text = rules.position_text(&pos);
            let Value::Win { side, plies } = exact.value else {
                panic!("a win by threats in a draw: {text}");
            };
            assert_eq!(side, w.side, "{text}");
            assert!(plies <= w.plies, "{plies} > {}: {text}", w.plies);
            if w.quickest {
                assert_eq!(plies, w.plies, "{text}");
            }
            match w.first_move() {
                Some(mv) => {
                    won += 1;
                    assert_eq!(side, pos.turn(), "{text}");
                    let next = rules.play_unchecked(&pos, &line, mv).unwrap();
                    line.push(mv);
                    let after = solve(
                        At::new(&rules, &next, &line),
                        Duration::from_secs(60),
                        &Interrupt::new(),
                    );
                    let Ok(Solved::Exact(Solution {
                        value: Value::Win { side: s, plies: p },
                        ..
                    })) = after
                    else {
                        panic!("{mv:?} wins: {text}");
                    };
                    assert_eq!(s, side, "{text}");
                    assert!(p < w.plies, "{mv:?} wins within {}: {text}", w.plies);
                }
                None => {
                    lost += 1;
                    assert_eq!(side, pos.turn().other(), "{text}");
                }
            }
        }
        assert!(won >= 30 && lost >= 5, "{won} won, {lost} lost");
    }
}
