//! The functional units of a core and their parameters: [`Unit`] names each kind, [`unit_of`]
//! sends each instruction to one, and [`UnitsConfig`] holds a [`UnitConfig`] per unit,
//! indexed by the unit (`units[Unit::Fpu]`) and written in the configuration file as
//! `[units.NAME]` sections. A unit may share the instances of another (`shares = "fpu"`):
//! its instructions then take one of that unit's instances for their own interval, as
//! SimX's FPU holds its results in flight, whatever the operation, in one queue.

use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use weft_isa::{Class, Op};

/// A functional unit kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Unit {
    /// Integer ALU, branches and jumps.
    Alu,
    /// Integer multiply.
    Mul,
    /// Integer divide and remainder.
    Div,
    /// Floating-point add, subtract, multiply, fused multiply-add.
    Fpu,
    /// Floating-point compare, min/max, sign injection, classify, move (non-computational).
    Fncp,
    /// Floating-point conversions to and from integers.
    Fcvt,
    /// Floating-point divide and square root.
    Fdiv,
    /// Load/store unit: address generation; the memory system adds its own time.
    Lsu,
    /// Special-function unit: CSRs, fences, system and SIMT warp-control instructions.
    Sfu,
    /// Vortex's tensor core unit: `wmma`, `wmma.sp`, `wgmma` (each a sequence of micro-ops,
    /// `tcu.rs`) and `tcu.ld`.
    Tcu,
}

impl Unit {
    /// How many kinds there are.
    pub const COUNT: usize = 10;

    /// Every unit, in the order of the configuration file and of [`UnitsConfig`]'s array.
    pub const ALL: [Unit; Unit::COUNT] = [
        Unit::Alu,
        Unit::Mul,
        Unit::Div,
        Unit::Fpu,
        Unit::Fncp,
        Unit::Fcvt,
        Unit::Fdiv,
        Unit::Lsu,
        Unit::Sfu,
        Unit::Tcu,
    ];

    /// Its name in the configuration file (`[units.NAME]`) and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Unit::Alu => "alu",
            Unit::Mul => "mul",
            Unit::Div => "div",
            Unit::Fpu => "fpu",
            Unit::Fncp => "fncp",
            Unit::Fcvt => "fcvt",
            Unit::Fdiv => "fdiv",
            Unit::Lsu => "lsu",
            Unit::Sfu => "sfu",
            Unit::Tcu => "tcu",
        }
    }

    /// The unit with this name.
    pub fn parse(name: &str) -> Option<Unit> {
        Unit::ALL.into_iter().find(|u| u.name() == name)
    }
}

/// The unit that executes `op`.
pub fn unit_of(op: Op) -> Unit {
    if matches!(op, Op::VxWmma | Op::VxWmmaSp | Op::VxWgmma | Op::VxTcuLd) {
        return Unit::Tcu;
    }
    match op.class() {
        Class::Alu | Class::Branch | Class::Jump => Unit::Alu,
        Class::Mul => Unit::Mul,
        Class::Div => Unit::Div,
        Class::Fpu => match op {
            Op::FsgnjS
            | Op::FsgnjnS
            | Op::FsgnjxS
            | Op::FminS
            | Op::FmaxS
            | Op::FmvXW
            | Op::FmvWX
            | Op::FeqS
            | Op::FltS
            | Op::FleS
            | Op::FclassS => Unit::Fncp,
            Op::FcvtWS | Op::FcvtWuS | Op::FcvtSW | Op::FcvtSWu => Unit::Fcvt,
            _ => Unit::Fpu,
        },
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
    /// Cycles an instruction holds its instance (1 = fully pipelined).
    pub interval: u32,
    /// Instances per core (ignored when the unit shares another's).
    pub count: u32,
    /// Instructions that may wait, issued, for an instance (the buffers between the issue
    /// stage and the unit, as SimX's operand and dispatch channels): with fewer waiting, an
    /// instruction issues although no instance will be free when it gets there, and starts
    /// when one is. 0: it issues only when an instance will be free (ignored when the unit
    /// shares another's: the owner's counts).
    #[serde(skip_serializing_if = "is_zero")]
    pub queue: u32,
    /// Use the instances of this other unit instead of its own (each instruction still holds
    /// one for its own `interval`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shares: Option<Unit>,
}

fn is_zero(v: &u32) -> bool {
    *v == 0
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
            queue: 0,
            shares: None,
        }
    }

    /// The same, taking the instances of `pool`.
    pub const fn sharing(self, pool: Unit) -> UnitConfig {
        UnitConfig {
            shares: Some(pool),
            ..self
        }
    }
}

impl Serialize for Unit {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Unit {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        Unit::parse(&name).ok_or_else(|| serde::de::Error::custom(unknown_unit(&name)))
    }
}

/// The message for a unit name that is none of [`Unit::ALL`].
fn unknown_unit(name: &str) -> String {
    let names: Vec<String> = Unit::ALL
        .iter()
        .map(|u| format!("`{}`", u.name()))
        .collect();
    format!(
        "unknown unit `{name}`, expected one of {}",
        names.join(", ")
    )
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
        u[Unit::Fncp] = UnitConfig::new(4, 1, 1).sharing(Unit::Fpu);
        u[Unit::Fcvt] = UnitConfig::new(4, 1, 1).sharing(Unit::Fpu);
        u[Unit::Fdiv] = UnitConfig::new(16, 16, 1);
        u[Unit::Lsu] = UnitConfig::new(1, 1, 1);
        u[Unit::Sfu] = UnitConfig::new(2, 1, 1);
        u[Unit::Tcu] = UnitConfig::new(4, 1, 1);
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

    /// The unit whose instances `u`'s instructions take: its own, or the one it shares.
    pub fn pool(&self, u: Unit) -> Unit {
        self[u].shares.unwrap_or(u)
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
