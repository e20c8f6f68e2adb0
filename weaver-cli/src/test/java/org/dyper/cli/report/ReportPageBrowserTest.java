package org.dyper.cli.report;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.dyper.cli.Main;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;

/**
 * The report page in headless Chromium, asserting what a person sees: the planted hot method is the widest frame of
 * its level, a click zooms, search highlights and gives the share, tables sort, exact and estimated figures are told
 * apart, and a sampled frame links to its exact figures. The fixture is the bank demo's exact report with hand-made
 * stacks in the agreed STACKS format (Bank.audit: 1,144 of 1,650 CPU samples). Screenshots go to
 * {@code target/report-browser/}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReportPageBrowserTest {
    static final Path ARTIFACTS = Path.of("target", "report-browser");
    static final String BANK = "org.dyper.samples.bank.Bank";

    @TempDir
    static Path dir;
    Browser browser;
    Path page;

    static Path fixture(Path dir) throws Exception {
        Path xml = dir.resolve("bank-report.xml");
        try (InputStream in = ReportPageBrowserTest.class.getResourceAsStream("bank-report.xml")) {
            Files.copy(in, xml, StandardCopyOption.REPLACE_EXISTING);
        }
        return xml;
    }

    static String dyper(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.run(args, new PrintStream(out, true, UTF_8), new PrintStream(err, true, UTF_8), Map.of());
        assertEquals(0, code, err.toString(UTF_8));
        return out.toString(UTF_8);
    }

    @BeforeAll
    void render() throws Exception {
        page = dir.resolve("bank.html");
        dyper("report", fixture(dir).toString(), "--out", page.toString());
        Files.createDirectories(ARTIFACTS);
    }

    @AfterAll
    void stop() {
        if (browser != null) {
            browser.close();
        }
    }

    /** Starts the browser for the first test; without one every test is aborted, so each shows as skipped. */
    @BeforeEach
    void load() {
        if (browser == null) {
            browser = Browser.start(dir.resolve("profile"));
        }
        browser.open(page);
    }

    private Map<String, Object> frame(String name) {
        return browser.frames().stream().filter(f -> f.get("name").equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no frame " + name + " drawn: " + names()));
    }

    private List<String> names() {
        return browser.frames().stream().map(f -> (String) f.get("name")).toList();
    }

    private static double num(Map<String, Object> f, String key) {
        return ((Number) f.get(key)).doubleValue();
    }

    /** A real mouse click in the middle of a drawn frame (Selenium's offsets count from the canvas's centre). */
    private void click(Map<String, Object> f) {
        WebElement canvas = browser.driver.findElement(By.id("flame"));
        int x = (int) Math.round(num(f, "x") + num(f, "width") / 2 - canvas.getRect().getWidth() / 2.0);
        int y = (int) Math.round(num(f, "y") + num(f, "height") / 2 - canvas.getRect().getHeight() / 2.0);
        new Actions(browser.driver).moveToElement(canvas, x, y).click().perform();
    }

    /** The colour drawn at a point of the canvas (CSS pixels), as r, g, b. */
    @SuppressWarnings("unchecked")
    private List<Long> pixel(double x, double y) {
        return ((List<Long>) browser.js("const c = document.getElementById('flame'), d = window.devicePixelRatio || 1;"
                + "return Array.from(c.getContext('2d').getImageData(Math.round(arguments[0] * d),"
                + " Math.round(arguments[1] * d), 1, 1).data).slice(0, 3);", x, y));
    }

    /** A point inside a frame's box, below its label. */
    private List<Long> colourOf(Map<String, Object> f) {
        return pixel(num(f, "x") + num(f, "width") - 3, num(f, "y") + num(f, "height") - 2);
    }

    private void screenshot(String name) throws Exception {
        Path shot = browser.driver.getScreenshotAs(OutputType.FILE).toPath();
        Files.copy(shot, ARTIFACTS.resolve(name), StandardCopyOption.REPLACE_EXISTING);
    }

    /** What measuring costs is coloured apart, also the aspects run-time patching defines in the program's packages. */
    @Test
    void framesOfDyperAndAspectJAreToldFromTheProgramsOwn() {
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("org.dyper.samples.bank.Bank.audit", "app");
        expected.put("com.acme.Dyperish.run", "app");
        expected.put("com.acme.Worker.work", "app");
        expected.put("java.util.HashMap.get", "jdk");
        expected.put("org.dyper.runtime.internal.ThreadData.lockAcquired", "dyper");
        expected.put("org.aspectj.runtime.reflect.Factory.makeJP", "dyper");
        expected.put("org.dyper.generated.g1.DyperPatches1.ajc$before$x$1", "dyper");
        expected.put("org.dyper.samples.phases.Dyper$4f29201bb550b061$DyperBytecode1.b$6", "dyper");
        expected.put("com.acme.Dyper$0a1b$DyperPatches1.ajc$after$y$2", "dyper");
        expected.put("com.acme.Worker.ajc$inlineAccessFieldGet$z", "dyper");
        expected.put("[lock java.lang.Object]", "lock");
        expected.put("[alloc byte[]]", "alloc");
        Map<String, String> seen = new LinkedHashMap<>();
        for (String frame : expected.keySet()) {
            seen.put(frame, (String) browser.js("return Dyper.flameTools.kindOf(arguments[0]);", frame));
        }
        assertEquals(expected, seen);
    }

    @Test
    void plantedHotMethodIsTheWidestFrameOfItsLevel() throws Exception {
        screenshot("bank-report.png");
        Map<String, Object> audit = frame(BANK + ".audit");
        List<Map<String, Object>> level = browser.frames().stream()
                .filter(f -> num(f, "depth") == num(audit, "depth")).toList();
        Map<String, Object> widest = level.stream().max(Comparator.comparingDouble(f -> num(f, "width"))).orElseThrow();
        assertEquals(BANK + ".audit", widest.get("name"), level.toString());
        assertEquals(4, level.size(), "audit, transfer, Random.nextInt and Bank.<init> share its level: " + level);
        double full = num(frame("org.dyper.samples.bank.BankApp$Worker.run"), "width")
                + num(frame("org.dyper.samples.bank.BankApp.main"), "width");
        assertEquals(1144.0 / 1650, num(audit, "width") / full, 0.01, "width is its share of the CPU samples");
        assertEquals("true", browser.driver.findElement(By.cssSelector("#views button[data-view='CPU']"))
                .getDomAttribute("aria-selected"));
    }

    @Test
    void clickZoomsIntoAFrameAndResetGoesBack() throws Exception {
        double canvasWidth = num(frame("org.dyper.samples.bank.BankApp$Worker.run"), "width")
                + num(frame("org.dyper.samples.bank.BankApp.main"), "width");
        double withdrawBefore = num(frame("org.dyper.samples.bank.Account.withdraw"), "width");
        click(frame(BANK + ".transfer"));
        assertEquals(canvasWidth, num(frame(BANK + ".transfer"), "width"), 0.01, "the clicked frame fills the width");
        assertEquals(120.0 / 356, num(frame("org.dyper.samples.bank.Account.withdraw"), "width") / canvasWidth, 0.01);
        assertTrue(num(frame("org.dyper.samples.bank.Account.withdraw"), "width") > 3 * withdrawBefore);
        assertFalse(names().contains(BANK + ".audit"), "a sibling of the zoomed frame is out of view");
        assertEquals(Boolean.TRUE, frame("org.dyper.samples.bank.BankApp$Worker.run").get("faded"),
                "its caller stays, faded");
        assertTrue(browser.driver.findElement(By.id("frame-details")).getText().startsWith(BANK + ".transfer"));
        screenshot("bank-report-zoomed.png");
        browser.driver.findElement(By.id("reset")).click();
        assertTrue(names().contains(BANK + ".audit"));
        assertEquals(withdrawBefore, num(frame("org.dyper.samples.bank.Account.withdraw"), "width"), 0.01);
    }

    @Test
    void searchHighlightsMatchingFramesAndReportsTheirShare() throws Exception {
        List<Long> before = colourOf(frame(BANK + ".audit"));
        browser.driver.findElement(By.id("search")).sendKeys("audit");
        assertEquals("Matched: 69.3 % of all (1,144 samples of 1,650 samples; 1 frame name)",
                browser.driver.findElement(By.id("search-share")).getText());
        assertEquals(List.of(224L, 64L, 251L), colourOf(frame(BANK + ".audit")), "drawn in the highlight colour");
        assertFalse(before.equals(colourOf(frame(BANK + ".audit"))));
        assertEquals(Boolean.FALSE, frame(BANK + ".transfer").get("matched"));
        assertFalse(List.of(224L, 64L, 251L).equals(colourOf(frame(BANK + ".transfer"))));
        screenshot("bank-report-search.png");

        WebElement search = browser.driver.findElement(By.id("search"));
        search.clear();
        search.sendKeys("/Account\\.(withdraw|deposit)/");
        assertEquals("Matched: 12.7 % of all (210 samples of 1,650 samples; 2 frame names)",
                browser.driver.findElement(By.id("search-share")).getText());
        search.clear();
        search.sendKeys("nosuchframe");
        assertEquals("No frame matches “nosuchframe”.", browser.driver.findElement(By.id("search-share")).getText());
    }

    @Test
    void callersViewPutsWhereTimeWasSpentAtTheRoot() {
        browser.driver.findElement(By.id("inverted")).click();
        List<Map<String, Object>> roots = browser.frames().stream().filter(f -> num(f, "depth") == 0).toList();
        Map<String, Object> widest = roots.stream().max(Comparator.comparingDouble(f -> num(f, "width"))).orElseThrow();
        assertEquals(BANK + ".mix", widest.get("name"), "mix has the most self samples: " + roots);
        Map<String, Object> caller = browser.frames().stream().filter(f -> num(f, "depth") == 1
                && Math.abs(num(f, "x") - num(widest, "x")) < 0.5).findFirst().orElseThrow();
        assertEquals(BANK + ".audit", caller.get("name"), "its caller is the row below");
    }

    @Test
    void lockAndAllocationViewsShowTheirLeaves() {
        browser.driver.findElement(By.cssSelector("#views button[data-view='WALL']")).click();
        assertEquals("WALL: all threads, running or not: where time passes. 2,400 samples in all, sampled by "
                + "THREAD_DUMP. Estimates. Not shown: 3 lighter paths (12 samples) left out of the report.",
                browser.driver.findElement(By.id("flame-info")).getText(), "what the producer left out is said");
        assertEquals(1550.0 / 2400, num(frame("org.dyper.samples.bank.BankApp$Worker.run"), "width")
                / browser.driver.findElement(By.id("flame")).getRect().getWidth(), 0.01);
        browser.driver.findElement(By.cssSelector("#views button[data-view='LOCK']")).click();
        assertTrue(names().contains("[lock org.dyper.samples.bank.Account]"), names().toString());
        assertEquals("LOCK: time threads spent blocked or parked; the leaf names the lock's class. 60.0 ms in all, "
                + "sampled by JFR. Estimates. Not shown: 3 events (1.50 ms) dropped past the node bound; 7 events missing "
                + "from the per-thread trees.", browser.driver.findElement(By.id("flame-info")).getText());
        browser.driver.findElement(By.cssSelector("#views button[data-view='ALLOC']")).click();
        assertTrue(names().contains("[alloc java.lang.StackTraceElement[]]"), names().toString());
        assertTrue(browser.driver.findElement(By.id("flame-info")).getText().contains("50.4 KB in all"));
    }

    @Test
    void aThreadsOwnTreeAndWhatItLeftOut() {
        WebElement worker = browser.driver.findElement(By.cssSelector("#thread option[value='21']"));
        assertEquals("bank-worker-0 (21)", worker.getText());
        worker.click();
        assertEquals(List.of("org.dyper.samples.bank.BankApp$Worker.run", BANK + ".audit", BANK + ".transfer",
                BANK + ".mix", "org.dyper.samples.bank.Account.withdraw"), names());
        assertEquals(325.0 / 360, num(frame(BANK + ".audit"), "width") / num(frame(
                "org.dyper.samples.bank.BankApp$Worker.run"), "width"), 0.001);
        assertTrue(browser.driver.findElement(By.id("flame-info")).getText().endsWith("360 samples in all in this "
                + "thread, sampled by JFR. Estimates. Not shown: 2 lighter paths (5 samples) left out of the report."),
                browser.driver.findElement(By.id("flame-info")).getText());
    }

    @Test
    void tablesSortWhenAHeaderIsClicked() {
        WebElement counts = browser.driver.findElement(By.cssSelector("table[data-table='counts']"));
        WebElement header = counts.findElement(By.xpath(".//th[text()='count']"));
        header.click();
        assertEquals(List.of("13,096", "10,000", "9,880", "16"), column(counts, 2));
        assertEquals("descending", header.getDomAttribute("aria-sort"));
        header.click();
        assertEquals(List.of("16", "9,880", "10,000", "13,096"), column(counts, 2));
        assertEquals("ascending", header.getDomAttribute("aria-sort"));
        counts.findElement(By.xpath(".//th[text()='site']")).click();
        assertEquals(List.of("org.dyper.samples.bank.Account.<init>(int,long)", "org.dyper.samples.bank.Account.balance()",
                "org.dyper.samples.bank.Account.deposit(long)", "org.dyper.samples.bank.Account.withdraw(long)"),
                column(counts, 1).stream().map(s -> s.replace("▲ flame graph", "").strip()).toList());
    }

    private static List<String> column(WebElement table, int n) {
        return table.findElements(By.xpath("./tbody/tr/td[" + n + "]")).stream().map(WebElement::getText).toList();
    }

    @Test
    void exactAndEstimatedFiguresAreToldApart() {
        assertEquals("EXACT", browser.driver.findElement(By.cssSelector("#exact-timing h3 .badge")).getText());
        assertEquals("ESTIMATE", browser.driver.findElement(By.cssSelector("#flame-section h2 .badge")).getText());
        assertEquals("ESTIMATE", browser.driver.findElement(By.cssSelector("#monitor-methods h3 .badge")).getText());
        WebElement timing = browser.driver.findElement(By.cssSelector("table[data-table='timing']"));
        WebElement audit = timing.findElement(By.id("x-timing-1"));
        List<WebElement> cells = audit.findElements(By.tagName("td"));
        assertEquals("200", cells.get(1).getText(), "calls: exact");
        assertEquals("", cells.get(1).getDomAttribute("class") == null ? "" : cells.get(1).getDomAttribute("class"));
        assertEquals("est", cells.get(6).getDomAttribute("class"), "p50 is an estimate");
        assertTrue(cells.get(6).getText().startsWith("≈ "), cells.get(6).getText());
        assertEquals("italic", cells.get(6).getCssValue("font-style"), "and looks like one");
        assertEquals("normal", cells.get(1).getCssValue("font-style"));
        WebElement threads = browser.driver.findElement(By.cssSelector("table[data-table='monitor-threads']"));
        assertEquals(List.of("thread", "CPU samples", "CPU time"), threads.findElements(By.xpath("./thead/tr/th"))
                .stream().map(h -> h.getText().replaceAll("[▲▼]", "").strip()).toList(), "one sampled figure, named");
        assertEquals(List.of("842 ms", "-"), column(threads, 3), "thread CPU clock: exact");
        assertEquals(List.of("≈ 350", "≈ 100"), column(threads, 2), "CPU samples: estimates");
    }

    @Test
    void aSampledFrameWithExactFiguresLinksToThem() {
        Map<String, Object> audit = frame(BANK + ".audit");
        assertEquals(Boolean.TRUE, audit.get("exact"), "drawn with the exact-figures mark");
        assertEquals(List.of(26L, 127L, 55L), pixel(num(audit, "x") + 1, num(audit, "y") + 1), "the green corner");
        assertEquals(Boolean.FALSE, frame("java.util.Random.nextInt").get("exact"));
        click(audit);
        WebElement link = browser.driver.findElement(By.cssSelector("#frame-details a.exact-link"));
        assertEquals("Timing: 200 calls, mean 1.06 ms", link.getText());
        link.click();
        assertTrue(browser.driver.getCurrentUrl().endsWith("#x-timing-1"), browser.driver.getCurrentUrl());
        assertTrue(browser.driver.findElement(By.id("x-timing-1")).getText().startsWith(BANK + ".audit()"));
        // and back: the exact row's link searches the flame graph for the method
        browser.driver.findElement(By.cssSelector("#x-timing-1 a.sampled")).click();
        assertEquals(BANK + ".audit", browser.driver.findElement(By.id("search")).getDomProperty("value"));
        assertTrue(browser.driver.findElement(By.id("search-share")).getText().startsWith("Matched: 69.3 %"));
    }

    /**
     * A late flight recorder (issue 20): the thread dumps' view of the time before it is a view of its own, and the
     * page names each CPU view's source and time, and lists the dumps' hot methods apart.
     */
    @Test
    void theThreadDumpsViewBeforeALateRecorderIsNamedWithItsSourceAndTime() throws Exception {
        // the bank's report with the recorder's samples from 1.5 s after the JVM started, and the dumps' before
        String bank = Files.readString(fixture(dir));
        String before = "<CPU_BEFORE_JFR EXACT='false' SOURCE='THREAD_DUMP' EVENT='' SAMPLES='40' TICKS='60'"
                + " ESTIMATED_NS='400000000' SYSTEM_ONLY='0' IO_SAMPLES='0' IO_NS='0' DYPER_SAMPLES='0'"
                + " MONITOR_SAMPLES='0' MONITOR_NS='0' MONITOR_CPU_NS='1' FROM='1795411271612' TO='1795411273012'>"
                + "<THREADS/><PACKAGES/><CLASSES/><METHODS><METHOD CLASS='org.dyper.samples.bank.Bank' NAME='open'"
                + " SELF='40' TOTAL='40' IO='0' SELF_NS='400000000' TOTAL_NS='400000000' IO_NS='0'/></METHODS><LINES/>"
                + "</CPU_BEFORE_JFR>";
        String late = bank.replace("IO_SAMPLES='0' IO_NS='0'>", "IO_SAMPLES='0' IO_NS='0' SOURCE='JFR'"
                + " FROM='1795411273012'>").replace("</CPU>", "</CPU>" + before)
                .replace("<VIEW NAME='CPU' UNIT='SAMPLES' TOTAL='1650'>", "<VIEW NAME='CPU' UNIT='SAMPLES' TOTAL='1650'"
                        + " FROM='1795411273012'>")
                .replace("<VIEW NAME='WALL'", "<VIEW NAME='CPU_BEFORE_JFR' UNIT='SAMPLES' SOURCE='THREAD_DUMP'"
                        + " TOTAL='40' FROM='1795411271612' TO='1795411273012'><PATH WEIGHT='40'>"
                        + "org.dyper.samples.bank.BankApp.main;org.dyper.samples.bank.Bank.open</PATH></VIEW>"
                        + "<VIEW NAME='WALL'");
        Path xml = dir.resolve("late.xml");
        Files.writeString(xml, late);
        dyper("report", xml.toString());
        browser.open(dir.resolve("late.html"));
        assertEquals("CPU every 10 ms: 1,650 samples (JFR, from 1.5 s after the JVM started); before the flight"
                + " recorder started: 40 samples (THREAD_DUMP, 0.1 s to 1.5 s after the JVM started); stacks from"
                + " JFR: CPU 1,650 samples, CPU_BEFORE_JFR 40 samples, WALL 2,400 samples, LOCK 60.0 ms, ALLOC 50.4 KB;"
                + " 24 nodes", summary("Estimated (sampled)"));
        assertTrue(browser.driver.findElement(By.id("flame-info")).getText().startsWith("CPU: running threads: where"
                + " CPU time goes. 1,650 samples in all, sampled by JFR, from 1.5 s after the JVM started. Estimates."),
                browser.driver.findElement(By.id("flame-info")).getText());
        browser.driver.findElement(By.cssSelector("#views button[data-view='CPU_BEFORE_JFR']")).click();
        assertEquals("CPU_BEFORE_JFR: running threads before the flight recorder started, from thread dumps: where CPU"
                + " time went. 40 samples in all, sampled by THREAD_DUMP, 0.1 s to 1.5 s after the JVM started."
                + " Estimates.", browser.driver.findElement(By.id("flame-info")).getText());
        assertEquals(List.of("org.dyper.samples.bank.BankApp.main", BANK + ".open"), names());
        WebElement early = browser.driver.findElement(By.cssSelector("table[data-table='monitor-methods-before']"));
        assertEquals(List.of(BANK + ".open"), column(early, 1));
        assertEquals(List.of("≈ 40"), column(early, 2), "an estimate");
    }

    /** Sections the bank does not have, from the other sample programs' real reports, and a monitor without stacks. */
    @Test
    void everyExactSectionIsShownWithItsFigures() throws Exception {
        Path xml = dir.resolve("all-sections.xml");
        try (InputStream in = getClass().getResourceAsStream("all-sections.xml")) {
            Files.copy(in, xml, StandardCopyOption.REPLACE_EXISTING);
        }
        dyper("report", xml.toString());
        browser.open(dir.resolve("all-sections.html"));
        screenshot("all-sections.png");
        assertEquals("Sampled timing: 1 site, Locks: 3 sites, Allocations: 4 sites, Field writes: 1 field",
                summary("Measured exactly"));
        assertEquals("200 hook failures; agent broken failed: java.lang.IllegalStateException: no", summary("Failures"));
        assertEquals("no CPU samples or stacks in the monitor's report", summary("Estimated (sampled)"));
        assertEquals("model phases (0 classes patched now): in from " + shown(1795412168000L) + " to "
                + shown(1795412168500L) + "; model detail (1 class patched now): in since " + shown(1795412168600L),
                summary("Patched at run time"));
        assertEquals("not recorded in the XML (pages made at exit or with dyper report --pid say how); patched at run time "
                + "(below)", summary("Woven"));
        assertTrue(browser.driver.findElement(By.id("flame-empty")).getText().startsWith("No sampled stacks in this "
                + "report."));
        assertFalse(browser.driver.findElement(By.id("flame-ui")).isDisplayed());

        WebElement detailed = browser.driver.findElement(By.cssSelector("table[data-table='monitor-detailed']"));
        assertEquals(List.of("org.dyper.samples.detail.Hot.hot", "patched", "3,000", "150 ms", "50.0 µs", "40.0 µs",
                "90.0 µs", "≈ 15", "≈ 150 ms"), row(detailed, 0), "automatic detailing: exact beside the estimate");
        assertEquals(List.of("org.dyper.samples.detail.Cooling.cool", "removed", "0", "0 ns", "", "", "", "≈ 9",
                "≈ 90.0 ms"), row(detailed, 1));
        WebElement sampled = browser.driver.findElement(By.cssSelector("table[data-table='sampled']"));
        assertEquals(List.of("10,000", "157", "≈ 14.6 ms", "≈ 3.87 ms"), row(sampled, 0).subList(1, 5));
        assertEquals("ESTIMATE", browser.driver.findElement(By.cssSelector("#exact-sampled h3 .badge")).getText());
        WebElement locks = browser.driver.findElement(By.cssSelector("table[data-table='locks-by-site']"));
        assertEquals(List.of("org.dyper.samples.contention.Ledger.post(long)", "5", "5", "19.1 ms", "5.20 ms", "88.8 µs",
                "30.0 µs", "ledger-poster", "ledger-auditor"), row(locks, 1));
        WebElement lockClasses = browser.driver.findElement(By.cssSelector("table[data-table='locks-by-lock-class']"));
        assertEquals(List.of("org.dyper.samples.contention.Journal", "10,000", "7", "65.1 ms", "30.5 ms", "130 ms",
                "32.1 ms", "journal-worker-0", ""), row(lockClasses, 0));
        WebElement types = browser.driver.findElement(By.cssSelector("table[data-table='allocations-by-type']"));
        assertEquals(List.of("int[]", "60", "1,440", "40"), row(types, 1));
        WebElement fields = browser.driver.findElement(By.cssSelector("table[data-table='fields-by-field']"));
        assertEquals(List.of("org.dyper.samples.unsafe.Stats.hits", "20,250", "250", "0", "16 writes"), row(fields, 0));
        fields.findElement(By.tagName("summary")).click();
        assertEquals("20249 20250 stats-sloppy false", fields.findElements(By.cssSelector(".writes tr")).get(16)
                .getText());
        WebElement failures = browser.driver.findElement(By.cssSelector("table[data-table='failures']"));
        assertEquals(List.of("org.dyper.samples.bank.Bank.audit()", "200",
                "java.lang.NumberFormatException: Cannot parse null string"), row(failures, 0));
        assertEquals(List.of("“left” waits for java.lang.Object@11 held by “right”",
                "“right” waits for java.lang.Object@22 held by “left”"), browser.driver.findElements(
                By.cssSelector("#monitor-deadlocks li")).stream().map(WebElement::getText).toList());
    }

    /** An epoch time as the page shows it (the browser's locale and zone). */
    private String shown(long ms) {
        return (String) browser.driver.executeScript("return new Date(arguments[0]).toLocaleString();", ms);
    }

    private String summary(String term) {
        List<WebElement> terms = browser.driver.findElements(By.cssSelector("#summary-list dt"));
        for (int i = 0; i < terms.size(); i++) {
            if (terms.get(i).getText().equals(term)) {
                return browser.driver.findElements(By.cssSelector("#summary-list dd")).get(i).getText();
            }
        }
        throw new AssertionError("no " + term + " in the summary");
    }

    private static List<String> row(WebElement table, int n) {
        return table.findElements(By.xpath("./tbody/tr")).get(n).findElements(By.xpath("./td")).stream()
                .map(WebElement::getText).toList();
    }

    @Test
    void differentialFlameGraphColoursWhatGotSlowerAndFaster() throws Exception {
        Path before = fixture(dir);
        String text = Files.readString(before, UTF_8);
        String auditPath = "<PATH WEIGHT='1044'>org.dyper.samples.bank.BankApp$Worker.run;" + BANK + ".audit;";
        int at = text.indexOf(auditPath);
        Path after = dir.resolve("after.xml");
        Files.writeString(after, (text.substring(0, at) + text.substring(at).replaceFirst("WEIGHT='1044'", "WEIGHT='400'"))
                .replace("<VIEW NAME='CPU' UNIT='SAMPLES' TOTAL='1650'>", "<VIEW NAME='CPU' UNIT='SAMPLES' TOTAL='1006'>"),
                UTF_8);
        Path diff = dir.resolve("diff.html");
        dyper("report", "--diff", before.toString(), after.toString(), "--out", diff.toString());
        browser.open(diff);
        screenshot("bank-report-diff.png");
        List<Long> audit = colourOf(frame(BANK + ".audit"));
        assertTrue(audit.get(2) == 255 && audit.get(0) < 200, "audit's share shrank: blue, " + audit);
        List<Long> transfer = colourOf(frame(BANK + ".transfer"));
        assertTrue(transfer.get(0) == 255 && transfer.get(2) < 200, "transfer's share grew: red, " + transfer);
        assertTrue(browser.driver.findElement(By.id("flame-info")).getText()
                .contains("Before 1,650 samples, after 1,006 samples"));
        WebElement changes = browser.driver.findElement(By.cssSelector("table[data-table='compare-frames-CPU']"));
        assertEquals(BANK + ".mix", column(changes, 1).get(0), "the biggest change comes first");
    }
}
