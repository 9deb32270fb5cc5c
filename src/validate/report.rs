//! Collecting errors while the passes run, and turning them into [`ValidationError`]s at the
//! end, when each offending instruction's text is printed in one pass over the module.

use super::ValidationError;

/// An error before its instruction text is known.
#[derive(Debug)]
struct Pending {
    offset: usize,
    rule: &'static str,
    message: String,
}

/// Where the passes put their errors.
#[derive(Debug, Default)]
pub(super) struct Sink {
    errors: Vec<Pending>,
}

/// Errors kept per run: beyond this many, further ones are counted but not kept (a module
/// can have an error per instruction; the first ones are what a reader needs).
const MAX_ERRORS: usize = 1000;

impl Sink {
    /// Records an error at word `offset` (an instruction's first word; 0 for the header).
    pub fn push(&mut self, offset: usize, rule: &'static str, message: String) {
        if self.errors.len() < MAX_ERRORS {
            self.errors.push(Pending {
                offset,
                rule,
                message,
            });
        }
    }

    /// Whether no error was recorded.
    pub fn is_empty(&self) -> bool {
        self.errors.is_empty()
    }

    /// The errors in module order (stable for errors at the same instruction), each with its
    /// instruction's text.
    pub fn finish(self, words: &[u32]) -> Vec<ValidationError> {
        let mut errors = self.errors;
        errors.sort_by_key(|e| e.offset);
        errors.dedup_by(|a, b| a.offset == b.offset && a.rule == b.rule && a.message == b.message);
        let offsets: Vec<usize> = errors.iter().map(|e| e.offset).collect();
        let texts = crate::binary::instruction_texts(words, &offsets);
        errors
            .into_iter()
            .zip(texts)
            .map(|(e, text)| ValidationError {
                offset: e.offset,
                instruction: if e.offset < crate::binary::HEADER_WORDS {
                    "(header)".to_string()
                } else {
                    text
                },
                rule: e.rule,
                message: e.message,
            })
            .collect()
    }
}
