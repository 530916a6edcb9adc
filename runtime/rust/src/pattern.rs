//! JSON Schema `pattern`: ECMA-262 (with the `u` flag) rewritten for the
//! `regex` crate, which is also pydantic-core's default `pattern` engine
//! (`Regex::new`, then `is_match`: an unanchored search, as ECMA's `test`).
//!
//! The same translated text therefore means the same thing in Rust
//! ([`Pattern`]) and in Python (`Field(pattern=translated)`); what no
//! translation can keep (lookaround, backreferences, `\B`, ...) is refused,
//! naming the construct. Differences the translation removes:
//!
//! - ECMA's `\d`, `\w`, `\b` are ASCII, the crate's Unicode: written out;
//! - ECMA's `\s` is WhiteSpace + LineTerminator (with U+FEFF, without
//!   U+0085), not Unicode `White_Space`: written out;
//! - ECMA's `.` refuses `\n`, `\r`, U+2028 and U+2029, the crate's only `\n`;
//! - `[]` matches nothing and `[^]` anything in ECMA; the crate reads `]`
//!   first in a class as a literal, and `&&`, `--`, `~~`, `[` as set syntax.

use std::sync::OnceLock;

/// ECMA-262 `WhiteSpace` and `LineTerminator`, as class items.
const SPACE: &str = r"\t\n\x0B\x0C\r \xA0\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}";
const DIGIT: &str = "0-9";
const WORD: &str = "0-9A-Za-z_";
/// ECMA-262's `.` without the `s` flag.
const DOT: &str = r"[^\n\r\x{2028}\x{2029}]";
/// ECMA-262's `[^]` and `[]`.
const ANY: &str = r"[\x{0}-\x{10FFFF}]";
const NOTHING: &str = r"[^\x{0}-\x{10FFFF}]";

/// A compiled translated pattern, for a `static` in generated code.
pub struct Pattern {
    translated: &'static str,
    regex: OnceLock<regex::Regex>,
}

impl Pattern {
    /// `translated` is the output of [`translate`]; it is compiled on first use.
    pub const fn new(translated: &'static str) -> Self {
        Pattern { translated, regex: OnceLock::new() }
    }

    /// Whether the pattern matches anywhere in `text` (JSON Schema patterns are not anchored).
    pub fn is_match(&self, text: &str) -> bool {
        self.regex.get_or_init(|| regex::Regex::new(self.translated).unwrap_or_else(|error| panic!("a pattern not made by translate: {error}"))).is_match(text)
    }

    pub fn as_str(&self) -> &'static str {
        self.translated
    }
}

/// Translated patterns compiled when they are given (for the Python
/// runtime, whose patterns are not statics): a key matches when one of them
/// matches, as [`Pattern::is_match`] does.
pub struct Patterns(Vec<regex::Regex>);

impl Patterns {
    pub fn new(translated: &[String]) -> Result<Patterns, String> {
        translated.iter().map(|pattern| regex::Regex::new(pattern).map_err(|error| error.to_string())).collect::<Result<_, _>>().map(Patterns)
    }

    /// Whether any of the patterns matches anywhere in `text`.
    pub fn any_match(&self, text: &str) -> bool {
        self.0.iter().any(|regex| regex.is_match(text))
    }
}

/// Rewrites an ECMA-262 pattern (`u` flag) into `regex` syntax of the same
/// meaning, or says which construct has none.
pub fn translate(ecma: &str) -> Result<String, String> {
    let mut translator = Translator { chars: ecma.chars().collect(), at: 0, out: String::with_capacity(ecma.len() * 2) };
    translator.disjunction()?;
    if translator.at < translator.chars.len() {
        return Err("unbalanced `)`".into());
    }
    // Size limits and anything else the crate refuses: refused here, not at first use.
    regex::Regex::new(&translator.out).map_err(|error| format!("the regex crate refuses the translation: {error}"))?;
    Ok(translator.out)
}

struct Translator {
    chars: Vec<char>,
    at: usize,
    out: String,
}

