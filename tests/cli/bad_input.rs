//! Every malformed layer gives exit 1 and a message naming the input and the layer.

use crate::support::{fails, ok, releasex, run};

fn decode_err(file: &str) -> String {
    fails(&["release", "decode", "-f", &format!("tests/fixtures/bad/{file}")])
}

#[test]
fn bad_base64_in_the_kubernetes_layer() {
    insta::assert_snapshot!(decode_err("bad-base64-outer.json"));
}

#[test]
fn bad_base64_in_helms_layer() {
    insta::assert_snapshot!(decode_err("bad-base64-inner.json"));
}

#[test]
fn payload_neither_gzip_nor_json() {
    insta::assert_snapshot!(decode_err("not-gzip-not-json.json"));
}

#[test]
fn truncated_gzip() {
    insta::assert_snapshot!(decode_err("truncated-gzip.json"));
}

#[test]
fn invalid_json_inside_gzip() {
    insta::assert_snapshot!(decode_err("invalid-json.json"));
}

#[test]
fn secret_without_release_key() {
    insta::assert_snapshot!(decode_err("no-release-key.json"));
}

#[test]
fn unknown_status() {
    insta::assert_snapshot!(decode_err("unknown-status.json"));
}

#[test]
fn object_that_is_not_a_release_record() {
    insta::assert_snapshot!(decode_err("not-a-secret.json"));
}

#[test]
fn empty_file() {
    insta::assert_snapshot!(decode_err("empty.json"));
}

#[test]
fn missing_file_names_the_path() {
    let err = fails(&["release", "decode", "-f", "tests/fixtures/does-not-exist.yaml"]);
    assert!(err.starts_with("error: cannot read tests/fixtures/does-not-exist.yaml: "), "{err}");
}

#[test]
fn record_filed_under_other_labels_decodes_with_a_warning() {
    let r = run(releasex().args(["release", "decode", "-f", "tests/fixtures/bad/label-mismatch.json"]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    insta::assert_snapshot!(r.stderr);
}

#[test]
fn gzip_bomb_is_refused_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bomb.txt");
    let zeros = vec![b'0'; 65 * 1024 * 1024];
    std::fs::write(&path, releasex::release::codec::encode_payload(&zeros)).unwrap();
    let err = fails(&["release", "decode", "-f", path.to_str().unwrap()]);
    assert!(err.contains("decompressed record exceeds 64 MiB"), "{err}");
}

#[test]
fn usage_errors_exit_with_1() {
    let r = run(releasex().args(["release", "decode", "--show", "nonsense"]));
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("invalid value 'nonsense' for '--show <SHOW>'"), "{}", r.stderr);
    let r = run(releasex().args(["release", "decode", "--driver", "memory", "x"]));
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("the memory driver keeps nothing"), "{}", r.stderr);
}

#[test]
fn help_and_version_exit_0() {
    assert!(ok(&["--help"]).contains("release"));
    assert!(ok(&["--version"]).starts_with("kubectl-releasex "));
}
