//! The Vortex compatibility profile: programs in `tests/vortex/` written in Vortex v3.0's
//! standalone conventions (start-up `crt0.s` prepended), run under `Profile::Vortex`, with the
//! expected results derived here from Vortex's rules.

use weft_simt::load::program_from_elf;
use weft_simt::vortex::vxbin;
use weft_simt::vortex::EXIT_CODE_ADDR;
use weft_simt::{Config, Machine, Profile, Program, ReconvMode, RunEnd};

struct Run {
    m: Machine,
    end: RunEnd,
    elf: weft_elf::ElfImage,
}

impl Run {
    fn words(&self, sym: &str, n: usize) -> Vec<u32> {
        let a = self
            .elf
            .symbol(sym)
            .unwrap_or_else(|| panic!("no {sym}"))
            .value;
        (0..n)
            .map(|i| self.m.mem.load(0, a + 4 * i as u32, 4).unwrap())
            .collect()
    }
    fn out(&self) -> String {
        String::from_utf8_lossy(self.m.console()).into_owned()
    }
}

fn source(name: &str) -> String {
    let dir = format!("{}/../../tests/vortex", env!("CARGO_MANIFEST_DIR"));
    let read = |f: &str| {
        std::fs::read_to_string(format!("{dir}/{f}")).unwrap_or_else(|e| panic!("{f}: {e}"))
    };
    read("crt0.s") + &read(name)
}

fn elf(src: &str) -> Vec<u8> {
    weft_asm::assemble(src, "vortex-test.s").unwrap_or_else(|e| panic!("assembly:\n{e}"))
}

fn vortex(reconv: ReconvMode) -> Config {
    Config {
        reconv,
        max_cycles: 1_000_000,
        ..Config::for_profile(Profile::Vortex)
    }
}

fn run_prog(prog: &Program, bytes: &[u8], cfg: Config) -> Run {
    let mut m = Machine::new(cfg, prog).expect("machine");
    let end = m.run();
    Run {
        m,
        end,
        elf: weft_elf::read_elf(bytes).unwrap(),
    }
}

fn run_src(src: &str, cfg: Config) -> Run {
    let bytes = elf(src);
    let (prog, _) = program_from_elf(&bytes).expect("load");
    run_prog(&prog, &bytes, cfg)
}

fn run(name: &str) -> Run {
    run_src(&source(name), vortex(ReconvMode::Table))
}

#[test]
fn defaults_are_vortex_defaults() {
    let c = Config::for_profile(Profile::Vortex);
    assert_eq!((c.cores, c.warps, c.lanes, c.barriers), (1, 4, 4, 8));
    assert_eq!(c.local_mem_base, 0xFFFF_0000);
    assert_eq!(EXIT_CODE_ADDR, 0x40 + 64 * 4 * 2 + 64 * 512 + 64 * 4 + 8);
    // A TOML file over the profile keeps the profile's defaults for keys it omits.
    let c = Config::from_toml_for("warps = 8", Some(Profile::Vortex)).unwrap();
    assert_eq!((c.warps, c.lanes, c.local_mem_base), (8, 4, 0xFFFF_0000));
    let c = Config::from_toml_for("profile = \"vortex\"\nlanes = 8", None).unwrap();
    assert_eq!((c.profile, c.warps, c.lanes), (Profile::Vortex, 4, 8));
    let c = Config::from_toml_for("lanes = 2", None).unwrap();
    assert_eq!(
        c,
        Config {
            lanes: 2,
            ..Config::default()
        }
    );
}

#[test]
fn console_rings_are_drained_per_hart() {
    let r = run("hello.s");
    assert_eq!(r.end, RunEnd::Exit(0));
    // Each hart's ring is line-buffered and printed with its slot number (hart id mod 64).
    let mut want = String::from("#0: Hello from weft!\n");
    for t in 0..4u8 {
        want += &format!("#{t}: {}\n", (b'A' + t) as char);
    }
    assert_eq!(r.out(), want);
    // The host side advanced every read count to the write count.
    for slot in 0..4u32 {
        let wr = r.m.mem.load(0, 0x40 + 4 * slot, 4).unwrap();
        let rd = r.m.mem.load(0, 0x40 + 256 + 4 * slot, 4).unwrap();
        assert_eq!((wr, rd), (if slot == 0 { 19 } else { 2 }, wr));
    }
}

