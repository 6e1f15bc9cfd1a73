//! The CRDs of a chart's `crds/` folders.
//! helm: pkg/chart/v2/chart.go (CRDObjects, ChartFullPath), pkg/action/install.go (installCRDs)
//!
//! Helm never templates these files and only installs them on a first
//! install; `helm upgrade` never reads them. They are listed apart so the
//! caller can say so.

use super::{Object, RenderWarning, WarningKind, missing_type, object_from, read_document};
use crate::chart::Chart;
use crate::manifest;

/// The CRD documents and the documents that are not objects.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Crds {
    pub objects: Vec<Object>,
    pub warnings: Vec<RenderWarning>,
}

/// Every CRD file of `chart` and then of its subcharts, depth first, in the
/// order Helm's `CRDObjects` lists them; each object's `source` is Helm's
/// `Filename`, `<chart full path>/crds/<file>` (e.g. `parent/charts/sub/crds/x.yaml`).
/// Pass the chart as dependency processing left it: Helm has already
/// removed disabled subcharts and renamed aliased ones at that point.
pub fn crds(chart: &Chart) -> Crds {
    let mut out = Crds::default();
    collect(chart, chart.name(), &mut out);
    out
}

fn collect(chart: &Chart, full_path: &str, out: &mut Crds) {
    for f in &chart.crds() {
        let source = format!("{full_path}/{}", f.name);
        for (index, doc) in manifest::split(&f.data).into_iter().enumerate() {
            // Hook annotations mean nothing in crds/: Helm creates every document.
            match read_document(doc).and_then(|v| missing_type(&v).map(|()| v)) {
                Ok(v) => out.objects.push(object_from(&source, v)),
                Err(WarningKind::EmptyDocument) => {}
                Err(kind) => out.warnings.push(RenderWarning { template: source.clone(), index, kind }),
            }
        }
    }
    for sub in &chart.dependencies {
        collect(sub, &format!("{full_path}/charts/{}", sub.name()), out);
    }
}
