//! sprig v3's functions as helmfile (and Helm) register them: `TxtFuncMap`
//! (Masterminds/sprig functions.go `genericMap`), one file per family.

use super::func::FuncMap;

mod conv;
mod crypto;
mod dates;
mod defaults;
mod dicts;
mod encoding;
mod lists;
mod numbers;
mod reflect;
mod regex;
mod semver;
mod strings;

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
    m
}
