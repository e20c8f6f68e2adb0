// Questions woven at compile time and at load time: the same exact answers, the ones BankFacts gives for the default
// run (4 threads x 2500 transfers, 120 failing: no deposit), and the table inside the woven classes.
import javax.xml.XMLConstants
import javax.xml.parsers.DocumentBuilderFactory

def Dy = evaluate(new File(itLib))
def jar = new File(basedir, 'target/questions-1.0.jar')
def xml = new File(basedir, 'reports/ctw.xml')
def out = Dy.run(basedir, itJavaHome, [jar.path] + Dy.wovenClasspath(basedir), 'org.dyper.samples.bank.BankApp', xml)
assert out.contains('checksum'): out
def F = Dy.builtClass(basedir, 'org.dyper.samples.bank.BankFacts')
assert new java.util.jar.JarFile(jar).getEntry('META-INF/dyper/questions.txt') != null: 'no question table in ' + jar

// "TEXT" -> [QUESTION attributes, [GROUP name -> attributes]]
def answers = { File f ->
    def dbf = DocumentBuilderFactory.newInstance()
    dbf.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true)
    dbf.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true)
    def root = dbf.newDocumentBuilder().parse(f).documentElement
    def qs = root.getElementsByTagName('QUESTION')
    def found = [:]
    for (int i = 0; i < qs.length; i++) {
        def q = qs.item(i)
        def groups = [:]
        def gs = q.getElementsByTagName('GROUP')
        for (int j = 0; j < gs.length; j++) {
            def g = gs.item(j)
            groups[g.getAttribute('NAME')] = [COUNT: g.getAttribute('COUNT'), SUM: g.getAttribute('SUM')]
        }
        found[q.getAttribute('TEXT')] = [SITES: q.getAttribute('SITES'), GROUPS: groups]
    }
    return found
}
def deposits = 'count of calls to org.dyper.samples.bank.Account.deposit from org.dyper.samples.bank.Bank.transfer'
def fees = 'sum return of org.dyper.samples.bank.Bank.fee'
def expected = [
    (deposits): [SITES: '1', GROUPS: ['(all)': [COUNT: (F.DEFAULT_TRANSFER_CALLS - F.DEFAULT_FAILED_TRANSFERS) as String,
                                                SUM: '0']]],
    (fees)    : [SITES: '1', GROUPS: ['(all)': [COUNT: F.DEFAULT_TRANSFER_CALLS as String,
                                                SUM: F.DEFAULT_FEE_RETURN_SUM as String]]],
]
def ctw = answers(xml)
def ltw = answers(new File(basedir, 'reports/ltw.xml'))
assert ctw == expected: 'compile-time woven questions: ' + ctw
assert ltw == expected: 'dyper:run questions: ' + ltw
return true
