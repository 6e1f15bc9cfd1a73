//! Go's formatting and parsing, byte for byte, one implementation each:
//! `strconv.Quote` and `IsPrint` ([`quote`]), `fmt`'s `%v`/`%g` of decoded
//! values ([`fmt`]), `encoding/json` output ([`json`]) and decoding
//! ([`json_decode`]), the indented JSON with Go's numbers of this program's
//! own output ([`json_pretty`]), `sort.Sort`/`sort.SliceStable` ([`sort`]),
//! `path.Clean` and `filepath.Base` ([`path`]), `time.ParseDuration` and
//! client-go's timeout flag ([`duration`]), and the value model the
//! printers walk ([`value`]). Helm's messages and wire bytes come from Go,
//! so every module that reproduces them uses these. The ground floor: of
//! the crate it imports only `keypath` (the JSON writer writes value paths).

pub mod csv;
pub mod duration;
pub mod fmt;
pub mod ftoa;
pub mod json;
pub mod json_decode;
pub mod json_pretty;
pub(crate) mod json_scan;
pub mod os;
pub mod path;
pub mod printf;
pub mod quote;
pub mod slog;
pub mod sort;
pub mod value;
