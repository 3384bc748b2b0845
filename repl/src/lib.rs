//! The `gridrules` REPL and batch runner.
