# The hand-written cases of tests/data/go/printf.json (every verb and flag on
# every type, the format machinery, Sprint/Sprintln). Regenerate the table:
#   python3 tools/go-printf-oracle/cases.py
#   GO111MODULE=off go run ./tools/go-printf-oracle -generate 700 -seed 19 tests/data/go/printf.json
import json, sys
cases=[]
def I(v,t="int"): return {"t":t,"v":v}
def F(v,t="float64"): return {"t":t,"v":v}
def S(v): return {"t":"string","v":v}
def B(v=None,hx=None):
    d={"t":"[]byte"}
    if hx is not None: d["hex"]=hx
    else: d["v"]=v
    return d
def L(items,t="[]interface {}"): return {"t":t,"v":items}
def M(entries,t="map[string]interface {}"): return {"t":t,"v":entries}
NIL={"t":"nil"}
TRUE={"t":"bool","v":True}; FALSE={"t":"bool","v":False}
TIME={"t":"time.Time","v":"2024-05-06T07:08:09Z","text":"2024-05-06 07:08:09 +0000 UTC","gostring":"time.Date(2024, time.May, 6, 7, 8, 9, 0, time.UTC)"}
def c(name, fmt, *args, fn=None):
    d={"name":name,"format":fmt,"args":list(args)}
    if fn: d["func"]=fn; del d["format"]
    cases.append(d)
# ints
for t in ["int","int8","int16","int32","int64","uint","uint8","uint16","uint32","uint64","uintptr"]:
    v = 42
    for f in ["%v","%d","%+d","% d","%5d","%-5d|","%05d","%x","%#x","%X","%#X","%o","%#o","%O","%b","%#b","%c","%q","%U","%#U","%T","%#v","%.3d","%8.3d","%08.3d","%+.0d"]:
        c(f"int/{t}/{f}", f, I(v,t))
c("int/negative/%d","%d",I(-42)); c("int/negative/%x","%x",I(-255)); c("int/negative/%#o","%#o",I(-8)); c("int/negative/%05d","%05d",I(-42))
c("int/negative/%b","%b",I(-5,"int8")); c("int/min/int64","%d",I(-9223372036854775808,"int64")); c("int/min/%x","%x",I(-9223372036854775808,"int64"))
c("int/max/uint64","%d",I(18446744073709551615,"uint64")); c("int/max/uint64 %x","%#X",I(18446744073709551615,"uint64"))
c("int/max/uint64 %v","%#v",I(18446744073709551615,"uint64"))
c("int/%c/invalid","%c",I(1114112)); c("int/%c/negative","%c",I(-1)); c("int/%c/surrogate","%c",I(55296)); c("int/%q/surrogate","%q",I(55296))
c("int/%q/newline","%q",I(10)); c("int/%q/quote","%q",I(39)); c("int/%+q/é","%+q",I(233)); c("int/%q/é","%q",I(233)); c("int/%q/emoji","%+q",I(128512))
c("int/%U/negative","%U",I(-1)); c("int/%U/prec","%.8U",I(120)); c("int/%#U/unprintable","%#U",I(7)); c("int/%#10U","%#10U",I(120)); c("int/%010U","%010U",I(120))
c("int/%.0d/zero","[%.0d]",I(0)); c("int/%5.0d/zero","[%5.0d]",I(0)); c("int/%05.0d/zero","[%05.0d]",I(0))
c("int/bad/%s","%s",I(5)); c("int/bad/%f","%f",I(5)); c("int/bad/%t","%t",I(5,"uint8")); c("int/bad/%e width","%8e",I(5))
c("int/%-08d","%-08d|",I(5)); c("int/%0-8d","%0-8d|",I(5)); c("int/% +d","% +d",I(5)); c("int/%+ d","%+ d",I(5)); c("int/% 05d","% 05d",I(5)); c("int/%+05d","%+05d",I(-5))
c("int/%#08x","%#08x",I(255)); c("int/%#.4x","%#.4x",I(255)); c("int/%# x","%# x",I(255)); c("int/%x of int8 -128","%x",I(-128,"int8"))
# floats
vals=["0","-0","1","-1","3.14159","2.5","0.5","1e6","123456","1234567","1e21","1e20","1e-5","0.0001","5e-324","1.7976931348623157e308","NaN","+Inf","-Inf","100","0.1","1.005","2.675","0.125","12345.6789","-0.000123"]
ffs=["%v","%g","%G","%e","%E","%f","%F","%.2f","%.0f","%.3e","%.3g","%.10g","%10.3f","%-10.3f|","%010.3f","%+.2e","% .2f","%#g","%#.3g","%#.0f","%#.0e","%x","%X","%.2x","%#x","%b","%#v","%+v","%08v","% 8v","%+08.2f","%.20f","%.30e","%.17g","%T","%010v"]
for v in vals:
    for f in ffs:
        c(f"float64/{v}/{f}", f, F(v))
