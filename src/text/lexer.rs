//! The assembly-text tokenizer: splits text into words exactly as `spirv-as` does, without
//! allocating, and remembers where each word starts.
//!
//! A word ends at a space, tab, carriage return, newline or `;` (which starts a comment running
//! to the end of the line), except inside double quotes or right after a backslash: `"a b"`
//! and `a\ b` are single words. A quote or backslash does not itself end a word, so
//! `"abc"def` is one word too. A NUL byte ends the text.

/// A word of the text: its byte range and where it starts (1-based line and column, in bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Token {
    /// Byte offset of the first byte.
    pub start: u32,
    /// Byte offset one past the last byte.
    pub end: u32,
    /// 1-based line of the first byte.
    pub line: u32,
    /// 1-based column (in bytes) of the first byte.
    pub column: u32,
}

impl Token {
    /// The word's text within `src` (the text the lexer was made from).
    #[inline]
    pub fn text<'a>(&self, src: &'a str) -> &'a str {
        src.get(self.start as usize..self.end as usize)
            .unwrap_or("")
    }

    /// The word's bytes within `src`.
    #[inline]
    pub fn bytes<'a>(&self, src: &'a [u8]) -> &'a [u8] {
        src.get(self.start as usize..self.end as usize)
            .unwrap_or(&[])
    }
}

/// A position in the text (1-based line and byte column).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    /// 1-based line.
    pub line: u32,
    /// 1-based byte column.
    pub column: u32,
}

const ORDINARY: u8 = 0;
const BREAK: u8 = 1;
const QUOTE: u8 = 2;
const BACKSLASH: u8 = 3;
const NEWLINE: u8 = 4;

/// How each byte affects word splitting.
static CLASS: [u8; 256] = {
    let mut t = [ORDINARY; 256];
    t[b' ' as usize] = BREAK;
    t[b'\t' as usize] = BREAK;
    t[b'\r' as usize] = BREAK;
    t[b';' as usize] = BREAK;
    t[b'\n' as usize] = NEWLINE;
    t[b'"' as usize] = QUOTE;
    t[b'\\' as usize] = BACKSLASH;
    t
};

/// Returns the text up to its first NUL byte: `spirv-as` stops reading there.
pub fn until_nul(text: &str) -> &str {
    match text.as_bytes().iter().position(|&b| b == 0) {
        Some(n) => &text[..n],
        None => text,
    }
}

/// A tokenizer with a lookahead of up to [`Lexer::LOOKAHEAD`] words.
#[derive(Clone)]
pub struct Lexer<'a> {
    src: &'a [u8],
    pos: usize,
    line: u32,
    line_start: usize,
    buf: [Token; Lexer::LOOKAHEAD],
    head: usize,
    len: usize,
}

impl<'a> Lexer<'a> {
    /// How many words [`Lexer::peek`] can look ahead.
    pub const LOOKAHEAD: usize = 4;

    /// A lexer over `text`, which must not be longer than `u32::MAX` bytes and should already be
    /// cut at its first NUL (see [`until_nul`]).
    pub fn new(text: &'a str) -> Self {
        Lexer {
            src: text.as_bytes(),
            pos: 0,
            line: 1,
            line_start: 0,
            buf: [Token::default(); Lexer::LOOKAHEAD],
            head: 0,
            len: 0,
        }
    }

