//! weft-config: what every part of the machine configuration shares. One TOML file describes
//! the whole machine, but its sections belong to different crates — the functional machine's
//! keys to `weft-simt`, the timing model's sections to `weft-timing` — and each crate keeps its
//! own structures, defaults and checks. This leaf crate holds the pieces they share:
//!
//! - [`ConfigError`], the one error type, whose messages name the key and the rule broken;
//! - the limit checks [`range`] and [`pow2`];
//! - [`split`]: read one file into the tables of its owners, every key checked against the
//!   owner's type as it is read, so unknown keys and wrong types are reported with the line
//!   and column of the text (as when one structure read the whole file);
//! - [`merge`] (a partial section over its owner's defaults) and [`keys_of`].

use serde::de::{DeserializeSeed, Deserializer, MapAccess, Visitor};
use serde::{de::DeserializeOwned, Serialize};
use thiserror::Error;

/// Why a configuration is rejected.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ConfigError {
    /// A value out of its range.
    #[error("{key} = {value} is out of range (allowed {range})")]
    Range {
        /// The key.
        key: String,
        /// The value given.
        value: u64,
        /// What is allowed: the rule broken, with its bounds.
        range: std::borrow::Cow<'static, str>,
    },
    /// A value that breaks a rule other than a range.
    #[error("{key} is not allowed here: it must be {rule}")]
    Invalid {
        /// The key.
        key: String,
        /// The rule it breaks.
        rule: &'static str,
    },
    /// The TOML text does not parse or has unknown keys.
    #[error("{0}")]
    Toml(String),
    /// The memory layout is unusable.
    #[error("memory layout: {0}")]
    Memory(String),
}

/// `key = value` must lie in `lo..=hi` (`text` says so in the message).
pub fn range(
    key: impl Into<String>,
    value: u64,
    lo: u64,
    hi: u64,
    text: &'static str,
) -> Result<(), ConfigError> {
    if value < lo || value > hi {
        Err(ConfigError::Range {
            key: key.into(),
            value,
            range: text.into(),
        })
    } else {
        Ok(())
    }
}

/// `key = v` must be a power of two in `lo..=hi`; `rule` says what is allowed, with its bounds
/// (e.g. "a power of two from l1.line × l1.ways = 64 × 4 = 256 (one set) to 64 MiB").
pub fn pow2(
    key: impl Into<String>,
    v: u64,
    lo: u64,
    hi: u64,
    rule: impl Into<std::borrow::Cow<'static, str>>,
) -> Result<(), ConfigError> {
    if v < lo || v > hi || !v.is_power_of_two() {
        return Err(ConfigError::Range {
            key: key.into(),
            value: v,
            range: rule.into(),
        });
    }
    Ok(())
}

/// Overlay `top` on `base`, table by table (a partial section keeps the rest of `base`'s).
pub fn merge(base: &mut toml::Table, top: toml::Table) {
    for (k, v) in top {
        match (base.get_mut(&k), v) {
            (Some(toml::Value::Table(b)), toml::Value::Table(t)) => merge(b, t),
            (_, v) => {
                base.insert(k, v);
            }
        }
    }
}

/// The top-level keys a configuration structure has: those its defaults serialize to.
pub fn keys_of<T: Serialize + Default>() -> Vec<String> {
    toml::Table::try_from(T::default())
        .map(|t| t.keys().cloned().collect())
        .unwrap_or_default()
}

/// One owner of a configuration file's top-level keys.
pub struct Part {
    /// The keys it owns.
    pub keys: Vec<String>,
    /// Reads one of its keys' value (as its own type would): the message if it cannot.
    pub check: fn(&str, toml::Value) -> Result<(), String>,
}

impl Part {
    /// The part read by the structure `T` (every field optional, unknown fields refused).
    pub fn of<T: Serialize + Default + DeserializeOwned>() -> Part {
        Part {
            keys: keys_of::<T>(),
            check: check_key::<T>,
        }
    }
}

