package org.dyper.samples.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.dyper.cli.report.Browser;
import org.dyper.samples.hotspot.HotspotApp;
import org.dyper.samples.hotspot.HotspotFacts;
import org.dyper.testsupport.Await;
import org.dyper.testsupport.Jdk;
import org.dyper.testsupport.Processes;
import org.dyper.testsupport.Running;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;

/**
 * {@code dyper ui} in headless Chromium, as a person uses it: the hotspot sample under {@code dyper run} is listed
 * and opened, its hot method is the widest frame of its level, a click and "Measure exactly" bring its exact call
 * count, equal to what the program says it made; Stop freezes the count and takes the patch out; its question,
 * asked from the page, is answered exactly; a model file with
 * a mistake, uploaded, shows its line and column; an unmonitored JVM is attached from the page. Screenshots go to
 * {@code target/ui-screenshots/}.
 */
class UiBrowserEndToEndTest {
    static final Path ARTIFACTS = Path.of("target", "ui-screenshots");
    static final Duration LINE = MonitorEndToEndTest.LINE;
    @TempDir
    Path dir;

    private Browser browser;

    private void screenshot(String name) throws Exception {
        Files.createDirectories(ARTIFACTS);
        Files.copy(browser.driver.getScreenshotAs(OutputType.FILE).toPath(), ARTIFACTS.resolve(name),
                StandardCopyOption.REPLACE_EXISTING);
    }

    /**
     * Clicks the button {@code by} finds in a part of the page that is drawn again on its own (the JVM list every 3 s,
     * the exact table every second): a button found just before may be gone when clicked, so it is found again.
     */
    private void clickRedrawn(By by, String what) throws Exception {
        Await.until(what + " clicked (" + by + ")", () -> {
            try {
                browser.driver.findElement(by).click();
                return true;
            } catch (org.openqa.selenium.StaleElementReferenceException e) {
                return false;
            }
        }, Await.MINUTE);
    }

    private String data(String key) {
        Object v = browser.js("return document.body.dataset[arguments[0]] || ''", key);
        return v == null ? "" : v.toString();
    }

    private static double num(Map<String, Object> f, String key) {
        return ((Number) f.get(key)).doubleValue();
    }

    /** The widest frame at the depth where {@code name} is drawn, or null. */
    private Map<String, Object> widestAtLevelOf(String name) {
        List<Map<String, Object>> frames = browser.frames();
        Map<String, Object> hot = frames.stream().filter(f -> f.get("name").equals(name) && !(Boolean) f.get("faded"))
                .max(Comparator.comparingDouble(f -> num(f, "width"))).orElse(null);
        if (hot == null) {
            return null;
        }
        return frames.stream().filter(f -> num(f, "depth") == num(hot, "depth") && !(Boolean) f.get("faded"))
                .max(Comparator.comparingDouble(f -> num(f, "width"))).orElse(null);
    }

    private void click(Map<String, Object> f) {
        WebElement canvas = browser.driver.findElement(By.id("flame"));
        int x = (int) Math.round(num(f, "x") + num(f, "width") / 2 - canvas.getRect().getWidth() / 2.0);
        int y = (int) Math.round(num(f, "y") + num(f, "height") / 2 - canvas.getRect().getHeight() / 2.0);
        new Actions(browser.driver).moveToElement(canvas, x, y).click().perform();
    }

    private String calls() {
        return browser.driver.findElement(By.id("measure-figures")).getAttribute("data-calls");
    }

    /** Waits for two refreshes of the page that began after now, so what it shows is newer than anything before. */
    private void twoRefreshes() {
        long now = Long.parseLong(data("refreshed").isEmpty() ? "0" : data("refreshed"));
        Await.until("two more refreshes of the page", () -> Long.parseLong(data("refreshed")) >= now + 2,
                Await.MINUTE);
    }

