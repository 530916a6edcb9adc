//! A value's assertions as Rust statements: the private `check_<field>`
//! functions of a type, which its macro line names and the runtime calls
//! once the value is read (nested values' through `bind::each`, a tuple's
//! elements through `bind::element`).

use super::{type_ident, Emitter};
use crate::model::{Check, Model, Shape, TypeId, TypeKind};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// The check functions of one type, gathered as its macro line names them.
pub(super) struct Checks<'e, 'a> {
    emitter: &'e Emitter<'a>,
    owner: TypeId,
    functions: Vec<TokenStream>,
}

impl<'e, 'a> Checks<'e, 'a> {
    pub(super) fn new(emitter: &'e Emitter<'a>, owner: TypeId) -> Self {
        Checks { emitter, owner, functions: Vec::new() }
    }

    /// ` (Self::check_<word>)`, the check of a value of `shape`, for the
    /// macro line; empty when the shape asserts nothing. A root newtype's
    /// own check (`word` empty) is `check`.
    pub(super) fn of(&mut self, word: &str, shape: &Shape) -> String {
        let Some(body) = check_fn(self.emitter.model, shape) else { return String::new() };
        let ty = self.emitter.rust_type(shape, Some(self.owner));
        let function = if word.is_empty() { format_ident!("check") } else { format_ident!("check_{}", word) };
        self.functions.push(quote! {
            fn #function(value: &#ty) -> Result<(), ::concord_runtime::bind::Failure> { #body }
        });
        format!(" (Self::{function})")
    }

    /// The functions as an `impl` block of the type, laid out; empty when none.
    pub(super) fn block(self) -> String {
        if self.functions.is_empty() {
            return String::new();
        }
        let name = type_ident(self.emitter.model, self.owner);
        let functions = self.functions;
        // `&String`, `&Vec<T>`: a check takes what the field holds (`fn(&T)`).
        format!(
            "\n{}",
            super::format_items(quote! {
                #[allow(clippy::ptr_arg)]
                impl #name { #(#functions)* }
            })
        )
    }
}