#[test]
fn exit_word_is_the_exit_status() {
    let r = run("exit_code.s");
    assert_eq!(r.end, RunEnd::Exit(42));
    assert_eq!(r.end.exit_status(), 42);
    assert_eq!(r.m.mem.load(0, 0x8348, 4), Ok(42));
}

#[test]
fn wspawn_starts_lane_zero_with_vortex_stacks() {
    let r = run("wspawn.s");
    assert_eq!(r.end, RunEnd::Exit(0));
    let masks = r.words("masks", 4);
    let sps = r.words("sps", 4);
    let active = r.words("active", 4);
    for w in 1..4u32 {
        assert_eq!(masks[w as usize], 1, "warp {w} runs lane 0 only");
        // Lane 0 of warp w is hart w·4 (1 core, 4 threads): its stack top.
        assert_eq!(sps[w as usize], 0xFFFF_0000 - ((w * 4) << 13));
        assert_eq!(active[w as usize] & 0xf, 0xf, "all four warps active");
    }
    assert_eq!(r.words("main_mask", 1), [1]);
}

#[test]
fn mscratch_is_per_core_and_wspawn_one_waits() {
    // vx_spawn_threads' pattern: warp 0 passes its arguments through mscratch and waits
    // for the spawned warps with `wspawn 1, zero` (Vortex defers a wspawn until the issuing
    // warp is the core's only active warp).
    let r = run("spawn_wait.s");
    assert_eq!(r.end, RunEnd::Exit(0));
    let argblk = r.elf.symbol("argblk").unwrap().value;
    let args = r.words("args", 4);
    let seen = r.words("seen", 4);
    for w in 1..4 {
        assert_eq!(args[w], argblk, "warp {w} reads warp 0's mscratch");
        assert_eq!(seen[w], 0x600d, "warp {w} finished before main went on");
    }
}

#[test]
fn nested_split_join() {
    let r = run("split_join.s");
    assert_eq!(r.end, RunEnd::Exit(0));
    let want: Vec<u32> = (0..4u32)
        .map(|t| match (t < 2, t & 1 == 1) {
            (true, true) => 10,
            (true, false) => 20,
            (false, true) => 30,
            (false, false) => 40,
        })
        .collect();
    assert_eq!(r.words("out", 4), want);
    assert_eq!(r.words("tokens", 4), [1; 4], "inner splits run at depth 1");
    assert_eq!(r.words("inner_mask", 1), [0b1100]);
    assert_eq!(r.words("outer_mask", 1), [0xf]);
    assert_eq!(
        r.words("uni", 1),
        [0],
        "uniform split: token = depth, nothing pushed"
    );
}

#[test]
fn pred_loops_plain_and_negated() {
    let r = run("pred.s");
    assert_eq!(r.end, RunEnd::Exit(0));
    let it: Vec<u32> = (1..=4).collect();
    assert_eq!(r.words("it1", 4), it);
    assert_eq!(
        r.words("it2", 4),
        it.iter().map(|i| 2 * i).collect::<Vec<_>>()
    );
    assert_eq!(
        r.words("mask1", 1),
        [0xf],
        "mask restored from rs2 when no lane passes"
    );
}

#[test]
fn local_barrier() {
    let r = run("barrier_local.s");
    assert_eq!(r.end, RunEnd::Exit(0));
    assert_eq!(r.words("seen", 4), [4; 4]);
}

#[test]
fn global_barrier_across_two_cores() {
    let cfg = Config {
        cores: 2,
        ..vortex(ReconvMode::Table)
    };
    let r = run_src(&source("barrier_global.s"), cfg);
    assert_eq!(r.end, RunEnd::Exit(0));
    assert_eq!(r.words("seen", 2), [2, 2]);
    assert_eq!(
        r.words("shared", 2),
        [100, 101],
        "each core has its own shared memory"
    );
}

