//! IntOrString, and the percent arithmetic of apimachinery's `GetScaledValueFromIntOrPercent`.

use std::fmt;

/// `maxSurge` / `maxUnavailable`: an absolute number or a percentage string such as `"25%"`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IntOrString {
    Int(i32),
    Str(String),
}

impl fmt::Display for IntOrString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IntOrString::Int(i) => write!(f, "{i}"),
            IntOrString::Str(s) => f.write_str(s),
        }
    }
}

impl IntOrString {
    /// Parses the percentage of a string value (`"25%"` → 25); `None` when it is not one.
    pub fn percent(&self) -> Option<i64> {
        match self {
            IntOrString::Str(s) => {
                let digits = s.strip_suffix('%')?;
                if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                    return None;
                }
                digits.parse().ok()
            }
            IntOrString::Int(_) => None,
        }
    }

    /// Resolves against `total`, rounding a percentage up or down (upstream:
    /// `intstr.GetScaledValueFromIntOrPercent`).
    pub fn scaled_value(&self, total: i32, round_up: bool) -> Result<i32, String> {
        match self {
            IntOrString::Int(i) => Ok(*i),
            IntOrString::Str(s) => {
                let p = self
                    .percent()
                    .ok_or_else(|| format!("invalid value for IntOrString: invalid type: string is not a percentage: {s:?}"))?;
                let product = p * total as i64;
                let v = if round_up {
                    (product + 99).div_euclid(100)
                } else {
                    product.div_euclid(100)
                };
                Ok(v as i32)
            }
        }
    }
}
