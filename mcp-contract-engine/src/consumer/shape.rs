//! JSON shapes and type words: how a usage file describes what a consumer sends without the
//! values themselves.
//!
//! A shape is written as JSON: a type word for a scalar (`"string"`, `"integer"`, `"number"`,
//! `"boolean"`, `"null"`), an object of shapes for an object, an array of the distinct shapes
//! of its elements for an array (`["integer"]`; `[]` for an empty one). A hand-written file may
//! also say `"object"` or `"array"` (one of those, contents not described) and `"any"`.

use crate::ordered::CollectOrdered;
use crate::schema::{self, Atoms};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// How deep a shape is taken from a value; deeper parts are described by their type alone.
pub(crate) const MAX_DEPTH: usize = 32;
/// The most distinct element shapes an array keeps; past them the array is described by its
/// type alone (a list of a thousand differently shaped records describes nothing useful).
pub(crate) const MAX_ELEMENT_SHAPES: usize = 32;

/// One JSON type as a usage file names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TypeWord {
    /// Any value (a hand-written file that does not say).
    Any,
    /// `null`.
    Null,
    /// `true` or `false`.
    Boolean,
    /// An integral number.
    Integer,
    /// Any number, fractions included.
    Number,
    /// A string.
    String,
    /// An object (in a shape: one whose members are not described).
    Object,
    /// An array (in a shape: one whose elements are not described).
    Array,
}

impl TypeWord {
    /// Every word, in the order files list them.
    pub const ALL: [TypeWord; 8] = [
        TypeWord::Any,
        TypeWord::Array,
        TypeWord::Boolean,
        TypeWord::Integer,
        TypeWord::Null,
        TypeWord::Number,
        TypeWord::Object,
        TypeWord::String,
    ];

    /// The word as written.
    pub fn as_str(self) -> &'static str {
        match self {
            TypeWord::Any => "any",
            TypeWord::Null => "null",
            TypeWord::Boolean => "boolean",
            TypeWord::Integer => "integer",
            TypeWord::Number => "number",
            TypeWord::String => "string",
            TypeWord::Object => "object",
            TypeWord::Array => "array",
        }
    }

    /// Reads a word back.
    pub fn parse(text: &str) -> Option<TypeWord> {
        TypeWord::ALL.into_iter().find(|w| w.as_str() == text)
    }

    /// The schema atoms of the values this word stands for.
    pub(crate) fn atoms(self) -> Atoms {
        match self {
            TypeWord::Any => schema::ANY,
            TypeWord::Null => schema::NULL,
            TypeWord::Boolean => schema::BOOLEAN,
            TypeWord::Integer => schema::INTEGER,
            TypeWord::Number => schema::INTEGER | schema::FRACTION,
            TypeWord::String => schema::STRING,
            TypeWord::Object => schema::OBJECT,
            TypeWord::Array => schema::ARRAY,
        }
    }

    /// The word of one value.
    pub fn of(value: &Value) -> TypeWord {
        match value {
            Value::Null => TypeWord::Null,
            Value::Bool(_) => TypeWord::Boolean,
            Value::Number(_) if schema::atom_of_value(value) == schema::INTEGER => {
                TypeWord::Integer
            }
            Value::Number(_) => TypeWord::Number,
            Value::String(_) => TypeWord::String,
            Value::Object(_) => TypeWord::Object,
            Value::Array(_) => TypeWord::Array,
        }
    }
}

impl fmt::Display for TypeWord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A set of JSON types: what a field may hold. Written as one word or a list of words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Types(Atoms);

impl Types {
    /// Every value.
    pub const ANY: Types = Types(schema::ANY);

    pub(crate) fn from_atoms(atoms: Atoms) -> Types {
        Types(atoms)
    }

    pub(crate) fn atoms(self) -> Atoms {
        self.0
    }

    /// The types of both sets.
    pub fn union(self, other: Types) -> Types {
        Types(self.0 | other.0)
    }

    /// Whether every value of `other` is a value of these types.
    pub fn contains(self, other: Types) -> bool {
        other.0 & !self.0 == 0
    }

    /// The words, sorted (`integer` and `number` fold into `number` when fractions are in).
    pub fn words(self) -> Vec<TypeWord> {
        if self.0 == schema::ANY {
            return vec![TypeWord::Any];
        }
        let mut words: Vec<TypeWord> = [
            TypeWord::Null,
            TypeWord::Boolean,
            TypeWord::String,
            TypeWord::Object,
            TypeWord::Array,
        ]
        .into_iter()
        .filter(|w| self.0 & w.atoms() != 0)
        .collect();
        match self.0 & (schema::INTEGER | schema::FRACTION) {
            0 => {}
            schema::INTEGER => words.push(TypeWord::Integer),
            _ => words.push(TypeWord::Number),
        }
        // Distinct words have distinct spellings: an unstable sort orders them the same way.
        words.sort_unstable_by_key(|w| w.as_str());
        words
    }

