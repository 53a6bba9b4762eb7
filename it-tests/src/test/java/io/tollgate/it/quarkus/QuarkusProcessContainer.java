package io.tollgate.it.quarkus;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.logging.Logger;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.jboss.arquillian.container.spi.client.container.DeployableContainer;
import org.jboss.arquillian.container.spi.client.container.DeploymentException;
import org.jboss.arquillian.container.spi.client.protocol.ProtocolDescription;
import org.jboss.arquillian.container.spi.client.protocol.metadata.HTTPContext;
import org.jboss.arquillian.container.spi.client.protocol.metadata.ProtocolMetaData;
import org.jboss.shrinkwrap.api.Archive;
import org.jboss.shrinkwrap.api.ArchivePath;
import org.jboss.shrinkwrap.api.Node;

/**
 * Runs a test WAR as a Quarkus application, as a user runs one: {@code java -jar quarkus-run.jar}, one process per
 * deployment. Quarkus builds an application ahead of time, so the WAR's classes are not deployed: the packaged
 * sample application ({@code servers/quarkus-app}) already has them, and a WAR with a class it lacks is refused.
 * What the WAR brings is its configuration: its {@code META-INF/microprofile-config.properties} becomes the
 * process's {@code config/application.properties} (read at start, as Tollgate reads every property). The
 * application answers at the root of its port (Quarkus has no context roots), which is the URL tests get.
 * Undeploying stops the process and waits for it (SIGKILL after 30 s).
 */
public class QuarkusProcessContainer implements DeployableContainer<QuarkusConfiguration> {

    private static final Logger LOG = Logger.getLogger(QuarkusProcessContainer.class.getName());
    private static final String CONFIG = "WEB-INF/classes/META-INF/microprofile-config.properties";
    private static final String CLASSES = "/WEB-INF/classes/";

    private QuarkusConfiguration configuration;
    private Set<String> applicationClasses;
    private Process process;

    @Override
    public Class<QuarkusConfiguration> getConfigurationClass() {
        return QuarkusConfiguration.class;
    }

    @Override
    public void setup(QuarkusConfiguration configuration) {
        this.configuration = configuration;
    }

    @Override
    public ProtocolDescription getDefaultProtocol() {
        return new ProtocolDescription("Local");
    }

    @Override
    public ProtocolMetaData deploy(Archive<?> archive) throws DeploymentException {
        checkClasses(archive);
        Path dir = Path.of(configuration.getWorkDir());
        Path log = dir.resolve("quarkus.log");
        try {
            Files.createDirectories(dir.resolve("config"));
            Node config = archive.get(CONFIG);
            String properties = config == null ? "" : read(config);
            Files.writeString(dir.resolve("config/application.properties"), properties);
            Files.deleteIfExists(log);
        } catch (IOException e) {
            throw new DeploymentException("cannot prepare " + dir, e);
        }
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(words(configuration.getJavaOptions()));
        command.add("-Dquarkus.http.host=127.0.0.1");
        command.add("-Dquarkus.http.port=" + configuration.getHttpPort());
        command.addAll(words(configuration.getSystemProperties()));
        command.add("-jar");
        command.add(configuration.getRunJar());
        long t0 = System.nanoTime();
        try {
            process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).start();
        } catch (IOException e) {
            throw new DeploymentException("cannot start " + command, e);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(configuration.getStartupTimeoutInSeconds());
        while (!listening(log)) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                String reason = process.isAlive() ? "did not start within " + configuration.getStartupTimeoutInSeconds() + " s"
                        : "exited with code " + process.exitValue();
                stopProcess();
                throw new DeploymentException("Quarkus " + reason + " while starting " + archive.getName() + ":\n"
                        + failure(log));
            }
            sleep(100);
        }
        LOG.info(() -> "[it] Quarkus start of " + archive.getName() + " took " + (System.nanoTime() - t0) / 1_000_000 + " ms");
        ProtocolMetaData metaData = new ProtocolMetaData();
        metaData.addContext(new HTTPContext("127.0.0.1", configuration.getHttpPort()));
        return metaData;
    }

    @Override
    public void undeploy(Archive<?> archive) {
        stopProcess();
    }

    @Override
    public void stop() {
        stopProcess();
    }

    /** Refuses a WAR with a class the packaged application does not have: Quarkus cannot add one at run time. */
    private void checkClasses(Archive<?> archive) throws DeploymentException {
        Set<String> missing = archive.getContent().keySet().stream().map(ArchivePath::get)
                .filter(path -> path.startsWith(CLASSES) && path.endsWith(".class"))
                .map(path -> path.substring(CLASSES.length(), path.length() - ".class".length()).replace('/', '.'))
                .filter(name -> !applicationClasses().contains(name)).collect(Collectors.toCollection(HashSet::new));
        if (!missing.isEmpty()) {
            throw new DeploymentException(archive.getName() + " has classes the Quarkus application was not built with: "
                    + missing);
        }
    }

    private Set<String> applicationClasses() {
        if (applicationClasses == null) {
            Set<String> names = new HashSet<>();
            try (Stream<Path> jars = Files.list(Path.of(configuration.getRunJar()).resolveSibling("app"))) {
                for (Path jar : jars.filter(p -> p.toString().endsWith(".jar")).toList()) {
                    try (JarFile file = new JarFile(jar.toFile())) {
                        file.stream().map(e -> e.getName()).filter(n -> n.endsWith(".class"))
                                .forEach(n -> names.add(n.substring(0, n.length() - ".class".length()).replace('/', '.')));
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            applicationClasses = names;
        }
        return applicationClasses;
    }

    /** @return whether the application has said it listens and its port accepts a connection */
    private boolean listening(Path log) {
        if (!read(log).contains("Listening on:")) {
            return false;
        }
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", configuration.getHttpPort()), 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** @return the log without stack frames: the messages of the failure and its causes */
    private static String failure(Path log) {
        return read(log).lines().filter(line -> !line.stripLeading().startsWith("at ") && !line.contains("... "))
                .collect(Collectors.joining("\n"));
    }

    private void stopProcess() {
        Process running = process;
        process = null;
        if (running == null || !running.isAlive()) {
            return;
        }
        running.destroy();
        try {
            if (!running.waitFor(30, TimeUnit.SECONDS)) {
                LOG.warning("[it] Quarkus pid " + running.pid() + " did not stop within 30 s: killed");
                running.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            running.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private static List<String> words(String text) {
        return text == null || text.isBlank() ? List.of() : List.of(text.trim().split("\\s+"));
    }

    private static String read(Node node) throws IOException {
        try (InputStream in = node.getAsset().openStream()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file) : "";
        } catch (IOException e) {
            return "";
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while Quarkus starts", e);
        }
    }
}
