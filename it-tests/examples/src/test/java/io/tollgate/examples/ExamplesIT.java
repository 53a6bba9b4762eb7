package io.tollgate.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.tollgate.readme.HttpExample;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Each example, copied out of the repository as a user would copy it and run as its README says: the build, then the
 * server; once the unlimited resource answers, requests to the limited one get 200 until its rule's burst is spent,
 * then the 429 the README shows, with {@code Retry-After} and the rate-limit headers.
 */
class ExamplesIT {

    private static final Path EXAMPLES = Path.of(System.getProperty("examples.dir"));
    private static final Path WORK = Path.of(System.getProperty("examples.work"));
    private static final Duration BUILD_LIMIT = Duration.ofMinutes(10);
    private static final Duration START_LIMIT = Duration.ofMinutes(5);
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @ParameterizedTest
    @ValueSource(strings = {"open-liberty", "payara-micro", "quarkus"})
    void runAsItsReadmeSaysItAnswers429OnceTheBurstIsSpent(String example) throws Exception {
        Path dir = copyOf(example);
        ExampleReadme readme = ExampleReadme.of(dir.resolve("README.md"));
        long burst = burstOf(dir);
        URI unlimited = URI.create(readme.unlimitedUrl());
        URI limited = URI.create(readme.limitedUrl());
        assertPortFree(limited);

        int step = 0;
        for (String command : readme.buildCommands()) {
            try (ProcessTree build = ProcessTree.start(withBuildOptions(command), dir, dir.resolve("build-" + ++step + ".log"))) {
                assertThat(build.waitFor(BUILD_LIMIT))
                        .as("'%s' in %s ends with status 0; its output ends:%n%s", command, example, build.tail(40))
                        .isZero();
            }
        }
        try (ProcessTree server = ProcessTree.start(withBuildOptions(readme.serverCommand()), dir, dir.resolve("server.log"))) {
            awaitAnswer(server, unlimited);

            List<HttpResponse<String>> responses = new ArrayList<>();
            for (int i = 0; i < burst + 5 && (responses.isEmpty() || last(responses).statusCode() == 200); i++) {
                responses.add(get(limited));
            }
            List<Integer> statuses = responses.stream().map(HttpResponse::statusCode).toList();
            long allowed = statuses.stream().takeWhile(status -> status == 200).count();
            assertThat(allowed).as("%s: the 200s before the first 429 of GET %s (statuses %s)", example, limited, statuses)
                    .isEqualTo(burst);
            assertThat(last(responses).statusCode()).as("%s: the status after the burst (statuses %s)", example, statuses)
                    .isEqualTo(429);
            assertLikeTheReadme(example, readme.denial(), last(responses));
        }
    }

    /**
     * The 429 is the README's: the same status, every header it shows (Content-Type and RateLimit-Policy with its
     * value; RateLimit with the same rule and tokens left, its {@code t} a time), a positive Retry-After, and a body
     * with the same members and values but the two that are times ({@code detail} says one; {@code retryAfter} is
     * the header's).
     */
    private static void assertLikeTheReadme(String example, HttpExample shown, HttpResponse<String> denied) {
        assertThat(denied.statusCode()).as("%s: the status after the burst", example).isEqualTo(shown.status());
        shown.headers().forEach((name, value) -> {
            String actual = denied.headers().firstValue(name).orElse(null);
            assertThat(actual).as("%s: the 429's %s (README: %s)", example, name, value).isNotNull();
            switch (name.toLowerCase(Locale.ROOT)) {
                case "retry-after" -> assertThat(Long.parseLong(actual)).as("%s: Retry-After", example).isPositive();
                case "ratelimit" -> assertThat(actual.replaceAll(";t=\\d+", ""))
                        .as("%s: RateLimit but its t", example).isEqualTo(value.replaceAll(";t=\\d+", ""));
                default -> assertThat(actual).as("%s: the 429's %s", example, name).isEqualTo(value);
            }
        });
        JsonObject body = json(denied.body());
        JsonObject shownBody = json(shown.body());
        assertThat(body.keySet()).as("%s: the members of the 429's body %s", example, body).isEqualTo(shownBody.keySet());
        shownBody.forEach((member, value) -> {
            if (!member.equals("detail") && !member.equals("retryAfter")) {
                assertThat(body.get(member)).as("%s: the body's %s", example, member).isEqualTo(value);
            }
        });
        assertThat(body.getJsonNumber("retryAfter").longValue()).as("%s: the body's retryAfter", example)
                .isEqualTo(Long.parseLong(denied.headers().firstValue("Retry-After").orElseThrow()));
    }

