// Compile-time woven bank and load-time woven bank: identical counts, and the numbers BankFacts (sample-apps, also
// what the end-to-end tests check) gives for the default run (4 threads x 2500 transfers, some failing on purpose).
def Dy = evaluate(new File(itLib))
def jar = new File(basedir, 'target/bank-1.0.jar')
def xml = new File(basedir, 'reports/ctw.xml')
def out = Dy.run(basedir, itJavaHome, [jar.path] + Dy.wovenClasspath(basedir), 'org.dyper.samples.bank.BankApp', xml)
assert out.contains('checksum'): out
def F = Dy.builtClass(basedir, 'org.dyper.samples.bank.BankFacts')
def expected = [
    ("TIMING ${F.TRANSFER}" as String)    : F.DEFAULT_TRANSFER_CALLS,
    ("TIMING ${F.AUDIT}" as String)       : F.DEFAULT_AUDIT_CALLS,
    ("VALUES ${F.FEE}" as String)         : F.DEFAULT_TRANSFER_CALLS,
    ("COUNTS ${F.WITHDRAW}" as String)    : F.DEFAULT_TRANSFER_CALLS,
    ("COUNTS ${F.DEPOSIT}" as String)     : F.DEFAULT_TRANSFER_CALLS - F.DEFAULT_FAILED_TRANSFERS,
    ("CALLS ${F.DEPOSIT}" as String)      : F.DEFAULT_TRANSFER_CALLS - F.DEFAULT_FAILED_TRANSFERS,
    ("COUNTS ${F.ACCOUNT_INIT}" as String): F.accountConstructorCalls(),
]
def ctw = Dy.report(xml)
def ltw = Dy.report(new File(basedir, 'reports/ltw.xml'))
Dy.expectCounts(ctw, expected, 'compile-time woven bank')
Dy.expectCounts(ltw, expected, 'dyper:run bank')
assert ctw["VALUES ${F.FEE}" as String].SUM == F.DEFAULT_FEE_RETURN_SUM as String
assert Dy.countsOnly(ctw) == Dy.countsOnly(ltw)

// The nested sample in the same woven jar: measured, and what reflection sees of its classes unchanged (NestedApp
// prints it; the package-private Inventory used to come out public)
def N = Dy.builtClass(basedir, 'org.dyper.samples.nested.NestedFacts')
def app = Dy.builtClass(basedir, 'org.dyper.samples.nested.NestedApp')
def skus = app.DEFAULT_SKUS
def I = N.INVENTORY
def nestedXml = new File(basedir, 'reports/nested.xml')
def nestedOut = Dy.run(basedir, itJavaHome, [jar.path] + Dy.wovenClasspath(basedir),
        'org.dyper.samples.nested.NestedApp', nestedXml)
assert nestedOut.contains("shape ${I} modifiers 'final' reachable false anonymous false local false member false interfaces [] annotations []"): nestedOut
assert nestedOut.contains("shape ${I} field private long units"): nestedOut
assert nestedOut.contains("shape ${I}\$1 modifiers '' reachable false anonymous true"): nestedOut
assert nestedOut.readLines().take(3) == N.results(skus, app.DEFAULT_ROWS): nestedOut
Dy.expectCounts(Dy.report(nestedXml), [
    ("COUNTS ${N.HALF}" as String)      : N.halves(skus),
    ("COUNTS ${N.SUM_ADD}" as String)   : N.sumAdds(skus),
    ("CALLS ${N.RESTOCK}" as String)    : N.restocks(skus),
    ("TIMING ${N.PRICE_OF_N}" as String): N.pricesOfN(skus),
], 'compile-time woven nested sample')
return true
