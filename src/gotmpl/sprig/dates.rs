//! sprig: dates.

use super::defaults::ObjectJson;
use crate::gotmpl::GoObject;
use crate::gotmpl::func::FuncMap;

pub(super) fn register(_m: &mut FuncMap) {}

pub(super) fn object_json(_o: &dyn GoObject) -> Option<ObjectJson> {
    None
}
