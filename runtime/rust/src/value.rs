//! TEMPORARY stub until the helper's module lands.
pub fn first_duplicate(items: &[serde_json::Value]) -> Option<(usize, usize)> {
    for i in 0..items.len() { for j in i+1..items.len() { if items[i] == items[j] { return Some((i, j)); } } }
    None
}
