//! Hand-checked reconvergence points of typical compiler shapes: each program is built with
//! `Inst::encode`, analysed, and every branch's immediate post-dominator compared with the
//! one worked out by hand (in the comments). Each test also checks the set of branches, so a
//! missing or extra entry fails.

mod common;

use common::*;
use weft_isa::Op;
use weft_reconv::{Reconv, Symbol};

const BASE: u32 = 0x8000_0000;

/// The table as (branch label address, reconv) pairs must equal `expected`.
fn check(p: &Prog, a: &weft_reconv::Analysis, expected: &[(&str, Option<Reconv>)]) {
    let got: Vec<(u32, Reconv)> = a.table.iter().collect();
    let want: Vec<(u32, Reconv)> = expected
        .iter()
        .map(|(l, r)| (p.addr(l), r.expect("expected reconv")))
        .collect();
    assert_eq!(got, want, "\n{}", a.dump());
}

#[test]
fn if_else_diamond() {
    let mut p = Prog::new(BASE);
    p.label("b").br(Op::Beq, A0, ZERO, "else");
    p.addi(A1, A1, 1).j("join");
    p.label("else").addi(A1, A1, 2);
    p.label("join").inst(weft_isa::Inst {
        rd: A2,
        rs1: A1,
        rs2: A1,
        ..weft_isa::Inst::new(Op::Add)
    });
    p.ret();
    let a = p.analyze_fn();
    check(&p, &a, &[("b", at(&p, "join"))]);
    assert_eq!(a.functions[0].blocks, 4);
}

#[test]
fn if_without_else() {
    let mut p = Prog::new(BASE);
    p.label("b").br(Op::Bne, A0, ZERO, "skip");
    p.addi(A1, A1, 1).addi(A1, A1, 1);
    p.label("skip").ret();
    let a = p.analyze_fn();
    check(&p, &a, &[("b", at(&p, "skip"))]);
}

#[test]
fn loop_with_divergent_exit_branch() {
    // for (i = 0; i < n; i++) …: the back edge's ipdom is the loop exit.
    let mut p = Prog::new(BASE);
    p.addi(T0, ZERO, 0);
    p.label("loop").addi(T0, T0, 1).lw(T1, A1, 0);
    p.label("b").br(Op::Blt, T0, A0, "loop");
    p.label("after").addi(A0, T1, 0).ret();
    let a = p.analyze_fn();
    check(&p, &a, &[("b", at(&p, "after"))]);
}

#[test]
fn while_with_and_chain_and_break() {
    // while (i < n && a[i] != 0) { if (x) break; i++; } — three branches, one ipdom.
    let mut p = Prog::new(BASE);
    p.label("loop").label("c1").br(Op::Bge, T0, A0, "out");
    p.lw(T1, T2, 0);
    p.label("c2").br(Op::Beq, T1, ZERO, "out");
    p.label("brk").br(Op::Bne, T3, ZERO, "out");
    p.addi(T0, T0, 1).addi(T2, T2, 4).j("loop");
    p.label("out").addi(A0, T0, 0).ret();
    let a = p.analyze_fn();
    let out = at(&p, "out");
    check(&p, &a, &[("c1", out), ("c2", out), ("brk", out)]);
}

#[test]
fn or_chain_shares_one_ipdom() {
    // if (a || b) x++; y: both tests reconverge at y.
    let mut p = Prog::new(BASE);
    p.label("c1").br(Op::Bne, A0, ZERO, "then");
    p.label("c2").br(Op::Beq, A1, ZERO, "join");
    p.label("then").addi(A2, A2, 1);
    p.label("join").ret();
    let a = p.analyze_fn();
    check(&p, &a, &[("c1", at(&p, "join")), ("c2", at(&p, "join"))]);
}

