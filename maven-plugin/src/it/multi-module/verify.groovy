// lib's own jar stays as it was; app's build wove a copy of it, and running app with that copy counts lib's code.
def Dy = evaluate(new File(itLib))
def app = new File(basedir, 'app')
assert !Dy.jarEntries(new File(basedir, 'lib/target/lib-1.0.jar')).contains('META-INF/dyper/sites.tsv')
def wovenLib = new File(app, 'target/dyper/woven-dependencies/lib-1.0.jar')
assert Dy.jarEntries(wovenLib).contains('META-INF/dyper/sites.tsv')
def cp = Dy.wovenClasspath(app)
assert cp.contains(wovenLib.path): "classpath.txt should name the woven lib: " + cp
assert !cp.any { it.endsWith('lib/target/lib-1.0.jar') }: "classpath.txt names the unwoven lib: " + cp
assert Dy.jarEntries(new File(app, 'target/app-1.0.jar')).any {
    it ==~ /org\/dyper\/generated\/g[0-9a-f]{12}\/DyperPatches1\.class/ }

def xml = new File(basedir, 'reports/ctw.xml')
def out = Dy.run(basedir, itJavaHome, [new File(app, 'target/app-1.0.jar').path] + cp, 'it.app.Main', xml)
assert out.contains('multi-module done')
Dy.expectCounts(Dy.report(xml), [
    'COUNTS it.lib.Counter.hit(int)': 500L,
    'COUNTS it.lib.Counter.<init>()': 2L,
    'COUNTS it.lib.Counter.add()'   : 40L,
    'COUNTS it.lib.Counter.value()' : 2L,
    'CALLS it.lib.Counter.hit(int)' : 500L,
], 'multi-module woven jars')
return true