for v in ["0","1","3.14159","0.1","1e6","1234567","16777216","3.4028235e38","1.401298464324817e-45","NaN","-Inf","0.3"]:
    for f in ["%v","%g","%e","%.3f","%.10f","%x","%b","%#v","%T","%.20g"]:
        c(f"float32/{v}/{f}", f, F(v,"float32"))
c("float/bad/%d","%d",F("1.5")); c("float/bad/%s","%s",F("1e21")); c("float/bad/%#d","%#d",F("1.5")); c("float/bad/%q","%q",F("NaN")); c("float/bad/%c width","%5c",F("2"))
c("float/%.1f/tie 0.25","%.1f",F("0.25")); c("float/%.1f/tie 0.35","%.1f",F("0.35")); c("float/%.2f/1.125","%.2f",F("1.125")); c("float/%.0f/3.5","%.0f",F("3.5")); c("float/%.0e/2.5","%.0e",F("2.5")); c("float/%.1e/1.25","%.1e",F("1.25"))
c("float/%.3g/999.5","%.3g",F("999.5")); c("float/%.0f/9.5","%.0f",F("9.5")); c("float/%.1g/0.95","%.1g",F("0.95")); c("float/%g/1e-7","%g",F("1e-7")); c("float/%g/100000","%g",F("100000")); c("float/%g/1000000","%g",F("1000000"))
c("float/%.2g/1e-7","%.2g",F("1.23e-7")); c("float/%.x/1","%.0x",F("1.5")); c("float/%.1x/1.96875","%.1x",F("1.96875")); c("float/%x/denormal","%x",F("5e-324")); c("float/%x/huge","%x",F("1.7976931348623157e308"))
c("float/%+v/NaN","%+v",F("NaN")); c("float/% v/NaN","% v",F("NaN")); c("float/%05v/Inf","%05v",F("+Inf")); c("float/%-6v/Inf","%-6v|",F("-Inf")); c("float/%+f/Inf","%+f",F("+Inf"))
# shortest digits at an exact tie: Go takes the even one
for v,t in [("47144.8125","float32"),("65076.5625","float32"),("-1710170333337.40625","float64"),("58774.3125","float32"),("0.15625","float32")]:
    for f in ["%v","%g","%e","%.3f","%s"]:
        c(f"float/shortest tie/{t} {v}/{f}", f, F(v,t))
# strings
svals=["","hello","héllo","日本語","tab\there","nl\nx","q\"x","b`t","\x00\x7f","emoji 😀","\u00a0nb","\ufeffbom","a\\b","\u200b", "\U0010ffff"]
sfs=["%v","%s","%q","%+q","%#q","%x","%X","% x","%#x","%# X","%5s","%-5s|","%05s","%.2s","%5.1s","%.0s","%.3q","%10q","%T","%#v","%.1x","%8x","%-8x|","%d","%t","%.2v","%#+q"]
for v in svals:
    for f in sfs:
        c(f"string/{v!r}/{f}", f, S(v))
# bytes
for b in [B("hello"),B(""),B(hx="00ff10"),B(hx="e282ac"),B(hx="e282"),B("héllo"),B(hx="ed a0 80".replace(" ",""))]:
    for f in ["%v","%s","%q","%+q","%#q","%x","%X","% x","%#x","%d","%#v","%T","%5s","%.2s","%c","%o","%t","%08b","%.1q","%U"]:
        c(f"bytes/{b.get('v',b.get('hex'))!r}/{f}", f, b)
