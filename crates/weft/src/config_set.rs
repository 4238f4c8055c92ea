//! `--set KEY=VALUE`: configuration overrides on the command line, written as in the TOML
//! file (`l1.size=32768`, `pipeline.scheduler=gto`, `timing=true`). Each is put into the
//! file's table at its dotted path, and the result is read as the file would be, so unknown
//! keys and bad values get the same messages.

/// The configuration text `text` with every `KEY=VALUE` of `sets` applied.
pub fn apply(text: &str, sets: &[String]) -> Result<String, String> {
    if sets.is_empty() {
        return Ok(text.to_string());
    }
    let mut table: toml::Table = toml::from_str(text).map_err(|e| e.to_string())?;
    for s in sets {
        let (key, value) = s
            .split_once('=')
            .ok_or_else(|| format!("--set {s}: expected KEY=VALUE"))?;
        let key = key.trim();
        let value = parse_value(value.trim());
        let path: Vec<&str> = key.split('.').collect();
        if path.iter().any(|p| p.is_empty()) {
            return Err(format!("--set {s}: '{key}' is not a key"));
        }
        let mut t = &mut table;
        for p in &path[..path.len() - 1] {
            let e = t
                .entry(p.to_string())
                .or_insert_with(|| toml::Value::Table(toml::Table::new()));
            t = e
                .as_table_mut()
                .ok_or_else(|| format!("--set {s}: '{p}' is not a section"))?;
        }
        t.insert(path[path.len() - 1].to_string(), value);
    }
    toml::to_string(&table).map_err(|e| e.to_string())
}

/// A TOML value (`32768`, `true`, `"gto"`, `0x100`), or a bare word as a string (`gto`).
fn parse_value(v: &str) -> toml::Value {
    match toml::from_str::<toml::Table>(&format!("v = {v}")) {
        Ok(mut t) => t.remove("v").unwrap_or(toml::Value::String(v.into())),
        Err(_) => toml::Value::String(v.into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_nested_keys_over_the_file() {
        let out = apply(
            "warps = 2\n[l1]\nways = 4\n",
            &[
                "l1.size=32768".into(),
                "pipeline.scheduler=gto".into(),
                "timing=true".into(),
            ],
        )
        .unwrap();
        let t: toml::Table = toml::from_str(&out).unwrap();
        assert_eq!(t["warps"].as_integer(), Some(2));
        assert_eq!(t["l1"]["ways"].as_integer(), Some(4));
        assert_eq!(t["l1"]["size"].as_integer(), Some(32768));
        assert_eq!(t["pipeline"]["scheduler"].as_str(), Some("gto"));
        assert_eq!(t["timing"].as_bool(), Some(true));
    }

    #[test]
    fn malformed_sets_are_errors() {
        assert!(apply("", &["l1.size".into()])
            .unwrap_err()
            .contains("KEY=VALUE"));
        assert!(apply("warps = 2", &["warps.x=1".into()])
            .unwrap_err()
            .contains("not a section"));
    }
}
