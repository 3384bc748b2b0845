//! Numbers as ordinals for what a message counts: a repetition, the
//! entries of a hook's answer, a side's moves.

/// `first` to `tenth` in words, then `11th`, `12th`, … `21st`: "line 13"
/// read as a line of the script, and "move 1" as a name.
///
/// ```
/// use gridrules_core::ordinal::ordinal;
/// assert_eq!(ordinal(3), "third");
/// assert_eq!(ordinal(13), "13th");
/// ```
pub fn ordinal(n: usize) -> String {
    const WORDS: [&str; 10] = [
        "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
        "tenth",
    ];
    if let Some(word) = n.checked_sub(1).and_then(|i| WORDS.get(i)) {
        return (*word).to_string();
    }
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::ordinal;

    #[test]
    fn ordinals() {
        let said: Vec<String> = [0, 1, 2, 3, 10, 11, 12, 13, 21, 22, 23, 101, 112]
            .map(ordinal)
            .into();
        assert_eq!(
            said,
            [
                "0th", "first", "second", "third", "tenth", "11th", "12th", "13th", "21st", "22nd",
                "23rd", "101st", "112th"
            ]
        );
    }
}
