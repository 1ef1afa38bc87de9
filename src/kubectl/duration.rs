//! kubectl's `--timeout`: a Go duration (read by [`crate::api::time::parse_go_duration`]),
//! where zero means "wait forever".

/// A `--timeout` in milliseconds (rounded up); `None` for zero, which kubectl reads as
/// "never". A negative duration has passed already (0 ms).
pub fn go_duration_ms(s: &str) -> Result<Option<u64>, String> {
    let ns = crate::api::time::parse_go_duration(s)?;
    Ok(match ns {
        0.0 => None,
        ns if ns < 0.0 => Some(0),
        ns => Some((ns / 1e6).ceil() as u64),
    })
}
