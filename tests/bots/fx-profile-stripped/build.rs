//! Links the bot without its name section (wasm-ld's `--strip-all`), as a release build with
//! `strip = true` would.

fn main() {
    if std::env::var("CARGO_CFG_TARGET_FAMILY").is_ok_and(|family| family == "wasm") {
        println!("cargo:rustc-link-arg=--strip-all");
    }
}
