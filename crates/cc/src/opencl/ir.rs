//! The rewrite of one OpenCL C unit's LLVM IR (clang's textual output, before any LLVM pass)
//! into a module weft can run:
//!
//! - every kernel (`spir_kernel`, a calling convention the RISC-V backend does not have) becomes
//!   an ordinary function, and gets a **launch wrapper** `__weft_clk_NAME(i8* args)` in weft's
//!   kernel convention: it calls `__weft_cl_enter` (the device library), reads each argument
//!   from the argument block the host wrote (a 16-byte header, then the arguments at the
//!   offsets [`KernelInfo`] records), gives each `__local` pointer argument its bytes of the
//!   block's shared memory, and calls the kernel;
//! - variables declared `__local` inside a kernel (address space 3 globals) become
//!   thread-local variables: compiled position-independent, each access asks
//!   `__tls_get_addr`, which the device library answers with the variable's place in the
//!   block's shared memory; they are made externally visible so that the optimiser treats a
//!   call to `barrier()` as something that may read and write them;
//! - `printf` calls go to the library's OpenCL printf (`__weft_cl_printf`), which knows
//!   OpenCL's conversions (vectors, 64-bit `l`, unpromoted floats).
//!
//! The parser reads only what clang 14 writes: typed pointers, one definition per line.

use super::meta::{ArgInfo, ArgKind, KernelInfo};
use std::collections::HashMap;

/// The size of the argument block's header: work_dim and the three global offsets.
pub const HEADER_BYTES: u32 = 16;

/// An LLVM type, as far as kernel arguments need.
#[derive(Clone, Debug, PartialEq)]
enum Ty {
    Int(u32),
    Half,
    Float,
    Double,
    Ptr(u32),
    Vec(u32, Box<Ty>),
    Arr(u32, Box<Ty>),
    Struct(Vec<Ty>, bool),
    Named(String),
}

/// Named struct types of the module.
type Types = HashMap<String, Ty>;

/// Split off the type at the start of `s`; the rest is trimmed.
fn parse_type(s: &str) -> Result<(Ty, &str), String> {
    let s = s.trim_start();
    let (mut ty, mut rest) = if let Some(r) = s.strip_prefix("<{") {
        let (fields, r) = parse_fields(r, "}>")?;
        (Ty::Struct(fields, true), r)
    } else if let Some(r) = s.strip_prefix('{') {
        let (fields, r) = parse_fields(r, "}")?;
        (Ty::Struct(fields, false), r)
    } else if let Some(r) = s.strip_prefix('<') {
        let (n, r) = count_x(r)?;
        let (elem, r) = parse_type(r)?;
        let r = r.strip_prefix('>').ok_or("expected '>'")?;
        (Ty::Vec(n, Box::new(elem)), r)
    } else if let Some(r) = s.strip_prefix('[') {
        let (n, r) = count_x(r)?;
        let (elem, r) = parse_type(r)?;
        let r = r.strip_prefix(']').ok_or("expected ']'")?;
        (Ty::Arr(n, Box::new(elem)), r)
    } else if let Some(r) = s.strip_prefix('%') {
        let end = name_end(r);
        (Ty::Named(r[..end].to_string()), &r[end..])
    } else {
        let end = s
            .find(|c: char| !c.is_ascii_alphanumeric())
            .unwrap_or(s.len());
        let word = &s[..end];
        let t = match word {
            "half" => Ty::Half,
            "float" => Ty::Float,
            "double" => Ty::Double,
            w if w.starts_with('i') && w[1..].parse::<u32>().is_ok() => {
                Ty::Int(w[1..].parse().unwrap_or(32))
            }
            _ => return Err(format!("unknown type at '{}'", short(s))),
        };
        (t, &s[end..])
    };
    loop {
        let r = rest.trim_start();
        if let Some(r2) = r.strip_prefix("addrspace(") {
            let close = r2.find(')').ok_or("expected ')'")?;
            let space: u32 = r2[..close].parse().map_err(|_| "bad address space")?;
            let r3 = r2[close + 1..].trim_start();
            let r3 = r3.strip_prefix('*').ok_or("expected '*'")?;
            ty = Ty::Ptr(space);
            rest = r3;
        } else if let Some(r2) = r.strip_prefix('*') {
            ty = Ty::Ptr(0);
            rest = r2;
        } else {
            return Ok((ty, r));
        }
    }
}

