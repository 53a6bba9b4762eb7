package io.tollgate.it;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * The log of the server that runs node-a, read from a mark on: Open Liberty's {@code logs/messages.log} and
 * its FFDC incidents ({@code logs/ffdc/}); Payara Micro's log file ({@code --logtofile}, set in
 * arquillian.xml; Payara writes it as {@code <file>.0}); WildFly's {@code log/server.log} in node-a's base
 * directory.
 */
final class ServerLog {

    private final Path log;
    private final Path ffdc;
    private final long start;
    private final long incidents;

    private ServerLog(Path log, Path ffdc) {
        this.log = log;
        this.ffdc = ffdc;
        this.start = size(log);
        this.incidents = incidents();
    }

    /** @return node-a's log, marked where it ends now */
    static ServerLog ofNodeA() {
        if (Deployments.isLiberty()) {
            Path logs = Path.of(System.getProperty("liberty.wlp"), "usr", "servers", "node-a", "logs");
            return new ServerLog(logs.resolve("messages.log"), logs.resolve("ffdc"));
        }
        if (Deployments.isWildfly()) {
            return new ServerLog(Path.of(System.getProperty("wildfly.dir"), "node-a", "log", "server.log"), null);
        }
        return new ServerLog(Path.of(System.getProperty("payara.log.a") + ".0"), null);
    }

    /** @return what was logged since the mark */
    String sinceMark() {
        try (RandomAccessFile file = new RandomAccessFile(log.toFile(), "r")) {
            long end = file.length();
            if (end < start) {
                throw new AssertionError(log + " shrank from " + start + " to " + end + " bytes (rotated?)");
            }
            byte[] bytes = new byte[(int) (end - start)];
            file.seek(start);
            file.readFully(bytes);
            return new String(bytes, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Waits (at most 30 s) until {@code text}, written by the application after everything of interest, is in
     * the log: what was logged before it is there too.
     *
     * @return what was logged since the mark
     */
    String awaitSinceMark(String text, Supplier<?> writeIt) throws InterruptedException {
        writeIt.get();
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (true) {
            String since = sinceMark();
            if (since.contains(text)) {
                return since;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("'" + text + "' did not reach " + log + " within 30 s; since the mark:\n" + since);
            }
            Thread.sleep(200);
        }
    }

    /** @return FFDC incidents written since the mark (Open Liberty; Payara and WildFly have none) */
    long newIncidents() {
        return incidents() - incidents;
    }

    private long incidents() {
        if (ffdc == null || !Files.isDirectory(ffdc)) {
            return 0;
        }
        try (Stream<Path> files = Files.list(ffdc)) {
            return files.filter(f -> f.getFileName().toString().startsWith("ffdc_")).count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long size(Path file) {
        try {
            return Files.exists(file) ? Files.size(file) : 0;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String toString() {
        return log.toString();
    }
}
