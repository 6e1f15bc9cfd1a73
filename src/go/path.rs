//! Go's `path` / `path/filepath` functions on `/`-separated (Unix) paths,
//! as Helm applies them to chart file names.

/// Go's `filepath.Base` on a Unix system: the last element after trailing
/// slashes are removed; `.` for an empty path, `/` for slashes only.
pub fn base(path: &str) -> &str {
    if path.is_empty() {
        return ".";
    }
    let trimmed = path.trim_end_matches('/');
    if trimmed.is_empty() {
        return "/";
    }
    match trimmed.rfind('/') {
        Some(i) => &trimmed[i + 1..],
        None => trimmed,
    }
}

/// Go's `path.Clean`: `.` and empty segments dropped, `..` resolved
/// lexically (kept at the start of a relative path), `.` for nothing.
pub fn clean(p: &str) -> String {
    if p.is_empty() {
        return ".".into();
    }
    let rooted = p.starts_with('/');
    let mut out: Vec<&str> = Vec::new();
    for part in p.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                if out.last().is_some_and(|l| *l != "..") {
                    out.pop();
                } else if !rooted {
                    out.push("..");
                }
            }
            other => out.push(other),
        }
    }
    let body = out.join("/");
    match (rooted, body.is_empty()) {
        (true, _) => format!("/{body}"),
        (false, true) => ".".into(),
        (false, false) => body,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_like_go() {
        for (input, want) in [("", "."), ("/", "/"), ("///", "/"), ("a", "a"), ("a/b", "b"), ("a/b/", "b"), ("/a//", "a"), ("./x", "x")] {
            assert_eq!(base(input), want, "{input}");
        }
    }
}