    @Test
    void findMeasureStopAndAttach() throws Exception {
        Path registry = dir.resolve("registry");
        Files.createDirectories(registry, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(
                "rwx------")));
        browser = Browser.start(dir.resolve("profile"));
        Running app = UiApiEndToEndTest.underDyperRun(Jdk.JDK17, registry, dir);
        Running plain = null;
        try (Ui ui = Ui.start(registry, dir)) {
            assertEquals(HotspotFacts.READY, app.line(0, LINE));
            long pid = Long.parseLong(Await.until("the program's registry entry", () -> E2e.dyper("ctl", "--dir",
                    registry.toString(), "who").out().trim(), s -> !s.isEmpty() && !s.startsWith("No "),
                    Await.MINUTE).split("\\s+")[0]);

            browser.driver.get(ui.url);
            assertEquals(ui.base() + "/", browser.driver.getCurrentUrl(), "the token left the address");
            Await.until("process " + pid + " listed", () -> !browser.driver.findElements(
                    By.cssSelector("button[data-open='" + pid + "']")).isEmpty(), Await.MINUTE);
            screenshot("ui-jvms.png");
            clickRedrawn(By.cssSelector("button[data-open='" + pid + "']"), "Open");
            Await.until("the flame graph", () -> "true".equals(data("ready")), Await.MINUTE);
            assertEquals("events", data("live"), "live updates by the event stream, not by polling");
            browser.driver.findElement(By.cssSelector("#window option[value='start']")).click();
            UiApiEndToEndTest.hotStacks(ui, pid);
            Map<String, Object> widest = Await.until("Hot.work, the widest frame of its level",
                    () -> widestAtLevelOf(HotspotFacts.HOT), f -> f != null && f.get("name").equals(HotspotFacts.HOT),
                    Await.MINUTE);
            screenshot("ui-flame.png");

            app.send("pause");
            assertEquals(HotspotFacts.PAUSED, app.line(1, LINE));
            twoRefreshes();
            click(widestAtLevelOf(HotspotFacts.HOT));
            assertEquals(HotspotFacts.HOT, browser.driver.findElement(By.id("measure-name")).getText());
            browser.driver.findElement(By.id("measure")).click();
            Await.until("the measured method's Stop button", () -> !browser.driver.findElements(
                    By.cssSelector("button[data-stop='" + HotspotFacts.HOT + "']")).isEmpty(), Await.MINUTE);
            Await.until("the page's fetches after Measure done", () -> Boolean.FALSE.equals(browser.js(
                    "return Dyper.ui.state.busy || !!Dyper.ui.state.again")), Await.MINUTE);
            long fetches = ((Number) browser.js("return Dyper.ui.timing.requests.exact")).longValue();
            long events = ((Number) browser.js("return Dyper.ui.timing.events")).longValue();
            app.send("burst 1000");
            assertEquals(HotspotFacts.burst(1000, 1000), app.line(2, LINE));
            String seen = Await.until("the exact count of Hot.work", this::calls, "1000"::equals, Await.MINUTE);
            assertEquals("1000", seen);
            assertEquals(fetches, ((Number) browser.js("return Dyper.ui.timing.requests.exact")).longValue(),
                    "the new figures came with an event: the page did not ask for them");
            assertTrue(((Number) browser.js("return Dyper.ui.timing.events")).longValue() > events);
            assertEquals("events", data("live"));
            WebElement row = browser.driver.findElement(By.cssSelector("#exact tr[data-method='" + HotspotFacts.HOT
                    + "'] td.calls"));
            assertEquals("1,000", row.getText());
            long barCalls = browser.driver.findElements(By.cssSelector("#measure-histogram rect title")).stream()
                    .mapToLong(t -> Long.parseLong(t.getAttribute("textContent").split(" ")[0].replace(",", "")))
                    .sum();
            assertEquals(1000, barCalls, "the histogram's bars hold every call");
            screenshot("ui-measured.png");

            clickRedrawn(By.cssSelector("button[data-stop='" + HotspotFacts.HOT + "']"), "Stop");
            Await.until("Stop taken", () -> browser.driver.findElements(
                    By.cssSelector("button[data-stop='" + HotspotFacts.HOT + "']")).isEmpty(), Await.MINUTE);
            assertFalse(E2e.dyper("ctl", "--dir", registry.toString(), Long.toString(pid), "instrumented").out()
                    .contains(" in since "), "nothing is in");
            app.send("burst 500");
            assertEquals(HotspotFacts.burst(500, 1500), app.line(3, LINE));
            twoRefreshes();
            assertEquals("1000", calls(), "the count stopped growing");

            // "ask about this": the box below the frame holds a question about it; Ask answers it exactly below
            String question = "time of " + HotspotFacts.HOT + " by caller";
            assertEquals(question, browser.driver.findElement(By.id("question")).getAttribute("value"));
            browser.driver.findElement(By.id("ask")).click();
            Await.until("the question's answers shown", () -> browser.driver.findElement(By.id("answers-text"))
                    .getText(), t -> t.contains(question), Await.MINUTE);
            app.send("burst 10");
            assertEquals(HotspotFacts.burst(10, 1510), app.line(4, LINE));
            Await.until("the burst's 10 calls answered, 5 from each caller", () -> browser.driver.findElement(
                    By.id("answers-text")).getText(), t -> t.contains("2 sites patched; 10 checks, 10 records; 2 "
                    + "groups"), Await.MINUTE);
            screenshot("ui-asked.png");
            assertEquals(200, ui.delete("/api/jvms/" + pid + "/model", "").status());

            // two marks around some spinning: the window between them, drawn against the one from mark 1 to now
            app.send("spin");
            assertEquals(HotspotFacts.SPINNING, app.line(5, LINE));
            browser.driver.findElement(By.id("mark")).click();
            Await.until("mark 1 shown", () -> !browser.driver.findElements(By.cssSelector("#marks [data-mark='1']"))
                    .isEmpty(), Await.MINUTE);
            Await.until("samples of Hot.work after mark 1", () -> UiApiEndToEndTest.hot(ui.get("/api/jvms/" + pid
                    + "/stacks?window=1..")), w -> w >= 5, Await.MINUTE);
            browser.driver.findElement(By.id("mark-label")).sendKeys("second");
            browser.driver.findElement(By.id("mark")).click();
            Await.until("mark 2 shown", () -> !browser.driver.findElements(By.cssSelector("#marks [data-mark='2']"))
                    .isEmpty(), Await.MINUTE);
            app.send("pause");
            assertEquals(HotspotFacts.PAUSED, app.line(6, LINE));
            browser.driver.findElement(By.cssSelector("#window option[value='1..2']")).click();
            browser.driver.findElement(By.cssSelector("#compare option[value='1..']")).click();
            String info = Await.until("the window between the marks, compared", () -> browser.driver.findElement(
                    By.id("flame-info")).getText(), t -> t.contains("mark 1 to mark 2 (second)")
                    && t.contains("Compared with mark 1 to now"), Await.MINUTE);
            long between = ((Number) ui.get("/api/jvms/" + pid + "/stacks?window=1..2").map().get("total"))
                    .longValue();
            assertTrue(between > 0, info);
            assertEquals(between, ((Number) browser.js("return Dyper.flame.tree.total")).longValue(), info);
            assertEquals(true, browser.js("return !!Dyper.flame.tree.w0"), "a differential tree");
            screenshot("ui-marks.png");
            browser.driver.findElement(By.cssSelector("#compare option[value='']")).click();

            // a model file with a mistake, uploaded: read in the browser into the box, then applied as pasted XML
            String mistake = "<MODEL NAME='m'>\n  <FOR CLAS='x'/></MODEL>";
            Path file = Files.writeString(dir.resolve("mistake.xml"), mistake);
            browser.driver.findElement(By.id("model-file")).sendKeys(file.toAbsolutePath().toString());
            Await.until("the file read into the model box", () -> browser.driver.findElement(By.id("model-text"))
                    .getAttribute("value"), mistake::equals, Await.MINUTE);
            browser.driver.findElement(By.id("apply-model")).click();
            String first = Await.until("the model's problems", () -> browser.driver.findElements(
                    By.cssSelector("#model-errors li")).stream().map(WebElement::getText).findFirst().orElse(""),
                    s -> !s.isEmpty(), Await.MINUTE);
            assertEquals("2:3: FOR: unknown attribute CLAS (allowed: CLASS, METHOD, UPDATE)", first);
            screenshot("ui-model-error.png");

            // a planted System.gc(): a row of the GC pauses table, with its cause
            app.send("gc");
            assertEquals(HotspotFacts.COLLECTED, app.line(7, LINE));
            WebElement gcRow = Await.until("the System.gc() in the GC pauses table", () -> browser.driver
                    .findElements(By.cssSelector("#gc-pauses tr[data-cause='System.gc()']")).stream().findFirst()
                    .orElse(null), r -> r != null, Await.MINUTE);
            assertEquals(HotspotFacts.GC_CAUSE, gcRow.findElements(By.tagName("td")).get(2).getText());
            screenshot("ui-gc.png");

            plain = Processes.start(List.of(Processes.currentJava().toString(), "-cp", E2e.appClasses().toString(),
                    HotspotApp.class.getName()));
            assertEquals(HotspotFacts.READY, plain.line(0, LINE));
            long other = plain.pid();
            browser.driver.findElement(By.id("back")).click();
            Await.until("process " + other + " offered for attaching", () -> !browser.driver.findElements(
                    By.cssSelector("button[data-attach='" + other + "']")).isEmpty(), Await.MINUTE);
            clickRedrawn(By.cssSelector("button[data-attach='" + other + "']"), "Attach");
            Await.until("process " + other + " listed as monitored", () -> !browser.driver.findElements(
                    By.cssSelector("button[data-open='" + other + "']")).isEmpty(), Await.MINUTE);
            screenshot("ui-attached.png");
            assertTrue(Files.isRegularFile(registry.resolve(other + ".monitor")));
            // opened, then ended: the event stream says so and the page shows it
            clickRedrawn(By.cssSelector("button[data-open='" + other + "']"), "Open");
            Await.until("process " + other + " open and live", () -> data("pid").equals(Long.toString(other))
                    && "events".equals(data("live")), Await.MINUTE);
            plain.send("quit");
            assertEquals(0, plain.awaitExit(LINE), plain.stderr());
            Await.until("the page shows the process ended", () -> data("ended"), Long.toString(other)::equals,
                    Await.MINUTE);
            assertEquals("ended", data("live"));
            assertEquals("process " + other + " (" + HotspotApp.class.getName() + ") ended", browser.driver
                    .findElement(By.id("status")).getText());
            screenshot("ui-ended.png");
            app.send("quit");
            assertEquals(0, app.awaitExit(LINE), app.stderr());
        } finally {
            if (plain != null) {
                plain.close();
            }
            app.close();
            browser.close();
        }
    }
}
