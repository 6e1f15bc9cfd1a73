//! hashicorp/go-cty-funcs cidr (host.go, netmask.go, subnet.go,
//! subnets.go) over apparentlymart/go-cidr: cidrhost, cidrnetmask,
//! cidrsubnet, cidrsubnets. Current helmfile registers them; helmfile
//! 0.166.0 does not (its HCL says "Call to unknown function").

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use hcl::Value;
use hcl::eval::Context;

use super::cty::{FnErr, Spec, Ty, declare, int_of, p, str_of};

/// A network: its address as a number, prefix length, address bits (32 or 128).
#[derive(Clone, Copy)]
struct Net {
    ip: u128,
    len: u32,
    bits: u32,
}

impl Net {
    fn text(&self) -> String {
        format!("{}/{}", addr(self.ip, self.bits), self.len)
    }

    fn contains(&self, ip: u128) -> bool {
        let host = self.bits - self.len;
        host >= 128 || (ip >> host) == (self.ip >> host)
    }
}

fn addr(ip: u128, bits: u32) -> IpAddr {
    if bits == 32 { IpAddr::V4(Ipv4Addr::from(ip as u32)) } else { IpAddr::V6(Ipv6Addr::from(ip)) }
}

/// net.ParseCIDR: the network (host bits cleared).
fn parse(s: &str) -> Result<Net, String> {
    let bad = || format!("invalid CIDR expression: invalid CIDR address: {s}");
    let (a, l) = s.split_once('/').ok_or_else(bad)?;
    let ip: IpAddr = a.parse().map_err(|_| bad())?;
    let (ip, bits) = match ip {
        IpAddr::V4(v) => (u32::from(v) as u128, 32),
        IpAddr::V6(v) => (u128::from(v), 128),
    };
    if l.is_empty() || l.len() > 3 || !l.bytes().all(|c| c.is_ascii_digit()) {
        return Err(bad());
    }
    let len: u32 = l.parse().map_err(|_| bad())?;
    if len > bits {
        return Err(bad());
    }
    Ok(Net { ip: ip & mask(len, bits), len, bits })
}

fn mask(len: u32, bits: u32) -> u128 {
    let all: u128 = if bits == 128 { u128::MAX } else { (1u128 << bits) - 1 };
    if len == 0 { 0 } else { all & !(all >> len) }
}

static CIDRHOST: Spec = Spec {
    name: "cidrhost",
    params: &[p("prefix", Ty::Str), p("hostnum", Ty::Num)],
    var: None,
    imp: |a| {
        let num = int_of(&a[1]).map_err(FnErr::Call)?;
        let net = parse(str_of(&a[0])).map_err(FnErr::Call)?;
        // go-cidr HostBig: a negative number counts back from the last address.
        let host = net.bits - net.len;
        let max: u128 = if host >= 128 { u128::MAX } else { (1u128 << host) - 1 };
        let n: u128 = if num < 0 { max.wrapping_sub(num.unsigned_abs() as u128 - 1) } else { num as u128 };
        if (num < 0 && num.unsigned_abs() as u128 - 1 > max) || (num >= 0 && n > max) {
            return Err(FnErr::Call(format!("prefix of {} does not accommodate a host numbered {num}", net.len)));
        }
        Ok(Value::String(addr(net.ip | n, net.bits).to_string()))
    },
};
static CIDRNETMASK: Spec = Spec {
    name: "cidrnetmask",
    params: &[p("prefix", Ty::Str)],
    var: None,
    imp: |a| {
        let net = parse(str_of(&a[0])).map_err(FnErr::Call)?;
        Ok(Value::String(addr(mask(net.len, net.bits), net.bits).to_string()))
    },
};
static CIDRSUBNET: Spec = Spec {
    name: "cidrsubnet",
    params: &[p("prefix", Ty::Str), p("newbits", Ty::Num), p("netnum", Ty::Num)],
    var: None,
    imp: |a| {
        let newbits = int_of(&a[1]).map_err(FnErr::Call)?;
        let netnum = int_of(&a[2]).map_err(FnErr::Call)?;
        let net = parse(str_of(&a[0])).map_err(FnErr::Call)?;
        if newbits > 32 {
            return Err(FnErr::Call("may not extend prefix by more than 32 bits".into()));
        }
        subnet(net, newbits, netnum).map(|n| Value::String(n.text())).map_err(FnErr::Call)
    },
};
static CIDRSUBNETS: Spec = Spec { name: "cidrsubnets", params: &[p("prefix", Ty::Str)], var: Some(p("newbits", Ty::Num)), imp: subnets };

/// go-cidr Subnet.
fn subnet(net: Net, newbits: i64, num: i64) -> Result<Net, String> {
    let len = net.len as i64 + newbits;
    if newbits < 0 || len > net.bits as i64 {
        return Err(format!("insufficient address space to extend prefix of {} by {newbits}", net.len));
    }
    let max: u128 = (1u128 << newbits) - 1;
    if num < 0 || num as u128 > max {
        return Err(format!("prefix extension of {newbits} does not accommodate a subnet numbered {num}"));
    }
    let len = len as u32;
    Ok(Net { ip: net.ip | ((num as u128) << (net.bits - len)), len, bits: net.bits })
}

