package org.dyper.samples.e2e;

import static org.dyper.samples.bank.BankFacts.AUDIT;
import static org.dyper.samples.bank.BankFacts.DEPOSIT;
import static org.dyper.samples.bank.BankFacts.FEE;
import static org.dyper.samples.bank.BankFacts.TRANSFER;
import static org.dyper.samples.bank.BankFacts.WITHDRAW;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.dyper.cli.report.Browser;
import org.dyper.samples.bank.BankApp;
import org.dyper.samples.bank.BankFacts;
import org.dyper.samples.e2e.E2e.Run;
import org.dyper.testsupport.Jdk;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;

/**
 * The demo's HTML report, end to end: {@code dyper run --html} on the bank, the page written by the program's own
 * runtime at exit, then opened in headless Chromium, where the exact figures BankFacts knows are what a person reads.
 */
class BankReportEndToEndTest {
    @ParameterizedTest
    @EnumSource(Jdk.class)
    void theDemosPageShowsItsExactFigures(Jdk jdk, @TempDir Path dir) throws Exception {
        Path html = dir.resolve("bank.html");
        Run run = E2e.dyperProcess(jdk.home(), List.of("run", "--model", E2e.MODELS.resolve("bank.xml").toString(),
                "--report", "none", "--html", html.toString(), "--cache", dir.resolve("cache").toString(), "--",
                "-cp", E2e.appClasses().toString(), BankApp.class.getName()));
        assertEquals(0, run.exit(), run.err());
        try (Browser browser = Browser.start(dir.resolve("profile"))) {
            browser.open(html);
            Path shots = Path.of("target", "report-browser");
            Files.createDirectories(shots);
            Files.copy(browser.driver.getScreenshotAs(OutputType.FILE).toPath(),
                    shots.resolve("bank-demo-" + jdk.name().toLowerCase() + ".png"), StandardCopyOption.REPLACE_EXISTING);

            Map<String, String> summary = new LinkedHashMap<>();
            List<WebElement> terms = browser.driver.findElements(By.cssSelector("#summary-list dt"));
            List<WebElement> values = browser.driver.findElements(By.cssSelector("#summary-list dd"));
            for (int i = 0; i < terms.size(); i++) {
                summary.put(terms.get(i).getText(), values.get(i).getText());
            }
            assertTrue(summary.get("Program").startsWith(BankApp.class.getName() + " (pid "), summary.toString());
            assertTrue(summary.get("Woven").startsWith("at launch by dyper run: classes woven ahead"), summary.toString());
            assertEquals("Timing: 2 sites, Counts: 4 sites, Calls: 1 site, Values: 1 site", summary.get("Measured exactly"));
            assertEquals("no hook failures", summary.get("Failures"));

            assertEquals(List.of("10,000", "200"), List.of(cell(browser, "timing", TRANSFER, 2),
                    cell(browser, "timing", AUDIT, 2)));
            assertEquals(count(BankFacts.withdrawCalls(4, 2500)), cell(browser, "counts", WITHDRAW, 2));
            assertEquals(count(BankFacts.depositCalls(4, 2500)), cell(browser, "counts", DEPOSIT, 2));
            assertEquals(count(BankFacts.depositCalls(4, 2500)), cell(browser, "calls", DEPOSIT, 2));
            assertEquals(List.of("10,000", count(BankFacts.DEFAULT_FEE_RETURN_SUM)),
                    List.of(cell(browser, "values", FEE, 2), cell(browser, "values", FEE, 3)));
            assertTrue(cell(browser, "timing", AUDIT, 7).startsWith("≈ "), "p50 is marked as an estimate");
        }
    }

    private static String count(long n) {
        return String.format(java.util.Locale.ROOT, "%,d", n);
    }

    /** The text of column {@code n} in the row of {@code site} of an exact table. */
    private static String cell(Browser browser, String table, String site, int n) {
        for (WebElement row : browser.driver.findElements(By.cssSelector("table[data-table='" + table + "'] tbody tr"))) {
            List<WebElement> cells = row.findElements(By.tagName("td"));
            if (cells.get(0).getText().startsWith(site)) {
                return cells.get(n - 1).getText();
            }
        }
        throw new AssertionError("no row " + site + " in the " + table + " table");
    }
}
