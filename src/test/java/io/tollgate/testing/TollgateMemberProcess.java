package io.tollgate.testing;

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
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * A member JVM running {@link TollgateMemberMain}, on the current Tollgate classes or on an older
 * Tollgate jar (everything else from the test's class path). The test sends it decisions and reads
 * their results; it can kill it ({@code kill -9}) or shut it down gracefully; {@link #close()} makes
 * sure it is gone. Its output goes to {@code target/member-logs/}.
 */
public final class TollgateMemberProcess implements AutoCloseable {

    private static final Path LOGS = Path.of("target", "member-logs");

    private final Process process;
    private final String name;
    private final CompletableFuture<UUID> ready = new CompletableFuture<>();
    private final Map<String, CompletableFuture<String>> answers = new ConcurrentHashMap<>();
    private int next;

    private TollgateMemberProcess(Process process, String name) {
        this.process = process;
        this.name = name;
    }

    /**
     * Starts member {@code index} of {@code cluster} on {@code port}.
     *
     * @param tollgate an older Tollgate jar to run instead of the current classes, or {@code null}
     * @param joinNow  whether it joins at once, or waits for {@link #join()}
     * @param zone     its partition group, see {@link TollgateMemberMain#config}
     */
    public static TollgateMemberProcess start(String cluster, int index, int port, List<String> addresses, Path tollgate,
            boolean joinNow, String zone) throws IOException {
        Files.createDirectories(LOGS);
        String name = cluster + "-jvm-" + index + (tollgate == null ? "" : "-" + tollgate.getFileName());
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx192m");
        command.add("-XX:+UseSerialGC");
        command.add("-XX:TieredStopAtLevel=1");
        for (String argument : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (argument.startsWith("--add-") || argument.equals("java.se") || argument.startsWith("-Djava.util.logging")) {
                command.add(argument);
            }
        }
        command.add("-cp");
        command.add(classPath(tollgate));
        command.add(TollgateMemberMain.class.getName());
        command.add(cluster);
        command.add(String.valueOf(index));
        command.add(String.valueOf(port));
        command.add(String.join(",", addresses));
        command.add(joinNow ? "now" : "later");
        command.add(zone);
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        TollgateMemberProcess member = new TollgateMemberProcess(process, name);
        Thread pump = new Thread(member::pumpOutput, name + "-output");
        pump.setDaemon(true);
        pump.start();
        return member;
    }

    /** The test's class path, with {@code tollgate} in place of the current Tollgate classes if given. */
    private static String classPath(Path tollgate) {
        List<String> entries = new ArrayList<>(Arrays.asList(
                System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")).split(java.io.File.pathSeparator)));
        if (tollgate != null) {
            Path current = IsolatedTollgate.location(io.tollgate.internal.core.TokenBucket.class).toAbsolutePath().normalize();
            entries.removeIf(entry -> Path.of(entry).toAbsolutePath().normalize().equals(current));
            entries.add(0, tollgate.toString());
        }
        return entries.stream().collect(Collectors.joining(java.io.File.pathSeparator));
    }

    private void pumpOutput() {
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
                PrintWriter log = new PrintWriter(Files.newBufferedWriter(LOGS.resolve(name + ".log")), true)) {
            String line;
            while ((line = out.readLine()) != null) {
                log.println(line);
                String[] words = line.split(" ", 3);
                if (words[0].equals(TollgateMemberMain.READY)) {
                    ready.complete(UUID.fromString(words[1].trim()));
                } else if ((words[0].equals(TollgateMemberMain.RESULT) || words[0].equals(TollgateMemberMain.VERSION)) && words.length > 1) {
                    CompletableFuture<String> answer = answers.get(words[1]);
                    if (answer != null) {
                        answer.complete(words.length > 2 ? words[2] : "");
                    }
                }
            }
        } catch (IOException e) {
            ready.completeExceptionally(e);
        } finally {
            IllegalStateException gone = new IllegalStateException(name + " exited; see " + LOGS.resolve(name + ".log"));
            ready.completeExceptionally(gone);
            answers.values().forEach(answer -> answer.completeExceptionally(gone));
        }
    }

    /** @return the member's UUID, once it has joined (waits at most 120 s) */
    public UUID awaitReady() throws Exception {
        return ready.get(120, TimeUnit.SECONDS);
    }

    /** Tells a member started with {@code joinNow = false} to join. */
    public void join() throws IOException {
        send("join");
    }

    /**
     * @return per cost, the tokens left after it, or -1 if denied; a single decision for one cost, a
     *         batch for several (waits at most 90 s)
     * @throws IllegalStateException if the decision failed on that member, with its reason
     */
    public long[] decide(String key, long burst, long... costs) throws Exception {
        StringBuilder command = new StringBuilder("decide ").append("%s ").append(key).append(' ').append(burst);
        for (long cost : costs) {
            command.append(' ').append(cost);
        }
        String[] words = ask(command.toString()).trim().split(" ");
        long[] remaining = new long[words.length];
        for (int i = 0; i < words.length; i++) {
            if (words[i].startsWith("failed:")) {
                throw new IllegalStateException(name + " could not decide " + key + ": " + words[i]);
            }
            remaining[i] = Long.parseLong(words[i]);
        }
        return remaining;
    }

    /** @return the wire version the member's store sends, -1 for a Tollgate without versions */
    public int wireVersion() throws Exception {
        return Integer.parseInt(ask("version %s").trim());
    }

    private synchronized String ask(String command) throws Exception {
        String id = String.valueOf(next++);
        CompletableFuture<String> answer = new CompletableFuture<>();
        answers.put(id, answer);
        send(String.format(command, id));
        try {
            return answer.get(90, TimeUnit.SECONDS);
        } finally {
            answers.remove(id);
        }
    }

    private void send(String line) throws IOException {
        OutputStream in = process.getOutputStream();
        in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
    }

    /** {@code kill -9}: the JVM dies at once, without a word to the cluster. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(60, TimeUnit.SECONDS);
    }

    /** Leaves the cluster gracefully (its partitions migrate first) and waits for the JVM to exit. */
    public void shutdown() throws Exception {
        send("shutdown");
        if (!process.waitFor(90, TimeUnit.SECONDS)) {
            throw new IllegalStateException(name + " did not shut down within 90 s");
        }
    }

    public String name() {
        return name;
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroyForcibly();
            process.waitFor(60, TimeUnit.SECONDS);
        }
    }
}
