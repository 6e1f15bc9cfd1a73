//! Chart archives (`.tgz`): helm pkg/chart/loader/archive/archive.go
//! `LoadArchiveFiles` and `EnsureArchive`.
//!
//! Every entry loses its first path component (the archive's root folder,
//! whatever its name; several roots merge), directories and PAX headers are
//! skipped, links and other special entries become files with their (empty)
//! data, a UTF-8 BOM is dropped, and the same path checks and size limits as
//! Helm's apply: 5 MiB per file and 100 MiB in all, decompressed.

use super::Limits;
use crate::go::path::clean as go_path_clean;
use flate2::read::MultiGzDecoder;
use std::io::Read;

/// A file read out of a chart (directory or archive).
#[derive(Debug, Clone)]
pub(crate) struct BufferedFile {
    /// The path Helm gives it: relative to the chart root, `/`-separated.
    pub name: String,
    pub data: Vec<u8>,
    /// How to show it to users, e.g. `mychart/charts/sub-1.0.0.tgz:sub/values.yaml`.
    pub display: String,
    /// The same, relative to the top chart: `charts/sub-1.0.0.tgz:sub/values.yaml`.
    pub rel: String,
    /// Go's nil data: an empty file read from an archive (Helm then sees no
    /// `values.schema.json` at all).
    pub nil_data: bool,
}

const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

pub(crate) fn trim_bom(mut data: Vec<u8>) -> Vec<u8> {
    if data.starts_with(UTF8_BOM) {
        data.drain(..3);
    }
    data
}

/// The files of a gzip-compressed tar archive, with Helm's checks. The
/// error texts are Helm's. `display` and `rel` name the archive itself.
pub(crate) fn load_archive_files(
    data: &[u8],
    display: &str,
    rel: &str,
    limits: &Limits,
) -> Result<(Vec<BufferedFile>, String), String> {
    // Go's gzip.NewReader reads the 10-byte header first.
    if data.is_empty() {
        return Err("EOF".into());
    }
    if data.len() < 10 {
        return Err("unexpected EOF".into());
    }
    if data[0] != 0x1f || data[1] != 0x8b || data[2] != 8 {
        return Err("gzip: invalid header".into());
    }
    let mut archive = tar::Archive::new(MultiGzDecoder::new(data));
    let mut files = Vec::new();
    let mut root = String::new();
    let mut remaining = limits.max_chart_size;
    let entries = archive.entries().map_err(|e| e.to_string())?;
    for entry in entries {
        let mut entry = entry.map_err(|e| e.to_string())?;
        let header = entry.header();
        let kind = header.entry_type();
        let raw_name = String::from_utf8_lossy(&entry.path_bytes()).into_owned();
        let mode_is_dir = header.mode().is_ok_and(|m| m & 0o170000 == 0o040000);
        let old_style_dir = header.as_bytes()[156] == 0 && raw_name.ends_with('/');
        if kind.is_dir() || mode_is_dir || old_style_dir {
            continue;
        }
        if kind.is_pax_global_extensions() || kind.is_pax_local_extensions() {
            continue;
        }
        // An archive made on Windows may use `\`.
        let delimiter = if raw_name.contains('\\') { '\\' } else { '/' };
        let parts: Vec<&str> = raw_name.split(delimiter).collect();
        let joined = parts[1..].join(&delimiter.to_string());
        let n = joined.replace(delimiter, "/");
        if n.starts_with('/') {
            return Err("chart illegally contains absolute paths".into());
        }
        let n = go_path_clean(&n);
        if n == "." {
            return Err(format!(
                "chart illegally contains content outside the base directory: {}",
                crate::go::quote::quote(&raw_name)
            ));
        }
        if n.starts_with("..") {
            return Err("chart illegally references parent directory".into());
        }
        let b = n.as_bytes();
        if b.len() >= 3 && b[0].is_ascii_alphabetic() && b[1] == b':' && b[2] == b'/' {
            return Err("chart contains illegally named files".into());
        }
        if parts[0] == "Chart.yaml" {
            return Err("chart yaml not in base directory".into());
        }
        let size = entry.size();
        if size > remaining {
            return Err(format!(
                "decompressed chart is larger than the maximum size {}",
                limits.max_chart_size
            ));
        }
        if size > limits.max_file_size {
            return Err(format!(
                "decompressed chart file {} is larger than the maximum file size {}",
                crate::go::quote::quote(&raw_name),
                limits.max_file_size
            ));
        }
        let mut buf = Vec::with_capacity(size as usize);
        let written = (&mut entry)
            .take(remaining)
            .read_to_end(&mut buf)
            .map_err(|e| e.to_string())? as u64;
        remaining -= written;
        if written < size || remaining == 0 {
            return Err(format!(
                "decompressed chart is larger than the maximum size {}",
                limits.max_chart_size
            ));
        }
        if root.is_empty() {
            root = parts[0].to_string();
        }
        let inner = parts.join("/");
        let nil_data = buf.is_empty();
        files.push(BufferedFile {
            name: n,
            nil_data,
            data: trim_bom(buf),
            display: format!("{display}:{inner}"),
            rel: if rel.is_empty() {
                inner.clone()
            } else {
                format!("{rel}:{inner}")
            },
        });
    }
    if files.is_empty() {
        return Err("no files in chart archive".into());
    }
    Ok((files, root))
}

