//! Lays generated Python out as `ruff format` would, so that the package
//! passes `ruff format --check` and E501 whatever the names and constraints.
//!
//! The emitter builds every expression as a small syntax tree ([`Expr`]:
//! brackets, keyword arguments and `|` unions, the only structure generated
//! code has), and the statement functions choose among ruff's layouts the
//! first that fits:
//!
//! - an expression fits on the line, or it breaks at its outermost bracket:
//!   its items on one indented line, else one item per line with a trailing
//!   comma (none after a single item: `X[a,]` would be a tuple; except in
//!   a one-item tuple display, where the comma makes the tuple); recursively;
//! - a `|` union breaks before each `|`, inside parentheses of its own when
//!   no bracket holds it;
//! - in `target: annotation = value` the value breaks first (after its own
//!   bracket, else inside added parentheses), the annotation only when even
//!   `target: annotation = (` does not fit.

pub use super::width::{char_width, width, LINE_WIDTH};

/// Each statement laid out while tests run, as (the statement on one line,
/// the layout): the layout must mean what the line means
/// (`tests::the_layout_never_changes_what_a_statement_means`). Nothing
/// outside tests records anything.
#[cfg(test)]
pub static LAID_OUT: std::sync::Mutex<Vec<(String, String)>> = std::sync::Mutex::new(Vec::new());

/// Keeps `flat` and its layout for the test of the layout's meaning; nothing outside tests.
fn laid_out(flat: impl FnOnce() -> String, laid: String) -> String {
    #[cfg(test)]
    LAID_OUT.lock().expect("the test's record").push((flat(), laid.clone()));
    #[cfg(not(test))]
    let _ = flat;
    laid
}

/// A generated Python expression.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    /// What cannot break: a name, a literal, `()`.
    Text(String),
    /// `name=value`, a keyword argument.
    Keyword(String, Box<Expr>),
    /// `head[items]` or `head(items)`; a list display when `head` is empty.
    Brackets { head: String, open: char, items: Vec<Expr>, close: char },
    /// `a | b | ...`
    Union(Vec<Expr>),
}

impl Expr {
    /// A name, a number or a literal: what cannot break.
    pub fn text(text: impl Into<String>) -> Expr {
        Expr::Text(text.into())
    }

    /// `head[items]`, a subscript (`list[str]`, `typing.Annotated[...]`).
    pub fn subscript(head: impl Into<String>, items: Vec<Expr>) -> Expr {
        Expr::Brackets { head: head.into(), open: '[', items, close: ']' }
    }

    /// `head(items)`, a call; `head()` without arguments cannot break.
    pub fn call(head: impl Into<String>, items: Vec<Expr>) -> Expr {
        let head = head.into();
        if items.is_empty() {
            return Expr::Text(format!("{head}()"));
        }
        Expr::Brackets { head, open: '(', items, close: ')' }
    }

    /// `[items]`, a list display.
    pub fn list(items: Vec<Expr>) -> Expr {
        Expr::Brackets { head: String::new(), open: '[', items, close: ']' }
    }

    /// `(items)`, a tuple display: `(item,)` for one item.
    pub fn tuple(items: Vec<Expr>) -> Expr {
        Expr::Brackets { head: String::new(), open: '(', items, close: ')' }
    }

    /// `name=value`, a keyword argument.
    pub fn keyword(name: &str, value: Expr) -> Expr {
        Expr::Keyword(name.to_owned(), Box::new(value))
    }

    /// `a | b | ...`, one union however the operands nest.
    pub fn union(operands: Vec<Expr>) -> Expr {
        let mut flat = Vec::with_capacity(operands.len());
        for operand in operands {
            match operand {
                Expr::Union(inner) => flat.extend(inner),
                operand => flat.push(operand),
            }
        }
        Expr::Union(flat)
    }