#[test]
fn nested_if_inside_loop() {
    let mut p = Prog::new(BASE);
    p.label("loop").inst(weft_isa::Inst {
        rd: T1,
        rs1: T0,
        imm: 1,
        ..weft_isa::Inst::new(Op::Andi)
    });
    p.label("inner").br(Op::Beq, T1, ZERO, "skip");
    p.addi(A1, A1, 1);
    p.label("skip").addi(T0, T0, 1);
    p.label("back").br(Op::Blt, T0, A0, "loop");
    p.label("out").ret();
    let a = p.analyze_fn();
    check(
        &p,
        &a,
        &[("inner", at(&p, "skip")), ("back", at(&p, "out"))],
    );
}

#[test]
fn both_sides_return_reconverge_at_exit() {
    let mut p = Prog::new(BASE);
    p.label("b").br(Op::Beq, A0, ZERO, "two");
    p.addi(A0, ZERO, 1).ret();
    p.label("two").addi(A0, ZERO, 2).ret();
    let a = p.analyze_fn();
    check(&p, &a, &[("b", Some(Reconv::AtExit))]);
}

#[test]
fn call_in_one_arm_does_not_split_the_function() {
    // jal ra, g and jalr ra, 0(t0) are calls: control comes back to the next instruction.
    let mut p = Prog::new(BASE);
    p.label("b").br(Op::Beq, A0, ZERO, "skip");
    p.call_abs(BASE + 0x100).addi(A1, A0, 0);
    p.jalr(RA, T0).addi(A1, A1, 1);
    p.label("skip").ret();
    let a = p.analyze_fn();
    check(&p, &a, &[("b", at(&p, "skip"))]);
    // The calls do not end blocks: [b], [call … addi], [skip].
    assert_eq!(a.functions[0].blocks, 3);
}

#[test]
fn recursive_call_is_a_call_not_a_loop() {
    let mut p = Prog::new(BASE);
    p.label("f").label("b").br(Op::Beq, A0, ZERO, "done");
    p.addi(A0, A0, -1).call("f");
    p.label("done").ret();
    let a = p.analyze_fn();
    check(&p, &a, &[("b", at(&p, "done"))]);
}

#[test]
fn tail_call_is_a_function_exit() {
    // f: if (a0) return g(); else { …; return g(); } (the else arm falls into g) — `j g`
    // leaves f, so the branch reconverges at exit. Analysed as one function over the whole
    // region, the same jump stays inside and the branch reconverges at g.
    let mut p = Prog::new(BASE);
    p.label("f").label("b").br(Op::Beq, A0, ZERO, "else");
    p.j_abs(BASE + 0x10);
    p.label("else").addi(A1, A1, 1).nop();
    p.label("g").addi(A0, A0, 1).ret();
    let a = p.analyze(&[
        Symbol::new("f", BASE, 0x10),
        Symbol::new("g", BASE + 0x10, 8),
    ]);
    check(&p, &a, &[("b", Some(Reconv::AtExit))]);
    assert_eq!(a.functions.len(), 2);

    let a = p.analyze(&[]);
    assert_eq!(reconv_of(&p, &a, "b"), at(&p, "g"), "{}", a.dump());
}

#[test]
fn infinite_loop_still_gets_reconvergence_points() {
    // No path reaches an exit. The loop's latch gets a virtual exit edge, so the branch
    // before the loop reconverges at the loop head and the one inside at its join.
    let mut p = Prog::new(BASE);
    p.label("b0").br(Op::Beq, A0, ZERO, "loop");
    p.addi(A1, A1, 1);
    p.label("loop").label("b1").br(Op::Bne, A2, ZERO, "skip");
    p.addi(A1, A1, 1);
    p.label("skip").addi(A2, A2, -1).j("loop");
    let a = p.analyze_fn();
    check(&p, &a, &[("b0", at(&p, "loop")), ("b1", at(&p, "skip"))]);
    assert_eq!(a.functions[0].virtual_exits, 1);
}

#[test]
fn self_loop_spin_beside_a_return() {
    // if (a0) for (;;); else return; — the spin is connected to the exit, so the branch
    // reconverges at exit.
    let mut p = Prog::new(BASE);
    p.label("b").br(Op::Bne, A0, ZERO, "spin");
    p.ret();
    p.label("spin").j("spin");
    let a = p.analyze_fn();
    check(&p, &a, &[("b", Some(Reconv::AtExit))]);
    assert_eq!(a.functions[0].virtual_exits, 1);
}

