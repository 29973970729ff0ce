//! The keyword rules: two schema nodes that are not unions, compared keyword by keyword.

use super::*;

impl<'a> SchemaCx<'a, '_, '_> {
    pub(super) fn shapes(&mut self, so: &Shape<'a>, sn: &Shape<'a>, path: &str, depth: usize) {
        self.values(so, sn, path);
        self.ranges(so, sn, path);
        self.multiple_of(so, sn, path);
        self.all_counts(so, sn, path);
        self.string_sets(
            &so.formats,
            &sn.formats,
            ["format-added", "format-removed", "format-changed"],
            "format",
            path,
        );
        if so.unique_items != sn.unique_items {
            let base = if sn.unique_items {
                "unique-items-added"
            } else {
                "unique-items-removed"
            };
            self.emit(
                base,
                path,
                Some(json!(so.unique_items)),
                Some(json!(sn.unique_items)),
                format!(
                    "{} uniqueItems {} → {}",
                    self.what(path),
                    so.unique_items,
                    sn.unique_items
                ),
            );
        }
        self.properties(so, sn, path, depth);
        self.additional(so, sn, path, depth);
        self.property_names(so, sn, path, depth);
        self.arrays(so, sn, path, depth);
        self.annotations(so, sn, path);
    }

    /// Which values: the types, the enum and the patterns. A pattern of anchored literal
    /// alternatives (`^(a|b)$`) lists values as an enum does: against an enum, or another such
    /// pattern, the two lists are compared as values.
    fn values(&mut self, so: &Shape<'a>, sn: &Shape<'a>, path: &str) {
        // Only a pattern can list values, and only a difference needs them listed.
        let differ = so.patterns != sn.patterns
            || match (&so.enumeration, &sn.enumeration) {
                (Some(a), Some(b)) => !a.keys().eq(b.keys()),
                (None, None) => false,
                _ => true,
            };
        let listing = differ && (!so.patterns.is_empty() || !sn.patterns.is_empty());
        let listed = if listing {
            (listed_strings(so), listed_strings(sn))
        } else {
            (None, None)
        };
        match listed {
            (Some(a), Some(b)) if a.by_pattern || b.by_pattern => {
                // Each list's types still count: `{pattern}` alone takes numbers too.
                self.types(so, sn, path);
                let (a_values, b_values) = (a.borrowed(), b.borrowed());
                self.value_lists(&a_values, &b_values, path);
                self.patterns(&a.other_patterns, &b.other_patterns, path);
            }
            _ => {
                self.types(so, sn, path);
                self.enumeration(so, sn, path);
                if !patterns_change_nothing_listed(so, sn) {
                    self.patterns(&so.patterns, &sn.patterns, path);
                }
            }
        }
    }

    fn all_counts(&mut self, so: &Shape<'a>, sn: &Shape<'a>, path: &str) {
        self.counts(
            so.min_length,
            sn.min_length,
            so.max_length,
            sn.max_length,
            ("length-narrowed", "length-widened"),
            "minLength",
            "maxLength",
            path,
        );
        self.counts(
            so.min_items,
            sn.min_items,
            so.max_items,
            sn.max_items,
            ("item-count-narrowed", "item-count-widened"),
            "minItems",
            "maxItems",
            path,
        );
        self.counts(
            so.min_properties,
            sn.min_properties,
            so.max_properties,
            sn.max_properties,
            ("property-count-narrowed", "property-count-widened"),
            "minProperties",
            "maxProperties",
            path,
        );
    }

    fn property_names(&mut self, so: &Shape<'a>, sn: &Shape<'a>, path: &str, depth: usize) {
        let (no_old, no_new) = (
            self.names_unconstrained(&so.property_names, self.old_root),
            self.names_unconstrained(&sn.property_names, self.new_root),
        );
        match (no_old, no_new) {
            (true, false) => self.emit(
                "property-names-added",
                path,
                None,
                first_value(&sn.property_names),
                format!(
                    "{} now constrains its keys (propertyNames)",
                    self.what(path)
                ),
            ),
            (false, true) => self.emit(
                "property-names-removed",
                path,
                first_value(&so.property_names),
                None,
                format!(
                    "{} no longer constrains its keys (propertyNames)",
                    self.what(path)
                ),
            ),
            (false, false) => self.compare(
                &so.property_names,
                &sn.property_names,
                &join(path, "<propertyNames>"),
                depth + 1,
                (false, false),
            ),
            (true, true) => {}
        }
    }

