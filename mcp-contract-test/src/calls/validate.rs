//! JSON Schema validation of a call's arguments and structured result (feature `calls`), with
//! the `jsonschema` crate: drafts 4, 6, 7, 2019-09 and 2020-12, `$ref` inside the schema.
//!
//! The draft is the one the schema's `$schema` names, and 2020-12 when it names none or one
//! this crate does not know: MCP (SEP-1613) makes 2020-12 the dialect of schemas without
//! `$schema`. It is always passed explicitly because `jsonschema` lets an explicit draft win
//! over `$schema`, and would refuse an unknown `$schema` outright.
//!
//! Nothing is ever fetched: the crate is built without its HTTP and file resolvers and the
//! validator is `offline`, so a remote `$ref` is a schema error, not a request. `format` is
//! asserted as each draft says (draft 4, 6 and 7 assert it, 2019-09 and 2020-12 only annotate).
//! Patterns use `fancy-regex` (lookarounds, as Zod writes them) with its backtracking limit, so a
//! hostile pattern fails the check instead of hanging it.

use super::error::SchemaError;
use super::Violation;
use jsonschema::error::ValidationErrorKind;
use jsonschema::Draft;
use serde_json::Value;

/// How many violations are described; the rest are counted.
const SHOWN: usize = 8;

/// The draft a schema's `$schema` names; 2020-12 when absent or unknown.
fn draft_of(schema: &Value) -> Draft {
    let uri = schema
        .get("$schema")
        .and_then(Value::as_str)
        .unwrap_or("")
        .trim_end_matches('#');
    let uri = uri
        .strip_prefix("https://")
        .or_else(|| uri.strip_prefix("http://"))
        .unwrap_or(uri);
    match uri {
        "json-schema.org/draft-04/schema" => Draft::Draft4,
        "json-schema.org/draft-06/schema" => Draft::Draft6,
        "json-schema.org/draft-07/schema" => Draft::Draft7,
        "json-schema.org/draft/2019-09/schema" => Draft::Draft201909,
        _ => Draft::Draft202012,
    }
}

/// Validates `instance` against `schema`: every violation (the first [`SHOWN`] described, and
/// how many there are in all).
///
/// # Errors
///
/// The schema cannot be used: it is invalid against its draft's meta-schema (a `type` that
/// does not exist, a pattern that does not compile) or refers to another document.
pub fn validate(schema: &Value, instance: &Value) -> Result<(Vec<Violation>, usize), SchemaError> {
    let validator = jsonschema::options()
        .with_draft(draft_of(schema))
        .offline()
        .build(schema)
        .map_err(|error| {
            let at = error.instance_path().as_str();
            let at = if at.is_empty() { "" } else { at };
            SchemaError::new(format!(
                "the schema cannot be compiled{}: {}",
                if at.is_empty() {
                    String::new()
                } else {
                    format!(" (at `{at}` in it)")
                },
                error.masked()
            ))
        })?;
    let mut shown = Vec::new();
    let mut total = 0;
    for error in validator.iter_errors(instance) {
        total += 1;
        if shown.len() >= SHOWN {
            continue;
        }
        let mut pointer = error.instance_path().as_str().to_owned();
        let mut value = Some(error.instance().clone().into_owned());
        if let ValidationErrorKind::Required { property } = error.kind() {
            // Reported at the object that lacks it: name the member itself.
            if let Some(name) = property.as_str() {
                pointer = format!("{pointer}/{}", name.replace('~', "~0").replace('/', "~1"));
                value = None;
            }
        }
        shown.push(Violation {
            pointer,
            keyword: error.kind().keyword().to_owned(),
            schema_path: error.schema_path().as_str().to_owned(),
            value,
            message: error.masked().to_string(),
        });
    }
    Ok((shown, total))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn violations_name_the_pointer_the_keyword_and_the_value() {
        let schema = json!({
            "$schema": "http://json-schema.org/draft-07/schema#",
            "type": "object",
            "required": ["q"],
            "properties": {"n": {"$ref": "#/definitions/N"}},
            "definitions": {"N": {"type": "integer", "maximum": 5}}
        });
        let (found, total) = validate(&schema, &json!({"n": 9})).unwrap();
        assert_eq!(total, 2);
        let n = found.iter().find(|v| v.pointer == "/n").unwrap();
        assert_eq!(
            (n.keyword.as_str(), n.value.clone()),
            ("maximum", Some(json!(9)))
        );
        let q = found.iter().find(|v| v.pointer == "/q").unwrap();
        assert_eq!((q.keyword.as_str(), &q.value), ("required", &None));
    }

    #[test]
    fn the_draft_is_the_schema_s_own_and_2020_12_by_default() {
        // 2020-12 `$defs` and `prefixItems` without `$schema`.
        let schema = json!({"type": "array", "prefixItems": [{"type": "string"}], "$defs": {}});
        let (found, _) = validate(&schema, &json!([1])).unwrap();
        assert_eq!(found[0].keyword, "type");
        // Draft 4's boolean exclusiveMaximum.
        let draft4 = json!({"$schema": "http://json-schema.org/draft-04/schema#", "maximum": 5, "exclusiveMaximum": true});
        assert_eq!(validate(&draft4, &json!(5)).unwrap().1, 1);
        // An unknown `$schema` is read as 2020-12, not refused.
        let odd = json!({"$schema": "https://example.com/my-dialect", "type": "string"});
        assert_eq!(validate(&odd, &json!(1)).unwrap().1, 1);
        // Lookarounds (Zod's email pattern) compile.
        let zod = json!({"type": "string", "pattern": "^(?!\\.)[a-z.]+$"});
        assert_eq!(validate(&zod, &json!(".a")).unwrap().1, 1);
    }

    #[test]
    fn a_remote_ref_is_a_schema_error_never_a_fetch() {
        let schema = json!({"$ref": "https://example.invalid/schema.json"});
        let error = validate(&schema, &json!({})).unwrap_err().to_string();
        assert!(error.contains("cannot be compiled"), "{error}");
        let bad = json!({"type": "objekt"});
        assert!(validate(&bad, &json!({})).is_err());
    }
}
