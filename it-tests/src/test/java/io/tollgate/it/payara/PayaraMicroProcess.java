package io.tollgate.it.payara;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.logging.Logger;

/**
 * A Payara Micro JVM of its own, run by {@link PayaraMicroLauncher}, with the production options and JVM
 * arguments (server-config/payara, as the Arquillian containers use them) and the module flags that
 * payara-micro.jar's manifest asks for ({@code java -jar} applies them; {@code -cp} does not). Its output goes
 * to {@code <name>.log} in the Payara directory. {@link #close()} stops it, and kills it if it does not stop.
 */
public final class PayaraMicroProcess implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(PayaraMicroProcess.class.getName());
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(180);

    private final String name;
    private final Process process;
    private final PrintWriter commands;
    private final BlockingQueue<String> answers = new LinkedBlockingQueue<>();
    private final Path log;

    private PayaraMicroProcess(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
        this.commands = new PrintWriter(new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8), true);
        Thread reader = new Thread(this::readOutput, "payara-micro-" + name + "-output");
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Starts Payara Micro; {@link #awaitReady()} waits until it has booted (and deployed what
     * {@code options} ask for, e.g. {@code --deploy app.war}).
     *
     * @param options Payara Micro options after the production ones (name, port, cluster, deployments)
     */
    public static PayaraMicroProcess start(String name, List<String> options) throws IOException {
        Path dir = Path.of(property("payara.tmpdir"));
        Path microJar = Path.of(property("payara.microJar"));
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "@" + property("payara.jvmArgs"), "-Xmx512m", "-Djava.io.tmpdir=" + dir));
        command.addAll(List.of(property("it.jvm.flags").trim().split("\\s+"))); // the suite's JIT and GC flags, as in arquillian.xml
        command.addAll(moduleFlags(microJar));
        command.addAll(List.of("-cp", microJar + java.io.File.pathSeparator + launcherClasses(dir),
                PayaraMicroLauncher.class.getName()));
        for (String word : OptionFiles.expand("@" + property("payara.options")).split(" ")) {
            command.add(word);
        }
        command.addAll(List.of("--name", name));
        command.addAll(options);
        Path log = dir.resolve(name + ".log");
        LOG.info(() -> "[it] starting Payara Micro " + name + ": " + String.join(" ", command));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        return new PayaraMicroProcess(name, process, log);
    }

    /** Waits until Payara Micro has booted and deployed what its options name. */
    public void awaitReady() {
        await("ready");
    }

    public void deploy(String application, Path war) {
        commands.println("deploy " + application + " " + war.toAbsolutePath());
        await("deployed " + application);
    }

    public void undeploy(String application) {
        commands.println("undeploy " + application);
        await("undeployed " + application);
    }

    public long pid() {
        return process.pid();
    }

    public Path log() {
        return log;
    }

    private void await(String expected) {
        long deadline = System.nanoTime() + COMMAND_TIMEOUT.toNanos();
        try {
            while (System.nanoTime() < deadline) {
                String answer = answers.poll(200, TimeUnit.MILLISECONDS);
                if (answer != null) {
                    if (answer.startsWith(expected)) {
                        return;
                    }
                    throw new AssertionError("Payara Micro " + name + " answered '" + answer + "' instead of '" + expected
                            + "'; its output is in " + log);
                }
                if (!process.isAlive() && answers.isEmpty()) {
                    throw new AssertionError("Payara Micro " + name + " exited with code " + process.exitValue()
                            + " before '" + expected + "'; its output is in " + log);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
        throw new AssertionError("Payara Micro " + name + " did not answer '" + expected + "' within " + COMMAND_TIMEOUT
                + "; its output is in " + log);
    }

    private void readOutput() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
                Writer out = Files.newBufferedWriter(log, StandardCharsets.UTF_8)) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                out.write(line);
                out.write('\n');
                out.flush();
                if (line.startsWith(PayaraMicroLauncher.ANSWER)) {
                    answers.add(line.substring(PayaraMicroLauncher.ANSWER.length()));
                }
            }
        } catch (IOException e) {
            LOG.warning("[it] reading the output of Payara Micro " + name + " failed: " + e);
        }
    }

    /** Stops Payara Micro: asks it to, then SIGTERM after 30 s, then SIGKILL after 10 more. */
    @Override
    public void close() {
        long t0 = System.nanoTime();
        try {
            if (process.isAlive()) {
                commands.println("stop");
            }
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroy();
                if (!process.waitFor(10, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        LOG.info(() -> "[it] Payara Micro " + name + " (pid " + process.pid() + ") stopped in "
                + (System.nanoTime() - t0) / 1_000_000 + " ms");
    }

    /** The {@code Add-Opens} and {@code Add-Exports} of the jar's manifest, as command-line flags. */
    private static List<String> moduleFlags(Path jar) throws IOException {
        List<String> flags = new ArrayList<>();
        try (JarFile file = new JarFile(jar.toFile())) {
            Attributes main = file.getManifest().getMainAttributes();
            for (String[] kind : new String[][] {{"Add-Opens", "--add-opens="}, {"Add-Exports", "--add-exports="}}) {
                String value = main.getValue(kind[0]);
                if (value != null) {
                    for (String modulePackage : value.trim().split("\\s+")) {
                        flags.add(kind[1] + modulePackage + "=ALL-UNNAMED");
                    }
                }
            }
        }
        return flags;
    }

    /** A class path entry with the launcher alone (not the whole test class path). */
    private static Path launcherClasses(Path dir) {
        String file = PayaraMicroLauncher.class.getName().replace('.', '/') + ".class";
        Path root = dir.resolve("launcher");
        try {
            Path target = root.resolve(file);
            Files.createDirectories(target.getParent());
            try (var in = PayaraMicroLauncher.class.getClassLoader().getResourceAsStream(file)) {
                if (in == null) {
                    throw new IllegalStateException("no " + file + " on the class path");
                }
                Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return root;
    }

    private static String property(String name) {
        String value = System.getProperty(name);
        if (value == null) {
            throw new IllegalStateException("system property " + name + " is not set (run the tests through Maven: failsafe sets it)");
        }
        return value;
    }
}
