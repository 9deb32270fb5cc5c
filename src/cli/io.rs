//! Inputs and outputs of the command line: files or `-` for the standard streams.

use std::io::{Read, Write};

/// A read input and the name to use for it in messages.
pub struct Input {
    /// The file name, or `<stdin>`.
    pub name: String,
    /// Its contents.
    pub bytes: Vec<u8>,
}

/// Reads a file, or standard input for `-`.
pub fn read_input(path: &str) -> Result<Input, String> {
    if path == "-" {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|e| format!("<stdin>: error: {e}"))?;
        return Ok(Input {
            name: "<stdin>".into(),
            bytes,
        });
    }
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: error: {e}"))?;
    Ok(Input {
        name: path.into(),
        bytes,
    })
}

/// Reads a SPIR-V binary (a file, or standard input for `-`) as native words, with the name to
/// use in messages. Text where a binary belongs (SPIR-V assembly, say) is an error that says
/// so and points at `spvkit as`, rather than a bad magic number.
pub fn read_binary(path: &str) -> Result<(String, Vec<u32>), String> {
    let Input { name, bytes } = read_input(path)?;
    match crate::binary::words_from_bytes(&bytes) {
        Ok(words) => Ok((name, words.into_owned())),
        Err(_) if looks_like_text(&bytes) => Err(format!(
            "{name}: error: this looks like SPIR-V assembly text, not a binary; assemble it \
             first with `spvkit as {path} -o out.spv`"
        )),
        Err(e) => Err(format!("{name}: word {}: error: {}", e.offset, e.kind)),
    }
}

/// Whether bytes that are no SPIR-V binary read as text: assembly starting with `;` or `Op`,
/// or any valid UTF-8 without control characters other than whitespace.
pub fn looks_like_text(bytes: &[u8]) -> bool {
    let start = bytes.trim_ascii_start();
    if start.starts_with(b";") || start.starts_with(b"Op") || start.starts_with(b"%") {
        return true;
    }
    match std::str::from_utf8(bytes) {
        Ok(s) => !s.is_empty() && !s.chars().any(|c| c.is_control() && !c.is_whitespace()),
        Err(_) => false,
    }
}

/// Writes bytes to a file, or standard output for `-`.
pub fn write_output(path: &str, bytes: &[u8]) -> Result<(), String> {
    if path == "-" {
        let mut out = std::io::stdout().lock();
        return out
            .write_all(bytes)
            .and_then(|()| out.flush())
            .map_err(|e| format!("<stdout>: error: {e}"));
    }
    std::fs::write(path, bytes).map_err(|e| format!("{path}: error: {e}"))
}

/// Streams to a file, or standard output when `path` is `None` or `-`, through a buffer.
pub fn with_output(
    path: Option<&str>,
    f: impl FnOnce(&mut dyn Write) -> Result<(), String>,
) -> Result<(), String> {
    match path {
        None | Some("-") => {
            let stdout = std::io::stdout();
            let mut w = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
            f(&mut w)?;
            w.flush().map_err(|e| format!("<stdout>: error: {e}"))
        }
        Some(p) => {
            let file = std::fs::File::create(p).map_err(|e| format!("{p}: error: {e}"))?;
            let mut w = std::io::BufWriter::with_capacity(1 << 16, file);
            f(&mut w)?;
            w.flush().map_err(|e| format!("{p}: error: {e}"))
        }
    }
}
