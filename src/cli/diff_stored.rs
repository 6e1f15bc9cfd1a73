//! helm-diff's commands over stored records: `diff revision` (two
//! revisions of a release, or one against the latest) and `diff release`
//! (the latest revisions of two releases of the same chart), read from the
//! storage Helm uses (GET/LIST only); `diff rollback` shows rollback-preview's
//! plan. helm-diff: cmd/revision.go, cmd/release.go,
//! cmd/rollback.go

use clap::Parser as _;

use super::Outcome;
use super::context::Env;
use super::diff_cmd::{DiffCli, StoredArgs, ctx_for, resolve, source};
use super::views::helm_diff::report_text;
use crate::release::Release;
use crate::upgrade::helm_diff::{self as hd, Index};

/// The records of `release` in `namespace` (the plugin's namespace when `None`).
fn records(release: &str, namespace: Option<&str>, a: &StoredArgs, env: &Env) -> anyhow::Result<Vec<Release>> {
    let mut helm = a.helm.clone();
    if let Some(ns) = namespace {
        helm.namespace = Some(ns.to_string());
    }
    let ctx = ctx_for(env, &helm, a.kube_context.as_ref())?;
    let loaded = super::inputs::load(&source(), Some(release), &ctx)?;
    let records = crate::release::decode_history(loaded.records, Some(release), &loaded.place)?;
    Ok(records.into_iter().map(|r| r.release).collect())
}

/// A record's objects: its manifest and its hooks (helm-diff's `helm get
/// manifest` leaves the hooks out; see docs/helm-diff.md).
fn index_of(r: &Release, include_tests: bool) -> Index {
    let mut index = hd::index_manifest(r.manifest(), r.namespace(), include_tests);
    for h in r.hooks() {
        for (k, v) in hd::index_manifest(h.manifest, r.namespace(), include_tests) {
            index.entry(k).or_insert(v);
        }
    }
    index
}

fn revision_number(word: &str) -> anyhow::Result<i64> {
    word.parse().map_err(|_| anyhow::anyhow!("revision {word:?} is not a number"))
}

fn find(records: &[Release], release: &str, revision: i64) -> anyhow::Result<Release> {
    // helm get manifest --revision N: Helm's error for a revision it does not have.
    records
        .iter()
        .find(|r| r.version() == revision)
        .cloned()
        .ok_or_else(|| anyhow::anyhow!("revision {revision} of release {release:?}: release: not found"))
}

/// `diff revision RELEASE REV1 [REV2]`.
pub fn revision(cli: &DiffCli, a: &StoredArgs, env: &Env) -> anyhow::Result<Outcome> {
    match a.args.len() {
        0 | 1 => anyhow::bail!("Too few arguments to Command \"revision\".\nMinimum 2 arguments required: release name, revision"),
        4.. => anyhow::bail!("Too many arguments to Command \"revision\".\nMaximum 3 arguments allowed: release name, revision1, revision2"),
        _ => {}
    }
    let resolved = resolve(cli, &a.output, env, false)?;
    let release = &a.args[0];
    let records = records(release, None, a, env)?;
    let (old, new) = if a.args.len() == 2 {
        let latest = records.iter().max_by_key(|r| r.version()).cloned().ok_or_else(|| anyhow::anyhow!("release: not found"))?;
        (find(&records, release, revision_number(&a.args[1])?)?, latest)
    } else {
        let (mut x, mut y) = (revision_number(&a.args[1])?, revision_number(&a.args[2])?);
        if x > y {
            std::mem::swap(&mut x, &mut y);
        }
        (find(&records, release, x)?, find(&records, release, y)?)
    };
    let facts = vec![format!("revision {} ({}) -> revision {} ({}), as stored", old.version(), old.status(), new.version(), new.status())];
    finish(&index_of(&old, a.include_tests), &index_of(&new, a.include_tests), facts, a, &resolved)
}

