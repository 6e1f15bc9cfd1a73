//! A hostile API server (the fixture server's fault modes, on 127.0.0.1):
//! hanging before the headers, stalling mid-body, endless bodies, error
//! statuses with and without `Retry-After`, malformed JSON and JSON of the
//! wrong type, against every command that reads the cluster. Each case
//! asserts a clear error that names the request, within its stated time and
//! memory bound, and that only GET and LIST were sent.
//!
//! Bounds: the timeout cases pass `--request-timeout 2s` and must end within
//! [`TIMEOUT_CASE`] (2 s per request plus start-up, a debug build on two busy
//! cores); the endless-body cases end at the 256 MiB answer cap, within
//! [`ENDLESS_CASE`]; completion within its 1.5 s budget and 32 MiB cap,
//! within [`COMPLETION_CASE`].

use serde_json::Value;

use crate::fixture_api::{Fault, FixtureApi, as_served};
use crate::support::{Limits, Outcome, run};

/// `--request-timeout 2s`: 2 s of waiting, then a prompt error.
const TIMEOUT_CASE: Limits = Limits { wall_seconds: 8.0, max_rss_mib: 256 };
/// The 256 MiB cap on one answer plus 96 MiB for the program (measured:
/// 283-288 MiB, about 1 s).
const ENDLESS_CASE: Limits = Limits { wall_seconds: 30.0, max_rss_mib: 352 };
/// Completion: its 1.5 s budget and 32 MiB cap, plus start-up (measured:
/// 1.55 s against a hang, 50 MiB against an endless list).
const COMPLETION_CASE: Limits = Limits { wall_seconds: 5.0, max_rss_mib: 96 };
/// Errors the server answers at once.
const PROMPT_CASE: Limits = Limits { wall_seconds: 8.0, max_rss_mib: 256 };

const SECRETS: &str = "/api/v1/namespaces/team-a/secrets";
const PROBE: &str = "/api/v1/namespaces/team-a/configmaps/probe";
const PROBE_MANIFEST: &str = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: probe\ndata:\n  a: \"1\"\n";
const CHART: &str = "tests/fixtures/charts/secret-hook";
const RECORDS: &str = "tests/fixtures/releases/secret-hook.list.json";

/// The fixture server holding release `demo` (Secrets in team-a), a
/// kubeconfig pointing at it, and a manifest with ConfigMap `probe`.
struct Cluster {
    api: FixtureApi,
    dir: tempfile::TempDir,
    kubeconfig: String,
}

fn cluster() -> Cluster {
    let text = std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(RECORDS)).expect("records");
    let items = serde_json::from_str::<Value>(&text).expect("json")["items"].as_array().expect("items").clone();
    let objects = items.into_iter().enumerate().map(|(n, o)| as_served(o, "team-a", n)).collect();
    let api = FixtureApi::start(objects);
    let dir = tempfile::tempdir().expect("tempdir");
    let kubeconfig = api.write_kubeconfig(dir.path(), "team-a").display().to_string();
    std::fs::write(dir.path().join("probe.yaml"), PROBE_MANIFEST).expect("manifest");
    Cluster { api, dir, kubeconfig }
}

impl Cluster {
    fn run(&self, args: &[&str], limits: Limits) -> Outcome {
        let outcome = run(args, &[("KUBECONFIG", &self.kubeconfig)], None, limits);
        self.api.assert_read_only();
        outcome
    }

    /// The baseline holds several ConfigMaps, so the preview reads them with
    /// one LIST; forbidding that LIST makes it GET each object (the fallback),
    /// which is where these tests put their fault.
    fn read_by_gets(&self) -> &Self {
        self.api.fail("configmaps", 403);
        self
    }

    fn manifest(&self) -> String {
        self.dir.path().join("probe.yaml").display().to_string()
    }

    /// upgrade-preview of `demo`, records from the file, objects from the cluster.
    fn preview(&self, extra: &[&str], limits: Limits) -> Outcome {
        let manifest = self.manifest();
        let mut args = vec!["upgrade-preview", "demo", CHART, "--release-file", RECORDS, "--manifest", &manifest];
        args.extend_from_slice(extra);
        self.run(&args, limits)
    }

