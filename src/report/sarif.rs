//! SARIF 2.1.0 output (the OASIS Static Analysis Results Interchange Format, read by code-scanning
//! services): one result per method whose bound is unbounded, unknown, regressed, changed or
//! violated, located at the method's first line in its source file and named by its fully
//! qualified name.
//!
//! **The log validates against the SARIF 2.1.0 schema (`tests/data/report/sarif-schema-2.1.0.json`,
//! checked by `tests/report_formats.rs`); every rule is listed in the driver in a fixed order, so
//! `ruleIndex` is stable; a result of a change has level `error` exactly when the change fails the
//! run, otherwise its rule's default level.**

use super::summary::{MethodSummary, Status, Summary};
use crate::baseline::compare::ChangeKind;
use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};
use serde::Serialize;

/// The `$schema` of the logs.
pub const SARIF_SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// The rules, in `ruleIndex` order: id, name, short description, full description, default level.
const RULES: [(&str, &str, &str, &str, &str); 5] = [
    (
        "jresa/unbounded",
        "UnboundedCost",
        "No cost bound: a loop or recursion has no ranking function",
        "jresa found no ranking function for a loop or recursion of this method, so its cost has no upper bound (it may not terminate for some inputs).",
        "warning",
    ),
    (
        "jresa/unknown",
        "UnknownCost",
        "No cost bound could be derived",
        "jresa could not bound the cost of this method for a reason other than a loop: a call it cannot resolve, an analysis budget, or bytecode it does not lift.",
        "note",
    ),
    (
        "jresa/regressed",
        "CostRegression",
        "The cost bound grew against the baseline",
        "The method's cost bound is larger than in the committed baseline: a larger complexity class, a larger bound in the same class, or a lost bound.",
        "warning",
    ),
    (
        "jresa/changed",
        "CostChanged",
        "The cost bound changed incomparably against the baseline",
        "The method's cost bound is neither below nor above its baseline bound: incomparable classes, or bounds that cross.",
        "warning",
    ),
    (
        "jresa/violated",
        "CostViolated",
        "A specification or a measurement contradicts the cost bound",
        "A cost specification of this method does not hold, or an execution cost more than its bound.",
        "error",
    ),
];

#[derive(Serialize)]
struct Log<'a> {
    #[serde(rename = "$schema")]
    schema: &'a str,
    version: &'a str,
    runs: Vec<Run<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Run<'a> {
    tool: Tool<'a>,
    results: Vec<SarifResult>,
    properties: RunProperties<'a>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RunProperties<'a> {
    command: &'a str,
    cost_model: &'a str,
}

#[derive(Serialize)]
struct Tool<'a> {
    driver: Driver<'a>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Driver<'a> {
    name: &'a str,
    version: &'a str,
    rules: Vec<Rule<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Rule<'a> {
    id: &'a str,
    name: &'a str,
    short_description: Text,
    full_description: Text,
    default_configuration: Configuration<'a>,
}

#[derive(Serialize)]
struct Configuration<'a> {
    level: &'a str,
}