# bools, nil
for f in ["%v","%t","%5t","%-6t|","%#v","%T","%d","%s","%q","%010t","%+v"]:
    c(f"bool/true/{f}",f,TRUE); c(f"bool/false/{f}",f,FALSE)
for f in ["%v","%d","%s","%T","%#v","%5v","%-5v|","%q","%x","%+v","%p"]:
    c(f"nil/{f}",f,NIL)
# lists, maps
lst=L([I(1),S("a b"),NIL,F("2.5"),TRUE,L([I(2),S("x")]),M([[S("k"),I(1)]])])
strl=L([S("a"),S("b c"),S("")],"[]string")
intl=L([I(1),I(-2),I(30)],"[]int")
fl=L([F("1.5"),F("1e21"),F("NaN")],"[]float64")
m=M([[S("zeta"),I(1)],[S("alpha"),L([S("x"),NIL])],[S("Beta"),NIL],[S("b"),M([[S("y"),TRUE],[S("x"),F("0.5")]])],[S(""),S("empty")]])
mi=M([[I(10),S("ten")],[I(-3),S("minus three")],[I(2),S("two")],[I(0),S("zero")]],"map[int]string")
mf=M([[F("2.5"),S("a")],[F("NaN"),S("nan")],[F("-1"),S("b")],[F("+Inf"),S("inf")],[F("-Inf"),S("-inf")]],"map[float64]string")
mb=M([[TRUE,I(1)],[FALSE,I(0)]],"map[bool]int")
ms=M([[S("b"),S("2")],[S("a"),S("1")]],"map[string]string")
mu=M([[I(3,"uint8"),S("c")],[I(255,"uint8"),S("ff")],[I(1,"uint8"),S("a")]],"map[uint8]string")
lf=["%v","%+v","%#v","%d","%s","%q","%x","%X","%T","%5v","%-4v|","%t","%.1f","%#x","%05d","%e","%8.2v","%c","% x"]
for nm,v in [("list",lst),("[]string",strl),("[]int",intl),("[]float64",fl),("map",m),("map[int]",mi),("map[float64]",mf),("map[bool]",mb),("map[string]string",ms),("map[uint8]",mu),("empty list",L([])),("empty map",M([])),("nested",L([L([L([NIL])]),M([[S("a"),L([])]])]))]:
    for f in lf:
        c(f"{nm}/{f}", f, v)
# structs and pointers to composite values
st={"t":"struct","v":[["Name",S("web")],["Values",M([[S("b"),I(2)],[S("a"),L([NIL])]])],["Nothing",NIL],["Count",I(3)]]}
for nm,v in [("struct",st),("empty struct",{"t":"struct","v":[]}),("*map",{"t":"ptr","v":m}),("*[]string",{"t":"ptr","v":strl}),("*struct",{"t":"ptr","v":st}),("list of structs",L([st,st])),("map of struct",M([[S("s"),st]]))]:
    for f in ["%v","%+v","%#v","%T","%d","%s","%q","%x","%10v","%-4v|","%t"]:
        c(f"{nm}/{f}", f, v)
c("sprint/struct",None,st,I(1),fn="sprint"); c("sprint/ptr",None,{"t":"ptr","v":m},S("x"),fn="sprint")
# stringers
for f in ["%v","%s","%q","%x","%X","%20s","%-30v|","%.4s","%T","%#v","%+v","%010s"]:
    c(f"time.Time/{f}", f, TIME)
