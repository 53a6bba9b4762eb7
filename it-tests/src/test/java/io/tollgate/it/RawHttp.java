package io.tollgate.it;

import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * HTTP/1.1 over a plain socket: the request target goes out exactly as written (no client library
 * normalises {@code //}, {@code ;}, {@code %2F} or dot segments), and the status line comes back as the
 * server wrote it, reason phrase included ({@code java.net.http} hides it).
 */
final class RawHttp {

    private static final int TIMEOUT_MILLIS = 30_000;

    private RawHttp() {
    }

    /** What the server answered. */
    record Response(String target, String statusLine, int status, Map<String, List<String>> headers, String body) {

        /** @return the header's only value, or null */
        String header(String name) {
            List<String> values = headers.getOrDefault(name.toLowerCase(Locale.ROOT), List.of());
            if (values.size() > 1) {
                throw new AssertionError(name + " sent " + values.size() + " times: " + values);
            }
            return values.isEmpty() ? null : values.get(0);
        }

        /** For failure messages. */
        String describe() {
            return "GET " + target + " -> " + statusLine + " " + headers + " " + body;
        }
    }

    /**
     * @param base    the application's URL (its path is the context root)
     * @param path    appended to the context root as it is, e.g. {@code api/items;m=1/7}
     * @param headers name, value, name, value ...
     */
    static Response get(URL base, String path, String... headers) {
        String target = target(base, path);
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(base.getHost(), base.getPort()), TIMEOUT_MILLIS);
            socket.setSoTimeout(TIMEOUT_MILLIS);
            OutputStream out = socket.getOutputStream();
            out.write(request(base, target, true, headers));
            out.flush();
            return parse(target, socket.getInputStream().readAllBytes());
        } catch (IOException e) {
            throw new AssertionError("GET " + target + " failed: " + e, e);
        }
    }

    /**
     * Sends the GET {@code times} times, one after the other on one connection (HTTP/1.1 keep-alive; the last asks the
     * server to close), each once the answer to the one before has arrived in full.
     *
     * @throws AssertionError if the server closes the connection before it answered them all
     */
    static List<Response> getAll(URL base, String path, int times, String... headers) {
        String target = target(base, path);
        List<Response> responses = new ArrayList<>();
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(base.getHost(), base.getPort()), TIMEOUT_MILLIS);
            socket.setSoTimeout(TIMEOUT_MILLIS);
            OutputStream out = socket.getOutputStream();
            InputStream in = new BufferedInputStream(socket.getInputStream());
            for (int i = 0; i < times; i++) {
                out.write(request(base, target, i == times - 1, headers));
                out.flush();
                responses.add(parse(target, readOne(in, target, responses)));
            }
            return responses;
        } catch (IOException e) {
            throw new AssertionError("GET " + target + " " + times + " times on one connection failed after " + responses
                    + ": " + e, e);
        }
    }

    /** @return {@code path} under the application's context root */
    private static String target(URL base, String path) {
        String root = base.getPath().endsWith("/") ? base.getPath() : base.getPath() + "/";
        return root + path;
    }

    /** @return the GET of {@code target}, asking the server to close the connection after it if {@code close} */
    private static byte[] request(URL base, String target, boolean close, String... headers) {
        StringBuilder request = new StringBuilder()
                .append("GET ").append(target).append(" HTTP/1.1\r\n")
                .append("Host: ").append(base.getHost()).append(':').append(base.getPort()).append("\r\n");
        if (close) {
            request.append("Connection: close\r\n");
        }
        for (int i = 0; i < headers.length; i += 2) {
            request.append(headers[i]).append(": ").append(headers[i + 1]).append("\r\n");
        }
        return request.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    /** @return one whole response's bytes: its head, and its body as its Content-Length or chunks say */
    private static byte[] readOne(InputStream in, String target, List<Response> before) throws IOException {
        ByteArrayOutputStream raw = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            int c = in.read();
            if (c < 0) {
                throw new AssertionError("GET " + target + ": the server closed the connection after " + before.size()
                        + " answers on it: " + before.stream().map(Response::describe).toList());
            }
            raw.write(c);
            matched = c == (matched % 2 == 0 ? '\r' : '\n') ? matched + 1 : (c == '\r' ? 1 : 0);
        }
        String head = raw.toString(StandardCharsets.ISO_8859_1).toLowerCase(Locale.ROOT);
        Matcher length = Pattern.compile("\r\ncontent-length:\\s*(\\d+)").matcher(head);
        if (length.find()) {
            raw.write(in.readNBytes(Integer.parseInt(length.group(1))));
        } else if (head.contains("\r\ntransfer-encoding:") && head.contains("chunked")) {
            while (true) {
                String sizeLine = line(in);
                raw.write((sizeLine + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
                int semicolon = sizeLine.indexOf(';');
                int size = Integer.parseInt((semicolon < 0 ? sizeLine : sizeLine.substring(0, semicolon)).trim(), 16);
                if (size == 0) {
                    line(in); // the empty line that ends the chunks
                    break;
                }
                raw.write(in.readNBytes(size));
                raw.write(("\r\n").getBytes(StandardCharsets.ISO_8859_1));
                line(in);
            }
            raw.write(("\r\n").getBytes(StandardCharsets.ISO_8859_1));
        }
        return raw.toByteArray();
    }

    private static Response parse(String target, byte[] raw) {
        String text = new String(raw, StandardCharsets.ISO_8859_1);
        int end = text.indexOf("\r\n\r\n");
        if (end < 0) {
            throw new AssertionError("GET " + target + ": no complete response head in: " + text);
        }
        String[] lines = text.substring(0, end).split("\r\n");
        String statusLine = lines[0];
        String[] parts = statusLine.split(" ", 3);
        if (parts.length < 2 || !parts[0].startsWith("HTTP/")) {
            throw new AssertionError("GET " + target + ": not a status line: " + statusLine);
        }
        Map<String, List<String>> headers = new TreeMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon > 0) {
                headers.computeIfAbsent(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), k -> new ArrayList<>())
                        .add(lines[i].substring(colon + 1).trim());
            }
        }
        byte[] body = Arrays.copyOfRange(raw, end + 4, raw.length);
        List<String> encoding = headers.getOrDefault("transfer-encoding", List.of());
        if (encoding.stream().anyMatch(v -> v.toLowerCase(Locale.ROOT).contains("chunked"))) {
            body = dechunk(body, target);
        }
        return new Response(target, statusLine, Integer.parseInt(parts[1]), headers, new String(body, StandardCharsets.UTF_8));
    }

    private static byte[] dechunk(byte[] chunked, String target) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        InputStream in = new ByteArrayInputStream(chunked);
        try {
            while (true) {
                String sizeLine = line(in);
                int semicolon = sizeLine.indexOf(';');
                int size = Integer.parseInt((semicolon < 0 ? sizeLine : sizeLine.substring(0, semicolon)).trim(), 16);
                if (size == 0) {
                    return out.toByteArray();
                }
                out.write(in.readNBytes(size));
                line(in); // the CRLF after the chunk
            }
        } catch (IOException | NumberFormatException e) {
            throw new AssertionError("GET " + target + ": bad chunked body", e);
        }
    }

    private static String line(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        for (int c = in.read(); c >= 0 && c != '\n'; c = in.read()) {
            if (c != '\r') {
                line.append((char) c);
            }
        }
        return line.toString();
    }
}
