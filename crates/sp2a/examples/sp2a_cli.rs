//! A stand-in for the `weft` binary's SP v2a commands, built from the very same
//! `crates/weft/src/sp2a_cmd.rs`, so the CLI can be tried before it is wired in:
//! `cargo run -p weft-sp2a --example sp2a_cli -- run --sp2a 16 examples/sp2a/tiles.s --stats`.

#[path = "../../weft/src/sp2a_cmd.rs"]
mod sp2a_cmd;

use clap::{Parser, Subcommand};

#[derive(Parser)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Run a program on N shader processors.
    Run(sp2a_cmd::Sp2aRunArgs),
    /// Assemble to an image.
    Sp2aAsm(sp2a_cmd::Sp2aAsmArgs),
    /// Disassemble an image.
    Sp2aDisasm(sp2a_cmd::Sp2aDisasmArgs),
}

fn main() {
    let cli = Cli::parse();
    let r = match cli.cmd {
        Cmd::Run(a) => sp2a_cmd::run_sp2a(
            a.cores,
            &a.program,
            a.frames.as_deref(),
            a.max_cycles,
            a.stats,
            a.stats_json.as_deref(),
            a.trace,
        ),
        Cmd::Sp2aAsm(a) => sp2a_cmd::sp2a_asm(&a.input, &a.output),
        Cmd::Sp2aDisasm(a) => sp2a_cmd::sp2a_disasm(&a.file),
    };
    match r {
        Ok(code) => std::process::exit(code),
        Err(msg) => {
            eprintln!("weft: {msg}");
            std::process::exit(1);
        }
    }
}