    /// `patch --patch-meta-from-cluster` of a Deployment (reads `/openapi/v3`).
    fn patch_from_cluster(&self, extra: &[&str], limits: Limits) -> Outcome {
        let deployment = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 1\n";
        let path = self.dir.path().join("deploy.yaml");
        std::fs::write(&path, deployment).expect("deployment");
        let path = path.display().to_string();
        let mut args = vec!["patch", &path, &path, &path, "--patch-meta-from-cluster"];
        args.extend_from_slice(extra);
        self.run(&args, limits)
    }
}

mod timeouts {
    use super::*;

    #[test]
    fn release_decode_reports_a_server_that_never_answers_within_the_request_timeout() {
        let c = cluster();
        c.api.fault(SECRETS, Fault::Hang);
        let out = c.run(&["release", "decode", "demo", "--request-timeout", "2s"], TIMEOUT_CASE);
        out.assert_clean_error("did not answer within 2s while listing secrets in namespace \"team-a\"", TIMEOUT_CASE);
        assert!(out.wall_seconds >= 2.0, "gave up before the timeout: {out:#?}");
    }

    #[test]
    fn release_history_reports_a_body_that_stalls_after_the_headers() {
        let c = cluster();
        c.api.fault(SECRETS, Fault::StallBody);
        let out = c.run(&["release", "history", "demo", "--request-timeout", "2"], TIMEOUT_CASE);
        out.assert_clean_error("stopped sending: its answer was not complete within 2s while listing secrets", TIMEOUT_CASE);
    }

    #[test]
    fn upgrade_preview_reports_a_hang_of_discovery_naming_the_path() {
        let c = cluster();
        c.api.fault("/version", Fault::Hang);
        let out = c.preview(&["--request-timeout", "2s"], TIMEOUT_CASE);
        out.assert_clean_error("did not answer within 2s while getting /version", TIMEOUT_CASE);
    }

    #[test]
    fn upgrade_preview_reports_a_live_object_whose_body_stalls() {
        let c = cluster();
        c.read_by_gets().api.fault(PROBE, Fault::StallBody);
        let out = c.preview(&["--request-timeout", "2s"], TIMEOUT_CASE);
        out.assert_clean_error("not complete within 2s while getting ConfigMap probe in namespace \"team-a\"", TIMEOUT_CASE);
    }

    #[test]
    fn patch_meta_from_cluster_reports_a_hang_of_the_openapi_index() {
        let c = cluster();
        c.api.fault("/openapi/v3", Fault::Hang);
        let out = c.patch_from_cluster(&["--request-timeout", "2s"], TIMEOUT_CASE);
        out.assert_clean_error("did not answer within 2s while getting /openapi/v3", TIMEOUT_CASE);
    }

    #[test]
    fn completion_of_release_names_stays_within_its_budget_against_a_hanging_server() {
        let c = cluster();
        c.api.fault(SECRETS, Fault::Hang);
        let out = c.run(&["__complete", "release", "decode", ""], COMPLETION_CASE);
        out.assert_success(COMPLETION_CASE);
        assert_eq!(out.stdout, ":4\n", "{out:#?}");
        assert!(out.stderr.is_empty(), "{out:#?}");
    }
}

mod sizes {
    use super::*;

    #[test]
    fn release_decode_stops_an_endless_secrets_list_at_the_answer_cap() {
        let c = cluster();
        c.api.fault(SECRETS, Fault::EndlessBody);
        let out = c.run(&["release", "decode", "demo"], ENDLESS_CASE);
        out.assert_clean_error("sent more than 256 MiB while listing secrets in namespace \"team-a\"", ENDLESS_CASE);
    }

    #[test]
    fn upgrade_preview_stops_an_endless_live_object_at_the_answer_cap() {
        let c = cluster();
        c.read_by_gets().api.fault(PROBE, Fault::EndlessBody);
        let out = c.preview(&[], ENDLESS_CASE);
        out.assert_clean_error("sent more than 256 MiB while getting ConfigMap probe in namespace \"team-a\"", ENDLESS_CASE);
    }

    #[test]
    fn patch_meta_from_cluster_stops_an_endless_openapi_document_at_the_answer_cap() {
        let c = cluster();
        c.api.fault("/openapi/v3", Fault::EndlessBody);
        let out = c.patch_from_cluster(&[], ENDLESS_CASE);
        out.assert_clean_error("sent more than 256 MiB while getting /openapi/v3", ENDLESS_CASE);
    }