/// SubnetsFunc: consecutive subnets, each aligned after the previous one.
fn subnets(a: &[Value]) -> Result<Value, FnErr> {
    let net = parse(str_of(&a[0])).map_err(|e| FnErr::Arg(0, e))?;
    let mut out = Vec::new();
    // The next free address.
    let mut next: u128 = net.ip;
    let mut last = net;
    for (i, v) in a[1..].iter().enumerate() {
        let add = int_of(v).map_err(|e| FnErr::Arg(i + 1, e))?;
        if add < 1 {
            return Err(FnErr::Arg(i + 1, "must extend prefix by at least one bit".into()));
        }
        if add > 32 {
            return Err(FnErr::Arg(i + 1, "may not extend prefix by more than 32 bits".into()));
        }
        let len = net.len as i64 + add;
        if len > net.bits as i64 {
            let proto = if net.bits == 32 { "IPv4" } else { "IPv6" };
            return Err(FnErr::Arg(i + 1, format!("would extend prefix to {len} bits, which is too long for an {proto} address")));
        }
        let len = len as u32;
        let size: u128 = 1u128 << (net.bits - len);
        // go-cidr NextSubnet: the first block of this size at or after `next`.
        let start = next.div_ceil(size).checked_mul(size);
        let fits = start.is_some_and(|s| net.contains(s) && (net.bits == 128 || s < (1u128 << 32)));
        let Some(start) = start.filter(|_| fits) else {
            let after = if out.is_empty() { Net { ip: net.ip.wrapping_sub(size), len, bits: net.bits }.text() } else { last.text() };
            return Err(FnErr::Arg(i + 1, format!("not enough remaining address space for a subnet with a prefix of {len} bits after {after}")));
        };
        last = Net { ip: start, len, bits: net.bits };
        next = start + size;
        out.push(Value::String(last.text()));
    }
    Ok(Value::Array(out))
}

pub(super) fn register(ctx: &mut Context) {
    declare!(ctx, CIDRHOST, CIDRNETMASK, CIDRSUBNET, CIDRSUBNETS);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(spec: &Spec, args: &[Value]) -> String {
        super::super::cty::call(spec, args).map_or_else(|e| format!("ERR {e}"), |v| match v {
            Value::String(s) => s,
            other => super::super::encoding::cty_json(&other),
        })
    }

    // Cases from go-cty-funcs cidr/*_test.go.
    #[test]
    fn cidr_functions_as_go_cty_funcs_tests_expect() {
        assert_eq!(call(&CIDRHOST, &[Value::from("192.168.1.0/24"), Value::from(5)]), "192.168.1.5");
        assert_eq!(call(&CIDRHOST, &[Value::from("192.168.1.0/24"), Value::from(-5)]), "192.168.1.251");
        assert_eq!(call(&CIDRHOST, &[Value::from("192.168.1.0/30"), Value::from(255)]), "ERR Error in function call; Call to function \"cidrhost\" failed: prefix of 30 does not accommodate a host numbered 255.");
        assert_eq!(call(&CIDRHOST, &[Value::from("1::/64"), Value::from(5)]), "1::5");
        assert_eq!(call(&CIDRNETMASK, &[Value::from("192.168.1.0/24")]), "255.255.255.0");
        assert_eq!(call(&CIDRNETMASK, &[Value::from("192.168.1.0/32")]), "255.255.255.255");
        assert_eq!(call(&CIDRNETMASK, &[Value::from("not-a-cidr")]), "ERR Error in function call; Call to function \"cidrnetmask\" failed: invalid CIDR expression: invalid CIDR address: not-a-cidr.");
        assert_eq!(call(&CIDRSUBNET, &[Value::from("192.168.2.0/20"), Value::from(4), Value::from(6)]), "192.168.6.0/24");
        assert_eq!(call(&CIDRSUBNET, &[Value::from("fe80::/48"), Value::from(16), Value::from(6)]), "fe80:0:0:6::/64");
        assert_eq!(call(&CIDRSUBNET, &[Value::from("192.168.2.0/24"), Value::from(4), Value::from(17)]), "ERR Error in function call; Call to function \"cidrsubnet\" failed: prefix extension of 4 does not accommodate a subnet numbered 17.");
        assert_eq!(call(&CIDRSUBNETS, &[Value::from("10.0.0.0/8"), Value::from(8), Value::from(8), Value::from(16), Value::from(8)]), "[\"10.0.0.0/16\",\"10.1.0.0/16\",\"10.2.0.0/24\",\"10.3.0.0/16\"]");
        assert!(call(&CIDRSUBNETS, &[Value::from("10.0.0.0/30"), Value::from(1), Value::from(1), Value::from(1)]).starts_with("ERR Invalid function argument; Invalid value for \"newbits\" parameter: not enough remaining address space"));
    }
}
