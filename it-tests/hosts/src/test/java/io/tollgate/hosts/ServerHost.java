package io.tollgate.hosts;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * A server process running inside one host ({@link LibertyHost}, {@link PayaraHost}), with one application (a WAR,
 * whose name is its context root), serving HTTP on the host's address. Its files are in {@code <host
 * folder>/<kind>}; its standard output and error in {@code console.log} there. The {@link Hosts} it runs on ends it
 * on close, if the test has not.
 */
public abstract class ServerHost {

    /** How long after its start a server's application may take: {@code -Dhosts.start.timeout.seconds}, 180 unless set. */
    public static final Duration START_TIMEOUT = Duration.ofSeconds(Long.getLong("hosts.start.timeout.seconds", 180));
    /** How long {@link #stop()} waits after SIGTERM before it kills. */
    public static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);
    private static final int LOG_TAIL_LINES = 40;
    private static final int RECORD_LINES = 12;

    private final Hosts hosts;
    private final int host;
    private final String kind;
    private final String application;
    private final int httpPort;
    private final Path dir;
    private Process process;
    private long startNanos;
    private long consoleStart;

    ServerHost(Builder<?, ?> builder, String kind) {
        if (builder.war == null) {
            throw new IllegalStateException("no application: call war(...) before start()");
        }
        this.hosts = builder.hosts;
        this.host = builder.host;
        this.kind = kind;
        this.application = builder.war.getName().replaceFirst("\\.war$", "");
        this.httpPort = builder.httpPort;
        this.dir = hosts.dir(host).resolve(kind);
        if (Files.exists(dir)) {
            throw new IllegalStateException(this + " exists already (" + dir + "): one per host; to restart it, stop()"
                    + " or kill() it and start() it again");
        }
        try {
            Files.createDirectories(dir);
            Files.createDirectories(home());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    // ---- what each server does ----

    /** The command that runs the server in the foreground (inside the host's namespace). */
    abstract List<String> command();

    /** Variables added to the server's environment. */
    Map<String, String> environment() {
        return Map.of();
    }

    /** Called before each start: e.g. moves the previous log aside, so that only this start's lines are read. */
    abstract void beforeStart() throws IOException;

    /** @return how the start ended, if the log tells already; else null */
    abstract Startup startup(Duration took) throws IOException;

    /** @return the server's log file, where {@link #awaitStarted()} reads */
    public abstract Path log();

    // ---- life cycle ----

    /**
     * Starts the server's process inside its host: called by the builder, and again to restart the server after
     * {@link #stop()} or {@link #kill()}. {@link #awaitStarted()} waits for the start to end.
     */
    public synchronized void start() {
        if (isRunning()) {
            throw new IllegalStateException(this + " runs already");
        }
        try {
            beforeStart();
            Path console = console();
            consoleStart = Files.exists(console) ? Files.size(console) : 0;
            ProcessBuilder command = hosts.exec(host, command().toArray(String[]::new))
                    .directory(dir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(console.toFile()))
                    .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
            command.environment().put("JAVA_HOME", System.getProperty("java.home"));
            command.environment().putAll(environment());
            startNanos = System.nanoTime();
            process = hosts.start(command);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + this, e);
        }
    }

    /** {@link #awaitStarted(Duration)} for at most {@link #START_TIMEOUT}. */
    public Startup awaitStarted() {
        return awaitStarted(START_TIMEOUT);
    }

    /**
     * Waits until the application started (and the server is ready) or its deployment failed, reading the server's
     * log; prints the time it took.
     *
     * @param timeout counted from the server's {@link #start()}, not from this call (servers started together and
     *        awaited one after the other each get the same bound)
     * @return which of the two, with the server's message
     * @throws AssertionError if the process ends first, or neither happens within {@code timeout} of the start (with
     *         the last lines of the log)
     */
    public Startup awaitStarted(Duration timeout) {
        long deadline;
        synchronized (this) {
            if (process == null) {
                throw new IllegalStateException(this + " was never started");
            }
            deadline = startNanos + timeout.toNanos();
        }
        try {
            while (true) {
                Duration took = Duration.ofNanos(System.nanoTime() - startNanos);
                Startup startup = startup(took);
                if (startup != null) {
                    System.out.println("[it] " + this + ": application " + application
                            + (startup.started() ? " started" : " FAILED to start") + " " + took.toMillis() + " ms after"
                            + " the server's start" + (startup.started() ? "" : ": " + startup.detail()));
                    return startup;
                }
                if (!process.isAlive()) {
                    throw new AssertionError(this + " exited with code " + process.exitValue()
                            + " before its application started; " + tails());
                }
                if (System.nanoTime() > deadline) {
                    throw new AssertionError(this + ": its application neither started nor failed within "
                            + timeout.toSeconds() + " s of the server's start; " + tails());
                }
                Thread.sleep(250);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the log of " + this, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** Stops the server as an operator would (SIGTERM); kills it (with descendants) after {@link #STOP_TIMEOUT}. */
    public synchronized void stop() {
        if (process == null) {
            return;
        }
        long t0 = System.nanoTime();
        boolean graceful = ProcessTrees.terminate(process.toHandle(), STOP_TIMEOUT);
        System.out.println("[it] " + this + (graceful ? " stopped in " : " did not stop, killed after ")
                + (System.nanoTime() - t0) / 1_000_000 + " ms");
    }

    /** Kills the server at once (SIGKILL, with descendants): a crash. */
    public synchronized void kill() {
        if (process != null) {
            ProcessTrees.kill(process.toHandle());
        }
    }

    public synchronized boolean isRunning() {
        return process != null && process.isAlive();
    }

    /** @return the process id of the server's JVM (or of what runs it) */
    public synchronized long pid() {
        if (process == null) {
            throw new IllegalStateException(this + " was never started");
        }
        return process.pid();
    }

    // ---- where ----

    /** @return the host's number */
    public int host() {
        return host;
    }

    /** @return the host's address, where the server listens */
    public String address() {
        return hosts.address(host);
    }

    public int httpPort() {
        return httpPort;
    }

    /** @return the application's name, also its context root */
    public String application() {
        return application;
    }

    /** @return {@code http://<address>:<port>/<application>/} */
    public URI base() {
        return URI.create("http://" + address() + ":" + httpPort + "/" + application + "/");
    }

    /** @return this server's folder ({@code <host folder>/<kind>}) */
    public Path dir() {
        return dir;
    }

    /** @return the host's home folder ({@code user.home} of its JVMs; Tollgate keeps {@code .tollgate} there) */
    public Path home() {
        return hosts.dir(host).resolve("home");
    }

    /** @return the process's standard output and error, every start appended */
    public Path console() {
        return dir.resolve("console.log");
    }

    // ---- HTTP from the test JVM ----

    /** {@code GET <base>/<path>}, e.g. {@code get("api/search?q=tea", "X-Api-Key", key)}. */
    public Reply get(String path, String... headers) {
        return HostHttp.get(base(), path, headers);
    }

    public Reply post(String path, String body, String... headers) {
        return HostHttp.post(base(), path, body, headers);
    }

    public Reply put(String path, String body, String... headers) {
        return HostHttp.put(base(), path, body, headers);
    }

    public Reply delete(String path, String... headers) {
        return HostHttp.delete(base(), path, headers);
    }

    @Override
    public String toString() {
        return kind + " on host " + host + " (" + address() + ")";
    }

    // ---- for subclasses ----

    Hosts hosts() {
        return hosts;
    }

    /** @return the log's text after {@code from} bytes (empty if it does not exist yet) */
    static String read(Path file, long from) throws IOException {
        if (!Files.exists(file)) {
            return "";
        }
        byte[] bytes = Files.readAllBytes(file);
        int start = (int) Math.min(from, bytes.length);
        return new String(bytes, start, bytes.length - start, StandardCharsets.UTF_8);
    }

    /**
     * @return the text from {@code at} to the end of its line, with the lines after it up to the next log record (a
     *         line starting with "[") or stack frame, at most {@value #RECORD_LINES} lines, without terminal colours
     */
    static String record(String text, int at) {
        List<String> lines = new ArrayList<>();
        for (String line : (Iterable<String>) text.substring(at).lines()::iterator) {
            if (lines.size() == RECORD_LINES || (!lines.isEmpty() && (line.startsWith("[") || line.matches("\\s+at .*")))) {
                break;
            }
            lines.add(line);
        }
        return String.join("\n", lines).replaceAll("\u001B\\[[0-9;]*m", "").strip();
    }

    /** @return the console's text of this start */
    String consoleSinceStart() throws IOException {
        return read(console(), consoleStart);
    }

    /** The last lines of the log and of the console, for failure messages. */
    String tails() {
        try {
            return "the last lines of " + log() + ":\n" + tail(read(log(), 0)) + "\nand of " + console() + ":\n"
                    + tail(consoleSinceStart());
        } catch (IOException e) {
            return "(the logs cannot be read: " + e + ")";
        }
    }

    private static String tail(String text) {
        List<String> lines = text.lines().toList();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size()));
    }

    /** Writes properties readable by the owner only (they may hold a cluster name, the cluster's secret). */
    static void writePrivateProperties(Path file, Map<String, String> values, String comment) throws IOException {
        Properties properties = new Properties();
        properties.putAll(values);
        Files.deleteIfExists(file);
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        try (var out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            properties.store(out, comment);
        }
    }

    /** Moves a log aside, keeping it for a reader: {@code messages.log} to {@code messages-1.log}, then -2, .... */
    static void moveAside(Path file) throws IOException {
        if (!Files.exists(file)) {
            return;
        }
        String name = file.getFileName().toString();
        int dot = name.indexOf('.', 1);
        String stem = dot < 0 ? name : name.substring(0, dot);
        String extensions = dot < 0 ? "" : name.substring(dot);
        for (int k = 1;; k++) {
            Path aside = file.resolveSibling(stem + "-" + k + extensions);
            if (!Files.exists(aside)) {
                Files.move(file, aside);
                return;
            }
        }
    }

    static void exportWar(WebArchive war, Path file) throws IOException {
        Files.createDirectories(file.getParent());
        war.as(ZipExporter.class).exportTo(file.toFile(), true);
    }

    /**
     * What every server's builder takes: the host, the application (a WAR), its HTTP port, Tollgate's settings as
     * MicroProfile Config properties, and JVM options added to the production ones.
     */
    public abstract static class Builder<B extends Builder<B, S>, S extends ServerHost> {

        final Hosts hosts;
        final int host;
        WebArchive war;
        int httpPort;
        final Map<String, String> config = new LinkedHashMap<>();
        final List<String> jvmOptions = new ArrayList<>();

        Builder(Hosts hosts, int host, int defaultHttpPort) {
            hosts.address(host); // checks the number
            this.hosts = hosts;
            this.host = host;
            this.httpPort = defaultHttpPort;
        }

        /** The application (e.g. {@link SampleWar}); its name without {@code .war} is its context root. */
        public B war(WebArchive war) {
            this.war = war;
            return self();
        }

        public B httpPort(int port) {
            this.httpPort = port;
            return self();
        }

        /**
         * A MicroProfile Config property of this server (e.g. {@code tollgate.hazelcast.interface}); it overrides
         * the WAR's {@code microprofile-config.properties}.
         */
        public B config(String name, String value) {
            config.put(name, value);
            return self();
        }

        public B config(Map<String, String> properties) {
            config.putAll(properties);
            return self();
        }

        /** A JVM option added after the production ones and the rig's (e.g. {@code -Dhazelcast.max.no.heartbeat.seconds=10}). */
        public B jvmOption(String option) {
            jvmOptions.add(option);
            return self();
        }

        /** Writes the server's files and starts it; {@link ServerHost#awaitStarted()} waits for its application. */
        public abstract S start();

        @SuppressWarnings("unchecked")
        private B self() {
            return (B) this;
        }
    }
}
