//! Lays generated Python out as `ruff format` would, so that the package
//! passes `ruff format --check` and E501 whatever the names and constraints.
//!
//! The emitter builds every expression as one flat line; [`parse`] reads it
//! back into brackets, keyword arguments and `|` unions (the only structure
//! generated code has), and the statement functions choose among ruff's
//! layouts the first that fits:
//!
//! - an expression fits on the line, or it breaks at its outermost bracket:
//!   its items on one indented line, else one item per line with a trailing
//!   comma (none after a single item: `X[a,]` would be a tuple); recursively;
//! - a `|` union breaks before each `|`, inside parentheses of its own when
//!   no bracket holds it;
//! - in `target: annotation = value` the value breaks first (after its own
//!   bracket, else inside added parentheses), the annotation only when even
//!   `target: annotation = (` does not fit.

/// The line length of the repository's ruff settings (`pyproject.toml`).
pub const LINE_WIDTH: usize = 120;

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

/// Reads an expression the emitter wrote on one line.
pub fn parse(text: &str) -> Expr {
    let mut parser = Parser { text, at: 0 };
    let expr = parser.expr();
    assert_eq!(parser.at, text.len(), "unparsed generated Python: {text}");
    expr
}

struct Parser<'a> {
    text: &'a str,
    at: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    fn spaces(&mut self) {
        while self.peek() == Some(b' ') {
            self.at += 1;
        }
    }

    fn expr(&mut self) -> Expr {
        let mut operands = vec![self.primary()];
        self.spaces();
        while self.peek() == Some(b'|') {
            self.at += 1;
            self.spaces();
            operands.push(self.primary());
            self.spaces();
        }
        if operands.len() == 1 { operands.remove(0) } else { Expr::Union(operands) }
    }

    fn item(&mut self) -> Expr {
        let start = self.at;
        let name_end = start + self.text[start..].find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(self.text.len() - start);
        let text = self.text.as_bytes();
        if name_end > start && text.get(name_end) == Some(&b'=') && text.get(name_end + 1) != Some(&b'=') {
            self.at = name_end + 1;
            return Expr::Keyword(self.text[start..name_end].to_owned(), Box::new(self.expr()));
        }
        self.expr()
    }

    fn primary(&mut self) -> Expr {
        let start = self.at;
        let mut expr = None;
        while let Some(c) = self.peek() {
            match c {
                b'"' | b'\'' => self.string(c),
                b'[' | b'(' => {
                    let head = self.text[start..self.at].to_owned();
                    let (open, close) = if c == b'[' { ('[', b']') } else { ('(', b')') };
                    self.at += 1;
                    let mut items = Vec::new();
                    self.spaces();
                    while self.peek() != Some(close) {
                        assert!(self.peek().is_some(), "unclosed bracket in generated Python: {}", self.text);
                        items.push(self.item());
                        self.spaces();
                        if self.peek() == Some(b',') {
                            self.at += 1;
                            self.spaces();
                        }
                    }
                    self.at += 1;
                    expr = Some(Expr::Brackets { head, open, items, close: close as char });
                }
                b' ' | b',' | b'|' | b']' | b')' => break,
                _ => self.at += 1,
            }
        }
        match expr {
            Some(expr) if self.text[start..self.at].ends_with([']', ')']) && !matches!(&expr, Expr::Brackets { items, .. } if items.is_empty()) => expr,
            _ => Expr::Text(self.text[start..self.at].to_owned()),
        }
    }

    fn string(&mut self, quote: u8) {
        self.at += 1;
        while let Some(c) = self.peek() {
            self.at += if c == b'\\' { 2 } else { 1 };
            if c == quote {
                return;
            }
        }
    }
}

