//! Validation of inferred bounds by execution (the stack-code VM lands here).