    /// The expression on one line.
    pub fn flat(&self) -> String {
        match self {
            Expr::Text(text) => text.clone(),
            Expr::Keyword(name, value) => format!("{name}={}", value.flat()),
            // A one-item tuple display keeps its comma: `(1,)`, not the integer `(1)`.
            Expr::Brackets { items, close, .. } if self.is_one_tuple() => format!("({},{close}", items[0].flat()),
            Expr::Brackets { head, open, items, close } => format!("{head}{open}{}{close}", flat_items(items)),
            Expr::Union(operands) => operands.iter().map(Expr::flat).collect::<Vec<_>>().join(" | "),
        }
    }

    /// Each expression inside this one, this one first.
    pub fn walk(&self, visit: &mut impl FnMut(&Expr)) {
        visit(self);
        match self {
            Expr::Text(_) => {}
            Expr::Keyword(_, value) => value.walk(visit),
            Expr::Brackets { items, .. } | Expr::Union(items) => items.iter().for_each(|item| item.walk(visit)),
        }
    }

    /// `(item,)`: a tuple display of one item, whose comma is its meaning
    /// on one line or broken over several (the emitter writes no
    /// parenthesized expression of one item, so `(item)` reads as one too).
    fn is_one_tuple(&self) -> bool {
        matches!(self, Expr::Brackets { head, open: '(', items, .. } if head.is_empty() && items.len() == 1)
    }

    /// A call or a subscript: it breaks at its own bracket.
    fn is_trailer(&self) -> bool {
        matches!(self, Expr::Brackets { head, .. } if !head.is_empty())
    }
}

fn flat_items(items: &[Expr]) -> String {
    items.iter().map(Expr::flat).collect::<Vec<_>>().join(", ")
}

fn fits(width: usize) -> bool {
    width <= LINE_WIDTH
}

/// Whether `ruff check` reports a line as too long (E501): wider than
/// [`LINE_WIDTH`], and not one of the lines it excuses: a single word (no
/// whitespace inside), or one whose last word holds a URL (`://`) that
/// starts within the limit.
pub fn overlong(line: &str) -> bool {
    let total = width(line);
    if total <= LINE_WIDTH {
        return false;
    }
    let mut words = line.split_whitespace();
    let (Some(_), Some(second)) = (words.next(), words.next()) else { return false };
    let last = words.last().unwrap_or(second);
    !(last.contains("://") && total - width(last) <= LINE_WIDTH)
}

fn pad(indent: usize) -> String {
    " ".repeat(indent)
}

/// `expr` starting at `column` of a line indented by `indent`, with `trail`
/// more characters after it on its last line.
fn lay(expr: &Expr, indent: usize, column: usize, trail: usize) -> String {
    let flat = expr.flat();
    if column + width(&flat) + trail <= LINE_WIDTH {
        return flat;
    }
    broken(expr, indent, column, trail)
}

/// `expr` broken at its outermost bracket (or `|`), whether or not it fits.
fn broken(expr: &Expr, indent: usize, column: usize, trail: usize) -> String {
    match expr {
        Expr::Text(text) if column + width(text) + trail > LINE_WIDTH && is_string(text) => parenthesized(expr, indent),
        Expr::Text(text) => text.clone(),
        Expr::Keyword(name, value) => format!("{name}={}", lay(value, indent, column + width(name) + 1, trail)),
        Expr::Brackets { head, open, items, close } => {
            let inner = indent + 4;
            let body = if let [item] = &items[..] {
                // A one-item tuple keeps its comma broken too (ruff's layout of `(item,)`).
                let comma = if expr.is_one_tuple() { "," } else { "" };
                pad(inner) + &lay(item, inner, inner, comma.len()) + comma
            } else if !head.is_empty() && inner + width(&flat_items(items)) <= LINE_WIDTH {
                pad(inner) + &flat_items(items)
            } else {
                // A list display always takes one item per line.
                items.iter().map(|item| format!("{}{},", pad(inner), lay(item, inner, inner, 1))).collect::<Vec<_>>().join("\n")
            };
            format!("{head}{open}\n{body}\n{}{close}", pad(indent))
        }
        Expr::Union(operands) => {
            let mut out = lay(&operands[0], indent, column, 0);
            for (position, operand) in operands.iter().enumerate().skip(1) {
                // What follows the union (a comma, a bracket) follows its last operand.
                let trail = if position == operands.len() - 1 { trail } else { 0 };
                out.push_str(&format!("\n{}| {}", pad(indent), lay(operand, indent, indent + 2, trail)));
            }
            out
        }
    }
}