    /// The text's bytes.
    #[inline]
    pub fn src(&self) -> &'a [u8] {
        self.src
    }

    /// Skips blanks, newlines and comments.
    #[inline]
    fn skip_space(&mut self) {
        let src = self.src;
        while let Some(&b) = src.get(self.pos) {
            match b {
                b' ' | b'\t' | b'\r' => self.pos += 1,
                b'\n' => {
                    self.pos += 1;
                    self.line += 1;
                    self.line_start = self.pos;
                }
                b';' => {
                    match src[self.pos..].iter().position(|&c| c == b'\n') {
                        Some(n) => self.pos += n,
                        None => self.pos = src.len(),
                    };
                }
                _ => break,
            }
        }
    }

    /// Reads the next word from the text (not from the lookahead buffer).
    #[inline]
    fn lex(&mut self) -> Option<Token> {
        self.skip_space();
        let src = self.src;
        let start = self.pos;
        if start >= src.len() {
            return None;
        }
        let tok_line = self.line;
        let tok_col = (start - self.line_start + 1) as u32;
        let mut i = start;
        let mut quoting = false;
        let mut escaping = false;
        while let Some(&b) = src.get(i) {
            match CLASS[b as usize] {
                ORDINARY => escaping = false,
                BACKSLASH => escaping = !escaping,
                QUOTE => {
                    if !escaping {
                        quoting = !quoting;
                    }
                    escaping = false;
                }
                NEWLINE => {
                    if !(escaping || quoting) {
                        break;
                    }
                    self.line += 1;
                    self.line_start = i + 1;
                    escaping = false;
                }
                _ => {
                    if !(escaping || quoting) {
                        break;
                    }
                    escaping = false;
                }
            }
            i += 1;
        }
        self.pos = i;
        Some(Token {
            start: start as u32,
            end: i as u32,
            line: tok_line,
            column: tok_col,
        })
    }

    /// The `k`-th next word (0: the next one) without consuming it; `k` must be below
    /// [`Lexer::LOOKAHEAD`].
    #[inline]
    pub fn peek(&mut self, k: usize) -> Option<Token> {
        debug_assert!(k < Self::LOOKAHEAD);
        while self.len <= k {
            let t = self.lex()?;
            let slot = (self.head + self.len) % Self::LOOKAHEAD;
            self.buf[slot] = t;
            self.len += 1;
        }
        Some(self.buf[(self.head + k) % Self::LOOKAHEAD])
    }

    /// Consumes and returns the next word.
    #[inline]
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Option<Token> {
        if self.len > 0 {
            let t = self.buf[self.head];
            self.head = (self.head + 1) % Self::LOOKAHEAD;
            self.len -= 1;
            return Some(t);
        }
        self.lex()
    }

    /// Where the next word starts, or the end of the text when there is none.
    pub fn position(&mut self) -> Position {
        match self.peek(0) {
            Some(t) => Position {
                line: t.line,
                column: t.column,
            },
            None => Position {
                line: self.line,
                column: (self.pos - self.line_start + 1) as u32,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<(&str, u32, u32)> {
        let mut lx = Lexer::new(s);
        let mut v = Vec::new();
        while let Some(t) = lx.next() {
            v.push((t.text(s), t.line, t.column));
        }
        v
    }

    #[test]
    fn splits_like_spirv_as() {
        assert_eq!(
            words("OpName %a \"x y\" ; c\n  %b\t=\rOpFoo;c"),
            vec![
                ("OpName", 1, 1),
                ("%a", 1, 8),
                ("\"x y\"", 1, 11),
                ("%b", 2, 3),
                ("=", 2, 6),
                ("OpFoo", 2, 8)
            ]
        );
        assert_eq!(
            words("a\\ b \"abc\"def"),
            vec![("a\\ b", 1, 1), ("\"abc\"def", 1, 6)]
        );
        assert_eq!(words("\"a\nb\" c"), vec![("\"a\nb\"", 1, 1), ("c", 2, 4)]);
        assert_eq!(
            words("\"x\\\"y\" z"),
            vec![("\"x\\\"y\"", 1, 1), ("z", 1, 8)]
        );
    }

    #[test]
    fn peeks_and_positions() {
        let s = "a b c\nd";
        let mut lx = Lexer::new(s);
        assert_eq!(lx.peek(2).map(|t| t.text(s)), Some("c"));
        assert_eq!(lx.next().map(|t| t.text(s)), Some("a"));
        assert_eq!(lx.peek(2).map(|t| t.text(s)), Some("d"));
        for _ in 0..3 {
            lx.next();
        }
        assert_eq!(lx.next(), None);
        assert_eq!(lx.position(), Position { line: 2, column: 2 });
        assert_eq!(until_nul("ab\0cd"), "ab");
    }
}