#[test]
fn symbol_without_size_extends_to_next_symbol() {
    // f (size 0) ends where g starts, so `j g` is a tail call and the branch to g leaves f:
    // ipdom = exit. Were f to run to the region end, the ipdom would be g.
    let mut p = Prog::new(BASE);
    p.label("f").label("b").br(Op::Beq, A0, ZERO, "g");
    p.addi(A1, A1, 1).j("g");
    p.label("g").label("gb").br(Op::Blt, A0, A1, "gend");
    p.addi(A0, A0, 1);
    p.label("gend").ret();
    let a = p.analyze(&[Symbol::new("g", p.addr("g"), 0), Symbol::new("f", BASE, 0)]);
    check(
        &p,
        &a,
        &[("b", Some(Reconv::AtExit)), ("gb", at(&p, "gend"))],
    );
    let names: Vec<(&str, u32, u32)> = a
        .functions
        .iter()
        .map(|f| (f.name.as_str(), f.start, f.end))
        .collect();
    assert_eq!(
        names,
        vec![("f", BASE, p.addr("g")), ("g", p.addr("g"), p.here())]
    );
}

#[test]
fn code_outside_sized_symbols_becomes_anonymous_functions() {
    let mut p = Prog::new(BASE);
    p.label("pre").br(Op::Beq, A0, ZERO, "x"); // before any symbol
    p.label("x").nop();
    p.label("f").label("fb").br(Op::Beq, A0, ZERO, "fend");
    p.nop();
    p.label("fend").ret();
    p.label("gap").br(Op::Bne, A0, ZERO, "gapend"); // after f's size
    p.nop();
    p.label("gapend").ret();
    let a = p.analyze(&[Symbol::new("f", p.addr("f"), 12)]);
    check(
        &p,
        &a,
        &[
            ("pre", at(&p, "x")),
            ("fb", at(&p, "fend")),
            ("gap", at(&p, "gapend")),
        ],
    );
    let names: Vec<&str> = a.functions.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, vec!["<0x80000000>", "f", "<0x80000014>"]);
}

#[test]
fn unknown_words_are_exits() {
    // The fall-through path runs into an undecodable word (and a compressed one): exits,
    // so the branch reconverges at exit rather than at `l`.
    let mut p = Prog::new(BASE);
    p.label("b").br(Op::Beq, A0, ZERO, "l");
    p.word(0xffff_ffff);
    p.label("l").ret();
    let a = p.analyze_fn();
    check(&p, &a, &[("b", Some(Reconv::AtExit))]);

    let mut p = Prog::new(BASE);
    p.label("b").br(Op::Beq, A0, ZERO, "l");
    p.word(0x0000_4501); // c.li a0, 0 in the low half
    p.label("l").ret();
    let a = p.analyze_fn();
    check(&p, &a, &[("b", Some(Reconv::AtExit))]);
}

#[test]
fn halts_and_traps_are_exits_but_wfi_continues() {
    use weft_isa::csr::TMASK;
    let halts = [
        weft_isa::Inst::new(Op::VxTmc),
        weft_isa::Inst {
            imm: TMASK as i32,
            ..weft_isa::Inst::new(Op::Csrrw)
        },
        weft_isa::Inst {
            imm: TMASK as i32,
            ..weft_isa::Inst::new(Op::Csrrwi)
        },
        weft_isa::Inst::new(Op::Ecall),
        weft_isa::Inst::new(Op::Ebreak),
        weft_isa::Inst::new(Op::Mret),
    ];
    for h in halts {
        let mut p = Prog::new(BASE);
        p.label("b").br(Op::Beq, A0, ZERO, "l");
        p.inst(h);
        p.label("l").ret();
        let a = p.analyze_fn();
        check(&p, &a, &[("b", Some(Reconv::AtExit))]);
    }
    // Not halts: tmc with a register, csrw tmask from a register, wfi.
    let goes_on = [
        weft_isa::Inst {
            rs1: A0,
            ..weft_isa::Inst::new(Op::VxTmc)
        },
        weft_isa::Inst {
            rs1: A0,
            imm: TMASK as i32,
            ..weft_isa::Inst::new(Op::Csrrw)
        },
        weft_isa::Inst::new(Op::Wfi),
    ];
    for h in goes_on {
        let mut p = Prog::new(BASE);
        p.label("b").br(Op::Beq, A0, ZERO, "l");
        p.inst(h);
        p.label("l").ret();
        let a = p.analyze_fn();
        check(&p, &a, &[("b", at(&p, "l"))]);
    }
}