/// Read `key = value` alone as a `T` would.
fn check_key<T: DeserializeOwned>(key: &str, value: toml::Value) -> Result<(), String> {
    let mut t = toml::Table::new();
    t.insert(key.to_string(), value);
    toml::Value::Table(t)
        .try_into::<T>()
        .map(|_| ())
        .map_err(|e| e.message().trim_end().to_string())
}

/// Read `text` and give each part its keys, in the order of `parts`. A key no part owns, a
/// value its owner cannot read, and a TOML syntax error are errors with their line and column.
pub fn split(text: &str, parts: &[Part]) -> Result<Vec<toml::Table>, ConfigError> {
    let de = toml::Deserializer::new(text);
    let out = SplitSeed { parts }
        .deserialize(de)
        .map_err(|e| ConfigError::Toml(e.to_string()))?;
    Ok(out)
}

struct SplitSeed<'a> {
    parts: &'a [Part],
}

impl<'de> DeserializeSeed<'de> for SplitSeed<'_> {
    type Value = Vec<toml::Table>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for SplitSeed<'_> {
    type Value = Vec<toml::Table>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a machine configuration table")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut out = vec![toml::Table::new(); self.parts.len()];
        while let Some((key, owner)) = map.next_key_seed(KeySeed { parts: self.parts })? {
            let part = &self.parts[owner];
            let value = map.next_value_seed(ValueSeed {
                path: vec![key.clone()],
                check: part.check,
            })?;
            out[owner].insert(key, value);
        }
        Ok(out)
    }
}

/// A top-level key, and the index of the part that owns it.
struct KeySeed<'a> {
    parts: &'a [Part],
}

