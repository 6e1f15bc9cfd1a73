//! Go's `strconv.AppendFloat` (go/src/strconv/ftoa.go), every format `fmt`
//! uses: `%e %E %f %g %G` with a precision or shortest (`-1`), `%b`, and
//! `%x %X`, of a float64 or a float32.
//!
//! Shortest digits come from Rust's `{:e}` (shortest round-trip, closest
//! to the exact value, as Go's Ryu is); fixed precisions from the exact
//! decimal expansion of the float, rounded as Go's `decimal.Round` does
//! (half to even on an exact tie; Go's Ryu fixed path rounds the same), so
//! every digit is Go's.

/// Decimal digits `d` (0..=9, no trailing zeros) with the decimal point
/// `dp` places from the left, Go's `decimalSlice`.
struct Digits {
    d: Vec<u8>,
    dp: i32,
}

/// The sign, mantissa and exponent of `v` as Go's genericFtoa splits them
/// (`value = mant * 2^(exp - mantbits)`), or the text of an infinity/NaN.
fn split(v: f64, float32: bool) -> Result<(bool, u64, i32, u32), &'static str> {
    let (bits, mantbits, expbits, bias) = if float32 {
        (u64::from((v as f32).to_bits()), 23u32, 8u32, -127i32)
    } else {
        (v.to_bits(), 52, 11, -1023)
    };
    let neg = bits >> (expbits + mantbits) != 0;
    let mut exp = ((bits >> mantbits) & ((1 << expbits) - 1)) as i32;
    let mut mant = bits & ((1u64 << mantbits) - 1);
    if exp == (1 << expbits) - 1 {
        return Err(if mant != 0 {
            "NaN"
        } else if neg {
            "-Inf"
        } else {
            "+Inf"
        });
    }
    if exp == 0 {
        exp += 1; // denormalized
    } else {
        mant |= 1 << mantbits;
    }
    Ok((neg, mant, exp + bias, mantbits))
}

/// `strconv.AppendFloat(dst, v, fmt, prec, 64 or 32)`.
pub fn append_float(dst: &mut Vec<u8>, v: f64, fmt: u8, prec: i32, float32: bool) {
    let (neg, mant, exp, mantbits) = match split(v, float32) {
        Ok(parts) => parts,
        Err(special) => return dst.extend_from_slice(special.as_bytes()),
    };
    match fmt {
        b'b' => return fmt_b(dst, neg, mant, exp - mantbits as i32),
        b'x' | b'X' => return fmt_x(dst, prec, fmt, neg, mant, exp, mantbits),
        _ => {}
    }
    let shortest = prec < 0;
    let mut prec = prec;
    let digits = if shortest {
        let d = shortest_digits(v, float32, mant, exp - mantbits as i32);
        let nd = d.d.len() as i32;
        prec = match fmt {
            b'e' | b'E' => (nd - 1).max(0),
            b'f' => (nd - d.dp).max(0),
            _ => nd,
        };
        d
    } else {
        let mut d = exact_digits(mant, exp - mantbits as i32);
        match fmt {
            b'e' | b'E' => round(&mut d, prec + 1),
            b'f' => {
                let nd = d.dp + prec;
                round(&mut d, nd);
            }
            b'g' | b'G' => {
                if prec == 0 {
                    prec = 1;
                }
                round(&mut d, prec);
            }
            _ => {}
        }
        d
    };
    format_digits(dst, shortest, neg, &digits, prec, fmt);
}

/// The shortest digits that read back as `v` (`{:e}` of the f64 or f32),
/// `v` being `mant * 2^e2`. Where the exact value lies halfway between two
/// shortest candidates, Go's Ryu takes the even one (ftoaryu.go
/// ryuFtoaShortest: `c0 && di&1 == 1`), Rust the upper.
fn shortest_digits(v: f64, float32: bool, mant: u64, e2: i32) -> Digits {
    let e = if float32 { format!("{:e}", (v as f32).abs()) } else { format!("{:e}", v.abs()) };
    let (rust_mant, rust_exp) = e.split_once('e').unwrap_or((&e, "0"));
    let exp: i32 = rust_exp.parse().unwrap_or(0);
    let d: Vec<u8> = rust_mant.bytes().filter(u8::is_ascii_digit).map(|c| c - b'0').collect();
    if d.iter().all(|&c| c == 0) {
        return Digits { d: Vec::new(), dp: 0 };
    }
    let nd = d.len() as i32;
    let mut digits = Digits { d, dp: exp + 1 };
    trim(&mut digits);
    let mut exact = exact_digits(mant, e2);
    let at = nd + exact.dp - digits.dp;
    if at >= 0 && exact.d.len() as i32 == at + 1 && exact.d[at as usize] == 5 {
        round(&mut exact, at);
        return exact;
    }
    digits
}

