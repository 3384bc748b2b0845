//! What the search that chose a move found, for a status line: the
//! Gomocup brain's `MESSAGE`, in the words some managers' logs parse
//! (GomocupJudgeLocal reads `depth`, `ev`, `n`, `tm`; Piskvork shows the
//! text).

use std::fmt;

/// How a move was chosen, and what the method found on the way.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Report {
    /// The method that chose: `only move`, `win in one`, `random`,
    /// `continuous fours`, `alpha-beta`, `lines`, `exact`, `retrograde`,
    /// `mcts`, or `first candidate` when every method passed; empty before
    /// a choice.
    pub method: &'static str,
    /// Plies the last complete alpha-beta pass searched.
    pub depth: Option<u32>,
    /// Nodes alpha-beta visited.
    pub nodes: Option<u64>,
    /// What the chosen move is worth to its mover.
    pub value: Option<Worth>,
    /// The search's cap or a stop ended a search whose budget is counted
    /// in playouts before it was spent: the same seed may choose another
    /// move.
    pub cut: bool,
}

/// A chosen move's worth to its mover.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Worth {
    /// A heuristic evaluation: above 0 favours the mover.
    Eval(i32),
    /// The mover wins within so many plies, whatever the reply: every
    /// reply for the exact methods and continuous fours, every reply
    /// alpha-beta looked at (the most promising few) for it.
    Wins(u32),
    /// The opponent wins within so many plies, whatever the mover does
    /// (with alpha-beta: of the moves it looked at).
    Loses(u32),
    /// The mover's expected score, 0 (loss) to 1 (win).
    Expected(f64),
}

impl fmt::Display for Report {
    /// `alpha-beta: depth 6 ev 12 n 41523`: words a manager's log parser
    /// reads (a key, a space, its value).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.method.is_empty() {
            "no search"
        } else {
            self.method
        })?;
        let mut sep = ": ";
        if let Some(depth) = self.depth {
            write!(f, "{sep}depth {depth}")?;
            sep = " ";
        }
        if let Some(value) = self.value {
            f.write_str(sep)?;
            sep = " ";
            match value {
                Worth::Eval(v) => write!(f, "ev {v}")?,
                Worth::Wins(plies) => write!(f, "ev win in {plies}")?,
                Worth::Loses(plies) => write!(f, "ev loss in {plies}")?,
                Worth::Expected(p) => write!(f, "ev {p:.2}")?,
            }
        }
        if let Some(nodes) = self.nodes {
            write!(f, "{sep}n {nodes}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_as_keys_and_values() {
        let r = Report {
            method: "alpha-beta",
            depth: Some(6),
            nodes: Some(41_523),
            value: Some(Worth::Eval(-12)),
            ..Report::default()
        };
        assert_eq!(r.to_string(), "alpha-beta: depth 6 ev -12 n 41523");
        let r = Report {
            method: "mcts",
            value: Some(Worth::Expected(0.6)),
            ..Report::default()
        };
        assert_eq!(r.to_string(), "mcts: ev 0.60");
        let r = Report {
            method: "continuous fours",
            value: Some(Worth::Wins(7)),
            ..Report::default()
        };
        assert_eq!(r.to_string(), "continuous fours: ev win in 7");
        assert_eq!(Report::default().to_string(), "no search");
    }
}