/// helm: EnsureArchive: a top-level chart file must look like gzip.
pub(crate) fn ensure_archive(name: &str, head: &[u8]) -> Result<(), String> {
    if head.starts_with(b"\x1f\x8b\x08") {
        return Ok(());
    }
    if name.ends_with(".yml") || name.ends_with(".yaml") {
        return Err(format!(
            "file '{name}' seems to be a YAML file, but expected a gzipped archive"
        ));
    }
    Err(format!(
        "file '{name}' does not appear to be a gzipped archive; got '{}'",
        detect_content_type(head)
    ))
}

/// A small part of Go's http.DetectContentType, on the 512-byte buffer
/// Helm passes (zero-padded, so a short file reads as binary).
fn detect_content_type(head: &[u8]) -> &'static str {
    let mut buf = [0u8; 512];
    let n = head.len().min(512);
    buf[..n].copy_from_slice(&head[..n]);
    let ws = |b: &u8| matches!(b, b'\t' | b'\n' | 0x0c | b'\r' | b' ');
    let start = buf.iter().position(|b| !ws(b)).unwrap_or(buf.len());
    let data = &buf[start..];
    let lower_starts =
        |sig: &[u8]| data.len() >= sig.len() && data[..sig.len()].eq_ignore_ascii_case(sig);
    if buf.starts_with(b"%PDF-") {
        return "application/pdf";
    }
    if buf.starts_with(b"PK\x03\x04") {
        return "application/zip";
    }
    if buf.starts_with(b"\x89PNG\r\n\x1a\n") {
        return "image/png";
    }
    if lower_starts(b"<?xml") {
        return "text/xml; charset=utf-8";
    }
    if lower_starts(b"<!doctype html") || lower_starts(b"<html") {
        return "text/html; charset=utf-8";
    }
    if buf.len() > 262 && &buf[257..262] == b"ustar" {
        return "application/x-tar";
    }
    if buf.starts_with(b"\xfe\xff") || buf.starts_with(b"\xff\xfe") {
        return "text/plain; charset=utf-16";
    }
    if buf.starts_with(UTF8_BOM) {
        return "text/plain; charset=utf-8";
    }
    let binary = buf.iter().any(|&b| {
        b <= 0x08 || b == 0x0b || (0x0e..=0x1a).contains(&b) || (0x1c..=0x1f).contains(&b)
    });
    if binary {
        "application/octet-stream"
    } else {
        "text/plain; charset=utf-8"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_clean_like_go() {
        for (input, want) in [
            ("", "."),
            ("a/b", "a/b"),
            ("a//b", "a/b"),
            ("a/./b", "a/b"),
            ("a/../b", "b"),
            ("../a", "../a"),
            ("a/../..", ".."),
            ("a/", "a"),
            ("/../a", "/a"),
            ("./", "."),
        ] {
            assert_eq!(go_path_clean(input), want, "{input}");
        }
    }

    #[test]
    fn short_files_sniff_as_binary_like_go() {
        assert_eq!(
            ensure_archive("values.txt", b"a: 1\n").unwrap_err(),
            "file 'values.txt' does not appear to be a gzipped archive; got 'application/octet-stream'"
        );
        assert_eq!(
            ensure_archive("v.yaml", b"a: 1\n").unwrap_err(),
            "file 'v.yaml' seems to be a YAML file, but expected a gzipped archive"
        );
        let long = "a: 1\n".repeat(200);
        assert!(
            ensure_archive("x", long.as_bytes())
                .unwrap_err()
                .ends_with("got 'text/plain; charset=utf-8'")
        );
        assert!(ensure_archive("x.tgz", b"\x1f\x8b\x08\0").is_ok());
    }

    #[test]
    fn gzip_header_errors_read_like_go() {
        let limits = Limits::default();
        assert_eq!(
            load_archive_files(b"", "x", "", &limits).unwrap_err(),
            "EOF"
        );
        assert_eq!(
            load_archive_files(b"\x1f\x8b", "x", "", &limits).unwrap_err(),
            "unexpected EOF"
        );
        assert_eq!(
            load_archive_files(b"not a gzip stream", "x", "", &limits).unwrap_err(),
            "gzip: invalid header"
        );
    }
}
