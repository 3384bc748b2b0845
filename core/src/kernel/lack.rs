//! Per winning window, how many of its cells each side still lacks, kept
//! through one game of placements: a placement wins when one of its
//! windows then lacks none. The kernel's line test where the rulebook's
//! lines are windows ([`WindowList`]); it replaces reading every window's
//! mask through the placed cell.

use crate::geometry::{Bits, Cell};
use crate::mechanics::WindowList;
use crate::position::Side;

/// Windows a [`WindowList`] can number.
const WINDOWS: usize = 1 << 16;

/// The counts of one game, reused from game to game.
#[derive(Debug)]
pub(crate) struct Lack {
    /// Per side, per window: the cells it still lacks. As many entries as
    /// a window's number can name, so that no count is bounds-checked;
    /// only the first windows of the list are ever touched.
    lack: [Box<[u8; WINDOWS]>; 2],
}

impl Default for Lack {
    fn default() -> Lack {
        // Built on the heap: a 64 KB array on the stack first would not do
        // for a search thread's small stack.
        let counts = || -> Box<[u8; WINDOWS]> {
            vec![0; WINDOWS]
                .into_boxed_slice()
                .try_into()
                .expect("WINDOWS entries")
        };
        Lack {
            lack: [counts(), counts()],
        }
    }
}

impl Lack {
    /// Counts the windows for the marks `marks` of a game's start.
    pub(crate) fn reset<const W: usize>(&mut self, list: &WindowList, marks: &[Bits<W>; 2]) {
        let sizes = list.sizes();
        for (lack, &own) in self.lack.iter_mut().zip(marks) {
            lack[..sizes.len()].copy_from_slice(sizes);
            for cell in own {
                for &id in list.through(cell) {
                    let l = &mut lack[usize::from(id)];
                    *l = l.saturating_sub(1);
                }
            }
        }
    }

    /// Counts `side`'s new mark on `cell`; whether it fills a window.
    #[inline(always)]
    pub(crate) fn place(&mut self, list: &WindowList, cell: Cell, side: Side) -> bool {
        let lack = &mut self.lack[side as usize];
        // Every window is counted, none skipped at the first full one: the
        // loop's branch stays predictable, and the game ends there anyway.
        let mut full = false;
        for &id in list.through(cell) {
            let l = &mut lack[usize::from(id)];
            *l = l.wrapping_sub(1);
            full |= *l == 0;
        }
        full
    }
}
