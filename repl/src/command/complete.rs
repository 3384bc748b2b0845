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
    /// A file's path from the line editor's own file completion: those
    /// ending in `ext` (and folders) where given; beside them `words`.
    Files {
        /// The extension a file offered ends in, if only one does.
        ext: Option<&'static str>,
        /// Words offered beside the files (rulebook names).
        words: Vec<String>,
    },
}

/// What completion asks of the session, only when a word may come from it.
pub trait Known {
    /// The legal moves, as written.
    fn moves(&self) -> Vec<String>;
    /// The sides the person at the keyboard plays (both between two people).
    fn own_sides(&self) -> Vec<String>;
}

/// Completes the last word of `before` (the line up to the cursor): where
/// that word starts, and what may replace it.
pub fn complete(before: &str, known: &impl Known) -> (usize, Candidates) {
    let start = before.rfind(char::is_whitespace).map_or(0, |i| i + 1);
    let word = &before[start..];
    let commands = || COMMANDS.iter().map(|c| c.name.to_string());
    let starting = |words: &mut dyn Iterator<Item = String>| {
        Candidates::Words(words.filter(|w| w.starts_with(word)).collect())
    };
    let fixed = |list: &[&str]| starting(&mut list.iter().map(|w| w.to_string()));
    let mut done = before[..start].split_whitespace();
    let Some(first) = done.next() else {
        return (start, starting(&mut commands().chain(known.moves())));
    };
    // The words already typed after the command's name.
    let args: Vec<&str> = done.collect();
    let arg = spec(first).map_or(Arg::Nothing, |s| s.arg);
    let found = match (arg, &args[..]) {
        // A path may hold spaces; every other word completes from what
        // its place takes (one move at a time).
        (Arg::File(ext), _) => Candidates::Files {
            ext,
            words: Vec::new(),
        },
        (Arg::Then(_, then), [before]) => {
            let next = then.iter().find(|(w, _)| w.eq_ignore_ascii_case(before));
            fixed(next.map_or(&[][..], |&(_, list)| list))
        }
        (_, [_, ..]) | (Arg::Nothing, _) => Candidates::Words(Vec::new()),
        (Arg::Rulebook | Arg::RulebookOr(_), []) => {
            let more = match arg {
                Arg::RulebookOr(more) => more,
                _ => &[],
            };
            let names = Rulebook::builtin_names().chain(more.iter().copied());
            Candidates::Files {
                ext: Some("toml"),
                words: names
                    .filter(|w| w.starts_with(word))
                    .map(str::to_string)
                    .collect(),
            }
        }
        (Arg::Command, []) => starting(&mut commands()),
        (Arg::Move, []) => starting(&mut known.moves().into_iter()),
        (Arg::Word(list) | Arg::Then(list, _), []) => fixed(list),
        (Arg::OwnSide, []) => starting(&mut known.own_sides().into_iter()),
    };
    (start, found)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A session at which the person plays O against the computer.
    struct AtO;

    impl Known for AtO {
        fn moves(&self) -> Vec<String> {
            vec!["a1".to_string(), "b2".to_string()]
        }
        fn own_sides(&self) -> Vec<String> {
            vec!["O".to_string()]
        }
    }

    fn words(before: &str) -> (usize, Candidates) {
        complete(before, &AtO)
    }

    fn named(w: &[&str]) -> Candidates {
        Candidates::Words(w.iter().map(|w| w.to_string()).collect())
    }

    #[test]
    fn first_words_then_arguments() {
        assert_eq!(words("und"), (0, named(&["undo"])));
        assert_eq!(words("b"), (0, named(&["bench", "b2"])));
        assert_eq!(words("play a"), (5, named(&["a1"])));
        assert_eq!(words("vs h"), (3, named(&["hard"])));
        assert_eq!(words("help und"), (5, named(&["undo"])));
        assert_eq!(words("legal x"), (6, named(&[])));
        let files = |ext, w: &[&str]| Candidates::Files {
            ext,
            words: w.iter().map(|w| w.to_string()).collect(),
        };
        assert_eq!(words("save ga"), (5, files(Some("toml"), &[])));
        assert_eq!(words("record s"), (7, files(None, &[])));
    }

    /// Each word after the command's name completes from the list for its
    /// place: `ai time <Tab>` offered the levels again, `check <Tab>` no
    /// `all`, `resign <Tab>` the computer's side, which is refused.
    #[test]
    fn later_words_complete_from_their_own_place() {
        assert_eq!(words("ai time "), (8, named(&["default"])));
        assert_eq!(words("ai hard "), (8, named(&[])));
        assert_eq!(words("vs hard "), (8, named(&["X", "O"])));
        assert_eq!(words("vs off "), (7, named(&[])));
        assert_eq!(words("vs hard X "), (10, named(&[])));
        // A rulebook is a built-in's name or a .toml file.
        let rulebooks = |w: &[&str]| Candidates::Files {
            ext: Some("toml"),
            words: w.iter().map(|w| w.to_string()).collect(),
        };
        assert_eq!(words("check a"), (6, rulebooks(&["all"])));
        assert_eq!(
            words("new ul"),
            (4, rulebooks(&["ultimate", "ultimate-both"]))
        );
        assert_eq!(words("new my"), (4, rulebooks(&[])));
        assert_eq!(
            words("arena gom"),
            (6, rulebooks(&["gomoku", "gomoku-swap"]))
        );
        assert_eq!(words("resign "), (7, named(&["O"])));
        assert_eq!(words("pie on "), (7, named(&[])));
        assert_eq!(words("play a1 b"), (8, named(&[])));
    }
}
