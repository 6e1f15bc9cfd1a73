//! Go 1.19's `fmt.Sprintf`, `fmt.Sprint` and `fmt.Sprintln`, byte for byte
//! (go/src/fmt/print.go, format.go; strconv's float and quote formats),
//! over any value type that says each operand's Go type ([`GoTyped`]).
//!
//! The API, for the template engine's `printf`, `print` and `println`
//! (text/template's builtins are these three functions):
//!
//! - [`sprintf`]`(format, &args)`, [`sprint`]`(&args)`,
//!   [`sprintln`]`(&args)`: the text, or [`Unprintable`] when an operand
//!   is something the value model cannot print (a struct's fields, a
//!   pointer's address, a verb other than `%v %s %q %x %X %T` on a value
//!   known only by its `String()` method). Invalid UTF-8 (`%s` of a
//!   `[]byte`, `%c` of a surrogate) becomes U+FFFD, as Go's bytes would
//!   when read as text; the `_bytes` forms return Go's exact bytes.
//! - Implement [`GoTyped`] for the engine's value (`Tv`): `Val::Int` is
//!   `Typed::Int(IntType::Int, i)`, `Int64` `Int(IntType::Int64, i)`,
//!   `Float` `Float(f, false)`, `Str` `Str(s.into())`, `Bytes` `Bytes(b)`,
//!   `List` `List("[]interface {}".into(), items.map(Typed::Of))`,
//!   `TypedList(e, items)` `List(format!("[]{e}").into(), ...)`, `Map`
//!   `Map("map[string]interface {}".into(), (Str(k), Of(v)))`, `StrMap`
//!   `Map("map[string]string".into(), (Str(k), Str(v)))`, an object
//!   `Stringer { go_type, text: its String(), go_syntax }`, `Nil` `Nil`;
//!   a struct or pointer an [`Unprintable`].
//!
//! Every verb and flag of these types is Go's, with Go's error forms in
//! the text (`%!d(string=x)`, `%!d(MISSING)`, `%!(EXTRA int=1)`,
//! `%!(BADWIDTH)`, `%!(BADPREC)`, `%!(NOVERB)`, `%!d(BADINDEX)`), not as
//! errors. Proven against real Go by `tests/data/go/printf.json`, filled
//! by `tools/go-printf-oracle`.

use std::borrow::Cow;

use super::value::{GoTyped, IntType, Typed, Unprintable};

/// `fmt.Sprintf(format, args...)`.
pub fn sprintf<T: GoTyped>(format: &str, args: &[T]) -> Result<String, Unprintable> {
    sprintf_bytes(format, args).map(text)
}

/// `fmt.Sprint(args...)`: spaces between operands when neither is a string.
pub fn sprint<T: GoTyped>(args: &[T]) -> Result<String, Unprintable> {
    sprint_bytes(args).map(text)
}

/// `fmt.Sprintln(args...)`: spaces between all operands and a newline.
pub fn sprintln<T: GoTyped>(args: &[T]) -> Result<String, Unprintable> {
    sprintln_bytes(args).map(text)
}

fn text(bytes: Vec<u8>) -> String {
    match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    }
}

/// [`sprintf`] as Go's bytes.
pub fn sprintf_bytes<T: GoTyped>(format: &str, args: &[T]) -> Result<Vec<u8>, Unprintable> {
    let args: Vec<Typed<'_, T>> = args.iter().map(Typed::Of).collect();
    let mut p = Printer::default();
    p.do_printf(format.as_bytes(), &args)?;
    Ok(p.buf)
}

/// [`sprint`] as Go's bytes (print.go doPrint).
pub fn sprint_bytes<T: GoTyped>(args: &[T]) -> Result<Vec<u8>, Unprintable> {
    let mut p = Printer::default();
    let mut prev_string = false;
    for (i, arg) in args.iter().enumerate() {
        let arg = arg.go_typed()?;
        let is_string = matches!(arg, Typed::Str(_));
        if i > 0 && !is_string && !prev_string {
            p.buf.push(b' ');
        }
        p.print_arg(&arg, 'v')?;
        prev_string = is_string;
    }
    Ok(p.buf)
}

/// [`sprintln`] as Go's bytes (print.go doPrintln).
pub fn sprintln_bytes<T: GoTyped>(args: &[T]) -> Result<Vec<u8>, Unprintable> {
    let mut p = Printer::default();
    for (i, arg) in args.iter().enumerate() {
        if i > 0 {
            p.buf.push(b' ');
        }
        p.print_arg(&arg.go_typed()?, 'v')?;
    }
    p.buf.push(b'\n');
    Ok(p.buf)
}