/// `N x ` at the start of a vector or array type.
fn count_x(s: &str) -> Result<(u32, &str), String> {
    let s = s.trim_start();
    let end = s.find(' ').ok_or("expected 'N x'")?;
    let n: u32 = s[..end]
        .parse()
        .map_err(|_| format!("bad count '{}'", &s[..end]))?;
    let r = s[end..].trim_start();
    let r = r.strip_prefix('x').ok_or("expected 'x'")?;
    Ok((n, r))
}

fn parse_fields<'a>(mut s: &'a str, close: &str) -> Result<(Vec<Ty>, &'a str), String> {
    let mut fields = Vec::new();
    loop {
        s = s.trim_start();
        if let Some(r) = s.strip_prefix(close) {
            return Ok((fields, r));
        }
        let (t, r) = parse_type(s)?;
        fields.push(t);
        s = r.trim_start();
        if let Some(r) = s.strip_prefix(',') {
            s = r;
        }
    }
}

/// The end of an LLVM identifier (after `%` or `@`).
fn name_end(s: &str) -> usize {
    s.find(|c: char| !(c.is_ascii_alphanumeric() || "._$-".contains(c)))
        .unwrap_or(s.len())
}

fn short(s: &str) -> &str {
    &s[..s.len().min(40)]
}

/// Size and alignment in bytes under riscv32's data layout (`e-m:e-p:32:32-i64:64-n32-S128`).
fn layout(t: &Ty, types: &Types) -> Result<(u32, u32), String> {
    Ok(match t {
        Ty::Int(b) => {
            let n = b.div_ceil(8).next_power_of_two();
            (n, n.min(8))
        }
        Ty::Half => (2, 2),
        Ty::Float => (4, 4),
        Ty::Double => (8, 8),
        Ty::Ptr(_) => (4, 4),
        Ty::Vec(n, e) => {
            let (es, _) = layout(e, types)?;
            let size = (n * es).next_power_of_two();
            (size, size)
        }
        Ty::Arr(n, e) => {
            let (es, ea) = layout(e, types)?;
            (n * es, ea)
        }
        Ty::Struct(fields, packed) => {
            let (mut off, mut align) = (0u32, 1u32);
            for f in fields {
                let (fs, fa) = layout(f, types)?;
                let fa = if *packed { 1 } else { fa };
                off = off.next_multiple_of(fa) + fs;
                align = align.max(fa);
            }
            (off.next_multiple_of(align), align)
        }
        Ty::Named(n) => match types.get(n) {
            Some(t) => layout(t, types)?,
            None => return Err(format!("type %{n} is opaque (an image or sampler?)")),
        },
    })
}

/// One parameter of a kernel's definition.
struct Param {
    ty: Ty,
    /// The parameter's text without its name (type and attributes), as the call repeats it.
    text: String,
    byval: bool,
    /// `align N` among its attributes.
    align: Option<u32>,
}

