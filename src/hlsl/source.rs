//! Source files and spans: every token, AST node and diagnostic points back to a byte range of
//! one loaded file, so errors can say `file:line:col` and show the line with a caret.

/// Index of a file in a [`SourceMap`]: the main file is 0, `#include`d files follow in load order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct FileId(pub u32);

/// A byte range `start..end` in one file. Tokens produced by a macro expansion carry the span of
/// the macro's use, so a diagnostic points at code the user wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    /// The file the range lies in.
    pub file: FileId,
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
}

impl Span {
    /// A span of `start..end` in `file`.
    pub fn new(file: FileId, start: u32, end: u32) -> Span {
        Span { file, start, end }
    }

    /// The smallest span covering `self` and `other` (when both lie in the same file; otherwise
    /// `self`).
    pub fn to(self, other: Span) -> Span {
        if self.file != other.file {
            return self;
        }
        Span {
            file: self.file,
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
}