#[test]
fn indirect_jump_is_an_exit() {
    let mut p = Prog::new(BASE);
    p.label("b").br(Op::Beq, A0, ZERO, "l");
    p.jalr(ZERO, T0);
    p.label("l").ret();
    let a = p.analyze_fn();
    check(&p, &a, &[("b", Some(Reconv::AtExit))]);
}

#[test]
fn diverge_has_both_paths() {
    let mut p = Prog::new(BASE);
    p.label("d").diverge(A0, "wait");
    p.addi(A1, A1, 1).j("join");
    p.label("wait").addi(A1, A1, 2);
    p.label("join").converge("d").ret();
    let a = p.analyze_fn();
    check(&p, &a, &[("d", at(&p, "join"))]);
}

#[test]
fn branch_out_of_function_and_to_next_instruction() {
    // A conditional branch to another function is an exit edge; one to pc+4 reconverges
    // there.
    let mut p = Prog::new(BASE);
    p.label("b1").br(Op::Beq, A0, ZERO, "next");
    p.label("next").nop();
    p.label("b2").br(Op::Beq, A0, ZERO, "other");
    p.nop();
    p.ret();
    p.label("other").ret();
    let a = p.analyze(&[
        Symbol::new("f", BASE, 0),
        Symbol::new("other", p.addr("other"), 4),
    ]);
    check(
        &p,
        &a,
        &[("b1", at(&p, "next")), ("b2", Some(Reconv::AtExit))],
    );
}

#[test]
fn falling_off_the_function_end_is_an_exit() {
    let mut p = Prog::new(BASE);
    p.label("b").br(Op::Beq, A0, ZERO, "last");
    p.ret();
    p.label("last").nop(); // falls off the end of f into g
    p.label("g").ret();
    let a = p.analyze(&[Symbol::new("f", BASE, 12), Symbol::new("g", p.addr("g"), 4)]);
    check(&p, &a, &[("b", Some(Reconv::AtExit))]);
}

#[test]
fn no_symbols_one_function_per_region() {
    let mut p = Prog::new(BASE);
    p.label("b").br(Op::Beq, A0, ZERO, "l");
    p.nop();
    p.label("l").ret();
    let mut q = Prog::new(BASE + 0x1000);
    q.label("b").br(Op::Bne, A0, ZERO, "l");
    q.nop();
    q.label("l").ret();
    let (pb, qb) = (p.bytes(), q.bytes());
    let a = weft_reconv::analyze(
        &[
            weft_reconv::CodeRegion {
                base: BASE + 0x1000,
                bytes: &qb,
            },
            weft_reconv::CodeRegion {
                base: BASE,
                bytes: &pb,
            },
        ],
        &[],
    )
    .expect("analysis");
    assert_eq!(a.functions.len(), 2);
    assert_eq!(a.table.get(p.addr("b")), at(&p, "l"));
    assert_eq!(a.table.get(q.addr("b")), at(&q, "l"));
    assert_eq!(
        a.function_at(q.addr("l")).map(|f| f.start),
        Some(BASE + 0x1000)
    );
}

