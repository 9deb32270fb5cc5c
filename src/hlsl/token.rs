//! Preprocessing tokens: what the lexer produces, the preprocessor rewrites and the parser reads.
//! The text is kept as written so the preprocessor can stringize and paste, and the parser turns
//! numbers into literals only once macros have been expanded.

use super::source::Span;
use std::sync::Arc;

/// The token classes of the C preprocessor, which are also what the parser needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenKind {
    /// A name (keywords are names too: HLSL lets most of them be used as identifiers).
    Ident,
    /// A preprocessing number (`1`, `0x1Fu`, `1.5e-3f`, `.5h`): checked when it is used.
    Number,
    /// `"..."`, with the quotes and escapes as written.
    Str,
    /// `'...'`, with the quotes.
    Char,
    /// An operator or punctuator.
    Punct,
    /// A character that starts no token (`@`, `$`, an unterminated quote): an error only when it
    /// survives preprocessing, since skipped `#if 0` blocks may hold anything.
    Other,
    /// The end of the token stream.
    Eof,
}

/// The macros a token came out of, so a macro is not expanded again inside its own expansion
/// (the C standard's "hide set").
pub type HideSet = Option<Arc<Vec<String>>>;

/// One token with where it was written.
#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    /// Its class.
    pub kind: TokenKind,
    /// Its spelling (line continuations removed).
    pub text: String,
    /// Where it was written; for tokens out of a macro expansion, the macro's use.
    pub span: Span,
    /// First token on its line (directives start with a `#` that is).
    pub bol: bool,
    /// Preceded by white space (stringizing keeps it as one space).
    pub space: bool,
    /// Macros this token must not expand again.
    pub hide: HideSet,
}

impl Token {
    /// A token with no hide set and no line-start or space flags.
    pub fn new(kind: TokenKind, text: impl Into<String>, span: Span) -> Token {
        Token {
            kind,
            text: text.into(),
            span,
            bol: false,
            space: false,
            hide: None,
        }
    }

    /// Whether this is the punctuator `p`.
    pub fn is_punct(&self, p: &str) -> bool {
        self.kind == TokenKind::Punct && self.text == p
    }

    /// Whether this is the identifier (or keyword) `name`.
    pub fn is_ident(&self, name: &str) -> bool {
        self.kind == TokenKind::Ident && self.text == name
    }

    /// Whether the hide set holds `name`.
    pub fn hidden(&self, name: &str) -> bool {
        self.hide
            .as_ref()
            .is_some_and(|h| h.iter().any(|m| m == name))
    }

    /// How the token reads in a message: `` `x` `` or "end of input".
    pub fn describe(&self) -> String {
        match self.kind {
            TokenKind::Eof => "end of input".to_owned(),
            _ => format!("'{}'", self.text),
        }
    }
}
