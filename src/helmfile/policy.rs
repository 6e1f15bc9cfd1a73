//! helmfile's state-file policy (pkg/policy/checker.go `Checker`), run on a
//! state file's raw text before any part is rendered
//! (pkg/app/desired_state_file_loader.go `load`): the top-level keys
//! `bases`/`environments` must come before `releases`, and `environments`
//! and `releases` must not share a YAML part (helmfile's two-pass load reads
//! environments first, so a release in the same part would be rendered
//! without them).
//!
//! Current helmfile stops with these errors in every mode; helmfile 0.166
//! only warned about them outside v1 mode (its checker returned
//! `runtime.V1Mode` as "strict"). releasex follows current helmfile (the
//! README says so).

/// The top-level keys of `text` in order: a line starting `name:` gives
/// `name`; with `separators`, a `---` line (trailing spaces allowed) gives
/// `---` (checker.go `TopKeys`, `topConfigKeysRegex` `^[a-zA-Z]+:`).
fn top_keys(text: &str, separators: bool) -> Vec<&str> {
    let mut keys = Vec::new();
    for line in text.split('\n') {
        let line = line.trim_end();
        if line.is_empty() {
            continue;
        }
        if separators && line.strip_prefix("---").is_some_and(|rest| rest.chars().all(|c| c == ' ')) {
            keys.push("---");
        }
        let name_len = line.bytes().take_while(u8::is_ascii_alphabetic).count();
        if name_len > 0 && line.as_bytes().get(name_len) == Some(&b':') {
            keys.push(&line[..name_len]);
        }
    }
    keys
}

/// `Checker(file, text)`: the first policy error, in helmfile's words.
pub fn check(file: &str, text: &str) -> Result<(), String> {
    let text = text.replace("\r\n", "\n");
    let keys = top_keys(&text, false);
    if keys.is_empty() {
        return Err(format!("no top-level config keys are found in {file}"));
    }
    // TopConfigKeysVerifier: bases and environments (priority 0) before releases (1).
    let priority = |k: &str| match k {
        "bases" | "environments" => Some(0),
        "releases" => Some(1),
        _ => None,
    };
    let ordered: Vec<(&str, u8)> = keys.iter().filter_map(|k| priority(k).map(|p| (*k, p))).collect();
    for pair in ordered.windows(2) {
        if pair[0].1 > pair[1].1 {
            return Err(format!("top-level config key {} must be defined before {} in {file}", pair[1].0, pair[0].0));
        }
    }
    // forbidEnvironmentsWithReleases: the first `environments` and the first
    // `releases`, with every `---`, in order; two keys side by side share a part.
    let mut seen: Vec<&str> = Vec::new();
    let mut sequence: Vec<&str> = Vec::new();
    for k in top_keys(&text, true) {
        if k == "---" {
            sequence.push(k);
        } else if (k == "environments" || k == "releases") && !seen.contains(&k) {
            seen.push(k);
            sequence.push(k);
        }
    }
    if sequence.windows(2).any(|w| w[0] != "---" && w[1] != "---") {
        return Err("environments and releases cannot be defined within the same YAML part. Use --- to extract the environments into a dedicated part".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::check;

    // The cases of helmfile's pkg/policy/checker_test.go, in our words.
    #[test]
    fn environments_and_releases_in_one_part_are_refused_and_a_separator_between_them_is_enough() {
        assert!(check("h.yaml", "releases:\n").is_ok());
        assert!(check("h.yaml", "environments:\n").is_ok());
        assert!(check("h.yaml", "environments:\n---\nreleases:\n").is_ok());
        assert!(check("h.yaml", "---\nenvironments:\n---\nreleases:\n").is_ok());
        assert!(check("h.yaml", "environments:\n---  \nreleases:\n").is_ok());
        let err = check("h.yaml", "environments:\n  default: {}\nreleases:\n- name: a\n").unwrap_err();
        assert!(err.starts_with("environments and releases cannot be defined within the same YAML part"), "{err}");
        assert!(check("h.yaml", "environments:\r\nreleases:\r\n").is_err());
    }

    #[test]
    fn releases_before_bases_or_environments_is_refused_naming_both_keys() {
        assert!(check("h.yaml", "bases:\nenvironments:\n---\nreleases:\n").is_ok());
        assert!(check("h.yaml", "bases:\nva:\nve:\nreleases:\n").is_ok());
        assert!(check("h.yaml", "helmDefaults:\n  wait: true\n").is_ok());
        assert_eq!(check("h.yaml", "releases:\n---\nenvironments:\n").unwrap_err(), "top-level config key environments must be defined before releases in h.yaml");
        assert_eq!(check("h.yaml", "releases:\n---\nbases:\n").unwrap_err(), "top-level config key bases must be defined before releases in h.yaml");
    }

    #[test]
    fn a_file_without_top_level_keys_is_refused() {
        assert_eq!(check("h.yaml", "{{ readFile \"x\" }}\n").unwrap_err(), "no top-level config keys are found in h.yaml");
        assert!(check("h.yaml", "  indented: 1\n").is_err());
    }

    #[test]
    fn a_key_inside_a_template_or_a_nested_map_is_not_a_top_level_key() {
        assert!(check("h.yaml", "environments:\n  releases:\n---\nreleases:\n").is_ok());
        assert!(check("h.yaml", "environments:\n{{ if true }}\n---\n{{ end }}\nreleases:\n").is_ok());
        assert!(check("h.yaml", "release-notes:\nreleases:\n").is_ok());
    }
}
