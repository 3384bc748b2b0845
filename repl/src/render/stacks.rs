//! A board of pieces that stack (`sizes()`): each cell shows its top piece
//! with its size (`XL`), then what lies beneath, top first, in brackets
//! (`XL(OM)`), as the position text writes it; every column is as wide as
//! the tallest stack can be, so the board stays square at any height.

use crate::edge::{self, Paint, outln};
use gridrules_core::{Cell, Game, Rulebook, Side};
use std::fmt::Write as _;

/// The characters of a column: the tallest stack as written, and a space.
pub(super) fn column_width(rulebook: &Rulebook) -> usize {
    let sizes = rulebook.mechanics().size_letters().len();
    // `XL`, then `(`, two characters a covered piece, `)`.
    let tallest = if sizes > 1 {
        2 + 2 * (sizes - 1) + 2
    } else {
        2
    };
    tallest + 1
}

/// The rows, top first, each after its number; the winning line and the
/// last move's cell marked as on any board.
pub(super) fn grid(out: &mut String, rulebook: &Rulebook, game: &Game, label: usize) {
    let g = rulebook.grid();
    let pos = game.position();
    let width = column_width(rulebook);
    let letters = rulebook.mechanics().size_letters();
    let last = game.moves().last().and_then(|m| m.to());
    let winning: Vec<Cell> = rulebook.decisive_runs(pos).concat();
    for r in (0..g.height()).rev() {
        let mut line = format!("{:>label$} ", r + 1);
        for c in 0..g.width() {
            let Some(cell) = g.cell(c.into(), r.into()) else {
                continue;
            };
            let pieces: Vec<(Side, usize)> = pos.stacks().pieces(cell).collect();
            let text = |(side, size): (Side, usize)| {
                format!("{side}{}", letters.get(size).copied().unwrap_or('?'))
            };
            let Some((&top, beneath)) = pieces.split_first() else {
                line.push_str(&format!("{:<width$}", "."));
                continue;
            };
            let marks: &[Paint] = if winning.contains(&cell) {
                &[Paint::Bold, Paint::Underline]
            } else if last == Some(cell) {
                &[Paint::Reverse]
            } else {
                &[]
            };
            let mut drawn: String = marks.iter().map(|&p| edge::paint(p)).collect();
            drawn.push_str(edge::paint(if top.0 == Side::X {
                Paint::X
            } else {
                Paint::O
            }));
            drawn.push_str(&text(top));
            drawn.push_str(edge::paint(Paint::Reset));
            let mut shown = 2;
            if !beneath.is_empty() {
                let under: String = beneath.iter().map(|&p| text(p)).collect();
                drawn.push_str(&edge::painted(Paint::Dim, &format!("({under})")));
                shown += under.len() + 2;
            }
            line.push_str(&drawn);
            line.push_str(&" ".repeat(width.saturating_sub(shown)));
        }
        outln!(out, "{}", line.trim_end());
    }
    let files: String = (0..g.width())
        .map(|c| format!("{:<width$}", char::from(b'a' + c as u8)))
        .collect();
    outln!(out, "{:>label$} {}", "", files.trim_end());
}

/// What each side holds, smallest first, and how a move is written.
pub(super) fn notes(out: &mut String, rulebook: &Rulebook, game: &Game) {
    let t = rulebook.mechanics();
    let pos = game.position();
    let letters = t.size_letters();
    let hand = |side: Side| {
        let held: String = (0..letters.len())
            .flat_map(|z| std::iter::repeat_n(letters[z], t.in_hand_of_size(pos, side, z) as usize))
            .collect();
        if held.is_empty() {
            "nothing".to_string()
        } else {
            held
        }
    };
    outln!(out, "in hand: X {}, O {}", hand(Side::X), hand(Side::O));
    if !game.is_over() {
        let largest = letters.last().copied().unwrap_or('L');
        outln!(
            out,
            "b2={largest} puts a piece from hand, a1-b2 moves one that shows; larger covers smaller"
        );
    }
}
