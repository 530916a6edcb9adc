//! The rules of `concord diff`, as one table: each rule's id, severity, the
//! directions it breaks and the line docs/compatibility.md gives it. The
//! checker reports a [`Rule`] and takes the rest from here; the doc's table
//! of rules is [`markdown`]'s text (cli/tests/diff.rs holds them equal), and
//! the tests check that every row is reported by some case.

use super::{Direction, Severity};

/// One row of the table.
#[derive(Debug)]
pub struct RuleInfo {
    pub rule: Rule,
    /// The identifier a finding carries (`property-required`).
    pub id: &'static str,
    pub severity: Severity,
    /// In the order backward, forward, relay; empty when nothing breaks.
    pub breaks: &'static [Direction],
    /// When the rule applies, as the doc's table says it.
    pub when: &'static str,
}

/// Declares [`Rule`] and [`RULES`] from one list, so that each variant has
/// exactly its row, in the order of the list.
macro_rules! rules {
    ($($name:ident = $id:literal, $severity:ident, [$($direction:ident),*], $when:literal;)*) => {
        /// A rule of `concord diff`: a row of [`RULES`]. Most ids have one
        /// row; an id whose severity or directions depend on the change has a
        /// row for each (`pattern-changed` added, removed or changed), so a
        /// finding's severity and directions always come from its row.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Rule {
            $($name,)*
        }

        /// Every rule, in the order of the doc's table.
        pub const RULES: &[RuleInfo] = &[
            $(RuleInfo { rule: Rule::$name, id: $id, severity: Severity::$severity, breaks: &[$(Direction::$direction),*], when: $when },)*
        ];
    };
}

