//! Timestamps as the apiserver writes them (RFC 3339, UTC), held as nanoseconds since the Unix
//! epoch (Go's time.Time resolution, which the pod-ranking and progress-deadline rules depend on)
//! so that the virtual clock can do arithmetic on them without any wall clock.

use std::fmt;

/// The instant the simulated cluster calls "scenario start" (virtual time 0):
/// 2026-01-01T00:00:00Z. Fixed so that every run prints the same timestamps.
pub const SIM_EPOCH_NS: i64 = 1_767_225_600_000_000_000;

const NS_PER_MS: i64 = 1_000_000;
const NS_PER_S: i64 = 1_000_000_000;

/// A point in time with nanosecond precision (metav1.Time in memory).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Time(pub i64);

impl Time {
    /// The wall-clock instant that virtual time `t_ms` stands for.
    pub fn from_virtual(t_ms: u64) -> Time {
        Time(SIM_EPOCH_NS + t_ms as i64 * NS_PER_MS)
    }

    /// Milliseconds since scenario start (may be negative for objects created "before" it).
    pub fn virtual_ms(self) -> i64 {
        (self.0 - SIM_EPOCH_NS).div_euclid(NS_PER_MS)
    }

    /// This instant moved by `ms` milliseconds.
    pub fn plus_ms(self, ms: i64) -> Time {
        Time(self.0 + ms * NS_PER_MS)
    }

    /// This instant moved by `s` seconds.
    pub fn plus_secs(self, s: i64) -> Time {
        Time(self.0 + s * NS_PER_S)
    }

    /// Nanoseconds from `earlier` to `self`.
    pub fn since(self, earlier: Time) -> i64 {
        self.0 - earlier.0
    }

    /// Go's `time.RFC1123Z` in UTC, as `kubectl describe` prints times:
    /// `Thu, 01 Jan 2026 00:00:05 +0000`.
    pub fn rfc1123z(self) -> String {
        const DAYS: [&str; 7] = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"];
        const MONTHS: [&str; 12] = [
            "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
        ];
        let (days, (y, m, d), rem) = self.date_and_second();
        format!(
            "{}, {d:02} {} {y:04} {:02}:{:02}:{:02} +0000",
            DAYS[days.rem_euclid(7) as usize],
            MONTHS[(m - 1) as usize],
            rem / 3600,
            rem % 3600 / 60,
            rem % 60
        )
    }

    /// The time as klog's line header writes it: `MMDD HH:MM:SS.uuuuuu` (UTC).
    pub fn klog(self) -> String {
        let micros = self.0.rem_euclid(NS_PER_S) / 1_000;
        let (_, (_, m, d), rem) = self.date_and_second();
        format!(
            "{m:02}{d:02} {:02}:{:02}:{:02}.{micros:06}",
            rem / 3600,
            rem % 3600 / 60,
            rem % 60
        )
    }

