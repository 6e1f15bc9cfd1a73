//! Go's `os.ReadFile` and its error words (`*fs.PathError`: `OP PATH:
//! ERRNO`, the errno in Go's lowercase `syscall` table), which Helm prints
//! verbatim for `-f` and `--set-file` (helm: pkg/cli/values/options.go
//! readFile -> os.ReadFile).

use std::io::Read as _;

/// Go's `syscall.Errno.Error()` for `e` (`zerrors_linux_amd64.go`'s table,
/// which is glibc's `strerror` in lower case for the errors files give).
pub fn errno_text(e: &std::io::Error) -> String {
    let rust = e.to_string();
    // Rust prints `strerror (os error N)`; Go prints `strerror` starting lower case.
    let bare = match e.raw_os_error() {
        Some(code) => rust.strip_suffix(&format!(" (os error {code})")).unwrap_or(&rust).to_string(),
        None => rust,
    };
    let mut chars = bare.chars();
    match chars.next() {
        // Go's table keeps acronyms (`RPC struct is bad`); files never give those.
        Some(first) if !bare.starts_with("RPC") => first.to_lowercase().chain(chars).collect(),
        _ => bare,
    }
}

/// `os.ReadFile(path)` with Go's error text: `open PATH: ...` when the file
/// cannot be opened, `read PATH: ...` when it opens but cannot be read (a
/// directory opens on Linux and fails on read: `read PATH: is a directory`).
pub fn read_file(path: &str) -> Result<Vec<u8>, String> {
    let mut file = std::fs::File::open(path).map_err(|e| format!("open {path}: {}", errno_text(&e)))?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).map_err(|e| format!("read {path}: {}", errno_text(&e)))?;
    Ok(bytes)
}

/// The Go string of `bytes` as `encoding/json` prints it: each byte that
/// does not start a valid UTF-8 sequence becomes one U+FFFD (Go decodes
/// invalid input one byte at a time, `utf8.DecodeRuneInString`).
pub fn lossy_string(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        out.push_str(chunk.valid());
        for _ in chunk.invalid() {
            out.push('\u{FFFD}');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_file_and_directory_read_as_go_words_them() {
        let dir = tempfile::tempdir().expect("tempdir");
        let missing = dir.path().join("nope.yaml");
        let missing = missing.to_str().expect("utf-8");
        assert_eq!(read_file(missing).unwrap_err(), format!("open {missing}: no such file or directory"));
        let d = dir.path().to_str().expect("utf-8");
        assert_eq!(read_file(d).unwrap_err(), format!("read {d}: is a directory"));
        let under_file = format!("{}/x", file!());
        assert_eq!(read_file(&under_file).unwrap_err(), format!("open {under_file}: not a directory"));
    }

    #[test]
    fn invalid_utf8_becomes_one_replacement_per_byte_as_in_go() {
        assert_eq!(lossy_string(b"a\xff\xe2\x82b"), "a\u{FFFD}\u{FFFD}\u{FFFD}b");
        assert_eq!(lossy_string("ü".as_bytes()), "ü");
    }
}
