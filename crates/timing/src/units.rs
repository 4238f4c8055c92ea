//! The functional units of a core and their parameters: [`Unit`] names each kind, [`unit_of`]
//! sends each instruction class to one, and [`UnitsConfig`] holds a [`UnitConfig`] per unit,
//! indexed by the unit (`units[Unit::Fpu]`) and written in the configuration file as
//! `[units.NAME]` sections.

use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use weft_isa::Class;

/// A functional unit kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Unit {
    /// Integer ALU, branches and jumps.
    Alu,
    /// Integer multiply.
    Mul,
    /// Integer divide and remainder.
    Div,
    /// Floating-point add, multiply, fused multiply-add, convert, compare, move.
    Fpu,
    /// Floating-point divide and square root.
    Fdiv,
    /// Load/store unit: address generation; the memory system adds its own time.
    Lsu,
    /// Special-function unit: CSRs, fences, system and SIMT warp-control instructions.
    Sfu,
}

impl Unit {
    /// How many kinds there are.
    pub const COUNT: usize = 7;

    /// Every unit, in the order of the configuration file and of [`UnitsConfig`]'s array.
    pub const ALL: [Unit; Unit::COUNT] = [
        Unit::Alu,
        Unit::Mul,
        Unit::Div,
        Unit::Fpu,
        Unit::Fdiv,
        Unit::Lsu,
        Unit::Sfu,
    ];

    /// Its name in the configuration file (`[units.NAME]`) and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Unit::Alu => "alu",
            Unit::Mul => "mul",
            Unit::Div => "div",
            Unit::Fpu => "fpu",
            Unit::Fdiv => "fdiv",
            Unit::Lsu => "lsu",
            Unit::Sfu => "sfu",
        }
    }

    /// The unit with this name.
    pub fn parse(name: &str) -> Option<Unit> {
        Unit::ALL.into_iter().find(|u| u.name() == name)
    }
}

/// The unit that executes instructions of `class`.
pub fn unit_of(class: Class) -> Unit {
    match class {
        Class::Alu | Class::Branch | Class::Jump => Unit::Alu,
        Class::Mul => Unit::Mul,
        Class::Div => Unit::Div,
        Class::Fpu => Unit::Fpu,
        Class::FpuDiv => Unit::Fdiv,
        Class::Load | Class::Store | Class::Atomic => Unit::Lsu,
        Class::Csr | Class::Fence | Class::System | Class::Simt => Unit::Sfu,
    }
}

/// One kind of functional unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct UnitConfig {
    /// Cycles from issue until the result can be read.
    pub latency: u32,
    /// Cycles between two issues to one instance (1 = fully pipelined).
    pub interval: u32,
    /// Instances per core.
    pub count: u32,
}

impl Default for UnitConfig {
    fn default() -> Self {
        UnitConfig::new(1, 1, 1)
    }
}

impl UnitConfig {
    /// A unit of this latency, issue interval and number of instances.
    pub const fn new(latency: u32, interval: u32, count: u32) -> UnitConfig {
        UnitConfig {
            latency,
            interval,
            count,
        }
    }
}

/// Every functional unit of a core, indexed by [`Unit`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnitsConfig([UnitConfig; Unit::COUNT]);

impl Default for UnitsConfig {
    fn default() -> Self {
        let mut u = UnitsConfig([UnitConfig::default(); Unit::COUNT]);
        u[Unit::Alu] = UnitConfig::new(1, 1, 1);
        u[Unit::Mul] = UnitConfig::new(3, 1, 1);
        u[Unit::Div] = UnitConfig::new(32, 32, 1);
        u[Unit::Fpu] = UnitConfig::new(4, 1, 1);
        u[Unit::Fdiv] = UnitConfig::new(16, 16, 1);
        u[Unit::Lsu] = UnitConfig::new(1, 1, 1);
        u[Unit::Sfu] = UnitConfig::new(2, 1, 1);
        u
    }
}

impl std::ops::Index<Unit> for UnitsConfig {
    type Output = UnitConfig;
    fn index(&self, u: Unit) -> &UnitConfig {
        &self.0[u as usize]
    }
}

impl std::ops::IndexMut<Unit> for UnitsConfig {
    fn index_mut(&mut self, u: Unit) -> &mut UnitConfig {
        &mut self.0[u as usize]
    }
}

impl UnitsConfig {
    /// Each unit with its parameters.
    pub fn iter(&self) -> impl Iterator<Item = (Unit, UnitConfig)> + '_ {
        Unit::ALL.into_iter().map(|u| (u, self[u]))
    }
}

impl Serialize for UnitsConfig {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(Unit::COUNT))?;
        for (u, c) in self.iter() {
            m.serialize_entry(u.name(), &c)?;
        }
        m.end()
    }
}

impl<'de> Deserialize<'de> for UnitsConfig {
    /// A table of units by name; a unit left out keeps its default, an unknown name is an
    /// error listing the units.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = UnitsConfig;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a table of functional units")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<UnitsConfig, A::Error> {
                let mut u = UnitsConfig::default();
                while let Some(k) = map.next_key::<String>()? {
                    let unit = Unit::parse(&k).ok_or_else(|| {
                        let names: Vec<String> = Unit::ALL
                            .iter()
                            .map(|u| format!("`{}`", u.name()))
                            .collect();
                        serde::de::Error::custom(format!(
                            "unknown unit `{k}`, expected one of {}",
                            names.join(", ")
                        ))
                    })?;
                    u[unit] = map.next_value()?;
                }
                Ok(u)
            }
        }
        d.deserialize_map(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_the_list_of_names_is_complete() {
        for u in Unit::ALL {
            assert_eq!(Unit::parse(u.name()), Some(u));
            assert_eq!(Unit::ALL[u as usize], u);
        }
        let t = toml::Table::try_from(UnitsConfig::default()).unwrap();
        let keys: Vec<&str> = t.keys().map(String::as_str).collect();
        let mut names: Vec<&str> = Unit::ALL.iter().map(|u| u.name()).collect();
        names.sort_unstable();
        assert_eq!(keys, names);
        let e = toml::from_str::<UnitsConfig>("fmaa = {}")
            .unwrap_err()
            .to_string();
        for n in names {
            assert!(e.contains(n), "{e}");
        }
    }
}
