//! `patch ORIGINAL MODIFIED CURRENT`: the patch Helm would send for one object.

use std::io::Read;
use std::path::Path;

use anyhow::{Context as _, bail};
use serde_json::Value;

use super::args::{OutputFormat, PatchArgs, PatchTypeArg};
use super::output::{to_json, to_yaml};
use super::{Ctx, Outcome};
use crate::manifest::secrets;
use crate::patch::helm::{self, Options, Requested};
use crate::patch::meta::{OpenApiV2Meta, v3_as_v2};

pub fn run(args: &PatchArgs, ctx: &Ctx) -> anyhow::Result<Outcome> {
    let stdin_uses = [&args.original, &args.modified, &args.current].iter().filter(|p| p.as_os_str() == "-").count();
    if stdin_uses > 1 {
        bail!("only one of ORIGINAL, MODIFIED and CURRENT can be - (stdin)");
    }
    let original = read_object(&args.original, "ORIGINAL")?;
    let modified = read_object(&args.modified, "MODIFIED")?;
    let current = read_object(&args.current, "CURRENT")?;
    same_object(&[("ORIGINAL", &original), ("MODIFIED", &modified), ("CURRENT", &current)])?;
    // Where the OpenAPI metadata came from, for the errors it causes.
    let meta_source = match (&args.patch_meta, args.patch_meta_from_cluster) {
        (Some(path), _) => Some(format!("--patch-meta {}", path.display())),
        (None, true) => Some("--patch-meta-from-cluster".to_owned()),
        (None, false) => None,
    };
    let openapi = match (&args.patch_meta, args.patch_meta_from_cluster) {
        (Some(path), _) => {
            let text = std::fs::read_to_string(path).with_context(|| format!("cannot read --patch-meta {}", path.display()))?;
            let doc: Value = serde_json::from_str(&text).with_context(|| format!("--patch-meta {}: not JSON", path.display()))?;
            Some(OpenApiV2Meta::from_document(&v3_as_v2(&doc)).with_context(|| format!("--patch-meta {}", path.display()))?)
        }
        (None, true) => Some(cluster_openapi(&original, &modified, ctx)?),
        (None, false) => None,
    };
    let requested = match args.patch_type {
        PatchTypeArg::Auto => Requested::Auto,
        PatchTypeArg::Strategic => Requested::Strategic,
        PatchTypeArg::Merge => Requested::Merge,
    };
    let action = if args.take_ownership { helm::Action::TakeOwnership } else { helm::Action::Upgrade };
    let mut patch = helm::helm_patch(&original, &modified, &current, Options { requested, action, openapi: openapi.as_ref() })
        .map_err(|e| match &meta_source {
            Some(source) => anyhow::Error::new(e).context(format!("with the patch metadata of {source}")),
            None => anyhow::Error::new(e),
        })?;
    // The raw body is the exact request unless masking is asked for; the views mask by default.
    let mask = args.mask_secrets.unwrap_or(ctx.global.output.is_some());
    let masked = mask && [&original, &modified, &current].into_iter().any(secrets::is_secret) && secrets::mask_secret_fields(&mut patch.patch);
    let stdout = match ctx.global.output {
        None if masked => format!("{}\n", serde_json::to_string(&patch.patch)?),
        None => format!("{}\n", patch.bytes),
        Some(OutputFormat::Json | OutputFormat::Yaml) => {
            let v = serde_json::json!({
                "type": patch.patch_type,
                "content_type": patch.patch_type.content_type(),
                "patch": patch.patch,
                "empty": patch.is_empty(),
            });
            if ctx.global.output == Some(OutputFormat::Json) { to_json(&v)? } else { to_yaml(&v)? }
        }
        Some(OutputFormat::Markdown) => anyhow::bail!("-o markdown is for upgrade-preview"),
        Some(OutputFormat::Text) => text(&patch, ctx),
    };
    Ok(Outcome { stdout, ..Outcome::default() })
}

/// The OpenAPI of the objects' group-version, read from the cluster.
fn cluster_openapi(original: &Value, modified: &Value, ctx: &Ctx) -> anyhow::Result<OpenApiV2Meta> {
    let api_version = [modified, original]
        .iter()
        .find_map(|v| v.get("apiVersion").and_then(Value::as_str))
        .context("--patch-meta-from-cluster: the objects have no apiVersion")?
        .to_string();
    let target = super::context::kube_target(&ctx.global, &ctx.env);
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().context("cannot start the async runtime")?;
    let (_, doc) = runtime.block_on(async {
        let cluster = crate::cluster::ReadOnlyCluster::connect(&target).await?;
        cluster.openapi_for(&api_version).await
    })?;
    OpenApiV2Meta::from_document(&v3_as_v2(&doc)).context("the cluster's OpenAPI document")
}

