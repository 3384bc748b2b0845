//! Threat sequences where a turn is one mark: the attacker plays a four
//! (or, reading threes, an open three), the defender's answers are only
//! those that stop it, and the attacker goes on from each, until a line
//! is made against every answer — a win by fours (VCF) or by fours and
//! threes (VCT). Each position settled is kept in the search's proofs, by depth.

use super::super::proofs::Kind;
use super::{Search, Unknown};
use crate::position::Side;

impl Search<'_, '_> {
    /// A first move of a win for `att` by a sequence of threats it can
    /// answer each time — fours only, or threes too — within `nodes`, and
    /// the plies to the win against the longest defence.
    pub(in crate::search::rows) fn threat_win(
        &mut self,
        att: Side,
        depth: u32,
        threes: bool,
        nodes: u64,
    ) -> Result<Option<(usize, u32)>, Unknown> {
        // The shortest first: a quick win is the better move, and a longer
        // sequence of threes is more often refuted by a reply the search
        // does not see.
        self.shortest_win(att, depth, nodes, |s, d| {
            Ok((s.attack(att, d, threes)?, true))
        })
    }

    /// The first of `attack`'s wins for `att` at depths 1 to `depth`, each
    /// within what is left of `nodes`; `attack` at a depth says what it
    /// found and whether a deeper look could find more. None where `att`
    /// is not to move: after the root's candidate the opponent is, and it
    /// is asked with the turn as it stands.
    pub(super) fn shortest_win(
        &mut self,
        att: Side,
        depth: u32,
        nodes: u64,
        mut attack: impl FnMut(&mut Self, u32) -> Result<(Option<(usize, u32)>, bool), Unknown>,
    ) -> Result<Option<(usize, u32)>, Unknown> {
        self.threat_nodes = 0;
        self.threat_limit = nodes;
        if self.board.turn != att {
            return Ok(None);
        }
        for d in 1..=depth {
            let (found, deeper) = attack(self, d)?;
            if found.is_some() || !deeper {
                return Ok(found);
            }
        }
        Ok(None)
    }

    fn attack(
        &mut self,
        att: Side,
        depth: u32,
        threes: bool,
    ) -> Result<Option<(usize, u32)>, Unknown> {
        self.threat_node()?;
        let b = &self.board;
        if let Some(&c) = b.wins(att, 1).first() {
            return Ok(Some((c, 1)));
        }
        let hash = b.hash;
        let kind = if threes { Kind::Threes } else { Kind::Fours };
        if let Some(settled) = self.proofs.get(hash, att, kind, depth) {
            return Ok(settled);
        }
        let found = self.attack_from(att, depth, threes)?;
        self.proofs.put(hash, att, kind, depth, found);
        Ok(found)
    }

    /// One more node of a threat sequence: `Unknown` once they are spent,
    /// or the time is.
    pub(super) fn threat_node(&mut self) -> Result<(), Unknown> {
        self.threat_nodes += 1;
        if self.threat_nodes > self.threat_limit
            || (self.threat_nodes.is_multiple_of(256) && self.late())
        {
            return Err(Unknown);
        }
        Ok(())
    }

    /// [`Search::attack`] where nothing is settled yet.
    fn attack_from(
        &mut self,
        att: Side,
        depth: u32,
        threes: bool,
    ) -> Result<Option<(usize, u32)>, Unknown> {
        let b = &self.board;
        let most = if b.shape.captures() { usize::MAX } else { 2 };
        let blocks = b.wins(att.other(), most);
        let cells: Vec<usize> = match blocks[..] {
            // The answer is forced: it goes on only if it threatens too.
            [_, ..] => self.answers(&blocks),
            [] if depth == 0 => return Ok(None),
            [] => {
                let mut cells: Vec<usize> = b.fours(att).into_iter().map(|(c, _)| c).collect();
                cells.dedup();
                if threes {
                    for c in b.three_cells(att) {
                        if !cells.contains(&c) {
                            cells.push(c);
                        }
                    }
                }
                if b.shape.forbids(att) {
                    cells.retain(|&c| b.may(att, c));
                }
                cells
            }
        };
        for c in cells {
            self.board.play(c);
            let won = self.defend(att, depth.saturating_sub(1), threes);
            self.board.undo(c);
            if let Some(plies) = won? {
                return Ok(Some((c, plies + 1)));
            }
        }
        Ok(None)
    }

    /// The plies to `att`'s win against the longest of every answer, if it
    /// wins against all, `att` having just moved.
    fn defend(&mut self, att: Side, depth: u32, threes: bool) -> Result<Option<u32>, Unknown> {
        let def = att.other();
        let b = &self.board;
        if b.has_win(def) {
            return Ok(None);
        }
        let most = if b.shape.captures() { usize::MAX } else { 2 };
        let wins = b.wins(att, most);
        let replies = if !wins.is_empty() {
            let answers = self.answers(&wins);
            if answers.is_empty() {
                // One blocked, the other completed; or the block is
                // forbidden to the defender, and the line is made.
                return Ok(Some(2));
            }
            answers
        } else {
            if !threes || depth == 0 {
                return Ok(None);
            }
            let threats = self.board.capture_threats(def);
            let b = &self.board;
            let made: Vec<usize> = (b.double_fours(att).into_iter())
                .filter(|&t| b.may(att, t))
                .collect();
            if made.is_empty() {
                return Ok(None);
            }
            // Only a mark on one of these stops every open four to come;
            // a four of the defender's own must be answered first.
            let mut replies = Vec::new();
            for &t in &made {
                b.stoppers(att, t, &mut replies);
            }
            let firsts = b.fours(def).into_iter().map(|(c, _)| c);
            let captures = b.capture_cells(def).into_iter();
            for c in firsts.chain(captures).chain(threats) {
                if !replies.contains(&c) {
                    replies.push(c);
                }
            }
            if b.shape.forbids(def) {
                replies.retain(|&c| b.may(def, c));
                if replies.is_empty() {
                    // No answer the defender may make: the open four comes,
                    // then the line.
                    return Ok(Some(4));
                }
            }
            replies
        };
        let mut longest = 0;
        for r in replies {
            self.board.play(r);
            let won = self.attack(att, depth, threes);
            self.board.undo(r);
            match won? {
                Some((_, plies)) => longest = longest.max(plies + 1),
                None => return Ok(None),
            }
        }
        Ok(Some(longest))
    }
}
