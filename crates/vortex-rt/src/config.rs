//! Where a device's configuration comes from: `WEFT_CONFIG` (a weft TOML file, read under
//! the Vortex profile), then `WEFT_CORES`, `WEFT_WARPS`, `WEFT_THREADS` and `WEFT_TIMING`
//! over it; Vortex's defaults (1 core × 4 warps × 4 threads, functional model) otherwise.

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
