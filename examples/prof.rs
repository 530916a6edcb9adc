use concord::runtime::Record;
fn main() {
    let full: serde_json::Value = serde_json::from_slice(&std::fs::read("tests/roundtrip/ClsArtifact/full.json").unwrap()).unwrap();
    let mut doc = full.clone();
    let kernel = full["kernels"][0].clone();
    let ks: Vec<_> = (0..5000).map(|i| { let mut k = kernel.clone(); k["name"] = format!("triton_poi_fused_{i}").into(); k }).collect();
    doc["kernels"] = serde_json::Value::Array(ks);
    let bytes = serde_json::to_vec(&doc).unwrap();
    let mode = std::env::args().nth(1).unwrap();
    let mut n = 0;
    for _ in 0..5 {
        if mode == "read" { n += concord::ClsArtifact::from_json(&bytes).unwrap().kernels.len(); }
        else { let v: concord::ClsArtifact = serde_json::from_slice(&bytes).unwrap(); n += v.kernels.len(); }
    }
    println!("{n}");
}
