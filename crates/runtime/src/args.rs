//! Kernel arguments and typed buffer contents: values the device reads in its own byte order
//! (little-endian) and layout (ILP32: 4-byte pointers, natural alignment).

use crate::Buffer;

/// A value with a fixed little-endian layout on the device.
pub trait Scalar: Copy {
    /// Size in bytes.
    const SIZE: usize;
    /// Append the little-endian bytes.
    fn put(self, out: &mut Vec<u8>);
    /// Read from `SIZE` little-endian bytes.
    fn get(b: &[u8]) -> Self;
}

macro_rules! scalar {
    ($($t:ty),*) => {$(
        impl Scalar for $t {
            const SIZE: usize = std::mem::size_of::<$t>();
            fn put(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
            fn get(b: &[u8]) -> Self {
                <$t>::from_le_bytes(b[..Self::SIZE].try_into().expect("SIZE bytes"))
            }
        }
    )*};
}
scalar!(u8, i8, u16, i16, u32, i32, u64, i64, f32, f64);

/// Values as bytes.
pub fn to_bytes<T: Scalar>(v: &[T]) -> Vec<u8> {
    let mut out = Vec::with_capacity(v.len() * T::SIZE);
    for &x in v {
        x.put(&mut out);
    }
    out
}

/// Bytes as values (a trailing partial value is dropped).
pub fn from_bytes<T: Scalar>(b: &[u8]) -> Vec<T> {
    b.chunks_exact(T::SIZE).map(T::get).collect()
}

/// An argument block, laid out as a C struct of the pushed fields in order (each aligned to
/// its size): the kernel receives a pointer to it.
#[derive(Clone, Debug, Default)]
pub struct Args {
    bytes: Vec<u8>,
}

impl Args {
    /// No arguments yet.
    pub fn new() -> Args {
        Args::default()
    }

    fn align(&mut self, a: usize) {
        while !self.bytes.len().is_multiple_of(a) {
            self.bytes.push(0);
        }
    }

    /// A scalar field.
    pub fn push<T: Scalar>(mut self, v: T) -> Args {
        self.align(T::SIZE);
        v.put(&mut self.bytes);
        self
    }

    /// A pointer field: the buffer's device address.
    pub fn buffer(self, b: &Buffer) -> Args {
        self.push(b.addr)
    }

    /// A block given as its bytes (a C host's argument struct).
    pub fn raw(bytes: &[u8]) -> Args {
        Args {
            bytes: bytes.to_vec(),
        }
    }

    /// The block's bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_aligned_like_a_c_struct() {
        let a = Args::new()
            .push(7u8)
            .push(0x1122_3344u32)
            .push(1.5f32)
            .push(9u16);
        assert_eq!(
            a.bytes(),
            &[7, 0, 0, 0, 0x44, 0x33, 0x22, 0x11, 0, 0, 0xc0, 0x3f, 9, 0]
        );
        assert_eq!(
            from_bytes::<f32>(&to_bytes(&[1.0f32, -2.5])),
            vec![1.0, -2.5]
        );
    }
}
