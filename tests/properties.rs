//! Property tests (proptest) of the parsers that read untrusted text —
//! notation, position text, records, command lines — on arbitrary input:
//! they answer or refuse, never panic, and what they accept reads back the
//! same. `tests/fuzz.rs` round-trips what the engine writes.

use gridrules::command::parse;
use gridrules_core::{Rulebook, record};
use proptest::prelude::*;
use std::path::Path;
use std::sync::OnceLock;

/// Every built-in rulebook, loaded once.
fn rulebooks() -> &'static [Rulebook] {
    static ALL: OnceLock<Vec<Rulebook>> = OnceLock::new();
    ALL.get_or_init(|| {
        Rulebook::builtin_names()
            .map(|n| Rulebook::builtin(n).unwrap())
            .collect()
    })
}

/// Text near the notation: cells, steps, marks, columns, and stray bytes.
fn notation() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z]{0,2}[0-9]{0,3}(-[a-z]{0,2}[0-9]{0,3})?(=[XOxo?])?",
        ".{0,12}",
    ]
}

/// Text near a position: rows of digits and marks, a side, the fields.
fn position_text() -> impl Strategy<Value = String> {
    prop_oneof![
        "([XO0-9]{0,20}/){0,20}[XO0-9]{0,20}( [XOZ])?( [0-9,]{0,5}| -)?( [0-9]{1,3}| -)?( [0-9/]{0,5})?( swapped)?",
        ".{0,40}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn moves_parse_or_are_refused_and_read_back(text in notation(), which in 0usize..64) {
        let r = &rulebooks()[which % rulebooks().len()];
        let pos = r.initial();
        if let Ok(mv) = r.parse_move(&pos, &[], &text) {
            prop_assert_eq!(r.parse_move(&pos, &[], &r.move_text(mv)).ok(), Some(mv));
        }
    }

    #[test]
    fn positions_parse_or_are_refused_and_read_back(text in position_text(), which in 0usize..64) {
        let r = &rulebooks()[which % rulebooks().len()];
        if let Ok(pos) = r.parse_position(&text) {
            let written = r.position_text(&pos);
            let again = r.parse_position(&written).map(|p| (p.key(), r.position_text(&p)));
            prop_assert_eq!(again.ok(), Some((pos.key(), written)));
        }
    }

    #[test]
    fn records_open_or_are_refused(
        moves in "[a-i1-9 \\-=XO]{0,40}",
        extra in "(start|result|ending|clock|pie|x) = (\"[^\"\\\\]{0,12}\"|[0-9]{1,12}|true)",
        which in 0usize..64,
    ) {
        let name = Rulebook::builtin_names().nth(which % rulebooks().len()).unwrap();
        let text = format!("rulebook = \"{name}\"\nmoves = \"{moves}\"\n{extra}\n");
        if let Err(e) = record::parse(&text, "p.toml", Path::new(".")) {
            prop_assert!(!e.to_string().is_empty());
        }
    }

    #[test]
    fn command_lines_parse_to_their_usual_form(line in ".{0,30}") {
        if let Ok(inv) = parse(&line) {
            prop_assert_eq!(parse(&inv.text).ok(), Some(inv));
        }
    }
}
