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
