locals {
  file = "two.hcl"
}

values {
  a = local.file
  b = "bee2"
  c = upper("${hv.a}${hv.b}")
  d = false
  e = 2
  list = [hv.a, hv.b]
  tree = { branch = { leaf = { word = "leaf", flag = lower("FALSE") } } }
}