    /// One byte per chunk until the deadline (about 0.5 MB in 3 s from the
    /// fixture server): memory grows with the bytes, not with the frames.
    /// Bound: the program's ~20 MiB plus the bytes, within 40 MiB; keeping
    /// each frame cost 54 MiB here.
    #[test]
    fn a_body_sent_a_byte_at_a_time_costs_memory_for_its_bytes_only() {
        let c = cluster();
        c.api.fault(SECRETS, Fault::EndlessTinyChunks);
        let limits = Limits { max_rss_mib: 40, ..TIMEOUT_CASE };
        let out = c.run(&["release", "decode", "demo", "--request-timeout", "3s"], limits);
        out.assert_clean_error("not complete within 3s while listing secrets", limits);
    }

    #[test]
    fn completion_stops_an_endless_list_at_its_own_cap_inside_its_budget() {
        let c = cluster();
        c.api.fault(SECRETS, Fault::EndlessBody);
        let out = c.run(&["__complete", "release", "history", ""], COMPLETION_CASE);
        out.assert_success(COMPLETION_CASE);
        assert_eq!(out.stdout, ":4\n", "{out:#?}");
        assert!(out.stderr.is_empty(), "{out:#?}");
    }
}

mod statuses {
    use super::*;

    fn status(code: u16) -> Fault {
        Fault::Status { code, retry_after: None }
    }

    #[test]
    fn a_401_on_the_secrets_list_says_to_log_in_again_naming_the_list() {
        let c = cluster();
        c.api.fault(SECRETS, status(401));
        let out = c.run(&["release", "history", "demo"], PROMPT_CASE);
        out.assert_clean_error("refused the credentials of the current context (401 Unauthorized) while listing secrets", PROMPT_CASE);
    }

    #[test]
    fn a_403_on_a_live_object_names_its_resource_not_objects() {
        let c = cluster();
        c.read_by_gets().api.fault(PROBE, status(403));
        let out = c.preview(&[], PROMPT_CASE);
        out.assert_clean_error("forbidden (403): your user may not get configmaps in namespace \"team-a\"", PROMPT_CASE);
        assert!(out.stderr.contains("kubectl auth can-i get configmaps -n team-a"), "{}", out.stderr);
    }

    #[test]
    fn a_403_on_version_names_the_path_and_does_not_blame_openapi() {
        let c = cluster();
        c.api.fault("/version", status(403));
        let out = c.preview(&[], PROMPT_CASE);
        out.assert_clean_error("forbidden (403): your user may not get /version", PROMPT_CASE);
        assert!(!out.stderr.contains("OpenAPI"), "{}", out.stderr);
    }

    #[test]
    fn a_502_on_a_live_object_names_the_get_of_that_object() {
        let c = cluster();
        c.read_by_gets().api.fault(PROBE, status(502));
        let out = c.preview(&[], PROMPT_CASE);
        out.assert_clean_error("answered 502 Bad Gateway while getting ConfigMap probe in namespace \"team-a\"", PROMPT_CASE);
        assert!(!out.stderr.contains("openapi"), "{}", out.stderr);
    }

    #[test]
    fn a_502_on_the_list_of_live_objects_names_that_list() {
        let c = cluster();
        c.api.fault("/api/v1/namespaces/team-a/configmaps", status(502));
        let out = c.preview(&[], PROMPT_CASE);
        out.assert_clean_error("answered 502 Bad Gateway while listing configmaps in namespace \"team-a\"", PROMPT_CASE);
    }

    #[test]
    fn a_404_on_the_openapi_v3_index_falls_back_to_v2_and_names_it_when_that_fails_too() {
        let c = cluster();
        c.api.fault("/openapi/v2", status(500));
        let out = c.patch_from_cluster(&[], PROMPT_CASE);
        out.assert_clean_error("answered 500 Internal Server Error while getting /openapi/v2", PROMPT_CASE);
    }

    #[test]
    fn a_429_without_retry_after_is_not_retried() {
        let c = cluster();
        c.api.fault(SECRETS, status(429));
        let out = c.run(&["release", "decode", "demo"], PROMPT_CASE);
        out.assert_clean_error("answered 429 Too Many Requests while listing secrets in namespace \"team-a\"", PROMPT_CASE);
        assert_eq!(c.api.requests_for(SECRETS).len(), 1);
        assert!(!out.stderr.contains("retry"), "{}", out.stderr);
    }

