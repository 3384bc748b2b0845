//! The `gridrules` REPL and batch runner, over the `gridrules-core` engine.
//!
//! ```
//! let out = gridrules::batch::replay("a1\nb1\na2\nb2\na3\nstatus\n");
//! assert!(out.ends_with("> a3\nresult: X wins — a1 a2 a3\n> status\nresult: X wins — a1 a2 a3\n"));
//! ```

pub mod batch;
pub mod brain;
pub mod cli;
pub mod command;
pub mod diagnostic;
pub mod edge;
pub mod editor;
pub mod error;
pub mod layout;
pub mod render;
pub mod reply;
pub mod scaffold;
pub mod session;
pub mod table;
pub mod thinking;
pub mod watch;