#[test]
fn bad_regions_and_symbols() {
    use weft_reconv::{analyze, AnalysisError, CodeRegion, Warning};
    let code = [0x13u8, 0, 0, 0, 0x13, 0, 0, 0, 0xaa];
    assert_eq!(
        analyze(
            &[CodeRegion {
                base: 1,
                bytes: &code
            }],
            &[]
        ),
        Err(AnalysisError::MisalignedRegion { base: 1 })
    );
    assert!(matches!(
        analyze(
            &[CodeRegion {
                base: 0xFFFF_FFFC,
                bytes: &code
            }],
            &[]
        ),
        Err(AnalysisError::RegionOverflow { .. })
    ));
    assert_eq!(
        analyze(
            &[
                CodeRegion {
                    base: 0,
                    bytes: &code
                },
                CodeRegion {
                    base: 4,
                    bytes: &code
                }
            ],
            &[]
        ),
        Err(AnalysisError::OverlappingRegions {
            first: 0,
            second: 4
        })
    );
    let a = analyze(
        &[CodeRegion {
            base: 0,
            bytes: &code,
        }],
        &[Symbol::new("data", 0x100, 4), Symbol::new("odd", 3, 0)],
    )
    .expect("analysis");
    assert_eq!(
        a.warnings,
        vec![
            Warning::TrailingBytes { base: 0, count: 1 },
            Warning::SymbolOutsideCode {
                name: "data".into(),
                addr: 0x100
            },
            Warning::MisalignedSymbol {
                name: "odd".into(),
                addr: 3
            },
        ]
    );
    assert_eq!(a.functions.len(), 1);
    assert_eq!(a.functions[0].end, 8);
}

#[test]
fn dump_format() {
    let mut p = Prog::new(BASE);
    p.label("b").br(Op::Beq, A0, ZERO, "two");
    p.addi(A0, ZERO, 1).ret();
    p.label("two").label("c").br(Op::Bne, A1, ZERO, "end");
    p.nop();
    p.label("end").ret();
    let a = p.analyze(&[Symbol::new("main", BASE, 0)]);
    let want = "\
0x80000000  beq a0, zero, 0x8000000c      -> exit        (main+0x0)
0x8000000c  bne a1, zero, 0x80000014      -> 0x80000014  (main+0xc)
";
    assert_eq!(a.dump(), want);
}

#[test]
fn large_function_with_infinite_outer_loop() {
    // 20,000 if-without-else inside a `for (;;)`: deep graphs must not overflow the stack,
    // and every branch reconverges at the instruction after its skipped one.
    let n = 20_000u32;
    let mut words = Vec::new();
    for _ in 0..n {
        words.push(
            weft_isa::Inst {
                rs1: A0,
                imm: 8,
                ..weft_isa::Inst::new(Op::Beq)
            }
            .encode()
            .expect("beq"),
        );
        words.push(0x0000_0013); // nop
    }
    let back = -(8 * n as i32);
    words.push(
        weft_isa::Inst {
            imm: back,
            ..weft_isa::Inst::new(Op::Jal)
        }
        .encode()
        .expect("jal"),
    );
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let a = weft_reconv::analyze(
        &[weft_reconv::CodeRegion {
            base: BASE,
            bytes: &bytes,
        }],
        &[],
    )
    .expect("analysis");
    assert_eq!(a.table.len(), n as usize);
    for k in 0..n {
        let pc = BASE + 8 * k;
        assert_eq!(a.table.get(pc), Some(Reconv::At(pc + 8)));
    }
    assert_eq!(a.functions[0].virtual_exits, 1);
}

#[test]
fn a_call_that_falls_off_the_end_does_not_return() {
    // b: if (a0) panic();  -- the panic call is the function's last instruction
    //    ...; ret
    // The panic arm never comes back, so b reconverges at its other arm, not at the exit.
    let mut p = Prog::new(BASE);
    p.label("b").br(Op::Bne, A0, ZERO, "panic");
    p.label("go").nop();
    p.ret();
    p.label("panic").call("panic_fn");
    p.label("g").label("panic_fn").ret();
    let a = p.analyze(&[
        Symbol::new("f", BASE, 16),
        Symbol::new("panic_fn", p.addr("g"), 4),
    ]);
    check(&p, &a, &[("b", at(&p, "go"))]);
}
