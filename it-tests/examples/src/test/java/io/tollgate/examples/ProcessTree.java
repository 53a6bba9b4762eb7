package io.tollgate.examples;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A shell command started in a folder, its output in a log file; {@link #close()} stops it and every process it
 * started (Maven's server JVMs included), also when the test JVM is stopped.
 */
final class ProcessTree implements AutoCloseable {

    private final Process process;
    private final Path log;
    private final Thread onExit;

    private ProcessTree(Process process, Path log) {
        this.process = process;
        this.log = log;
        this.onExit = new Thread(this::stop, "stop " + process.pid());
        Runtime.getRuntime().addShutdownHook(onExit);
    }

    static ProcessTree start(String command, Path dir, Path log) throws IOException {
        Process process = new ProcessBuilder("bash", "-c", command)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        return new ProcessTree(process, log);
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** Waits for the command to end; its exit status, or -1 when it outlived {@code limit} (then it is stopped). */
    int waitFor(Duration limit) throws InterruptedException {
        if (process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
            return process.exitValue();
        }
        close();
        return -1;
    }

    /** The last lines of the output, for a failure's message. */
    String tail(int lines) {
        try {
            List<String> all = Files.readAllLines(log);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(no output: " + e + ")";
        }
    }

    @Override
    public void close() {
        stop();
        try {
            Runtime.getRuntime().removeShutdownHook(onExit);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs or has run
        }
    }

    /** SIGTERM to the whole tree (Liberty's Maven plugin and Payara stop cleanly on it), then SIGKILL what is left. */
    private void stop() {
        List<ProcessHandle> tree = new ArrayList<>(process.descendants().toList());
        tree.add(0, process.toHandle());
        tree.forEach(ProcessHandle::destroy);
        for (ProcessHandle handle : tree) {
            try {
                handle.onExit().get(60, TimeUnit.SECONDS);
            } catch (Exception notYet) {
                handle.destroyForcibly();
            }
        }
        for (ProcessHandle handle : tree) {
            try {
                handle.onExit().get(30, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new IllegalStateException("process " + handle.pid() + " did not stop", e);
            }
        }
    }
}
