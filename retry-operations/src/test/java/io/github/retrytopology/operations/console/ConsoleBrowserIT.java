package io.github.retrytopology.operations.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import io.github.retrytopology.model.RetrySpec;
import io.github.retrytopology.model.Service;
import io.github.retrytopology.model.load.Specs;
import io.github.retrytopology.operations.broker.BrokerAccess;
import io.github.retrytopology.runtime.consumer.RetryingConsumer;
import io.github.retrytopology.runtime.consumer.Routes;
import io.github.retrytopology.runtime.headers.RetryHeaders;
import io.github.retrytopology.runtime.parkinglot.ParkingLot;
import io.github.retrytopology.runtime.testing.Parked;
import io.github.retrytopology.runtime.testing.Patience;
import io.github.retrytopology.runtime.testing.TestVhost;
import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Level;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console end to end, in a real headless Chromium driven by Selenium through chromium-driver, against a real
 * broker: an on-call engineer finds a failure group in the parking lot, replays it at a limited rate, and sees the
 * service consume the messages and the group go. Its screenshots are kept in {@code target/console-screenshots}.
 *
 * <p>It needs Debian's {@code chromium} and {@code chromium-driver}; without them it is skipped, unless
 * {@value #REQUIRED} is set, as {@code .ci/run} sets it after installing them.
 */
class ConsoleBrowserIT {

    /** Set to anything to fail instead of skipping when there is no browser. */
    static final String REQUIRED = "RETRY_TEST_BROWSER_REQUIRED";
    private static final Path CHROMIUM = Path.of(System.getProperty("console.chromium", "/usr/bin/chromium"));
    private static final Path DRIVER = Path.of(System.getProperty("console.chromedriver", "/usr/bin/chromedriver"));
    private static final Path SCREENSHOTS = Path.of("target/console-screenshots");
    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    static final TestVhost broker = new TestVhost();

    private RetrySpec spec;
    private Service orders;
    private Console console;
    private RetryingConsumer consumer;
    private WebDriver browser;
    private final List<String> handled = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start(@TempDir Path profile) throws Exception {
        boolean installed = Files.isExecutable(CHROMIUM) && Files.isExecutable(DRIVER);
        if (!installed && System.getenv(REQUIRED) != null) {
            throw new IllegalStateException("no " + CHROMIUM + " or " + DRIVER + ", and " + REQUIRED + " is set: "
                    + "install them with apt-get install chromium chromium-driver");
        }
        Assumptions.assumeTrue(installed, "no " + CHROMIUM + " and " + DRIVER + " here (Debian's chromium and "
                + "chromium-driver): the console's browser test is skipped");
        broker.reset();
        spec = broker.inThisVhost(Specs.load(Path.of("../retry-runtime/src/test/resources/specs/fast-retries.yml")));
        orders = spec.service("orders");
        broker.declare(spec);
        park(orders);
        Connection connection = broker.connect("console-browser-it");
        consumer = RetryingConsumer.builder(connection, Routes.builder(orders)
                .on("order.created", context -> handled.add(context.routingKey()))
                .on("order.*.paid", String.class, (payload, context) -> { })
                .build()).start();
        console = startConsole(broker.broker().managementUri().toString());
        browser = chromium(profile);
    }

    /** Once for the class, so that each test's screenshots stay beside the others'. */
    @BeforeAll
    static void clearScreenshots() throws IOException {
        Files.createDirectories(SCREENSHOTS);
        try (var old = Files.newDirectoryStream(SCREENSHOTS, "*.png")) {
            for (Path shot : old) {
                Files.delete(shot);
            }
        }
    }

    private Console startConsole(String managementUri) throws IOException {
        BrokerAccess access = BrokerAccess.of(List.of(managementUri), List.of(broker.broker().amqpUri(broker.name())),
                Optional.empty(), Optional.empty());
        return Console.start(spec, "fast-retries.yml", access,
                ConsoleSettings.local(0, false, "on-call", 100_000));
    }

    /** 12 messages that timed out calling one host or another, and 3 of another failure. */
    private static void park(Service orders) throws Exception {
        try (Connection connection = broker.connect("park")) {
            Channel channel = connection.createChannel();
            channel.confirmSelect();
            for (int i = 0; i < 12; i++) {
                Parked.publish(channel, orders, "order.created", "timeout-" + i,
                        new IOException("timeout after " + (500 + i) + " ms calling 10.0.0." + i),
                        Instant.now().minusSeconds(600 - i));
            }
            for (int i = 0; i < 3; i++) {
                Parked.publish(channel, orders, "order.created", "locked-" + i,
                        new IllegalStateException("order " + i + " is locked"), Instant.now().minusSeconds(60));
            }
            channel.waitForConfirmsOrDie(Patience.WAIT.toMillis());
        }
    }

    private static WebDriver chromium(Path profile) {
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        // This machine has no network: without these, Chromium tries Google's hosts at every start.
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--no-first-run", "--disable-component-update", "--disable-sync", "--window-size=1280,900",
                "--user-data-dir=" + profile.toAbsolutePath());
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(DRIVER.toFile())
                .usingAnyFreePort().build();
        return new ChromeDriver(service, options);
    }

    @AfterEach
    void stop() throws Exception {
        if (browser != null) {
            browser.quit();
        }
        if (console != null) {
            console.close();
        }
        if (consumer != null) {
            consumer.stop(Duration.ofSeconds(5));
        }
    }

    @Test
    void findsAFailureGroupReplaysItAtALimitedRateAndSeesItConsumedAndGone() throws Exception {
        String origin = console.uri().toString();
        browser.get(origin);
        WebDriverWait wait = new WebDriverWait(browser, Patience.WAIT);
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("[data-testid=service-orders]")));
        wait.until(driver -> (Boolean) script("const img = document.getElementById('topology');"
                + " return img !== null && img.complete && img.naturalWidth > 0;"));
        screenshot("1-overview");

        browser.findElement(By.cssSelector("[data-testid=service-orders] a")).click();
        WebElement timeouts = wait.until(driver -> groupRow("timeout after # ms calling #"));
        assertThat(timeouts.findElement(By.cssSelector("[data-testid=group-count]")).getText()).isEqualTo("12");
        String key = timeouts.getAttribute("data-key");
        screenshot("2-parking-lot-by-failure");

        timeouts.findElement(By.cssSelector("[data-testid=group-link]")).click();
        wait.until(driver -> driver.findElements(By.cssSelector("[data-testid=message-row]")).size() == 12);
        screenshot("3-group");
        browser.findElement(By.cssSelector(
                "[data-testid=message-row][data-id=id-timeout-3] [data-testid=message-link]")).click();
        WebElement body = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("message-body")));
        assertThat(body.getText()).isEqualTo("timeout-3");
        assertThat(browser.findElement(By.cssSelector("[data-testid=failures]")).getText())
                .contains("timeout after 503 ms calling 10.0.0.3");
        assertThat(browser.findElement(By.cssSelector("[data-testid=headers]")).getText()).contains("retry-attempts");
        // Looking at the group delivered it to the console and took it back: the broker counted that.
        WebElement deliveryCount = browser.findElement(By.xpath(
                "//*[@data-testid='headers']//tr[th='" + RetryHeaders.X_DELIVERY_COUNT + "']"));
        assertThat(deliveryCount.findElement(By.cssSelector("[data-testid=header-note]")).getText())
                .isEqualTo("counts the console's own reads too");
        screenshot("4-message");
        script("arguments[0].scrollIntoView({block: 'center'});", deliveryCount);
        screenshot("4-message-its-delivery-count");
        browser.navigate().back();

        WebElement replayGroup = wait.until(ExpectedConditions.elementToBeClickable(By.id("replay-group")));
        replayGroup.click();
        WebElement rate = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("replay-rate")));
        rate.clear();
        rate.sendKeys("20");
        screenshot("5-replay-at-20-a-second");
        WebElement start = browser.findElement(By.id("replay-start"));
        // A double click: the page sends one request, and the console would take a second one for the first.
        new Actions(browser).doubleClick(start).perform();

        wait.until(ExpectedConditions.textToBe(By.cssSelector("[data-testid=job-status]"), "done: replayed 12"));
        assertThat(browser.findElement(By.id("job-detail")).getText()).startsWith("(by on-call");
        assertThat(browser.findElement(By.cssSelector("[data-testid=operator]")).getText()).isEqualTo("on-call");
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("[data-testid=group-empty]")));
        screenshot("6-replayed-and-the-group-empty");
        await().atMost(Patience.WAIT).until(() -> handled.size() >= 12);
        browser.findElement(By.cssSelector("[data-testid=crumbs] a[href='#/services/orders']")).click();
        wait.until(driver -> groupRow("order # is locked") != null);
        assertThat(browser.findElements(By.cssSelector("[data-testid=group-row][data-key='" + key + "']"))).isEmpty();
        assertThat(groupRow("order # is locked").findElement(By.cssSelector("[data-testid=group-count]")).getText())
                .isEqualTo("3");
        screenshot("7-parking-lot-after");

        JsonNode jobs = JSON.readTree(HttpClient.newHttpClient().send(HttpRequest.newBuilder(console.uri()
                .resolve("/api/jobs")).build(), HttpResponse.BodyHandlers.ofString()).body()).path("jobs");
        assertThat(jobs).as("one job for a double click").hasSize(1);
        JsonNode job = jobs.get(0);
        assertThat(Duration.between(Instant.parse(job.path("startedAt").asText()),
                Instant.parse(job.path("finishedAt").asText())))
                .as("12 messages at 20 a second: 11 intervals of 50 ms at least").isGreaterThanOrEqualTo(Duration.ofMillis(550));
        assertThat(job.path("replayed").asInt()).as("sent by the one job").isEqualTo(12);
        assertThat(handled).hasSize(12);
        assertThat(ParkingLot.of(broker.connect("count"), orders).count()).isEqualTo(3);

        @SuppressWarnings("unchecked")
        List<String> loaded = (List<String>) script("return performance.getEntriesByType('resource').map(e => e.name);");
        assertThat(loaded).as("everything the page loaded").isNotEmpty()
                .allSatisfy(resource -> assertThat(resource).startsWith(origin));
        assertThat(browser.manage().logs().get(LogType.BROWSER).getAll()).extracting(LogEntry::getMessage)
                .noneMatch(message -> message.contains("Content Security Policy") || message.contains("Uncaught"));
    }

    @Test
    void showsThePlanAsLoadingWhileItIsReadNotAsAWarning() throws Exception {
        console.close();
        try (HeldPlanProxy proxy = HeldPlanProxy.of(broker.broker().managementUri())) {
            console = startConsole(proxy.uri());
            browser.get(console.uri().toString());
            WebDriverWait wait = new WebDriverWait(browser, Patience.WAIT);
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("[data-testid=service-orders]")));
            WebElement drift = browser.findElement(By.cssSelector("[data-testid=drift]"));
            WebElement state = drift.findElement(By.cssSelector("[data-testid=drift-state]"));

            assertThat(drift.getAttribute("data-state")).isEqualTo("reading");
            assertThat(state.getText()).isEqualTo("reading the plan…");
            assertThat(script("return getComputedStyle(arguments[0]).color;", state))
                    .as("the muted grey of the page's other quiet text, not amber")
                    .isEqualTo(script("return getComputedStyle(document.getElementById('job-detail')).color;"));
            screenshot("0-drift-while-the-plan-is-read");

            proxy.release();
            wait.until(ExpectedConditions.attributeToBe(drift, "data-state", "in-sync"));
            assertThat(state.getText()).isEqualTo("in sync");
            screenshot("0-drift-in-sync");
        }
    }

    @Test
    void throughAnAuthenticatingProxyShowsItsUserAndReplaysInTheirName(@TempDir Path directory) throws Exception {
        NginxProxy.assumeInstalled();
        console.close();
        BrokerAccess access = BrokerAccess.of(List.of(broker.broker().managementUri().toString()),
                List.of(broker.broker().amqpUri(broker.name())), Optional.empty(), Optional.empty());
        console = Console.start(spec, "fast-retries.yml", access, new ConsoleSettings(InetAddress.getLoopbackAddress(),
                0, false, false, OperatorSource.header(NginxProxy.HEADER), 100_000));
        try (NginxProxy proxy = NginxProxy.start(directory, console.uri().getPort(), "alice", "secret")) {
            // The browser logs in, and claims to be someone else besides: the proxy writes over that.
            ChromeDriver chrome = (ChromeDriver) browser;
            chrome.executeCdpCommand("Network.enable", Map.of());
            chrome.executeCdpCommand("Network.setExtraHTTPHeaders", Map.of("headers", Map.of(
                    "Authorization", NginxProxy.basic("alice", "secret"), NginxProxy.HEADER, "mallory")));
            browser.get(proxy.uri().toString());
            WebDriverWait wait = new WebDriverWait(browser, Patience.WAIT);
            wait.until(ExpectedConditions.textToBe(By.cssSelector("[data-testid=operator]"), "alice"));
            browser.findElement(By.cssSelector("[data-testid=service-orders] a")).click();
            WebElement locked = wait.until(driver -> groupRow("order # is locked"));
            locked.findElement(By.cssSelector("[data-testid=group-link]")).click();
            wait.until(ExpectedConditions.elementToBeClickable(By.id("replay-group"))).click();
            WebElement rate = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("replay-rate")));
            rate.clear();
            rate.sendKeys("50");
            browser.findElement(By.id("replay-start")).click();

            wait.until(ExpectedConditions.textToBe(By.cssSelector("[data-testid=job-status]"), "done: replayed 3"));
            screenshot("8-replayed-behind-a-proxy");
            assertThat(browser.findElement(By.id("job-detail")).getText()).startsWith("(by alice");
            assertThat(browser.findElement(By.cssSelector("[data-testid=operator]")).getAttribute("title"))
                    .isEqualTo("replays and purges are recorded as alice, from the proxy's X-Remote-User header");
            await().atMost(Patience.WAIT).until(() -> handled.size() >= 3);
            assertThat(browser.manage().logs().get(LogType.BROWSER).getAll()).extracting(LogEntry::getMessage)
                    .noneMatch(message -> message.contains("Content Security Policy") || message.contains("Uncaught"));
        }
    }

    private WebElement groupRow(String message) {
        return browser.findElements(By.cssSelector("[data-testid=group-row]")).stream()
                .filter(row -> row.getText().contains(message)).findFirst().orElse(null);
    }

    private Object script(String script, Object... arguments) {
        return ((JavascriptExecutor) browser).executeScript(script, arguments);
    }

    private void screenshot(String name) throws IOException {
        File shot = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE);
        Files.copy(shot.toPath(), SCREENSHOTS.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
    }
}