/// One item of a character class.
enum ClassItem {
    Char(char),
    /// Class items to put inside brackets: `0-9`.
    Items(&'static str),
    /// A whole class, or an escape standing for one: `[^0-9]`, `\p{gc=L}`.
    Whole(String),
}

impl Translator {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn peek_at(&self, offset: usize) -> Option<char> {
        self.chars.get(self.at + offset).copied()
    }

    fn next(&mut self) -> Option<char> {
        let c = self.peek();
        self.at += c.is_some() as usize;
        c
    }

    fn eat(&mut self, c: char) -> bool {
        let eaten = self.peek() == Some(c);
        self.at += eaten as usize;
        eaten
    }

    fn disjunction(&mut self) -> Result<(), String> {
        loop {
            while !matches!(self.peek(), None | Some('|' | ')')) {
                self.term()?;
            }
            if !self.eat('|') {
                return Ok(());
            }
            self.out.push('|');
        }
    }

    fn term(&mut self) -> Result<(), String> {
        let c = self.next().expect("term called before the end");
        let quantifiable = match c {
            '^' | '$' => {
                self.out.push(c);
                false
            }
            '\\' if self.peek() == Some('b') => {
                self.at += 1;
                // ASCII word boundary: only at character boundaries, where ECMA's (ASCII) `\b` is.
                self.out.push_str(r"(?-u:\b)");
                false
            }
            '\\' if self.peek() == Some('B') => return Err(r"`\B` (the crate has no ASCII non-boundary for text)".into()),
            '\\' => {
                self.atom_escape()?;
                true
            }
            '(' => self.group()?,
            '[' => {
                self.class()?;
                true
            }
            '.' => {
                self.out.push_str(DOT);
                true
            }
            '*' | '+' | '?' => return Err(format!("`{c}` with nothing to repeat")),
            '{' | '}' | ']' => return Err(format!("a lone `{c}` (the u flag requires `\\{c}`)")),
            c => {
                push_char(&mut self.out, c);
                true
            }
        };
        let quantified = self.quantifier()?;
        if quantified && !quantifiable {
            return Err("a quantifier on an assertion".into());
        }
        Ok(())
    }

    /// `(?:...)`, `(...)`, `(?<name>...)`; returns whether it can be quantified.
    fn group(&mut self) -> Result<bool, String> {
        if self.eat('?') {
            match (self.next(), self.peek()) {
                (Some(':'), _) => {}
                (Some('='), _) => return Err("lookahead `(?=`".into()),
                (Some('!'), _) => return Err("negative lookahead `(?!`".into()),
                (Some('<'), Some('=')) => return Err("lookbehind `(?<=`".into()),
                (Some('<'), Some('!')) => return Err("negative lookbehind `(?<!`".into()),
                (Some('<'), _) => self.group_name()?,
                _ => return Err("a group `(?` that ECMA-262 does not define (inline flags, ...)".into()),
            }
        }
        // Every group is non-capturing: only whether it matches counts.
        self.out.push_str("(?:");
        self.disjunction()?;
        if !self.eat(')') {
            return Err("unbalanced `(`".into());
        }
        self.out.push(')');
        Ok(true)
    }

    /// Skips `name>` of a named group: names only matter to backreferences, refused anyway.
    fn group_name(&mut self) -> Result<(), String> {
        let start = self.at;
        while let Some(c) = self.next() {
            if c == '>' {
                let name = &self.chars[start..self.at - 1];
                let valid = name.first().is_some_and(|c| c.is_alphabetic() || matches!(c, '_' | '$'))
                    && name.iter().all(|c| c.is_alphanumeric() || matches!(c, '_' | '$' | '\u{200C}' | '\u{200D}'));
                return if valid { Ok(()) } else { Err("an invalid group name".into()) };
            }
        }
        Err("an unterminated group name".into())
    }

