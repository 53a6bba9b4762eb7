package io.tollgate.testing;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link PortRelay} run by another OS user ({@code nobody}): a local process Tollgate must not
 * trust. Starting a process as another user takes root and {@code setpriv} (util-linux);
 * {@link #possible()} says whether this machine has them. {@link #close()} ends the process.
 */
public final class ForeignRelay implements AutoCloseable {

    public static final int NOBODY = 65534;
    private static final Path SETPRIV = Path.of("/usr/bin/setpriv");

    private final Process process;
    private final CompletableFuture<Void> listening = new CompletableFuture<>();
    private final AtomicInteger connections = new AtomicInteger();
    private final StringBuffer received = new StringBuffer();

    private ForeignRelay(Process process) {
        this.process = process;
        Thread reader = new Thread(this::read, "foreign-relay-output");
        reader.setDaemon(true);
        reader.start();
    }

    /** @return whether this test can start a process as another user */
    public static boolean possible() {
        return ownUid() == 0 && Files.isExecutable(SETPRIV);
    }

    /** Starts the relay as {@code nobody} on 127.0.0.1:{@code port}, forwarding to {@code target}, and waits until it listens. */
    public static ForeignRelay start(int port, int target) throws Exception {
        Path classes = Path.of(PortRelay.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<String> command = List.of(SETPRIV.toString(), "--reuid=" + NOBODY, "--regid=" + NOBODY, "--clear-groups",
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx64m", "-cp", classes.toString(),
                PortRelay.class.getName(), Integer.toString(port), Integer.toString(target));
        ForeignRelay relay = new ForeignRelay(new ProcessBuilder(command).redirectErrorStream(true).start());
        try {
            relay.listening.get(60, TimeUnit.SECONDS);
            return relay;
        } catch (Exception e) {
            relay.close();
            throw e;
        }
    }

    /** @return the process's user id */
    public long uid() throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status"))) {
            if (line.startsWith("Uid:")) {
                return Long.parseLong(line.substring(4).trim().split("\\s+")[1]);
            }
        }
        throw new IllegalStateException("no Uid line for " + process.pid());
    }

    public int connections() {
        return connections.get();
    }

    /** @return what connecting sides sent, as ISO-8859-1 text */
    public String received() {
        return received.toString();
    }

    private void read() {
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                if (line.equals(PortRelay.LISTENING)) {
                    listening.complete(null);
                } else if (line.equals(PortRelay.CONNECTION)) {
                    connections.incrementAndGet();
                } else if (line.startsWith(PortRelay.DATA)) {
                    received.append(new String(Base64.getDecoder().decode(line.substring(PortRelay.DATA.length())),
                            StandardCharsets.ISO_8859_1));
                } else {
                    System.out.println("foreign relay: " + line);
                }
            }
        } catch (Exception e) {
            // the process is gone
        } finally {
            listening.completeExceptionally(new IllegalStateException("the foreign relay ended before it listened"));
        }
    }

    private static long ownUid() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Uid:")) {
                    return Long.parseLong(line.substring(4).trim().split("\\s+")[1]);
                }
            }
        } catch (Exception e) {
            // not Linux
        }
        return -1;
    }

    @Override
    public void close() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(60, TimeUnit.SECONDS);
    }
}
