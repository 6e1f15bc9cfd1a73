//! sprig: paths.

use crate::gotmpl::func::FuncMap;

pub(super) fn register(_m: &mut FuncMap) {}
