pub const KNOWN_IDS: &[&str] = &[];
pub fn evaluate_case(_id: &str, _c: &serde_json::Value) -> Result<(), String> { Err("x".into()) }
