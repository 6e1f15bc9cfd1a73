locals {
  mainLocal = "local of main"
}

values {
  p = "p"
  q = "q"
  pq = "${hv.p}${hv.q}"
  byKey = {
    "p" = "${hv.p}"
  }
  seq = [hv.q]
  deep = { one = { two = { word = hv.pq } } }
  chosen = true ? true : false
  fromKeys = "${hv.byKey.p}${hv.deep.one.two.word}"
  inText = "%{if hv.chosen}yes%{else}no%{endif}"
  inFor = "%{for s in hv.seq}${s}%{endfor}"
  otherBlock = hv.blockValue
  otherFile = hv.fromOther
  localRef = local.mainLocal
}

values {
  blockValue = "block value"
}
