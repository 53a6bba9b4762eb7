package io.tollgate.it;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * A response as it comes over the wire, status line included (which java.net.http hides): one GET per
 * connection over a plain socket, HTTP/1.1, chunked or sized bodies.
 */
public record RawResponse(String statusLine, int status, Map<String, List<String>> headers, String body) {

    private static final int TIMEOUT_MILLIS = 30_000;

    /** @param uri an absolute http URI on this machine */
    public static RawResponse get(URI uri) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(uri.getHost(), uri.getPort()), TIMEOUT_MILLIS);
            socket.setSoTimeout(TIMEOUT_MILLIS);
            String target = uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
            OutputStream out = socket.getOutputStream();
            out.write(("GET " + target + " HTTP/1.1\r\nHost: " + uri.getHost() + ":" + uri.getPort()
                    + "\r\nAccept: */*\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            return parse(socket.getInputStream().readAllBytes());
        } catch (IOException e) {
            throw new AssertionError("GET " + uri + " failed: " + e, e);
        }
    }

    private static RawResponse parse(byte[] bytes) throws IOException {
        String all = new String(bytes, StandardCharsets.ISO_8859_1);
        int end = all.indexOf("\r\n\r\n");
        if (end < 0) {
            throw new IOException("no complete response: " + all);
        }
        String[] lines = all.substring(0, end).split("\r\n");
        Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.computeIfAbsent(lines[i].substring(0, colon), n -> new ArrayList<>()).add(lines[i].substring(colon + 1).strip());
        }
        byte[] rest = java.util.Arrays.copyOfRange(bytes, end + 4, bytes.length);
        List<String> encoding = headers.getOrDefault("Transfer-Encoding", List.of());
        byte[] body = !encoding.isEmpty() && encoding.get(0).toLowerCase(Locale.ROOT).contains("chunked") ? unchunk(rest) : rest;
        String[] status = lines[0].split(" ", 3);
        return new RawResponse(lines[0], Integer.parseInt(status[1]), headers, new String(body, StandardCharsets.UTF_8));
    }

    private static byte[] unchunk(byte[] chunked) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        InputStream in = new java.io.ByteArrayInputStream(chunked);
        while (true) {
            StringBuilder size = new StringBuilder();
            for (int c = in.read(); c != '\n'; c = in.read()) {
                if (c < 0) {
                    throw new IOException("truncated chunked body");
                }
                size.append((char) c);
            }
            int length = Integer.parseInt(size.toString().strip().split(";")[0], 16);
            if (length == 0) {
                return body.toByteArray();
            }
            body.write(in.readNBytes(length));
            in.readNBytes(2); // CRLF after the chunk
        }
    }
}