    /// `*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`, each maybe lazy; whether there was one.
    fn quantifier(&mut self) -> Result<bool, String> {
        match self.peek() {
            Some(c @ ('*' | '+' | '?')) => {
                self.at += 1;
                self.out.push(c);
            }
            Some('{') => {
                self.at += 1;
                let low = self.number()?.ok_or("a lone `{` (the u flag requires `\\{`)")?;
                let high = if !self.eat(',') {
                    Some(low)
                } else if self.peek() == Some('}') {
                    None
                } else {
                    Some(self.number()?.ok_or("a malformed `{n,m}`")?)
                };
                if !self.eat('}') {
                    return Err("a malformed `{n,m}`".into());
                }
                if high.is_some_and(|high| high < low) {
                    return Err("`{n,m}` with n > m".into());
                }
                match high {
                    Some(high) if high == low => self.out.push_str(&format!("{{{low}}}")),
                    Some(high) => self.out.push_str(&format!("{{{low},{high}}}")),
                    None => self.out.push_str(&format!("{{{low},}}")),
                }
            }
            _ => return Ok(false),
        }
        if self.eat('?') {
            self.out.push('?');
        }
        if matches!(self.peek(), Some('*' | '+' | '?' | '{')) {
            return Err("a quantifier with nothing to repeat".into());
        }
        Ok(true)
    }

    /// Decimal digits as a count; `None` if there are none.
    fn number(&mut self) -> Result<Option<u32>, String> {
        let start = self.at;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.at += 1;
        }
        let digits: String = self.chars[start..self.at].iter().collect();
        if digits.is_empty() {
            return Ok(None);
        }
        digits.parse().map(Some).map_err(|_| "a repetition count beyond 2^32".into())
    }

    /// After `\` outside a class.
    fn atom_escape(&mut self) -> Result<(), String> {
        match self.peek() {
            Some('k') => Err(r"named backreference `\k`".into()),
            Some(c @ '1'..='9') => Err(format!(r"backreference `\{c}`")),
            _ => match self.class_escape(false)? {
                ClassItem::Char(c) => {
                    push_char(&mut self.out, c);
                    Ok(())
                }
                ClassItem::Whole(set) => {
                    self.out.push_str(&set);
                    Ok(())
                }
                ClassItem::Items(items) => {
                    self.out.push('[');
                    self.out.push_str(items);
                    self.out.push(']');
                    Ok(())
                }
            },
        }
    }

    /// After `\`: a character or a set, inside a class or not.
    fn class_escape(&mut self, in_class: bool) -> Result<ClassItem, String> {
        let c = self.next().ok_or("a trailing `\\`")?;
        let negated = |items: &str| Ok(ClassItem::Whole(format!("[^{items}]")));
        let char = |c: u32| Ok(ClassItem::Char(char::from_u32(c).expect("an ASCII control")));
        match c {
            'd' => Ok(ClassItem::Items(DIGIT)),
            'w' => Ok(ClassItem::Items(WORD)),
            's' => Ok(ClassItem::Items(SPACE)),
            'D' => negated(DIGIT),
            'W' => negated(WORD),
            'S' => negated(SPACE),
            'p' | 'P' => self.property(c == 'P').map(ClassItem::Whole),
            'f' => char(0x0C),
            'n' => char(0x0A),
            'r' => char(0x0D),
            't' => char(0x09),
            'v' => char(0x0B),
            'b' if in_class => char(0x08),
            'c' => match self.next() {
                Some(letter) if letter.is_ascii_alphabetic() => char(letter as u32 % 32),
                _ => Err(r"`\c` not followed by a letter".into()),
            },
            '0' if self.peek().is_some_and(|c| c.is_ascii_digit()) => Err(r"`\0` followed by a digit (octal)".into()),
            '0' => char(0),
            '1'..='9' => Err(format!(r"`\{c}` in a class (octal)")),
            'x' => {
                let value = self.hex(2).ok_or(r"`\x` not followed by two hex digits")?;
                char(value)
            }
            'u' => self.unicode_escape().map(ClassItem::Char),
            '^' | '$' | '\\' | '.' | '*' | '+' | '?' | '(' | ')' | '[' | ']' | '{' | '}' | '|' | '/' => Ok(ClassItem::Char(c)),
            '-' if in_class => Ok(ClassItem::Char(c)),
            c => Err(format!(r"the unknown escape `\{c}` (the u flag allows only syntax characters)")),
        }
    }

