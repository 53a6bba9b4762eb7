package io.tollgate.it;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.zip.GZIPInputStream;

/**
 * The least of an OpenTelemetry collector: an OTLP/HTTP receiver ({@code http/protobuf}) on 127.0.0.1 and a free
 * port, which keeps every export request it is sent and answers 200 with an empty response. It reads what a test
 * checks of OTLP: the data points of a sum metric with their string attributes, and the spans' attributes.
 */
final class OtlpReceiver implements AutoCloseable {

    private final HttpServer server;
    private final List<Protobuf> metrics = new CopyOnWriteArrayList<>();
    private final List<Protobuf> traces = new CopyOnWriteArrayList<>();
    private final List<String> paths = new CopyOnWriteArrayList<>();

    private OtlpReceiver(HttpServer server) {
        this.server = server;
    }

    static OtlpReceiver start() throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        OtlpReceiver receiver = new OtlpReceiver(server);
        server.createContext("/", exchange -> {
            try (exchange) {
                boolean gzip = "gzip".equalsIgnoreCase(exchange.getRequestHeaders().getFirst("Content-Encoding"));
                byte[] body;
                try (InputStream in = gzip ? new GZIPInputStream(exchange.getRequestBody()) : exchange.getRequestBody()) {
                    body = in.readAllBytes();
                }
                String path = exchange.getRequestURI().getPath();
                receiver.paths.add(path);
                if (path.endsWith("/v1/metrics")) {
                    receiver.metrics.add(Protobuf.parse(body));
                } else if (path.endsWith("/v1/traces")) {
                    receiver.traces.add(Protobuf.parse(body));
                }
                exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
                exchange.sendResponseHeaders(200, -1);
            }
        });
        server.start();
        return receiver;
    }

    /** @return the receiver's base URL, for {@code otel.exporter.otlp.endpoint} */
    String endpoint() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** @return the paths posted to so far, in order */
    List<String> paths() {
        return List.copyOf(paths);
    }

    /**
     * @return per data point of the sum metric {@code name}, in the order exported, its string attributes and its
     *         value under the key {@code "value"}
     */
    List<Map<String, String>> sumPoints(String name) {
        List<Map<String, String>> points = new ArrayList<>();
        for (Protobuf request : metrics) {
            for (Protobuf resource : request.messages(1)) { // ResourceMetrics
                for (Protobuf scope : resource.messages(2)) { // ScopeMetrics
                    for (Protobuf metric : scope.messages(2)) { // Metric: 1 name, 7 sum
                        if (!name.equals(metric.string(1))) {
                            continue;
                        }
                        for (Protobuf sum : metric.messages(7)) {
                            for (Protobuf point : sum.messages(1)) { // NumberDataPoint: 7 attributes, 6 as_int
                                Map<String, String> values = attributes(point.messages(7));
                                values.put("value", String.valueOf(point.number(6)));
                                points.add(values);
                            }
                        }
                    }
                }
            }
        }
        return points;
    }

    /** @return the attributes of every span exported, strings and integers as text */
    List<Map<String, String>> spans() {
        List<Map<String, String>> spans = new ArrayList<>();
        for (Protobuf request : traces) {
            for (Protobuf resource : request.messages(1)) { // ResourceSpans
                for (Protobuf scope : resource.messages(2)) { // ScopeSpans
                    for (Protobuf span : scope.messages(2)) { // Span: 5 name, 9 attributes
                        Map<String, String> attributes = attributes(span.messages(9));
                        attributes.put("span.name", span.string(5));
                        spans.add(attributes);
                    }
                }
            }
        }
        return spans;
    }

    /** KeyValue: 1 key, 2 AnyValue (1 string, 2 bool, 3 int). */
    private static Map<String, String> attributes(List<Protobuf> keyValues) {
        Map<String, String> attributes = new HashMap<>();
        for (Protobuf keyValue : keyValues) {
            for (Protobuf value : keyValue.messages(2)) {
                String text = value.string(1);
                attributes.put(keyValue.string(1), text != null ? text : String.valueOf(value.number(3) != null ? value.number(3)
                        : value.number(2)));
            }
        }
        return attributes;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
