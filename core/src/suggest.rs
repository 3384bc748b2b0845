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
    candidates
        .into_iter()
        .map(|c| (osa_distance(&word.to_lowercase(), &c.to_lowercase()), c))
        .filter(|&(d, _)| d <= limit)
        .min_by_key(|&(d, _)| d)
        .map(|(_, c)| c)
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
