//! `--werf-images FILE`: werf's image values, from the build report
//! `werf build --save-build-report` writes (JSON; werf/werf
//! pkg/build/build_report.go `ImagesReport`: `Images` maps each werf image
//! name to a record with `WerfImageName`, `DockerRepo`, `DockerTag`,
//! `DockerImageName`, `DockerImageDigest`, ...).
//!
//! The values are the ones werf's `GetServiceValues`
//! (pkg/deploy/helm/chart_extender/helpers/service_values.go) sets per image:
//! `werf.image.<name>` (the image name `repo:tag`), `werf.tag.<name>`, and
//! `global.werf.images.<name>` (a map made by pkg/image/image_values.go
//! `BuildImageValuesMap`); and `werf.repo`/`global.werf.repo`, the images
//! repository (here the records' `DockerRepo` when they all agree).

use serde_json::Value;

/// One image of the report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Image {
    pub werf_name: String,
    pub repo: String,
    pub tag: String,
    /// `repo:tag`.
    pub name: String,
    pub digest: String,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ImagesError {
    #[error("not a werf build report (JSON): {0}")]
    Json(String),
    #[error("not a werf build report: no \"Images\" map")]
    NoImages,
    #[error("image {image:?}: {field} is not a string")]
    Field { image: String, field: &'static str },
    #[error("image {image:?}: cannot parse the image name {name:?} as a tagged reference")]
    Reference { image: String, name: String },
}

/// The images of a build report, sorted by werf image name.
pub fn parse_report(text: &str) -> Result<Vec<Image>, ImagesError> {
    let doc: Value = serde_json::from_str(text).map_err(|e| ImagesError::Json(e.to_string()))?;
    let images = doc.get("Images").and_then(Value::as_object).ok_or(ImagesError::NoImages)?;
    let mut out = Vec::new();
    for (key, record) in images {
        let field = |f: &'static str| -> Result<String, ImagesError> {
            match record.get(f) {
                None | Some(Value::Null) => Ok(String::new()),
                Some(Value::String(s)) => Ok(s.clone()),
                Some(_) => Err(ImagesError::Field { image: key.clone(), field: f }),
            }
        };
        let werf_name = match field("WerfImageName")? {
            n if n.is_empty() => key.clone(),
            n => n,
        };
        out.push(Image {
            werf_name,
            repo: field("DockerRepo")?,
            tag: field("DockerTag")?,
            name: field("DockerImageName")?,
            digest: field("DockerImageDigest")?,
        });
    }
    out.sort_by(|a, b| a.werf_name.cmp(&b.werf_name));
    Ok(out)
}

/// The repository all images share (werf's `repo`), if they agree.
pub fn common_repo(images: &[Image]) -> Option<String> {
    let first = images.first()?;
    images.iter().all(|i| i.repo == first.repo).then(|| first.repo.clone()).filter(|r| !r.is_empty())
}

/// A tagged reference as go-containerregistry's `name.NewTag` splits it.
#[derive(Debug, PartialEq, Eq)]
struct Reference {
    registry: String,
    repository: String,
    tag: String,
}

fn parse_reference(r: &str) -> Option<Reference> {
    let (name, tag) = match r.rsplit_once(':') {
        Some((n, t)) if !t.contains('/') => (n, t.to_string()),
        _ => (r, "latest".to_string()),
    };
    if name.is_empty() || name.contains('@') {
        return None;
    }
    let (registry, repository) = match name.split_once('/') {
        Some((first, rest)) if first.contains('.') || first.contains(':') || first == "localhost" => (first.to_string(), rest.to_string()),
        _ => ("index.docker.io".to_string(), if name.contains('/') { name.to_string() } else { format!("library/{name}") }),
    };
    Some(Reference { registry, repository, tag })
}