#[test]
fn votes() {
    let r = run("vote.s");
    assert_eq!(r.end, RunEnd::Exit(0));
    let vote = |mask: u32, pred: &dyn Fn(u32) -> bool| {
        let ballot = (0..4)
            .filter(|&l| mask >> l & 1 == 1 && pred(l))
            .fold(0, |b, l| b | 1 << l);
        [
            (ballot == mask) as u32,
            (ballot != 0) as u32,
            (ballot == 0 || ballot == mask) as u32,
            ballot,
        ]
    };
    let res = r.words("res", 12);
    assert_eq!(res[0..4], vote(0xf, &|l| l & 1 == 1));
    assert_eq!(res[4..8], vote(0xf, &|_| true));
    assert_eq!(res[8..12], vote(0b0101, &|l| l & 1 == 1));
}

/// Vortex's shuffle rule, restated: returns the source lane, or `None` for "keep own".
fn shfl_src(kind: usize, lane: i64, ctl: u32, mask: u32, lanes: i64) -> Option<usize> {
    let (b, c, seg) = (
        (ctl & 63) as i64,
        (ctl >> 6 & 63) as i64,
        (ctl >> 12 & 63) as i64,
    );
    let lo = lane & seg;
    let hi = lo | (c & !seg);
    let (src, ok) = match kind {
        0 => (lane - b, lane - b >= lo),
        1 => (lane + b, lane + b <= hi),
        2 => (lane ^ b, (lane ^ b) <= hi),
        _ => (lo | (b & !seg), (lo | (b & !seg)) <= hi),
    };
    (ok && (0..lanes).contains(&src) && mask >> src & 1 == 1).then_some(src as usize)
}

#[test]
fn shuffles() {
    let ctl = |seg: u32, c: u32, b: u32| (seg << 12) | (c << 6) | b;
    // (kind 0 up, 1 down, 2 bfly, 3 idx; per-lane control words; active mask)
    let cases: Vec<(usize, [u32; 4], u32)> = vec![
        (0, [ctl(0, 3, 1); 4], 0xf),
        (1, [ctl(0, 3, 1); 4], 0xf),
        (2, [ctl(0, 3, 1); 4], 0xf),
        (3, [ctl(0, 3, 2); 4], 0xf),
        // Per-lane controls: lane l reads lane 3 − l (a reversal).
        (
            3,
            [ctl(0, 3, 3), ctl(0, 3, 2), ctl(0, 3, 1), ctl(0, 3, 0)],
            0xf,
        ),
        // Segments of two lanes: segmask 0b111110, c = 1.
        (0, [ctl(0x3e, 1, 1); 4], 0xf),
        (1, [ctl(0, 3, 1); 4], 0b0111),
    ];
    let mut data = String::from("ctl:\n");
    for (_, words, _) in &cases {
        for w in words {
            data += &format!("    .word {w}\n");
        }
    }
    let r = run_src(&(source("shuffle.s") + &data), vortex(ReconvMode::Table));
    assert_eq!(r.end, RunEnd::Exit(0));
    let out = r.words("out", 4 * cases.len());
    for (k, (kind, words, mask)) in cases.iter().enumerate() {
        for l in 0..4usize {
            if mask >> l & 1 == 0 {
                continue;
            }
            let src = shfl_src(*kind, l as i64, words[l], *mask, 4).unwrap_or(l);
            assert_eq!(out[4 * k + l], 100 + src as u32, "case {k} lane {l}");
        }
    }
    // Spot checks of the rule itself.
    assert_eq!(&out[0..4], [100, 100, 101, 102]);
    assert_eq!(&out[12..16], [102; 4]);
    assert_eq!(&out[16..20], [103, 102, 101, 100]);
    assert_eq!(&out[20..24], [100, 100, 102, 102]);
    assert_eq!(&out[24..27], [101, 102, 102]);
}