/// `expr` inside parentheses of its own (a union's, or a value's that
/// does not fit otherwise), from the end of a line indented by `indent`.
fn parenthesized(expr: &Expr, indent: usize) -> String {
    let inner = match expr {
        Expr::Text(text) if is_string(text) => string_lines(text, indent + 4),
        _ => lay(expr, indent + 4, indent + 4, 0),
    };
    format!("(\n{}{inner}\n{})", pad(indent + 4), pad(indent))
}

/// A string literal starting at `column` of a line indented by `indent`,
/// with `trail` more characters after it: as it is where it fits, else its
/// parts in parentheses of their own.
pub fn string(literal: &str, indent: usize, column: usize, trail: usize) -> String {
    let laid = lay(&Expr::text(literal), indent, column, trail);
    #[cfg(test)]
    laid_out(|| format!("x = {literal}\n"), format!("x = {laid}\n"));
    laid
}

/// Whether `text` is one string literal, as the emitter writes them.
fn is_string(text: &str) -> bool {
    let mut chars = text.chars();
    match (chars.next(), chars.next_back()) {
        (Some(open @ ('"' | '\'')), Some(close)) if close == open && text.len() > 1 => {
            let body = &text[1..text.len() - 1];
            let mut escaped = false;
            // The closing quote is the only unescaped one.
            body.chars().all(|c| {
                let ends = c == open && !escaped;
                escaped = c == '\\' && !escaped;
                !ends
            })
        }
        _ => false,
    }
}

/// A string literal on lines of its own at `indent`: as it is where it
/// fits, else implicitly concatenated parts, one a line, that do (ruff
/// joins them back only where the whole fits). A part ends after each line
/// break of the text, and else at a space where one is near the limit.
pub fn string_lines(literal: &str, indent: usize) -> String {
    if indent + width(literal) <= LINE_WIDTH {
        return literal.to_owned();
    }
    // Room for the quotes; a part holds one character at least.
    let room = LINE_WIDTH.saturating_sub(indent + 2).max(8);
    let text = unescape(literal);
    let mut parts: Vec<String> = Vec::new();
    let mut part = String::new();
    let mut used = 0;
    // The latest space in `part` (its end), and the width up to it.
    let mut space: Option<(usize, usize)> = None;
    for c in text.chars() {
        let cost = escaped_width(c);
        if used + cost > room && !part.is_empty() {
            let rest = match space {
                Some((end, width)) if width * 2 > room => {
                    used -= width;
                    part.split_off(end)
                }
                _ => {
                    used = 0;
                    String::new()
                }
            };
            parts.push(std::mem::replace(&mut part, rest));
            space = None;
        }
        part.push(c);
        used += cost;
        if c == ' ' {
            space = Some((part.len(), used));
        }
        if c == '\n' {
            parts.push(std::mem::take(&mut part));
            (used, space) = (0, None);
        }
    }
    if !part.is_empty() {
        parts.push(part);
    }
    parts.iter().map(|part| super::text::string_literal(part)).collect::<Vec<_>>().join(&format!("\n{}", pad(indent)))
}