    /// The numeric bounds, each side compared without the bounds that only restate a
    /// representation limit.
    fn ranges(&mut self, so: &Shape<'a>, sn: &Shape<'a>, path: &str) {
        for (lower, word) in [(true, "minimum"), (false, "maximum")] {
            let (a, b) = if lower {
                (&so.lower, &sn.lower)
            } else {
                (&so.upper, &sn.upper)
            };
            // Written out only for a report: most nodes compared report no bound.
            let before = || a.as_ref().map(schema::Bound::written);
            let after = || b.as_ref().map(schema::Bound::written);
            // A bound at the limit of how numbers are represented bounds nothing a caller
            // can send (or a consumer receive) and have survive: compare without it.
            let (ra, rb) = (schema::real_bound(a, lower), schema::real_bound(b, lower));
            if bound_tighter(ra, rb, lower).is_none() {
                if bound_tighter(a.as_ref(), b.as_ref(), lower).is_some() {
                    self.emit(
                        "range-at-type-limit",
                        path,
                        before(),
                        after(),
                        format!(
                            "{} {word} restates a representation limit (int32, uint32, JavaScript's safe integers or beyond): no value that survives transport is newly accepted or rejected",
                            self.what(path)
                        ),
                    );
                }
                continue;
            }
            if let Some(tighter) = bound_tighter(ra, rb, lower) {
                let verb = if tighter { "tightened" } else { "loosened" };
                let base = if tighter {
                    "range-narrowed"
                } else {
                    "range-widened"
                };
                self.emit(
                    base,
                    path,
                    before(),
                    after(),
                    format!("{} {word} {verb}", self.what(path)),
                );
            }
        }
    }

