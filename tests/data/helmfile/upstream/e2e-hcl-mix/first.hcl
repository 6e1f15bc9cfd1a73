locals {
  origin = "first.hcl"
}

values {
  a = "x"
  b = "bee"
  joined = "${hv.a}-${hv.b}"
  items = [hv.b, hv.a]
  locals = local

  left = { inner = { deepest = { word = hv.a } } }
  right = { inner = { deepest = { word = hv.joined } } }
  combined = merge(hv.left, hv.right)
  fromMerge = "${hv.combined.inner.deepest.word}"

  overridden = "by hcl"

  flag = false
  conditional = "%{if hv.flag}on%{else}off%{endif}"
  looped = "%{for i in hv.items}${i}%{endfor}"
  sum = 3 * 7

  twoBlocks = hv.otherBlock
  crossFile = hv.fromSecond
}

values {
  otherBlock = "second block"
}
