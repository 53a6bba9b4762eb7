package io.tollgate.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * A reverse proxy in front of a {@link TestApp}, as a load balancer or an API gateway is: it listens on 127.0.0.1 and
 * forwards each request (one per connection, as {@link RawHttp} sends them) from an address of its own on the loopback
 * network ({@code 127.0.0.2}, …), so the application sees that address as the TCP peer. It appends the client's address
 * to {@code X-Forwarded-For} and passes every other header on as the client sent it, except the headers it sets
 * itself ({@link #setting}), which replace the client's.
 */
public final class ForwardingProxy implements AutoCloseable {

    private static final int TIMEOUT_MILLIS = 30_000;

    private final String address;
    private final URI target;
    private final Map<String, Function<Map<String, String>, String>> sets;
    private final ServerSocket server;

    private ForwardingProxy(String address, URI target, Map<String, Function<Map<String, String>, String>> sets) throws IOException {
        this.address = address;
        this.target = target;
        this.sets = sets;
        this.server = new ServerSocket();
        server.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
        Thread accept = new Thread(this::accept, "proxy-" + address);
        accept.setDaemon(true);
        accept.start();
    }

    /** @return a proxy at {@code address} that passes the client's headers through, as a plain load balancer does */
    public static ForwardingProxy passingHeaders(String address, URI target) throws IOException {
        return new ForwardingProxy(address, target, Map.of());
    }

    /**
     * @param header the header the proxy sets on every request, replacing the client's
     * @param value  its value from the client's headers (case-insensitive names), {@code null} to send none
     * @return a proxy at {@code address} that sets {@code header}, as an API gateway does
     */
    public static ForwardingProxy setting(String address, URI target, String header, Function<Map<String, String>, String> value)
            throws IOException {
        return new ForwardingProxy(address, target, Map.of(header.toLowerCase(Locale.ROOT), value));
    }

    /** @return where clients send their requests */
    public URI base() {
        return URI.create("http://127.0.0.1:" + server.getLocalPort() + "/");
    }

    private void accept() {
        while (!server.isClosed()) {
            try (Socket client = server.accept()) {
                forward(client);
            } catch (IOException e) {
                // closed, or a client gone: the next connection is served all the same
            }
        }
    }

    private void forward(Socket client) throws IOException {
        client.setSoTimeout(TIMEOUT_MILLIS);
        String[] lines = readHead(client.getInputStream()).split("\r\n");
        Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        Map<String, String> passed = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon > 0) {
                String name = lines[i].substring(0, colon).trim();
                String value = lines[i].substring(colon + 1).trim();
                headers.putIfAbsent(name, value);
                String lower = name.toLowerCase(Locale.ROOT);
                if (!sets.containsKey(lower) && !lower.equals("x-forwarded-for") && !lower.equals("connection")) {
                    passed.put(name, value);
                }
            }
        }
        String peer = client.getInetAddress().getHostAddress();
        String forwardedFor = headers.get("X-Forwarded-For");
        passed.put("X-Forwarded-For", forwardedFor == null ? peer : forwardedFor + ", " + peer);
        sets.forEach((name, value) -> {
            String set = value.apply(headers);
            if (set != null) {
                passed.put(name, set);
            }
        });
        StringBuilder request = new StringBuilder(lines[0]).append("\r\nConnection: close\r\n");
        passed.forEach((name, value) -> request.append(name).append(": ").append(value).append("\r\n"));
        request.append("\r\n");
        try (Socket upstream = new Socket()) {
            upstream.bind(new InetSocketAddress(InetAddress.getByName(address), 0));
            upstream.connect(new InetSocketAddress(target.getHost(), target.getPort()), TIMEOUT_MILLIS);
            upstream.setSoTimeout(TIMEOUT_MILLIS);
            upstream.getOutputStream().write(request.toString().getBytes(StandardCharsets.ISO_8859_1));
            upstream.getOutputStream().flush();
            upstream.getInputStream().transferTo(client.getOutputStream());
            client.getOutputStream().flush();
        }
    }

    /** @return the request line and headers, up to the blank line (the requests forwarded have no body) */
    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        for (int b; matched < 4 && (b = in.read()) >= 0; ) {
            head.write(b);
            matched = b == (matched % 2 == 0 ? '\r' : '\n') ? matched + 1 : b == '\r' ? 1 : 0;
        }
        String text = head.toString(StandardCharsets.ISO_8859_1);
        return text.endsWith("\r\n\r\n") ? text.substring(0, text.length() - 4) : text;
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