    /// Retry-After: 1 forever, `--request-timeout 2s`: at most 2 s of waiting
    /// in all, so 2 retries, each announced, then the error says so.
    #[test]
    fn a_503_with_retry_after_is_retried_within_the_request_timeout_and_each_retry_announced() {
        let c = cluster();
        c.api.fault(SECRETS, Fault::Status { code: 503, retry_after: Some(1) });
        let out = c.run(&["release", "decode", "demo", "--request-timeout", "2s"], TIMEOUT_CASE);
        out.assert_clean_error("answered 503 Service Unavailable while listing secrets in namespace \"team-a\"", TIMEOUT_CASE);
        assert!(out.stderr.contains("(after 2 retries, 2s waited)"), "{}", out.stderr);
        let announced = out.stderr.lines().filter(|l| l.starts_with("warning:") && l.contains("; retry ")).count();
        assert_eq!(announced, 2, "{}", out.stderr);
        assert!(out.stderr.contains("503 Service Unavailable while listing secrets in namespace \"team-a\"; retry 1 of 10 in 1s"), "{}", out.stderr);
        assert_eq!(c.api.requests_for(SECRETS).len(), 3);
    }

    #[test]
    fn a_retry_after_beyond_the_waiting_budget_is_not_waited_for() {
        let c = cluster();
        c.api.fault(SECRETS, Fault::Status { code: 429, retry_after: Some(3600) });
        let out = c.run(&["release", "decode", "demo", "--request-timeout", "2s"], PROMPT_CASE);
        out.assert_clean_error("answered 429 Too Many Requests while listing secrets", PROMPT_CASE);
        assert!(out.wall_seconds < 2.0, "waited for Retry-After: {out:#?}");
    }

    #[test]
    fn a_throttled_server_that_recovers_gives_the_answer_after_announced_retries() {
        let c = cluster();
        c.api.fault_times(SECRETS, Fault::Status { code: 429, retry_after: Some(1) }, 1);
        let out = c.run(&["release", "history", "demo"], PROMPT_CASE);
        out.assert_success(PROMPT_CASE);
        assert!(out.stderr.contains("answered 429 Too Many Requests while listing secrets in namespace \"team-a\"; retry 1 of 10 in 1s"), "{}", out.stderr);
        assert_eq!(c.api.requests_for(SECRETS).len(), 2);
    }
}

mod bodies {
    use super::*;

    fn body(text: &str) -> Fault {
        Fault::Body(text.to_string())
    }

    #[test]
    fn malformed_json_in_the_secrets_list_is_named_as_such_not_as_unreachable() {
        let c = cluster();
        c.api.fault(SECRETS, body("{\"kind\": \"SecretList\", \"items\": [ {"));
        let out = c.run(&["release", "decode", "demo"], PROMPT_CASE);
        out.assert_clean_error("answered with malformed JSON while listing secrets in namespace \"team-a\"", PROMPT_CASE);
        assert!(!out.stderr.contains("cannot reach"), "{}", out.stderr);
    }

    #[test]
    fn a_live_object_answered_as_an_array_is_an_error_not_an_empty_object() {
        let c = cluster();
        c.read_by_gets().api.fault(PROBE, body("[1,2,3]"));
        let out = c.preview(&[], PROMPT_CASE);
        out.assert_clean_error(
            "answered JSON of the wrong shape while getting ConfigMap probe in namespace \"team-a\": expected an object, found an array",
            PROMPT_CASE,
        );
    }

    #[test]
    fn a_secrets_list_with_items_of_the_wrong_type_names_the_list() {
        let c = cluster();
        c.api.fault(SECRETS, body(r#"{"kind": "SecretList", "apiVersion": "v1", "metadata": {}, "items": 5}"#));
        let out = c.run(&["release", "history", "demo"], PROMPT_CASE);
        out.assert_clean_error("answered JSON of the wrong shape while listing secrets in namespace \"team-a\"", PROMPT_CASE);
    }

    #[test]
    fn a_version_document_that_is_not_an_object_names_the_path() {
        let c = cluster();
        c.api.fault("/version", body("\"v1.33.0\""));
        let out = c.preview(&[], PROMPT_CASE);
        out.assert_clean_error("answered JSON of the wrong shape while getting /version: expected an object, found a string", PROMPT_CASE);
    }

    #[test]
    fn an_openapi_index_that_is_not_json_names_the_path() {
        let c = cluster();
        c.api.fault("/openapi/v3", body("<html>gateway</html>"));
        let out = c.patch_from_cluster(&[], PROMPT_CASE);
        out.assert_clean_error("answered with malformed JSON while getting /openapi/v3", PROMPT_CASE);
    }
}
