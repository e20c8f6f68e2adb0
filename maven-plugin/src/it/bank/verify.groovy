// Compile-time woven bank and load-time woven bank: identical counts, and the numbers BankFacts computes for the
// default run (4 threads x 2500 transfers, 120 of them failing).
def Dy = evaluate(new File(itLib))
def jar = new File(basedir, 'target/bank-1.0.jar')
def xml = new File(basedir, 'reports/ctw.xml')
def out = Dy.run(basedir, itJavaHome, [jar.path] + Dy.wovenClasspath(basedir), 'org.dyper.samples.bank.BankApp', xml)
assert out.contains('checksum'): out
def B = 'org.dyper.samples.bank.Bank'
def A = 'org.dyper.samples.bank.Account'
def expected = [
    ("TIMING ${B}.transfer(int,int,long)" as String): 10000L,
    ("TIMING ${B}.audit()" as String)                : 200L,
    ("VALUES ${B}.fee(long)" as String)              : 10000L,
    ("COUNTS ${A}.withdraw(long)" as String)         : 10000L,
    ("COUNTS ${A}.deposit(long)" as String)          : 9880L,
    ("CALLS ${A}.deposit(long)" as String)           : 9880L,
    ("COUNTS ${A}.<init>(int,long)" as String)       : 16L,
]
def ctw = Dy.report(xml)
def ltw = Dy.report(new File(basedir, 'reports/ltw.xml'))
Dy.expectCounts(ctw, expected, 'compile-time woven bank')
Dy.expectCounts(ltw, expected, 'dyper:run bank')
assert ctw["VALUES ${B}.fee(long)" as String].SUM == '55577'
assert Dy.countsOnly(ctw) == Dy.countsOnly(ltw)

// The nested sample in the same woven jar: measured, and what reflection sees of its classes unchanged (NestedApp
// prints it; the package-private Inventory used to come out public)
def I = 'org.dyper.samples.nested.Inventory'
def nestedXml = new File(basedir, 'reports/nested.xml')
def nestedOut = Dy.run(basedir, itJavaHome, [jar.path] + Dy.wovenClasspath(basedir),
        'org.dyper.samples.nested.NestedApp', nestedXml)
assert nestedOut.contains("shape ${I} modifiers 'final' reachable false anonymous false local false member false interfaces [] annotations []"): nestedOut
assert nestedOut.contains("shape ${I} field private long units"): nestedOut
assert nestedOut.contains("shape ${I}\$1 modifiers '' reachable false anonymous true"): nestedOut
assert nestedOut.contains("units 40, total 40"): nestedOut
Dy.expectCounts(Dy.report(nestedXml), [
    ("COUNTS ${I}\$1.applyAsLong(long)" as String)         : 12L,
    ("COUNTS ${I}\$1Sum.add(int)" as String)               : 12L,
    ("CALLS ${I}.restock(java.lang.String,int[])" as String): 12L,
    ("TIMING ${I}.price(java.lang.String,int)" as String)  : 24L,
], 'compile-time woven nested sample')
return true
