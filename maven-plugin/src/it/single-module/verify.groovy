// The profiling build's jar is woven; run it and compare with the load-time run of the same program.
def Dy = evaluate(new File(itLib))
def jar = new File(basedir, 'target/single-module-1.0.jar')
def entries = Dy.jarEntries(jar)
assert entries.contains('META-INF/dyper/sites.tsv')
// each generation has a package of its own: org.dyper.generated.g<12 hex digits>
assert entries.any { it ==~ /org\/dyper\/generated\/g[0-9a-f]{12}\/DyperPatches1\.class/ }: entries
assert entries.any { it ==~ /org\/dyper\/generated\/g[0-9a-f]{12}\/DyperSites\.class/ }: entries
def generated = new File(basedir, 'target/generated-sources/dyper/org/dyper/generated').listFiles()
assert generated.length == 1 && new File(generated[0], 'DyperPatches1.aj').isFile()
assert new File(basedir, 'target/generated-sources/dyper/aop.xml').isFile()

def ctwXml = new File(basedir, 'reports/ctw.xml')
def out = Dy.run(basedir, itJavaHome, [jar.path] + Dy.wovenClasspath(basedir), 'it.single.Main', ctwXml)
assert out.contains('single-module done')

def expected = [
    'COUNTS it.single.Work.step(int)': 1234L,
    'COUNTS it.single.Work.tick()'   : 124L,
    'COUNTS it.single.Work.<init>()' : 1L,
    'TIMING it.single.Work.step(int)': 1234L,
]
def ctw = Dy.report(ctwXml)
def ltw = Dy.report(new File(basedir, 'reports/ltw.xml'))
Dy.expectCounts(ctw, expected, 'compile-time woven jar')
Dy.expectCounts(ltw, expected, 'dyper:run (load time)')
assert Dy.countsOnly(ctw) == Dy.countsOnly(ltw)
return true
