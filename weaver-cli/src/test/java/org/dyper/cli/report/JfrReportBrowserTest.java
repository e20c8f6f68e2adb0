package org.dyper.cli.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import jdk.jfr.Recording;
import org.dyper.runtime.jfr.CountFigures;
import org.dyper.runtime.jfr.MethodTrace;
import org.dyper.runtime.jfr.TimingFigures;
import org.dyper.runtime.jfr.ValueFigures;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/**
 * {@code dyper report FILE.jfr} in headless Chromium, from a recording planted here: figure events of known values
 * (an older and the last dyper.Timing of one site, dyper.Count of COUNTS and CALLS, dyper.Values), four traced calls
 * on two threads (one nested), and the JDK's execution samples of a thread spinning in {@link #spinHot}. The page is
 * the same page as for XML reports: the tables show exactly the last figures, the timeline one bar per trace in its
 * thread's lane, the flame graph the spinning method.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JfrReportBrowserTest {
    static final String CHECKOUT = "com.acme.Shop.checkout(int)";

    @TempDir
    static Path dir;
    Browser browser;
    Path page;
    String wrote;

    static volatile long sink;

    /** Planted: burns CPU so that the JDK's sampler finds this method on the stack. */
    static void spinHot(long cpuNanos) {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long until = mx.getCurrentThreadCpuTime() + cpuNanos;
        long x = 1;
        while (mx.getCurrentThreadCpuTime() < until) {
            for (int i = 0; i < 100_000; i++) {
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
        }
        sink = x;
    }

    static void trace(String method, int depth, long argument, long returned, Runnable body) {
        MethodTrace e = new MethodTrace();
        e.depth = depth;
        e.argument = argument;
        e.begin();
        body.run();
        e.end();
        e.method = method;
        e.returnValue = returned;
        e.commit();
    }

    static void pause() {
        try {
            Thread.sleep(3); // planted: a traced call that lasts a few ms
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @BeforeAll
    void render() throws Exception {
        Path jfr = dir.resolve("planted.jfr");
        try (Recording r = new Recording()) {
            for (String t : List.of("dyper.Timing", "dyper.Count", "dyper.Values", "dyper.MethodTrace")) {
                r.enable(t).withoutThreshold();
            }
            r.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(10));
            r.start();
            TimingFigures older = timing(10, 30_000, 1_000, 9_000, "1024:4 4096:6");
            older.commit();
            timing(1_000, 3_000_000, 1_000, 9_000, "1024:200 2048:300 4096:400 8192:50 16384:50").commit();
            count(9002, "com.acme.Shop.add(int)", "COUNTS", 12_345);
            count(9003, "com.acme.Cart.total()", "CALLS", 77);
            ValueFigures v = new ValueFigures();
            v.site = "com.acme.Shop.price(long)";
            v.siteId = 9004;
            v.count = 5;
            v.sum = 15;
            v.minimum = 1;
            v.maximum = 5;
            v.nonNulls = 5;
            v.commit();
            trace("com.acme.Shop.order(int)", 1, 7, 70, () -> trace("com.acme.Shop.pay(long)", 2, 8, 80,
                    JfrReportBrowserTest::pause));
            Thread worker = new Thread(() -> {
                trace("com.acme.Shop.ship(int)", 1, 9, 90, JfrReportBrowserTest::pause);
                trace("com.acme.Shop.ship(int)", 1, 10, 100, JfrReportBrowserTest::pause);
            }, "shipper");
            worker.start();
            worker.join();
            Thread hot = new Thread(() -> spinHot(400_000_000L), "hot-spinner");
            hot.start();
            hot.join();
            r.stop();
            r.dump(jfr);
        }
        page = dir.resolve("planted.html");
        wrote = ReportPageBrowserTest.dyper("report", jfr.toString());
    }

    private static TimingFigures timing(long calls, long total, long min, long max, String histogram) {
        TimingFigures t = new TimingFigures();
        t.method = CHECKOUT;
        t.siteId = 9001;
        t.invocations = calls;
        t.total = total;
        t.minimum = min;
        t.maximum = max;
        t.average = total / calls;
        t.histogram = histogram;
        return t;
    }

    private static void count(int id, String site, String section, long n) {
        CountFigures c = new CountFigures();
        c.site = site;
        c.siteId = id;
        c.section = section;
        c.count = n;
        c.commit();
    }

    @AfterAll
    void stop() {
        if (browser != null) {
            browser.close();
        }
    }

    @BeforeEach
    void load() {
        if (browser == null) {
            browser = Browser.start(dir.resolve("profile"));
        }
        browser.open(page);
    }

    private WebElement row(String table, String first) {
        return browser.driver.findElements(By.cssSelector("table[data-table='" + table + "'] tbody tr")).stream()
                .filter(tr -> tr.findElement(By.tagName("td")).getText().startsWith(first)).findFirst()
                .orElseThrow(() -> new AssertionError("no row " + first + " in " + table));
    }

    private static List<String> cells(WebElement tr) {
        return tr.findElements(By.tagName("td")).stream().map(WebElement::getText).toList();
    }

    @Test
    void theTablesShowTheLastFiguresExactly() {
        assertTrue(wrote.startsWith("dyper: wrote " + page + " (CPU stacks, "), wrote);
        List<String> checkout = cells(row("timing", CHECKOUT));
        assertEquals(List.of("1,000", "3.00 ms", "3.00 µs", "1.00 µs", "9.00 µs"), checkout.subList(1, 6),
                "the last dyper.Timing, not the older one: " + checkout);
        assertEquals(List.of("com.acme.Shop.add(int)", "12,345"), cells(row("counts", "com.acme.Shop.add(int)")));
        assertEquals(List.of("com.acme.Cart.total()", "77"), cells(row("calls", "com.acme.Cart.total()")));
        assertEquals(List.of("com.acme.Shop.price(long)", "5", "15", "1", "5", "0", "5"),
                cells(row("values", "com.acme.Shop.price(long)")));
        assertEquals("EXACT", browser.driver.findElement(By.cssSelector("#exact-timing h3 .badge")).getText());
        assertEquals(5, browser.driver.findElements(By.cssSelector("#exact-timing .hist rect")).size(),
                "one bar per histogram bucket");
    }

    @Test
    void theTimelineHasOneBarPerTraceInItsThreadsLane() {
        List<WebElement> bars = browser.driver.findElements(By.cssSelector("svg.timeline rect.trace"));
        assertEquals(4, bars.size());
        assertEquals(160.0, bars.stream().mapToDouble(b -> Double.parseDouble(b.getDomAttribute("x"))).min()
                .orElseThrow(), 0.001, "the axis starts at the first traced call, after the 160-unit thread names");
        assertEquals(List.of("main", "shipper"), browser.driver.findElements(By.cssSelector("svg.timeline g.lane"))
                .stream().map(g -> g.getDomAttribute("data-thread")).toList());
        Map<String, WebElement> byMethod = new java.util.HashMap<>();
        bars.forEach(b -> byMethod.put(b.getDomAttribute("data-method") + b.getDomAttribute("data-depth"), b));
        WebElement order = byMethod.get("com.acme.Shop.order(int)1");
        WebElement pay = byMethod.get("com.acme.Shop.pay(long)2");
        double ox = Double.parseDouble(order.getDomAttribute("x"));
        double px = Double.parseDouble(pay.getDomAttribute("x"));
        assertTrue(px >= ox && px + Double.parseDouble(pay.getDomAttribute("width"))
                <= ox + Double.parseDouble(order.getDomAttribute("width")) + 0.01, "pay lies within order");
        assertTrue(Double.parseDouble(pay.getDomAttribute("y")) > Double.parseDouble(order.getDomAttribute("y")),
                "one row lower");
        assertEquals("shipper", byMethod.get("com.acme.Shop.ship(int)1").getDomAttribute("data-thread"));
        WebElement table = browser.driver.findElement(By.cssSelector("table[data-table='traces']"));
        List<String> pays = table.findElements(By.cssSelector("tbody tr")).stream().map(JfrReportBrowserTest::cells)
                .filter(c -> c.get(2).startsWith("com.acme.Shop.pay")).findFirst().orElseThrow();
        assertEquals(List.of("main", "com.acme.Shop.pay(long)", "2"), pays.subList(1, 4));
        assertEquals(List.of("8", "80"), pays.subList(5, 7));
        assertEquals(4, table.findElements(By.cssSelector("tbody tr")).size());
        assertTrue(browser.driver.findElement(By.id("exact-traces")).getText().contains("4 calls."));
    }

    @Test
    void theFlameGraphShowsTheJdksSamples() {
        List<Map<String, Object>> frames = browser.frames();
        assertTrue(frames.stream().anyMatch(f -> f.get("name").equals(JfrReportBrowserTest.class.getName() + ".spinHot")),
                frames.toString());
        assertTrue(browser.driver.findElement(By.id("flame-info")).getText().contains("sampled by JFR"),
                browser.driver.findElement(By.id("flame-info")).getText());
        assertEquals("hot-spinner", browser.driver.findElements(By.cssSelector("#thread option")).stream()
                .map(WebElement::getText).filter(t -> t.startsWith("hot-spinner")).findFirst().orElseThrow()
                .replaceAll(" \\(\\d+\\)$", ""));
    }

    /**
     * A recording with the JDK's samples only (no dyper event): the page says there are no exact measurements and no
     * monitor tables, instead of headings over nothing.
     */
    @Test
    void aRecordingWithoutDypersEventsSaysWhatIsMissing() throws Exception {
        Path jfr = dir.resolve("samples-only.jfr");
        try (Recording r = new Recording()) {
            r.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(10));
            r.start();
            Thread hot = new Thread(() -> spinHot(200_000_000L), "hot-spinner");
            hot.start();
            hot.join();
            r.stop();
            r.dump(jfr);
        }
        ReportPageBrowserTest.dyper("report", jfr.toString());
        browser.open(dir.resolve("samples-only.html"));
        assertEquals(List.of("No exact measurements in this report: nothing woven reported into it."),
                browser.driver.findElements(By.cssSelector("#exact > .note")).stream().map(WebElement::getText).toList());
        assertEquals(0, browser.driver.findElements(By.cssSelector("#exact .block")).size());
        assertEquals(List.of("No monitor tables in this report (hot methods, threads, contention): its samples are in "
                + "the flame graph above."), browser.driver.findElements(By.cssSelector("#monitor > .note")).stream()
                .map(WebElement::getText).toList());
    }
}
