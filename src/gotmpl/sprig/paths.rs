//! sprig: paths (functions.go: `base`, `dir`, `clean`, `ext`, `isAbs` are
//! Go's `path`; the `os*` forms are `path/filepath`, which on the Unix
//! systems helmfile runs on are the same functions with `/`).

use crate::gotmpl::func::{Derive, FuncMap, Param, Sig};
use crate::go::path::{base, clean};

use super::strings::{arg_str, ok_bool, ok_str, ok_string};

pub(super) fn register(m: &mut FuncMap) {
    let sig = Sig::fixed(&[Param::String]);
    for (plain, os) in [("base", "osBase"), ("dir", "osDir"), ("clean", "osClean"), ("ext", "osExt"), ("isAbs", "osIsAbs")] {
        let f: crate::gotmpl::func::GoFn = match plain {
            "base" => |_, a| ok_str(base(arg_str(&a, 0)?)),
            "dir" => |_, a| ok_string(dir(arg_str(&a, 0)?)),
            "clean" => |_, a| ok_string(clean(arg_str(&a, 0)?)),
            "ext" => |_, a| ok_str(ext(arg_str(&a, 0)?)),
            _ => |_, a| ok_bool(arg_str(&a, 0)?.starts_with('/')),
        };
        m.add(plain, sig, Derive::Made, f);
        m.add(os, sig, Derive::Made, f);
    }
}

/// `path.Dir`: everything before the last `/`, cleaned.
fn dir(p: &str) -> String {
    let cut = p.rfind('/').map_or(0, |i| i + 1);
    clean(&p[..cut])
}

/// `path.Ext`: from the last `.` of the last element.
fn ext(p: &str) -> &str {
    let last = p.rfind('/').map_or(0, |i| i + 1);
    p[last..].rfind('.').map_or("", |i| &p[last + i..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dir_and_ext_follow_gos_path_package() {
        for (p, d, e) in [("a/b.c/d", "a/b.c", ""), ("/x.tar.gz", "/", ".gz"), ("", ".", ""), ("a/", "a", ""), ("//a//b", "/a", "")] {
            assert_eq!((dir(p).as_str(), ext(p)), (d, e), "{p}");
        }
    }
}
