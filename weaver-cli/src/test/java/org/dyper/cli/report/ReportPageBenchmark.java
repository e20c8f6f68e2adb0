package org.dyper.cli.report;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.dyper.runtime.report.HtmlReport;
import org.dyper.runtime.report.Report;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * Benchmark, not a test (it asserts nothing and runs only when asked): how long a report of 100,000 stack nodes takes
 * to open and draw in headless Chromium. Run it with
 * {@code mvn -B -q -pl weaver-cli -am test -Dtest=ReportPageBenchmark -Dsurefire.failIfNoSpecifiedTests=false
 * -Ddyper.bench.report=true}; docs/performance.md has the figures.
 */
@EnabledIfSystemProperty(named = "dyper.bench.report", matches = "true",
        disabledReason = "a benchmark: run with -Ddyper.bench.report=true (docs/performance.md)")
class ReportPageBenchmark {
    static final int NODES = 100_000;
    static final int ROUNDS = 7;

    @TempDir
    Path dir;

    /**
     * A call tree of exactly {@code NODES} nodes over 4,000 method names, up to 64 deep and mostly deep (new nodes
     * hang under recent ones, as real profiles' long chains do), with a self weight on every leaf and on a third of
     * the inner nodes; written in the agreed STACKS format as one CPU view.
     */
    static String report(long seed) {
        Random r = new Random(seed);
        String[] names = new String[4000];
        for (int i = 0; i < names.length; i++) {
            names[i] = "com.example.pkg" + (i % 40) + ".Class" + (i / 40) + ".method" + (i % 7);
        }
        int[] parent = new int[NODES];
        int[] depth = new int[NODES];
        int[] name = new int[NODES];
        java.util.Set<Long> children = new java.util.HashSet<>();
        for (int i = 0; i < NODES; i++) {
            int p;
            do {
                p = i < 8 ? -1 : r.nextInt(10) < 8 ? Math.max(0, i - 1 - r.nextInt(Math.min(i, 200))) : r.nextInt(i);
            } while (p >= 0 && depth[p] >= 63);
            parent[i] = p;
            depth[i] = p < 0 ? 0 : depth[p] + 1;
            int n;
            do {
                n = r.nextInt(names.length);
            } while (!children.add((long) p * names.length + n));  // a parent's children have distinct names
            name[i] = n;
        }
        boolean[] inner = new boolean[NODES];
        for (int i = 0; i < NODES; i++) {
            if (parent[i] >= 0) {
                inner[parent[i]] = true;
            }
        }
        StringBuilder paths = new StringBuilder();
        long total = 0;
        for (int i = 0; i < NODES; i++) {
            if (inner[i] && r.nextInt(3) != 0) {
                continue;
            }
            long w = 1 + r.nextInt(50);
            total += w;
            List<String> frames = new ArrayList<>();
            for (int k = i; k >= 0; k = parent[k]) {
                frames.add(names[name[k]]);
            }
            java.util.Collections.reverse(frames);
            paths.append("<PATH WEIGHT='").append(w).append("'>").append(String.join(";", frames)).append("</PATH>\n");
        }
        return "<MONITOR_REPORT VERSION='1' PID='1' TIME='2000' START='1000' MAIN='Bench' MONITOR='true' CHECKTIME='10'>"
                + "<STACKS EXACT='false' SOURCE='JFR' MAXDEPTH='64' NODES='" + NODES + "' NODE_LIMIT='100000' DROPPED='0'>"
                + "<VIEW NAME='CPU' UNIT='SAMPLES' TOTAL='" + total + "'>\n" + paths + "</VIEW></STACKS></MONITOR_REPORT>\n";
    }

    @Test
    void reportOf100000NodesOpensAndDraws() throws Exception {
        Path xml = dir.resolve("big.xml");
        Files.writeString(xml, report(42), UTF_8);
        long t0 = System.nanoTime();
        Report report = HtmlReport.read(xml, "big.xml");
        String html = HtmlReport.page(report, "100,000 nodes");
        long renderMs = (System.nanoTime() - t0) / 1_000_000;
        Path page = dir.resolve("big.html");
        HtmlReport.write(page, html);
        System.out.printf("report: %d stack nodes, XML %.1f MB, page %.1f MB, dyper report (read + render) %d ms%n",
                report.stackNodes(), Files.size(xml) / 1e6, Files.size(page) / 1e6, renderMs);
        long[] ms = new long[ROUNDS];
        try (Browser browser = Browser.start(dir.resolve("profile"))) {
            for (int i = 0; i < ROUNDS; i++) {
                browser.driver.get("about:blank");
                browser.open(page);
                ms[i] = Long.parseLong((String) browser.js("return document.body.dataset.readyMs"));
                long drawn = (Long) browser.js("return Dyper.flame.frames().length");
                Number search = (Number) browser.js("const t = performance.now(); const s = document.getElementById("
                        + "'search'); s.value = 'Class7.'; s.dispatchEvent(new Event('input')); return performance.now() - t;");
                Number callers = (Number) browser.js("const t = performance.now(); document.getElementById('inverted')"
                        + ".click(); return performance.now() - t;");
                System.out.printf("round %d: opened and drawn in %d ms (%d frames drawn); search %.0f ms (%s); "
                        + "callers view %.0f ms%n", i + 1, ms[i], drawn, search.doubleValue(),
                        browser.js("return document.getElementById('search-share').textContent"), callers.doubleValue());
            }
        }
        Arrays.sort(ms);
        System.out.printf("median %d ms, min %d ms, max %d ms over %d rounds (navigation start to first drawing)%n",
                ms[ROUNDS / 2], ms[0], ms[ROUNDS - 1], ROUNDS);
    }
}
