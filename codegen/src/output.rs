//! Writing what concord makes (generated files, a re-pinned index): each
//! file whole or not at all.

use std::path::Path;

/// Writes through a temporary file and a rename, so a reader sees the old
/// bytes or the new ones, never half of them.
pub fn write_atomically(file: &Path, bytes: &[u8]) -> Result<(), String> {
    let name = file.file_name().and_then(|n| n.to_str()).unwrap_or("out");
    let temporary = file.with_file_name(format!(".{name}.concord-tmp"));
    std::fs::write(&temporary, bytes).and_then(|()| std::fs::rename(&temporary, file)).map_err(|error| {
        let _ = std::fs::remove_file(&temporary);
        format!("cannot write: {error}")
    })
}
