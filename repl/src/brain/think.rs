//! The brain's move within the manager's time: a plan of deadlines, one
//! per stage, and the stages — search, the move found without search, the
//! tables' move.

use gridrules_core::playout::Rng;
use gridrules_core::script::ScriptBudget;
use gridrules_core::script::hooks::HookId;
use gridrules_core::search::{self, Budget, Level, Report, Request};
use gridrules_core::{Game, Move, MoveList, ScriptError, ScriptErrorKind};
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// The time the scripts get when there is none ("as fast as possible", or
/// the match time used up): enough to place a stone and answer at once.
const NO_TIME_SCRIPTS: Duration = Duration::from_millis(100);

/// The deadlines of one move, counted from when its command was read. Each
/// stage has one, scripts included; the last stage runs none.
#[derive(Debug, Clone, Copy)]
pub(super) struct Plan {
    /// The search's budget (none without time), the rest a margin for the
    /// stages after it.
    pub(super) think: Option<Duration>,
    /// When the search thread stops, its scripts too.
    pub(super) search_by: Instant,
    /// How long the answer waits for the search thread.
    pub(super) wait_until: Instant,
    /// When the move found without search must be ready, its scripts
    /// stopped. Past it, the tables alone choose, at once.
    pub(super) fallback_by: Instant,
    /// When every script the command runs must have stopped.
    pub(super) scripts_by: Instant,
}

/// Where each of [`Plan`]'s stages ends, in thousandths of the time for a
/// move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Shares {
    think: u32,
    search: u32,
    wait: u32,
    fallback: u32,
    scripts: u32,
}

/// A rulebook with per-move hooks: a margin at every stage for a hook
/// that overruns it.
pub(super) const HOOKED: Shares = Shares {
    think: 667,
    search: 700,
    wait: 750,
    fallback: 880,
    scripts: 900,
};

/// A rulebook without (gomoku, renju and every k in a row the brain
/// plays): its search stops within a few milliseconds of its deadline and
/// the stages after it run no script, so it thinks longer — still a
/// twentieth of the time between its stop and the wait's end.
pub(super) const PLAIN: Shares = Shares {
    think: 820,
    search: 850,
    wait: 900,
    fallback: 940,
    scripts: 960,
};

impl Plan {
    pub(super) fn new(started: Instant, allowance: Duration, shares: Shares) -> Plan {
        let share = |d: Duration, n: u32| d * n / 1000;
        let think = (!allowance.is_zero()).then_some(share(allowance, shares.think));
        let a = allowance.max(NO_TIME_SCRIPTS);
        Plan {
            think,
            search_by: started + share(a, shares.search),
            wait_until: started + share(a, shares.wait),
            fallback_by: started + share(a, shares.fallback),
            scripts_by: started + share(a, shares.scripts),
        }
    }
}

/// Why a script stopped at each deadline (its error says "ran out of
/// time: …").
pub(super) const COMMAND_TIME: &str = "a brain's command has nine tenths of the time for a move";
const SEARCH_TIME: &str = "the brain's search stops at seven tenths of the time for a move";
const FALLBACK_TIME: &str =
    "the move found without search is due at 88 hundredths of the time for a move";

/// Whether `e` is a script stopped for time, past `by`: the stage ran out
/// of time rather than failing.
pub(super) fn out_of_time(e: &ScriptError, by: Instant) -> bool {
    e.kind == ScriptErrorKind::Limit && Instant::now() >= by
}

/// Hard's move in `game` by `plan`'s deadlines, and how it was found (the
/// `MESSAGE` line's text). Each stage has a deadline, its scripts too:
///
/// 1. the search, on a thread of its own: it stops, scripts and all, at
///    `search_by`; the answer waits for it until `wait_until`;
/// 2. should it overrun (or with no time at all), the move found without
///    search (`search::at_once`), its scripts stopped at `fallback_by`;
/// 3. should that run out of time too, the move the rulebook's tables
///    alone give (`search::by_tables`), which runs no script.
pub(super) fn choose(
    game: &Game,
    plan: Plan,
    nodes: Option<u64>,
    started: Instant,
    seed: u64,
) -> Result<(Move, String), String> {
    let searched = match plan.think {
        None => Err("no time to search"),
        Some(think) => {
            // A cap in nodes stands in for the time, within the same
            // deadlines: the move then repeats whatever the machine.
            let budget = nodes.map_or(Budget::Time(think), Budget::of_nodes);
            let (send, receive) = channel();
            let searched = game.clone();
            let spawned = std::thread::Builder::new()
                .name("brain-search".to_string())
                .stack_size(16 << 20)
                .spawn(move || {
                    // The thread's scripts (and its workers') stop when
                    // its search does.
                    let mut rng = Rng::new(seed);
                    let mut report = Report::default();
                    let chosen = ScriptBudget::until(plan.search_by, SEARCH_TIME).run(|| {
                        let request = Request::new(Level::Hard, budget)
                            .deadline(plan.search_by)
                            .report(&mut report);
                        search::choose(&searched, request, &mut rng)
                    });
                    let _ = send.send(chosen.map(|mv| (mv, report)));
                });
            match spawned {
                Ok(_) => receive
                    .recv_timeout(plan.wait_until.saturating_duration_since(Instant::now()))
                    .map_err(|e| match e {
                        RecvTimeoutError::Timeout => "the search ran out of time",
                        RecvTimeoutError::Disconnected => "the search failed",
                    }),
                Err(_) => Err("the search could not start"),
            }
        }
    };
    let (mv, how) = match searched {
        Ok(Ok((Some(mv), report))) => (mv, report.to_string()),
        Ok(Ok((None, _))) => return Err("no move left: the game is over".to_string()),
        Ok(Err(e)) if out_of_time(&e, plan.search_by) => {
            fallback(game, "the search ran out of time", plan, seed)?
        }
        Ok(Err(e)) => return Err(e.to_string()),
        Err(why) => fallback(game, why, plan, seed)?,
    };
    Ok((mv, format!("{how} tm {}", started.elapsed().as_millis())))
}

/// The move found without search, `why` there was none; its scripts stop
/// at `plan.fallback_by`, and past it the rulebook's tables alone choose:
/// among the legal moves if listing them (which asks the `refuse` hook)
/// was done in time, else among the empty cells.
fn fallback(game: &Game, why: &str, plan: Plan, seed: u64) -> Result<(Move, String), String> {
    let mut rng = Rng::new(seed);
    let mut legal = None;
    let found = ScriptBudget::until(plan.fallback_by, FALLBACK_TIME).run(|| {
        let mut list = MoveList::new();
        game.rulebook()
            .legal_moves(game.position(), game.moves(), &mut list)?;
        legal = Some(list.to_vec());
        search::at_once_among(game, list.to_vec(), &mut rng)
    });
    match found {
        Ok(Some(mv)) => Ok((mv, format!("{why}: static evaluation"))),
        Ok(None) => Err("no move left: the game is over".to_string()),
        Err(e) if out_of_time(&e, plan.fallback_by) => {
            let refuse = game.rulebook().script().defines(HookId::Refuse);
            let mv = search::by_tables(game, legal.as_deref(), &mut rng)
                .ok_or_else(|| format!("{why}, and its scripts too: {e}"))?;
            let unasked = if legal.is_none() && refuse {
                ", the refuse hook not asked"
            } else {
                ""
            };
            Ok((
                mv,
                format!(
                    "{why}, and the static evaluation's scripts too: the tables' move{unasked}"
                ),
            ))
        }
        Err(e) => Err(e.to_string()),
    }
}