/// Statements that make a shape's assertions on `value` (an expression of
/// type `&T`, `T` the shape's Rust type), returning a `bind::Failure`; `None`
/// when the shape asserts nothing. Named object types, enums and roots
/// (newtypes) check themselves; aliases are transparent, so their
/// assertions are made here.
fn checks(model: &Model, shape: &Shape, value: &TokenStream, depth: usize) -> Option<TokenStream> {
    // Through assertions and aliases in a loop, not by recursion: a chain of
    // 10,000 aliases must not overflow the stack.
    let (mut shape, mut own, mut checked) = (shape, Vec::new(), false);
    loop {
        match shape {
            Shape::Checked(inner, list) => {
                own.extend(list.iter().map(|check| check_call(check, value)));
                (shape, checked) = (inner, true);
            }
            Shape::Named(id) => match &model.get(*id).kind {
                // A registry root is a newtype, not an alias: it checks itself when read.
                TypeKind::Alias(aliased) if !model.get(*id).wrapped => shape = aliased,
                _ => break,
            },
            _ => break,
        }
    }
    let nested = container_checks(model, shape, value, depth);
    if checked {
        Some(quote! { #(#own)* #nested })
    } else {
        nested
    }
}

/// The checks of the values inside an array, a map, a nullable or a tuple.
fn container_checks(model: &Model, shape: &Shape, value: &TokenStream, depth: usize) -> Option<TokenStream> {
    let inner = format_ident!("item{depth}");
    match shape {
        Shape::Array(item) => {
            let body = checks(model, item, &quote! { #inner }, depth + 1)?;
            Some(quote! { ::concord_runtime::bind::each(#value, |#inner| { #body Ok(()) })?; })
        }
        Shape::Map(item) => {
            let body = checks(model, item, &quote! { #inner }, depth + 1)?;
            Some(quote! { ::concord_runtime::bind::each_value(#value, |#inner| { #body Ok(()) })?; })
        }
        Shape::Nullable(item) => {
            let body = checks(model, item, &quote! { #inner }, depth + 1)?;
            Some(quote! { if let Some(#inner) = #value { #body } })
        }
        Shape::Tuple(items) => {
            let parts: Vec<TokenStream> = items
                .iter()
                .enumerate()
                .filter_map(|(position, item)| {
                    let body = checks(model, item, &quote! { #inner }, depth + 1)?;
                    let index = proc_macro2::Literal::usize_unsuffixed(position);
                    Some(quote! { ::concord_runtime::bind::element(#position, (|| -> Result<(), ::concord_runtime::bind::Failure> { let #inner = &#value.#index; #body Ok(()) })())?; })
                })
                .collect();
            (!parts.is_empty()).then(|| quote! { #(#parts)* })
        }
        Shape::Checked(..) | Shape::Named(_) | Shape::Any | Shape::Null | Shape::Bool | Shape::Integer | Shape::Number | Shape::String => None,
    }
}

fn optional_count(bound: &Option<u64>) -> TokenStream {
    match bound {
        Some(bound) => quote! { Some(#bound) },
        None => quote! { None },
    }
}

fn check_call(check: &Check, value: &TokenStream) -> TokenStream {
    let option = optional_count;
    let float = |bound: &Option<f64>| match bound {
        Some(bound) => {
            let literal = proc_macro2::Literal::f64_suffixed(*bound);
            quote! { Some(#literal) }
        }
        None => quote! { None },
    };
    match check {
        Check::Length { min, max } => {
            let (min, max) = (option(min), option(max));
            quote! { ::concord_runtime::checks::length(#value, #min, #max)?; }
        }
        Check::Pattern { regex, .. } => quote! {
            {
                static PATTERN: ::concord_runtime::pattern::Pattern = ::concord_runtime::pattern::Pattern::new(#regex);
                ::concord_runtime::checks::pattern(#value, &PATTERN)?;
            }
        },
        Check::IntegerRange { min, max } => quote! { ::concord_runtime::checks::integer_range(*#value, #min, #max)?; },
        Check::IntegerMultipleOf(divisor) => quote! {
            {
                static DIVISOR: ::concord_runtime::number::Divisor = ::concord_runtime::number::Divisor::from_parts(#divisor, 0);
                ::concord_runtime::checks::integer_multiple_of(*#value, &DIVISOR)?;
            }
        },
        Check::NumberRange { minimum, exclusive_minimum, maximum, exclusive_maximum } => {
            let bounds = [minimum, exclusive_minimum, maximum, exclusive_maximum].map(float);
            quote! { ::concord_runtime::checks::number_range(*#value, [#(#bounds),*])?; }
        }
        Check::NumberMultipleOf(divisor) => {
            let parsed = concord_runtime::number::parse_divisor(divisor).expect("the reader parsed this divisor");
            let (digits, exponent) = (parsed.digits(), parsed.exponent());
            quote! {
                {
                    static DIVISOR: ::concord_runtime::number::Divisor = ::concord_runtime::number::Divisor::from_parts(#digits, #exponent);
                    ::concord_runtime::checks::multiple_of(*#value, &DIVISOR)?;
                }
            }
        }
        Check::Items { min, max } => {
            let (min, max) = (option(min), option(max));
            quote! { ::concord_runtime::checks::items(#value.len(), #min, #max)?; }
        }
        Check::UniqueItems => quote! { ::concord_runtime::checks::unique(#value)?; },
        Check::Properties { min, max } => {
            let (min, max) = (option(min), option(max));
            quote! { ::concord_runtime::checks::properties(#value.len(), #min, #max)?; }
        }
    }
}

/// The body of a check function for a value of `shape` (`fn(&T)`, as
/// `bind::field_checked` takes it), or `None` when the shape asserts nothing.
fn check_fn(model: &Model, shape: &Shape) -> Option<TokenStream> {
    let body = checks(model, shape, &quote! { value }, 0)?;
    Some(quote! { #body Ok(()) })
}