    /// Whether a `propertyNames` schema lets every key through. Keys are always strings, so
    /// `{"type": "string"}` (what Zod 4 writes for every record) constrains nothing, like no
    /// `propertyNames` at all.
    fn names_unconstrained(&self, node: &[Part<'a>], root: &'a Value) -> bool {
        if node.is_empty() {
            return true;
        }
        let s = schema::build(root, node, self.max_depth, false);
        s.types & schema::STRING != 0
            && s.enumeration.is_none()
            && s.patterns.is_empty()
            && s.formats.is_empty()
            && s.min_length.is_none_or(|m| m == 0.0)
            && s.max_length.is_none()
            && s.union.is_none()
            && s.unknown.is_empty()
            && s.notes.is_empty()
    }

    fn types(&mut self, so: &Shape<'a>, sn: &Shape<'a>, path: &str) {
        if so.enumeration.is_some() && sn.enumeration.is_some() {
            return; // Both value sets are explicit: the enum comparison says it all.
        }
        let (a, b) = (so.effective_types(), sn.effective_types());
        if a == b {
            return;
        }
        let (before, after) = (Some(type_names(a)), Some(type_names(b)));
        let what = self.what(path);
        if b & !a == 0 {
            let lost = type_names(a & !b);
            self.emit(
                "type-narrowed",
                path,
                before,
                after,
                format!("{what} no longer allows {}", canonical_string(&lost)),
            );
        } else if a & !b == 0 {
            let gained = type_names(b & !a);
            self.emit(
                "type-widened",
                path,
                before,
                after,
                format!("{what} now also allows {}", canonical_string(&gained)),
            );
        } else {
            self.emit(
                "type-changed",
                path,
                before.clone(),
                after.clone(),
                format!(
                    "{what} type {} → {}",
                    canonical_string(&type_names(a)),
                    canonical_string(&type_names(b))
                ),
            );
        }
    }

    fn enumeration(&mut self, so: &Shape<'a>, sn: &Shape<'a>, path: &str) {
        let as_array = |set: &SortedMap<String, &Value>| clipped(&mut set.values().copied());
        match (&so.enumeration, &sn.enumeration) {
            (None, None) => {}
            (None, Some(b)) => {
                // `{type: boolean}` and `{enum: [true, false]}` accept the same values.
                if is_exhaustive(so.effective_types(), b) {
                    return;
                }
                let values: Vec<&Value> = b.values().copied().collect();
                let what = self.what(path);
                self.emit(
                    "enum-narrowed",
                    path,
                    None,
                    Some(as_array(b)),
                    format!("{what} now only accepts {}", sample(&values)),
                );
            }
            (Some(a), None) => {
                if is_exhaustive(sn.effective_types(), a) {
                    return;
                }
                let what = self.what(path);
                self.emit(
                    "enum-widened",
                    path,
                    Some(as_array(a)),
                    None,
                    format!("{what} no longer limited to listed values"),
                );
            }
            (Some(a), Some(b)) => self.value_lists(a, b, path),
        }
    }

    /// Two explicit value sets (an enum, a const, a pattern that lists its values, union
    /// alternatives that are all literals).
    pub(super) fn value_lists(
        &mut self,
        a: &SortedMap<String, &Value>,
        b: &SortedMap<String, &Value>,
        path: &str,
    ) {
        let as_array = |set: &SortedMap<String, &Value>| clipped(&mut set.values().copied());
        // The same values (most enums compared): nothing gone, nothing added.
        if a.len() == b.len() && a.keys().zip(b.keys()).all(|(x, y)| x == y) {
            return;
        }
        let (gone, added) = (only_in(a, b), only_in(b, a));
        if gone.is_empty() && added.is_empty() {
            return;
        }
        let what = self.what(path);
        let (id, message) = if added.is_empty() {
            (
                "enum-narrowed",
                format!("{what} values removed: {}", sample(&gone)),
            )
        } else if gone.is_empty() {
            (
                "enum-widened",
                format!("{what} values added: {}", sample(&added)),
            )
        } else {
            (
                "enum-changed",
                format!(
                    "{what} values removed: {}; added: {}",
                    sample(&gone),
                    sample(&added)
                ),
            )
        };
        self.emit(id, path, Some(as_array(a)), Some(as_array(b)), message);
    }

    fn multiple_of(&mut self, so: &Shape<'a>, sn: &Shape<'a>, path: &str) {
        let base = match (so.multiple_of, sn.multiple_of) {
            (None, Some(_)) => "multiple-of-narrowed",
            (Some(_), None) => "multiple-of-widened",
            (Some(a), Some(b)) if a != b => {
                if is_multiple(b, a) {
                    "multiple-of-narrowed"
                } else if is_multiple(a, b) {
                    "multiple-of-widened"
                } else {
                    "multiple-of-changed"
                }
            }
            _ => return,
        };
        let what = self.what(path);
        self.emit(
            base,
            path,
            so.multiple_of.map(|v| json!(v)),
            sn.multiple_of.map(|v| json!(v)),
            format!(
                "{what} multipleOf {:?} → {:?}",
                so.multiple_of, sn.multiple_of
            ),
        );
    }

    #[allow(clippy::too_many_arguments)]
    fn counts(
        &mut self,
        old_min: Option<f64>,
        new_min: Option<f64>,
        old_max: Option<f64>,
        new_max: Option<f64>,
        ids: (&'static str, &'static str),
        min_word: &str,
        max_word: &str,
        path: &str,
    ) {
        let (narrowed, widened) = ids;
        let (a, b) = (old_min.unwrap_or(0.0), new_min.unwrap_or(0.0));
        if a != b {
            let id = if b > a { narrowed } else { widened };
            let what = self.what(path);
            self.emit(
                id,
                path,
                old_min.map(|v| json!(v as u64)),
                new_min.map(|v| json!(v as u64)),
                format!("{what} {min_word} {a} → {b}"),
            );
        }
        let (a, b) = (
            old_max.unwrap_or(f64::INFINITY),
            new_max.unwrap_or(f64::INFINITY),
        );
        if a != b {
            let id = if b < a { narrowed } else { widened };
            let what = self.what(path);
            self.emit(
                id,
                path,
                old_max.map(|v| json!(v as u64)),
                new_max.map(|v| json!(v as u64)),
                format!(
                    "{what} {max_word} {} → {}",
                    old_max.map_or("none".to_owned(), |v| v.to_string()),
                    new_max.map_or("none".to_owned(), |v| v.to_string())
                ),
            );
        }
    }

    /// The patterns of a node (all apply). One added is narrowing, one dropped widening; when
    /// some were replaced by others the two sets are compared as the regular languages they
    /// are (`schema::regular`), and what that does not decide is for a person.
    fn patterns(&mut self, a: &SortedSet<&str>, b: &SortedSet<&str>, path: &str) {
        // The same patterns (most nodes: none) report nothing, as `string_sets` below says;
        // returned before the values and the wording are built for every node compared.
        if a == b {
            return;
        }
        let replaced = !a.difference_of(b).is_empty() && !b.difference_of(a).is_empty();
        let decided = if replaced {
            pattern_verdict(a, b, self.dir)
        } else {
            None
        };
        let listed = |set: &SortedSet<&str>| match set.len() {
            1 => set.iter().next().map_or(json!(null), |s| json!(s)),
            _ => json!(set.iter().collect::<Vec<_>>()),
        };
        let (before, after) = (listed(a), listed(b));
        let what = self.what(path);
        let (id, shown) = match decided {
            // One added or dropped: the keyword rules as they are.
            None if !replaced => {
                self.string_sets(
                    a,
                    b,
                    ["pattern-added", "pattern-removed", "pattern-changed"],
                    "pattern",
                    path,
                );
                return;
            }
            None => ("pattern-changed", undecided_why(a, b)),
            Some(None) => return, // The same strings, written another way.
            Some(Some(verdict)) => verdict,
        };
        self.emit(
            id,
            path,
            Some(before.clone()),
            Some(after.clone()),
            format!("{what} pattern {before} → {after}: {shown}"),
        );
    }

    fn string_sets(
        &mut self,
        a: &SortedSet<&str>,
        b: &SortedSet<&str>,
        ids: [&'static str; 3],
        word: &str,
        path: &str,
    ) {
        if a == b {
            return;
        }
        let what = self.what(path);
        let gone = a.difference_of(b).len();
        let added = b.difference_of(a).len();
        let id = match (gone, added) {
            (0, _) => ids[0],
            (_, 0) => ids[1],
            _ => ids[2],
        };
        let to_json = |set: &SortedSet<&str>| match set.len() {
            0 => None,
            1 => set.iter().next().map(|s| json!(s)),
            _ => Some(json!(set.iter().collect::<Vec<_>>())),
        };
        self.emit(
            id,
            path,
            to_json(a),
            to_json(b),
            format!(
                "{what} {word} {} → {}",
                to_json(a).unwrap_or(json!("none")),
                to_json(b).unwrap_or(json!("none"))
            ),
        );
    }

    fn properties(&mut self, so: &Shape<'a>, sn: &Shape<'a>, path: &str, depth: usize) {
        // Sorted and each once, as a set would give them, without building one per node.
        let mut names = Vec::with_capacity(
            so.properties.len() + sn.properties.len() + so.required.len() + sn.required.len(),
        );
        for side in [so, sn] {
            names.extend(side.properties.keys().copied());
            names.extend(side.required.iter().copied());
        }
        let noun = match self.dir {
            Direction::Input => "argument",
            Direction::Output => "output field",
        };
        for name in sorted_names(names) {
            let child = join(path, name);
            let (declared_old, declared_new) = (so.properties.get(name), sn.properties.get(name));
            let (req_old, req_new) = (so.required.contains(name), sn.required.contains(name));
            let in_old = declared_old.is_some() || req_old;
            let in_new = declared_new.is_some() || req_new;
            // Borrowed: the comparison reads the nodes without keeping them.
            let old_node = declared_old.map_or(schema::any_parts(), Vec::as_slice);
            let new_node = declared_new.map_or(schema::any_parts(), Vec::as_slice);
            match (in_old, in_new) {
                (true, false) => {
                    let message = match self.dir {
                        Direction::Input => format!("{noun} `{child}` removed: agents that still send it are rejected or ignored"),
                        Direction::Output => format!("{noun} `{child}` no longer returned: consumers reading it find nothing"),
                    };
                    self.emit(
                        "property-removed",
                        &child,
                        first_value(old_node),
                        None,
                        message,
                    );
                }
                (false, true) => {
                    let base = if req_new {
                        "property-added-required"
                    } else {
                        "property-added-optional"
                    };
                    let kind = if req_new { "required" } else { "optional" };
                    self.emit(
                        base,
                        &child,
                        None,
                        first_value(new_node),
                        format!("{kind} {noun} `{child}` added"),
                    );
                }
                (true, true) => {
                    if req_old != req_new {
                        let (base, text) = if req_new {
                            ("property-now-required", "now required")
                        } else {
                            ("property-now-optional", "now optional")
                        };
                        self.emit(
                            base,
                            &child,
                            Some(json!(req_old)),
                            Some(json!(req_new)),
                            format!("{noun} `{child}` {text}"),
                        );
                    }
                    self.compare(old_node, new_node, &child, depth + 1, (false, false));
                }
                (false, false) => {}
            }
        }
    }

    fn additional(&mut self, so: &Shape<'a>, sn: &Shape<'a>, path: &str, depth: usize) {
        let describe = |a: &Additional<'a>| match a {
            Additional::Any => json!(true),
            Additional::Never => json!(false),
            Additional::Schema(node) => first_value(node).unwrap_or(json!({})),
        };
        let base = match (&so.additional, &sn.additional) {
            (Additional::Any, Additional::Any) | (Additional::Never, Additional::Never) => return,
            (Additional::Schema(a), Additional::Schema(b)) => {
                self.compare(a, b, &join(path, "*"), depth + 1, (false, false));
                return;
            }
            (Additional::Any, _) | (Additional::Schema(_), Additional::Never) => {
                "additional-properties-narrowed"
            }
            _ => "additional-properties-widened",
        };
        let what = self.what(path);
        self.emit(
            base,
            path,
            Some(describe(&so.additional)),
            Some(describe(&sn.additional)),
            format!(
                "{what} additionalProperties {} → {}",
                canonical_string(&describe(&so.additional)),
                canonical_string(&describe(&sn.additional))
            ),
        );
    }

    fn arrays(&mut self, so: &Shape<'a>, sn: &Shape<'a>, path: &str, depth: usize) {
        fn rest<'s, 'a>(s: &'s Shape<'a>) -> &'s [Part<'a>] {
            if s.items.is_empty() {
                schema::any_parts()
            } else {
                &s.items
            }
        }
        let positions = so.prefix.len().max(sn.prefix.len());
        for i in 0..positions {
            let a = so.prefix.get(i).map_or_else(|| rest(so), Vec::as_slice);
            let b = sn.prefix.get(i).map_or_else(|| rest(sn), Vec::as_slice);
            self.compare(a, b, &format!("{path}[{i}]"), depth + 1, (false, false));
        }
        if !(so.items.is_empty() && sn.items.is_empty()) {
            self.compare(
                rest(so),
                rest(sn),
                &format!("{path}[]"),
                depth + 1,
                (false, false),
            );
        }
    }

