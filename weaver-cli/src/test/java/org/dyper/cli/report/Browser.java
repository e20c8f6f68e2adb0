package org.dyper.cli.report;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.dyper.testsupport.Await;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Headless Chromium (Debian's {@code chromium} and {@code chromium-driver}, which {@code .ci/run} installs) driven by
 * Selenium, for tests that look at the report page as a person does. Where Chromium is missing the tests are
 * aborted, so they show as skipped with the reason, and the reason is printed: they never pass without a browser.
 */
public final class Browser implements AutoCloseable {
    private static final List<String> FLAGS = List.of("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
            "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--disable-dev-shm-usage", "--window-size=1400,1000", "--force-device-scale-factor=1");

    public final ChromeDriver driver;
    private static boolean told;

    private Browser(ChromeDriver driver) {
        this.driver = driver;
    }

    /** Chromium and its driver, or the test is aborted with the reason. */
    public static Browser start(Path profile) {
        Path chromium = find("dyper.chromium", "CHROMIUM", "chromium", "chromium-browser", "google-chrome");
        Path driver = find("dyper.chromedriver", "CHROMEDRIVER", "chromedriver");
        if (driver == null && Files.isExecutable(Path.of("/usr/lib/chromium/chromedriver"))) {
            driver = Path.of("/usr/lib/chromium/chromedriver");
        }
        if (chromium == null || driver == null) {
            String reason = "BROWSER TESTS SKIPPED: " + (chromium == null ? "no chromium" : "no chromedriver")
                    + " on the PATH (nor -Ddyper.chromium / -Ddyper.chromedriver): install Debian's chromium and "
                    + "chromium-driver (apt-get install chromium chromium-driver; .ci/run does)";
            if (!told) {
                told = true;
                System.err.println(reason);
            }
            Assumptions.abort(reason);
        }
        Logger.getLogger("org.openqa.selenium").setLevel(Level.SEVERE);
        ChromeOptions options = new ChromeOptions();
        options.setBinary(chromium.toFile());
        options.addArguments(FLAGS);
        options.addArguments("--user-data-dir=" + profile.toAbsolutePath());
        options.setCapability("goog:loggingPrefs", Map.of("browser", "ALL"));
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(driver.toFile())
                .usingAnyFreePort().build();
        return new Browser(new ChromeDriver(service, options));
    }

    private static Path find(String property, String env, String... names) {
        String configured = System.getProperty(property, System.getenv(env));
        if (configured != null && !configured.isBlank()) {
            Path p = Path.of(configured);
            return Files.isExecutable(p) ? p : null;
        }
        List<String> dirs = new ArrayList<>(List.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)));
        dirs.add("/usr/bin");
        for (String name : names) {
            for (String dir : dirs) {
                Path p = Path.of(dir, name);
                if (!dir.isEmpty() && Files.isExecutable(p)) {
                    return p;
                }
            }
        }
        return null;
    }

    /** Runs a script in the page and returns what it returns (Selenium's conversion: lists, maps, longs, doubles). */
    public Object js(String script, Object... args) {
        return ((JavascriptExecutor) driver).executeScript(script, args);
    }

    /** Opens a local page and waits until its script has run to the end. */
    public void open(Path page) {
        driver.get(page.toUri().toString());
        try {
            Await.until("the page's script to finish (document.body.dataset.ready)",
                    () -> "true".equals(js("return document.body.dataset.ready || ''")), Duration.ofSeconds(30));
        } catch (AssertionError e) {
            StringBuilder console = new StringBuilder();
            driver.manage().logs().get("browser").forEach(m -> console.append(m.getMessage()).append('\n'));
            throw new AssertionError("the page's script did not finish; console:\n" + console, e);
        }
    }

    @SuppressWarnings("unchecked")
    public List<Map<String, Object>> frames() {
        return (List<Map<String, Object>>) js("return Dyper.flame.frames()");
    }

    @Override
    public void close() {
        driver.quit();
    }
}
