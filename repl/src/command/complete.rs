//! Completion, read from the registry: the first word completes to a
//! command or a legal move, later words to what the command's entry says
//! its argument is.

use super::entry::{Arg, Ask, Place, Want};
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
        /// The kind of `.toml` file asked for, where one is.
        want: Option<Want>,
    },
}

/// What completion asks of the session, only when a word may come from it.
pub trait Known {
    /// The words the session offers for `ask`, as it stands.
    fn words(&self, ask: Ask) -> Vec<String>;
}

/// Completes the last word of `before` (the line up to the cursor): where
/// that word starts, and what may replace it.
pub fn complete(before: &str, known: &impl Known) -> (usize, Candidates) {
    let start = before.rfind(char::is_whitespace).map_or(0, |i| i + 1);
    let word = &before[start..];
    let mut done = before[..start].split_whitespace();
    let found = match done.next() {
        // The first word: a command, or a move to play.
        None => starting(
            word,
            COMMANDS
                .iter()
                .map(|c| c.name.to_string())
                .chain(known.words(Ask::Moves)),
        ),
        Some(first) => {
            // The words already typed after the command's name.
            let args: Vec<&str> = done.collect();
            let arg = spec(first).map_or(Arg::NOTHING, |s| s.arg);
            match place(arg, &args, word) {
                Ok(Some(place)) => offer(place, word, known),
                Ok(None) => Candidates::Words(Vec::new()),
                Err(options) => starting(word, options.iter().map(|(o, _)| o.to_string())),
            }
        }
    };
    (start, found)
}

/// What the word after `args` may be; `Err` with the options where one
/// is being typed.
fn place(
    arg: Arg,
    args: &[&str],
    word: &str,
) -> Result<Option<Place>, &'static [(&'static str, Place)]> {
    Ok(match arg {
        // A path may hold spaces: every word is part of it.
        Arg::File(ext) => Some(Place::File(ext)),
        Arg::Kind(want) => Some(Place::Kind(want)),
        Arg::Then(first, then) => match args {
            [] => Some(Place::Word(first)),
            [before] => then
                .iter()
                .find(|(w, _)| w.eq_ignore_ascii_case(before))
                .map(|&(_, list)| Place::Word(list)),
            _ => None,
        },
        Arg::Places(places, options) => {
            // An option takes the word after it; the others count by place.
            let mut at = 0;
            let mut words = args.iter();
            while let Some(w) = words.next() {
                match options.iter().find(|(o, _)| o == w) {
                    Some(&(_, value)) if words.len() == 0 => return Ok(Some(value)),
                    Some(_) => {
                        words.next();
                    }
                    None => at += 1,
                }
            }
            if word.starts_with('-') && !options.is_empty() {
                return Err(options);
            }
            places.get(at).copied()
        }
    })
}

/// The words of `words` that start with `word`, in either case: commands
/// and moves are read so (`STATUS`, `C3/1+`).
fn starting(word: &str, words: impl Iterator<Item = String>) -> Candidates {
    let word = word.to_lowercase();
    Candidates::Words(
        words
            .filter(|w| w.to_lowercase().starts_with(&word))
            .collect(),
    )
}

/// What may replace `word` where `place` is asked for.
fn offer(place: Place, word: &str, known: &impl Known) -> Candidates {
    let fixed = |list: &[&str]| starting(word, list.iter().map(|w| w.to_string()));
    let files = |ext, names: &mut dyn Iterator<Item = &str>, want| Candidates::Files {
        ext,
        words: names
            .filter(|w| w.starts_with(word))
            .map(str::to_string)
            .collect(),
        want,
    };
    match place {
        Place::Typed => Candidates::Words(Vec::new()),
        Place::Command => starting(word, COMMANDS.iter().map(|c| c.name.to_string())),
        Place::Word(list) => fixed(list),
        Place::Rulebook(more) => files(
            Some("toml"),
            &mut Rulebook::builtin_names().chain(more.iter().copied()),
            Some(Want::Rulebook),
        ),
        Place::File(ext) => files(ext, &mut std::iter::empty(), None),
        Place::Kind(want) => files(Some("toml"), &mut std::iter::empty(), Some(want)),
        Place::WordOrFile(list) => files(None, &mut list.iter().copied(), None),
        Place::Known(ask) => starting(word, known.words(ask).into_iter()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A session at which the person plays O against the computer, X
    /// having offered a draw before the first move.
    struct AtO;

    impl Known for AtO {
        fn words(&self, ask: Ask) -> Vec<String> {
            let words: &[&str] = match ask {
                Ask::Moves => &["a1", "b2"],
                Ask::OwnSides => &["O"],
                Ask::DrawActions => &["accept", "decline"],
                Ask::Seats => &["1", "2", "Ada"],
            };
            words.iter().map(|w| w.to_string()).collect()
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
        // Read in either case, completed in either case.
        assert_eq!(words("UND"), (0, named(&["undo"])));
        assert_eq!(words("play A"), (5, named(&["a1"])));
        assert_eq!(words("b"), (0, named(&["bench", "b2"])));
        assert_eq!(words("play a"), (5, named(&["a1"])));
        assert_eq!(words("vs h"), (3, named(&["hard"])));
        assert_eq!(words("help und"), (5, named(&["undo"])));
        assert_eq!(words("legal x"), (6, named(&[])));
        let files = |ext, w: &[&str]| Candidates::Files {
            ext,
            words: w.iter().map(|w| w.to_string()).collect(),
            want: None,
        };
        // A record is saved over a record, never a rulebook.
        assert_eq!(
            words("save ga"),
            (
                5,
                Candidates::Files {
                    ext: Some("toml"),
                    words: Vec::new(),
                    want: Some(Want::Record),
                }
            )
        );
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
            want: Some(Want::Rulebook),
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

    /// What only the session knows is asked of it: `draw <Tab>` offered
    /// `accept` with no offer standing, `first <Tab>` seats mid-game.
    #[test]
    fn words_the_session_knows_come_from_it() {
        assert_eq!(words("draw "), (5, named(&["accept", "decline"])));
        assert_eq!(words("first A"), (6, named(&["Ada"])));
    }

    /// Options complete anywhere, and the word after one from its own
    /// place: `--from <Tab>` and arena's players offered nothing.
    #[test]
    fn options_and_the_words_after_them() {
        let files = |ext, w: &[&str]| Candidates::Files {
            ext,
            words: w.iter().map(|w| w.to_string()).collect(),
            want: None,
        };
        assert_eq!(
            words("new-variant mine --from gomoku-s"),
            (
                24,
                Candidates::Files {
                    ext: Some("toml"),
                    words: vec!["gomoku-swap".to_string()],
                    want: Some(Want::Rulebook),
                }
            )
        );
        assert_eq!(words("new-variant mine --dir "), (23, files(None, &[])));
        assert_eq!(
            words("new-variant mine --"),
            (17, named(&["--from", "--dir"]))
        );
        assert_eq!(words("new-variant "), (12, named(&[])));
        assert_eq!(words("arena classic h"), (14, files(None, &["hard"])));
        assert_eq!(
            words("arena classic hard --seed 3 m"),
            (28, files(None, &["medium"]))
        );
        assert_eq!(words("arena classic hard medium "), (26, named(&[])));
        assert_eq!(
            words("arena classic hard medium 10 --openings "),
            (40, files(Some("txt"), &[]))
        );
        assert_eq!(
            words("arena classic --t"),
            (14, named(&["--time", "--threads"]))
        );
    }
}
