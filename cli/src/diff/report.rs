//! The report of `concord diff`: a table for people, JSON for tools.

use super::{Finding, Severity};
use serde_json::{json, Value};
use std::path::Path;

/// The two registries compared, as the report names them.
pub struct Sides<'a> {
    pub old_label: &'a str,
    pub old_dir: &'a Path,
    pub new_label: &'a str,
    pub new_dir: &'a Path,
}

impl Sides<'_> {
    /// A finding's schema location, `label/path#pointer`, relative to the
    /// registry folder it is in.
    fn location(&self, finding: &Finding) -> String {
        let (label, relative) = match (finding.file.strip_prefix(self.new_dir), finding.file.strip_prefix(self.old_dir)) {
            (Ok(relative), _) => (self.new_label, relative),
            (_, Ok(relative)) => (self.old_label, relative),
            _ => ("", finding.file.as_path()),
        };
        let file = relative.display().to_string();
        let joined = if label.is_empty() { file } else { format!("{}/{file}", label.trim_end_matches('/')) };
        if finding.pointer.is_empty() {
            joined
        } else {
            format!("{joined}#{}", finding.pointer)
        }
    }
}

/// The table: one line a finding, then where it is, then a count.
pub fn table(findings: &[Finding], sides: &Sides, fail_on: Severity) -> String {
    let mut out = format!("concord diff {} → {}\n", sides.old_label, sides.new_label);
    if findings.is_empty() {
        out.push_str("no changes that concord's bindings see\n");
        return out;
    }
    let rows: Vec<[String; 5]> = findings
        .iter()
        .map(|f| {
            let breaks: Vec<&str> = f.breaks.iter().map(|d| d.as_str()).collect();
            let path = if f.path.is_empty() { "(record)".to_owned() } else { concord_codegen::error::shown(&f.path) };
            [f.severity.to_string(), f.rule.id().to_owned(), if breaks.is_empty() { "-".to_owned() } else { breaks.join(",") }, f.type_label.clone(), path]
        })
        .collect();
    let headers = ["SEVERITY", "RULE", "BREAKS", "TYPE", "PATH"];
    let widths: Vec<usize> = (0..5).map(|i| rows.iter().map(|row| row[i].chars().count()).chain([headers[i].len()]).max().unwrap_or(0)).collect();
    let line = |cells: [&str; 5]| -> String {
        let mut text: String = cells.iter().zip(&widths).map(|(cell, width)| format!("{cell:<width$}  ")).collect();
        text.truncate(text.trim_end().len());
        text + "\n"
    };
    out.push_str(&line(headers));
    for (finding, row) in findings.iter().zip(&rows) {
        out.push_str(&line([&row[0], &row[1], &row[2], &row[3], &row[4]]));
        out.push_str(&format!("    {}\n    at {}\n", concord_codegen::error::shown(&finding.message), concord_codegen::error::shown(&sides.location(finding))));
    }
    let count = |severity: Severity| findings.iter().filter(|f| f.severity == severity).count();
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    let failing = findings.iter().any(|f| f.severity >= fail_on);
    out.push_str(&format!(
        "{}, {}, {}: {} (--fail-on {fail_on})\n",
        plural(count(Severity::Error), "error"),
        plural(count(Severity::Warning), "warning"),
        count(Severity::Info).to_string() + " info",
        if failing { "fails" } else { "passes" },
    ));
    out
}

/// The JSON report: `{"old", "new", "findings": [...]}`, one line.
pub fn json(findings: &[Finding], sides: &Sides) -> String {
    let findings: Vec<Value> = findings
        .iter()
        .map(|f| {
            json!({
                "rule": f.rule.id(),
                "severity": f.severity.as_str(),
                "breaks": f.breaks.iter().map(|d| d.as_str()).collect::<Vec<_>>(),
                "type": f.type_label,
                "path": f.path,
                "location": sides.location(f),
                "message": f.message,
            })
        })
        .collect();
    let report = json!({"old": sides.old_label, "new": sides.new_label, "findings": findings});
    serde_json::to_string(&report).expect("a JSON value always serializes") + "\n"
}
