//! sprig: network (network.go `getHostByName`: `net.LookupHost` and a
//! random one of the addresses). A values template must not reach DNS:
//! releasex refuses the call, naming it, instead of answering.

use crate::gotmpl::func::{Derive, FnError, FuncMap, Param, Sig};

pub(super) fn register(m: &mut FuncMap) {
    let def = m.add("getHostByName", Sig::fixed(&[Param::String]), Derive::Made, |_, _| {
        Err(FnError::Unsupported("getHostByName (a DNS lookup: releasex never resolves names while explaining values)".into()))
    });
    def.nondeterministic = true;
}
