//! The framebuffer: `width × height` 32-bit pixels in far memory, dword-addressed.
//!
//! Pixel format: `0x00RRGGBB` (the top byte is stored but ignored by PNG output). Address of
//! pixel (x, y) is `y * width + x`. PNG output writes an 8-bit RGB image.

#[cfg(feature = "png")]
use std::path::Path;
use thiserror::Error;

/// Errors from framebuffer construction, access and PNG output.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum FbError {
    /// Width or height is zero, or the pixel count does not fit the address space.
    #[error("bad framebuffer size {width}x{height} (each side 1..=65535, at most 2^28 pixels)")]
    BadSize {
        /// Requested width.
        width: u32,
        /// Requested height.
        height: u32,
    },
    /// A dword address outside the framebuffer.
    #[error("framebuffer address 0x{addr:08X} is outside the {len}-dword framebuffer")]
    OutOfRange {
        /// The address.
        addr: u64,
        /// Number of dwords in the framebuffer.
        len: usize,
    },
    /// Writing the PNG failed.
    #[error("cannot write PNG {path}: {message}")]
    Png {
        /// Output path.
        path: String,
        /// Underlying error text.
        message: String,
    },
}

/// A dword-addressed framebuffer of 32-bit pixels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Framebuffer {
    width: u32,
    height: u32,
    pixels: Vec<u32>,
}

impl Framebuffer {
    /// Largest pixel count accepted (2^28 dwords = 1 GiB).
    pub const MAX_PIXELS: u64 = 1 << 28;

    /// A black framebuffer of `width × height` pixels.
    pub fn new(width: u32, height: u32) -> Result<Self, FbError> {
        let n = u64::from(width) * u64::from(height);
        if width == 0 || height == 0 || width > 65535 || height > 65535 || n > Self::MAX_PIXELS {
            return Err(FbError::BadSize { width, height });
        }
        Ok(Framebuffer {
            width,
            height,
            pixels: vec![0; n as usize],
        })
    }

    /// Width in pixels.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in pixels.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Number of dwords (pixels).
    pub fn len(&self) -> usize {
        self.pixels.len()
    }

    /// Always false: a framebuffer has at least one pixel.
    pub fn is_empty(&self) -> bool {
        self.pixels.is_empty()
    }

    /// All pixels, row-major.
    pub fn pixels(&self) -> &[u32] {
        &self.pixels
    }

    /// All pixels, mutable.
    pub fn pixels_mut(&mut self) -> &mut [u32] {
        &mut self.pixels
    }

    /// Whether `count` dwords starting at `addr` are all inside the framebuffer.
    pub fn contains_range(&self, addr: u64, count: u64) -> bool {
        addr.checked_add(count)
            .is_some_and(|end| end <= self.pixels.len() as u64)
    }

    /// Read the dword at `addr`.
    pub fn read(&self, addr: u64) -> Result<u32, FbError> {
        usize::try_from(addr)
            .ok()
            .and_then(|a| self.pixels.get(a).copied())
            .ok_or(FbError::OutOfRange {
                addr,
                len: self.pixels.len(),
            })
    }

    /// Write the dword at `addr`.
    pub fn write(&mut self, addr: u64, value: u32) -> Result<(), FbError> {
        let len = self.pixels.len();
        match usize::try_from(addr)
            .ok()
            .and_then(|a| self.pixels.get_mut(a))
        {
            Some(p) => {
                *p = value;
                Ok(())
            }
            None => Err(FbError::OutOfRange { addr, len }),
        }
    }

    /// Pixel (x, y), or `None` outside the picture.
    pub fn pixel(&self, x: u32, y: u32) -> Option<u32> {
        if x < self.width && y < self.height {
            self.pixels
                .get(y as usize * self.width as usize + x as usize)
                .copied()
        } else {
            None
        }
    }

    /// The picture as 8-bit RGB bytes, row-major (from `0x00RRGGBB` pixels).
    pub fn to_rgb8(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.pixels.len() * 3);
        for &p in &self.pixels {
            out.extend_from_slice(&[(p >> 16) as u8, (p >> 8) as u8, p as u8]);
        }
        out
    }

    /// Write the picture as an RGB PNG file (feature `png`).
    #[cfg(feature = "png")]
    pub fn write_png(&self, path: &Path) -> Result<(), FbError> {
        let err = |message: String| FbError::Png {
            path: path.display().to_string(),
            message,
        };
        let img = image::RgbImage::from_raw(self.width, self.height, self.to_rgb8())
            .ok_or_else(|| err("pixel buffer does not match the size".into()))?;
        img.save_with_format(path, image::ImageFormat::Png)
            .map_err(|e| err(e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_checked() {
        assert!(Framebuffer::new(0, 4).is_err());
        assert!(Framebuffer::new(4, 0).is_err());
        assert!(Framebuffer::new(70000, 1).is_err());
        let fb = Framebuffer::new(3, 2).unwrap();
        assert_eq!(fb.len(), 6);
    }

    #[test]
    fn read_write_and_bounds() {
        let mut fb = Framebuffer::new(4, 4).unwrap();
        fb.write(5, 0x00AB_CDEF).unwrap();
        assert_eq!(fb.read(5).unwrap(), 0x00AB_CDEF);
        assert_eq!(fb.pixel(1, 1), Some(0x00AB_CDEF));
        assert_eq!(fb.pixel(4, 0), None);
        assert!(fb.read(16).is_err());
        assert!(fb.write(u64::MAX, 1).is_err());
        assert!(fb.contains_range(12, 4));
        assert!(!fb.contains_range(12, 5));
        assert!(!fb.contains_range(u64::MAX, 2));
    }

    #[cfg(feature = "png")]
    #[test]
    fn png_round_trip() {
        let mut fb = Framebuffer::new(3, 2).unwrap();
        fb.write(0, 0x00FF_0000).unwrap();
        fb.write(4, 0xFF00_80FF).unwrap();
        let dir = std::env::temp_dir().join(format!("weft-fb-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.png");
        fb.write_png(&path).unwrap();
        let img = image::open(&path).unwrap().to_rgb8();
        assert_eq!(img.dimensions(), (3, 2));
        assert_eq!(img.get_pixel(0, 0).0, [255, 0, 0]);
        assert_eq!(img.get_pixel(1, 1).0, [0, 0x80, 0xFF]);
        assert_eq!(img.get_pixel(2, 1).0, [0, 0, 0]);
        std::fs::remove_dir_all(&dir).ok();
    }
}