/// `BuildImageValuesMap`: the `global.werf.images.<name>` map.
pub fn image_values(image: &Image) -> Result<serde_json::Map<String, Value>, ImagesError> {
    let r = parse_reference(&image.name).ok_or_else(|| ImagesError::Reference { image: image.werf_name.clone(), name: image.name.clone() })?;
    let base = r.repository.rsplit('/').next().unwrap_or(&r.repository).to_string();
    let namespace = match r.repository.rsplit_once('/') {
        Some((dir, _)) => dir.to_string(),
        None => ".".to_string(),
    };
    let digest = &image.digest;
    let (tag, repository) = (&r.tag, &r.repository);
    let context = format!("{}/{}", r.registry, r.repository);
    let pairs = [
        ("registry", r.registry.clone()),
        ("namespace", namespace),
        ("name", base.clone()),
        ("tag", tag.clone()),
        ("digest", digest.clone()),
        ("tag_digest", format!("{tag}@{digest}")),
        ("image", context),
        ("repository", repository.clone()),
        ("ref", format!("{}@{digest}", image.name)),
        ("ref_tag", image.name.clone()),
        ("repository_ref", format!("{repository}:{tag}@{digest}")),
        ("repository_tag", format!("{repository}:{tag}")),
        ("name_ref", format!("{base}:{tag}@{digest}")),
        ("name_tag", format!("{base}:{tag}")),
    ];
    Ok(pairs.into_iter().map(|(k, v)| (k.to_string(), Value::String(v))).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    const REPORT: &str = r#"{"Runtime": {"Backend": "docker", "InContainer": false},
      "Images": {
        "backend": {"WerfImageName": "backend", "DockerRepo": "registry.example.com/shop", "DockerTag": "abc123",
                    "DockerImageName": "registry.example.com/shop:abc123", "DockerImageDigest": "sha256:00ff", "Final": true},
        "frontend": {"WerfImageName": "frontend", "DockerRepo": "registry.example.com/shop", "DockerTag": "def456",
                     "DockerImageName": "registry.example.com/shop:def456", "DockerImageDigest": "sha256:11ee", "Final": true}
      },
      "ImagesByPlatform": {}}"#;

    #[test]
    fn a_build_report_gives_images_and_their_repo() {
        let images = parse_report(REPORT).unwrap();
        assert_eq!(images.iter().map(|i| i.werf_name.as_str()).collect::<Vec<_>>(), ["backend", "frontend"]);
        assert_eq!(images[0].name, "registry.example.com/shop:abc123");
        assert_eq!(common_repo(&images).as_deref(), Some("registry.example.com/shop"));
        let v = image_values(&images[0]).unwrap();
        assert_eq!(v["registry"], "registry.example.com");
        assert_eq!(v["repository"], "shop");
        assert_eq!(v["namespace"], ".");
        assert_eq!(v["image"], "registry.example.com/shop");
        assert_eq!(v["ref"], "registry.example.com/shop:abc123@sha256:00ff");
        assert_eq!(v["name_tag"], "shop:abc123");
        assert_eq!(v["tag_digest"], "abc123@sha256:00ff");
    }

    #[test]
    fn references_split_as_go_containerregistry_does() {
        let r = parse_reference("localhost:5000/group/app:v1").unwrap();
        assert_eq!((r.registry.as_str(), r.repository.as_str(), r.tag.as_str()), ("localhost:5000", "group/app", "v1"));
        let r = parse_reference("nginx").unwrap();
        assert_eq!((r.registry.as_str(), r.repository.as_str(), r.tag.as_str()), ("index.docker.io", "library/nginx", "latest"));
        assert!(parse_reference("").is_none());
    }

    #[test]
    fn bad_reports_are_typed_errors() {
        assert!(matches!(parse_report("{"), Err(ImagesError::Json(_))));
        assert_eq!(parse_report("{}"), Err(ImagesError::NoImages));
        assert_eq!(parse_report(r#"{"Images": {"a": {"DockerTag": 5}}}"#), Err(ImagesError::Field { image: "a".into(), field: "DockerTag" }));
    }
}
