//! The `weft` command-line tool: parses flags and calls the library crates. Every error is one
//! message on stderr and a non-zero exit status; the tool never panics on bad input.

mod asm_cmd;
mod bench_c;
mod bench_cmd;
mod bench_qemu;
mod board_cmd;
mod cc_cmd;
mod config_set;
mod correlate;
mod correlate_plot;
mod correlate_ref;
mod debug_cmd;
mod demo_cmd;
mod engine;
mod frames;
mod progress;
mod report;
mod rtl_cmd;
mod run_cmd;
mod sp2a_cmd;
mod sweep_chart;
mod sweep_cmd;
mod sweep_job;
mod view_cmd;
mod wrote;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

/// weft: a soft SIMT GPU on RISC-V — assembler, disassembler and simulators.
#[derive(Parser, Debug)]
#[command(name = "weft", version, about)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand, Debug)]
enum Cmd {
    /// The demo: a Mandelbrot zoom rendered by the GPU through its DMA engine over a lake
    /// drawn by racing the display's beam; writes PNG frames and a GIF.
    #[command(
        after_help = "Example:\n  weft demo -o /tmp/demo      # frames and demo.gif in /tmp/demo"
    )]
    Demo(demo_cmd::DemoArgs),
    /// Run a program on the functional SIMT model (or on Shader Processor v2a cores).
    #[command(
        after_help = "Examples:\n  weft run examples/matmul.s --cores 2 --warps 8 --lanes 16 --stats\n  weft run examples/kernels/mandelbrot.c --timing --stats-json stats.json"
    )]
    Run(Box<run_cmd::RunArgs>),
    /// Record a run step by step into one self-contained HTML page (warps, lanes, divergence
    /// stacks, registers) to step forward and back through in a browser.
    #[command(
        after_help = "Example:\n  weft view examples/divergence/nested.s --lanes 4 --warps 1 -o nested.html"
    )]
    View(view_cmd::ViewArgs),
    /// Assemble GNU-style RISC-V assembly into an ELF executable.
    #[command(after_help = "Example:\n  weft asm examples/matmul.s -o matmul.elf")]
    Asm {
        /// Assembly source.
        input: PathBuf,
        /// Output ELF file.
        #[arg(short = 'o', value_name = "OUT.elf")]
        output: PathBuf,
    },
    /// Compile C/C++/assembly kernels with the device runtime (clang + lld).
    #[command(
        after_help = "Examples:\n  weft cc examples/kernels/sgemm.c -o sgemm.elf -O3\n  weft cc --host examples/kernels/sgemm.c -o sgemm    # the same source for this computer"
    )]
    Cc(cc_cmd::CcArgs),
    /// Disassemble an ELF executable (the output assembles back to the same bytes).
    #[command(after_help = "Example:\n  weft disasm matmul.elf | head")]
    Disasm {
        /// ELF file.
        input: PathBuf,
    },
    /// Print the reconvergence table (immediate post-dominators) of an ELF or assembly file.
    #[command(after_help = "Example:\n  weft reconv examples/divergence/and_chain_table.s")]
    Reconv {
        /// Program.
        input: PathBuf,
        /// Also write a copy of the ELF with the table stored in a `.weft.reconv` section
        /// (the loader then reads it instead of computing it).
        #[arg(long, value_name = "OUT.elf")]
        embed: Option<PathBuf>,
    },
    /// Measure simulator speed on built-in kernels.
    #[command(
        after_help = "Examples:\n  weft bench --kernel alu,sgemm --lanes 8\n  weft bench --timing\n  weft bench --vs-qemu --kernel sgemm.c"
    )]
    Bench(bench_cmd::BenchArgs),
    /// Run a program on the ULX3S board over its serial port, or on the board design
    /// simulated under Verilator (`--sim`).
    #[command(
        after_help = "Examples:\n  weft board --port /dev/ttyUSB0 examples/divergence/if_else.s\n  weft board --sim tests/isa/rv32ui-alu.s"
    )]
    Board(board_cmd::BoardArgs),
    /// Sweep machine parameters under the timing model (default: the Vortex paper's 32×32
    /// matrix multiply over 1–32 warps × 1–32 threads) and chart cycles and speedup.
    #[command(
        after_help = "Examples:\n  weft sweep -o sweep\n  weft sweep --lanes 8 --set pipeline.scheduler=lrr,gto,two-level -o sched"
    )]
    Sweep(sweep_cmd::SweepArgs),
    /// Compare the timing model's cycle counts with a reference's (SimX's) on a set of
    /// kernels: a table, the error figures and a log-log correlation plot.
    Correlate(Box<correlate::CorrelateArgs>),
    /// Assemble Shader Processor v2a assembly.
    #[command(after_help = "Example:\n  weft sp2a-asm examples/sp2a/fib.s -o fib.bin")]
    Sp2aAsm {
        /// Assembly source.
        input: PathBuf,
        /// Output image.
        #[arg(short = 'o', value_name = "OUT")]
        output: PathBuf,
    },
    /// Disassemble a Shader Processor v2a image.
    #[command(after_help = "Example:\n  weft sp2a-disasm fib.bin")]
    Sp2aDisasm {
        /// Image file.
        input: PathBuf,
    },
}