#[test]
fn divergent_if_else_table_versus_follow_last() {
    let src = source("diverge.s");
    let table = run_src(&src, vortex(ReconvMode::Table));
    assert_eq!(table.end, RunEnd::Exit(0));
    let own: Vec<u32> = (0..4).map(|t| if t & 1 == 1 { 1 } else { 2 }).collect();
    assert_eq!(table.words("out", 4), own);
    assert_eq!(table.words("mask", 1), [0xf]);
    let last = run_src(&src, vortex(ReconvMode::FollowLast));
    assert_eq!(last.end, RunEnd::Exit(0));
    // Every lane follows lane 3 (the last active lane): all take lane 3's side.
    assert_eq!(last.words("out", 4), [own[3]; 4]);
    assert_eq!(last.m.report().reconvergence, "follow-last");
    assert_eq!(table.m.report().reconvergence, "table");
}

#[test]
fn vxbin_image_runs_like_the_elf() {
    let bytes = elf(&source("hello.s"));
    let img = weft_elf::read_elf(&bytes).unwrap();
    let min = img.segments.iter().map(|s| s.vaddr).min().unwrap();
    let max = img
        .segments
        .iter()
        .map(|s| s.vaddr + s.memsz.max(s.data.len() as u32))
        .max()
        .unwrap();
    let file_end = img
        .segments
        .iter()
        .filter(|s| !s.data.is_empty())
        .map(|s| s.vaddr + s.data.len() as u32)
        .max()
        .unwrap();
    let mut flat = vec![0u8; (file_end - min) as usize];
    for s in &img.segments {
        let at = (s.vaddr - min) as usize;
        flat[at..at + s.data.len()].copy_from_slice(&s.data);
    }
    for symbols in [vec![], vec![("main", img.symbol("main").unwrap().value)]] {
        let file = vxbin::write(min, max, &flat, &symbols);
        assert!(
            vxbin::looks_like_vxbin(&file),
            "{:?}",
            vxbin::parse(&file).err()
        );
        let prog = vxbin::program_from_vxbin(&file).unwrap();
        assert_eq!(prog.entry, min);
        assert_eq!(prog.symbols.len(), symbols.len());
        let r = run_prog(&prog, &bytes, vortex(ReconvMode::Table));
        assert_eq!(r.end, RunEnd::Exit(0));
        assert!(
            r.out().starts_with("#0: Hello from weft!\n#0: A\n"),
            "{}",
            r.out()
        );
    }
}

#[test]
fn weft_profile_is_unchanged() {
    // Under the default profile the low memory is unmapped and there is no console ring.
    let c = Config::default();
    assert_eq!(c.profile, Profile::Weft);
    assert!(c.mem_config().extra.is_empty());
}

#[test]
fn a_wspawn_that_can_never_be_alone_is_a_deadlock() {
    let r = run("spawn_deadlock.s");
    match r.end {
        RunEnd::Deadlock(why) => {
            assert!(why.contains("warp 0 waits in wspawn"), "{why}");
            assert!(why.contains("warp 1 waits at barrier 0"), "{why}");
        }
        e => panic!("expected a deadlock report, got {e:?}"),
    }
    assert!(
        r.m.cycle < 10_000,
        "detected when it happens, not at the cycle bound"
    );
}

#[test]
fn divergent_jalr_follows_the_last_lane_only_under_follow_last() {
    let r = run_src(&source("jalr_follow.s"), vortex(ReconvMode::FollowLast));
    assert_eq!(r.end, RunEnd::Exit(0));
    assert_eq!(r.words("out", 4), vec![2; 4]);
    // weft's own rule: the lanes split by target and each group runs its own code.
    let r = run_src(&source("jalr_follow.s"), vortex(ReconvMode::Table));
    assert_eq!(r.end, RunEnd::Exit(0));
    assert_eq!(r.words("out", 4), vec![1, 2, 2, 2]);
}

