//! The layout the tables computed once and kept in the data directory share (the phrase
//! table, a family's table): an 8-byte magic, a 32-byte identity of what the table was
//! computed from, the table's own header and fixed-size entries, a blob of serialized
//! bitmaps (roaring's portable format) after its 8-byte length, and a CRC-32 of
//! everything before it. An entry names a bitmap by a `u64`: 0 for the empty set, else 1
//! plus its offset in the blob.

use std::ops::Range;

use roaring::RoaringBitmap;

/// Appends `docs` to `blob` unless it is empty; the entry value that names it.
pub(super) fn push_bitmap(blob: &mut Vec<u8>, docs: &RoaringBitmap) -> std::io::Result<u64> {
    if docs.is_empty() {
        return Ok(0);
    }
    let value = blob.len() as u64 + 1;
    docs.serialize_into(blob)?;
    Ok(value)
}

/// The bitmap the entry value `value` names in `blob`; `Err` naming what is damaged.
pub(super) fn read_bitmap(blob: &[u8], value: u64) -> Result<RoaringBitmap, String> {
    if value == 0 {
        return Ok(RoaringBitmap::new());
    }
    let offset = usize::try_from(value - 1).unwrap_or(usize::MAX);
    let bytes = blob.get(offset..).ok_or("offset")?;
    RoaringBitmap::deserialize_from(bytes).map_err(|e| e.to_string())
}

/// Ends a table's bytes: the blob after its length, then the CRC-32 of everything.
pub(super) fn finish(out: &mut Vec<u8>, blob: &[u8]) {
    out.extend_from_slice(&(blob.len() as u64).to_le_bytes());
    out.extend_from_slice(blob);
    crate::io::seal(out);
}

/// A table's bytes checked: the checksum, the magic (`kind` names what the table is when
/// it is something else) and the identity. The body (everything before the checksum)
/// and where the table's own header starts in it.
pub(super) fn open<'a>(
    bytes: &'a [u8],
    magic: &[u8; 8],
    identity: &[u8; 32],
    kind: &str,
) -> Result<(&'a [u8], usize), String> {
    let body = crate::io::unsealed(bytes)?;
    let rest = body
        .strip_prefix(magic.as_slice())
        .ok_or_else(|| format!("not a {kind}"))?;
    let (found, _) = rest.split_at_checked(32).ok_or("truncated identity")?;
    if found != identity {
        return Err("computed from other sources or under another secret".into());
    }
    Ok((body, magic.len() + identity.len()))
}

/// The `u64` at `at` in `body`; `Err` naming `what` when it is cut off.
pub(super) fn u64_at(body: &[u8], at: usize, what: &str) -> Result<u64, String> {
    body.get(at..)
        .and_then(|rest| rest.first_chunk::<8>())
        .map(|b| u64::from_le_bytes(*b))
        .ok_or_else(|| format!("truncated {what}"))
}

/// The range of `count` entries of `size` bytes from `start`.
pub(super) fn entries(start: usize, count: usize, size: usize) -> Result<Range<usize>, String> {
    let end = count
        .checked_mul(size)
        .and_then(|n| n.checked_add(start))
        .ok_or("impossible count")?;
    Ok(start..end)
}

/// The blob after the entries ending at `entries_end`, which must end the body.
pub(super) fn blob(body: &[u8], entries_end: usize) -> Result<Range<usize>, String> {
    let length = u64_at(body, entries_end, "bitmaps")?;
    let start = entries_end + 8;
    let blob = start
        ..usize::try_from(length)
            .ok()
            .and_then(|n| n.checked_add(start))
            .ok_or("impossible length")?;
    if blob.end != body.len() {
        return Err("truncated or trailing bytes".into());
    }
    Ok(blob)
}
