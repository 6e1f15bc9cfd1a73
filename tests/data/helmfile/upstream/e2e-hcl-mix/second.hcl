locals {
  origin = "second.hcl"
}

values {
  fromSecond = local.origin
}
