package org.dyper.samples.e2e;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import org.dyper.cli.Main;
import org.dyper.samples.bank.BankApp;
import org.junit.jupiter.api.Assumptions;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** What the end-to-end tests share: the JDKs, the dyper command, spawning programs, reading XML reports. */
final class E2e {
    static final Path REPO = Path.of("").toAbsolutePath().getParent();
    static final Path MODELS = REPO.resolve("sample-apps/models");

    private E2e() {}

    /** A JDK the tests run the target program on. */
    enum Jdk {
        JDK17, JDK25;

        /** Its home; aborts the test (skipped, with the reason) when it is missing here. */
        Path home() {
            if (this == JDK17) {
                return Path.of(System.getProperty("java.home"));
            }
            String configured = System.getenv("JDK25_HOME");
            if (configured == null || configured.isBlank()) {
                configured = System.getProperty("dyper.jdk25", "/usr/lib/jvm/temurin-25-jdk-amd64");
            }
            Path home = Path.of(configured);
            Assumptions.assumeTrue(Files.isExecutable(home.resolve("bin/java")), "JDK 25 not found at " + home
                    + ": set JDK25_HOME or -Ddyper.jdk25 to run the JDK 25 end-to-end tests");
            return home;
        }

        Path java() {
            return home().resolve("bin/java");
        }
    }

    /**
     * How the program is woven: {@code dyper run} (classes woven ahead of the launch, swapped in as they load),
     * {@code dyper run --weaver-agent} (the AspectJ weaver agent weaves as classes load), {@code dyper weave} + java.
     */
    enum Way { LAUNCH, WEAVER_AGENT, BINARY }

    record Run(int exit, String out, String err) {
        List<String> outLines() {
            return out.isEmpty() ? List.of() : List.of(out.split("\\R"));
        }
    }

    static Path appClasses() {
        try {
            return Path.of(BankApp.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** The dyper command, in this JVM. */
    static Run dyper(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), System.getenv());
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** The dyper command in its own JVM (for {@code run}, whose program writes to the inherited stdout). */
    static Run dyperProcess(Path javaHome, List<String> args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        cmd.addAll(args);
        Map<String, String> env = new HashMap<>();
        env.put("JAVA_HOME", javaHome.toString());
        return exec(cmd, env);
    }

    static Run exec(List<String> cmd, Map<String, String> env) throws IOException, InterruptedException {
        Path out = Files.createTempFile("e2e", ".out");
        Path err = Files.createTempFile("e2e", ".err");
        try {
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile());
            pb.environment().putAll(env);
            Process p = pb.start();
            if (!p.waitFor(180, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError("timed out: " + cmd);
            }
            return new Run(p.exitValue(), Files.readString(out), Files.readString(err));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    private static final Map<String, Path> WOVEN = new HashMap<>();

    /**
     * Runs {@code main} of the sample classes with {@code model} (and {@code modes}, both from sample-apps/models),
     * woven {@code way}, on {@code jdk}, writing the XML report to {@code xml}; {@code shared} holds the load-time
     * cache and the woven jars, which are made once per model.
     */
    static Run run(Way way, Jdk jdk, String model, String modes, String main, Path xml, Path shared) throws Exception {
        List<String> inputs = new ArrayList<>(List.of("--model", MODELS.resolve(model).toString()));
        if (modes != null) {
            inputs.addAll(List.of("--modes", MODELS.resolve(modes).toString()));
        }
        if (way != Way.BINARY) {
            List<String> args = new ArrayList<>(List.of("run"));
            args.addAll(inputs);
            if (way == Way.WEAVER_AGENT) {
                args.add("--weaver-agent");
            }
            args.addAll(List.of("--report", "none", "--xml", xml.toString(), "--cache", shared.resolve("cache")
                    .toString(), "--", "-cp", appClasses().toString(), main));
            return dyperProcess(jdk.home(), args);
        }
        Path jar = woven(model, inputs, shared);
        String runtime = dyper("classpath").out().trim();
        List<String> cmd = List.of(jdk.java().toString(), "-Ddyper.report=none", "-Ddyper.report.xml=" + xml,
                "-cp", jar + java.io.File.pathSeparator + runtime, main);
        return exec(cmd, Map.of());
    }

    /** Weaves the sample classes once per model (the woven jar runs on both JDKs). */
    private static synchronized Path woven(String model, List<String> inputs, Path shared) {
        return WOVEN.computeIfAbsent(shared + "/" + model, k -> {
            Path jar = shared.resolve(model.replace(".xml", "") + "-woven.jar");
            List<String> args = new ArrayList<>(List.of("weave"));
            args.addAll(inputs);
            args.addAll(List.of("--in", appClasses().toString(), "--out", jar.toString()));
            Run weave = dyper(args.toArray(String[]::new));
            if (weave.exit() != 0 || !Files.isRegularFile(jar)) {
                throw new AssertionError("dyper weave failed:\n" + weave.err());
            }
            return jar;
        });
    }

    /** The program's own run without Dyper, for comparing outputs. */
    static Run plain(Jdk jdk, String main) throws Exception {
        return exec(List.of(jdk.java().toString(), "-cp", appClasses().toString(), main), Map.of());
    }

    /**
     * A parsed XML report: section → row → attributes. Rows are the elements with a NAME inside a section, keyed by
     * NAME for SITE elements and {@code TAG:NAME} for the others ({@code TYPE:int[]}, {@code LOCK_CLASS:...},
     * {@code FIELD:...}).
     */
    record Report(Map<String, Map<String, Map<String, String>>> sections, Map<String, String> failures) {
        Map<String, String> site(String section, String name) {
            Map<String, String> site = sections.getOrDefault(section, Map.of()).get(name);
            if (site == null) {
                throw new AssertionError("no site " + name + " in " + section + ": " + sections.get(section));
            }
            return site;
        }

        long value(String section, String name, String attribute) {
            return Long.parseLong(site(section, name).get(attribute));
        }
    }

    static Report report(Path xml) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        Element root = f.newDocumentBuilder().parse(xml.toFile()).getDocumentElement();
        Map<String, Map<String, Map<String, String>>> sections = new LinkedHashMap<>();
        Map<String, String> failures = new LinkedHashMap<>();
        NodeList children = root.getChildNodes();
        for (int i = 0; i < children.getLength(); i++) {
            if (children.item(i) instanceof Element section) {
                Map<String, Map<String, String>> sites = new LinkedHashMap<>();
                NodeList siteNodes = section.getElementsByTagName("*");
                for (int j = 0; j < siteNodes.getLength(); j++) {
                    Element site = (Element) siteNodes.item(j);
                    if (!site.hasAttribute("NAME")) {
                        continue;
                    }
                    String key = site.getTagName().equals("SITE") ? site.getAttribute("NAME")
                            : site.getTagName() + ":" + site.getAttribute("NAME");
                    Map<String, String> attrs = new LinkedHashMap<>();
                    for (int k = 0; k < site.getAttributes().getLength(); k++) {
                        attrs.put(site.getAttributes().item(k).getNodeName(),
                                site.getAttributes().item(k).getNodeValue());
                    }
                    sites.putIfAbsent(key, attrs);
                }
                sections.put(section.getTagName(), sites);
                if (section.getTagName().equals("FAILURES")) {
                    failures.put("TOTAL", section.getAttribute("TOTAL"));
                }
            }
        }
        return new Report(sections, failures);
    }
}
