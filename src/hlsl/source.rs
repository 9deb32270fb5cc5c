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

    /// A span that stands for a whole file rather than a place in it (a missing entry point,
    /// say): diagnostics at it print `file: error: ...` without a line, column or caret.
    pub fn whole_file(file: FileId) -> Span {
        Span {
            file,
            start: u32::MAX,
            end: u32::MAX,
        }
    }

    /// Whether this is a [`Span::whole_file`] span.
    pub fn is_whole_file(self) -> bool {
        self.start == u32::MAX && self.end == u32::MAX
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

/// One loaded file: its name as diagnostics print it, its text, and where its lines start.
#[derive(Clone, Debug)]
struct SourceFile {
    name: String,
    text: String,
    line_starts: Vec<u32>,
}

/// Every file a compilation loaded (the main file first, then includes), so spans can be turned
/// back into `file:line:col` and the source line when diagnostics are rendered.
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

impl SourceMap {
    /// An empty map.
    pub fn new() -> SourceMap {
        SourceMap::default()
    }

    /// Adds a file and returns its id (ids are handed out in load order).
    pub fn add(&mut self, name: &str, text: &str) -> FileId {
        let mut line_starts = vec![0u32];
        for (i, b) in text.bytes().enumerate() {
            if b == b'\n' {
                line_starts.push(clamp_u32(i + 1));
            }
        }
        self.files.push(SourceFile {
            name: name.to_owned(),
            text: text.to_owned(),
            line_starts,
        });
        FileId(clamp_u32(self.files.len() - 1))
    }

    /// How many files are loaded.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// Whether no file is loaded.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// The file's name (`"<unknown>"` for an id this map did not hand out).
    pub fn name(&self, file: FileId) -> &str {
        self.files
            .get(file.0 as usize)
            .map_or("<unknown>", |f| f.name.as_str())
    }

    /// The file's text (empty for an id this map did not hand out).
    pub fn text(&self, file: FileId) -> &str {
        self.files
            .get(file.0 as usize)
            .map_or("", |f| f.text.as_str())
    }

    /// The 1-based line and column (in chars) of the span's start.
    pub fn line_col(&self, span: Span) -> (u32, u32) {
        let Some(f) = self.files.get(span.file.0 as usize) else {
            return (1, 1);
        };
        let (line, start) = f.line_of(span.start);
        let offset = f.floor_char(span.start as usize);
        let col = f.text.get(start..offset).map_or(0, |s| s.chars().count());
        (line as u32 + 1, clamp_u32(col + 1))
    }

    /// The text of the line the span starts on, without its line terminator.
    pub fn line_text(&self, span: Span) -> &str {
        let Some(f) = self.files.get(span.file.0 as usize) else {
            return "";
        };
        let (_, start) = f.line_of(span.start);
        let rest = f.text.get(start..).unwrap_or("");
        let line = rest.split('\n').next().unwrap_or("");
        line.strip_suffix('\r').unwrap_or(line)
    }
}

impl SourceFile {
    /// The 0-based line holding byte `offset` and the byte where that line starts.
    fn line_of(&self, offset: u32) -> (usize, usize) {
        let offset = offset.min(clamp_u32(self.text.len()));
        let line = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        let start = self.line_starts.get(line).copied().unwrap_or(0) as usize;
        (line, self.floor_char(start))
    }

    /// The largest char boundary at or before `offset` (clamped to the text).
    fn floor_char(&self, offset: usize) -> usize {
        let mut i = offset.min(self.text.len());
        while i > 0 && !self.text.is_char_boundary(i) {
            i -= 1;
        }
        i
    }
}

/// Offsets are stored as `u32`; sources over 4 GiB saturate rather than wrap.
fn clamp_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}
