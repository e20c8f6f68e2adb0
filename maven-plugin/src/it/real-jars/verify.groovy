// libtwo (woven by its own build) and app (woven by its build, with lib) share one model and run together; lib's
// classes that need its optional dependency stay unpatched with one warning.
def Dy = evaluate(new File(itLib))
def app = new File(basedir, 'app')
def generated = { File jar -> Dy.jarEntries(jar).findAll { it ==~ /org\/dyper\/generated\/g[0-9a-f]{12}\/DyperSites\.class/ } }
def appPackages = generated(new File(app, 'target/app-1.0.jar'))
def libtwoPackages = generated(new File(basedir, 'libtwo/target/libtwo-1.0.jar'))
assert appPackages.size() == 1 && libtwoPackages.size() == 1
assert appPackages != libtwoPackages: "each build's generation has a package of its own"

def log = new File(basedir, 'build.log').text
def warning = 'warning: FOR: 2 class(es) left unpatched because types they need are not on the class path: ' +
        'it.lib.CodecCounter, it.lib.Encoder. Missing: it.opt.Codec (needed by it.lib.CodecCounter, it.lib.Encoder).'
assert log.count(warning) == 1: "one warning naming the classes and the missing type:\n" + log

def xml = new File(basedir, 'reports/ctw.xml')
def out = Dy.run(basedir, itJavaHome, [new File(app, 'target/app-1.0.jar').path] + Dy.wovenClasspath(app),
        'it.app.Main', xml)
assert out.contains('real-jars done 30 30 4')
def counts = Dy.countsOnly(Dy.report(xml)).findAll { k, v -> k.startsWith('COUNTS ') }
assert counts == [
    'COUNTS it.app.Main.main(java.lang.String[]) COUNT': '1',
    'COUNTS it.lib.Counter.<init>() COUNT'             : '1',
    'COUNTS it.lib.Counter.hit() COUNT'                : '30',
    'COUNTS it.lib.Counter.value() COUNT'              : '1',
    'COUNTS it.libtwo.Pager.<init>() COUNT'            : '1',
    'COUNTS it.libtwo.Pager.page(int) COUNT'           : '30',
]: counts
return true