/// format.go's fmtFlags, width and precision.
#[derive(Debug, Default, Clone, Copy)]
struct Flags {
    wid_present: bool,
    prec_present: bool,
    minus: bool,
    plus: bool,
    sharp: bool,
    space: bool,
    zero: bool,
    /// `%+v` and `%#v` are their own formats: the flags move here.
    plus_v: bool,
    sharp_v: bool,
    wid: i64,
    prec: i64,
}

/// print.go's pp: the output and the current verb's flags.
#[derive(Default)]
struct Printer {
    buf: Vec<u8>,
    f: Flags,
    /// Printing a bad verb's operand: no String() methods (print.go).
    erroring: bool,
    reordered: bool,
    good_arg_num: bool,
}

mod format;

const LDIGITS: &[u8; 17] = b"0123456789abcdefx";
const UDIGITS: &[u8; 17] = b"0123456789ABCDEFX";

/// A value looked at: borrowed, or what an element of the caller's type
/// says it is.
enum Held<'r, 'a, T> {
    Ref(&'r Typed<'a, T>),
    Own(Typed<'a, T>),
}

impl<'a, T> Held<'_, 'a, T> {
    fn get(&self) -> &Typed<'a, T> {
        match self {
            Held::Ref(v) => v,
            Held::Own(v) => v,
        }
    }
}

/// Resolves an element that is a value of the caller's type.
fn resolve<'r, 'a, T: GoTyped>(v: &'r Typed<'a, T>) -> Result<Held<'r, 'a, T>, Unprintable> {
    match v {
        Typed::Of(t) => Ok(Held::Own(t.go_typed()?)),
        other => Ok(Held::Ref(other)),
    }
}

/// `reflect.TypeOf(v).String()`.
fn type_name<'b, T>(v: &'b Typed<'_, T>) -> Cow<'b, str> {
    match v {
        Typed::Nil => "<nil>".into(),
        Typed::Bool(_) => "bool".into(),
        Typed::Int(t, _) => t.name().into(),
        Typed::Float(_, true) => "float32".into(),
        Typed::Float(_, false) => "float64".into(),
        Typed::Str(_) => "string".into(),
        Typed::Bytes(_) => "[]uint8".into(),
        Typed::List(t, _) | Typed::Map(t, _) | Typed::Struct(t, _) | Typed::Ptr(t, _) | Typed::Stringer { go_type: t, .. } => Cow::Borrowed(t.as_ref()),
        Typed::Of(_) => "interface {}".into(),
    }
}

impl Printer {
    // ---- print.go: operands by type ----

    fn bad_verb<T: GoTyped>(&mut self, verb: char, arg: &Typed<'_, T>) -> Result<(), Unprintable> {
        self.erroring = true;
        self.buf.extend_from_slice(b"%!");
        push_char(&mut self.buf, verb);
        self.buf.push(b'(');
        match arg {
            Typed::Nil => self.buf.extend_from_slice(b"<nil>"),
            arg => {
                self.buf.extend_from_slice(type_name(arg).as_bytes());
                self.buf.push(b'=');
                self.print_arg(arg, 'v')?;
            }
        }
        self.buf.push(b')');
        self.erroring = false;
        Ok(())
    }

    fn fmt_bool<T: GoTyped>(&mut self, v: bool, verb: char, arg: &Typed<'_, T>) -> Result<(), Unprintable> {
        match verb {
            't' | 'v' => self.fmt_boolean(v),
            _ => return self.bad_verb(verb, arg),
        }
        Ok(())
    }

    fn fmt_0x64(&mut self, v: u64, leading_0x: bool) {
        let sharp = self.f.sharp;
        self.f.sharp = leading_0x;
        self.fmt_integer(v, 16, false, 'v', LDIGITS);
        self.f.sharp = sharp;
    }

    fn fmt_int<T: GoTyped>(&mut self, ty: IntType, v: i64, verb: char, arg: &Typed<'_, T>) -> Result<(), Unprintable> {
        let (u, signed) = (v as u64, ty.is_signed());
        match verb {
            'v' if self.f.sharp_v && !signed => self.fmt_0x64(u, true),
            'v' | 'd' => self.fmt_integer(u, 10, signed, verb, LDIGITS),
            'b' => self.fmt_integer(u, 2, signed, verb, LDIGITS),
            'o' | 'O' => self.fmt_integer(u, 8, signed, verb, LDIGITS),
            'x' => self.fmt_integer(u, 16, signed, verb, LDIGITS),
            'X' => self.fmt_integer(u, 16, signed, verb, UDIGITS),
            'c' => self.fmt_c(u),
            'q' => self.fmt_qc(u),
            'U' => self.fmt_unicode(u),
            _ => return self.bad_verb(verb, arg),
        }
        Ok(())
    }