    fn annotations(&mut self, so: &Shape<'a>, sn: &Shape<'a>, path: &str) {
        self.texts(so, sn, path);
        self.settings(so, sn, path);
    }

    /// The node's description and title.
    pub(super) fn texts(&mut self, so: &Shape<'a>, sn: &Shape<'a>, path: &str) {
        let dir = self.dir;
        let what = || what_in(dir, path);
        // Whether a text change is aimed at the model is judged on the whole item afterwards
        // (`poisoning`), raw text and every field at once.
        if so.description != sn.description {
            self.emit(
                "description-changed",
                path,
                so.description.clone().map(Value::String),
                sn.description.clone().map(Value::String),
                format!(
                    "{} description changed: agents may fill it differently",
                    what()
                ),
            );
        }
        if so.title != sn.title {
            self.emit(
                "title-changed",
                path,
                so.title.clone().map(Value::String),
                sn.title.clone().map(Value::String),
                format!("{} title changed", what()),
            );
        }
    }

    /// Everything around the values but the texts: the default, examples, deprecation, meta
    /// keywords and the keywords the engine does not model.
    pub(super) fn settings(&mut self, so: &Shape<'a>, sn: &Shape<'a>, path: &str) {
        // Named only in a message: most nodes compared have none.
        let dir = self.dir;
        let what = || what_in(dir, path);
        if !same(so.default, sn.default) {
            let text = match (so.default, sn.default) {
                (None, _) => "default added",
                (_, None) => "default removed",
                _ => "default changed",
            };
            self.emit(
                "default-changed",
                path,
                so.default.map(|v| clip(v, CLIP)),
                sn.default.map(|v| clip(v, CLIP)),
                format!(
                    "{} {text}: calls that omit it now behave differently",
                    what()
                ),
            );
        }
        if !same(so.examples, sn.examples) {
            self.emit(
                "examples-changed",
                path,
                so.examples.map(|v| clip(v, CLIP)),
                sn.examples.map(|v| clip(v, CLIP)),
                format!("{} examples changed", what()),
            );
        }
        if so.deprecated != sn.deprecated {
            let text = if sn.deprecated {
                "now deprecated"
            } else {
                "no longer deprecated"
            };
            self.emit(
                "deprecated-changed",
                path,
                Some(json!(so.deprecated)),
                Some(json!(sn.deprecated)),
                format!("{} {text}", what()),
            );
        }
        let mut keys = Vec::with_capacity(so.meta.len() + sn.meta.len());
        for side in [so, sn] {
            keys.extend(side.meta.keys().copied());
        }
        for key in sorted_names(keys) {
            let (a, b) = (so.meta.get(key).copied(), sn.meta.get(key).copied());
            if !same(a, b) {
                self.emit(
                    "schema-meta-changed",
                    path,
                    a.cloned(),
                    b.cloned(),
                    format!("{} `{key}` changed: no effect on validation", what()),
                );
            }
        }
        self.unknown_keywords(so, sn, path);
    }

