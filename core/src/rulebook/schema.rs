//! The rulebook file as written: a serde mirror of the TOML, never used after
//! validation (cargo's `TomlManifest` split).

use serde::Deserialize;
use std::collections::BTreeMap;
use toml::Spanned;

/// A rulebook file, parsed but not yet checked.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawRulebook {
    pub name: Spanned<String>,
    pub title: String,
    #[serde(default)]
    pub description: Option<String>,
    pub script: Spanned<String>,
    #[serde(default)]
    pub roles: Option<Spanned<Vec<String>>>,
    pub board: Spanned<RawBoard>,
    #[serde(default)]
    pub params: BTreeMap<Spanned<String>, Spanned<toml::Value>>,
    #[serde(default)]
    pub table: RawTable,
    #[serde(default)]
    pub refusals: BTreeMap<Spanned<String>, Spanned<String>>,
    #[serde(default, rename = "example")]
    pub examples: Vec<Spanned<RawExample>>,
}

/// `[[example]]`: a documented example, run by `gridrules check`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawExample {
    pub rule: Spanned<String>,
    pub text: String,
    #[serde(default)]
    pub setup: Option<String>,
    #[serde(default)]
    pub moves: String,
    pub expect: Spanned<String>,
}

/// `[table]`: how people play the variant at a table (clock, rematches).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawTable {
    pub clock: Option<Spanned<i64>>,
    pub clock_options: Option<Spanned<Vec<i64>>>,
    pub alternate: Option<bool>,
    pub pie: Option<bool>,
    pub timeout_move: Option<Spanned<String>>,
    pub ai_playouts: Option<Spanned<i64>>,
}

/// `[board]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawBoard {
    pub width: Spanned<i64>,
    pub height: Spanned<i64>,
    #[serde(default)]
    pub layers: Option<Spanned<i64>>,
}
