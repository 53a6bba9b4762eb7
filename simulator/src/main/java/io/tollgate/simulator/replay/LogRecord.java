package io.tollgate.simulator.replay;

import java.util.Map;

/**
 * One request as an access log recorded it.
 *
 * @param line       its line number in the file, from 1
 * @param timeMicros when it arrived, µs since the epoch, to the log's resolution
 * @param resolution that resolution in µs (1 000 000 for whole seconds)
 * @param host       the client's address (or host name)
 * @param user       the authenticated user, or {@code null}
 * @param method     the HTTP method
 * @param target     the request target: path and query
 * @param status     the status answered
 * @param headers    request headers the log recorded (Referer, User-Agent, {@code %{Name}i} ...)
 */
public record LogRecord(int line, long timeMicros, long resolution, String host, String user, String method, String target,
        int status, Map<String, String> headers) {
}