    /// Keywords the engine does not model: a change fails closed (review), except the ones
    /// judged elsewhere.
    fn unknown_keywords(&mut self, so: &Shape<'a>, sn: &Shape<'a>, path: &str) {
        let dir = self.dir;
        let what = || what_in(dir, path);
        if so.unknown.is_empty() && sn.unknown.is_empty() {
            return;
        }
        let mut keys = Vec::with_capacity(so.unknown.len() + sn.unknown.len());
        for side in [so, sn] {
            keys.extend(side.unknown.keys().map(String::as_str));
        }
        for key in sorted_names(keys) {
            let text = |s: &Shape<'a>| {
                s.unknown.get(key).map(|vs| {
                    let mut all: Vec<String> = Vec::with_capacity(vs.len());
                    for v in vs {
                        all.push(canonical_string(v));
                    }
                    all.sort_unstable();
                    all
                })
            };
            if text(so) != text(sn) {
                let value = |s: &Shape<'a>| {
                    s.unknown.get(key).map(|vs| match vs.as_slice() {
                        [one] => clip(one, CLIP),
                        many => Value::Array(many.iter().map(|v| clip(v, CLIP)).collect()),
                    })
                };
                if key == schema::HEADER_KEYWORD {
                    // Judged with the tool (`tool-header-*`), where the whole input schema is
                    // in view; on a result it means nothing: headers are mirrored from
                    // arguments only.
                    if dir == Direction::Output {
                        self.emit(
                            "schema-meta-changed",
                            path,
                            value(so),
                            value(sn),
                            format!("{} `x-mcp-header` changed: headers are only mirrored from arguments; no effect", what()),
                        );
                    }
                    continue;
                }
                self.emit(
                    "keyword-changed",
                    path,
                    value(so),
                    value(sn),
                    format!(
                        "{}: schema keyword `{key}` changed; not judged, a person should look",
                        what()
                    ),
                );
            }
        }
    }
}