/// The columns a character takes in a string literal: escaped as the
/// emitter escapes it, a quote counted as escaped (which quote a part takes
/// depends on the part).
fn escaped_width(c: char) -> usize {
    match c {
        '\\' | '"' | '\'' | '\n' | '\r' | '\t' => 2,
        '\u{2028}' | '\u{2029}' | '\u{85}' => 6,
        c if (c as u32) < 0x20 || c == '\u{7f}' => 4,
        // Escaped, as one that could be taken for another (`super::ambiguous`).
        c if !c.is_ascii() && !c.is_alphanumeric() => {
            if (c as u32) > 0xFFFF {
                10
            } else {
                6
            }
        }
        c => char_width(c),
    }
}

/// The text of a string literal the emitter wrote (`super::string_literal`).
fn unescape(literal: &str) -> String {
    let mut out = String::with_capacity(literal.len());
    let mut chars = literal[1..literal.len() - 1].chars();
    fn hex(chars: &mut std::str::Chars, digits: usize) -> char {
        let code: String = chars.by_ref().take(digits).collect();
        u32::from_str_radix(&code, 16).ok().and_then(char::from_u32).expect("the emitter's escape")
    }
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('t') => out.push('\t'),
            Some('x') => out.push(hex(&mut chars, 2)),
            Some('u') => out.push(hex(&mut chars, 4)),
            Some('U') => out.push(hex(&mut chars, 8)),
            Some(c) => out.push(c),
            None => unreachable!("a literal ends with its quote"),
        }
    }
    out
}

/// `lead` + `value` as the last expression of a statement (`lead` holds the
/// indent): flat; else broken after its own bracket; else parenthesized;
/// else `split_lead` (the lead broken) followed by the value.
fn last_expression(lead: &str, indent: usize, value: &Expr, split_lead: Option<&dyn Fn() -> String>) -> String {
    let flat = value.flat();
    let lead_width = width(lead);
    if lead_width + width(&flat) <= LINE_WIDTH {
        return format!("{lead}{flat}");
    }
    match value {
        // A list display is never parenthesized (the annotation breaks
        // instead where even the display's opening bracket does not fit).
        Expr::Brackets { head, .. } if head.is_empty() && (fits(lead_width + 1) || split_lead.is_none()) => {
            return format!("{lead}{}", broken(value, indent, lead_width, 0));
        }
        Expr::Brackets { head, .. } if fits(lead_width + width(head) + 1) => {
            return format!("{lead}{}", broken(value, indent, lead_width, 0));
        }
        Expr::Union(_) if split_lead.is_none() => return format!("{lead}{}", parenthesized(value, indent)),
        _ => {}
    }
    // Parentheses the value does not need: where the line with `(` fits; and
    // for a value that cannot break, only where it then fits itself, unless
    // the lead could break instead (ruff's best fit).
    // A call or subscript is parenthesized only where every line then fits
    // (ruff's best fit in its all-lines mode): else it breaks at its own bracket.
    let all_fit = |text: &str| text.lines().all(|line| fits(width(line)));
    let helps = split_lead.is_some() || fits(indent + 4 + width(&flat)) || (value.is_trailer() && all_fit(&format!("{lead}{}", parenthesized(value, indent))));
    if fits(lead_width + 1) && helps {
        return format!("{lead}{}", parenthesized(value, indent));
    }
    match split_lead {
        Some(split_lead) => {
            let lead = split_lead();
            let column = width(&lead[lead.rfind('\n').map_or(0, |n| n + 1)..]);
            lead + &lay(value, indent, column, 0)
        }
        None => format!("{lead}{}", lay(value, indent, lead_width, 0)),
    }
}

