//! What every page shares: the document skeleton (Content-Security-Policy, viewport, the site's
//! style sheet and script), breadcrumbs, status words and readable method names.
//!
//! **Every text from the input reaches a page through a maud interpolation, which escapes it;
//! the only markup inserted unescaped is SVG that plotters produced (which escapes its own texts).**

use crate::report::summary::Status;
use maud::{html, Markup, DOCTYPE};

/// Scripts and styles only from the report's own files; nothing else loads.
pub const CONTENT_SECURITY_POLICY: &str =
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'";

/// A link in the breadcrumbs: its text and target (relative to the page).
pub struct Crumb {
    pub text: String,
    pub href: String,
}

/// A whole page: `root` is the relative path from the page to the site root (`""` or `"../"`).
pub fn page(title: &str, root: &str, crumbs: &[Crumb], body: Markup) -> String {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta http-equiv="Content-Security-Policy" content=(CONTENT_SECURITY_POLICY);
                meta name="viewport" content="width=device-width, initial-scale=1";
                meta name="referrer" content="no-referrer";
                title { (title) " · jresa" }
                link rel="stylesheet" href={ (root) "style.css" };
                script src={ (root) "sort.js" } defer {}
            }
            body {
                header {
                    @if !crumbs.is_empty() {
                        nav.crumbs aria-label="breadcrumbs" {
                            @for (k, crumb) in crumbs.iter().enumerate() {
                                @if k > 0 { " › " }
                                a href=(crumb.href) { (crumb.text) }
                            }
                        }
                    }
                    h1 { (title) }
                }
                main { (body) }
            }
        }
    }
    .into_string()
}

/// The CSS class of a status (also the class of its colour).
pub fn status_class(status: Status) -> &'static str {
    match status {
        Status::Bounded => "bounded",
        Status::Unbounded => "unbounded",
        Status::Unknown => "unknown",
        Status::Error => "error",
        Status::Violated => "violated",
    }
}

/// A status as a coloured word.
pub fn status_word(status: Status) -> Markup {
    html! { span class={ "status " (status_class(status)) } { (status.name()) } }
}

/// A termination verdict in words.
pub fn termination_word(terminates: Option<bool>) -> &'static str {
    match terminates {
        Some(true) => "yes",
        Some(false) => "no",
        None => "unknown",
    }
}

/// `name(int, String[])` from a method's name and descriptor; constructors by their class's
/// simple name, class initializers as `static {}`.
pub fn method_label(simple_class: &str, name: &str, descriptor: &str) -> String {
    let shown = match name {
        "<init>" => simple_class,
        "<clinit>" => return "static {}".to_owned(),
        other => other,
    };
    let parameters = descriptor
        .strip_prefix('(')
        .and_then(|rest| rest.split_once(')'))
        .map_or(descriptor, |(parameters, _)| parameters);
    let types = jresa_analyses::ir::java_parameter_types(parameters);
    format!("{shown}({})", types.join(", "))
}

/// A number for tables: integers as such, large values in scientific notation.
pub fn figure(value: f64) -> String {
    if !value.is_finite() {
        "∞".to_owned()
    } else if value.abs() < 1e15 {
        format!("{}", value.round())
    } else {
        format!("{value:.3e}")
    }
}

/// A `data-key` for sorting by a number (`""` sorts last: no value).
pub fn sort_key(value: Option<f64>) -> String {
    match value {
        Some(v) if v.is_finite() => format!("{v}"),
        Some(_) => "1e308".to_owned(),
        None => String::new(),
    }
}

/// `k%` of a part of a whole, with one decimal.
pub fn percent(part: usize, whole: usize) -> String {
    if whole == 0 {
        "–".to_owned()
    } else {
        format!("{:.1}%", 100.0 * part as f64 / whole as f64)
    }
}
