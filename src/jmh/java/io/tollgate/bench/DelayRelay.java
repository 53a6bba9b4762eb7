package io.tollgate.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * A TCP relay on one address that holds every chunk of bytes it reads for a fixed delay before it writes it on, in both
 * directions: a network between hosts, one round trip {@code 2 × delay} slower than loopback, for a kernel without
 * {@code netem}. A member advertises the relay's port as its public address, so that every other member and every
 * client reaches it through the relay, and each of their packets waits.
 *
 * <p>Each direction of each connection has a reader, which stamps each chunk with the time it arrived, and a writer,
 * which sleeps until that time plus the delay. A sleep overshoots by the kernel's timer slack (tens of microseconds);
 * the writer sleeps that much less, as measured when the relay starts, and never spins. What each chunk actually
 * waited is recorded: the report gives it beside the figures. The relay's threads run on the machine's own CPUs,
 * which a real network would not use; they run at the highest thread priority so that they lag the callers less.
 */
final class DelayRelay implements AutoCloseable {

    private static final int CHUNK = 64 * 1024;

    private final ServerSocket server;
    private final InetAddress address;
    private final int targetPort;
    private final long delayNanos;
    private final long overshootNanos;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final List<Histogram> waits = new CopyOnWriteArrayList<>();
    private volatile boolean closed;

    /**
     * @param address    the address the relay listens on, and relays to
     * @param port       the port the relay listens on
     * @param targetPort the port it relays to
     * @param delayNanos how long each chunk waits, each way
     */
    DelayRelay(InetAddress address, int port, int targetPort, long delayNanos) throws IOException {
        this.address = address;
        this.targetPort = targetPort;
        this.delayNanos = delayNanos;
        this.overshootNanos = parkOvershoot();
        server = new ServerSocket();
        server.setReuseAddress(true);
        server.bind(new InetSocketAddress(address, port));
        Thread acceptor = new Thread(this::accept, "delay-relay-" + port);
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** @return how long chunks waited in this relay, all connections and directions */
    Histogram waited() {
        Histogram all = new Histogram();
        for (Histogram waited : waits) {
            synchronized (waited) {
                all.add(waited);
            }
        }
        return all;
    }

    /** Forgets what chunks waited so far: a measurement starts. */
    void resetWaits() {
        for (Histogram waited : waits) {
            synchronized (waited) {
                waited.reset();
            }
        }
    }

    private void accept() {
        while (!closed) {
            Socket in;
            try {
                in = server.accept();
            } catch (IOException e) {
                if (!closed) {
                    System.err.println("delay relay: " + e);
                }
                continue;
            }
            try {
                Socket out = new Socket();
                out.connect(new InetSocketAddress(address, targetPort));
                for (Socket s : List.of(in, out)) {
                    s.setTcpNoDelay(true);
                    sockets.add(s);
                }
                pipe(in, out);
                pipe(out, in);
            } catch (IOException e) {
                quietly(in); // the member behind is not up yet (or gone): as if it refused the connection
            }
        }
    }

    private void pipe(Socket from, Socket to) throws IOException {
        BlockingQueue<Chunk> queue = new LinkedBlockingQueue<>();
        Histogram waited = new Histogram();
        waits.add(waited);
        InputStream in = from.getInputStream();
        OutputStream out = to.getOutputStream();
        start("delay-relay-read", () -> {
            try {
                byte[] buffer = new byte[CHUNK];
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    queue.add(new Chunk(Arrays.copyOf(buffer, n), System.nanoTime()));
                }
            } catch (IOException e) {
                // closed
            }
            queue.add(Chunk.END);
            quietly(from);
        });
        start("delay-relay-write", () -> {
            try {
                Chunk chunk;
                while ((chunk = queue.take()) != Chunk.END) {
                    long due = chunk.readNanos + delayNanos;
                    long left;
                    while ((left = due - System.nanoTime()) > overshootNanos) { // a park may end early
                        LockSupport.parkNanos(left - overshootNanos);
                    }
                    out.write(chunk.bytes);
                    synchronized (waited) {
                        waited.record(System.nanoTime() - chunk.readNanos);
                    }
                }
            } catch (IOException | InterruptedException e) {
                // closed
            }
            quietly(to);
        });
    }

    /**
     * Starts a relay's thread, at the highest priority: the network's work should not wait for the callers' (the JVM
     * applies it where it may, with {@code -XX:ThreadPriorityPolicy=1} as root on Linux).
     */
    private static void start(String name, Runnable task) {
        Thread thread = new Thread(task, name);
        thread.setDaemon(true);
        thread.setPriority(Thread.MAX_PRIORITY);
        thread.start();
    }

    /** @return the median time a short park sleeps beyond what it was asked: the kernel's timer slack and wake-up */
    private static long parkOvershoot() {
        long[] over = new long[101];
        for (int i = 0; i < over.length; i++) {
            long start = System.nanoTime();
            LockSupport.parkNanos(100_000);
            over[i] = System.nanoTime() - start - 100_000;
        }
        Arrays.sort(over);
        return Math.max(0, over[over.length / 2]);
    }

    private static void quietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // closing
        }
    }

    @Override
    public void close() throws IOException {
        closed = true;
        server.close();
        sockets.forEach(DelayRelay::quietly);
    }

    private record Chunk(byte[] bytes, long readNanos) {
        static final Chunk END = new Chunk(new byte[0], 0);
    }
}
