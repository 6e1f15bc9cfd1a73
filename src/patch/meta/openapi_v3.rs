//! OpenAPI v3 documents (`/openapi/v3/apis/<group>/<version>`) read as the
//! v2 shape the lookup understands: `components.schemas` become
//! `definitions`, and a property written as `allOf: [{$ref}]` with sibling
//! keys (how kube-openapi v3 attaches extensions to a reference) becomes a
//! `$ref` with those keys. kubectl's `PatchMetaFromOpenAPIV3` reads the
//! first `allOf` entry the same way.

use serde_json::{Map, Value};

/// Rewrites a v3 document into the v2 form; a v2 document is returned as is.
pub fn v3_as_v2(doc: &Value) -> Value {
    let Some(schemas) = doc.pointer("/components/schemas").and_then(Value::as_object) else {
        return doc.clone();
    };
    let definitions: Map<String, Value> = schemas.iter().map(|(k, v)| (k.clone(), rewrite(v))).collect();
    serde_json::json!({ "definitions": definitions })
}

fn rewrite(v: &Value) -> Value {
    match v {
        Value::Object(m) => {
            let mut out = Map::with_capacity(m.len());
            for (k, child) in m {
                match (k.as_str(), child) {
                    ("$ref", Value::String(r)) => {
                        out.insert(k.clone(), Value::String(r.replacen("#/components/schemas/", "#/definitions/", 1)));
                    }
                    ("allOf", Value::Array(items)) if !m.contains_key("$ref") => {
                        if let Some(first_ref) = items.first().and_then(|f| f.get("$ref")).and_then(Value::as_str) {
                            out.insert("$ref".into(), Value::String(first_ref.replacen("#/components/schemas/", "#/definitions/", 1)));
                        } else {
                            out.insert(k.clone(), rewrite(child));
                        }
                    }
                    _ => {
                        out.insert(k.clone(), rewrite(child));
                    }
                }
            }
            Value::Object(out)
        }
        Value::Array(a) => Value::Array(a.iter().map(rewrite).collect()),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn all_of_references_with_extensions_become_v2_references() {
        let v3 = json!({"components": {"schemas": {
            "io.k8s.api.core.v1.PodSpec": {"type": "object", "properties": {
                "containers": {"type": "array", "items": {"allOf": [{"$ref": "#/components/schemas/io.k8s.api.core.v1.Container"}], "default": {}},
                               "x-kubernetes-patch-merge-key": "name", "x-kubernetes-patch-strategy": "merge"}}}}}});
        let v2 = v3_as_v2(&v3);
        let items = v2.pointer("/definitions/io.k8s.api.core.v1.PodSpec/properties/containers/items").unwrap();
        assert_eq!(items["$ref"], "#/definitions/io.k8s.api.core.v1.Container");
        assert_eq!(v2.pointer("/definitions/io.k8s.api.core.v1.PodSpec/properties/containers/x-kubernetes-patch-merge-key").unwrap(), "name");
    }
}
