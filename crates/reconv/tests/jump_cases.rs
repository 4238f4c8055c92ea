//! Hand-checked jump-table cases: what is resolved, what is left as an exit, the table entry
//! of a resolved `jalr`, the dump, and the `.weft.reconv` round trip of jump entries.

mod common;

use common::*;
use weft_isa::{Inst, Op};
use weft_reconv::{
    analyze_with_data, Analysis, CodeRegion, DataRegion, Reconv, ReconvTable, Symbol,
};

const BASE: u32 = 0x8000_0000;
const TABLE: u32 = 0x8000_1000;
const S1: u8 = 9;
const SP: u8 = 2;
const A3: u8 = 13;

fn i(op: Op, rd: u8, rs1: u8, rs2: u8, imm: i32) -> Inst {
    Inst {
        rd,
        rs1,
        rs2,
        imm,
        ..Inst::new(op)
    }
}

/// `lui rd, %hi(addr); addi rd, rd, %lo(addr)`.
fn la(p: &mut Prog, rd: u8, addr: u32) {
    let lo = ((addr & 0xfff) as i32) << 20 >> 20;
    p.inst(i(Op::Lui, rd, 0, 0, addr.wrapping_sub(lo as u32) as i32));
    p.addi(rd, rd, lo);
}

/// `slli t1, idx, 2; add t1, t1, base; lw t1, 0(t1); jr t1` (label `jr` on the `jalr`).
fn dispatch(p: &mut Prog, idx: u8, base: u8) {
    p.inst(i(Op::Slli, T1, idx, 0, 2));
    p.inst(i(Op::Add, T1, T1, base, 0));
    p.lw(T1, T1, 0);
    p.label("jr").jalr(ZERO, T1);
}

fn run(p: &Prog, table: &[u32]) -> Analysis {
    let code = p.bytes();
    let data: Vec<u8> = table.iter().flat_map(|w| w.to_le_bytes()).collect();
    analyze_with_data(
        &[CodeRegion {
            base: BASE,
            bytes: &code,
        }],
        &[DataRegion {
            base: TABLE,
            bytes: &data,
        }],
        &[Symbol::new("f", BASE, 0)],
    )
    .expect("analysis")
}

/// `switch (a0) { case 0: …; case 1: …; case 2: … } join: ret`, with a branch before it.
fn classic(bound: bool) -> Prog {
    let mut p = Prog::new(BASE);
    p.br(Op::Beq, A1, ZERO, "sw").addi(A2, A2, 1);
    p.label("sw");
    if bound {
        p.addi(T0, ZERO, 3)
            .label("chk")
            .br(Op::Bgeu, A0, T0, "join");
    }
    la(&mut p, T2, TABLE);
    dispatch(&mut p, A0, T2);
    p.label("c0").addi(A2, A2, 10).j("join");
    p.label("c1").addi(A2, A2, 11).j("join");
    p.label("c2").addi(A2, A2, 12);
    p.label("join").ret();
    p
}

#[test]
fn bounded_table_is_resolved_and_reconverges_after_the_switch() {
    let p = classic(true);
    // The word after the table is an address in the function: the bound stops before it.
    let table = [p.addr("c0"), p.addr("c1"), p.addr("c2"), p.addr("sw")];
    let a = run(&p, &table);
    let f = &a.functions[0];
    assert_eq!(f.jumps.len(), 1, "{}", a.dump());
    let j = &f.jumps[0];
    assert_eq!(j.pc, p.addr("jr"));
    assert_eq!(j.table.table, TABLE);
    assert_eq!(j.table.bound, Some(3));
    assert_eq!(j.table.entries, table[..3].to_vec());
    assert_eq!(reconv_of(&p, &a, "jr"), at(&p, "join"));
    // Without the jump's edges the bounds check reconverged at the exit; now after the
    // switch.
    assert_eq!(reconv_of(&p, &a, "chk"), at(&p, "join"));
    assert!(f.unresolved_jumps.is_empty());
    let dump = a.dump();
    let line = dump
        .lines()
        .find(|l| l.contains("jalr"))
        .expect("jump line");
    assert!(
        line.contains("jump: table 0x80001000, 3 entries, 3 targets"),
        "{line}"
    );
}

#[test]
fn unbounded_table_ends_at_the_first_word_outside_the_function() {
    let p = classic(false);
    let table = [
        p.addr("c0"),
        p.addr("c1"),
        p.addr("c2"),
        0x1234_5678,
        p.addr("c0"),
    ];
    let a = run(&p, &table);
    let j = &a.functions[0].jumps[0];
    assert_eq!(j.table.bound, None);
    assert_eq!(j.table.entries, table[..3].to_vec());
    assert!(a.dump().contains("3 entries (no bounds check found)"));
}

#[test]
fn a_bound_that_names_an_address_outside_the_function_is_not_resolved() {
    let p = classic(true);
    let table = [p.addr("c0"), 0x4000_0000, p.addr("c2")];
    let a = run(&p, &table);
    assert!(a.functions[0].jumps.is_empty());
    assert_eq!(a.functions[0].unresolved_jumps.len(), 1);
    assert_eq!(reconv_of(&p, &a, "jr"), None);
    // As before jump tables: the bounds check reconverges at the exit.
    assert_eq!(reconv_of(&p, &a, "chk"), Some(Reconv::AtExit));
    assert!(a.dump().contains("-> none"));
    assert!(a.dump().contains("unresolved jump"));
}

