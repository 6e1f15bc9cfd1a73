//! sprig v3's functions as helmfile (and Helm) register them: `TxtFuncMap`
//! (Masterminds/sprig functions.go `genericMap`), one file per family.

use super::func::FuncMap;

mod conv;
mod crypto;
mod dates;
mod defaults;
pub use defaults::{from_json_value, json_marshal};
mod dicts;
mod encoding;
mod flow;
mod lists;
mod network;
mod numbers;
mod os;
mod paths;
mod random;
mod reflect;
mod regex;
mod semver;
mod strings;
mod urls;

/// sprig's `TxtFuncMap()`.
pub fn func_map() -> FuncMap {
    let mut m = FuncMap::new();
    strings::register(&mut m);
    regex::register(&mut m);
    encoding::register(&mut m);
    crypto::register(&mut m);
    defaults::register(&mut m);
    numbers::register(&mut m);
    lists::register(&mut m);
    dicts::register(&mut m);
    reflect::register(&mut m);
    semver::register(&mut m);
    dates::register(&mut m);
    paths::register(&mut m);
    urls::register(&mut m);
    random::register(&mut m);
    os::register(&mut m);
    network::register(&mut m);
    flow::register(&mut m);
    m
}