    private static JsonObject json(String text) {
        try (JsonReader reader = Json.createReader(new StringReader(text))) {
            return reader.readObject();
        }
    }

    /** The example as a user has it: a copy outside the repository's build (no target/ of an earlier run). */
    private static Path copyOf(String example) throws IOException {
        Path source = EXAMPLES.resolve(example);
        Path copy = WORK.resolve(example);
        deleteRecursively(copy);
        try (Stream<Path> files = Files.walk(source)) {
            for (Path file : files.filter(f -> !source.relativize(f).startsWith("target")).toList()) {
                Path target = copy.resolve(source.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(file, target, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
        return copy;
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted((a, b) -> b.compareTo(a)).forEach(f -> {
                    try {
                        Files.delete(f);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
            }
        }
    }

    /** The burst of the example's one rule, from its microprofile-config.properties (Quarkus: application.properties). */
    private static long burstOf(Path dir) throws IOException {
        Properties config = new Properties();
        Path file = dir.resolve("src/main/resources/META-INF/microprofile-config.properties");
        if (!Files.exists(file)) {
            file = dir.resolve("src/main/resources/application.properties");
        }
        try (InputStream in = Files.newInputStream(file)) {
            config.load(in);
        }
        List<String> bursts = config.stringPropertyNames().stream().filter(name -> name.endsWith(".burst")).toList();
        assertThat(bursts).as("the example's rules with a burst").hasSize(1);
        return Long.parseLong(config.getProperty(bursts.get(0)).strip());
    }

    /**
     * A Maven wrapper command of the README, built against the Tollgate being built, from the same local repository,
     * in batch mode, with {@code examples.maven.args}. Other commands as they are.
     */
    private static String withBuildOptions(String command) {
        if (!command.startsWith("./mvnw ")) {
            return command;
        }
        StringBuilder options = new StringBuilder(" -B -ntp -Dtollgate.version=").append(System.getProperty("tollgate.version"));
        String repository = System.getProperty("maven.repo.local", "");
        if (!repository.isBlank()) {
            options.append(" -Dmaven.repo.local=").append(repository);
        }
        String more = System.getProperty("examples.maven.args", "");
        if (!more.isBlank()) {
            options.append(' ').append(more.strip());
        }
        return command + options;
    }

    private static void assertPortFree(URI uri) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(uri.getHost(), uri.getPort()), 2000);
            fail("%s:%d is taken by another process; the example needs it: stop that process first",
                    uri.getHost(), uri.getPort());
        } catch (IOException free) {
            // nothing listens there
        }
    }

    /** Polls the unlimited resource until it answers 200 (the application is deployed), while the server runs. */
    private static void awaitAnswer(ProcessTree server, URI unlimited) throws InterruptedException {
        Instant deadline = Instant.now().plus(START_LIMIT);
        while (true) {
            if (!server.isAlive()) {
                fail("the server ended before %s answered; its output ends:%n%s", unlimited, server.tail(60));
            }
            try {
                if (get(unlimited).statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening or not answering yet
            }
            if (Instant.now().isAfter(deadline)) {
                fail("%s did not answer 200 within %s; the server's output ends:%n%s", unlimited, START_LIMIT, server.tail(60));
            }
            Thread.sleep(500);
        }
    }

    private static HttpResponse<String> get(URI uri) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static <T> T last(List<T> list) {
        return list.get(list.size() - 1);
    }
}