/// The values of `a` whose keys `b` does not hold, in order.
fn only_in<'v>(
    a: &SortedMap<String, &'v Value>,
    b: &SortedMap<String, &'v Value>,
) -> Vec<&'v Value> {
    let mut only = Vec::new();
    for (key, value) in a {
        if !b.contains_key(key) {
            only.push(*value);
        }
    }
    only
}

/// Whether an enum lists every value of its types (only possible for booleans and null).
fn is_exhaustive(types: Atoms, values: &SortedMap<String, &Value>) -> bool {
    let mut covered: Atoms = 0;
    let has = |v: &Value| values.contains_key(&canonical_string(v));
    if has(&Value::Null) {
        covered |= NULL;
    }
    if has(&Value::Bool(true)) && has(&Value::Bool(false)) {
        covered |= schema::BOOLEAN;
    }
    types != 0 && types & !covered == 0
}

/// The strings a node lists, by its enum (of strings only) and its patterns of anchored
/// literal alternatives, and the node's other patterns (which the listed values pass).
struct Listed<'a> {
    values: BTreeMap<String, Value>,
    /// Whether a pattern lists values (not the enum alone).
    by_pattern: bool,
    other_patterns: SortedSet<&'a str>,
}

impl Listed<'_> {
    fn borrowed(&self) -> SortedMap<String, &Value> {
        super::values::borrowed(&self.values)
    }
}

