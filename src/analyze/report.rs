//! The report model of the cost analysis: per method its status, bound, reason and loops. Statuses
//! and reasons are typed, so that code decides on them by kind; they serialize to the words of the
//! JSON report (`"bounded"`, the reason's text), which `crate::report` renders.

use crate::classfile::{ClassFile, Method};
use jresa_analyses::bounds::expr::CostExpr;
use jresa_analyses::cost_model::CostModel;
use jresa_analyses::nontermination::Search;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Version of the JSON report format.
pub const REPORT_VERSION: u32 = 1;

/// What the analysis says about a method (and what a baseline records).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AnalysisStatus {
    /// A bound was proven.
    Bounded,
    /// No bound, shown: a loop that never exits once reached, or an input on which the method
    /// does not terminate.
    Unbounded,
    /// No bound found (no ranking function, a call outside the program, a budget, ...).
    Unknown,
    /// The method could not be analysed (it was not lifted).
    Error,
}

impl AnalysisStatus {
    /// The status as the JSON report and the baseline spell it.
    pub fn name(self) -> &'static str {
        match self {
            AnalysisStatus::Bounded => "bounded",
            AnalysisStatus::Unbounded => "unbounded",
            AnalysisStatus::Unknown => "unknown",
            AnalysisStatus::Error => "error",
        }
    }

    /// Same as [`AnalysisStatus::name`].
    pub fn as_str(&self) -> &'static str {
        self.name()
    }
}

impl fmt::Display for AnalysisStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A status equals its name (`status == "bounded"`).
impl PartialEq<str> for AnalysisStatus {
    fn eq(&self, other: &str) -> bool {
        self.name() == other
    }
}

impl PartialEq<&str> for AnalysisStatus {
    fn eq(&self, other: &&str) -> bool {
        self.name() == *other
    }
}

/// A budget of the value analysis of a class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Budget {
    /// Rule evaluations of the fixpoint (`value::limits::MAX_EVALUATIONS`).
    Evaluations,
    /// Wall-clock time (`AnalyzeOptions::method_budget`).
    Time,
}

/// Why a method has no bound, by kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReasonKind {
    /// The method could not be lifted.
    NotLifted,
    /// No ranking function was found for a loop or recursion (the method is `unknown`, or
    /// `unbounded` when the loop never exits once reached).
    Unranked,
    /// The cost depends on values the inputs do not bound (`cost::NOT_BOUNDED_BY_INPUTS`).
    NotBoundedByInputs,
    /// A loop or recursion the method reaches outside its own code has no ranking function (or
    /// the method lies on such a cycle).
    UnrankedCallee,
    /// Another reason of the cost solver (a call outside the program, ...).
    Cost,
    /// The value analysis of the method's class ran out of a budget.
    Budget(Budget),
    /// The method does not terminate on the input its witness gives.
    Nonterminating,
    /// Read back from a saved report, which records only the reason's text.
    Recorded,
}

/// Why a method has no bound: its kind, for decisions, and its text, for reports (the JSON report
/// serializes the text alone).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reason {
    pub kind: ReasonKind,
    pub text: String,
    /// The budget that stopped a later round with inputs further from the types' limits (the text
    /// says so; the reason is the earlier round's).
    pub retry_stopped: Option<Budget>,
}

impl Reason {
    pub fn new(kind: ReasonKind, text: impl Into<String>) -> Reason {
        Reason {
            kind,
            text: text.into(),
            retry_stopped: None,
        }
    }

    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// Whether the method was lost to a budget rather than to its code: its class's analysis ran
    /// out of rule evaluations or time, or a later round with a wider margin ran out of time.
    pub fn is_budget_loss(&self) -> bool {
        matches!(self.kind, ReasonKind::Budget(_)) || self.retry_stopped == Some(Budget::Time)
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// A reason read back from a saved report: the report keeps only its text, so its kind is
/// [`ReasonKind::Recorded`].
impl<'de> Deserialize<'de> for Reason {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Reason, D::Error> {
        String::deserialize(deserializer).map(|text| Reason::new(ReasonKind::Recorded, text))
    }
}

impl Serialize for Reason {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.text)
    }
}