/// The exact decimal expansion of `mant * 2^e2` (Go's `decimal.Assign` and
/// `Shift`), in base-1e9 limbs.
fn exact_digits(mant: u64, e2: i32) -> Digits {
    if mant == 0 {
        return Digits { d: Vec::new(), dp: 0 };
    }
    let mut limbs: Vec<u32> = vec![(mant % 1_000_000_000) as u32];
    let mut rest = mant / 1_000_000_000;
    while rest > 0 {
        limbs.push((rest % 1_000_000_000) as u32);
        rest /= 1_000_000_000;
    }
    // mant * 2^e2 = mant * 5^-e2 / 10^-e2 when e2 < 0.
    let (mut todo, factor_step, factor_max) = if e2 >= 0 { (e2 as u32, 2u64, 1u64 << 29) } else { ((-e2) as u32, 5, 1_220_703_125) };
    while todo > 0 {
        let mut factor = 1u64;
        while todo > 0 && factor * factor_step <= factor_max {
            factor *= factor_step;
            todo -= 1;
        }
        let mut carry = 0u64;
        for limb in limbs.iter_mut() {
            let x = u64::from(*limb) * factor + carry;
            *limb = (x % 1_000_000_000) as u32;
            carry = x / 1_000_000_000;
        }
        while carry > 0 {
            limbs.push((carry % 1_000_000_000) as u32);
            carry /= 1_000_000_000;
        }
    }
    let mut text = String::new();
    for (i, limb) in limbs.iter().rev().enumerate() {
        if i == 0 {
            text.push_str(&limb.to_string());
        } else {
            text.push_str(&format!("{limb:09}"));
        }
    }
    let d: Vec<u8> = text.bytes().map(|c| c - b'0').collect();
    let int_len = d.len() as i32;
    let mut digits = Digits { d, dp: if e2 >= 0 { int_len } else { int_len + e2 } };
    trim(&mut digits);
    digits
}

fn trim(d: &mut Digits) {
    while d.d.last() == Some(&0) {
        d.d.pop();
    }
    if d.d.is_empty() {
        d.dp = 0;
    }
}

/// Go's `decimal.Round(nd)`: half to even on an exact tie (these digits are
/// always exact), and a tie rounding to zero digits goes down.
fn round(d: &mut Digits, nd: i32) {
    if nd < 0 || nd as usize >= d.d.len() {
        return;
    }
    let n = nd as usize;
    let up = if d.d[n] == 5 && n + 1 == d.d.len() { n > 0 && d.d[n - 1] % 2 == 1 } else { d.d[n] >= 5 };
    if !up {
        d.d.truncate(n);
        trim(d);
        return;
    }
    for i in (0..n).rev() {
        if d.d[i] < 9 {
            d.d[i] += 1;
            d.d.truncate(i + 1);
            return;
        }
    }
    d.d = vec![1];
    d.dp += 1;
}

fn format_digits(dst: &mut Vec<u8>, shortest: bool, neg: bool, d: &Digits, prec: i32, fmt: u8) {
    let nd = d.d.len() as i32;
    match fmt {
        b'e' | b'E' => fmt_e(dst, neg, d, prec, fmt),
        b'f' => fmt_f(dst, neg, d, prec),
        b'g' | b'G' => {
            let mut prec = prec;
            let mut eprec = prec;
            if eprec > nd && nd >= d.dp {
                eprec = nd;
            }
            // Shortest output decides %e against precision 6.
            if shortest {
                eprec = 6;
            }
            let exp = d.dp - 1;
            if exp < -4 || exp >= eprec {
                if prec > nd {
                    prec = nd;
                }
                return fmt_e(dst, neg, d, prec - 1, fmt + b'e' - b'g');
            }
            if prec > d.dp {
                prec = nd;
            }
            fmt_f(dst, neg, d, (prec - d.dp).max(0));
        }
        _ => dst.extend_from_slice(&[b'%', fmt]),
    }
}

/// `%e`: -d.ddddde±dd
fn fmt_e(dst: &mut Vec<u8>, neg: bool, d: &Digits, prec: i32, fmt: u8) {
    if neg {
        dst.push(b'-');
    }
    dst.push(b'0' + d.d.first().copied().unwrap_or(0));
    if prec > 0 {
        dst.push(b'.');
        for i in 1..=prec as usize {
            dst.push(b'0' + d.d.get(i).copied().unwrap_or(0));
        }
    }
    dst.push(fmt);
    let mut exp = if d.d.is_empty() { 0 } else { d.dp - 1 };
    dst.push(if exp < 0 { b'-' } else { b'+' });
    exp = exp.abs();
    if exp < 10 {
        dst.push(b'0');
    }
    dst.extend_from_slice(exp.to_string().as_bytes());
}

