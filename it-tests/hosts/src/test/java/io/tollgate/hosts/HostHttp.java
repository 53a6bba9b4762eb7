package io.tollgate.hosts;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * HTTP from the test JVM to the hosts (through the bridge): a client as users write one, {@code java.net.http} over
 * HTTP/1.1. A request that gets no answer (refused, timed out) throws {@link UncheckedIOException} naming it.
 */
public final class HostHttp {

    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private HostHttp() {
    }

    /**
     * @param base e.g. {@code http://198.18.0.1:9080/app/}
     * @param path relative to {@code base}, e.g. {@code api/search?q=tea}
     * @param headers name, value, name, value ...
     */
    public static Reply get(URI base, String path, String... headers) {
        return send(request(base, path, headers).GET());
    }

    /**
     * A POST; its body is {@code text/plain} unless {@code headers} name a Content-Type (the sample's rule changes,
     * {@code POST api/operator/rules/{rule}}, take {@code "Content-Type", "application/json"}).
     */
    public static Reply post(URI base, String path, String body, String... headers) {
        return send(withBody(request(base, path, headers), headers).POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    /** A PUT; its body is {@code text/plain} unless {@code headers} name a Content-Type. */
    public static Reply put(URI base, String path, String body, String... headers) {
        return send(withBody(request(base, path, headers), headers).PUT(HttpRequest.BodyPublishers.ofString(body)));
    }

    public static Reply delete(URI base, String path, String... headers) {
        return send(request(base, path, headers).DELETE());
    }

    public static HttpRequest.Builder request(URI base, String path, String... headers) {
        if (headers.length % 2 != 0) {
            throw new IllegalArgumentException("headers come as name, value pairs: " + String.join(", ", headers));
        }
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path)).timeout(TIMEOUT);
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return request;
    }

    public static Reply send(HttpRequest.Builder builder) {
        HttpRequest request = builder.build();
        String described = request.method() + " " + request.uri();
        try {
            HttpResponse<String> response = CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
            return new Reply(described, response.statusCode(), response.headers().map(), response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(described + " got no answer: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted: " + described, e);
        }
    }

    private static HttpRequest.Builder withBody(HttpRequest.Builder request, String[] headers) {
        for (int i = 0; i < headers.length; i += 2) {
            if (headers[i].equalsIgnoreCase("Content-Type")) {
                return request;
            }
        }
        return request.header("Content-Type", "text/plain");
    }
}
