//! sprig: urls (url.go `urlParse`, `urlJoin`) on Go's net/url (Go 1.19
//! url.go: `Parse`, `parse`, `parseAuthority`, `parseHost`, `unescape`,
//! `escape`, `shouldEscape`, `URL.String`), translated: the dictionary
//! `urlParse` returns and the text `urlJoin` builds depend on every one
//! of its escaping rules. (`urlquery` is a text/template builtin.)


use crate::gotmpl::func::{Call, Derive, FnError, FuncMap, Param, Sig};
use crate::gotmpl::value::go_type;
use crate::gotmpl::{Tv, Val};

use super::strings::{arg, arg_str, made_from, ok_string};

pub(super) fn register(m: &mut FuncMap) {
    m.add("urlParse", Sig::fixed(&[Param::String]), Derive::Made, url_parse);
    m.add("urlJoin", Sig::fixed(&[Param::Map]), Derive::Made, url_join);
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Path,
    Host,
    Zone,
    UserPassword,
    Fragment,
}

#[derive(Default, Debug)]
struct Url {
    scheme: String,
    opaque: String,
    user: Option<(String, Option<String>)>,
    host: String,
    path: String,
    raw_path: String,
    omit_host: bool,
    force_query: bool,
    raw_query: String,
    fragment: String,
    raw_fragment: String,
}

fn url_parse(_: &Call<'_>, a: Vec<Tv>) -> Result<Tv, FnError> {
    let u = parse_url(arg_str(&a, 0)?).map_err(|e| FnError::Go(format!("unable to parse url: {e}")))?;
    let hostname = split_host_port(&u.host).0.to_string();
    let userinfo = u.user.as_ref().map(userinfo_string).unwrap_or_default();
    let entries = [
        ("scheme", u.scheme),
        ("host", u.host),
        ("hostname", hostname),
        ("path", u.path),
        ("query", u.raw_query),
        ("opaque", u.opaque),
        ("fragment", u.fragment),
        ("userinfo", userinfo),
    ];
    let m: crate::gotmpl::GoMap = entries.into_iter().map(|(k, v)| (k.to_string(), Tv::new(Val::Str(v)))).collect();
    Ok(made_from(&a, Tv::new(Val::Map(m))))
}

/// sprig's `dictGetOrEmpty`: a missing key is "", a value of another kind panics.
fn dict_string(d: &crate::gotmpl::GoMap, key: &str) -> Result<String, FnError> {
    match d.get(key).as_ref().map(|v| &v.val) {
        None => Ok(String::new()),
        Some(Val::Str(s)) => Ok(s.clone()),
        // reflect.TypeOf(nil).Kind() dereferences a nil Type.
        Some(Val::Nil) => Err(FnError::Go("runtime error: invalid memory address or nil pointer dereference".into())),
        Some(other) => Err(FnError::Go(format!("unable to parse {key} key, must be of type string, but {} found", go_kind(other)))),
    }
}

/// `reflect.Kind.String()` of a value.
fn go_kind(v: &Val) -> &'static str {
    match v {
        Val::List(_) | Val::TypedList(..) | Val::Bytes(_) => "slice",
        Val::Map(_) | Val::StrMap(_) => "map",
        Val::Struct(..) => "struct",
        Val::Ptr(_) => "ptr",
        Val::Object(o) => o.kind(),
        other => go_type(other),
    }
}

fn url_join(_: &Call<'_>, a: Vec<Tv>) -> Result<Tv, FnError> {
    let Val::Map(d) = &arg(&a, 0)?.val else {
        return Err(FnError::Exec(format!("wrong type for value; expected map[string]interface {{}}; got {}", go_type(&arg(&a, 0)?.val))));
    };
    let mut u = Url {
        scheme: dict_string(d, "scheme")?,
        host: dict_string(d, "host")?,
        path: dict_string(d, "path")?,
        raw_query: dict_string(d, "query")?,
        opaque: dict_string(d, "opaque")?,
        fragment: dict_string(d, "fragment")?,
        ..Url::default()
    };
    let userinfo = dict_string(d, "userinfo")?;
    if !userinfo.is_empty() {
        let temp = parse_url(&format!("proto://{userinfo}@host")).map_err(|e| FnError::Go(format!("unable to parse userinfo in dict: {e}")))?;
        u.user = temp.user;
    }
    ok_string(url_string(&u)?)
}