#[test]
fn a_module_loaded_into_a_running_machine_brings_its_reconvergence_table() {
    // A host runtime opens the machine first and loads kernel images later
    // (`Machine::load_module`): the image's table must come along, or a divergent if/else
    // would run its two sides one after the other to the end of the program.
    let bytes = elf(&source("diverge.s"));
    let (prog, _) = program_from_elf(&bytes).expect("load");
    let empty = Program {
        entry: prog.entry,
        ..Program::default()
    };
    let run_loaded = |p: &Program| {
        let mut m = Machine::new(vortex(ReconvMode::Table), &empty).unwrap();
        m.load_module(p).unwrap();
        m.restart(p.entry).unwrap();
        let end = m.run();
        Run {
            m,
            end,
            elf: weft_elf::read_elf(&bytes).unwrap(),
        }
    };
    let r = run_loaded(&prog);
    assert_eq!(r.end, RunEnd::Exit(0));
    let own: Vec<u32> = (0..4).map(|t| if t & 1 == 1 { 1 } else { 2 }).collect();
    assert_eq!(r.words("out", 4), own);
    assert_eq!(r.words("mask", 1), [0xf], "reconverged after the if/else");
    assert!(r.m.symbolize(prog.entry).is_some(), "the module's symbols");
    // The same image without its table: the sides do not meet again.
    let bare = Program {
        reconv: Default::default(),
        ..prog.clone()
    };
    assert_ne!(run_loaded(&bare).words("mask", 1), [0xf]);
}

#[test]
fn the_top_of_the_address_space_is_ram_as_in_simx() {
    // SimX maps every address that is not I/O or local memory as global memory; Vortex's
    // regression test `basic` never sets sp and stores just below 4 GiB.
    let src = source("hello.s");
    let r = run_src(&src, vortex(ReconvMode::Table));
    let mut m = r.m;
    for a in [0xFFFF_4000u32, 0xFFFF_FF00, 0xFFFF_FFFC] {
        m.mem.store(0, a, 4, a ^ 0x5a5a).unwrap();
        assert_eq!(m.mem.load(0, a, 4), Ok(a ^ 0x5a5a), "{a:#x}");
    }
    assert!(
        m.mem.load(0, 0xFFFF_3FFC, 4).is_ok(),
        "local memory below it"
    );
}

#[test]
fn async_barrier_arrive_does_not_block_and_wait_waits_for_the_phase() {
    let r = run("async_barrier.s");
    assert_eq!(r.end, RunEnd::Exit(0));
    assert_eq!(r.words("seen", 4), [4; 4], "every wait saw all four flags");
    assert_eq!(r.words("token0", 4), [0; 4], "first phase");
    assert_eq!(r.words("token1", 4), [1; 4], "second phase");
}

#[test]
fn async_global_barrier_completes_when_every_core_has_arrived() {
    let cfg = Config {
        cores: 2,
        warps: 2,
        ..vortex(ReconvMode::Table)
    };
    let r = run_src(&source("async_gbarrier.s"), cfg);
    assert_eq!(r.end, RunEnd::Exit(0));
    assert_eq!(r.words("seen", 4), [4; 4]);
}

#[test]
fn wgather_and_packed_loads() {
    let cfg = Config {
        lanes: 8,
        ..vortex(ReconvMode::Table)
    };
    let r = run_src(&source("wgather_packld.s"), cfg);
    assert_eq!(r.end, RunEnd::Exit(0));
    // wgather with source lane 1: in each group of four the lanes 1, 2, 3 after lane 1 (mod
    // 4) take its a, b, c; lane 1 keeps its own r.
    let want: Vec<u32> = (0..8u32)
        .map(|l| {
            let s = (l & !3) + 1;
            match (l + 4 - s) % 4 {
                0 => 100 + l,
                k => 10 * s + k,
            }
        })
        .collect();
    assert_eq!(r.words("gathered", 8), want);
    let a = r.elf.symbol("bytes").unwrap().value;
    let byte = |o: u32| r.m.mem.load(0, a + o, 1).unwrap();
    let lb: Vec<u32> = (0..8)
        .map(|l| (0..4).fold(0, |v, k| v | byte(4 * l + k) << (8 * k)))
        .collect();
    let lb5: Vec<u32> = (0..8)
        .map(|l| (0..4).fold(0, |v, k| v | byte(l + 5 * k) << (8 * k)))
        .collect();
    let half = |o: u32| byte(o) | byte(o + 1) << 8;
    let lh: Vec<u32> = (0..8)
        .map(|l| half(2 * l) | half(2 * l + 2) << 16)
        .collect();
    assert_eq!(r.words("lb", 8), lb);
    assert_eq!(r.words("lb5", 8), lb5);
    assert_eq!(r.words("lh", 8), lh);
    assert_eq!(lb[1], 0x8877_6655, "little-endian bytes");
}
