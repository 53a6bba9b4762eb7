package io.tollgate.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A {@link BenchMember} in a JVM of its own, in a network namespace ({@code ip netns exec}), driven through its
 * standard input and output: a command per line in, an answer per line out ({@value BenchMember#ANSWER} first). Its
 * standard error goes to this JVM's. It ends when its input closes; a shutdown hook of this JVM closes it too.
 */
final class MemberProcess implements AutoCloseable {

    private final int index;
    private final Process process;
    private final BufferedReader answers;
    private final PrintWriter commands;
    private final Thread hook;

    private MemberProcess(int index, Process process) {
        this.index = index;
        this.process = process;
        this.answers = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        this.commands = new PrintWriter(process.getOutputStream(), true, StandardCharsets.UTF_8);
        this.hook = new Thread(process::destroyForcibly, "member-process-" + index);
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /**
     * Starts member {@code index} in {@code namespace} and waits until it has joined.
     *
     * @see BenchMember#main
     */
    static MemberProcess start(String namespace, String cluster, int index, String address, int port, long delayMicros,
            List<String> addresses) {
        List<String> command = new ArrayList<>(List.of("ip", "netns", "exec", namespace,
                ProcessHandle.current().info().command().orElse("java"), "-Xms1g", "-Xmx1g"));
        if (delayMicros > 0) {
            command.add("-XX:ThreadPriorityPolicy=1"); // the relay's priority (see DelayRelay)
        }
        String logging = System.getProperty("java.util.logging.config.file");
        if (logging != null) {
            command.add("-Djava.util.logging.config.file=" + logging);
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), BenchMember.class.getName(), cluster,
                Integer.toString(index), address, Integer.toString(port), Long.toString(delayMicros), String.join(",", addresses)));
        try {
            MemberProcess member = new MemberProcess(index, new ProcessBuilder(command)
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start());
            try {
                member.answer();
            } catch (RuntimeException e) {
                member.close();
                throw e;
            }
            return member;
        } catch (IOException e) {
            throw new UncheckedIOException("could not start member " + index + " in " + namespace + ": " + command, e);
        }
    }

    int index() {
        return index;
    }

    /** @return the member's answer to {@code command} */
    String ask(String command) {
        commands.println(command);
        return answer();
    }

    private String answer() {
        try {
            String line;
            while ((line = answers.readLine()) != null) {
                if (line.startsWith(BenchMember.ANSWER)) {
                    return line.substring(BenchMember.ANSWER.length());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("member " + index + " did not answer", e);
        }
        throw new IllegalStateException("member " + index + " ended before it answered" + exit());
    }

    private String exit() {
        try {
            return process.waitFor(5, TimeUnit.SECONDS) ? " (exit status " + process.exitValue() + ")" : "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    /** Ends the member: its input closes; if it has not ended 30 s later, it is killed. */
    @Override
    public void close() {
        commands.close();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // this JVM is shutting down: the hook runs anyway
        }
    }
}