rules! {
    PinnedVersionChanged = "pinned-version-changed", Error, [Backward, Forward], "a version listed in both registries has other bytes";
    EntryRemoved = "entry-removed", Error, [Backward], "a root type of the old registry is gone";
    EntryAdded = "entry-added", Info, [], "a new root type";
    NewestVersionChanged = "newest-version-changed", Info, [],
        "the plain name now binds a newer version (the rest of the report compares the two)";
    PropertyAddedClosed = "property-added-closed", Error, [Forward],
        "a property declared at a closed type (`additionalProperties: false`): an old reader refuses the key";
    PropertyAddedDefault = "property-added-default", Warning, [Relay], "a property declared at a default type: an old reader drops it, a relay loses it";
    PropertyAddedGrowthPoint = "property-added-growth-point", Warning, [Backward],
        "a property declared at a growth point: an old reader keeps it; but old data may hold that key, kept, with another shape";
    RequiredPropertyAdded = "required-property-added", Error, [Backward], "the new property is required: old data lacks it";
    PropertyRemovedClosed = "property-removed-closed", Error, [Backward], "a property removed from a closed type: old data that holds it is refused";
    PropertyRemovedDefault = "property-removed-default", Info, [], "a property removed from a default type: a new reader drops it from old data";
    PropertyRemovedGrowthPoint = "property-removed-growth-point", Info, [],
        "a property removed from a growth point: the key falls into the kept unknown keys";
    RequiredPropertyRemoved = "required-property-removed", Error, [Forward],
        "the removed property was required: an old reader refuses new data without it";
    PropertyRequired = "property-required", Error, [Backward], "optional → required";
    PropertyOptional = "property-optional", Error, [Forward], "required → optional";
    NullableAdded = "nullable-added", Error, [Forward], "a value may now be `null`";
    NullableRemoved = "nullable-removed", Error, [Backward], "a value may no longer be `null`";
    TypeWidened = "type-widened", Error, [Forward],
        "the new type accepts all the old one did and more (integer → number, a type → any value)";
    TypeNarrowed = "type-narrowed", Error, [Backward], "the reverse (number → integer, any value → a type)";
    TypeChanged = "type-changed", Error, [Backward, Forward], "neither holds the other (string → integer, object → array)";
    BoundWidened = "bound-widened", Error, [Forward], "a bound relaxed or removed (`maxLength`, `minimum`, `minItems`, `uniqueItems`...)";
    BoundNarrowed = "bound-narrowed", Error, [Backward], "a bound tightened or added";
    PatternAdded = "pattern-changed", Error, [Backward], "a `pattern` added: old data may not match it";
    PatternRemoved = "pattern-changed", Error, [Forward], "a `pattern` removed: an old reader refuses new data that does not match it";
    PatternChanged = "pattern-changed", Error, [Backward, Forward], "a `pattern` changed: concord does not compare regular languages";
    EnumValueAdded = "enum-value-added", Error, [Forward], "a value added to a closed enum (or `const`)";
    EnumValueRemoved = "enum-value-removed", Error, [Backward], "a value removed from a closed enum";
    OpenEnumValueAdded = "open-enum-value-added", Info, [],
        "a value added to an `x-open-enum`: an old reader keeps it as unrecognized and writes it back";
    OpenEnumValueRemoved = "open-enum-value-removed", Info, [], "a value removed from an `x-open-enum`: old data holding it is kept as unrecognized";
    EnumOpened = "enum-opened", Error, [Forward], "a closed enum became `x-open-enum`: new data may hold strings an old reader refuses";
    EnumClosed = "enum-closed", Error, [Backward], "an `x-open-enum` became closed: old data may hold strings a new reader refuses";
    PolicyClosed = "policy-closed", Error, [Backward],
        "a default type, a growth point or a typed map became closed: old data with unknown keys is refused";
    PolicyGrowthPointFromClosed = "policy-growth-point", Error, [Forward],
        "a closed type became a growth point (or a typed map): new data may carry unknown keys an old closed reader refuses";
    PolicyGrowthPointFromDefault = "policy-growth-point", Warning, [Relay],
        "a default type became a growth point: an old relay drops the keys new writers keep there";
    PolicyDefaultFromClosed = "policy-default", Error, [Forward],
        "a closed type became default: new data may carry unknown keys an old closed reader refuses";
    PolicyDefaultFromGrowthPoint = "policy-default", Warning, [Relay],
        "a growth point became default: an old relay keeps keys the new readers drop (the record is written back other than a new binding writes it)";
    PolicyTypedMap = "policy-typed-map", Error, [Backward],
        "a default type's or growth point's unknown keys became typed entries (`additionalProperties: {schema}` beside properties): old data's keys of any shape are now typed";
    PolicyTypedMapToGrowthPoint = "policy-typed-map", Error, [Forward],
        "a typed map became a growth point: new data's unknown keys of any shape meet an old reader that types them";
    PolicyTypedMapToDefault = "policy-typed-map", Error, [Forward, Relay],
        "a typed map became a default type: new data's unknown keys of any shape meet an old reader that types them, and an old relay keeps the entries new readers drop";
    UnionBranchAdded = "union-branch-added", Error, [Forward], "a union gained a branch (a tag or a JSON type)";
    UnionBranchRemoved = "union-branch-removed", Error, [Backward], "a union lost one";
    UnionTagChanged = "union-tag-changed", Error, [Backward, Forward], "a tagged union picks by another property, or changed how it picks";
    EnvelopeVersionAdded = "envelope-version-added", Error, [Forward],
        "a version added to an `x-version-field` envelope: old readers refuse it as unsupported, loudly (docs/decisions/versioned-envelopes.md)";
    EnvelopeVersionRemoved = "envelope-version-removed", Error, [Backward], "a version dropped: its data is refused as unsupported";
    EnvelopeVersionFieldAdded = "envelope-version-field-changed", Error, [Backward],
        "`x-version-field` added: old data may hold a version outside the set";
    EnvelopeVersionFieldRemoved = "envelope-version-field-changed", Error, [Forward],
        "`x-version-field` removed: new data may hold a version an old reader refuses";
    EnvelopeVersionFieldRenamed = "envelope-version-field-changed", Error, [Backward, Forward], "`x-version-field` names another property";
    TypedIdPrefixChanged = "typed-id-prefix-changed", Error, [Backward, Forward], "an `x-typed-id` prefix changed";
}

impl Rule {
    /// The rule's row.
    pub fn info(self) -> &'static RuleInfo {
        &RULES[self as usize]
    }

    pub fn id(self) -> &'static str {
        self.info().id
    }

    pub fn severity(self) -> Severity {
        self.info().severity
    }

    pub fn breaks(self) -> &'static [Direction] {
        self.info().breaks
    }

    pub fn when(self) -> &'static str {
        self.info().when
    }
}

/// The table as docs/compatibility.md gives it: a Markdown table, one line
/// a row (the header, then a row for each rule in order), each line ending
/// in a newline.
pub fn markdown() -> String {
    let cell = |text: &str| if text.is_empty() { " ".to_owned() } else { format!(" {text} ") };
    let mut out = String::from("| rule | when | breaks | severity |\n|---|---|---|---|\n");
    for info in RULES {
        let breaks: Vec<&str> = info.breaks.iter().map(|direction| direction.as_str()).collect();
        let cells = [format!("`{}`", info.id), info.when.to_owned(), breaks.join(", "), info.severity.as_str().to_owned()];
        out.push('|');
        for text in &cells {
            out.push_str(&cell(text));
            out.push('|');
        }
        out.push('\n');
    }
    out
}
