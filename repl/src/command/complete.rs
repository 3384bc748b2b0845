//! Completion, read from the registry: the first word completes to a
//! command or a legal move, later words to what the command's entry says
//! its argument is.

use super::entry::Arg;
use super::registry::{COMMANDS, spec};
use gridrules_core::Rulebook;

/// What may replace the word being typed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Candidates {
    /// These words: those that start with the word typed.
    Words(Vec<String>),
    /// A file's path: the line editor's own file completion.
    Files,
}

/// Completes the last word of `before` (the line up to the cursor): where
/// that word starts, and what may replace it. `moves` gives the legal
/// moves, asked for only when a move may come next.
pub fn complete(before: &str, moves: impl FnOnce() -> Vec<String>) -> (usize, Candidates) {
    let start = before.rfind(char::is_whitespace).map_or(0, |i| i + 1);
    let word = &before[start..];
    let commands = || COMMANDS.iter().map(|c| c.name.to_string());
    let starting = |words: &mut dyn Iterator<Item = String>| {
        Candidates::Words(words.filter(|w| w.starts_with(word)).collect())
    };
    let Some(first) = before[..start].split_whitespace().next() else {
        return (start, starting(&mut commands().chain(moves())));
    };
    let found = match spec(first).map_or(Arg::Nothing, |s| s.arg) {
        Arg::Nothing => Candidates::Words(Vec::new()),
        Arg::Move => starting(&mut moves().into_iter()),
        Arg::Rulebook => starting(&mut Rulebook::builtin_names().map(str::to_string)),
        Arg::Command => starting(&mut commands()),
        Arg::Word(list) => starting(&mut list.iter().map(|w| w.to_string())),
        Arg::File => Candidates::Files,
    };
    (start, found)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(before: &str) -> (usize, Candidates) {
        complete(before, || vec!["a1".to_string(), "b2".to_string()])
    }

    #[test]
    fn first_words_then_arguments() {
        let named = |w: &[&str]| Candidates::Words(w.iter().map(|w| w.to_string()).collect());
        assert_eq!(words("und"), (0, named(&["undo"])));
        assert_eq!(words("b"), (0, named(&["bench", "b2"])));
        assert_eq!(words("play a"), (5, named(&["a1"])));
        assert_eq!(words("vs h"), (3, named(&["hard"])));
        assert_eq!(words("help und"), (5, named(&["undo"])));
        assert_eq!(words("legal x"), (6, named(&[])));
        assert_eq!(words("save ga"), (5, Candidates::Files));
    }
}