/// `diff release [NS/]RELEASE1 [NS/]RELEASE2`.
pub fn release(cli: &DiffCli, a: &StoredArgs, env: &Env) -> anyhow::Result<Outcome> {
    if a.args.len() < 2 {
        anyhow::bail!("Too few arguments to Command \"release\".\nMinimum 2 arguments required: release name-1, release name-2");
    }
    let resolved = resolve(cli, &a.output, env, false)?;
    let latest = |word: &str| -> anyhow::Result<Release> {
        let (ns, name) = match word.split_once('/') {
            Some((ns, name)) => (Some(ns), name),
            None => (None, word),
        };
        records(name, ns, a, env)?.into_iter().max_by_key(Release::version).ok_or_else(|| anyhow::anyhow!("release: not found"))
    };
    let (one, two) = (latest(&a.args[0])?, latest(&a.args[1])?);
    if one.chart_name() != two.chart_name() {
        // helm-diff prints this and exits 0; a comparison that cannot be made is an error here.
        anyhow::bail!(
            "Incomparable Releases: unable to compare releases from two different charts {:?}, {:?} (try helm diff release --help to know more)",
            one.chart_name(),
            two.chart_name()
        );
    }
    let include_tests = a.include_tests;
    let facts = vec![format!(
        "{}/{} revision {} -> {}/{} revision {}, objects matched by template",
        one.namespace(),
        one.name(),
        one.version(),
        two.namespace(),
        two.name(),
        two.version()
    )];
    finish(&by_template(&index_of(&one, include_tests)), &by_template(&index_of(&two, include_tests)), facts, a, &resolved)
}

/// helm-diff: diff/diff.go reIndexForRelease. Objects of two releases are
/// matched by the template they come from (`path`, `path 1`, ... for
/// several in one template, in key order).
fn by_template(index: &Index) -> Index {
    let mut out = Index::new();
    let mut count: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for o in index.values() {
        let first = hd::content(&o.source, &o.object).lines().next().unwrap_or("").replacen("# Source: ", "", 1);
        let n = count.entry(first.clone()).or_insert(0);
        let key = if *n > 0 { format!("{first} {n}") } else { first };
        *n += 1;
        out.insert(key, o.clone());
    }
    out
}

fn finish(old: &Index, new: &Index, facts: Vec<String>, a: &StoredArgs, resolved: &super::diff_cmd::Resolved) -> anyhow::Result<Outcome> {
    let report = hd::report(old, new, &[], &resolved.options);
    let text = report_text(&report, &Default::default(), &facts, &resolved.view);
    let mut outcome = Outcome { stdout: text.stdout, notes: text.stderr_facts, ..Outcome::default() };
    if a.normalize_manifests {
        outcome.notes.push("--normalize-manifests accepted: objects are compared parsed, so style differences never show".into());
    }
    if a.detailed_exitcode && report.changes {
        outcome.exit_code = Some(2);
    }
    Ok(outcome)
}

/// `diff rollback RELEASE REVISION`: rollback-preview's plan (what `helm
/// rollback` sends, against live state), shown as helm-diff's report.
/// helm-diff: cmd/rollback.go (checkArgsLength: both arguments, more are ignored).
pub fn rollback(cli: &DiffCli, a: &StoredArgs, env: &Env) -> anyhow::Result<Outcome> {
    if a.args.len() < 2 {
        anyhow::bail!("This command needs 2 arguments: release name, revision number");
    }
    revision_number(&a.args[1])?;
    let resolved = resolve(cli, &a.output, env, false)?;
    // Secrets reach the report unmasked: helm-diff's own redaction applies there.
    let words = ["kubectl-releasex", "rollback-preview", &a.args[0], &a.args[1], "--show-secrets"];
    let preview = match super::args::Cli::try_parse_from(words).map_err(|e| anyhow::anyhow!("{}", e.render().to_string().trim_end()))?.command {
        super::args::Command::RollbackPreview(p) => p,
        _ => anyhow::bail!("internal: rollback-preview's words did not parse as rollback-preview"),
    };
    let ctx = ctx_for(env, &a.helm, a.kube_context.as_ref())?;
    let selection = hd::PlanSelection { no_hooks: false, include_tests: a.include_tests, include_crds: false };
    let detailed = a.detailed_exitcode;
    let present = |_: &super::rollback_cmd::RollbackPreviewArgs, _: &super::Ctx, parts: &super::rollback_cmd::RollbackParts, outcome: &mut Outcome| {
        let head = parts.head;
        let facts = vec![format!(
            "rollback from revision {} ({}) to {}, written as revision {}; objects compared with the live cluster",
            head.current.version(),
            head.current.status(),
            head.target.version(),
            head.next_revision
        )];
        let shown = super::diff_cmd::PlanShown { objects: parts.objects, stored_hooks: head.current, release: head.release, namespace: &head.namespace, command: "rollback" };
        super::diff_cmd::present_plan(&shown, facts, (&resolved, selection, detailed), outcome);
        Ok(())
    };
    super::rollback_cmd::run_with(&preview, &ctx, &present).map_err(|e| anyhow::anyhow!("{}", super::format_error(&e)))
}
