package io.tollgate.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.StringReader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import jakarta.json.Json;
import jakarta.json.JsonObject;

/**
 * HTTP/1.1 over a plain socket, one request per connection, for requests a well-behaved client
 * refuses to send: header values with control characters or raw bytes, the same header many times,
 * very long lines. Header values go out as the bytes given (ISO-8859-1 for text), unchecked.
 */
public final class RawHttp {

    private static final int TIMEOUT_MILLIS = 30_000;

    private RawHttp() {
    }

    /** A parsed response; {@link #status()} is 0 when the server closed the connection without answering. */
    public static final class Response {
        private final int status;
        private final Map<String, List<String>> headers;
        private final String body;

        Response(int status, Map<String, List<String>> headers, String body) {
            this.status = status;
            this.headers = headers;
            this.body = body;
        }

        public int status() {
            return status;
        }

        /** @return the first value of the header (case-insensitive name), or {@code null} */
        public String header(String name) {
            List<String> values = headers.get(name);
            return values == null || values.isEmpty() ? null : values.get(0);
        }

        public String body() {
            return body;
        }

        /** @return whether the body is an RFC 9457 problem */
        public boolean isProblem() {
            String type = header("Content-Type");
            return type != null && type.toLowerCase(Locale.ROOT).startsWith("application/problem+json");
        }

        public JsonObject json() {
            try (var reader = Json.createReader(new StringReader(body))) {
                return reader.readObject();
            }
        }

        /** @return the {@code r} (remaining) of the first item of the {@code RateLimit} field */
        public long remaining() {
            String field = header("RateLimit");
            if (field == null) {
                throw new AssertionError("no RateLimit header in a " + status + " response: " + headers);
            }
            int r = field.indexOf(";r=");
            int end = field.indexOf(';', r + 3);
            return Long.parseLong(field.substring(r + 3, end < 0 ? field.length() : end));
        }

        @Override
        public String toString() {
            return status + " " + headers + " " + body;
        }
    }

    /** A header line: the name and the value's raw bytes. */
    public static final class Header {
        final String name;
        final byte[] value;

        private Header(String name, byte[] value) {
            this.name = name;
            this.value = value;
        }

        public static Header of(String name, String latin1Value) {
            return new Header(name, latin1Value.getBytes(StandardCharsets.ISO_8859_1));
        }

        public static Header bytes(String name, byte[] value) {
            return new Header(name, value.clone());
        }
    }

    /**
     * @param base   the application's base URI (host and port are used)
     * @param method e.g. {@code GET}
     * @param target the request target as sent, e.g. {@code /keys/query?api_key=%00}
     */
    public static Response send(URI base, String method, String target, List<Header> headers) throws IOException {
        ByteArrayOutputStream request = new ByteArrayOutputStream();
        write(request, method + " " + target + " HTTP/1.1\r\nHost: " + base.getHost() + ":" + base.getPort()
                + "\r\nConnection: close\r\n");
        if (!method.equals("GET")) {
            write(request, "Content-Length: 0\r\n");
        }
        for (Header header : headers) {
            write(request, header.name + ": ");
            request.write(header.value);
            write(request, "\r\n");
        }
        write(request, "\r\n");
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(base.getHost(), base.getPort()), TIMEOUT_MILLIS);
            socket.setSoTimeout(TIMEOUT_MILLIS);
            OutputStream out = socket.getOutputStream();
            try {
                out.write(request.toByteArray());
                out.flush();
                socket.shutdownOutput();
            } catch (IOException e) {
                // the server may answer and close before reading everything (a request too large)
            }
            return parse(readAll(socket.getInputStream()));
        }
    }

    private static void write(ByteArrayOutputStream out, String text) {
        out.writeBytes(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    private static byte[] readAll(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        try {
            for (int n; (n = in.read(buffer)) >= 0; ) {
                out.write(buffer, 0, n);
            }
        } catch (java.net.SocketException e) {
            // reset after the answer: keep what arrived
        }
        return out.toByteArray();
    }

    private static Response parse(byte[] raw) {
        String text = new String(raw, StandardCharsets.ISO_8859_1);
        int headEnd = text.indexOf("\r\n\r\n");
        if (!text.startsWith("HTTP/1.") || headEnd < 0) {
            return new Response(0, Map.of(), text);
        }
        String[] lines = text.substring(0, headEnd).split("\r\n");
        int status = Integer.parseInt(lines[0].split(" ", 3)[1]);
        Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon > 0) {
                headers.computeIfAbsent(lines[i].substring(0, colon).trim(), n -> new ArrayList<>())
                        .add(lines[i].substring(colon + 1).trim());
            }
        }
        byte[] bodyBytes = text.substring(headEnd + 4).getBytes(StandardCharsets.ISO_8859_1);
        String body = headers.containsKey("Transfer-Encoding") ? dechunk(bodyBytes) : new String(bodyBytes, StandardCharsets.UTF_8);
        return new Response(status, headers, body);
    }

    private static String dechunk(byte[] chunked) {
        String text = new String(chunked, StandardCharsets.ISO_8859_1);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int at = 0;
        while (at < text.length()) {
            int lineEnd = text.indexOf("\r\n", at);
            if (lineEnd < 0) {
                break;
            }
            int size = Integer.parseInt(text.substring(at, lineEnd).split(";")[0].trim(), 16);
            if (size == 0) {
                break;
            }
            out.writeBytes(text.substring(lineEnd + 2, lineEnd + 2 + size).getBytes(StandardCharsets.ISO_8859_1));
            at = lineEnd + 2 + size + 2;
        }
        return out.toString(StandardCharsets.UTF_8);
    }
}
