use concord::runtime::Record;
use std::time::Instant;
fn main() {
    let full: serde_json::Value = serde_json::from_slice(&std::fs::read("tests/roundtrip/ClsArtifact/full.json").unwrap()).unwrap();
    let mut doc = full.clone();
    let kernel = full["kernels"][0].clone();
    let mut ks = vec![];
    for i in 0..20000 { let mut k = kernel.clone(); k["name"] = format!("triton_poi_fused_{i}").into(); ks.push(k); }
    doc["kernels"] = serde_json::Value::Array(ks);
    doc["zz_unknown"] = serde_json::json!({"a": [1,2,3], "b": "x"});
    let bytes = serde_json::to_vec(&doc).unwrap();
    let mb = bytes.len() as f64 / 1048576.0;
    for _ in 0..3 {
        let t = Instant::now(); let mut n = 0;
        for _ in 0..10 { let r = concord::ClsArtifact::from_json(&bytes).unwrap(); n += r.kernels.len(); }
        let read = 10.0 * mb / t.elapsed().as_secs_f64();
        let r = concord::ClsArtifact::from_json(&bytes).unwrap();
        let t = Instant::now();
        for _ in 0..10 { n += r.to_json().unwrap().len(); }
        let write = 10.0 * mb / t.elapsed().as_secs_f64();
        let t = Instant::now();
        for _ in 0..10 { let v: serde_json::Value = serde_json::from_slice(&bytes).unwrap(); n += v.as_object().unwrap().len(); }
        let value = 10.0 * mb / t.elapsed().as_secs_f64();
        let t = Instant::now();
        for _ in 0..10 { let v: concord::ClsArtifact = serde_json::from_slice(&bytes).unwrap(); n += v.kernels.len(); }
        let serde_gen = 10.0 * mb / t.elapsed().as_secs_f64();
        let t = Instant::now();
        for _ in 0..10 { n += serde_json::to_vec(&r).unwrap().len(); }
        let serde_write = 10.0 * mb / t.elapsed().as_secs_f64();
        println!("{mb:.1} MiB: from_json {read:.0} MiB/s, serde_json::from_slice(generated) {serde_gen:.0}, Value {value:.0}; to_json {write:.0}, serde_json::to_vec(generated) {serde_write:.0} ({n})");
    }
}
