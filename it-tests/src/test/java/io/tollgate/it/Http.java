package io.tollgate.it;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;

/** A client as a user would write one: java.net.http over HTTP/1.1, nothing shared with the server. */
public final class Http {

    public static final HttpClient CLIENT = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();

    private Http() {
    }

    /** @param headers name, value, name, value ... (a name may repeat) */
    public static HttpResponse<String> get(URL base, String path, String... headers) {
        return send(request(base, path, headers).GET());
    }

    public static HttpResponse<String> post(URL base, String path, String body, String... headers) {
        return send(request(base, path, headers).header("Content-Type", "text/plain")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    public static HttpRequest.Builder request(URL base, String path, String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base.toExternalForm()).resolve(path))
                .timeout(Duration.ofSeconds(30));
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return request;
    }

    public static HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new AssertionError("request failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /** @return the header's value, or null; fails if it was sent more than once */
    public static String header(HttpResponse<?> response, String name) {
        var values = response.headers().allValues(name);
        if (values.size() > 1) {
            throw new AssertionError(name + " sent " + values.size() + " times: " + values);
        }
        return values.isEmpty() ? null : values.get(0);
    }

    public static Optional<String> contentType(HttpResponse<?> response) {
        return response.headers().firstValue("Content-Type").map(v -> v.split(";")[0].trim());
    }

    public static JsonObject json(HttpResponse<String> response) {
        try (JsonReader reader = Json.createReader(new StringReader(response.body()))) {
            return reader.readObject();
        } catch (RuntimeException e) {
            throw new AssertionError("not a JSON object: " + response.body(), e);
        }
    }

    /** For failure messages: status, headers and body. */
    public static String describe(HttpResponse<String> response) {
        return response.request().method() + " " + response.uri() + " -> " + response.statusCode() + " "
                + response.headers().map() + " " + response.body();
    }
}
