//! OpenCL C in weft cc: the device library defines every built-in function OpenCL C 1.2
//! declares (clang's own opencl-c.h is the list; images, which the device does not have, left
//! out), and a kernel source builds into an ELF whose `.weft.opencl` section describes its
//! kernels' arguments as the launch wrappers read them. (Running kernels is
//! crates/opencl/tests' work.)

use std::collections::BTreeSet;
use std::process::Command;
use weft_cc::opencl::meta::{ArgKind, ProgramInfo};

/// The mangled names of the functions clang's opencl-c.h declares for OpenCL C 1.2 on
/// riscv32 with the device's extensions (clang's JSON AST of an empty source).
fn declared() -> BTreeSet<String> {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.cl");
    std::fs::write(&empty, "\n").unwrap();
    let res = Command::new("clang")
        .arg("-print-resource-dir")
        .output()
        .expect("clang runs (apt-get install clang)");
    let header = format!(
        "{}/include/opencl-c.h",
        String::from_utf8_lossy(&res.stdout).trim()
    );
    let ext: Vec<String> = weft_cc::opencl::EXTENSIONS
        .iter()
        .map(|e| format!("+{e}"))
        .collect();
    let out = Command::new("clang")
        .args([
            "-x",
            "cl",
            "-cl-std=CL1.2",
            "--target=riscv32-unknown-elf",
            "-march=rv32imaf",
            "-mabi=ilp32f",
            "-Xclang",
            "-ffake-address-space-map",
            "-Xclang",
        ])
        .arg(format!("-cl-ext={}", ext.join(",")))
        .arg("-include")
        .arg(&header)
        .args(["-fsyntax-only", "-Xclang", "-ast-dump=json"])
        .arg(&empty)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let ast: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut names = BTreeSet::new();
    for d in ast["inner"].as_array().unwrap() {
        if d["kind"] != "FunctionDecl" || d["isImplicit"] == true {
            continue;
        }
        let name = d["name"].as_str().unwrap_or("");
        let images = ["read_image", "write_image", "get_image"];
        if images.iter().any(|p| name.starts_with(p)) || name == "printf" {
            continue;
        }
        if let Some(m) = d["mangledName"].as_str() {
            names.insert(m.to_string());
        }
    }
    names
}

#[test]
fn the_library_defines_every_builtin_opencl_c_1_2_declares() {
    let declared = declared();
    assert!(declared.len() > 7000, "{} declarations", declared.len());
    let defined = weft_cc::opencl::library_symbols().unwrap();
    let missing: Vec<&String> = declared.iter().filter(|m| !defined.contains(*m)).collect();
    assert!(
        missing.is_empty(),
        "{} built-ins the library lacks, e.g. {:?}",
        missing.len(),
        &missing[..missing.len().min(20)]
    );
}

#[test]
fn a_kernel_source_builds_with_its_argument_layout() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("k.cl");
    std::fs::write(
        &src,
        "typedef struct { float a; char b; } s_t;\n\
         __kernel void k(__global float *out, __constant int *c, __local float4 *tmp,\n\
                         float x, s_t s, int3 v, long l) {\n\
           __local int shared[64];\n\
           shared[get_local_id(0)] = c[0];\n\
           barrier(CLK_LOCAL_MEM_FENCE);\n\
           tmp[0] = (float4)(x);\n\
           out[get_global_id(0)] = shared[0] + s.a + v.y + l + tmp[0].x;\n\
         }\n\
         __kernel __attribute__((reqd_work_group_size(64, 1, 1))) void two(__global int *p) {\n\
           p[get_global_id(0)] = (int)get_global_id(0);\n\
         }\n",
    )
    .unwrap();
    for opt in ["-O0", "-O2"] {
        let out = dir.path().join(format!("k{opt}.elf"));
        let o = weft_cc::Options {
            inputs: vec![src.clone()],
            output: out.clone(),
            opt: opt.into(),
            cl_options: vec!["-cl-std=CL1.2".into()],
            ..weft_cc::Options::default()
        };
        weft_cc::build(&o).unwrap_or_else(|e| panic!("{opt}: {e}"));
        let info = ProgramInfo::from_elf(&std::fs::read(&out).unwrap())
            .unwrap()
            .expect("an OpenCL program");
        assert_eq!(info.kernels.len(), 2);
        assert_eq!(info.local_bytes, 256, "__local int shared[64]");
        let k = info.kernel("k").unwrap();
        let got: Vec<(ArgKind, &str, u32, u32)> = k
            .args
            .iter()
            .map(|a| (a.kind, a.name.as_str(), a.offset, a.size))
            .collect();
        assert_eq!(
            got,
            vec![
                (ArgKind::Global, "out", 16, 4),
                (ArgKind::Constant, "c", 20, 4),
                (ArgKind::Local, "tmp", 24, 4),
                (ArgKind::Value, "x", 28, 4),
                (ArgKind::Value, "s", 32, 8),
                (ArgKind::Value, "v", 48, 16),
                (ArgKind::Value, "l", 64, 8),
            ],
            "{opt}"
        );
        assert_eq!(k.args[5].type_name, "int3");
        assert_eq!(
            info.kernel("two").unwrap().reqd_work_group_size,
            Some([64, 1, 1])
        );
    }
}

#[test]
fn a_build_error_is_clangs_and_bad_options_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("bad.cl");
    std::fs::write(&src, "__kernel void k(__global int *p) { p[0] = nope; }\n").unwrap();
    let o = weft_cc::Options {
        inputs: vec![src],
        output: dir.path().join("bad.elf"),
        ..weft_cc::Options::default()
    };
    let e = weft_cc::build(&o).unwrap_err().to_string();
    assert!(e.contains("nope") && e.contains("error"), "{e}");
    let e = weft_cc::opencl::parse_build_options("-cl-std=CL2.0").unwrap_err();
    assert!(e.contains("CL2.0"), "{e}");
}