/// `target = value`, `target: annotation` or `target: annotation = value`
/// at `indent`; ends with a newline.
pub fn assignment(indent: usize, target: &str, annotation: Option<&Expr>, value: Option<&Expr>) -> String {
    let head = format!("{}{target}", pad(indent));
    let out = match (annotation, value) {
        (None, Some(value)) => last_expression(&format!("{head} = "), indent, value, None),
        (Some(annotation), None) => last_expression(&format!("{head}: "), indent, annotation, None),
        (Some(annotation), Some(value)) => {
            let lead = format!("{head}: {} = ", annotation.flat());
            let splittable = matches!(annotation, Expr::Union(_)) || annotation.is_trailer();
            let split = || {
                let annotation = match annotation {
                    Expr::Union(_) => parenthesized(annotation, indent),
                    _ => broken(annotation, indent, width(&head) + 2, 0),
                };
                format!("{head}: {annotation} = ")
            };
            last_expression(&lead, indent, value, splittable.then_some(&split as &dyn Fn() -> String))
        }
        (None, None) => unreachable!("an assignment assigns"),
    };
    let flat = || {
        let annotation = annotation.map(|annotation| format!(": {}", annotation.flat())).unwrap_or_default();
        let value = value.map(|value| format!(" = {}", value.flat())).unwrap_or_default();
        format!("{}{target}{annotation}{value}\n", pad(indent))
    };
    laid_out(flat, out + "\n")
}

/// `return value`, laid out as ruff formats it; ends with a newline.
pub fn return_statement(indent: usize, value: &Expr) -> String {
    let laid = last_expression(&format!("{}return ", pad(indent)), indent, value, None) + "\n";
    laid_out(|| format!("{}return {}\n", pad(indent), value.flat()), laid)
}

/// `class name(base):` with one base class; ends with a newline.
pub fn class_head(name: &str, base: &Expr) -> String {
    let one_line = format!("class {name}({}):", base.flat());
    if width(&one_line) <= LINE_WIDTH {
        return one_line + "\n";
    }
    laid_out(|| format!("{one_line}\n"), format!("class {name}(\n    {}\n):\n", lay(base, 4, 4, 0)))
}

/// `annotation` with each name in `pending` (a class not defined yet where
/// it stands) as a forward reference: the name quoted, or a whole union
/// that holds one (a string cannot be an operand of `|`).
pub fn quote_pending(annotation: Expr, pending: &[String]) -> Expr {
    fn quote(expr: Expr, pending: &[String]) -> Expr {
        let mentions = |expr: &Expr| {
            let mut found = false;
            expr.walk(&mut |e| found |= matches!(e, Expr::Text(text) if pending.contains(text)));
            found
        };
        match expr {
            Expr::Text(text) if pending.contains(&text) => Expr::Text(super::text::string_literal(&text)),
            Expr::Union(_) if mentions(&expr) => Expr::Text(super::text::string_literal(&expr.flat())),
            Expr::Keyword(name, value) => Expr::Keyword(name, Box::new(quote(*value, pending))),
            Expr::Brackets { head, open, items, close } => {
                Expr::Brackets { head, open, items: items.into_iter().map(|item| quote(item, pending)).collect(), close }
            }
            expr => expr,
        }
    }
    if pending.is_empty() {
        return annotation;
    }
    quote(annotation, pending)
}

/// Marks the lines no layout can bring within [`LINE_WIDTH`] (an identifier
/// or a name longer than the line) with `# noqa: E501` where `ruff check`
/// would report them ([`overlong`]); `ruff format` neither counts such
/// pragmas nor moves them. Lines inside a docstring are left as they are
/// (the docstring is wrapped to fit).
pub fn excuse_long_lines(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut in_docstring = false;
    for line in code.split_inclusive('\n') {
        let text = line.trim_end_matches('\n');
        let trimmed = text.trim_start();
        // A docstring starts a line with `"""` and ends one with it (it escapes every `"` it holds).
        let docstring = if in_docstring {
            in_docstring = !text.ends_with("\"\"\"");
            true
        } else if let Some(rest) = trimmed.strip_prefix("\"\"\"") {
            in_docstring = !rest.ends_with("\"\"\"");
            true
        } else {
            false
        };
        if overlong(text) && !docstring && !text.contains("# noqa") {
            out.push_str(text);
            out.push_str("  # noqa: E501");
            out.push_str(&line[text.len()..]);
        } else {
            out.push_str(line);
        }
    }
    out
}