c("time.Time/in list","%v",L([TIME,I(1)])); c("time.Time/in map","%v",M([[S("t"),TIME]])); c("time.Time/%#v in list","%#v",L([TIME]))
# format machinery
c("fmt/plain","hello"); c("fmt/%%","100%% sure"); c("fmt/%5%","%5%"); c("fmt/%-%","%-%",I(1))
c("fmt/missing","%d %d",I(1)); c("fmt/missing/%s","%s"); c("fmt/extra","%d",I(1),S("x"),I(2)); c("fmt/extra/nil","x",NIL,L([I(1)]),F("1.5"))
c("fmt/extra/list","%v",I(1),M([[S("a"),I(1)]])); c("fmt/noverb","%"); c("fmt/noverb/flags","%-5"); c("fmt/noverb/with arg","abc%",I(1)); c("fmt/noverb/dot","%5.",I(1))
c("fmt/index","%[2]d %[1]d",I(1),I(2)); c("fmt/index/repeat","%[1]d %[1]x %[1]o",I(64)); c("fmt/index/then next","%[2]d %d",I(1),I(2),I(3))
c("fmt/index/bad","%[3]d",I(1),I(2)); c("fmt/index/zero","%[0]d",I(1)); c("fmt/index/unclosed","%[1d",I(1)); c("fmt/index/nonnum","%[x]d",I(1)); c("fmt/index/empty","%[]d",I(1))
c("fmt/index/width","%[2]*[1]d",I(12),I(5)); c("fmt/index/prec","%[3]*.[2]*[1]f",F("12.0"),I(2),I(6)); c("fmt/index/width after","%[1]2d",I(1)); c("fmt/index/prec after","%[1].2d",I(1))
c("fmt/index/no extra check","%[1]d",I(1),I(2)); c("fmt/index/after verb","%d %[1]v %v",I(1),I(2)); c("fmt/index/bad then missing","%[5]d %d",I(1)); c("fmt/index/short","%[1",I(1)); c("fmt/index/close only","%]d",I(1))
c("fmt/star","%*d",I(5),I(42)); c("fmt/star/negative","%*d|",I(-5),I(42)); c("fmt/star/prec","%.*f",I(2),F("3.14159")); c("fmt/star/prec negative","%.*f",I(-1),F("3.14159"))
c("fmt/star/bad width","%*d",S("x"),I(42)); c("fmt/star/bad prec","%.*d",S("x"),I(42)); c("fmt/star/too large","%*d",I(10000000),I(42)); c("fmt/star/missing","%*d"); c("fmt/star/int64","%*d",I(4,"int64"),I(1))
c("fmt/star/uint8","%*d",I(4,"uint8"),I(1)); c("fmt/star/uint64 huge","%*d",I(18446744073709551615,"uint64"),I(1)); c("fmt/star/float","%*d",F("4"),I(1)); c("fmt/star/both","%-*.*e|",I(12),I(2),F("1234.5678"))
c("fmt/width too large","%100000000d",I(1)); c("fmt/width large","%1000d",I(1)); c("fmt/prec dot only","%.d",I(5)); c("fmt/prec dot only f","%.f",F("2.5")); c("fmt/prec dot only s","%.s",S("abc"))
c("fmt/unicode verb","%é",I(1)); c("fmt/bang verb","%!",I(1)); c("fmt/%w","%w",I(1)); c("fmt/uppercase fast path","%V",I(1)); c("fmt/%v with #+","%#+v",L([S("a")]))
c("fmt/mixed","%s=%d (%5.1f%%) %q %v %T",S("cpu"),I(42),F("99.44"),S("x"),L([I(1)]),M([]))
c("fmt/flags dup","%--5d|",I(1)); c("fmt/flags after width","%5-d",I(1)); c("fmt/zero after minus","%-05d|",I(1)); c("fmt/trailing text","%d apples",I(3))
# sprint, sprintln
for nm,args in [("empty",[]),("two strings",[S("a"),S("b")]),("two ints",[I(1),I(2)]),("string int",[S("a"),I(1)]),("int string int",[I(1),S("a"),I(2)]),("nil nil",[NIL,NIL]),("string nil",[S("x"),NIL]),("floats",[F("1.5"),F("1e21"),F("NaN")]),("mixed",[I(1),I(2),S("x"),S("y"),TRUE,FALSE,L([I(1)]),M([[S("k"),S("v")]])]),("bytes",[B("ab"),B("cd")]),("time",[TIME,I(3)]),("float32",[F("0.1","float32")]),("uint64",[I(18446744073709551615,"uint64"),I(-1,"int8")])]:
    c(f"sprint/{nm}",None,*args,fn="sprint")
    c(f"sprintln/{nm}",None,*args,fn="sprintln")
json.dump(cases,open(sys.argv[1] if len(sys.argv) > 1 else "tests/data/go/printf.json","w"),indent=2,ensure_ascii=False)
print(len(cases))
