//! The issuance log as a tiled transparency log (c2sp.org/tlog-tiles, as c2sp.org/mtc-tlog
//! requires of an MTC CA): which tiles a tree of a given size has, their paths, and their
//! bytes.
//!
//! A hash tile at level L, index N holds the tree nodes of level 8L numbered
//! `N·256 … N·256 + W − 1` (level 0: the leaf hashes), 32 bytes each; W = 256 for a full
//! tile, 1 … 255 for the partial tile at the right edge. An entry bundle holds the same
//! range of entries, each a big-endian uint16 length and the MTCLogEntry bytes. Every
//! hash in a tile is a complete node, which never changes once the log has it, so a tile
//! read at any moment agrees with every checkpoint of a size that needs it.

use super::error::{MtcError, Result};
use super::hash::Hash;
use super::tree::NodeSource;

/// Hashes in a full tile (tlog-tiles: tiles of height 8).
pub const WIDTH: u64 = 256;
/// Tree levels a tile spans.
pub const HEIGHT: u32 = 8;
/// The highest tile level a path may name.
pub const MAX_LEVEL: u8 = 63;

/// What a tile holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Tree nodes of level `8 × level`.
    Hashes {
        /// The tile level (0 for leaf hashes).
        level: u8,
    },
    /// The entries of a level-0 tile.
    Entries,
}

/// One tile: what it holds, its index within its level, and its width.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Tile {
    /// Hash tile or entry bundle.
    pub kind: Kind,
    /// The tile's index within its level.
    pub index: u64,
    /// 1 … 256; 256 is a full tile.
    pub width: u16,
}

/// Why a path is not a tile path (the server answers 404 or 400 with it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadPath(pub String);

impl Tile {
    /// Whether the tile holds all 256 of its hashes or entries.
    pub fn is_full(&self) -> bool {
        u64::from(self.width) == WIDTH
    }

    /// The level of the tree nodes it holds (0 for entry bundles: they hash to leaves).
    pub fn node_level(&self) -> u32 {
        match self.kind {
            Kind::Hashes { level } => u32::from(level) * HEIGHT,
            Kind::Entries => 0,
        }
    }

    /// The nodes (of [`Tile::node_level`]) it holds: `[first, first + width)`; `None`
    /// past the end of any tree (an index a path may name, no tree can have).
    pub fn nodes(&self) -> Option<(u64, u64)> {
        let first = self.index.checked_mul(WIDTH)?;
        Some((first, first.checked_add(u64::from(self.width))?))
    }

    /// `tile/<L>/<N>[.p/<W>]` or `tile/entries/<N>[.p/<W>]`, without a leading slash.
    pub fn path(&self) -> String {
        let mut p = String::from("tile/");
        match self.kind {
            Kind::Hashes { level } => p.push_str(&level.to_string()),
            Kind::Entries => p.push_str("entries"),
        }
        p.push('/');
        p.push_str(&index_path(self.index));
        if !self.is_full() {
            p.push_str(&format!(".p/{}", self.width));
        }
        p
    }

    /// The tile a path names (relative to the log's prefix, no leading slash), in its one
    /// canonical spelling: anything else — leading zeros, a level over 63, a missing `x`,
    /// a width of 0 or 256 — is refused.
    pub fn parse(path: &str) -> std::result::Result<Tile, BadPath> {
        let bad = |why: &str| BadPath(format!("{path}: {why}"));
        let rest = path
            .strip_prefix("tile/")
            .ok_or_else(|| bad("not a tile path"))?;
        let (head, rest) = rest.split_once('/').ok_or_else(|| bad("no tile index"))?;
        let kind = if head == "entries" {
            Kind::Entries
        } else {
            let level = canonical_number(head)
                .filter(|l| *l <= u64::from(MAX_LEVEL))
                .ok_or_else(|| bad("the level is not a number from 0 to 63"))?;
            Kind::Hashes { level: level as u8 }
        };
        let (index, width) = match rest.split_once(".p/") {
            Some((n, w)) => {
                let w = canonical_number(w)
                    .filter(|w| (1..WIDTH).contains(w))
                    .ok_or_else(|| bad("a partial width is a number from 1 to 255"))?;
                (n, w as u16)
            }
            None => (rest, WIDTH as u16),
        };
        let index = parse_index(index).ok_or_else(|| bad("malformed tile index"))?;
        Ok(Tile { kind, index, width })
    }
}

/// A decimal number with no leading zeros (a lone "0" is fine), below 10^18.
fn canonical_number(s: &str) -> Option<u64> {
    let ok = !s.is_empty()
        && s.len() <= 18
        && s.bytes().all(|b| b.is_ascii_digit())
        && (s == "0" || !s.starts_with('0'));
    ok.then(|| s.parse().ok()).flatten()
}