    fn fmt_float_verb<T: GoTyped>(&mut self, v: f64, float32: bool, verb: char, arg: &Typed<'_, T>) -> Result<(), Unprintable> {
        match verb {
            'v' => self.fmt_float(v, float32, b'g', -1),
            'b' | 'g' | 'G' | 'x' | 'X' => self.fmt_float(v, float32, verb as u8, -1),
            'f' | 'e' | 'E' => self.fmt_float(v, float32, verb as u8, 6),
            'F' => self.fmt_float(v, float32, b'f', 6),
            _ => return self.bad_verb(verb, arg),
        }
        Ok(())
    }

    fn fmt_string<T: GoTyped>(&mut self, s: &[u8], verb: char, arg: &Typed<'_, T>) -> Result<(), Unprintable> {
        match verb {
            'v' if self.f.sharp_v => self.fmt_q(s),
            'v' | 's' => self.fmt_s(s),
            'x' => self.fmt_sbx(s, LDIGITS),
            'X' => self.fmt_sbx(s, UDIGITS),
            'q' => self.fmt_q(s),
            _ => return self.bad_verb(verb, arg),
        }
        Ok(())
    }

    /// fmtBytes; `type_string` is `[]byte` for an operand, `[]uint8` inside
    /// a value (reflect's name).
    fn fmt_bytes<T: GoTyped>(&mut self, v: &[u8], verb: char, type_string: &str, depth: usize) -> Result<(), Unprintable> {
        match verb {
            'v' | 'd' => {
                if self.f.sharp_v {
                    self.buf.extend_from_slice(type_string.as_bytes());
                    self.buf.push(b'{');
                    for (i, c) in v.iter().enumerate() {
                        if i > 0 {
                            self.buf.extend_from_slice(b", ");
                        }
                        self.fmt_0x64(u64::from(*c), true);
                    }
                    self.buf.push(b'}');
                } else {
                    self.buf.push(b'[');
                    for (i, c) in v.iter().enumerate() {
                        if i > 0 {
                            self.buf.push(b' ');
                        }
                        self.fmt_integer(u64::from(*c), 10, false, verb, LDIGITS);
                    }
                    self.buf.push(b']');
                }
            }
            's' => self.fmt_s(v),
            'x' => self.fmt_sbx(v, LDIGITS),
            'X' => self.fmt_sbx(v, UDIGITS),
            'q' => self.fmt_q(v),
            // Other verbs print each byte as a uint8 (printValue's slice case).
            _ => {
                let items: Vec<Typed<'_, T>> = v.iter().map(|c| Typed::Int(IntType::Uint8, i64::from(*c))).collect();
                self.print_list("[]uint8", &items, verb, depth)?;
            }
        }
        Ok(())
    }

    /// print.go printArg: one operand.
    fn print_arg<T: GoTyped>(&mut self, arg: &Typed<'_, T>, verb: char) -> Result<(), Unprintable> {
        let arg = resolve(arg)?;
        let arg = arg.get();
        if let Typed::Nil = arg {
            return match verb {
                'T' | 'v' => {
                    self.pad(b"<nil>");
                    Ok(())
                }
                _ => self.bad_verb(verb, arg),
            };
        }
        match verb {
            'T' => {
                self.fmt_s(type_name(arg).as_bytes());
                return Ok(());
            }
            'p' => return self.fmt_pointer(arg),
            // handleMethods: %w takes only an error (and only in Errorf).
            'w' if matches!(arg, Typed::List(..) | Typed::Map(..) | Typed::Struct(..) | Typed::Ptr(..) | Typed::Stringer { .. }) => return self.bad_verb(verb, arg),
            _ => {}
        }
        match arg {
            Typed::Bytes(b) => self.fmt_bytes::<T>(b, verb, "[]byte", 0),
            other => self.print_value(other, verb, 0),
        }
    }

    /// `%p`: only slices, maps (and pointers) have one, an address.
    fn fmt_pointer<T: GoTyped>(&mut self, arg: &Typed<'_, T>) -> Result<(), Unprintable> {
        match arg {
            Typed::List(..) | Typed::Map(..) | Typed::Bytes(_) | Typed::Ptr(..) => Err(Unprintable(format!("the address of a {} (%p)", type_name(arg)))),
            Typed::Stringer { go_type, .. } => Err(Unprintable(format!("a {go_type} with %p"))),
            other => self.bad_verb('p', other),
        }
    }