/// Helm patches one object with its previous and live selves: the documents
/// must agree on group, kind and name (the version may differ).
fn same_object(docs: &[(&str, &Value)]) -> anyhow::Result<()> {
    let id = |v: &Value| {
        let s = |p: &str| v.pointer(p).and_then(Value::as_str).unwrap_or("").to_string();
        let group = s("/apiVersion").rsplit_once('/').map_or(String::new(), |(g, _)| g.to_string());
        (group, s("/kind"), s("/metadata/name"))
    };
    let present: Vec<(&str, (String, String, String))> = docs.iter().filter(|(_, v)| !v.is_null()).map(|(r, v)| (*r, id(v))).collect();
    if let Some((first_role, first)) = present.first() {
        for (role, other) in &present[1..] {
            if other != first {
                let show = |(g, k, n): &(String, String, String)| {
                    let g = if g.is_empty() { "core".to_string() } else { g.clone() };
                    format!("{k} {n:?} (group {g})")
                };
                bail!("{first_role} is {} but {role} is {}: give three versions of the same object", show(first), show(other));
            }
        }
    }
    Ok(())
}

fn read_object(path: &Path, role: &str) -> anyhow::Result<Value> {
    let shown = if path.as_os_str() == "-" { "<stdin>".to_string() } else { path.display().to_string() };
    let mut text = String::new();
    if path.as_os_str() == "-" {
        std::io::stdin().read_to_string(&mut text).context("cannot read stdin")?;
    } else {
        text = std::fs::read_to_string(path).with_context(|| format!("cannot read {role} {shown}"))?;
    }
    parse_object(&text).with_context(|| format!("{role} {shown}"))
}

/// One object, YAML or JSON (see [`crate::manifest::parse_object`]).
fn parse_object(text: &str) -> anyhow::Result<Value> {
    Ok(crate::manifest::parse_object(text)?)
}

fn text(patch: &helm::HelmPatch, ctx: &Ctx) -> String {
    let theme = &ctx.theme;
    let mut out = format!(
        "{} {} ({})\n{} {}\n",
        theme.heading("TYPE:"),
        match patch.patch_type {
            helm::PatchType::Strategic => "strategic merge patch",
            helm::PatchType::Merge => "JSON merge patch",
        },
        patch.patch_type.content_type(),
        theme.heading("WHY:"),
        patch.reason
    );
    if patch.is_empty() {
        out.push_str(&format!("{} none: the patch is {{}} and Helm sends no request for this object\n", theme.heading("CHANGES:")));
        return out;
    }
    let mut summary = Summary::default();
    summary.walk(&patch.patch, "");
    out.push_str(&format!("{}\n", theme.heading("CHANGES:")));
    for (path, what) in &summary.lines {
        out.push_str(&format!("  {path}: {what}\n"));
    }
    out.push_str(&format!("{}\n", theme.heading("PATCH:")));
    out.push_str(&serde_json::to_string_pretty(&crate::values::sorted(&patch.patch)).unwrap_or_default());
    out.push('\n');
    out
}

/// A path-by-path reading of a patch.
#[derive(Default)]
struct Summary {
    lines: Vec<(String, String)>,
}

impl Summary {
    fn walk(&mut self, v: &Value, path: &str) {
        self.walk_item(v, path, None);
    }

    /// `id_key` is the key that identifies a list item (already in `path`).
    fn walk_item(&mut self, v: &Value, path: &str, id_key: Option<&str>) {
        let Some(map) = v.as_object() else { return };
        for (k, child) in map {
            if Some(k.as_str()) == id_key {
                continue;
            }
            let here = if path.is_empty() { k.clone() } else { format!("{path}.{k}") };
            if let Some(list) = k.strip_prefix("$setElementOrder/") {
                self.lines.push((join(path, list), "element order set".into()));
            } else if let Some(list) = k.strip_prefix("$deleteFromPrimitiveList/") {
                self.lines.push((join(path, list), format!("remove items {}", compact(child))));
            } else if k == "$retainKeys" {
                self.lines.push((path.to_string(), format!("keep only keys {}", compact(child))));
            } else if k == "$patch" {
                self.lines.push((path.to_string(), format!("$patch: {}", compact(child))));
            } else {
                match child {
                    Value::Null => self.lines.push((here, "delete".into())),
                    Value::Object(_) => self.walk(child, &here),
                    Value::Array(items) if items.iter().any(|i| i.get("$patch").is_some()) || items.iter().all(Value::is_object) => {
                        for (i, item) in items.iter().enumerate() {
                            let id = item
                                .as_object()
                                .and_then(|m| m.iter().find(|(k, _)| matches!(k.as_str(), "name" | "containerPort" | "port" | "mountPath" | "ip")));
                            let label = id.map_or_else(|| format!("[{i}]"), |(k, v)| format!("[{k}={}]", compact(v)));
                            if item.get("$patch").and_then(Value::as_str) == Some("delete") {
                                self.lines.push((format!("{here}{label}"), "delete item".into()));
                            } else {
                                self.walk_item(item, &format!("{here}{label}"), id.map(|(k, _)| k.as_str()));
                            }
                        }
                    }
                    other => self.lines.push((here, format!("set to {}", compact(other)))),
                }
            }
        }
    }
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() { key.to_string() } else { format!("{path}.{key}") }
}

fn compact(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 80 { format!("{}…", s.chars().take(79).collect::<String>()) } else { s }
}
