package org.dyper.patch.aspectj;

import java.net.URL;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.dyper.patch.gentest.Recorder;

/**
 * Runs the fixture script once per case in a JVM of its own JDK, each case in its own class loader (child-first for
 * the fixture and the generated aspects), and prints what the Recorder saw:
 * {@code CASE name}, one {@code EVENT ...} line per event, {@code RESULT script output}, then one {@code SHAPE ...}
 * line per fact reflection sees of the fixture's classes ({@link ClassShape}). Under load-time weaving the AspectJ
 * agent weaves each loader with the {@code META-INF/aop.xml} of that case's aspect folder. A folder of class files
 * that comes first in a case's path is loaded in place of the originals, as the replace agent does.
 *
 * <p>Arguments: {@code name=path[;path...]} per case.
 */
public final class ScriptRunner {
    private ScriptRunner() {}

    public static void main(String[] args) throws Exception {
        for (String arg : args) {
            int eq = arg.indexOf('=');
            List<URL> urls = new ArrayList<>();
            for (String p : arg.substring(eq + 1).split(";")) {
                urls.add(Path.of(p).toUri().toURL());
            }
            System.out.println("CASE " + arg.substring(0, eq));
            Recorder.take();
            String result;
            List<String> shapes = new ArrayList<>();
            try {
                result = Woven.run(urls.toArray(URL[]::new), shapes);
            } catch (Throwable t) {
                result = "FAILED " + t;
            }
            for (String event : Recorder.take()) {
                System.out.println("EVENT " + event);
            }
            System.out.println("RESULT " + result);
            shapes.forEach(s -> System.out.println("SHAPE " + s));
        }
    }
}
