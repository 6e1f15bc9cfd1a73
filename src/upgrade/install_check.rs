//! What an install checks in the cluster before it creates anything (helm:
//! pkg/action/install.go `existingResourceConflict`, which `helm template
//! --dry-run=server` runs too): each object of the manifest is looked for,
//! and one that exists without this release's ownership metadata stops the
//! install. GET and LIST only.

use crate::cluster::{Discovery, KubeTarget, ObjectRef, ReadOnlyCluster};

/// `Err` with the text Helm prints after `Error: `.
pub fn existing_object_conflicts(target: &KubeTarget, discovery: &Discovery, manifest: &str, release: &str, namespace: &str) -> Result<(), String> {
    let built = super::manifest::map_kinds(crate::render::parse_manifest(manifest), namespace, discovery).map_err(|e| e.to_string())?;
    let mut refs = Vec::with_capacity(built.objects.len());
    for o in &built.objects {
        let Some(resource) = discovery.find(o.api_version(), o.kind()) else { continue };
        let ns = o.namespace().unwrap_or_default().to_string();
        refs.push((ObjectRef { resource: resource.clone(), namespace: (!ns.is_empty()).then_some(ns.clone()), name: o.name().to_string() }, ns));
    }
    let objects: Vec<ObjectRef> = refs.iter().map(|(r, _)| r.clone()).collect();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(|e| format!("cannot start the async runtime: {e}"))?;
    let results = runtime.block_on(async {
        let cluster = ReadOnlyCluster::connect(target).await.map_err(|e| e.to_string())?;
        Ok::<_, String>(cluster.read_objects(&objects, 16).await.0)
    })?;
    // The first failure in the manifest's order, as Helm's Visit stops there.
    for ((r, ns), result) in refs.iter().zip(results) {
        let what = format!("{} {:?} in namespace {ns:?}", r.resource.kind, r.name);
        match result {
            Ok(None) => {}
            Ok(Some(live)) => {
                if let Err(why) = super::ownership::check_ownership(&live, release, namespace) {
                    return Err(format!("unable to continue with install: {what} exists and cannot be imported into the current release: {why}"));
                }
            }
            Err(e) => return Err(format!("unable to continue with install: could not get information about the resource {what}: {e}")),
        }
    }
    Ok(())
}