/// `url.Parse`, its error worded as Go's `*url.Error`.
fn parse_url(raw: &str) -> Result<Url, String> {
    let (u, frag) = raw.split_once('#').unwrap_or((raw, ""));
    let mut url = parse(u).map_err(|e| format!("parse {}: {e}", crate::go::quote::quote(u)))?;
    if frag.is_empty() {
        return Ok(url);
    }
    let fragment = unescape(frag, Mode::Fragment).and_then(utf8).map_err(|e| format!("parse {}: {e}", crate::go::quote::quote(raw)))?;
    url.raw_fragment = if escape(&fragment, Mode::Fragment) == frag { String::new() } else { frag.to_string() };
    url.fragment = fragment;
    Ok(url)
}

fn utf8(b: Vec<u8>) -> Result<String, String> {
    String::from_utf8(b).map_err(|_| "unescaped bytes that are not UTF-8 (releasex cannot hold them)".to_string())
}

fn parse(raw: &str) -> Result<Url, String> {
    if raw.bytes().any(|b| b < b' ' || b == 0x7f) {
        return Err("net/url: invalid control character in URL".into());
    }
    let mut url = Url::default();
    if raw == "*" {
        url.path = "*".into();
        return Ok(url);
    }
    let (scheme, rest) = get_scheme(raw)?;
    url.scheme = scheme.to_ascii_lowercase();
    let mut rest = rest;
    if rest.ends_with('?') && rest.matches('?').count() == 1 {
        url.force_query = true;
        rest = &rest[..rest.len() - 1];
    } else if let Some((r, q)) = rest.split_once('?') {
        rest = r;
        url.raw_query = q.to_string();
    }
    if !rest.starts_with('/') {
        if !url.scheme.is_empty() {
            url.opaque = rest.to_string();
            return Ok(url);
        }
        if rest.split('/').next().is_some_and(|seg| seg.contains(':')) {
            return Err("first path segment in URL cannot contain colon".into());
        }
    }
    if (!url.scheme.is_empty() || !rest.starts_with("///")) && rest.starts_with("//") {
        let authority = &rest[2..];
        let (authority, path) = match authority.find('/') {
            Some(i) => (&authority[..i], &authority[i..]),
            None => (authority, ""),
        };
        let (user, host) = parse_authority(authority)?;
        url.user = user;
        url.host = host;
        rest = path;
    } else if !url.scheme.is_empty() && rest.starts_with('/') {
        url.omit_host = true;
    }
    let path = utf8(unescape(rest, Mode::Path)?)?;
    url.raw_path = if escape(&path, Mode::Path) == rest { String::new() } else { rest.to_string() };
    url.path = path;
    Ok(url)
}

fn get_scheme(raw: &str) -> Result<(&str, &str), String> {
    for (i, c) in raw.bytes().enumerate() {
        match c {
            b'a'..=b'z' | b'A'..=b'Z' => {}
            b'0'..=b'9' | b'+' | b'-' | b'.' if i > 0 => {}
            b':' if i == 0 => return Err("missing protocol scheme".into()),
            b':' => return Ok((&raw[..i], &raw[i + 1..])),
            _ => return Ok(("", raw)),
        }
    }
    Ok(("", raw))
}

type User = Option<(String, Option<String>)>;

fn parse_authority(authority: &str) -> Result<(User, String), String> {
    let at = authority.rfind('@');
    let host = parse_host(at.map_or(authority, |i| &authority[i + 1..]))?;
    let Some(i) = at else { return Ok((None, host)) };
    let userinfo = &authority[..i];
    if !userinfo.chars().all(|r| r.is_ascii_alphanumeric() || "-._:~!$&'()*+,;=%@".contains(r)) {
        return Err("net/url: invalid userinfo".into());
    }
    let user = match userinfo.split_once(':') {
        None => (utf8(unescape(userinfo, Mode::UserPassword)?)?, None),
        Some((name, password)) => (utf8(unescape(name, Mode::UserPassword)?)?, Some(utf8(unescape(password, Mode::UserPassword)?)?)),
    };
    Ok((Some(user), host))
}

