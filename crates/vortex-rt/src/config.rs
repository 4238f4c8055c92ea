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
    weft_runtime::host::shape_from_env(cfg, &get).map_err(VxError::Config)?;
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