/// `weft reconv`: print each branch's reconvergence point; with `--embed`, store the table.
fn reconv(input: &std::path::Path, embed: Option<&std::path::Path>) -> Result<i32, String> {
    let bytes = run_cmd::load_program_bytes(input)?;
    let img = weft_elf::read_elf(&bytes).map_err(|e| format!("{}: {e}", input.display()))?;
    let a =
        weft_simt::load::analyze_image(&img).map_err(|e| format!("{}: {e}", input.display()))?;
    print!("{}", a.dump());
    if let Some(out) = embed {
        let section = a.table.to_section_bytes();
        let elf = weft_elf::append_section(&bytes, weft_reconv::SECTION_NAME, &section)
            .map_err(|e| format!("{}: {e}", input.display()))?;
        std::fs::write(out, elf).map_err(|e| format!("{}: {e}", out.display()))?;
        wrote::wrote(out, "the ELF with its .weft.reconv section");
    }
    Ok(0)
}

fn main() -> ExitCode {
    let cli = Cli::parse_from(cc_cmd::opencl_args(std::env::args().collect()));
    let r = match &cli.cmd {
        Cmd::Demo(a) => demo_cmd::demo(a),
        // The RTL under Verilator (rtl_cmd.rs), or the models.
        Cmd::Run(a) if a.rtl => {
            run_cmd::build_config(a).and_then(|c| rtl_cmd::run_rtl(a, c.machine))
        }
        Cmd::Run(a) => run_cmd::run(a),
        Cmd::View(a) => view_cmd::view(a),
        Cmd::Asm { input, output } => asm_cmd::asm(input, output),
        Cmd::Cc(a) => cc_cmd::cc(a),
        Cmd::Disasm { input } => asm_cmd::disasm(input),
        Cmd::Reconv { input, embed } => reconv(input, embed.as_deref()),
        Cmd::Bench(a) if a.vs_qemu => bench_qemu::vs_qemu(a),
        Cmd::Bench(a) => bench_cmd::bench(a),
        Cmd::Board(a) => board_cmd::board(a),
        Cmd::Sweep(a) => sweep_cmd::sweep(a),
        Cmd::Correlate(a) => correlate::correlate(a),
        Cmd::Sp2aAsm { input, output } => sp2a_cmd::sp2a_asm(input, output),
        Cmd::Sp2aDisasm { input } => sp2a_cmd::sp2a_disasm(input),
    };
    match r {
        Ok(code) => ExitCode::from(code.clamp(0, 255) as u8),
        Err(msg) => {
            eprintln!("weft: {msg}");
            ExitCode::from(2)
        }
    }
}