#[test]
fn function_pointers_and_returns_are_not_tables() {
    let mut p = Prog::new(BASE);
    p.br(Op::Beq, A1, ZERO, "ptr");
    p.jalr(ZERO, T0); // `jr t0`: a return (alternate link register), not a candidate
    p.label("ptr").label("jr").jalr(ZERO, A1); // a jump through a function pointer
    let a = run(&p, &[p.addr("ptr")]);
    let f = &a.functions[0];
    assert!(f.jumps.is_empty());
    assert_eq!(f.unresolved_jumps.len(), 1);
    assert_eq!(f.unresolved_jumps[0].0, p.addr("jr"));
    assert_eq!(a.table.len(), 1);
    assert_eq!(a.table.get(BASE), Some(Reconv::AtExit));
}

/// `-O0`: the index is stored to a stack slot and reloaded; a store to the slot between the
/// bounds check and the reload loses the bound (the table then ends at the first
/// non-address).
#[test]
fn stack_reloads_keep_the_index_unless_the_slot_is_overwritten() {
    for clobber in [false, true] {
        let mut p = Prog::new(BASE);
        p.inst(i(Op::Sw, 0, SP, A0, 8)); // sw a0, 8(sp)
        p.lw(A1, SP, 8).addi(T0, ZERO, 2);
        p.br(Op::Bltu, T0, A1, "join"); // 2 <u idx: default
        if clobber {
            p.inst(i(Op::Sw, 0, SP, A2, 8));
        }
        p.lw(A3, SP, 8);
        la(&mut p, T2, TABLE);
        dispatch(&mut p, A3, T2);
        p.label("c0").addi(A2, A2, 10).j("join");
        p.label("c1").addi(A2, A2, 11).j("join");
        p.label("c2").addi(A2, A2, 12);
        p.label("join").ret();
        let table = [p.addr("c0"), p.addr("c1"), p.addr("c2"), p.addr("c0")];
        let a = run(&p, &table);
        let j = &a.functions[0].jumps[0];
        let want = if clobber { (None, 4) } else { (Some(3), 3) };
        assert_eq!(
            (j.table.bound, j.table.entries.len()),
            want,
            "clobber {clobber}"
        );
    }
}

/// A table base hoisted out of a loop (gcc -O2) is resolved when every definition reaching
/// the loop computes it. It is not when a case overwrites the register (found on the first
/// pass), nor when a block whose address is stored elsewhere in memory — which an unknown
/// indirect jump could enter with any register values — leads into the loop (found only by
/// the second pass, on the graph with the table's edges).
#[test]
fn hoisted_base_is_checked_on_every_path() {
    for variant in ["clean", "clobber", "stray address"] {
        let mut p = Prog::new(BASE);
        la(&mut p, S1, TABLE);
        p.label("loop").addi(T0, ZERO, 2);
        p.br(Op::Bgeu, A0, T0, "out");
        dispatch(&mut p, A0, S1);
        p.label("c0").addi(A0, A0, 1).j("loop");
        p.label("c1");
        if variant == "clobber" {
            p.addi(S1, S1, 4);
        }
        p.addi(A0, A0, 2).j("loop");
        p.label("stray").addi(A0, A0, 3).j("loop");
        p.label("out").ret();
        let mut table = vec![p.addr("c0"), p.addr("c1")];
        if variant == "stray address" {
            table.extend([0, p.addr("stray")]);
        }
        let a = run(&p, &table);
        let f = &a.functions[0];
        if variant == "clean" {
            assert_eq!(f.jumps.len(), 1, "{}", a.dump());
            assert_eq!(f.jumps[0].table.bound, Some(2));
            assert_eq!(reconv_of(&p, &a, "jr"), at(&p, "loop"));
        } else {
            assert!(f.jumps.is_empty(), "{variant}: {}", a.dump());
            assert_eq!(f.unresolved_jumps.len(), 1);
        }
    }
}

/// A call between the base's definition and the jump clobbers caller-saved registers.
#[test]
fn calls_clobber_caller_saved_bases() {
    for (base, resolved) in [(T2, false), (S1, true)] {
        let mut p = Prog::new(BASE);
        la(&mut p, base, TABLE);
        p.call_abs(BASE + 0x8000);
        p.addi(T0, ZERO, 2).br(Op::Bgeu, A0, T0, "out");
        dispatch(&mut p, A0, base);
        p.label("c0").nop();
        p.label("c1").nop();
        p.label("out").ret();
        let a = run(&p, &[p.addr("c0"), p.addr("c1")]);
        assert_eq!(
            a.functions[0].jumps.len(),
            usize::from(resolved),
            "{}",
            a.dump()
        );
    }
}

#[test]
fn jump_entries_round_trip_through_the_section() {
    let p = classic(true);
    let a = run(&p, &[p.addr("c0"), p.addr("c1"), p.addr("c2")]);
    let mut t = a.table.clone();
    t.insert(p.addr("c0"), Reconv::AtExit); // an exit entry too
    let bytes = t.to_section_bytes();
    let back = ReconvTable::from_section_bytes(&bytes).expect("valid section");
    assert_eq!(back, t);
    assert_eq!(back.get(p.addr("jr")), Some(Reconv::At(p.addr("join"))));
    assert_eq!(back.to_section_bytes(), bytes);
}