fn valid_optional_port(port: &str) -> bool {
    port.is_empty() || port.strip_prefix(':').is_some_and(|p| p.bytes().all(|b| b.is_ascii_digit()))
}

fn parse_host(host: &str) -> Result<String, String> {
    if host.starts_with('[') {
        let Some(i) = host.rfind(']') else {
            return Err("missing ']' in host".into());
        };
        let colon_port = &host[i + 1..];
        if !valid_optional_port(colon_port) {
            return Err(format!("invalid port {} after host", crate::go::quote::quote(colon_port)));
        }
        if let Some(zone) = host[..i].find("%25") {
            let h1 = unescape(&host[..zone], Mode::Host)?;
            let h2 = unescape(&host[zone..i], Mode::Zone)?;
            let h3 = unescape(&host[i..], Mode::Host)?;
            return utf8([h1, h2, h3].concat());
        }
    } else if let Some(i) = host.rfind(':') {
        let colon_port = &host[i..];
        if !valid_optional_port(colon_port) {
            return Err(format!("invalid port {} after host", crate::go::quote::quote(colon_port)));
        }
    }
    utf8(unescape(host, Mode::Host)?)
}

fn unhex(c: u8) -> u8 {
    match c {
        b'0'..=b'9' => c - b'0',
        b'a'..=b'f' => c - b'a' + 10,
        _ => c.wrapping_sub(b'A').wrapping_add(10),
    }
}

/// net/url `unescape` (no `encodeQueryComponent` here: sprig never uses it).
fn unescape(s: &str, mode: Mode) -> Result<Vec<u8>, String> {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'%' => {
                if i + 2 >= b.len() || !b[i + 1].is_ascii_hexdigit() || !b[i + 2].is_ascii_hexdigit() {
                    let bad = &b[i..b.len().min(i + 3)];
                    return Err(format!("invalid URL escape {}", crate::go::quote::quote(&String::from_utf8_lossy(bad))));
                }
                let esc = &s[i..i + 3];
                if mode == Mode::Host && unhex(b[i + 1]) < 8 && esc != "%25" {
                    return Err(format!("invalid URL escape {}", crate::go::quote::quote(esc)));
                }
                if mode == Mode::Zone {
                    let v = unhex(b[i + 1]) << 4 | unhex(b[i + 2]);
                    if esc != "%25" && v != b' ' && should_escape(v, Mode::Host) {
                        return Err(format!("invalid URL escape {}", crate::go::quote::quote(esc)));
                    }
                }
                i += 3;
            }
            c => {
                if matches!(mode, Mode::Host | Mode::Zone) && c < 0x80 && should_escape(c, mode) {
                    return Err(format!("invalid character {} in host name", crate::go::quote::quote(&s[i..i + 1])));
                }
                i += 1;
            }
        }
    }
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            out.push(unhex(b[i + 1]) << 4 | unhex(b[i + 2]));
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    Ok(out)
}

fn should_escape(c: u8, mode: Mode) -> bool {
    if c.is_ascii_alphanumeric() {
        return false;
    }
    if matches!(mode, Mode::Host | Mode::Zone) && b"!$&'()*+,;=:[]<>\"".contains(&c) {
        return false;
    }
    match c {
        b'-' | b'_' | b'.' | b'~' => return false,
        b'$' | b'&' | b'+' | b',' | b'/' | b':' | b';' | b'=' | b'?' | b'@' => {
            match mode {
                Mode::Path => return c == b'?',
                Mode::UserPassword => return matches!(c, b'@' | b'/' | b'?' | b':'),
                Mode::Fragment => return false,
                Mode::Host | Mode::Zone => {}
            }
        }
        _ => {}
    }
    if mode == Mode::Fragment && matches!(c, b'!' | b'(' | b')' | b'*') {
        return false;
    }
    true
}

