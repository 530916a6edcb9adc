//! Where a place in a JSON text is, as people read files: its line and
//! column, and the line itself with a caret under the place, as rustc and
//! cargo show a span. The `concord` command shows it for a schema's
//! diagnostics (found by JSON pointer) and for a strict-profile error in an
//! input (found by byte offset); `python -m concord_runtime` calls this same
//! code through its compiled core, so both print the same bytes.

/// The 1-based line and column of byte `offset` of `text`: lines end at
/// `\n`; the column counts characters when the line up to the offset is
/// UTF-8, bytes when it is not (an input the strict profile refused for it).
pub fn line_and_column(text: &[u8], offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let start = line_start(text, offset);
    let line = text[..start].iter().filter(|&&byte| byte == b'\n').count() + 1;
    let before = &text[start..offset];
    let column = std::str::from_utf8(before).map_or(before.len(), |prefix| prefix.chars().count()) + 1;
    (line, column)
}

fn line_start(text: &[u8], offset: usize) -> usize {
    text[..offset].iter().rposition(|&byte| byte == b'\n').map_or(0, |at| at + 1)
}

/// The most characters of a line shown around the place (a minified
/// document is one line).
const WINDOW: usize = 100;

/// The place at byte `offset` of `text` (the file `name`), `span`
/// characters wide, as rustc shows one; ends with a newline:
///
/// ```text
///   --> registry/a.schema.json:3:22
///    |
///  3 |   "a": {"type": "string", "minLenght": 3},
///    |                           ^^^^^^^^^^^
/// ```
///
/// Characters a terminal would not show as themselves (controls, tabs,
/// bidi and line-separator characters) are shown as spaces, so the caret
/// stays under its place and a hostile text cannot fake a line; a line
/// longer than 100 characters is cut around the place, `...` marking a cut.
pub fn snippet(text: &[u8], offset: usize, span: usize, name: &str) -> String {
    let offset = offset.min(text.len());
    let (line, column) = line_and_column(text, offset);
    let start = line_start(text, offset);
    let end = text[offset..].iter().position(|&byte| byte == b'\n').map_or(text.len(), |at| offset + at);
    let whole: Vec<char> = String::from_utf8_lossy(&text[start..end]).chars().map(visible).collect();
    // The caret's position in the characters shown (a lossy decoding holds
    // one U+FFFD for each invalid sequence, so count the prefix the same way).
    let at = String::from_utf8_lossy(&text[start..offset]).chars().count().min(whole.len());
    let span = span.clamp(1, WINDOW / 2);
    let (from, to) = if whole.len() <= WINDOW {
        (0, whole.len())
    } else {
        let from = at.saturating_sub(WINDOW / 2).min(whole.len() - WINDOW);
        (from, from + WINDOW)
    };
    let head = if from > 0 { "..." } else { "" };
    let tail = if to < whole.len() { "..." } else { "" };
    let shown: String = whole[from..to].iter().collect();
    let gutter = " ".repeat(line.to_string().len());
    let caret_at = head.len() + (at - from);
    format!(
        "{gutter}--> {name}:{line}:{column}\n{gutter} |\n{line} | {head}{}{tail}\n{gutter} | {}{}\n",
        shown.trim_end(),
        " ".repeat(caret_at),
        "^".repeat(span)
    )
}

/// [`snippet`] of an input's byte `offset` (a strict-profile error's).
pub fn at_offset(text: &[u8], offset: usize, name: &str) -> String {
    snippet(text, offset, 1, name)
}

/// [`snippet`] of where `pointer` stands in the JSON text `text` (a
/// canonical-form error's, a schema diagnostic's), if the text is JSON up to there.
pub fn at_pointer(text: &[u8], pointer: &str, name: &str) -> Option<String> {
    pointer_place(text, pointer).map(|(offset, width)| snippet(text, offset, width, name))
}

fn visible(c: char) -> char {
    let hidden = c.is_control()
        || matches!(c, '\u{200B}'..='\u{200F}' | '\u{2028}' | '\u{2029}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{2069}' | '\u{FEFF}');
    if hidden {
        ' '
    } else {
        c
    }
}