impl<'de> DeserializeSeed<'de> for KeySeed<'_> {
    type Value = (String, usize);
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        let key = <String as serde::Deserialize>::deserialize(d)?;
        match self.parts.iter().position(|p| p.keys.contains(&key)) {
            Some(i) => Ok((key, i)),
            None => {
                let mut all: Vec<&str> = self
                    .parts
                    .iter()
                    .flat_map(|p| p.keys.iter().map(String::as_str))
                    .collect();
                all.sort_unstable();
                Err(serde::de::Error::custom(format!(
                    "unknown field `{key}`, expected one of {}",
                    all.iter()
                        .map(|k| format!("`{k}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )))
            }
        }
    }
}

/// A value at `path` (a top-level key and the keys of the tables within it), read by its
/// owner: a table key by key, so that an error points at the key or value at fault.
struct ValueSeed {
    path: Vec<String>,
    check: fn(&str, toml::Value) -> Result<(), String>,
}

impl ValueSeed {
    /// Check `v` at this path: the owner reads `{path[0] = {path[1] = … v}}`.
    fn check<E: serde::de::Error>(&self, v: toml::Value) -> Result<toml::Value, E> {
        let mut nested = v.clone();
        for k in self.path[1..].iter().rev() {
            let mut t = toml::Table::new();
            t.insert(k.clone(), nested);
            nested = toml::Value::Table(t);
        }
        (self.check)(&self.path[0], nested).map_err(E::custom)?;
        Ok(v)
    }
}

impl<'de> DeserializeSeed<'de> for ValueSeed {
    type Value = toml::Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ValueSeed {
    type Value = toml::Value;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a TOML value")
    }

    fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<toml::Value, E> {
        self.check(toml::Value::Boolean(v))
    }

    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<toml::Value, E> {
        self.check(toml::Value::Integer(v))
    }

    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<toml::Value, E> {
        match i64::try_from(v) {
            Ok(v) => self.check(toml::Value::Integer(v)),
            Err(_) => Err(E::custom(format!("{v} is out of range for a TOML integer"))),
        }
    }

    fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<toml::Value, E> {
        self.check(toml::Value::Float(v))
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<toml::Value, E> {
        self.check(toml::Value::String(v.to_string()))
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<toml::Value, A::Error> {
        let mut items = Vec::new();
        while let Some(v) = seq.next_element::<toml::Value>()? {
            items.push(v);
        }
        self.check(toml::Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<toml::Value, A::Error> {
        let mut t = toml::Table::new();
        while let Some(k) = map.next_key::<String>()? {
            // How the TOML deserializer hands over a date or time.
            if k == "$__toml_private_datetime" {
                let text: String = map.next_value()?;
                let dt = text
                    .parse::<toml::value::Datetime>()
                    .map_err(serde::de::Error::custom)?;
                return self.check(toml::Value::Datetime(dt));
            }
            let mut path = self.path.clone();
            path.push(k.clone());
            let v = map.next_value_seed(ValueSeed {
                path,
                check: self.check,
            })?;
            t.insert(k, v);
        }
        // An empty table is checked as a whole (a filled one was, key by key).
        if t.is_empty() {
            return self.check(toml::Value::Table(t));
        }
        Ok(toml::Value::Table(t))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Serialize, Deserialize, Default)]
    #[serde(default, deny_unknown_fields)]
    struct A {
        cores: u32,
        sub: Sub,
    }

    #[derive(Serialize, Deserialize, Default)]
    #[serde(default, deny_unknown_fields)]
    struct Sub {
        size: u32,
    }

    #[derive(Serialize, Deserialize, Default)]
    #[serde(default, deny_unknown_fields)]
    struct B {
        l1: Sub,
    }

    fn parts() -> Vec<Part> {
        vec![Part::of::<A>(), Part::of::<B>()]
    }

    #[test]
    fn each_owner_gets_its_keys() {
        let t = split("cores = 2\n[l1]\nsize = 4\n[sub]\nsize = 1\n", &parts()).unwrap();
        assert_eq!(t[0]["cores"].as_integer(), Some(2));
        assert_eq!(t[0]["sub"]["size"].as_integer(), Some(1));
        assert_eq!(t[1]["l1"]["size"].as_integer(), Some(4));
        assert!(!t[1].contains_key("cores"));
    }

    #[test]
    fn errors_keep_their_line_and_column() {
        let e = split("cores = 2\n\n[l1]\nsizee = 4\n", &parts())
            .unwrap_err()
            .to_string();
        assert!(e.contains("line 4, column 9"), "{e}");
        assert!(e.contains("unknown field `sizee`"), "{e}");
        let e = split("cores = 2\nfoo = 1\n", &parts())
            .unwrap_err()
            .to_string();
        assert!(e.contains("line 2, column 1"), "{e}");
        assert!(
            e.contains("unknown field `foo`") && e.contains("`l1`"),
            "{e}"
        );
        let e = split("cores = \"x\"\n", &parts()).unwrap_err().to_string();
        assert!(e.contains("line 1") && e.contains("invalid type"), "{e}");
        let e = split("cores = \n", &parts()).unwrap_err().to_string();
        assert!(e.contains("line 1"), "{e}");
        let e = split("cores = 1979-05-27\n", &parts())
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("line 1, column 9") && e.contains("invalid type"),
            "{e}"
        );
        let e = split("[sub]\nsize = [1]\n", &parts())
            .unwrap_err()
            .to_string();
        assert!(e.contains("line 2, column 8"), "{e}");
    }

    #[test]
    fn limits_name_the_rule() {
        let e = pow2(
            "l1.size",
            3000,
            512,
            1 << 26,
            "a power of two, at least line × ways",
        )
        .unwrap_err()
        .to_string();
        assert_eq!(
            e,
            "l1.size = 3000 is out of range (allowed a power of two, at least line × ways)"
        );
        assert!(range("cores", 0, 1, 256, "1..=256").is_err());
        assert!(range("cores", 256, 1, 256, "1..=256").is_ok());
    }

    #[test]
    fn merge_keeps_what_the_top_leaves_out() {
        let mut base: toml::Table = toml::from_str("a = 1\n[s]\nx = 1\ny = 2\n").unwrap();
        merge(&mut base, toml::from_str("[s]\ny = 3\n").unwrap());
        assert_eq!(base["a"].as_integer(), Some(1));
        assert_eq!(base["s"]["x"].as_integer(), Some(1));
        assert_eq!(base["s"]["y"].as_integer(), Some(3));
    }
}
