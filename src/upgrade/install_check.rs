//! What an install checks in the cluster before it creates anything (helm:
//! pkg/action/install.go `existingResourceConflict`, which `helm template
//! --dry-run=server` runs too): each object of the manifest is looked for,
//! and one that exists without this release's ownership metadata stops the
//! install. GET and LIST only.

use crate::cluster::{Discovery, KubeTarget, ObjectRef, ReadOnlyCluster};

/// `Err` with the text Helm prints after `Error: `.
pub fn existing_object_conflicts(target: &KubeTarget, discovery: &Discovery, manifest: &str, release: &str, namespace: &str) -> Result<(), String> {
    let built = super::manifest::map_kinds(crate::render::parse_manifest(manifest), namespace, discovery).map_err(|e| e.to_string())?;
    // map_kinds found every kind in discovery and defaulted the namespaces.
    let objects: Vec<ObjectRef> = built
        .objects
        .iter()
        .filter_map(|o| {
            let resource = discovery.find(o.api_version(), o.kind())?.clone();
            Some(ObjectRef { resource, namespace: o.namespace().map(str::to_string), name: o.name().to_string() })
        })
        .collect();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(|e| format!("cannot start the async runtime: {e}"))?;
    let results = runtime.block_on(async {
        let cluster = ReadOnlyCluster::connect(target).await.map_err(|e| e.to_string())?;
        Ok::<_, String>(cluster.read_objects(&objects, 16).await.0)
    })?;
    // The first failure in the manifest's order, as Helm's Visit stops there.
    for (r, result) in objects.iter().zip(results) {
        let what = format!("{} {:?} in namespace {:?}", r.resource.kind, r.name, r.namespace.as_deref().unwrap_or_default());
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