    /// Exactly `count` hex digits.
    fn hex(&mut self, count: usize) -> Option<u32> {
        let digits: String = self.chars.get(self.at..self.at + count)?.iter().collect();
        let value = u32::from_str_radix(&digits, 16).ok().filter(|_| digits.chars().all(|c| c.is_ascii_hexdigit()))?;
        self.at += count;
        Some(value)
    }

    /// After `\u`: `{X...}`, or four hex digits (a surrogate pair of two escapes is one character).
    fn unicode_escape(&mut self) -> Result<char, String> {
        if self.eat('{') {
            let start = self.at;
            while self.peek().is_some_and(|c| c.is_ascii_hexdigit()) {
                self.at += 1;
            }
            let digits: String = self.chars[start..self.at].iter().collect();
            let value = u32::from_str_radix(&digits, 16).ok().filter(|_| self.eat('}')).ok_or(r"a malformed `\u{...}`")?;
            return char::from_u32(value).ok_or_else(|| r"`\u{...}` of a surrogate or beyond U+10FFFF".into());
        }
        let value = self.hex(4).ok_or(r"`\u` not followed by four hex digits")?;
        if (0xD800..0xDC00).contains(&value) && self.peek() == Some('\\') && self.peek_at(1) == Some('u') {
            let resume = self.at;
            self.at += 2;
            match self.hex(4) {
                Some(low @ 0xDC00..0xE000) => return Ok(char::from_u32(0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)).expect("a surrogate pair")),
                _ => self.at = resume,
            }
        }
        char::from_u32(value).ok_or_else(|| r"a lone surrogate `\u` escape (no valid string holds one)".into())
    }

    /// After `\p` or `\P`: `{Name}` or `{gc=Value}`; general categories and a few binary properties.
    fn property(&mut self, negated: bool) -> Result<String, String> {
        if !self.eat('{') {
            return Err(r"`\p` without `{`".into());
        }
        let start = self.at;
        while self.peek().is_some_and(|c| c != '}') {
            self.at += 1;
        }
        let text: String = self.chars[start..self.at].iter().collect();
        if !self.eat('}') {
            return Err(r"an unterminated `\p{`".into());
        }
        let p = if negated { 'P' } else { 'p' };
        let (name, value) = text.split_once('=').map_or((None, text.as_str()), |(name, value)| (Some(name), value));
        match name {
            // No string holds a surrogate (and the crate has no class for them).
            None | Some("gc" | "General_Category") if matches!(value, "Cs" | "Surrogate") => Ok(if negated { ANY } else { NOTHING }.into()),
            None | Some("gc" | "General_Category") if GENERAL_CATEGORIES.contains(&value) => Ok(format!(r"\{p}{{gc={value}}}")),
            None if BINARY_PROPERTIES.contains(&value) => Ok(format!(r"\{p}{{{value}}}")),
            Some("sc" | "Script" | "scx" | "Script_Extensions") => Err(format!(r"the script property `\{p}{{{text}}}` (not supported)")),
            _ => Err(format!(r"the Unicode property `\{p}{{{text}}}` (not supported)")),
        }
    }

    /// After `[`: a class, written as one crate class.
    fn class(&mut self) -> Result<(), String> {
        let negated = self.eat('^');
        let mut items = String::new();
        let mut empty = true;
        loop {
            let item = match self.next() {
                None => return Err("an unterminated `[`".into()),
                Some(']') => break,
                Some('\\') => self.class_escape(true)?,
                Some(c) => ClassItem::Char(c),
            };
            empty = false;
            let is_range = self.peek() == Some('-') && !matches!(self.peek_at(1), None | Some(']'));
            match item {
                ClassItem::Char(low) if is_range => {
                    self.at += 1;
                    let high = match self.next() {
                        Some('\\') => self.class_escape(true)?,
                        Some(c) => ClassItem::Char(c),
                        None => unreachable!("checked by is_range"),
                    };
                    let ClassItem::Char(high) = high else { return Err("a class range ending in a class escape".into()) };
                    if high < low {
                        return Err("a class range out of order".into());
                    }
                    push_char(&mut items, low);
                    items.push('-');
                    push_char(&mut items, high);
                }
                ClassItem::Items(_) | ClassItem::Whole(_) if is_range => return Err("a class range starting at a class escape".into()),
                ClassItem::Char(c) => push_char(&mut items, c),
                ClassItem::Items(set) => items.push_str(set),
                ClassItem::Whole(set) => items.push_str(&set),
            }
        }
        self.out.push_str(match (empty, negated) {
            (true, false) => NOTHING,
            (true, true) => ANY,
            (false, true) => "[^",
            (false, false) => "[",
        });
        if !empty {
            self.out.push_str(&items);
            self.out.push(']');
        }
        Ok(())
    }
}

