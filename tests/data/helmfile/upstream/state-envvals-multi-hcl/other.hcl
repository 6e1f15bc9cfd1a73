values {
  fromOther = "set in other.hcl"
}