/// What a node lists (see [`Listed`]); `None` when it lists nothing, lists values other than
/// strings, or has a pattern that cannot be read.
fn listed_strings<'a>(shape: &Shape<'a>) -> Option<Listed<'a>> {
    // Filled by loops, not `collect`s: each of those compiled its own insertion code.
    let mut values: Option<BTreeMap<String, Value>> = match &shape.enumeration {
        Some(set) if set.values().all(|v| v.is_string()) => {
            let mut values = BTreeMap::new();
            for (key, value) in set {
                values.insert(key.clone(), (*value).clone());
            }
            Some(values)
        }
        Some(_) => return None,
        None => None,
    };
    let mut by_pattern = false;
    let mut others = Vec::new();
    for source in &shape.patterns {
        match schema::pattern::Pattern::literals_of(source) {
            Some(texts) => {
                by_pattern = true;
                let mut listed = BTreeMap::new();
                for text in texts {
                    let value = Value::String(text);
                    listed.insert(canonical_string(&value), value);
                }
                values = Some(match values {
                    None => listed,
                    Some(before) => {
                        let mut both = BTreeMap::new();
                        for (key, value) in before {
                            if listed.contains_key(&key) {
                                both.insert(key, value);
                            }
                        }
                        both
                    }
                });
            }
            None => others.push((*source, schema::pattern::Pattern::new(source))),
        }
    }
    let mut values = values?;
    for (_, pattern) in &others {
        for (key, value) in std::mem::take(&mut values) {
            if pattern.matches(value.as_str()?)? {
                values.insert(key, value);
            }
        }
    }
    Some(Listed {
        values,
        by_pattern,
        other_patterns: {
            let mut sources = Vec::with_capacity(others.len());
            for (source, _) in &others {
                sources.push(*source);
            }
            SortedSet::of_names(sources)
        },
    })
}

/// Each pattern read.
fn read_patterns(sources: &[&str]) -> Vec<schema::pattern::Pattern> {
    let mut patterns = Vec::with_capacity(sources.len());
    for source in sources {
        patterns.push(schema::pattern::Pattern::new(source));
    }
    patterns
}