/// One loop (or recursion) of a method.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct LoopReport {
    /// Source line of the loop header, when the `LineNumberTable` says.
    pub line: Option<u32>,
    pub offset: u32,
    /// The ranking function over the loop's variables, e.g. `n - i`.
    pub ranking_function: Option<String>,
    /// The bound on its iterations in terms of the loop's variables at entry.
    pub iterations: Option<String>,
    /// Why it could not be bounded.
    pub reason: Option<String>,
}

/// The values a parameter (or a reference parameter's size, `|a|`) is assumed within.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ParameterRange {
    pub parameter: String,
    pub min: i64,
    pub max: i64,
}

/// The result for one method.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct MethodReport {
    /// Binary name with dots.
    pub class: String,
    pub name: String,
    pub descriptor: String,
    pub status: AnalysisStatus,
    pub upper_bound: Option<String>,
    pub complexity: Option<String>,
    pub terminates: Option<bool>,
    pub reason: Option<Reason>,
    /// The inputs the bound is proven for, when not all (integer inputs away from their type's
    /// limits, where a smaller margin could let arithmetic overflow).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub precondition: Option<String>,
    /// The same precondition as one closed interval per parameter it constrains.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parameter_ranges: Vec<ParameterRange>,
    /// The names the bound uses for the parameters (`|a|` for the size of a reference `a`).
    pub parameters: Vec<String>,
    pub source_file: Option<String>,
    pub line: Option<u32>,
    pub loops: Vec<LoopReport>,
    /// The input on which the method was seen not to terminate, when `terminates` is `false`
    /// because of it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub witness: Option<Witness>,
    /// The bound as an expression, for evaluation (not serialized).
    #[serde(skip)]
    pub bound: Option<CostExpr>,
    /// The non-termination search where it ran: its candidates and the time z3 took (not
    /// serialized).
    #[serde(skip)]
    pub search: Option<Search>,
}

/// An input on which a method does not terminate: found with z3, confirmed by running it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Witness {
    /// The arguments (`this` first for an instance method), as Java-like text.
    pub arguments: Vec<String>,
    /// The arguments as `jresa run --args` reads them (a JSON array).
    pub args: String,
    /// Whether the method calls itself without end (else a loop never ends).
    pub recursion: bool,
    /// The source line of the loop's head, when known.
    pub line: Option<u32>,
    /// The bytecode offset of the loop's head.
    pub offset: u32,
    /// The set of states at the loop's head (or of arguments of the recursive calls) that the
    /// input reaches and no iteration leaves.
    pub recurrent_set: String,
    /// What running the method on the input showed.
    pub confirmed: String,
    /// The command that runs the method on the input (empty when the inputs are not known, as
    /// for the library call).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub replay: String,
}

impl MethodReport {
    /// A report with no result yet (`error` status) for a method of `class`.
    pub(crate) fn new(class: &ClassFile, method: &Method) -> MethodReport {
        MethodReport {
            class: class.name.replace('/', "."),
            name: method.name.clone(),
            descriptor: method.descriptor.clone(),
            status: AnalysisStatus::Error,
            upper_bound: None,
            complexity: None,
            terminates: None,
            reason: None,
            precondition: None,
            parameter_ranges: Vec::new(),
            parameters: Vec::new(),
            source_file: class.source_file.clone(),
            line: None,
            loops: Vec::new(),
            witness: None,
            bound: None,
            search: None,
        }
    }

    /// The text of the reason, if any.
    pub fn reason_text(&self) -> Option<&str> {
        self.reason.as_ref().map(Reason::as_str)
    }
}

/// The result of `analyze`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct AnalysisReport {
    pub version: u32,
    #[serde(with = "cost_model_name")]
    pub cost_model: CostModel,
    pub methods: Vec<MethodReport>,
}

/// A `CostModel` in JSON reports and baselines: its name (`"instructions"`, ...), for
/// `#[serde(with = "cost_model_name")]`.
pub mod cost_model_name {
    use jresa_analyses::cost_model::CostModel;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(model: &CostModel, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(model.name())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<CostModel, D::Error> {
        let name = String::deserialize(deserializer)?;
        CostModel::from_name(&name).ok_or_else(|| serde::de::Error::custom(format!("unknown cost model `{name}`")))
    }
}
