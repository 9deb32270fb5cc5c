//! The lexer: one file's text to preprocessing tokens, with comments and line continuations
//! removed and spans into the file as written. Literals are classified later by
//! [`parse_number`], once the preprocessor has pasted and expanded.

use super::ast::Literal;
use super::diag::Diagnostic;
use super::source::{FileId, Span};
use super::token::{Token, TokenKind};

/// Punctuators, longest first so the lexer takes the longest match (C's maximal munch).
const PUNCTS: &[&str] = &[
    "<<=", ">>=", "...", "::", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
    "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "##", "+", "-", "*", "/", "%", "<", ">", "=",
    "!", "~", "&", "|", "^", "?", ":", ";", ",", ".", "(", ")", "[", "]", "{", "}", "#",
];

/// Splits `text` (the file `file`) into tokens; unterminated block comments are reported in
/// `diags`. The result always ends with an [`TokenKind::Eof`] token.
pub fn lex(file: FileId, text: &str, diags: &mut Vec<Diagnostic>) -> Vec<Token> {
    let chars = logical_chars(text);
    let mut lx = Lexer {
        file,
        chars,
        pos: 0,
        end: u32::try_from(text.len()).unwrap_or(u32::MAX),
    };
    // A UTF-8 byte-order mark (editors on Windows write one) is not part of the source.
    if lx.peek(0) == Some('\u{feff}') {
        lx.pos = 1;
    }
    let mut out = Vec::new();
    let mut bol = true;
    let mut space = false;
    while let Some(c) = lx.peek(0) {
        if c == '\n' {
            bol = true;
            space = false;
            lx.pos += 1;
            continue;
        }
        if c.is_whitespace() {
            space = true;
            lx.pos += 1;
            continue;
        }
        if c == '/' && lx.peek(1) == Some('/') {
            while lx.peek(0).is_some_and(|c| c != '\n') {
                lx.pos += 1;
            }
            space = true;
            continue;
        }
        if c == '/' && lx.peek(1) == Some('*') {
            let start = lx.offset(lx.pos);
            lx.pos += 2;
            loop {
                match lx.peek(0) {
                    None => {
                        diags.push(Diagnostic::error(
                            Span::new(file, start, start.saturating_add(2)),
                            "unterminated '/*' comment",
                        ));
                        break;
                    }
                    Some('*') if lx.peek(1) == Some('/') => {
                        lx.pos += 2;
                        break;
                    }
                    Some(_) => lx.pos += 1,
                }
            }
            space = true;
            continue;
        }
        let mut tok = lx.token(c);
        tok.bol = bol;
        tok.space = space;
        bol = false;
        space = false;
        out.push(tok);
    }
    let end = lx.end;
    let mut eof = Token::new(TokenKind::Eof, "", Span::new(file, end, end));
    eof.bol = true;
    out.push(eof);
    out
}

/// The file's characters with each `\` + newline removed, and the byte offset of each.
fn logical_chars(text: &str) -> Vec<(char, u32)> {
    let raw: Vec<(usize, char)> = text.char_indices().collect();
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while let Some(&(off, c)) = raw.get(i) {
        if c == '\\' {
            let next = raw.get(i + 1).map(|p| p.1);
            if next == Some('\n') {
                i += 2;
                continue;
            }
            if next == Some('\r') && raw.get(i + 2).map(|p| p.1) == Some('\n') {
                i += 3;
                continue;
            }
        }
        out.push((c, u32::try_from(off).unwrap_or(u32::MAX)));
        i += 1;
    }
    out
}

/// A cursor over one file's logical characters.
struct Lexer {
    file: FileId,
    chars: Vec<(char, u32)>,
    pos: usize,
    end: u32,
}

impl Lexer {
    /// The character `k` places ahead.
    fn peek(&self, k: usize) -> Option<char> {
        self.chars.get(self.pos + k).map(|p| p.0)
    }

    /// The byte offset of logical character `i` (the file's end past the last one).
    /// Whether the characters at `i` are a swizzle (one to four of `xyzw`, or of `rgba`) that
    /// an identifier character does not continue.
    fn swizzle_at(&self, i: usize) -> bool {
        let ch = |k: usize| self.chars.get(k).map(|c| c.0);
        for set in ["xyzw", "rgba"] {
            let n = (0..4)
                .take_while(|&k| ch(i + k).is_some_and(|c| set.contains(c)))
                .count();
            let ends = !ch(i + n).is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
            if n > 0 && ends {
                return true;
            }
        }
        false
    }

    fn offset(&self, i: usize) -> u32 {
        self.chars.get(i).map_or(self.end, |p| p.1)
    }

    /// The span from logical character `start` up to the cursor.
    fn span_from(&self, start: usize) -> Span {
        let s = self.offset(start);
        let e = match self.pos.checked_sub(1).and_then(|i| self.chars.get(i)) {
            Some(&(c, off)) => off.saturating_add(c.len_utf8() as u32),
            None => s,
        };
        Span::new(self.file, s, e.max(s))
    }

    /// The text of logical characters `start..cursor`.
    fn text_from(&self, start: usize) -> String {
        self.chars
            .get(start..self.pos)
            .map_or_else(String::new, |s| s.iter().map(|p| p.0).collect())
    }