/// Split a parameter list at its top-level commas.
fn split_params(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, 0usize);
    for (i, c) in s.char_indices() {
        match c {
            '(' | '[' | '{' | '<' => depth += 1,
            ')' | ']' | '}' | '>' => depth -= 1,
            ',' if depth == 0 => {
                out.push(s[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    if !s[start..].trim().is_empty() {
        out.push(s[start..].trim());
    }
    out
}

fn parse_param(p: &str) -> Result<Param, String> {
    let (ty, _) = parse_type(p)?;
    // the name is the last word, if it is a local (clang may leave names out)
    let text = match p.rsplit_once(' ') {
        Some((head, last)) if last.starts_with('%') && !last.contains('(') => head,
        _ => p,
    };
    let align = text
        .split_whitespace()
        .collect::<Vec<_>>()
        .windows(2)
        .find(|w| w[0] == "align")
        .and_then(|w| w[1].parse().ok());
    Ok(Param {
        ty,
        byval: text.contains("byval("),
        text: text.to_string(),
        align,
    })
}

/// Metadata nodes `!N = !{...}`: their elements as strings and integers.
fn metadata(ir: &str) -> HashMap<String, Vec<String>> {
    let mut m = HashMap::new();
    for line in ir.lines() {
        let Some(rest) = line.strip_prefix('!') else {
            continue;
        };
        let Some((id, body)) = rest.split_once(" = !{") else {
            continue;
        };
        if !id.chars().all(|c| c.is_ascii_digit()) {
            continue;
        }
        let body = body.trim_end().trim_end_matches('}');
        let items = split_params(body)
            .into_iter()
            .map(|it| {
                if let Some(s) = it.strip_prefix("!\"") {
                    s.trim_end_matches('"').to_string()
                } else {
                    it.rsplit(' ').next().unwrap_or("").to_string()
                }
            })
            .collect();
        m.insert(id.to_string(), items);
    }
    m
}

/// `!name !N` attached to a definition line: node N's elements.
fn attached<'a>(
    line: &str,
    name: &str,
    md: &'a HashMap<String, Vec<String>>,
) -> Option<&'a [String]> {
    let key = format!("!{name} !");
    let at = line.find(&key)? + key.len();
    let id: String = line[at..]
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    md.get(&id).map(|v| v.as_slice())
}

/// The rewritten module and what it holds.
pub struct Rewritten {
    pub ir: String,
    pub kernels: Vec<KernelInfo>,
}

/// The wrapper's name for kernel `name`.
pub fn wrapper_name(name: &str) -> String {
    format!("__weft_clk_{name}")
}

/// Rewrite clang's IR of one OpenCL C unit (see the module comment).
pub fn rewrite(ir: &str) -> Result<Rewritten, String> {
    let md = metadata(ir);
    let mut types = Types::new();
    for line in ir.lines() {
        if let Some(rest) = line.strip_prefix('%') {
            if let Some((name, def)) = rest.split_once(" = type ") {
                if def.trim() != "opaque" {
                    let (t, _) = parse_type(def).map_err(|e| format!("%{name}: {e}"))?;
                    types.insert(name.to_string(), t);
                }
            }
        }
    }
    let mut out = String::with_capacity(ir.len() + 4096);
    let mut kernels = Vec::new();
    let mut wrappers = String::new();
    let mut max_attr = 0u32;
    for line in ir.lines() {
        if let Some(rest) = line.strip_prefix("attributes #") {
            let n: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
            max_attr = max_attr.max(n.parse().unwrap_or(0));
        }
    }
    let attr = max_attr + 1;
    for line in ir.lines() {
        let mut l = line.replace(" spir_kernel ", " ");
        l = l.replace("@printf(", "@__weft_cl_printf(");
        if line.starts_with("define ") && line.contains(" spir_kernel ") {
            let k = kernel(line, &md, &types)?;
            wrappers += &wrapper(&k.0, &k.1, attr);
            kernels.push(k.0);
        } else if line.starts_with('@') && line.contains(" addrspace(3) global ") {
            l = local_to_tls(&l);
        }
        out.push_str(&l);
        out.push('\n');
    }
    if !kernels.is_empty() {
        out.push_str(&wrappers);
        out.push_str("declare i8* @__weft_cl_enter(i8*)\n");
        out.push_str("declare i8* @__weft_cl_local(i32)\n");
        out.push_str(&format!("attributes #{attr} = {{ nounwind }}\n"));
    }
    Ok(Rewritten { ir: out, kernels })
}

/// `@k.tile = internal unnamed_addr addrspace(3) global [...] undef` → externally visible
/// (hidden) and thread-local.
fn local_to_tls(line: &str) -> String {
    let Some((name, def)) = line.split_once(" = ") else {
        return line.to_string();
    };
    let mut words: Vec<&str> = def.split(' ').collect();
    words.retain(|w| !matches!(*w, "internal" | "private" | "dso_local"));
    let mut s = format!("{name} = hidden thread_local ");
    s.push_str(&words.join(" "));
    s
}

/// A kernel's definition line: its [`KernelInfo`] and parameters.
fn kernel(
    line: &str,
    md: &HashMap<String, Vec<String>>,
    types: &Types,
) -> Result<(KernelInfo, Vec<Param>), String> {
    let at = line.find(" @").ok_or("a kernel without a name")? + 2;
    let name_len = name_end(&line[at..]);
    let name = line[at..at + name_len].to_string();
    let open = at + name_len;
    let bytes = line.as_bytes();
    if bytes.get(open) != Some(&b'(') {
        return Err(format!("kernel {name}: cannot read its parameters"));
    }
    let mut depth = 0;
    let mut close = open;
    for (i, &b) in bytes.iter().enumerate().skip(open) {
        match b {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    close = i;
                    break;
                }
            }
            _ => {}
        }
    }
    let params: Vec<Param> = split_params(&line[open + 1..close])
        .into_iter()
        .map(parse_param)
        .collect::<Result<_, _>>()
        .map_err(|e| format!("kernel {name}: {e}"))?;
    let tail = &line[close..];
    let list = |key: &str| -> Vec<String> {
        attached(tail, key, md)
            .map(|v| v.to_vec())
            .unwrap_or_default()
    };
    let spaces = list("kernel_arg_addr_space");
    let access = list("kernel_arg_access_qual");
    let tnames = list("kernel_arg_type");
    let quals = list("kernel_arg_type_qual");
    let names = list("kernel_arg_name");
    let mut args = Vec::new();
    let mut off = HEADER_BYTES;
    for (i, p) in params.iter().enumerate() {
        let space: u32 = spaces.get(i).and_then(|s| s.parse().ok()).unwrap_or(0);
        let tname = tnames.get(i).cloned().unwrap_or_default();
        let (kind, size, align) = match (space, &p.ty) {
            (3, Ty::Ptr(_)) => (ArgKind::Local, 4, 4),
            (1, Ty::Ptr(_)) => (ArgKind::Global, 4, 4),
            (2, Ty::Ptr(_)) => (ArgKind::Constant, 4, 4),
            (_, Ty::Ptr(_)) if p.byval => {
                let Some(Ty::Named(sname)) = byval_type(&p.text) else {
                    return Err(format!(
                        "kernel {name}: argument {i} ({tname}): unknown by-value type"
                    ));
                };
                let (s, a) = layout(&Ty::Named(sname), types)
                    .map_err(|e| format!("kernel {name}: argument {i} ({tname}): {e}"))?;
                (ArgKind::Value, s, p.align.unwrap_or(a).max(a))
            }
            (_, Ty::Ptr(_)) => {
                return Err(format!(
                    "kernel {name}: argument {i} ({tname}) is not supported (images, samplers \
                     and pipes are not: the device has none)"
                ))
            }
            (_, t) => {
                let (s, a) =
                    layout(t, types).map_err(|e| format!("kernel {name}: argument {i}: {e}"))?;
                (ArgKind::Value, s, a)
            }
        };
        off = off.next_multiple_of(align);
        args.push(ArgInfo {
            name: names.get(i).cloned().unwrap_or_default(),
            type_name: tname,
            kind,
            access: access.get(i).cloned().unwrap_or_else(|| "none".into()),
            type_qual: quals.get(i).cloned().unwrap_or_default(),
            size,
            align,
            offset: off,
        });
        off += size;
    }
    let triple = |key: &str| -> Option<[u32; 3]> {
        let v = attached(tail, key, md)?;
        let n: Vec<u32> = v.iter().filter_map(|s| s.parse().ok()).collect();
        (n.len() == 3).then(|| [n[0], n[1], n[2]])
    };
    Ok((
        KernelInfo {
            symbol: wrapper_name(&name),
            name,
            args,
            arg_bytes: off.next_multiple_of(4),
            reqd_work_group_size: triple("reqd_work_group_size"),
            work_group_size_hint: triple("work_group_size_hint"),
        },
        params,
    ))
}