impl Expr {
    /// The expression on one line.
    pub fn flat(&self) -> String {
        match self {
            Expr::Text(text) => text.clone(),
            Expr::Keyword(name, value) => format!("{name}={}", value.flat()),
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

fn pad(indent: usize) -> String {
    " ".repeat(indent)
}

/// `expr` starting at `column` of a line indented by `indent`, with `trail`
/// more characters after it on its last line.
fn lay(expr: &Expr, indent: usize, column: usize, trail: usize) -> String {
    let flat = expr.flat();
    if column + flat.len() + trail <= LINE_WIDTH {
        return flat;
    }
    broken(expr, indent, column, trail)
}

/// `expr` broken at its outermost bracket (or `|`), whether or not it fits.
fn broken(expr: &Expr, indent: usize, column: usize, trail: usize) -> String {
    match expr {
        Expr::Text(text) => text.clone(),
        Expr::Keyword(name, value) => format!("{name}={}", lay(value, indent, column + name.len() + 1, trail)),
        Expr::Brackets { head, open, items, close } => {
            let inner = indent + 4;
            let body = if let [item] = &items[..] {
                pad(inner) + &lay(item, inner, inner, 0)
            } else if !head.is_empty() && inner + flat_items(items).len() <= LINE_WIDTH {
                pad(inner) + &flat_items(items)
            } else {
                // A list display always takes one item per line.
                items.iter().map(|item| format!("{}{},", pad(inner), lay(item, inner, inner, 1))).collect::<Vec<_>>().join("\n")
            };
            format!("{head}{open}\n{body}\n{}{close}", pad(indent))
        }
        Expr::Union(operands) => {
            let mut out = lay(&operands[0], indent, column, 0);
            for operand in &operands[1..] {
                out.push_str(&format!("\n{}| {}", pad(indent), lay(operand, indent, indent + 2, 0)));
            }
            out
        }
    }
}

/// `expr` inside parentheses of its own (a union's, or a value's that
/// does not fit otherwise), from the end of a line indented by `indent`.
fn parenthesized(expr: &Expr, indent: usize) -> String {
    format!("(\n{}{}\n{})", pad(indent + 4), lay(expr, indent + 4, indent + 4, 0), pad(indent))
}

/// `lead` + `value` as the last expression of a statement (`lead` holds the
/// indent): flat; else broken after its own bracket; else parenthesized;
/// else `split_lead` (the lead broken) followed by the value.
fn last_expression(lead: &str, indent: usize, value: &Expr, split_lead: Option<&dyn Fn() -> String>) -> String {
    let flat = value.flat();
    if lead.len() + flat.len() <= LINE_WIDTH {
        return format!("{lead}{flat}");
    }
    match value {
        // A list display is never parenthesized.
        Expr::Brackets { head, .. } if head.is_empty() => return format!("{lead}{}", broken(value, indent, lead.len(), 0)),
        Expr::Brackets { head, open, .. } if fits(lead.len() + head.len() + open.len_utf8()) => {
            return format!("{lead}{}", broken(value, indent, lead.len(), 0));
        }
        Expr::Union(_) if split_lead.is_none() => return format!("{lead}{}", parenthesized(value, indent)),
        _ => {}
    }
    // Parentheses the value does not need: where the line with `(` fits; and
    // for a value that cannot break, only where it then fits itself, unless
    // the lead could break instead (ruff's best fit).
    let helps = value.is_trailer() || split_lead.is_some() || fits(indent + 4 + flat.len());
    if fits(lead.len() + "(".len()) && helps {
        return format!("{lead}{}", parenthesized(value, indent));
    }
    match split_lead {
        Some(split_lead) => {
            let lead = split_lead();
            let column = lead.len() - lead.rfind('\n').map_or(0, |n| n + 1);
            lead + &lay(value, indent, column, 0)
        }
        None => format!("{lead}{}", lay(value, indent, lead.len(), 0)),
    }
}

/// `target = value`, `target: annotation` or `target: annotation = value`
/// at `indent`, each expression given on one line; ends with a newline.
pub fn assignment(indent: usize, target: &str, annotation: Option<&str>, value: Option<&str>) -> String {
    let head = format!("{}{target}", pad(indent));
    let out = match (annotation.map(parse), value.map(parse)) {
        (None, Some(value)) => last_expression(&format!("{head} = "), indent, &value, None),
        (Some(annotation), None) => last_expression(&format!("{head}: "), indent, &annotation, None),
        (Some(annotation), Some(value)) => {
            let lead = format!("{head}: {} = ", annotation.flat());
            let splittable = matches!(annotation, Expr::Union(_)) || annotation.is_trailer();
            let split = || {
                let annotation = match &annotation {
                    Expr::Union(_) => parenthesized(&annotation, indent),
                    _ => broken(&annotation, indent, head.len() + 2, 0),
                };
                format!("{head}: {annotation} = ")
            };
            last_expression(&lead, indent, &value, splittable.then_some(&split as &dyn Fn() -> String))
        }
        (None, None) => unreachable!("an assignment assigns"),
    };
    out + "\n"
}

/// `class name(base):` with one base class; ends with a newline.
pub fn class_head(name: &str, base: &str) -> String {
    let one_line = format!("class {name}({base}):");
    if one_line.len() <= LINE_WIDTH {
        return one_line + "\n";
    }
    format!("class {name}(\n    {}\n):\n", lay(&parse(base), 4, 4, 0))
}

/// `from module import name`, given on one line, with the name in
/// parentheses of its own when the line is too long; ends with a newline.
pub fn import(line: &str) -> String {
    match line.rsplit_once(" import ") {
        Some((from, name)) if line.len() > LINE_WIDTH => format!("{from} import (\n    {name},\n)\n"),
        _ => format!("{line}\n"),
    }
}

/// `annotation` with each name in `pending` (a class not defined yet where
/// it stands) as a forward reference: the name quoted, or a whole union
/// that holds one (a string cannot be an operand of `|`).
pub fn quote_pending(annotation: &str, pending: &[String]) -> String {
    fn quote(expr: Expr, pending: &[String]) -> Expr {
        let mentions = |expr: &Expr| {
            let mut found = false;
            expr.walk(&mut |e| found |= matches!(e, Expr::Text(text) if pending.contains(text)));
            found
        };
        match expr {
            Expr::Text(text) if pending.contains(&text) => Expr::Text(super::string_literal(&text)),
            Expr::Union(_) if mentions(&expr) => Expr::Text(super::string_literal(&expr.flat())),
            Expr::Keyword(name, value) => Expr::Keyword(name, Box::new(quote(*value, pending))),
            Expr::Brackets { head, open, items, close } => {
                Expr::Brackets { head, open, items: items.into_iter().map(|item| quote(item, pending)).collect(), close }
            }
            expr => expr,
        }
    }
    if pending.is_empty() {
        return annotation.to_owned();
    }
    quote(parse(annotation), pending).flat()
}

/// Whether `code` names the module `name` (`name.` outside any string
/// literal or comment), so that importing it is not an unused import.
pub fn uses_module(code: &str, name: &str) -> bool {
    let bytes = code.as_bytes();
    let mut at = 0;
    let mut previous = b' ';
    while at < bytes.len() {
        match bytes[at] {
            quote @ (b'"' | b'\'') => {
                // Docstrings read as strings too: every quote inside one is escaped.
                at += 1;
                while at < bytes.len() && bytes[at] != quote {
                    at += if bytes[at] == b'\\' { 2 } else { 1 };
                }
            }
            b'#' => {
                while at < bytes.len() && bytes[at] != b'\n' {
                    at += 1;
                }
            }
            c => {
                let boundary = !(previous.is_ascii_alphanumeric() || previous == b'_' || previous == b'.');
                if boundary && code[at..].starts_with(name) && bytes.get(at + name.len()) == Some(&b'.') {
                    return true;
                }
                previous = c;
                at += 1;
                continue;
            }
        }
        previous = b'"';
        at += 1;
    }
    false
}
