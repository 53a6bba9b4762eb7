package io.tollgate.hosts;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A short command (ip, tc, a probe) run to its end: its output, or an exception that names the command, its exit
 * code and what it wrote to stderr.
 */
final class Command {

    private static final long TIMEOUT_SECONDS = 60;

    private Command() {
    }

    /** What a command printed and how it ended. */
    record Result(List<String> command, int exitCode, String stdout, String stderr) {

        boolean succeeded() {
            return exitCode == 0;
        }

        String describe() {
            return "`" + String.join(" ", command) + "` exited with " + exitCode
                    + (stderr.isBlank() ? "" : ": " + stderr.strip())
                    + (stdout.isBlank() ? "" : " (stdout: " + stdout.strip() + ")");
        }
    }

    /** Thrown when a command of the rig fails: the command, its exit code and its stderr. */
    static final class Failed extends IllegalStateException {

        private static final long serialVersionUID = 1L;

        Failed(Result result) {
            super(result.describe());
        }

        Failed(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** Runs the command; throws {@link Failed} unless it exits with 0. */
    static String run(String... command) {
        Result result = attempt(command);
        if (!result.succeeded()) {
            throw new Failed(result);
        }
        return result.stdout();
    }

    /** Runs the command and returns how it ended, whatever its exit code (a timeout counts as exit code -1). */
    static Result attempt(String... command) {
        return attempt(TIMEOUT_SECONDS, command);
    }

    static Result attempt(long timeoutSeconds, String... command) {
        List<String> words = List.of(command);
        Process process;
        try {
            process = new ProcessBuilder(words).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        } catch (IOException e) {
            throw new Failed("`" + String.join(" ", words) + "` could not be started: " + e.getMessage(), e);
        }
        CompletableFuture<String> stdout = CompletableFuture.supplyAsync(() -> read(process.getInputStream()));
        CompletableFuture<String> stderr = CompletableFuture.supplyAsync(() -> read(process.getErrorStream()));
        try {
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                ProcessTrees.kill(process.toHandle());
                return new Result(words, -1, "", "no end after " + timeoutSeconds + " s");
            }
            return new Result(words, process.exitValue(), stdout.get(), stderr.get());
        } catch (InterruptedException e) {
            ProcessTrees.kill(process.toHandle());
            Thread.currentThread().interrupt();
            throw new Failed("interrupted while running `" + String.join(" ", words) + "`", e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new Failed("cannot read the output of `" + String.join(" ", words) + "`", e);
        }
    }

    private static String read(InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return the executable's path: from PATH, or /usr/sbin and /sbin (not on every root's PATH) */
    static Optional<Path> find(String executable) {
        List<String> dirs = new ArrayList<>();
        String path = System.getenv("PATH");
        if (path != null) {
            dirs.addAll(List.of(path.split(File.pathSeparator)));
        }
        dirs.addAll(List.of("/usr/sbin", "/sbin", "/usr/bin", "/bin"));
        return dirs.stream()
                .filter(dir -> !dir.isEmpty())
                .map(dir -> Path.of(dir, executable))
                .filter(Files::isExecutable)
                .findFirst();
    }
}
