//! Conformance suite; the tests live in the test targets.
