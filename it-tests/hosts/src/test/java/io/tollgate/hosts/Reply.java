package io.tollgate.hosts;

import java.util.List;
import java.util.Map;

/**
 * An HTTP answer as the test JVM received it.
 *
 * @param request the method and URI, for messages
 * @param status the status code
 * @param headers every field, by name as received
 * @param body the body as text
 */
public record Reply(String request, int status, Map<String, List<String>> headers, String body) {

    /** @return the field's first value (name compared without case), or null */
    public String header(String name) {
        return headers.entrySet().stream()
                .filter(field -> field.getKey().equalsIgnoreCase(name))
                .flatMap(field -> field.getValue().stream())
                .findFirst()
                .orElse(null);
    }

    /** For failure messages: request, status, fields and body. */
    @Override
    public String toString() {
        return request + " -> " + status + " " + headers + " " + body;
    }
}
