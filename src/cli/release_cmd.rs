//! `release decode` and `release history`.

use anyhow::bail;

use super::args::{DecodeArgs, HistoryArgs, OutputFormat, ReleaseCommand, View};
use super::views::release as views;
use super::{Ctx, Outcome, inputs};
use crate::release::{self, history};

pub fn run(cmd: &ReleaseCommand, ctx: &Ctx) -> anyhow::Result<Outcome> {
    match cmd {
        ReleaseCommand::Decode(args) => decode(args, ctx),
        ReleaseCommand::History(args) => history_cmd(args, ctx),
    }
}

fn decode(args: &DecodeArgs, ctx: &Ctx) -> anyhow::Result<Outcome> {
    if args.template.is_some() && args.show != View::Chart {
        bail!("--template goes with --show chart");
    }
    let loaded = inputs::load(&args.source, args.name.as_deref(), ctx)?;
    let record = release::decode_revision(loaded.records, args.name.as_deref(), args.revision, &loaded.place)?;
    let mut outcome = Outcome { warnings: record.warnings.clone(), ..Outcome::default() };
    let format = ctx.format();
    let mask = !args.show_secrets;
    outcome.stdout = match args.show {
        View::Summary => views::summary(&record, format, &ctx.theme)?,
        View::Values => views::values(&record, format)?,
        View::AllValues => {
            let (text, warnings) = views::all_values(&record, format)?;
            outcome.warnings.extend(warnings);
            text
        }
        View::Manifest => views::manifest(&record, format, mask)?,
        View::Hooks => views::hooks(&record, format, mask, &ctx.theme)?,
        View::Notes => views::notes(&record, format)?,
        View::Chart => match &args.template {
            Some(name) => views::template(&record, name)?,
            None => views::chart(&record, format, &ctx.theme)?,
        },
        View::Record => {
            // The record is moved, not copied: it can be many MiB.
            let value = views::record_value(record, mask);
            if format == OutputFormat::Json {
                outcome.stdout_json = Some(value);
                String::new()
            } else {
                super::output::to_yaml(&value)?
            }
        }
        View::Size => views::size(&record, format, &ctx.theme)?,
    };
    Ok(outcome)
}

fn history_cmd(args: &HistoryArgs, ctx: &Ctx) -> anyhow::Result<Outcome> {
    let loaded = inputs::load(&args.source, args.name.as_deref(), ctx)?;
    let records = release::decode_history(loaded.records, args.name.as_deref(), &loaded.place)?;
    let mut outcome = Outcome::default();
    for r in &records {
        outcome.warnings.extend(r.warnings.iter().cloned());
    }
    let releases: Vec<&release::Release> = records.iter().map(|r| &r.release).collect();
    let name = releases.first().map(|r| r.name().to_string()).unwrap_or_default();
    let verdict = history::verdict(&name, &releases);
    let state = (verdict.state != "ok").then(|| verdict.text());
    let skip = releases.len().saturating_sub(args.max);
    let rows: Vec<history::HistoryRow> = releases[skip..].iter().map(|r| history::HistoryRow::of(r)).collect();
    match ctx.format() {
        OutputFormat::Text => {
            outcome.stdout = views::history_table(&rows, &ctx.theme);
            if let Some(s) = state {
                outcome.stdout.push_str(&format!("\n{} {s}\n", ctx.theme.warn("note:")));
            }
        }
        format => {
            let doc = serde_json::json!({
                "release": name,
                "revisions": rows,
                "verdict": {"state": verdict.state, "message": verdict.message, "remedy": verdict.remedy},
            });
            outcome.stdout = views::serialize(&doc, format)?;
            outcome.notes.extend(state);
        }
    }
    Ok(outcome)
}
