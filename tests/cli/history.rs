use crate::support::{fails, json, ok};

fn history(file: &str) -> String {
    ok(&["release", "history", "-f", &format!("tests/fixtures/releases/{file}")])
}

#[test]
fn history_table_of_a_healthy_release() {
    insta::assert_snapshot!(history("secret-hook.list.json"));
}

#[test]
fn history_json_has_the_documented_keys() {
    let doc = json(&ok(&["release", "history", "-f", "tests/fixtures/releases/secret-hook.list.json", "-o", "json"]));
    let top: Vec<&String> = doc.as_object().unwrap().keys().collect();
    assert_eq!(top, ["release", "revisions", "verdict"]);
    assert_eq!(doc["verdict"]["state"], "ok");
    let rows = doc["revisions"].as_array().unwrap();
    assert_eq!(rows.len(), 3);
    let keys: Vec<&String> = rows[0].as_object().unwrap().keys().collect();
    assert_eq!(keys, ["revision", "updated", "status", "chart", "app_version", "apply_method", "description"]);
    assert_eq!(rows[2]["status"], "deployed");
    assert_eq!(rows[2]["chart"], "secret-hook-1.0.0");
}

#[test]
fn pending_latest_revision_is_explained_with_the_safe_remedy() {
    insta::assert_snapshot!(history("history/pending.list.json"));
}

#[test]
fn failed_last_revision_says_which_revision_the_next_upgrade_uses() {
    insta::assert_snapshot!(history("history/failed-last.list.json"));
}

#[test]
fn failed_install_without_deployed_revision_is_explained() {
    insta::assert_snapshot!(history("history/failed-install.list.json"));
}

#[test]
fn uninstalled_release_is_explained() {
    insta::assert_snapshot!(history("history/uninstalled.list.json"));
}

#[test]
fn rollback_history() {
    insta::assert_snapshot!(history("history/rollback.list.json"));
}

#[test]
fn max_keeps_the_latest_revisions() {
    let rows = json(&ok(&["release", "history", "-f", "tests/fixtures/releases/secret-hook.list.json", "--max", "2", "-o", "json"]));
    let revs: Vec<i64> = rows["revisions"].as_array().unwrap().iter().map(|r| r["revision"].as_i64().unwrap()).collect();
    assert_eq!(revs, [2, 3]);
}

#[test]
fn history_without_name_or_file_is_a_usage_error() {
    let err = fails(&["release", "history"]);
    assert!(err.contains("name the release to read from the cluster (NAME), or read records from a file with -f FILE"), "{err}");
}

#[test]
fn history_json_carries_the_verdict_with_its_remedy() {
    let doc = json(&ok(&["release", "history", "-f", "tests/fixtures/releases/history/pending.list.json", "-o", "json"]));
    assert_eq!(doc["verdict"]["state"], "pending");
    assert!(doc["verdict"]["message"].as_str().unwrap().contains("locked"), "{doc}");
    assert!(doc["verdict"]["remedy"].as_str().unwrap().contains("helm rollback demo 2"), "{doc}");
}