/// One literal character: metacharacters escaped, controls and invisible spaces as `\x{...}`.
fn push_char(out: &mut String, c: char) {
    if regex::escape(c.encode_utf8(&mut [0; 4])).len() > c.len_utf8() {
        out.push('\\');
        out.push(c);
    } else if c.is_control() || (c.is_whitespace() && c != ' ') || c == '\u{FEFF}' {
        out.push_str(&format!(r"\x{{{:X}}}", c as u32));
    } else {
        out.push(c);
    }
}

/// ECMA-262 `General_Category` values (short and long names, exactly as spelled there).
const GENERAL_CATEGORIES: &[&str] = &[
    "C",
    "Other",
    "Cc",
    "Control",
    "cntrl",
    "Cf",
    "Format",
    "Cn",
    "Unassigned",
    "Co",
    "Private_Use",
    "Cs",
    "Surrogate",
    "L",
    "Letter",
    "LC",
    "Cased_Letter",
    "Ll",
    "Lowercase_Letter",
    "Lm",
    "Modifier_Letter",
    "Lo",
    "Other_Letter",
    "Lt",
    "Titlecase_Letter",
    "Lu",
    "Uppercase_Letter",
    "M",
    "Mark",
    "Combining_Mark",
    "Mc",
    "Spacing_Mark",
    "Me",
    "Enclosing_Mark",
    "Mn",
    "Nonspacing_Mark",
    "N",
    "Number",
    "Nd",
    "Decimal_Number",
    "digit",
    "Nl",
    "Letter_Number",
    "No",
    "Other_Number",
    "P",
    "Punctuation",
    "punct",
    "Pc",
    "Connector_Punctuation",
    "Pd",
    "Dash_Punctuation",
    "Pe",
    "Close_Punctuation",
    "Pf",
    "Final_Punctuation",
    "Pi",
    "Initial_Punctuation",
    "Po",
    "Other_Punctuation",
    "Ps",
    "Open_Punctuation",
    "S",
    "Symbol",
    "Sc",
    "Currency_Symbol",
    "Sk",
    "Modifier_Symbol",
    "Sm",
    "Math_Symbol",
    "So",
    "Other_Symbol",
    "Z",
    "Separator",
    "Zl",
    "Line_Separator",
    "Zp",
    "Paragraph_Separator",
    "Zs",
    "Space_Separator",
];

/// ECMA-262 binary properties passed through (the crate knows them by the same names).
const BINARY_PROPERTIES: &[&str] = &[
    "ASCII",
    "ASCII_Hex_Digit",
    "AHex",
    "Alphabetic",
    "Alpha",
    "Any",
    "Assigned",
    "Lowercase",
    "Lower",
    "Uppercase",
    "Upper",
    "White_Space",
    "space",
    "ID_Start",
    "IDS",
    "ID_Continue",
    "IDC",
    "XID_Start",
    "XIDS",
    "XID_Continue",
    "XIDC",
    "Emoji",
];

#[cfg(test)]
mod tests;
