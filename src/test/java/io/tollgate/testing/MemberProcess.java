package io.tollgate.testing;

import com.hazelcast.config.Config;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A Hazelcast member running {@link MemberMain} in a JVM of its own, on the test's class path. The
 * test can kill it ({@code kill -9}), freeze and thaw it ({@code SIGSTOP}/{@code SIGCONT}) or shut
 * it down gracefully, or {@linkplain #ask ask} it {@link MemberCommands}; {@link #close()} makes sure
 * it is gone. Its output goes to {@code target/member-logs/}.
 */
public final class MemberProcess implements AutoCloseable {

    private static final Path LOGS = Path.of("target", "member-logs");

    private final Process process;
    private final String name;
    private final CompletableFuture<UUID> ready = new CompletableFuture<>();
    private final BlockingQueue<String> replies = new LinkedBlockingQueue<>();

    private MemberProcess(Process process, String name) {
        this.process = process;
        this.name = name;
    }

    /** Member failure detection for fault tests: heartbeats every second, a silent member is removed after 8 s. */
    public static void tuneFailureDetection(Config config) {
        config.setProperty("hazelcast.heartbeat.interval.seconds", "1");
        config.setProperty("hazelcast.max.no.heartbeat.seconds", "8");
    }

    /** Starts member {@code index} of {@code cluster} on {@code port}; {@link #awaitReady()} waits until it has joined. */
    public static MemberProcess start(String cluster, int index, int port, List<String> addresses) throws IOException {
        return start(cluster, index, port, addresses, List.of());
    }

    /** The same, with more options for the member's JVM (such as {@code -D} system properties). */
    public static MemberProcess start(String cluster, int index, int port, List<String> addresses, List<String> jvmOptions)
            throws IOException {
        Files.createDirectories(LOGS);
        String name = cluster + "-jvm-" + index;
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx256m");
        command.add("-XX:+UseSerialGC");
        command.add("-XX:TieredStopAtLevel=1");
        for (String argument : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (argument.startsWith("--add-") || argument.equals("java.se") || argument.startsWith("-Djava.util.logging")) {
                command.add(argument);
            }
        }
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")));
        command.add(MemberMain.class.getName());
        command.add(cluster);
        command.add(String.valueOf(index));
        command.add(String.valueOf(port));
        command.add(String.join(",", addresses));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        MemberProcess member = new MemberProcess(process, name);
        Thread pump = new Thread(member::pumpOutput, name + "-output");
        pump.setDaemon(true);
        pump.start();
        return member;
    }

    private void pumpOutput() {
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
                PrintWriter log = new PrintWriter(Files.newBufferedWriter(LOGS.resolve(name + ".log")), true)) {
            String line;
            while ((line = out.readLine()) != null) {
                log.println(line);
                if (line.startsWith(MemberCommands.REPLY)) {
                    replies.add(line.substring(MemberCommands.REPLY.length()).trim());
                } else if (line.startsWith(MemberMain.READY)) {
                    ready.complete(UUID.fromString(line.substring(MemberMain.READY.length()).trim()));
                }
            }
        } catch (IOException e) {
            ready.completeExceptionally(e);
        } finally {
            ready.completeExceptionally(new IllegalStateException(name + " exited before it joined; see " + LOGS.resolve(name + ".log")));
        }
    }

    /** @return the member's UUID, once it has joined (waits at most 120 s) */
    public UUID awaitReady() throws Exception {
        return ready.get(120, TimeUnit.SECONDS);
    }

    /** @return the member's UUID (it has joined) */
    public UUID uuid() {
        return ready.join();
    }

    /**
     * Sends one of the {@link MemberCommands} and waits (at most 90 s) for its reply.
     *
     * @throws IllegalStateException if the member replies with an error or not at all
     */
    public synchronized String ask(String command) throws Exception {
        replies.clear();
        OutputStream in = process.getOutputStream();
        in.write((command + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
        String reply = replies.poll(90, TimeUnit.SECONDS);
        if (reply == null || reply.startsWith("error")) {
            throw new IllegalStateException(name + " answered '" + command + "' with " + (reply == null ? "nothing within 90 s" : reply));
        }
        return reply;
    }

    /** {@code kill -9}: the JVM dies at once, without a word to the cluster. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(60, TimeUnit.SECONDS);
    }

    /**
     * Freezes the JVM ({@code SIGSTOP}): its connections stay open, it answers nothing. Returns once
     * every thread of it has stopped (the signal is delivered asynchronously).
     */
    public void freeze() throws Exception {
        signal("STOP");
        awaitThreads(true);
    }

    /** Thaws a frozen JVM ({@code SIGCONT}); returns once no thread of it is stopped. */
    public void thaw() throws Exception {
        signal("CONT");
        awaitThreads(false);
    }

    private void signal(String signal) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + signal, String.valueOf(process.pid())).inheritIO().start();
        if (!kill.waitFor(30, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new IllegalStateException("kill -" + signal + " " + process.pid() + " failed");
        }
    }

    /** Waits, for at most 30 s, until every thread of the JVM is stopped, or none is (Linux: {@code /proc}). */
    private void awaitThreads(boolean stopped) throws Exception {
        Path tasks = Path.of("/proc", Long.toString(process.pid()), "task");
        if (!Files.isDirectory(tasks)) {
            return; // not Linux: the signal's delivery is not observable here
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!Boolean.valueOf(stopped).equals(threadsStopped(tasks))) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(name + "'s threads are " + (stopped ? "not all stopped" : "still stopped") + " after 30 s");
            }
            TimeUnit.MILLISECONDS.sleep(1);
        }
    }

    /** @return whether every thread is stopped ({@code true}), or none is ({@code false}); mixed counts as neither */
    private static Boolean threadsStopped(Path tasks) throws IOException {
        int stopped = 0;
        int running = 0;
        try (var threads = Files.list(tasks)) {
            for (Path thread : (Iterable<Path>) threads::iterator) {
                String stat;
                try {
                    stat = Files.readString(thread.resolve("stat"));
                } catch (IOException e) {
                    continue; // the thread ended meanwhile
                }
                char state = stat.charAt(stat.lastIndexOf(')') + 2);
                if (state == 'Z' || state == 'X') {
                    continue; // ending
                }
                if (state == 'T' || state == 't') {
                    stopped++;
                } else {
                    running++;
                }
            }
        }
        return stopped > 0 && running == 0 ? Boolean.TRUE : running > 0 && stopped == 0 ? Boolean.FALSE : null;
    }

    /** Leaves the cluster gracefully (its partitions migrate first) and waits for the JVM to exit. */
    public void shutdown() throws Exception {
        OutputStream in = process.getOutputStream();
        in.write((MemberMain.SHUTDOWN + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
        if (!process.waitFor(90, TimeUnit.SECONDS)) {
            throw new IllegalStateException(name + " did not shut down within 90 s");
        }
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroyForcibly(); // SIGKILL ends a frozen JVM too
            process.waitFor(60, TimeUnit.SECONDS);
        }
    }
}