/// `N` as tlog-tiles writes it: three-digit groups, all but the last prefixed with `x`
/// (1234067 → `x001/x234/067`).
pub fn index_path(n: u64) -> String {
    let mut groups = Vec::new();
    let mut n = n;
    loop {
        groups.push(n % 1000);
        n /= 1000;
        if n == 0 {
            break;
        }
    }
    let last = groups.len() - 1;
    groups
        .iter()
        .rev()
        .enumerate()
        .map(|(i, g)| {
            if i < last {
                format!("x{g:03}")
            } else {
                format!("{g:03}")
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// The inverse of [`index_path`], canonical spellings only (no `x000` group in front).
fn parse_index(s: &str) -> Option<u64> {
    let groups: Vec<&str> = s.split('/').collect();
    // 2^64 has 20 digits: at most 7 groups.
    if groups.len() > 7 {
        return None;
    }
    let mut n: u64 = 0;
    for (i, g) in groups.iter().enumerate() {
        let digits = if i + 1 < groups.len() {
            g.strip_prefix('x')?
        } else {
            g
        };
        if digits.len() != 3 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        if i == 0 && groups.len() > 1 && digits == "000" {
            return None;
        }
        n = n
            .checked_mul(1000)?
            .checked_add(digits.parse::<u64>().ok()?)?;
    }
    Some(n)
}

/// Nodes of `level`-tile level in a tree of `size` leaves: `size / 256^level`.
fn nodes_at(size: u64, level: u8) -> u64 {
    let shift = u32::from(level) * HEIGHT;
    if shift >= 64 {
        0
    } else {
        size >> shift
    }
}

/// Every tile of a tree of `size` entries: at each level the full tiles and the partial
/// one (if any), then the entry bundles, in that order.
pub fn tiles_of(size: u64) -> Vec<Tile> {
    tiles_between(0, size)
}

/// The tiles a tree of `size` has that one of `old` entries has not: tiles that became
/// full and the partial tiles of `size` (each level's; new whenever their width changed).
pub fn tiles_between(old: u64, size: u64) -> Vec<Tile> {
    let mut out = Vec::new();
    let mut push_level = |kind: Kind, old_nodes: u64, nodes: u64| {
        let old_full = old_nodes / WIDTH;
        for index in old_full..nodes / WIDTH {
            out.push(Tile {
                kind,
                index,
                width: WIDTH as u16,
            });
        }
        let width = nodes % WIDTH;
        if width > 0 && nodes != old_nodes {
            out.push(Tile {
                kind,
                index: nodes / WIDTH,
                width: width as u16,
            });
        }
    };
    for level in 0..=MAX_LEVEL {
        let nodes = nodes_at(size, level);
        if nodes == 0 {
            break;
        }
        push_level(Kind::Hashes { level }, nodes_at(old, level), nodes);
    }
    push_level(Kind::Entries, old, size);
    out
}

/// Whether a tree of `size` entries holds every node (or entry) of `tile`. A partial tile
/// of a smaller size is still backed by the larger tree: its nodes never change.
pub fn has_tile(size: u64, tile: &Tile) -> bool {
    let nodes = match tile.kind {
        Kind::Hashes { level } => nodes_at(size, level),
        Kind::Entries => size,
    };
    tile.nodes().is_some_and(|(_, end)| end <= nodes)
}

/// A hash tile's bytes: its nodes from `src`, 32 bytes each.
pub fn hash_tile<S: NodeSource + ?Sized>(src: &S, tile: &Tile) -> Result<Vec<u8>> {
    if tile.kind == Kind::Entries {
        return Err(MtcError::Invalid(
            "an entry bundle is not a hash tile".into(),
        ));
    }
    let (first, end) = tile
        .nodes()
        .ok_or_else(|| MtcError::Invalid(format!("{}: past any tree", tile.path())))?;
    let hashes = src.nodes(tile.node_level(), first, end)?;
    Ok(hashes.concat())
}

/// A hash tile whose length is not its width's: what a served log got wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WrongTileLength {
    /// The bytes served.
    pub got: usize,
    /// The tile's width in hashes.
    pub width: u16,
}

impl std::fmt::Display for WrongTileLength {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} bytes; a tile of width {} has {}",
            self.got,
            self.width,
            usize::from(self.width) * 32
        )
    }
}

impl std::error::Error for WrongTileLength {}

/// A hash tile's bytes as its hashes: exactly `t.width` of them.
pub fn tile_hashes(t: &Tile, bytes: &[u8]) -> std::result::Result<Vec<Hash>, WrongTileLength> {
    if bytes.len() != usize::from(t.width) * 32 {
        return Err(WrongTileLength {
            got: bytes.len(),
            width: t.width,
        });
    }
    Ok(bytes
        .chunks_exact(32)
        .map(|c| {
            let mut h = [0u8; 32];
            h.copy_from_slice(c);
            h
        })
        .collect())
}

/// An entry bundle's bytes: each entry as a big-endian uint16 length and its bytes.
pub fn entry_bundle<'e>(entries: impl IntoIterator<Item = &'e [u8]>) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    for e in entries {
        let len = u16::try_from(e.len()).map_err(|_| {
            MtcError::Invalid(format!(
                "an entry of {} bytes does not fit an entry bundle (at most 65,535)",
                e.len()
            ))
        })?;
        out.extend_from_slice(&len.to_be_bytes());
        out.extend_from_slice(e);
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
