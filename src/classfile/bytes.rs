//! A bounds-checked big-endian byte reader for the parts of a classfile decoded by hand.

/// Reads big-endian values from a byte slice; every read returns `None` instead of running past
/// the end, so malformed input can never cause a panic.
#[derive(Clone, Debug)]
pub(crate) struct ByteReader<'bytes> {
    total_length: usize,
    rest: &'bytes [u8],
}

impl<'bytes> ByteReader<'bytes> {
    /// Starts reading at the beginning of `bytes`.
    pub(crate) fn new(bytes: &'bytes [u8]) -> ByteReader<'bytes> {
        ByteReader {
            total_length: bytes.len(),
            rest: bytes,
        }
    }

    /// The number of bytes consumed so far.
    pub(crate) fn position(&self) -> usize {
        self.total_length.saturating_sub(self.rest.len())
    }

    /// The number of bytes not yet consumed.
    pub(crate) fn remaining(&self) -> usize {
        self.rest.len()
    }

    /// Whether every byte has been consumed.
    pub(crate) fn is_empty(&self) -> bool {
        self.rest.is_empty()
    }

    fn array<const LENGTH: usize>(&mut self) -> Option<[u8; LENGTH]> {
        let (head, tail) = self.rest.split_first_chunk::<LENGTH>()?;
        self.rest = tail;
        Some(*head)
    }

    pub(crate) fn u8(&mut self) -> Option<u8> {
        let (first, tail) = self.rest.split_first()?;
        self.rest = tail;
        Some(*first)
    }

    pub(crate) fn i8(&mut self) -> Option<i8> {
        self.array::<1>().map(i8::from_be_bytes)
    }

    pub(crate) fn u16(&mut self) -> Option<u16> {
        self.array::<2>().map(u16::from_be_bytes)
    }

    pub(crate) fn i16(&mut self) -> Option<i16> {
        self.array::<2>().map(i16::from_be_bytes)
    }

    pub(crate) fn u32(&mut self) -> Option<u32> {
        self.array::<4>().map(u32::from_be_bytes)
    }

    pub(crate) fn i32(&mut self) -> Option<i32> {
        self.array::<4>().map(i32::from_be_bytes)
    }

    /// Consumes and returns the next `count` bytes.
    pub(crate) fn take(&mut self, count: usize) -> Option<&'bytes [u8]> {
        let (head, tail) = self.rest.split_at_checked(count)?;
        self.rest = tail;
        Some(head)
    }

    /// Consumes `count` bytes without looking at them.
    pub(crate) fn skip(&mut self, count: usize) -> Option<()> {
        self.take(count).map(|_| ())
    }
}