#[derive(Serialize)]
struct Text {
    text: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifResult {
    rule_id: &'static str,
    rule_index: usize,
    level: &'static str,
    message: Text,
    locations: Vec<Location>,
    partial_fingerprints: Fingerprints,
    properties: ResultProperties,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Location {
    #[serde(skip_serializing_if = "Option::is_none")]
    physical_location: Option<PhysicalLocation>,
    logical_locations: Vec<LogicalLocation>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PhysicalLocation {
    artifact_location: ArtifactLocation,
    #[serde(skip_serializing_if = "Option::is_none")]
    region: Option<Region>,
}

#[derive(Serialize)]
struct ArtifactLocation {
    uri: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Region {
    start_line: u32,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct LogicalLocation {
    name: String,
    fully_qualified_name: String,
    kind: &'static str,
}

/// Stable identity of a result across runs (the method), so that code scanning tracks it.
#[derive(Serialize)]
struct Fingerprints {
    #[serde(rename = "jresaMethod/v1")]
    method: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ResultProperties {
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    bound: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    complexity: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    baseline_bound: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    baseline_complexity: Option<String>,
}

/// Characters a URI path keeps as they are (RFC 3986 unreserved characters and `/`).
const PATH: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'/')
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// The rule (by index into `RULES`) a method is reported under, if any.
fn rule_of(m: &MethodSummary) -> Option<usize> {
    match m.change.as_ref().map(|c| c.kind) {
        Some(ChangeKind::Regressed) => return Some(2),
        Some(ChangeKind::Changed) => return Some(3),
        Some(ChangeKind::Removed) => return None,
        _ => {}
    }
    match m.status {
        Status::Bounded => None,
        Status::Unbounded => Some(0),
        Status::Unknown | Status::Error => Some(1),
        Status::Violated => Some(4),
    }
}

fn message_of(m: &MethodSummary, rule: usize) -> String {
    let method = m.qualified_name();
    let why = m.message.as_deref().map(|r| format!(": {r}")).unwrap_or_default();
    let now = match (&m.bound, &m.complexity) {
        (Some(bound), Some(class)) => format!("{bound} ({class})"),
        _ => m.status.name().to_owned(),
    };
    match (rule, &m.change) {
        (2 | 3, Some(change)) => {
            let was = match (&change.old_bound, &change.old_complexity) {
                (Some(bound), Some(class)) => format!("{bound} ({class})"),
                _ => change.old_status.map_or("absent", |s| s.name()).to_owned(),
            };
            let verb = if rule == 2 { "regressed" } else { "changed" };
            let reason = if m.bound.is_none() { why } else { String::new() };
            format!("{method} {verb}: {}. Was {was}, now {now}{reason}.", change.detail)
        }
        (0, _) => format!("{method} has no cost bound{why}."),
        (4, _) => format!("{method} violates its cost bound{why}."),
        _ => format!("{method}: cost unknown{why}."),
    }
}

fn result_of(m: &MethodSummary, rule: usize) -> SarifResult {
    let fails = m.change.as_ref().is_some_and(|c| c.fails);
    let level = if fails { "error" } else { RULES[rule].4 };
    let physical_location = m.source_path.as_ref().map(|path| PhysicalLocation {
        artifact_location: ArtifactLocation {
            uri: match path.strip_prefix('/') {
                // Outside the working directory: an absolute file URI.
                Some(_) => format!("file://{}", utf8_percent_encode(path, PATH)),
                None => utf8_percent_encode(path, PATH).to_string(),
            },
        },
        // Lines count from 1; a corrupt `LineNumberTable` may say 0.
        region: m.line.filter(|line| *line >= 1).map(|start_line| Region { start_line }),
    });
    SarifResult {
        rule_id: RULES[rule].0,
        rule_index: rule,
        level,
        message: Text {
            text: message_of(m, rule),
        },
        locations: vec![Location {
            physical_location,
            logical_locations: vec![LogicalLocation {
                name: m.name.clone(),
                fully_qualified_name: m.qualified_name(),
                kind: "function",
            }],
        }],
        partial_fingerprints: Fingerprints {
            method: m.qualified_name(),
        },
        properties: ResultProperties {
            status: m.status.name(),
            bound: m.bound.clone(),
            complexity: m.complexity.clone(),
            baseline_bound: m.change.as_ref().and_then(|c| c.old_bound.clone()),
            baseline_complexity: m.change.as_ref().and_then(|c| c.old_complexity.clone()),
        },
    }
}

/// The SARIF log of a run, as pretty JSON.
pub fn sarif(summary: &Summary) -> String {
    let rules = RULES
        .iter()
        .map(|(id, name, short, full, level)| Rule {
            id,
            name,
            short_description: Text { text: (*short).into() },
            full_description: Text { text: (*full).into() },
            default_configuration: Configuration { level },
        })
        .collect();
    let results = summary
        .methods
        .iter()
        .filter_map(|m| rule_of(m).map(|rule| result_of(m, rule)))
        .collect();
    let log = Log {
        schema: SARIF_SCHEMA,
        version: "2.1.0",
        runs: vec![Run {
            tool: Tool {
                driver: Driver {
                    name: "jresa",
                    version: env!("CARGO_PKG_VERSION"),
                    rules,
                },
            },
            results,
            properties: RunProperties {
                command: &summary.command,
                cost_model: &summary.cost_model,
            },
        }],
    };
    super::json(&log)
}
