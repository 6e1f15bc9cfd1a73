//! Go value conversions sprig makes (spf13/cast, sprig's strval/toInt64 helpers).