    /// Days since the Unix epoch, the civil date (UTC), and the second of that day.
    fn date_and_second(self) -> (i64, (i64, i64, i64), i64) {
        let secs = self.0.div_euclid(NS_PER_S);
        let days = secs.div_euclid(86_400);
        (days, civil_from_days(days), secs.rem_euclid(86_400))
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`.
    pub fn parse(s: &str) -> Result<Time, String> {
        let bad =
            || format!("invalid timestamp {s:?}: expected RFC 3339, e.g. 2026-01-01T00:00:00Z");
        let b = s.as_bytes();
        if b.len() < 20 || b[4] != b'-' || b[7] != b'-' || (b[10] != b'T' && b[10] != b't') {
            return Err(bad());
        }
        let num = |r: std::ops::Range<usize>| -> Result<i64, String> {
            s.get(r).and_then(|x| x.parse::<i64>().ok()).ok_or_else(bad)
        };
        let (y, mo, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
        let (h, mi, sec) = (num(11..13)?, num(14..16)?, num(17..19)?);
        if !(1..=12).contains(&mo) || !(1..=31).contains(&d) || h > 23 || mi > 59 || sec > 60 {
            return Err(bad());
        }
        let mut i = 19;
        let mut ns = 0i64;
        if b.get(i) == Some(&b'.') {
            i += 1;
            let start = i;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            let frac = &s[start..i];
            if frac.is_empty() {
                return Err(bad());
            }
            let mut digits: String = frac.chars().take(9).collect();
            while digits.len() < 9 {
                digits.push('0');
            }
            ns = digits.parse::<i64>().map_err(|_| bad())?;
        }
        let offset_min = match &s[i..] {
            "Z" | "z" => 0,
            rest if rest.len() == 6 && (rest.starts_with('+') || rest.starts_with('-')) => {
                let sign = if rest.starts_with('-') { -1 } else { 1 };
                let oh = rest[1..3].parse::<i64>().map_err(|_| bad())?;
                let om = rest[4..6].parse::<i64>().map_err(|_| bad())?;
                sign * (oh * 60 + om)
            }
            _ => return Err(bad()),
        };
        let days = days_from_civil(y, mo, d);
        let secs = days * 86_400 + h * 3600 + mi * 60 + sec - offset_min * 60;
        Ok(Time(secs * NS_PER_S + ns))
    }
}

impl fmt::Display for Time {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ns = self.0.rem_euclid(NS_PER_S);
        let (_, (y, m, d), rem) = self.date_and_second();
        write!(
            f,
            "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}",
            rem / 3600,
            rem % 3600 / 60,
            rem % 60
        )?;
        if ns != 0 {
            let frac = format!("{ns:09}");
            write!(f, ".{}", frac.trim_end_matches('0'))?;
        }
        f.write_str("Z")
    }
}

// Howard Hinnant's civil-date algorithms: exact for the proleptic Gregorian calendar.
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (
        if m <= 2 {
            yoe + era * 400 + 1
        } else {
            yoe + era * 400
        },
        m,
        d,
    )
}

/// Go's `time.Duration` text of whole seconds: `40s`, `1m20s`, `5m0s`, `24h0m0s`.
pub fn go_duration(secs: u64) -> String {
    match secs {
        0..60 => format!("{secs}s"),
        60..3600 => format!("{}m{}s", secs / 60, secs % 60),
        _ => format!("{}h{}m{}s", secs / 3600, secs / 60 % 60, secs % 60),
    }
}

/// Go's `time.ParseDuration` (`30s`, `1m30s`, `1.5h`, `500ms`, `-2m`, `0`): the duration in
/// nanoseconds, signed, or Go's error (`time: invalid duration "x"`, `time: missing unit …`,
/// `time: unknown unit …`). The crate's one reader of Go durations: kubectl's `--timeout`
/// and a scenario's instants go through it.
pub fn parse_go_duration(s: &str) -> Result<f64, String> {
    let invalid = || format!("time: invalid duration {s:?}");
    let (negative, body) = match s.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    if body == "0" {
        return Ok(0.0);
    }
    if body.is_empty() {
        return Err(invalid());
    }
    let mut total_ns = 0f64;
    let mut rest = body;
    while !rest.is_empty() {
        let num_len = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        let number = &rest[..num_len];
        if number.is_empty() || number == "." {
            return Err(invalid());
        }
        let n: f64 = number.parse().map_err(|_| invalid())?;
        rest = &rest[num_len..];
        let unit_len = rest
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(rest.len());
        let unit = &rest[..unit_len];
        rest = &rest[unit_len..];
        let ns = match unit {
            "" => return Err(format!("time: missing unit in duration {s:?}")),
            "ns" => 1.0,
            "us" | "µs" | "μs" => 1e3,
            "ms" => 1e6,
            "s" => 1e9,
            "m" => 60e9,
            "h" => 3600e9,
            other => return Err(format!("time: unknown unit {other:?} in duration {s:?}")),
        };
        total_ns += n * ns;
    }
    Ok(if negative { -total_ns } else { total_ns })
}

/// Formats a duration the way kubectl prints ages (apimachinery's `duration.HumanDuration`):
/// `45s`, `3m2s`, `12m`, `3h30m`, `20h`, `3d4h`, `30d`, `2y5d`.
pub fn human_duration(ms: i64) -> String {
    let seconds = ms / 1000;
    if seconds < -1 {
        return "<invalid>".into();
    }
    let s = seconds.max(0);
    if s < 120 {
        return format!("{s}s");
    }
    let minutes = s / 60;
    if minutes < 10 {
        return match s % 60 {
            0 => format!("{minutes}m"),
            rest => format!("{minutes}m{rest}s"),
        };
    }
    if minutes < 3 * 60 {
        return format!("{minutes}m");
    }
    let hours = s / 3600;
    let days = hours / 24;
    let with = |big: i64, unit: &str, small: i64, small_unit: &str| match small {
        0 => format!("{big}{unit}"),
        n => format!("{big}{unit}{n}{small_unit}"),
    };
    if hours < 8 {
        with(hours, "h", minutes % 60, "m")
    } else if hours < 48 {
        format!("{hours}h")
    } else if hours < 24 * 8 {
        with(days, "d", hours % 24, "h")
    } else if hours < 24 * 365 * 2 {
        format!("{days}d")
    } else if hours < 24 * 365 * 8 {
        with(days / 365, "y", days % 365, "d")
    } else {
        format!("{}y", days / 365)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Go's `time.RFC1123Z`, as `kubectl describe` prints times.
    #[test]
    fn rfc1123z_reads_as_go_formats_it() {
        assert_eq!(
            Time::from_virtual(5_000).rfc1123z(),
            "Thu, 01 Jan 2026 00:00:05 +0000"
        );
        let t = Time::parse("2026-11-24T18:12:41Z").unwrap();
        assert_eq!(t.rfc1123z(), "Tue, 24 Nov 2026 18:12:41 +0000");
    }

    /// apimachinery's `TestHumanDuration` cases.
    #[test]
    fn ages_read_as_kubectl_prints_them() {
        let (s, m, h, d) = (1000i64, 60_000i64, 3_600_000i64, 86_400_000i64);
        for (ms, want) in [
            (0, "0s"),
            (-500, "0s"),
            (-2 * s, "<invalid>"),
            (119 * s, "119s"),
            (2 * m, "2m"),
            (2 * m + 5 * s, "2m5s"),
            (9 * m + 59 * s, "9m59s"),
            (10 * m, "10m"),
            (179 * m + 59 * s, "179m"),
            (3 * h, "3h"),
            (3 * h + 30 * m, "3h30m"),
            (7 * h + 59 * m, "7h59m"),
            (8 * h, "8h"),
            (47 * h + 59 * m, "47h"),
            (48 * h, "2d"),
            (3 * d + 4 * h, "3d4h"),
            (8 * d, "8d"),
            (729 * d, "729d"),
            (2 * 365 * d + 5 * d, "2y5d"),
            (8 * 365 * d, "8y"),
        ] {
            assert_eq!(human_duration(ms), want, "{ms} ms");
        }
    }

    #[test]
    fn round_trips_rfc3339() {
        for s in [
            "2026-01-01T00:00:00Z",
            "2017-02-15T18:49:00Z",
            "2016-01-01T00:01:09.25Z",
        ] {
            assert_eq!(Time::parse(s).unwrap().to_string(), s);
        }
        assert_eq!(Time::from_virtual(0).to_string(), "2026-01-01T00:00:00Z");
        assert_eq!(
            Time::from_virtual(1500).to_string(),
            "2026-01-01T00:00:01.5Z"
        );
        let a = Time::parse("2017-02-15T18:49:59.000000001Z").unwrap();
        let b = Time::parse("2017-02-15T18:49:59Z").unwrap();
        assert_eq!(a.since(b), 1);
        assert!(Time::parse("yesterday").is_err());
    }
}
