//! Where a device's configuration comes from: `WEFT_CONFIG` (a weft TOML file, read under
//! the Vortex profile), then `WEFT_CORES`, `WEFT_WARPS`, `WEFT_THREADS` and `WEFT_TIMING`
//! over it; Vortex's defaults (1 core × 4 warps × 4 threads, functional model) otherwise.

use crate::error::{VxError, VxResult};
use weft_simt::{Config, Profile};

/// Read the configuration through `get` (the environment, or a test's table).
pub fn config_from_env(get: impl Fn(&str) -> Option<String>) -> VxResult<Config> {
    let mut cfg = match get("WEFT_CONFIG") {
        Some(path) => {
            let text = std::fs::read_to_string(&path)
                .map_err(|e| VxError::Config(format!("{path}: {e}")))?;
            Config::from_toml_for(&text, Some(Profile::Vortex))?
        }
        None => Config::for_profile(Profile::Vortex),
    };
    if cfg.profile != Profile::Vortex {
        return Err(VxError::Config(
            "the configuration must use the vortex profile".into(),
        ));
    }
    weft_runtime::host::shape_from_env(&mut cfg, &get).map_err(VxError::Config)?;
    cfg.validate()?;
    Ok(cfg)
}