    /// Lexes the token starting with `c` (the cursor is on it).
    fn token(&mut self, c: char) -> Token {
        let start = self.pos;
        let kind = if c.is_ascii_alphabetic() || c == '_' {
            while self
                .peek(0)
                .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
            {
                self.pos += 1;
            }
            TokenKind::Ident
        } else if c.is_ascii_digit()
            || (c == '.' && self.peek(1).is_some_and(|d| d.is_ascii_digit()))
        {
            let hex = c == '0' && matches!(self.peek(1), Some('x' | 'X'));
            self.pos += 1;
            while let Some(d) = self.peek(0) {
                let exponent_sign = (d == '+' || d == '-')
                    && matches!(self.chars.get(self.pos - 1).map(|p| p.0), Some('e' | 'E'))
                    && !hex;
                // `0.xxxx`, `1.5.rgb`: a swizzle of a literal ends the number before its dot.
                if d == '.' && !hex && self.swizzle_at(self.pos + 1) {
                    break;
                }
                if exponent_sign || d.is_ascii_alphanumeric() || d == '_' || d == '.' {
                    self.pos += 1;
                } else {
                    break;
                }
            }
            TokenKind::Number
        } else if c == '"' || c == '\'' {
            self.pos += 1;
            let mut closed = false;
            while let Some(d) = self.peek(0) {
                if d == '\n' {
                    break;
                }
                self.pos += 1;
                if d == '\\' {
                    if self.peek(0).is_some_and(|e| e != '\n') {
                        self.pos += 1;
                    }
                } else if d == c {
                    closed = true;
                    break;
                }
            }
            match (closed, c) {
                (false, _) => TokenKind::Other,
                (true, '"') => TokenKind::Str,
                (true, _) => TokenKind::Char,
            }
        } else if let Some(p) = PUNCTS.iter().find(|p| {
            p.chars()
                .enumerate()
                .all(|(k, pc)| self.peek(k) == Some(pc))
        }) {
            self.pos += p.chars().count();
            TokenKind::Punct
        } else {
            self.pos += 1;
            TokenKind::Other
        };
        Token::new(kind, self.text_from(start), self.span_from(start))
    }
}

/// Classifies a preprocessing number as an HLSL literal: decimal, hex (`0x`) or octal (leading
/// `0`) integers with `u`/`l` suffixes, and floats (`1.`, `.5`, `1e3`, `2.5f`, `1.0h`, `1.0l`).
/// The error says what is wrong, for a diagnostic at the token.
pub fn parse_number(text: &str) -> Result<Literal, String> {
    let lower = text.to_ascii_lowercase();
    if let Some(hex) = lower.strip_prefix("0x") {
        let digits_end = hex
            .find(|c: char| !c.is_ascii_hexdigit())
            .unwrap_or(hex.len());
        let (digits, suffix) = hex.split_at(digits_end);
        if digits.is_empty() {
            return Err(format!("invalid hexadecimal literal '{text}'"));
        }
        let suffix = int_suffix(suffix).ok_or_else(|| invalid_suffix(text, suffix))?;
        let value = u64::from_str_radix(digits, 16)
            .map_err(|_| format!("integer literal '{text}' is too large"))?;
        return Ok(Literal::Int { value, suffix });
    }
    let bytes = lower.as_bytes();
    let mut i = 0;
    while bytes.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    let int_end = i;
    let mut is_float = false;
    if bytes.get(i) == Some(&b'.') {
        is_float = true;
        i += 1;
        while bytes.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
    }
    if bytes.get(i) == Some(&b'e') {
        let mut j = i + 1;
        if matches!(bytes.get(j), Some(b'+' | b'-')) {
            j += 1;
        }
        if bytes.get(j).is_some_and(u8::is_ascii_digit) {
            is_float = true;
            while bytes.get(j).is_some_and(u8::is_ascii_digit) {
                j += 1;
            }
            i = j;
        } else {
            return Err(format!("exponent has no digits in '{text}'"));
        }
    }
    let (body, suffix) = lower.split_at(i);
    if is_float {
        let suffix = match suffix {
            "" | "f" | "h" | "l" => suffix.to_owned(),
            _ => return Err(invalid_suffix(text, suffix)),
        };
        let value = body
            .parse::<f64>()
            .map_err(|_| format!("invalid floating-point literal '{text}'"))?;
        return Ok(Literal::Float { value, suffix });
    }
    // An integer, decimal or octal; `f`/`h` suffixes on integers (`1f`) are floats in HLSL.
    let digits = &lower[..int_end];
    if matches!(suffix, "f" | "h") {
        let value = digits
            .parse::<f64>()
            .map_err(|_| format!("invalid floating-point literal '{text}'"))?;
        return Ok(Literal::Float {
            value,
            suffix: suffix.to_owned(),
        });
    }
    let suffix = int_suffix(suffix).ok_or_else(|| invalid_suffix(text, suffix))?;
    let value = if digits.len() > 1 && digits.starts_with('0') {
        if digits.contains(['8', '9']) {
            return Err(format!("invalid digit in octal literal '{text}'"));
        }
        u64::from_str_radix(digits, 8)
    } else {
        digits.parse::<u64>()
    }
    .map_err(|_| format!("integer literal '{text}' is too large"))?;
    Ok(Literal::Int { value, suffix })
}

/// The normalised integer suffix (`u`, `l`, `ul`, `ll`, `ull`), or `None` when it is not one.
fn int_suffix(s: &str) -> Option<String> {
    let normal = match s {
        "" => "",
        "u" => "u",
        "l" => "l",
        "ul" | "lu" => "ul",
        "ll" => "ll",
        "ull" | "llu" => "ull",
        _ => return None,
    };
    Some(normal.to_owned())
}

/// The message for a literal with a suffix HLSL does not have.
fn invalid_suffix(text: &str, suffix: &str) -> String {
    format!("invalid suffix '{suffix}' on numeric literal '{text}'")
}