fn escape(s: &str, mode: Mode) -> String {
    let mut out = String::with_capacity(s.len());
    for &c in s.as_bytes() {
        if should_escape(c, mode) {
            out.push_str(&format!("%{c:02X}"));
        } else {
            out.push(char::from(c));
        }
    }
    out
}

fn valid_encoded(s: &str, mode: Mode) -> bool {
    s.bytes().all(|c| b"!$&'()*+,;=:@[]%".contains(&c) || !should_escape(c, mode))
}

fn userinfo_string((name, password): &(String, Option<String>)) -> String {
    let mut s = escape(name, Mode::UserPassword);
    if let Some(p) = password {
        s.push(':');
        s.push_str(&escape(p, Mode::UserPassword));
    }
    s
}

fn escaped_path(u: &Url) -> String {
    if !u.raw_path.is_empty() && valid_encoded(&u.raw_path, Mode::Path) && unescape(&u.raw_path, Mode::Path).is_ok_and(|p| p == u.path.as_bytes()) {
        return u.raw_path.clone();
    }
    if u.path == "*" {
        return "*".into();
    }
    escape(&u.path, Mode::Path)
}

/// `URL.String`.
fn url_string(u: &Url) -> Result<String, FnError> {
    let mut buf = String::new();
    if !u.scheme.is_empty() {
        buf.push_str(&u.scheme);
        buf.push(':');
    }
    if !u.opaque.is_empty() {
        buf.push_str(&u.opaque);
    } else {
        // Go: an authority when there is a scheme, host or user, unless the
        // parsed URL had none (`OmitHost`: `scheme:/path`).
        let no_authority = u.host.is_empty() && u.user.is_none();
        if !no_authority || !u.scheme.is_empty() && !u.omit_host {
            if !u.host.is_empty() || !u.path.is_empty() || u.user.is_some() {
                buf.push_str("//");
            }
            if let Some(user) = &u.user {
                buf.push_str(&userinfo_string(user));
                buf.push('@');
            }
            buf.push_str(&escape(&u.host, Mode::Host));
        }
        let path = escaped_path(u);
        if !path.is_empty() && !path.starts_with('/') && !u.host.is_empty() {
            buf.push('/');
        }
        if buf.is_empty() && path.split('/').next().is_some_and(|seg| seg.contains(':')) {
            buf.push_str("./");
        }
        buf.push_str(&path);
    }
    if u.force_query || !u.raw_query.is_empty() {
        buf.push('?');
        buf.push_str(&u.raw_query);
    }
    if !u.fragment.is_empty() {
        buf.push('#');
        let f = if !u.raw_fragment.is_empty() && valid_encoded(&u.raw_fragment, Mode::Fragment) { u.raw_fragment.clone() } else { escape(&u.fragment, Mode::Fragment) };
        buf.push_str(&f);
    }
    Ok(buf)
}

/// net/url `splitHostPort`.
fn split_host_port(host_port: &str) -> (&str, &str) {
    let mut host = host_port;
    let mut port = "";
    if let Some(colon) = host.rfind(':').filter(|&c| valid_optional_port(&host[c..])) {
        (host, port) = (&host[..colon], &host[colon + 1..]);
    }
    if host.starts_with('[') && host.ends_with(']') && host.len() >= 2 {
        host = &host[1..host.len() - 1];
    }
    (host, port)
}

#[cfg(test)]
mod tests {
    use crate::gotmpl::sprig::strings::tests::{call, out, s};

    #[test]
    fn url_parse_gives_go_net_urls_parts() {
        assert_eq!(out(call("urlParse", vec![s("https://u:p%40@example.com:8443/a%20b?x=1#frag")])), "map[fragment:frag host:example.com:8443 hostname:example.com opaque: path:/a b query:x=1 scheme:https userinfo:u:p%40]");
        assert_eq!(out(call("urlParse", vec![s(":x")])), "ERR Go(\"unable to parse url: parse \\\":x\\\": missing protocol scheme\")");
    }
}