    /// As a usage file writes it: one word, or a list of words.
    pub fn to_json(self) -> Value {
        let words = self.words();
        match words.as_slice() {
            [one] => Value::String(one.as_str().to_owned()),
            _ => Value::Array(
                words
                    .iter()
                    .map(|w| Value::String(w.as_str().to_owned()))
                    .collect(),
            ),
        }
    }

    /// Reads one word or a non-empty list of words.
    ///
    /// # Errors
    ///
    /// A value that is not a type word, or an empty list.
    pub fn from_json(value: &Value) -> Result<Types, TypesError> {
        let word = |v: &Value| -> Result<TypeWord, TypesError> {
            v.as_str()
                .and_then(TypeWord::parse)
                .ok_or_else(|| TypesError::NotAType(crate::schema::canonical_string(v)))
        };
        match value {
            Value::Array(words) if !words.is_empty() => {
                let mut atoms = 0;
                for w in words {
                    atoms |= word(w)?.atoms();
                }
                Ok(Types(atoms))
            }
            Value::Array(_) => Err(TypesError::Empty),
            other => Ok(Types(word(other)?.atoms())),
        }
    }
}

/// Why a value is not a usage file's type (one word, or a non-empty list of words).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum TypesError {
    /// A value that is not one of the type words, as JSON.
    NotAType(String),
    /// `[]`: a list that names no type.
    Empty,
}

impl fmt::Display for TypesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TypesError::NotAType(shown) => {
                write!(f, "{shown} is not a type: write one of {}", word_list())
            }
            TypesError::Empty => f.write_str("an empty list of types: name at least one"),
        }
    }
}

impl std::error::Error for TypesError {}

impl fmt::Display for Types {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let words: Vec<&str> = self.words().iter().map(|w| w.as_str()).collect();
        f.write_str(&words.join(" or "))
    }
}

