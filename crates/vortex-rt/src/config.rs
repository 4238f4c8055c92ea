//! Where a device's configuration comes from: `WEFT_CONFIG` (a weft TOML file, read under
//! the Vortex profile), then `WEFT_CORES`, `WEFT_WARPS`, `WEFT_THREADS` and `WEFT_TIMING`
//! over it; Vortex's defaults (1 core × 4 warps × 4 threads, functional model) otherwise.
//! `WEFT_PERF_SCOPE` says what the counters count ([`perf_scope_from_env`]).

use crate::error::{VxError, VxResult};
use weft_simt::Profile;
use weft_timing::MachineConfig;

/// Read the configuration through `get` (the environment, or a test's table).
pub fn config_from_env(get: impl Fn(&str) -> Option<String>) -> VxResult<MachineConfig> {
    let mut all = match get("WEFT_CONFIG") {
        Some(path) => {
            let text = std::fs::read_to_string(&path)
                .map_err(|e| VxError::Config(format!("{path}: {e}")))?;
            MachineConfig::from_toml_for(&text, Some(Profile::Vortex))?
        }
        None => MachineConfig::for_profile(Profile::Vortex),
    };
    let cfg = &mut all.machine;
    if cfg.profile != Profile::Vortex {
        return Err(VxError::Config(
            "the configuration must use the vortex profile".into(),
        ));
    }
    let num = |key: &str| -> VxResult<Option<usize>> {
        get(key)
            .map(|v| {
                v.trim()
                    .parse::<usize>()
                    .map_err(|_| VxError::Config(format!("{key}={v} is not a number")))
            })
            .transpose()
    };
    if let Some(n) = num("WEFT_CORES")? {
        cfg.cores = n;
    }
    if let Some(n) = num("WEFT_WARPS")? {
        cfg.warps = n;
    }
    if let Some(n) = num("WEFT_THREADS")? {
        cfg.lanes = n;
    }
    if let Some(v) = get("WEFT_TIMING") {
        cfg.timing = match v.trim() {
            "1" | "on" | "true" | "yes" => true,
            "0" | "off" | "false" | "no" | "" => false,
            _ => {
                return Err(VxError::Config(format!(
                    "WEFT_TIMING={v}: use 1 (timing model) or 0 (functional model)"
                )))
            }
        };
    }
    all.validate()?;
    Ok(all)
}

/// What the performance counters (`vx_mpm_query`, the `PERF:` lines) count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PerfScope {
    /// Every launch since the device opened (weft's default).
    #[default]
    Device,
    /// The last launch only, as SimX, which resets its counters at every launch
    /// (`WEFT_PERF_SCOPE=launch`; `weft correlate` compares with SimX this way).
    Launch,
}

/// `WEFT_PERF_SCOPE` read through `get`: `device` (default) or `launch`.
pub fn perf_scope_from_env(get: impl Fn(&str) -> Option<String>) -> VxResult<PerfScope> {
    match get("WEFT_PERF_SCOPE").as_deref().map(str::trim) {
        None | Some("") | Some("device") => Ok(PerfScope::Device),
        Some("launch") => Ok(PerfScope::Launch),
        Some(v) => Err(VxError::Config(format!(
            "WEFT_PERF_SCOPE={v}: use device (every launch since the device opened) or launch \
             (the last launch, as SimX)"
        ))),
    }
}