/// `%f`: -ddddddd.ddddd
fn fmt_f(dst: &mut Vec<u8>, neg: bool, d: &Digits, prec: i32) {
    if neg {
        dst.push(b'-');
    }
    if d.dp > 0 {
        for i in 0..d.dp as usize {
            dst.push(b'0' + d.d.get(i).copied().unwrap_or(0));
        }
    } else {
        dst.push(b'0');
    }
    if prec > 0 {
        dst.push(b'.');
        for i in 0..prec {
            let j = d.dp + i;
            let c = if j >= 0 { d.d.get(j as usize).copied().unwrap_or(0) } else { 0 };
            dst.push(b'0' + c);
        }
    }
}

/// `%b`: -ddddddddp±ddd
fn fmt_b(dst: &mut Vec<u8>, neg: bool, mant: u64, exp: i32) {
    if neg {
        dst.push(b'-');
    }
    dst.extend_from_slice(mant.to_string().as_bytes());
    dst.push(b'p');
    if exp >= 0 {
        dst.push(b'+');
    }
    dst.extend_from_slice(exp.to_string().as_bytes());
}

/// `%x`: -0x1.yyyyyyyyp±ddd or -0x0p+00.
fn fmt_x(dst: &mut Vec<u8>, prec: i32, fmt: u8, neg: bool, mant: u64, exp: i32, mantbits: u32) {
    let mut exp = if mant == 0 { 0 } else { exp };
    // Shift digits so the leading 1 (if any) is at bit 1<<60.
    let mut mant = mant << (60 - mantbits);
    while mant != 0 && mant & (1 << 60) == 0 {
        mant <<= 1;
        exp -= 1;
    }
    if (0..15).contains(&prec) {
        let shift = (prec * 4) as u32;
        let extra = (mant << shift) & ((1 << 60) - 1);
        mant >>= 60 - shift;
        if extra | (mant & 1) > 1 << 59 {
            mant += 1;
        }
        mant <<= 60 - shift;
        if mant & (1 << 61) != 0 {
            mant >>= 1;
            exp += 1;
        }
    }
    let hex: &[u8; 16] = if fmt == b'X' { b"0123456789ABCDEF" } else { b"0123456789abcdef" };
    if neg {
        dst.push(b'-');
    }
    dst.extend_from_slice(&[b'0', fmt, b'0' + ((mant >> 60) & 1) as u8]);
    mant <<= 4;
    if prec < 0 && mant != 0 {
        dst.push(b'.');
        while mant != 0 {
            dst.push(hex[((mant >> 60) & 15) as usize]);
            mant <<= 4;
        }
    } else if prec > 0 {
        dst.push(b'.');
        for _ in 0..prec {
            dst.push(hex[((mant >> 60) & 15) as usize]);
            mant <<= 4;
        }
    }
    dst.push(if fmt == b'X' { b'P' } else { b'p' });
    dst.push(if exp < 0 { b'-' } else { b'+' });
    let exp = exp.abs();
    if exp < 10 {
        dst.push(b'0');
    }
    dst.extend_from_slice(exp.to_string().as_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(v: f64, fmt: u8, prec: i32) -> String {
        let mut out = Vec::new();
        append_float(&mut out, v, fmt, prec, false);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn formats_floats_as_go_strconv_does() {
        assert_eq!(f(2.5, b'f', 0), "2");
        assert_eq!(f(0.5, b'f', 0), "0");
        assert_eq!(f(1.5, b'f', 0), "2");
        assert_eq!(f(0.125, b'f', 2), "0.12");
        assert_eq!(f(1e21, b'f', 1), "1000000000000000000000.0");
        assert_eq!(f(1.23456, b'e', 3), "1.235e+00");
        assert_eq!(f(1e100, b'g', -1), "1e+100");
        assert_eq!(f(123456789.0, b'g', 4), "1.235e+08");
        assert_eq!(f(0.0, b'e', -1), "0e+00");
        assert_eq!(f(-0.0, b'g', -1), "-0");
        assert_eq!(f(1.0, b'x', -1), "0x1p+00");
        assert_eq!(f(1.0, b'b', -1), "4503599627370496p-52");
        assert_eq!(f(5e-324, b'e', 3), "4.941e-324");
    }
}