/// The type words, for messages.
pub(crate) fn word_list() -> String {
    TypeWord::ALL
        .iter()
        .map(|w| format!("\"{w}\""))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The shape of a value: its type, and for objects and arrays what they hold.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum JsonShape {
    /// A scalar, or an object or array whose contents are not described.
    Type(TypeWord),
    /// An object: each member's shape.
    Object(BTreeMap<String, JsonShape>),
    /// An array: the distinct shapes of its elements.
    Array(BTreeSet<JsonShape>),
}

impl JsonShape {
    /// The shape of a value (contents deeper than 32 levels described by their type alone).
    pub fn of(value: &Value) -> JsonShape {
        shape_of(value, MAX_DEPTH)
    }

    /// The shape of an object's members (an arguments object).
    pub fn members_of(map: &Map<String, Value>) -> BTreeMap<String, JsonShape> {
        map.iter()
            .map(|(k, v)| (k.clone(), shape_of(v, MAX_DEPTH - 1)))
            .ordered_map()
    }

    /// As a usage file writes it.
    pub fn to_json(&self) -> Value {
        match self {
            JsonShape::Type(word) => Value::String(word.as_str().to_owned()),
            JsonShape::Object(members) => Value::Object(members_to_json(members)),
            JsonShape::Array(elements) => {
                Value::Array(elements.iter().map(JsonShape::to_json).collect())
            }
        }
    }

    /// Reads a shape as a usage file writes it; errors name the place (a JSON pointer below
    /// `at`).
    pub fn from_json(value: &Value, at: &str) -> Result<JsonShape, (String, String)> {
        match value {
            Value::String(text) => TypeWord::parse(text).map(JsonShape::Type).ok_or_else(|| {
                (
                    at.to_owned(),
                    format!(
                        "\"{}\" is not a type: write one of {}, an object of shapes, or an \
                         array of the shapes of its elements",
                        crate::escape::escape(text),
                        word_list()
                    ),
                )
            }),
            Value::Object(members) => members_from_json(members, at).map(JsonShape::Object),
            Value::Array(elements) => elements
                .iter()
                .enumerate()
                .map(|(i, e)| JsonShape::from_json(e, &format!("{at}/{i}")))
                .collect::<Result<Vec<_>, _>>()
                .map(|shapes| JsonShape::Array(shapes.into_iter().ordered_set())),
            other => Err((
                at.to_owned(),
                format!(
                    "{} is not a shape: write a type such as \"string\", an object of shapes, \
                     or an array of the shapes of its elements",
                    crate::schema::canonical_string(other)
                ),
            )),
        }
    }

    /// The JSON types this shape stands for.
    pub fn types(&self) -> Types {
        match self {
            JsonShape::Type(word) => Types(word.atoms()),
            JsonShape::Object(_) => Types(schema::OBJECT),
            JsonShape::Array(_) => Types(schema::ARRAY),
        }
    }
}

/// An object's member shapes as JSON, in name order.
pub(crate) fn members_to_json(members: &BTreeMap<String, JsonShape>) -> Map<String, Value> {
    members
        .iter()
        .map(|(k, v)| (k.clone(), v.to_json()))
        .json_object()
}

/// Reads an object's member shapes.
pub(crate) fn members_from_json(
    members: &Map<String, Value>,
    at: &str,
) -> Result<BTreeMap<String, JsonShape>, (String, String)> {
    members
        .iter()
        .map(|(k, v)| {
            let child = format!("{at}/{}", k.replace('~', "~0").replace('/', "~1"));
            JsonShape::from_json(v, &child).map(|shape| (k.clone(), shape))
        })
        .collect::<Result<Vec<_>, _>>()
        .map(|members| members.into_iter().ordered_map())
}

fn shape_of(value: &Value, depth: usize) -> JsonShape {
    match value {
        Value::Object(map) if depth > 0 => JsonShape::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), shape_of(v, depth - 1)))
                .ordered_map(),
        ),
        Value::Array(items) if depth > 0 => {
            let mut elements = BTreeSet::new();
            for item in items {
                elements.insert(shape_of(item, depth - 1));
                if elements.len() > MAX_ELEMENT_SHAPES {
                    return JsonShape::Type(TypeWord::Array);
                }
            }
            JsonShape::Array(elements)
        }
        other => JsonShape::Type(TypeWord::of(other)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn shapes_describe_values_and_read_back() {
        let value = json!({"q": "rust", "n": 5, "f": 0.5, "tags": ["a", "b"], "none": null,
                           "rows": [{"id": 1}, {"id": 2}, {"id": 3, "x": true}], "e": []});
        let shape = JsonShape::of(&value);
        let written = shape.to_json();
        assert_eq!(
            written,
            json!({"e": [], "f": "number", "n": "integer", "none": "null", "q": "string",
                   "rows": [{"id": "integer"}, {"id": "integer", "x": "boolean"}],
                   "tags": ["string"]})
        );
        assert_eq!(JsonShape::from_json(&written, "").unwrap(), shape);
        let error = JsonShape::from_json(&json!({"a": ["strng"]}), "/x").unwrap_err();
        assert_eq!(error.0, "/x/a/0");
        assert!(error.1.contains("\"string\""), "{}", error.1);
    }

    #[test]
    fn deep_and_varied_values_are_bounded() {
        let mut deep = json!("leaf");
        for _ in 0..100 {
            deep = json!([deep]);
        }
        let mut shape = JsonShape::of(&deep);
        let mut levels = 0;
        while let JsonShape::Array(elements) = shape {
            shape = elements.into_iter().next().unwrap();
            levels += 1;
        }
        assert_eq!(levels, MAX_DEPTH);
        assert_eq!(shape, JsonShape::Type(TypeWord::Array));
        let varied: Vec<Value> = (0..100).map(|i| json!({ format!("k{i}"): i })).collect();
        assert_eq!(
            JsonShape::of(&Value::Array(varied)),
            JsonShape::Type(TypeWord::Array)
        );
    }

    #[test]
    fn types_are_written_as_words() {
        let t = |v: Value| Types::from_json(&v).unwrap();
        assert_eq!(t(json!("integer")).to_json(), json!("integer"));
        assert_eq!(
            t(json!(["null", "string"])).to_json(),
            json!(["null", "string"])
        );
        assert_eq!(t(json!(["integer", "number"])).to_json(), json!("number"));
        assert_eq!(t(json!("any")).to_json(), json!("any"));
        assert!(t(json!("number")).contains(t(json!("integer"))));
        assert!(!t(json!("integer")).contains(t(json!("number"))));
        assert_eq!(
            Types::from_json(&json!([])).unwrap_err().to_string(),
            "an empty list of types: name at least one"
        );
        assert_eq!(
            Types::from_json(&json!(["string", 3])).unwrap_err(),
            TypesError::NotAType("3".to_owned())
        );
        assert!(Types::from_json(&json!("int"))
            .unwrap_err()
            .to_string()
            .starts_with("\"int\" is not a type: write one of \"any\", "));
    }
}
