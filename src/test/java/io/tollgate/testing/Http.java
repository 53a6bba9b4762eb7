package io.tollgate.testing;

import java.io.StringReader;
import java.net.http.HttpResponse;
import jakarta.json.Json;
import jakarta.json.JsonObject;

/** Small readers for HTTP responses in assertions. */
public final class Http {

    private Http() {
    }

    /** @return the header's value, or {@code null} */
    public static String header(HttpResponse<?> response, String name) {
        return response.headers().firstValue(name).orElse(null);
    }

    /** @return the response body as a JSON object */
    public static JsonObject json(HttpResponse<String> response) {
        try (var reader = Json.createReader(new StringReader(response.body()))) {
            return reader.readObject();
        }
    }

    /** @return the {@code r} (remaining) of the first item of the {@code RateLimit} field */
    public static long remaining(HttpResponse<?> response) {
        String field = header(response, "RateLimit");
        if (field == null) {
            throw new AssertionError("no RateLimit header in " + response.headers().map());
        }
        int r = field.indexOf(";r=");
        int end = field.indexOf(';', r + 3);
        return Long.parseLong(field.substring(r + 3, end < 0 ? field.length() : end));
    }
}