    /// print.go printValue: a value at `depth` inside an operand (0: the
    /// operand itself).
    fn print_value<T: GoTyped>(&mut self, v: &Typed<'_, T>, verb: char, depth: usize) -> Result<(), Unprintable> {
        match v {
            // An interface{} element: the value inside it.
            Typed::Of(t) => {
                let inner = t.go_typed()?;
                self.print_value(&inner, verb, depth + 1)
            }
            // A nil interface{} element prints the same under every verb.
            Typed::Nil if self.f.sharp_v => {
                self.buf.extend_from_slice(b"interface {}(nil)");
                Ok(())
            }
            Typed::Nil => {
                self.buf.extend_from_slice(b"<nil>");
                Ok(())
            }
            Typed::Bool(b) => self.fmt_bool(*b, verb, v),
            Typed::Int(ty, i) => self.fmt_int(*ty, *i, verb, v),
            Typed::Float(f, float32) => self.fmt_float_verb(*f, *float32, verb, v),
            Typed::Str(s) => self.fmt_string(s.as_bytes(), verb, v),
            Typed::Bytes(b) => match verb {
                's' | 'q' | 'x' | 'X' => self.fmt_bytes::<T>(b, verb, "[]uint8", depth),
                _ => {
                    let items: Vec<Typed<'_, T>> = b.iter().map(|c| Typed::Int(IntType::Uint8, i64::from(*c))).collect();
                    self.print_list("[]uint8", &items, verb, depth)
                }
            },
            Typed::List(ty, items) => self.print_list(ty, items, verb, depth),
            Typed::Map(ty, entries) => self.print_map(ty, entries, verb, depth),
            Typed::Stringer { go_type, text, go_syntax } => self.print_stringer(go_type, text, go_syntax.as_deref(), verb),
            Typed::Struct(ty, fields) => self.print_struct(ty, fields, verb, depth),
            // A pointer to a composite value prints `&` and the value at the
            // top; anywhere else Go prints the address.
            Typed::Ptr(ty, target) => match resolve(target)?.get() {
                inner @ (Typed::List(..) | Typed::Map(..) | Typed::Struct(..) | Typed::Bytes(_)) if depth == 0 => {
                    self.buf.push(b'&');
                    self.print_value(inner, verb, depth + 1)
                }
                _ => Err(Unprintable(format!("a {ty} inside a value (Go prints its address)"))),
            },
        }
    }

