package io.tollgate.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Listens on 127.0.0.1, forwards each connection to another port there and reports what the
 * connecting side sent: an outsider's process on a port of Tollgate's member list, passing what it
 * receives on to a Hazelcast member of its own (so the Hazelcast protocol goes on as it would).
 * Run as a program (arguments: listen port, target port) it reports on standard output:
 * {@value #LISTENING}, then {@value #CONNECTION} per connection and {@value #DATA} with the bytes in
 * Base64; it ends when standard input closes.
 */
public final class PortRelay implements AutoCloseable {

    public static final String LISTENING = "relay-listening";
    public static final String CONNECTION = "relay-connection";
    public static final String DATA = "relay-data ";

    private final ServerSocket server;
    private final int target;
    private final PrintStream report;
    private final AtomicInteger connections = new AtomicInteger();
    private final StringBuffer received = new StringBuffer();

    private PortRelay(int port, int target, PrintStream report) throws IOException {
        this.server = new ServerSocket();
        this.server.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), port));
        this.target = target;
        this.report = report;
        Thread accept = new Thread(this::accept, "relay-" + port);
        accept.setDaemon(true);
        accept.start();
    }

    /** A relay in this JVM; {@link #received()} and {@link #connections()} tell what it saw. */
    public static PortRelay start(int port, int target) throws IOException {
        return new PortRelay(port, target, null);
    }

    public static void main(String[] args) throws Exception {
        try (PortRelay relay = new PortRelay(Integer.parseInt(args[0]), Integer.parseInt(args[1]), System.out)) {
            relay.say(LISTENING);
            while (System.in.read() >= 0) {
                // until the test that started it is gone
            }
        }
    }

    /** @return what connecting sides sent, as ISO-8859-1 text (the Hazelcast protocol writes names in UTF-8) */
    public String received() {
        return received.toString();
    }

    public int connections() {
        return connections.get();
    }

    private void accept() {
        try {
            while (true) {
                Socket in = server.accept();
                Socket out = new Socket(InetAddress.getByName("127.0.0.1"), target);
                connections.incrementAndGet();
                say(CONNECTION);
                pump(in, out, true);
                pump(out, in, false);
            }
        } catch (IOException e) {
            // closed
        }
    }

    private void pump(Socket from, Socket to, boolean record) {
        Thread pump = new Thread(() -> {
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                byte[] buffer = new byte[8192];
                int n;
                while ((n = in.read(buffer)) > 0) {
                    if (record) {
                        received.append(new String(buffer, 0, n, StandardCharsets.ISO_8859_1));
                        say(DATA + Base64.getEncoder().encodeToString(Arrays.copyOf(buffer, n)));
                    }
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // either side closed
            } finally {
                close(from);
                close(to);
            }
        }, "relay-pump");
        pump.setDaemon(true);
        pump.start();
    }

    private synchronized void say(String line) {
        if (report != null) {
            report.println(line);
            report.flush();
        }
    }

    private static void close(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // already closed
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
