//! Numbers as ordinals (`1st`, `13th`) for what a message counts: the
//! entries of a hook's answer, a side's moves.

/// `n` as an ordinal, `1st` to `13th` and on: what a hook's answer holds
/// is counted so, as "line 13" read as a line of the script.
///
/// ```
/// assert_eq!(gridrules_core::ordinal::ordinal(13), "13th");
/// ```
pub fn ordinal(n: usize) -> String {
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
        let said: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 112]
            .map(ordinal)
            .into();
        assert_eq!(
            said,
            [
                "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st",
                "112th"
            ]
        );
    }
}
