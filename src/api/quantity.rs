//! Resource quantities (`resource.Quantity` of k8s.io/apimachinery v0.36.3,
//! `pkg/api/resource/quantity.go`): parsing, and the canonical form the apiserver stores and
//! kubectl prints (`0.5` → `500m`, `1.5Gi` → `1536Mi`, `2000` → `2k`). Values are held in
//! nano-units, as a quantity's precision ends there (finer fractions round up, as
//! apimachinery rounds them).

/// The notation a quantity was written in, which its canonical form keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    DecimalSI,
    BinarySI,
    DecimalExponent,
}

const NANO: i128 = 1_000_000_000;

/// A quantity's value in nano-units and its notation, or `None` if it does not parse.
fn parse(s: &str) -> Option<(i128, Format)> {
    let (negative, body) = match s.as_bytes().first()? {
        b'-' => (true, &s[1..]),
        b'+' => (false, &s[1..]),
        _ => (false, s),
    };
    let end = body
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(body.len());
    let (number, suffix) = body.split_at(end);
    let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
    if whole.is_empty() && fraction.is_empty() || fraction.contains('.') {
        return None;
    }
    let (format, base, exp10) = match suffix {
        "" => (Format::DecimalSI, 1, 0),
        "n" => (Format::DecimalSI, 1, -9),
        "u" => (Format::DecimalSI, 1, -6),
        "m" => (Format::DecimalSI, 1, -3),
        "k" => (Format::DecimalSI, 1, 3),
        "M" => (Format::DecimalSI, 1, 6),
        "G" => (Format::DecimalSI, 1, 9),
        "T" => (Format::DecimalSI, 1, 12),
        "P" => (Format::DecimalSI, 1, 15),
        "E" => (Format::DecimalSI, 1, 18),
        "Ki" => (Format::BinarySI, 1i128 << 10, 0),
        "Mi" => (Format::BinarySI, 1 << 20, 0),
        "Gi" => (Format::BinarySI, 1 << 30, 0),
        "Ti" => (Format::BinarySI, 1 << 40, 0),
        "Pi" => (Format::BinarySI, 1 << 50, 0),
        "Ei" => (Format::BinarySI, 1 << 60, 0),
        e => {
            let digits = e.strip_prefix(['e', 'E'])?;
            let n: i32 = digits.parse().ok()?;
            (Format::DecimalExponent, 1, n)
        }
    };
    // The number as an integer and a power of ten: digits × 10^(exp10 − fraction length),
    // in nano-units (× 10^9), rounded up past the ninth decimal.
    let digits: String = format!("{whole}{fraction}");
    let mantissa: i128 = digits.trim_start_matches('0').parse().unwrap_or(0);
    let shift = exp10 - fraction.len() as i32 + 9;
    let mut nanos = mantissa.checked_mul(base)?;
    if shift >= 0 {
        nanos = nanos.checked_mul(10i128.checked_pow(shift as u32)?)?;
    } else {
        let div = 10i128.checked_pow((-shift) as u32)?;
        nanos = (nanos + div - 1) / div;
    }
    Some((if negative { -nanos } else { nanos }, format))
}

/// The canonical form of a quantity, or `None` if it does not parse.
pub fn canonical(s: &str) -> Option<String> {
    let (nanos, format) = parse(s)?;
    Some(render(nanos, format))
}

/// A sum of quantities, as `Quantity.Add` keeps one: exact, in the notation of its first
/// non-zero term (`250m` three times is `750m`; `128Mi` three times `384Mi`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Amount {
    nanos: i128,
    format: Format,
}

impl Default for Amount {
    fn default() -> Amount {
        Amount {
            nanos: 0,
            format: Format::DecimalSI,
        }
    }
}