/// Two sets of patterns (each set: strings that match all of it), compared as languages:
/// `Some(Some((rule, what shows it)))`, `Some(None)` for the same strings, `None` when the
/// side that hurts (an input refusing, an output producing, strings it did not) is not decided.
fn pattern_verdict(
    a: &SortedSet<&str>,
    b: &SortedSet<&str>,
    dir: Direction,
) -> Option<Option<(&'static str, String)>> {
    use schema::pattern::Pattern;
    let (old, new) = (read_patterns(a.as_slice()), read_patterns(b.as_slice()));
    use schema::regular::Inclusion::{self, Escapes, Included};
    // Every string of `from` is one of `to`, or a string of `from` that is not.
    let within = |from: &[Pattern], to: &[Pattern]| -> Option<Inclusion> {
        let from: Vec<&Pattern> = from.iter().collect();
        let mut answer = Some(Included);
        for target in to {
            match schema::regular::included(&from, target) {
                Some(Included) => {}
                Some(Escapes(text)) => return Some(Escapes(text)),
                None => answer = None,
            }
        }
        answer
    };
    let (lost, gained) = (within(&old, &new), within(&new, &old));
    let hurt = match dir {
        Direction::Input => &lost,
        Direction::Output => &gained,
    };
    hurt.as_ref()?;
    let shown = |text: &str| canonical_string(&json!(text));
    let (refuse, take) = match dir {
        Direction::Input => ("no longer accepts", "now also accepts"),
        Direction::Output => ("can no longer hold", "can now also hold"),
    };
    let id = match (&lost, &gained) {
        (Some(Included), Some(Included)) => return Some(None),
        (Some(Escapes(_)), Some(Escapes(_))) => "pattern-replaced",
        (Some(Escapes(_)), _) | (None, Some(Included)) => "pattern-narrowed",
        (_, Some(Escapes(_))) | (Some(Included), None) => "pattern-widened",
        (None, None) => return None,
    };
    let mut parts = Vec::new();
    match &lost {
        Some(Escapes(text)) => parts.push(format!("{refuse} {}", shown(text))),
        None => parts.push("whether it refuses strings it took is not decided".to_owned()),
        Some(Included) => {}
    }
    match &gained {
        Some(Escapes(text)) => parts.push(format!("{take} {}", shown(text))),
        None => parts.push("whether it takes new strings is not decided".to_owned()),
        Some(Included) => {}
    }
    Some(Some((id, parts.join(" and "))))
}

/// Why two sets of patterns were not compared: a pattern the engine does not read, or a
/// comparison beyond what it explores.
fn undecided_why(a: &SortedSet<&str>, b: &SortedSet<&str>) -> String {
    let unread = a
        .iter()
        .chain(b)
        .find(|p| !schema::pattern::Pattern::new(p).is_read());
    match unread {
        Some(p) => format!(
            "not decided, the engine does not read the pattern {} (lookaround, backreferences, Unicode classes and flags are not read); a person should look",
            canonical_string(&json!(p))
        ),
        None => "not decided (a `\\b`, an anchor inside the pattern, or a comparison too large to explore); a person should look".to_owned(),
    }
}

/// Whether the patterns that came or went only restate the enum beside them: dropped while
/// the new enum's values all match them (an enum replaced a pattern it fits), or added while
/// they match every value the new enum lists. The enum comparison then says it all.
fn patterns_change_nothing_listed(so: &Shape<'_>, sn: &Shape<'_>) -> bool {
    // The same patterns (most nodes: none) changed nothing to restate.
    if so.patterns == sn.patterns {
        return false;
    }
    let (gone, came) = (
        so.patterns.difference_of(&sn.patterns),
        sn.patterns.difference_of(&so.patterns),
    );
    let (changed, listed) = match (gone.is_empty(), came.is_empty()) {
        (false, true) => (gone, &sn.enumeration),
        (true, false) => (came, &sn.enumeration),
        _ => return false,
    };
    let Some(values) = listed else {
        return false;
    };
    let patterns = read_patterns(&changed);
    !values.is_empty()
        && values.values().all(|v| {
            v.as_str()
                .is_some_and(|text| patterns.iter().all(|p| p.matches(text) == Some(true)))
        })
}
