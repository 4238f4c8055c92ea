//! The device's configuration, as `libvortex.so` takes it: `WEFT_CONFIG` (a weft machine TOML
//! file: shape, memories, timing parameters), then `WEFT_CORES`, `WEFT_WARPS`, `WEFT_THREADS`
//! (lanes per warp) and `WEFT_TIMING` (1: the cycle-level timing model, 0: the functional
//! model) over it; weft's defaults otherwise.

use crate::error::{ClError, ClResult};
use weft_timing::MachineConfig;

/// Read the configuration through `get` (the environment, or a test's table).
pub fn config_from_env(get: impl Fn(&str) -> Option<String>) -> ClResult<MachineConfig> {
    let bad = |msg: String| ClError::new(crate::cl::err::DEVICE_NOT_AVAILABLE, msg);
    let mut cfg = match get("WEFT_CONFIG") {
        Some(path) => {
            let text = std::fs::read_to_string(&path)
                .map_err(|e| bad(format!("WEFT_CONFIG={path}: {e}")))?;
            MachineConfig::from_toml(&text).map_err(|e| bad(format!("WEFT_CONFIG={path}: {e}")))?
        }
        None => MachineConfig::default(),
    };
    weft_runtime::host::shape_from_env(&mut cfg.machine, &get).map_err(bad)?;
    cfg.validate()
        .map_err(|e| bad(format!("the device configuration: {e}")))?;
    Ok(cfg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_environment_shapes_the_device() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| pairs.iter().find(|p| p.0 == k).map(|p| p.1.to_string())
        };
        let c = config_from_env(env(&[])).unwrap();
        assert_eq!(
            (
                c.machine.cores,
                c.machine.warps,
                c.machine.lanes,
                c.machine.timing
            ),
            (1, 4, 8, false)
        );
        let c = config_from_env(env(&[
            ("WEFT_CORES", "2"),
            ("WEFT_WARPS", "8"),
            ("WEFT_THREADS", "8"),
            ("WEFT_TIMING", "1"),
        ]))
        .unwrap();
        assert_eq!(
            (
                c.machine.cores,
                c.machine.warps,
                c.machine.lanes,
                c.machine.timing
            ),
            (2, 8, 8, true)
        );
        let e = config_from_env(env(&[("WEFT_WARPS", "x")])).unwrap_err();
        assert!(e.msg.contains("WEFT_WARPS=x"), "{e}");
        let e = config_from_env(env(&[("WEFT_TIMING", "maybe")])).unwrap_err();
        assert!(e.msg.contains("WEFT_TIMING"), "{e}");
        let e = config_from_env(env(&[("WEFT_THREADS", "99")])).unwrap_err();
        assert!(e.msg.contains("lanes"), "{e}");
    }
}
