// What the verify scripts share: running a woven program and reading Dyper's XML report.
// Each verify script loads it with: def Dy = evaluate(new File(itLib))
import javax.xml.XMLConstants
import javax.xml.parsers.DocumentBuilderFactory

class DyperIt {
    /** The XML report as "SECTION site-name" -> attributes; "FAILURES" -> [TOTAL: ...]. */
    static Map<String, Map<String, String>> report(File xml) {
        assert xml.isFile(): "no XML report at " + xml
        def f = DocumentBuilderFactory.newInstance()
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true)
        f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true)
        def root = f.newDocumentBuilder().parse(xml).documentElement
        Map<String, Map<String, String>> out = new TreeMap<>()
        def sections = root.childNodes
        for (int i = 0; i < sections.length; i++) {
            def section = sections.item(i)
            if (!(section instanceof org.w3c.dom.Element)) continue
            if (section.tagName == 'FAILURES') out['FAILURES'] = [TOTAL: section.getAttribute('TOTAL')]
            def sites = section.getElementsByTagName('SITE')
            for (int j = 0; j < sites.length; j++) {
                def site = sites.item(j)
                Map<String, String> attrs = [:]
                for (int k = 0; k < site.attributes.length; k++) {
                    attrs[site.attributes.item(k).nodeName] = site.attributes.item(k).nodeValue
                }
                out[section.tagName + ' ' + site.getAttribute('NAME')] = attrs
            }
        }
        return out
    }

    /** Asserts every expected "SECTION name" -> COUNT, and that no hook failed. */
    static void expectCounts(Map<String, Map<String, String>> report, Map<String, Long> expected, String what) {
        expected.each { key, count ->
            assert report.containsKey(key): what + ": no " + key + " in " + report.keySet()
            assert report[key].COUNT as long == count: what + ": " + key + " COUNT " + report[key].COUNT + ", expected " + count
        }
        assert report.FAILURES?.TOTAL == '0': what + ": hook failures " + report.FAILURES
    }

    /** Only the COUNT (and SUM) attributes: what must be identical whichever way the program was woven. */
    static Map<String, String> countsOnly(Map<String, Map<String, String>> report) {
        Map<String, String> out = new TreeMap<>()
        report.each { key, attrs ->
            ['COUNT', 'SUM', 'NULLS', 'NONNULLS', 'TOTAL'].each { a -> if (attrs[a] != null) out[key + ' ' + a] = attrs[a] }
        }
        return out
    }

    /** Runs java (of javaHome) with the class path and main class; the XML report goes to xml. Returns stdout. */
    static String run(File dir, String javaHome, List<String> classpath, String mainClass, File xml, List<String> args = []) {
        def java = new File(javaHome, 'bin/java').path
        def cmd = [java, '-Ddyper.report=none', '-Ddyper.report.xml=' + xml.absolutePath,
                   '-cp', classpath.join(File.pathSeparator), mainClass] + args
        def out = new File(dir, 'target/woven-run.out')
        def err = new File(dir, 'target/woven-run.err')
        out.parentFile.mkdirs()
        def p = new ProcessBuilder(cmd).directory(dir).redirectOutput(out).redirectError(err).start()
        assert p.waitFor() == 0: "woven program failed: " + cmd + "\n" + err.text
        return out.text
    }

    /** The class path the weave goal wrote for running the woven program. */
    static List<String> wovenClasspath(File module) {
        def file = new File(module, 'target/dyper/classpath.txt')
        assert file.isFile(): "weave did not write " + file
        return file.text.trim().split(File.pathSeparator) as List
    }

    /**
     * A class of the module's own build (target/classes), such as the sample apps' facts classes (BankFacts,
     * NestedFacts): the numbers the end-to-end tests expect, so both suites check the same facts. Load only classes the
     * model does not patch (they run here, in Maven's JVM, without the Dyper runtime).
     */
    static Class<?> builtClass(File module, String name) {
        def classes = new File(module, 'target/classes')
        assert classes.isDirectory(): "no " + classes
        def loader = new URLClassLoader([classes.toURI().toURL()] as URL[], DyperIt.classLoader)
        return loader.loadClass(name)
    }

    static List<String> jarEntries(File jar) {
        assert jar.isFile(): "no jar " + jar
        def z = new java.util.zip.ZipFile(jar)
        try { return z.entries().collect { it.name } } finally { z.close() }
    }
}
return DyperIt
