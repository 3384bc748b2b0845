//! "Did you mean": the valid name nearest to a misspelt one, by edit
//! distance, for the messages that refuse a name.
//!
//! ```
//! use gridrules_core::suggest::nearest;
//!
//! assert_eq!(nearest("widht", ["width", "height"]), Some("width"));
//! assert_eq!(nearest("colour", ["width", "height"]), None);
//! ```

use strsim::osa_distance;

/// The candidate nearest to `word`, if one is near enough to be a slip:
/// at most one edit for short names, a third of the length for longer
/// ones (an adjacent swap counts as one edit: Damerau–Levenshtein distance,
/// optimal string alignment). Ties go to the first.
pub fn nearest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (word.chars().count() / 3).max(1);
    let typed = folded(word);
    let lower = word.to_lowercase();
    // Folded only where both keep a few characters: `nine` folds to `9`,
    // one edit from `four`'s `4`, and is no slip for it.
    let distance = |c: &str| {
        let raw = osa_distance(&lower, &c.to_lowercase());
        let theirs = folded(c);
        if typed.chars().count() < 3 || theirs.chars().count() < 3 {
            raw
        } else {
            raw.min(osa_distance(&typed, &theirs))
        }
    };
    candidates
        .into_iter()
        .map(|c| (distance(c), c))
        .filter(|&(d, _)| d <= limit)
        // Ties go to the nearer as written (`X win`: `X wins`, not `win`).
        .min_by_key(|&(d, c)| (d, osa_distance(&lower, &c.to_lowercase())))
        .map(|(_, c)| c)
}

/// A name as compared: lower case, its numbers in digits and nothing but
/// letters and digits, so that `connect4` and `connect 4` are
/// `connect-four` (they were one edit from `connect6`), and `3 mens
/// morris` is `three-mens-morris`.
fn folded(name: &str) -> String {
    const NUMBERS: [&str; 12] = [
        "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
        "twelve",
    ];
    let lower = name.to_lowercase();
    lower
        .split(|c: char| !c.is_alphanumeric())
        .map(|word| match NUMBERS.iter().position(|&n| n == word) {
            Some(i) => (i + 1).to_string(),
            None => word.to_string(),
        })
        .collect()
}

/// `did you mean `x`?` when one of `candidates` is near `word`: the `help:`
/// of a problem that refuses a name.
pub fn did_you_mean<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<String> {
    nearest(word, candidates).map(|near| format!("did you mean `{near}`?"))
}

/// `message` with `: did you mean `x`?` added when one of `candidates` is
/// near `word`.
pub fn with_hint<'a>(
    message: String,
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> String {
    match nearest(word, candidates) {
        Some(near) => format!("{message}: did you mean `{near}`?"),
        None => message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slips_are_found_and_strangers_are_not() {
        let keys = ["width", "height", "script", "table", "occupied"];
        for (typed, meant) in [
            ("widht", Some("width")),
            ("scirpt", Some("script")),
            ("tabel", Some("table")),
            ("ocupied", Some("occupied")),
            ("Width", Some("width")),
            ("size", None),
            ("x", None),
        ] {
            assert_eq!(nearest(typed, keys), meant, "{typed}");
        }
    }

    /// A name's number in digits or words, with or without hyphens and
    /// spaces, is the name (`connect4` was taken for `connect6`).
    #[test]
    fn numbers_and_hyphens_are_read_alike() {
        let names = [
            "connect6",
            "connect-four",
            "three-mens-morris",
            "nine-mens-morris",
        ];
        for (typed, meant) in [
            ("connect4", "connect-four"),
            ("connect 4", "connect-four"),
            ("Connect-Four", "connect-four"),
            ("connect7", "connect6"),
            ("3 mens morris", "three-mens-morris"),
            ("nine men's morris", "nine-mens-morris"),
        ] {
            assert_eq!(nearest(typed, names), Some(meant), "{typed}");
        }
        // A number alone is no slip for a name that is a number.
        for typed in ["nine", "one", "4", "c4"] {
            assert_eq!(nearest(typed, ["four", "classic"]), None, "{typed}");
        }
        for (typed, meant) in [("X win", "X wins"), ("O wins", "O wins")] {
            let names = ["draw", "loss", "win", "X wins", "O wins"];
            assert_eq!(nearest(typed, names), Some(meant), "{typed}");
        }
    }

    #[test]
    fn distances_count_swaps_as_one() {
        assert_eq!(osa_distance("ab", "ba"), 1);
        assert_eq!(osa_distance("kitten", "sitting"), 3);
        assert_eq!(osa_distance("", "abc"), 3);
        // Optimal string alignment: a swapped pair is not edited again
        // (unrestricted Damerau–Levenshtein would count 2).
        assert_eq!(osa_distance("ca", "abc"), 3);
    }
}
