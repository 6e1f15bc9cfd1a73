locals {
  file = "one.hcl"
}

values {
  a = local.file
  b = "bee"
  c = "${hv.a}${hv.b}"
  d = true
  e = 1
  list = [hv.b]
  tree = { branch = { leaf = { word = hv.a, flag = true } } }
}
