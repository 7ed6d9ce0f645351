//! Baselines: the committed JSON file of each method's bound that `jresa ci` compares a run with,
//! and the comparison itself (`compare.rs`).
//!
//! A baseline holds, per method (class, name, descriptor), its status, its bound as printed text,
//! its class and its parameter names (so a later run can match renamed parameters by position).
//! **Methods are sorted by class, name and descriptor, so a rewritten baseline diffs line by line
//! against the old one; reading never panics, and a malformed file is an error naming where.**

pub mod compare;

use crate::analyze::{cost_model_name, AnalysisReport, AnalysisStatus};
use jresa_analyses::cost_model::CostModel;
use serde::{Deserialize, Serialize};

/// Version of the baseline format.
pub const BASELINE_VERSION: u32 = 1;

/// A baseline file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Baseline {
    pub version: u32,
    #[serde(with = "cost_model_name")]
    pub cost_model: CostModel,
    pub methods: Vec<BaselineMethod>,
}

/// One method's accepted result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BaselineMethod {
    /// Binary name with dots.
    pub class: String,
    pub name: String,
    pub descriptor: String,
    pub status: AnalysisStatus,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub upper_bound: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub complexity: Option<String>,
    /// The names the bound uses for the parameters, in order.
    #[serde(default)]
    pub parameters: Vec<String>,
    /// Whether the method was shown not to terminate (a witness input confirmed by execution).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub nonterminating: bool,
}

impl BaselineMethod {
    /// `class.name descriptor`, the identity of a method across runs.
    pub fn key(&self) -> (&str, &str, &str) {
        (&self.class, &self.name, &self.descriptor)
    }
}

impl Baseline {
    /// The baseline that accepts every result of `report`.
    pub fn of(report: &AnalysisReport) -> Baseline {
        let mut methods: Vec<BaselineMethod> = report
            .methods
            .iter()
            .map(|m| BaselineMethod {
                class: m.class.clone(),
                name: m.name.clone(),
                descriptor: m.descriptor.clone(),
                status: m.status,
                upper_bound: m.upper_bound.clone(),
                complexity: m.complexity.clone(),
                parameters: m.parameters.clone(),
                nonterminating: m.terminates == Some(false),
            })
            .collect();
        methods.sort_by(|a, b| a.key().cmp(&b.key()));
        methods.dedup_by(|a, b| a.key() == b.key());
        Baseline {
            version: BASELINE_VERSION,
            cost_model: report.cost_model,
            methods,
        }
    }

    /// `old` updated with the results of `report`: the methods `covered` selects (those the run
    /// was asked about) are replaced by the run's results, the others kept.
    pub fn updated(
        old: Option<&Baseline>,
        report: &AnalysisReport,
        covered: &dyn Fn(&BaselineMethod) -> bool,
    ) -> Baseline {
        let mut fresh = Baseline::of(report);
        if let Some(old) = old.filter(|old| old.cost_model == report.cost_model) {
            let kept: Vec<BaselineMethod> = old
                .methods
                .iter()
                .filter(|m| !covered(m) && !fresh.methods.iter().any(|f| f.key() == m.key()))
                .cloned()
                .collect();
            fresh.methods.extend(kept);
            fresh.methods.sort_by(|a, b| a.key().cmp(&b.key()));
        }
        fresh
    }

    /// Reads a baseline from its JSON text; the error names the line and column.
    pub fn from_json(text: &str) -> Result<Baseline, String> {
        let baseline: Baseline = serde_json::from_str(text).map_err(|error| error.to_string())?;
        if baseline.version != BASELINE_VERSION {
            return Err(format!(
                "baseline format version {} is not supported (this jresa writes version {BASELINE_VERSION})",
                baseline.version
            ));
        }
        Ok(baseline)
    }
}
