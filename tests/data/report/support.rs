//! Shared by the report tests (`tests/report_formats.rs`, `tests/validate_report.rs`; the module
//! `report_support` of `tests/suite.rs`): running the `jresa` binary and checking SARIF logs against the 2.1.0 schema.

#![allow(dead_code)]

use std::path::Path;
use std::process::Command;
use std::sync::OnceLock;

/// What a run of `jresa` printed and returned.
pub struct Output {
    pub stdout: String,
    pub stderr: String,
    pub code: i32,
}

/// Runs `jresa` with `args` in `dir`.
pub fn jresa(dir: &Path, args: &[&str]) -> Output {
    let output = Command::new(env!("CARGO_BIN_EXE_jresa"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("jresa runs");
    Output {
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        code: output.status.code().unwrap_or(-1),
    }
}

/// Checks a SARIF log against the SARIF 2.1.0 schema (formats included) and returns its results.
pub fn validate_sarif(text: &str) -> Vec<serde_json::Value> {
    static SCHEMA: OnceLock<jsonschema::Validator> = OnceLock::new();
    let validator = SCHEMA.get_or_init(|| {
        let schema_text = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/report/sarif-schema-2.1.0.json"),
        )
        .expect("the schema");
        let schema: serde_json::Value = serde_json::from_str(&schema_text).expect("the schema is JSON");
        jsonschema::draft7::options()
            .should_validate_formats(true)
            .build(&schema)
            .expect("the SARIF schema compiles")
    });
    let log: serde_json::Value = serde_json::from_str(text).expect("the SARIF log is JSON");
    let errors: Vec<String> = validator
        .iter_errors(&log)
        .map(|e| format!("{e} at {}", e.instance_path))
        .collect();
    assert!(
        errors.is_empty(),
        "the SARIF log violates the schema:\n{}",
        errors.join("\n")
    );
    assert_eq!(log["version"], "2.1.0");
    log["runs"][0]["results"].as_array().cloned().unwrap_or_default()
}
