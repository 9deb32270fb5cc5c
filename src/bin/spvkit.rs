//! The `spvkit` command-line tool (see `spvkit --help`).

fn main() -> std::process::ExitCode {
    spvkit::cli::main()
}