/// The type in `byval(T)`.
fn byval_type(text: &str) -> Option<Ty> {
    let at = text.find("byval(")? + 6;
    parse_type(&text[at..]).ok().map(|(t, _)| t)
}

/// The wrapper of one kernel (see the module comment).
fn wrapper(k: &KernelInfo, params: &[Param], attr: u32) -> String {
    let mut b = format!(
        "define void @{}(i8* %args) #{attr} {{\n  %a = call i8* @__weft_cl_enter(i8* %args)\n",
        k.symbol
    );
    let mut call = Vec::new();
    for (i, (p, a)) in params.iter().zip(&k.args).enumerate() {
        let off = a.offset - HEADER_BYTES;
        b += &format!("  %p{i} = getelementptr inbounds i8, i8* %a, i32 {off}\n");
        let ty_text = ty_of_text(&p.text);
        match a.kind {
            ArgKind::Local => {
                b += &format!("  %q{i} = bitcast i8* %p{i} to i32*\n");
                b += &format!("  %s{i} = load i32, i32* %q{i}, align 4\n");
                b += &format!("  %l{i} = call i8* @__weft_cl_local(i32 %s{i})\n");
                b += &format!("  %n{i} = ptrtoint i8* %l{i} to i32\n");
                b += &format!("  %v{i} = inttoptr i32 %n{i} to {ty_text}\n");
            }
            ArgKind::Global | ArgKind::Constant => {
                b += &format!("  %q{i} = bitcast i8* %p{i} to i32*\n");
                b += &format!("  %n{i} = load i32, i32* %q{i}, align 4\n");
                b += &format!("  %v{i} = inttoptr i32 %n{i} to {ty_text}\n");
            }
            ArgKind::Value if p.byval => {
                b += &format!("  %v{i} = bitcast i8* %p{i} to {ty_text}\n");
            }
            ArgKind::Value => {
                b += &format!("  %q{i} = bitcast i8* %p{i} to {ty_text}*\n");
                b += &format!(
                    "  %v{i} = load {ty_text}, {ty_text}* %q{i}, align {}\n",
                    a.align
                );
            }
        }
        call.push(format!("{} %v{i}", p.text));
    }
    b += &format!(
        "  call void @{}({})\n  ret void\n}}\n",
        k.name,
        call.join(", ")
    );
    b
}

