//! Evaluates conformance-vector files (`shared/conformance/README.md` schema) against the core:
//! each `id` names the upstream function; every case's inputs are turned into objects, the
//! function runs, and its result is compared with what upstream asserts.

mod fixtures;
mod handlers;
mod vectors;

pub use vectors::evaluate_case;

/// One evaluated case.
#[derive(Clone, Debug)]
pub struct CaseResult {
    pub id: String,
    pub name: String,
    /// `Err` says what was expected and what came out.
    pub outcome: Result<(), String>,
}

/// Evaluates every case of a vector file. `Err` when the file is not of the schema or its id
/// is unknown.
pub fn evaluate_file(text: &str) -> Result<Vec<CaseResult>, String> {
    let v: serde_json::Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    let id = v
        .get("id")
        .and_then(|x| x.as_str())
        .ok_or("missing \"id\"")?
        .to_string();
    let cases = v
        .get("cases")
        .and_then(|x| x.as_array())
        .ok_or("missing \"cases\" list")?;
    if !vectors::known_ids().any(|k| k == id) {
        return Err(format!("unknown vector id {id:?}"));
    }
    let mut out = vec![];
    for (i, c) in cases.iter().enumerate() {
        let name = c
            .get("name")
            .and_then(|x| x.as_str())
            .map(String::from)
            .unwrap_or_else(|| format!("case {i}"));
        let outcome = evaluate_case(&v, c);
        out.push(CaseResult {
            id: id.clone(),
            name,
            outcome,
        });
    }
    Ok(out)
}