impl Amount {
    /// A quantity as written, or `None` if it does not parse.
    pub fn of(s: &str) -> Option<Amount> {
        let (nanos, format) = parse(s)?;
        Some(Amount { nanos, format })
    }
    pub fn add(&mut self, other: Amount) {
        if self.nanos == 0 {
            self.format = other.format;
        }
        self.nanos += other.nanos;
    }
    /// Takes `other` away (a pod leaving its node's sum); the notation stays the sum's.
    pub fn sub(&mut self, other: Amount) {
        self.nanos -= other.nanos;
    }
    /// The larger of two (a pod's init containers against its containers).
    pub fn max(self, other: Amount) -> Amount {
        if other.nanos > self.nanos {
            other
        } else {
            self
        }
    }
    /// In thousandths, rounded up (`MilliValue`).
    pub fn milli(self) -> i128 {
        (self.nanos + 999_999).div_euclid(1_000_000)
    }
    /// In whole units, rounded up (`Value`).
    pub fn units(self) -> i128 {
        (self.nanos + NANO - 1).div_euclid(NANO)
    }
    pub fn is_zero(self) -> bool {
        self.nanos == 0
    }
}

impl std::fmt::Display for Amount {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&render(self.nanos, self.format))
    }
}

/// A value in nano-units written as apimachinery writes a quantity of this notation.
fn render(nanos: i128, mut format: Format) -> String {
    if nanos == 0 {
        return "0".into();
    }
    // A binary quantity under 1024 or not a whole number is shown in decimal, to keep it exact.
    if format == Format::BinarySI && (nanos.abs() < 1024 * NANO || nanos % NANO != 0) {
        format = Format::DecimalSI;
    }
    let sign = if nanos < 0 { "-" } else { "" };
    let n = nanos.abs();
    if format == Format::BinarySI {
        let mut units = n / NANO;
        let mut power = 0;
        while power < 6 && units % 1024 == 0 {
            units /= 1024;
            power += 1;
        }
        let suffix = ["", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"][power];
        return format!("{sign}{units}{suffix}");
    }
    // Decimal: the largest exponent (a multiple of 3, from 10^-9) that leaves a whole mantissa.
    let (mut mantissa, mut exp) = (n, -9i32);
    while exp < 18 && mantissa % 1000 == 0 {
        mantissa /= 1000;
        exp += 3;
    }
    let suffix = match (format, exp) {
        (Format::DecimalExponent, 0) => String::new(),
        (Format::DecimalExponent, e) => format!("e{e}"),
        (_, e) => ["n", "u", "m", "", "k", "M", "G", "T", "P", "E"][((e + 9) / 3) as usize].into(),
    };
    format!("{sign}{mantissa}{suffix}")
}

#[cfg(test)]
mod tests {
    /// apimachinery's `TestQuantityParse` and `TestQuantityCanonicalizeZero` cases that
    /// `kubectl set resources` meets.
    #[test]
    fn canonical_forms_as_apimachinery_prints_them() {
        for (given, want) in [
            ("0", "0"),
            ("0m", "0"),
            ("0Ki", "0"),
            ("1", "1"),
            ("100m", "100m"),
            ("0.5", "500m"),
            ("1.5", "1500m"),
            ("1000m", "1"),
            ("2000", "2k"),
            ("1500", "1500"),
            ("512Mi", "512Mi"),
            ("1.5Gi", "1536Mi"),
            ("1024Ki", "1Mi"),
            ("1Ki", "1Ki"),
            ("100Ki", "100Ki"),
            ("0.5Ki", "512"),
            ("1e3", "1e3"),
            ("1E6", "1e6"),
            ("1.5e3", "1500"),
            ("-100m", "-100m"),
            ("1n", "1n"),
            ("0.1n", "1n"),
            ("1.0", "1"),
            (".5", "500m"),
        ] {
            assert_eq!(super::canonical(given).as_deref(), Some(want), "{given}");
        }
        for bad in ["", "abc", "1.2.3", "1Qi", "1e", "--1", "."] {
            assert_eq!(super::canonical(bad), None, "{bad}");
        }
    }
}