    fn print_struct<T: GoTyped>(&mut self, ty: &str, fields: &[(&str, Typed<'_, T>)], verb: char, depth: usize) -> Result<(), Unprintable> {
        if self.f.sharp_v {
            self.buf.extend_from_slice(ty.as_bytes());
        }
        self.buf.push(b'{');
        for (i, (name, field)) in fields.iter().enumerate() {
            if i > 0 {
                self.buf.extend_from_slice(if self.f.sharp_v { b", " } else { b" " });
            }
            if self.f.plus_v || self.f.sharp_v {
                self.buf.extend_from_slice(name.as_bytes());
                self.buf.push(b':');
            }
            self.print_value(field, verb, depth + 1)?;
        }
        self.buf.push(b'}');
        Ok(())
    }

    /// handleMethods for a value with `String()` (and maybe `GoString()`).
    fn print_stringer(&mut self, go_type: &str, text: &str, go_syntax: Option<&str>, verb: char) -> Result<(), Unprintable> {
        let unsupported = || Err(Unprintable(format!("a {go_type} with %{verb} (Go prints its fields)")));
        if self.erroring {
            return unsupported();
        }
        if self.f.sharp_v {
            return match go_syntax {
                Some(gs) => {
                    self.fmt_s(gs.as_bytes());
                    Ok(())
                }
                None => unsupported(),
            };
        }
        match verb {
            'v' | 's' | 'x' | 'X' | 'q' => self.fmt_string::<NoValue>(text.as_bytes(), verb, &Typed::Str(text.into())),
            _ => unsupported(),
        }
    }

    fn print_list<T: GoTyped>(&mut self, ty: &str, items: &[Typed<'_, T>], verb: char, depth: usize) -> Result<(), Unprintable> {
        if self.f.sharp_v {
            self.buf.extend_from_slice(ty.as_bytes());
            self.buf.push(b'{');
        } else {
            self.buf.push(b'[');
        }
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                self.buf.extend_from_slice(if self.f.sharp_v { b", " } else { b" " });
            }
            self.print_value(item, verb, depth + 1)?;
        }
        self.buf.push(if self.f.sharp_v { b'}' } else { b']' });
        Ok(())
    }

    fn print_map<T: GoTyped>(&mut self, ty: &str, entries: &[(Typed<'_, T>, Typed<'_, T>)], verb: char, depth: usize) -> Result<(), Unprintable> {
        let mut sorted = Vec::with_capacity(entries.len());
        for (k, v) in entries {
            sorted.push((resolve(k)?, v));
        }
        // sort.Stable with fmtsort's compare.
        sorted.sort_by(|a, b| key_order(a.0.get(), b.0.get()));
        if self.f.sharp_v {
            self.buf.extend_from_slice(ty.as_bytes());
            self.buf.push(b'{');
        } else {
            self.buf.extend_from_slice(b"map[");
        }
        for (i, (k, v)) in sorted.iter().enumerate() {
            if i > 0 {
                self.buf.extend_from_slice(if self.f.sharp_v { b", " } else { b" " });
            }
            self.print_value(k.get(), verb, depth + 1)?;
            self.buf.push(b':');
            self.print_value(v, verb, depth + 1)?;
        }
        self.buf.push(if self.f.sharp_v { b'}' } else { b']' });
        Ok(())
    }

    // ---- print.go doPrintf: the format string ----

    /// intFromArg: a `*` width or precision.
    fn int_from_arg<T: GoTyped>(&self, args: &[Typed<'_, T>], arg_num: usize) -> Result<(i64, bool, usize), Unprintable> {
        let Some(arg) = args.get(arg_num) else {
            return Ok((0, false, arg_num));
        };
        let (mut num, mut is_int) = match resolve(arg)?.get() {
            Typed::Int(ty, v) if ty.is_signed() => (*v, true),
            // An unsigned value counts if it fits an int.
            Typed::Int(_, v) if *v >= 0 => (*v, true),
            _ => (0, false),
        };
        if too_large(num) {
            num = 0;
            is_int = false;
        }
        Ok((num, is_int, arg_num + 1))
    }

    /// argNumber: an explicit `[n]` index at `format[i..]`.
    fn arg_number(&mut self, arg_num: usize, format: &[u8], i: usize, num_args: usize) -> (usize, usize, bool) {
        if format.len() <= i || format[i] != b'[' {
            return (arg_num, i, false);
        }
        self.reordered = true;
        let (index, wid, ok) = parse_arg_number(&format[i..]);
        if ok && 0 <= index && (index as usize) < num_args {
            return (index as usize, i + wid, true);
        }
        self.good_arg_num = false;
        (arg_num, i + wid, ok)
    }

    fn do_printf<T: GoTyped>(&mut self, format: &[u8], args: &[Typed<'_, T>]) -> Result<(), Unprintable> {
        let end = format.len();
        let mut arg_num = 0usize;
        let mut after_index;
        self.reordered = false;
        let mut i = 0;
        'format: while i < end {
            self.good_arg_num = true;
            let lasti = i;
            while i < end && format[i] != b'%' {
                i += 1;
            }
            self.buf.extend_from_slice(&format[lasti..i]);
            if i >= end {
                break;
            }
            i += 1;
            self.f = Flags::default();
            // Flags, and the fast path of a lower-case verb right after them.
            while i < end {
                let c = format[i];
                match c {
                    b'#' => self.f.sharp = true,
                    b'0' => self.f.zero = !self.f.minus,
                    b'+' => self.f.plus = true,
                    b'-' => {
                        self.f.minus = true;
                        self.f.zero = false;
                    }
                    b' ' => self.f.space = true,
                    _ => {
                        if c.is_ascii_lowercase() && arg_num < args.len() {
                            if c == b'v' {
                                self.move_v_flags();
                            }
                            self.print_arg(&args[arg_num], c as char)?;
                            arg_num += 1;
                            i += 1;
                            continue 'format;
                        }
                        break;
                    }
                }
                i += 1;
            }
            (arg_num, i, after_index) = self.arg_number(arg_num, format, i, args.len());
            // Width.
            if i < end && format[i] == b'*' {
                i += 1;
                (self.f.wid, self.f.wid_present, arg_num) = self.int_from_arg(args, arg_num)?;
                if !self.f.wid_present {
                    self.buf.extend_from_slice(b"%!(BADWIDTH)");
                }
                // A negative width means `-`.
                if self.f.wid < 0 {
                    self.f.wid = -self.f.wid;
                    self.f.minus = true;
                    self.f.zero = false;
                }
                after_index = false;
            } else {
                (self.f.wid, self.f.wid_present, i) = parse_num(format, i, end);
                if after_index && self.f.wid_present {
                    self.good_arg_num = false; // "%[3]2d"
                }
            }
            // Precision.
            if i + 1 < end && format[i] == b'.' {
                i += 1;
                if after_index {
                    self.good_arg_num = false; // "%[3].2d"
                }
                (arg_num, i, after_index) = self.arg_number(arg_num, format, i, args.len());
                if i < end && format[i] == b'*' {
                    i += 1;
                    (self.f.prec, self.f.prec_present, arg_num) = self.int_from_arg(args, arg_num)?;
                    if self.f.prec < 0 {
                        self.f.prec = 0;
                        self.f.prec_present = false;
                    }
                    if !self.f.prec_present {
                        self.buf.extend_from_slice(b"%!(BADPREC)");
                    }
                    after_index = false;
                } else {
                    (self.f.prec, self.f.prec_present, i) = parse_num(format, i, end);
                    if !self.f.prec_present {
                        self.f.prec = 0;
                        self.f.prec_present = true;
                    }
                }
            }
            if !after_index {
                (arg_num, i, _) = self.arg_number(arg_num, format, i, args.len());
            }
            if i >= end {
                self.buf.extend_from_slice(b"%!(NOVERB)");
                break;
            }
            // The format is a &str, so a verb at i is a whole char.
            let verb = std::str::from_utf8(&format[i..]).ok().and_then(|s| s.chars().next()).unwrap_or('\u{FFFD}');
            i += verb.len_utf8();
            if verb == '%' {
                // Percent takes no operand and ignores width and precision.
                self.buf.push(b'%');
            } else if !self.good_arg_num {
                self.bad_arg(verb, "(BADINDEX)");
            } else if arg_num >= args.len() {
                self.bad_arg(verb, "(MISSING)");
            } else {
                if verb == 'v' {
                    self.move_v_flags();
                }
                self.print_arg(&args[arg_num], verb)?;
                arg_num += 1;
            }
        }
        // Extra operands, unless the format reordered them.
        if !self.reordered && arg_num < args.len() {
            self.f = Flags::default();
            self.buf.extend_from_slice(b"%!(EXTRA ");
            for (n, arg) in args[arg_num..].iter().enumerate() {
                if n > 0 {
                    self.buf.extend_from_slice(b", ");
                }
                let arg = resolve(arg)?;
                if let Typed::Nil = arg.get() {
                    self.buf.extend_from_slice(b"<nil>");
                } else {
                    self.buf.extend_from_slice(type_name(arg.get()).as_bytes());
                    self.buf.push(b'=');
                    self.print_arg(arg.get(), 'v')?;
                }
            }
            self.buf.push(b')');
        }
        Ok(())
    }

    /// `%#v` and `%+v` are formats of their own (Go syntax, field names).
    fn move_v_flags(&mut self) {
        self.f.sharp_v = self.f.sharp;
        self.f.sharp = false;
        self.f.plus_v = self.f.plus;
        self.f.plus = false;
    }

    fn bad_arg(&mut self, verb: char, what: &str) {
        self.buf.extend_from_slice(b"%!");
        push_char(&mut self.buf, verb);
        self.buf.extend_from_slice(what.as_bytes());
    }
}

/// A value type with no values, for printing text that is no operand.
enum NoValue {}

impl GoTyped for NoValue {
    fn go_typed(&self) -> Result<Typed<'_, Self>, Unprintable> {
        match *self {}
    }
}

fn push_char(buf: &mut Vec<u8>, c: char) {
    let mut tmp = [0u8; 4];
    buf.extend_from_slice(c.encode_utf8(&mut tmp).as_bytes());
}

/// tooLarge: widths and precisions beyond a million are refused.
fn too_large(x: i64) -> bool {
    !(-1_000_000..=1_000_000).contains(&x)
}

/// parsenum: the decimal number at `s[start..end]`, if any, and where it ends.
fn parse_num(s: &[u8], start: usize, end: usize) -> (i64, bool, usize) {
    if start >= end {
        return (0, false, end);
    }
    let (mut num, mut is_num, mut i) = (0i64, false, start);
    while i < end && s[i].is_ascii_digit() {
        if too_large(num) {
            return (0, false, end); // overflow
        }
        num = num * 10 + i64::from(s[i] - b'0');
        is_num = true;
        i += 1;
    }
    (num, is_num, i)
}

/// parseArgNumber: `[n]` at the start of `format` as a zero-based index,
/// the bytes it takes, and whether it parsed.
fn parse_arg_number(format: &[u8]) -> (i64, usize, bool) {
    if format.len() < 3 {
        return (0, 1, false);
    }
    for i in 1..format.len() {
        if format[i] == b']' {
            let (width, ok, newi) = parse_num(format, 1, i);
            if !ok || newi != i {
                return (0, i + 1, false);
            }
            return (width - 1, i + 1, true);
        }
    }
    (0, 1, false)
}

/// fmtsort's compare of two keys of one map: numbers and strings by `<`,
/// NaN first, false before true, nil first; keys of different types keep
/// their order (Go's answer then depends on reflect.Type addresses).
fn key_order<T>(a: &Typed<'_, T>, b: &Typed<'_, T>) -> std::cmp::Ordering {
    use std::cmp::Ordering::*;
    match (a, b) {
        (Typed::Int(ta, x), Typed::Int(tb, y)) if ta == tb => {
            if ta.is_signed() {
                x.cmp(y)
            } else {
                (*x as u64).cmp(&(*y as u64))
            }
        }
        (Typed::Str(x), Typed::Str(y)) => x.as_bytes().cmp(y.as_bytes()),
        (Typed::Float(x, _), Typed::Float(y, _)) => match (x.is_nan(), y.is_nan()) {
            (true, false) => Less,
            (false, true) => Greater,
            _ => x.partial_cmp(y).unwrap_or(Equal),
        },
        (Typed::Bool(x), Typed::Bool(y)) => x.cmp(y),
        (Typed::Nil, Typed::Nil) => Equal,
        (Typed::Nil, _) => Less,
        (_, Typed::Nil) => Greater,
        _ => Equal,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    /// A typed Go value of the conformance table (tools/go-printf-oracle).
    #[derive(Debug)]
    enum Arg {
        Nil,
        Bool(bool),
        Int(IntType, i64),
        Float(f64, bool),
        Str(String),
        Bytes(Vec<u8>),
        List(String, Vec<Arg>),
        Map(String, Vec<(Arg, Arg)>),
        Stringer(String, String, Option<String>),
        Struct(String, Vec<(String, Arg)>),
        Ptr(String, Box<Arg>),
    }

    impl GoTyped for Arg {
        fn go_typed(&self) -> Result<Typed<'_, Arg>, Unprintable> {
            Ok(match self {
                Arg::Nil => Typed::Nil,
                Arg::Bool(b) => Typed::Bool(*b),
                Arg::Int(t, i) => Typed::Int(*t, *i),
                Arg::Float(f, float32) => Typed::Float(*f, *float32),
                Arg::Str(s) => Typed::Str(s.into()),
                Arg::Bytes(b) => Typed::Bytes(b),
                Arg::List(t, items) => Typed::List(t.into(), items.iter().map(Typed::Of).collect()),
                Arg::Map(t, entries) => Typed::Map(t.into(), entries.iter().map(|(k, v)| (Typed::Of(k), Typed::Of(v))).collect()),
                Arg::Stringer(t, text, gs) => Typed::Stringer { go_type: t.into(), text: text.clone(), go_syntax: gs.clone() },
                Arg::Struct(t, fields) => Typed::Struct(t.into(), fields.iter().map(|(n, f)| (n.as_str(), Typed::Of(f))).collect()),
                Arg::Ptr(t, target) => Typed::Ptr(t.into(), Box::new(Typed::Of(target))),
            })
        }
    }

    fn int_type(name: &str) -> Option<IntType> {
        use IntType::*;
        [Int, Int8, Int16, Int32, Int64, Uint, Uint8, Uint16, Uint32, Uint64, Uintptr].into_iter().find(|t| t.name() == name)
    }

    fn number_text(v: &Value) -> String {
        match v {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        }
    }

    fn arg(spec: &Value) -> Arg {
        let t = spec["t"].as_str().expect("t");
        let v = &spec["v"];
        if let Some(it) = int_type(t) {
            let i = v.as_i64().unwrap_or_else(|| v.as_u64().expect("an integer") as i64);
            return Arg::Int(it, i);
        }
        match t {
            "nil" => Arg::Nil,
            "bool" => Arg::Bool(v.as_bool().expect("bool")),
            "string" => Arg::Str(v.as_str().expect("string").into()),
            "float64" | "float32" => {
                let text = number_text(v);
                let f: f64 = match text.as_str() {
                    "NaN" => f64::NAN,
                    "+Inf" => f64::INFINITY,
                    "-Inf" => f64::NEG_INFINITY,
                    other => other.parse().expect("a float"),
                };
                // A float32 holds the nearest float32.
                if t == "float32" { Arg::Float(f64::from(f as f32), true) } else { Arg::Float(f, false) }
            }
            "[]byte" => match spec.get("hex").and_then(Value::as_str) {
                Some(hex) => Arg::Bytes((0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex")).collect()),
                None => Arg::Bytes(v.as_str().unwrap_or_default().as_bytes().to_vec()),
            },
            "time.Time" => Arg::Stringer(t.into(), spec["text"].as_str().expect("text").into(), spec["gostring"].as_str().map(String::from)),
            // reflect.StructOf's fields are all interface{} here.
            "struct" => {
                let fields: Vec<(String, Arg)> = v.as_array().expect("fields").iter().map(|f| (f[0].as_str().expect("name").to_string(), arg(&f[1]))).collect();
                let names: Vec<String> = fields.iter().map(|(n, _)| format!("{n} interface {{}}")).collect();
                let go_type = if names.is_empty() { "struct {}".into() } else { format!("struct {{ {} }}", names.join("; ")) };
                Arg::Struct(go_type, fields)
            }
            "ptr" => {
                let target = arg(v);
                let elem = match &target {
                    Arg::List(t, _) | Arg::Map(t, _) | Arg::Struct(t, _) => t.clone(),
                    _ => panic!("a pointer to a composite value"),
                };
                Arg::Ptr(format!("*{elem}"), Box::new(target))
            }
            list if list.starts_with("[]") => Arg::List(list.into(), v.as_array().expect("items").iter().map(arg).collect()),
            map if map.starts_with("map[") => Arg::Map(map.into(), v.as_array().expect("entries").iter().map(|e| (arg(&e[0]), arg(&e[1]))).collect()),
            other => panic!("unknown type {other}"),
        }
    }

    fn hex(b: &[u8]) -> String {
        b.iter().map(|c| format!("{c:02x}")).collect()
    }

    /// Every case of tests/data/go/printf.json, byte for byte against what
    /// Go 1.19's fmt printed for it.
    #[test]
    fn sprintf_sprint_and_sprintln_print_what_go_fmt_prints() {
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/go/printf.json")).expect("the table");
        let cases: Vec<Value> = serde_json::from_str(&text).expect("JSON");
        let mut failures = Vec::new();
        for case in &cases {
            let args: Vec<Arg> = case["args"].as_array().map(|a| a.iter().map(arg).collect()).unwrap_or_default();
            let got = match case["func"].as_str().unwrap_or("sprintf") {
                "sprint" => sprint_bytes(&args),
                "sprintln" => sprintln_bytes(&args),
                _ => sprintf_bytes(case["format"].as_str().expect("format"), &args),
            };
            let want = &case["go"];
            let ok = match &got {
                Ok(got) => match want.get("hex").and_then(Value::as_str) {
                    Some(h) => hex(got) == h,
                    None => Some(got.as_slice()) == want["output"].as_str().map(str::as_bytes),
                },
                Err(_) => false,
            };
            if !ok {
                let got = got.map(|g| String::from_utf8_lossy(&g).into_owned());
                failures.push(format!("{}: {:?} {}\n  want {:?}\n  got  {:?}", case["name"], case["format"], case["args"], want["output"], got));
            }
        }
        let n = cases.len();
        assert!(n >= 600, "the table has {n} cases");
        assert!(failures.is_empty(), "{} of {n} cases differ from Go:\n{}", failures.len(), failures.iter().take(40).cloned().collect::<Vec<_>>().join("\n"));
    }

    /// The kube-prometheus-stack chart's values (200 KB of YAML) as JSON
    /// decoded into `interface{}`, printed with `%v`, `%#v` and `%q`.
    #[test]
    fn a_real_sized_value_prints_what_go_prints() {
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/go/printf-large.json")).expect("the table");
        let cases: Vec<Value> = serde_json::from_str(&text).expect("JSON");
        for case in &cases {
            let args: Vec<Value> = case["args"].as_array().expect("args").iter().map(|a| a["v"].clone()).collect();
            let got = sprintf(case["format"].as_str().expect("format"), &args).expect("printable");
            let want = case["go"]["output"].as_str().expect("output");
            assert!(got == want, "{}: {} bytes, Go printed {}; first difference at byte {:?}", case["name"], got.len(), want.len(), got.bytes().zip(want.bytes()).position(|(a, b)| a != b));
        }
    }

    #[test]
    fn unprintable_values_are_errors_not_guesses() {
        let t = Arg::Stringer("time.Time".into(), "x".into(), None);
        assert!(sprintf("%d", &[t]).is_err());
        let l = Arg::List("[]int".into(), vec![]);
        assert!(sprintf("%p", &[l]).is_err());
    }

    #[test]
    fn pointers_below_the_top_are_errors_not_addresses() {
        let p = Arg::Ptr("*[]int".into(), Box::new(Arg::List("[]int".into(), vec![])));
        assert_eq!(sprintf("%v", &[Arg::List("[]interface {}".into(), vec![p])]).unwrap_err().0, "a *[]int inside a value (Go prints its address)");
    }

    #[test]
    fn invalid_utf8_becomes_the_replacement_character_in_text() {
        assert_eq!(sprintf("%s|", &[Arg::Bytes(vec![b'a', 0xff])]).unwrap(), "a\u{fffd}|");
    }
}