/// The type part of a parameter's text (its attributes left out).
fn ty_of_text(text: &str) -> String {
    let Ok((_, rest)) = parse_type(text) else {
        return text.to_string();
    };
    text[..text.len() - rest.len()].trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_parse_and_lay_out_as_on_riscv32() {
        let mut types = Types::new();
        types.insert(
            "struct.LL".into(),
            parse_type("{ float, float, i8 }").unwrap().0,
        );
        let l = |s: &str| layout(&parse_type(s).unwrap().0, &types).unwrap();
        assert_eq!(l("i8"), (1, 1));
        assert_eq!(l("i64"), (8, 8));
        assert_eq!(l("<3 x float>"), (16, 16));
        assert_eq!(l("<2 x i16>"), (4, 4));
        assert_eq!(l("%struct.LL"), (12, 4));
        assert_eq!(l("{ i8, i64 }"), (16, 8));
        assert_eq!(l("<{ i8, i32 }>"), (5, 1));
        assert_eq!(l("[3 x <4 x i8>]"), (12, 4));
        assert_eq!(l("float addrspace(1)*"), (4, 4));
        assert!(layout(&Ty::Named("opencl.image2d_t".into()), &types).is_err());
    }

    #[test]
    fn a_kernel_gets_a_wrapper_and_its_locals_become_thread_local() {
        let ir = r#"%struct.LL = type { float, float, i8 }
@k.arr = internal addrspace(3) global [4 x i32] undef, align 4
define dso_local spir_kernel void @k(%struct.LL addrspace(1)* noundef %0, %struct.LL* noundef byval(%struct.LL) align 4 %1, i8 noundef signext %2, <3 x float> noundef %3, i64 noundef %4, float addrspace(3)* noundef %5) #0 !kernel_arg_addr_space !5 !kernel_arg_access_qual !6 !kernel_arg_type !7 !kernel_arg_base_type !7 !kernel_arg_type_qual !8 !reqd_work_group_size !9 {
  %x = call i32 (i8 addrspace(2)*, ...) @printf(i8 addrspace(2)* null)
  ret void
}
attributes #0 = { convergent }
!5 = !{i32 1, i32 0, i32 0, i32 0, i32 0, i32 3}
!6 = !{!"none", !"none", !"none", !"none", !"none", !"none"}
!7 = !{!"LL*", !"LL", !"char", !"float3", !"long", !"float*"}
!8 = !{!"", !"", !"", !"", !"", !""}
!9 = !{i32 8, i32 2, i32 1}
"#;
        let r = rewrite(ir).unwrap();
        let k = &r.kernels[0];
        assert_eq!(k.name, "k");
        let offs: Vec<(u32, u32)> = k.args.iter().map(|a| (a.offset, a.size)).collect();
        // header 16; pointer 4; struct 12 @4; char 1; float3 16 @16; long 8 @8; local 4
        assert_eq!(
            offs,
            vec![(16, 4), (20, 12), (32, 1), (48, 16), (64, 8), (72, 4)]
        );
        assert_eq!(k.arg_bytes, 76);
        assert_eq!(k.args[5].kind, ArgKind::Local);
        assert_eq!(k.args[3].type_name, "float3");
        assert_eq!(k.reqd_work_group_size, Some([8, 2, 1]));
        assert!(!r.ir.contains("spir_kernel"), "{}", r.ir);
        assert!(
            r.ir.contains("@k.arr = hidden thread_local addrspace(3) global"),
            "{}",
            r.ir
        );
        assert!(r.ir.contains("@__weft_cl_printf("));
        assert!(r.ir.contains("define void @__weft_clk_k(i8* %args) #1"));
        assert!(r.ir.contains("byval(%struct.LL) align 4 %v1"), "{}", r.ir);
        assert!(r.ir.contains("i8 noundef signext %v2"), "{}", r.ir);
        assert!(r.ir.contains("call i8* @__weft_cl_local(i32 %s5)"));
    }
}