/// Where the JSON pointer `pointer` stands in the JSON text `text`: the
/// byte offset and character width of the member's key (the element, in an
/// array; the value, for the root), or, where the text does not hold the
/// whole pointer, of the deepest place it does hold. `None` only where the
/// text is not JSON up to there.
pub fn pointer_place(text: &[u8], pointer: &str) -> Option<(usize, usize)> {
    let mut scanner = Scanner { text, at: 0 };
    scanner.spaces();
    let mut place = (scanner.at, 1);
    let tokens: Vec<String> =
        if pointer.is_empty() { Vec::new() } else { pointer.strip_prefix('/')?.split('/').map(|token| token.replace("~1", "/").replace("~0", "~")).collect() };
    for token in tokens {
        scanner.spaces();
        match scanner.peek()? {
            b'{' => {
                scanner.at += 1;
                let mut found = None;
                loop {
                    scanner.spaces();
                    if scanner.peek()? == b'}' {
                        break;
                    }
                    let key_start = scanner.at;
                    scanner.string()?;
                    let key_end = scanner.at;
                    let key: String = serde_json::from_slice(&text[key_start..key_end]).ok()?;
                    scanner.spaces();
                    scanner.expect(b':')?;
                    scanner.spaces();
                    if key == token {
                        let width = std::str::from_utf8(&text[key_start..key_end]).map_or(key_end - key_start, |key| key.chars().count());
                        found = Some((key_start, width));
                        break;
                    }
                    scanner.value()?;
                    scanner.spaces();
                    if scanner.peek()? == b',' {
                        scanner.at += 1;
                    }
                }
                match found {
                    Some(key) => place = key,
                    None => return Some(place),
                }
            }
            b'[' => {
                let index: usize = token.parse().ok()?;
                scanner.at += 1;
                for _ in 0..index {
                    scanner.spaces();
                    if scanner.peek()? == b']' {
                        return Some(place);
                    }
                    scanner.value()?;
                    scanner.spaces();
                    if scanner.peek()? == b',' {
                        scanner.at += 1;
                    }
                }
                scanner.spaces();
                if scanner.peek()? == b']' {
                    return Some(place);
                }
                place = (scanner.at, 1);
            }
            _ => return Some(place),
        }
    }
    Some(place)
}

struct Scanner<'a> {
    text: &'a [u8],
    at: usize,
}

impl Scanner<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.get(self.at).copied()
    }

    fn spaces(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    fn expect(&mut self, byte: u8) -> Option<()> {
        (self.peek()? == byte).then(|| self.at += 1)
    }

    fn string(&mut self) -> Option<()> {
        self.expect(b'"')?;
        loop {
            match self.peek()? {
                b'"' => {
                    self.at += 1;
                    return Some(());
                }
                b'\\' => self.at += 2,
                _ => self.at += 1,
            }
        }
    }

    /// Skips one value; nesting is followed with a count, not recursion.
    fn value(&mut self) -> Option<()> {
        let mut depth = 0usize;
        loop {
            self.spaces();
            match self.peek()? {
                b'"' => self.string()?,
                b'{' | b'[' => {
                    depth += 1;
                    self.at += 1;
                    continue;
                }
                b'}' | b']' => {
                    depth = depth.checked_sub(1)?;
                    self.at += 1;
                }
                b',' | b':' if depth > 0 => {
                    self.at += 1;
                    continue;
                }
                _ => {
                    while self.peek().is_some_and(|byte| !matches!(byte, b',' | b'}' | b']' | b':' | b' ' | b'\t' | b'\n' | b'\r')) {
                        self.at += 1;
                    }
                }
            }
            if depth == 0 {
                return Some(());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_columns_count_characters() {
        let text = "{\n  \"é\": 1,\n  \"a\": 2\n}".as_bytes();
        let offset = text.windows(3).position(|w| w == b"\"a\"").unwrap();
        assert_eq!(line_and_column(text, offset), (3, 3));
        assert_eq!(line_and_column(text, 0), (1, 1));
        assert_eq!(line_and_column(b"[\"\xff\", 1]", 5), (1, 6), "bytes where the line is not UTF-8");
    }

    #[test]
    fn a_pointer_is_found_at_its_key_or_element_or_the_deepest_place_held() {
        let text = br#"{"a": {"b~/c": [10, {"d": true}, 30]}, "e": "x"}"#;
        let at = |pointer: &str| {
            pointer_place(text, pointer).map(|(offset, width)| (std::str::from_utf8(&text[offset..]).unwrap().chars().take(width).collect::<String>(), width))
        };
        assert_eq!(at("/a").unwrap().0, "\"a\"");
        assert_eq!(at("/a/b~0~1c").unwrap().0, "\"b~/c\"");
        assert_eq!(at("/a/b~0~1c/1/d").unwrap().0, "\"d\"");
        assert_eq!(pointer_place(text, "/a/b~0~1c/2").unwrap().0, text.windows(2).position(|w| w == b"30").unwrap());
        assert_eq!(at("/e").unwrap().0, "\"e\"");
        assert_eq!(at("/a/missing").unwrap().0, "\"a\"", "the deepest place held");
        assert_eq!(pointer_place(text, "").unwrap().0, 0);
    }

    #[test]
    fn a_snippet_shows_the_line_and_a_caret_under_the_place() {
        let text = b"{\n  \"type\": \"string\",\n  \"minLenght\": 3\n}";
        let (offset, width) = pointer_place(text, "/minLenght").unwrap();
        assert_eq!(snippet(text, offset, width, "a.json"), " --> a.json:3:3\n  |\n3 |   \"minLenght\": 3\n  |   ^^^^^^^^^^^\n");
        let long = format!("[{}\"x\u{202e}\", 1]", "1, ".repeat(100));
        let offset = long.find('x').unwrap();
        let shown = snippet(long.as_bytes(), offset, 1, "b.json");
        assert!(shown.contains("...") && !shown.contains('\u{202e}'), "{shown}");
        let caret_line = shown.lines().last().unwrap();
        let code_line = shown.lines().nth(2).unwrap();
        assert_eq!(code_line.chars().nth(caret_line.find('^').unwrap()), Some('x'), "{shown}");
    }
}
