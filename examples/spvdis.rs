//! A `spirv-dis` work-alike over `spvkit::text::disassemble`, for comparisons and timing.
use spvkit::binary::words_from_bytes;
use spvkit::text::{disassemble, DisassembleOptions};
use std::io::Write;

fn main() {
    let mut opts = DisassembleOptions::default();
    let mut file = None;
    let mut out_file = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--raw-id" => opts.friendly_names = false,
            "--no-header" => opts.header = false,
            "--no-indent" => opts.indent = false,
            "--offsets" => opts.offsets = true,
            "-o" => out_file = args.next(),
            _ => file = Some(a),
        }
    }
    let bytes = std::fs::read(file.expect("a file")).expect("readable file");
    let words = match words_from_bytes(&bytes) {
        Ok(w) => w,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    };
    let res = match out_file {
        Some(p) if p != "-" => {
            let mut f = std::io::BufWriter::new(std::fs::File::create(p).expect("output"));
            disassemble(&words, &opts, &mut f)
        }
        _ => {
            let stdout = std::io::stdout();
            let mut lock = stdout.lock();
            let r = disassemble(&words, &opts, &mut lock);
            let _ = lock.flush();
            r
        }
    };
    if let Err(e) = res {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}
