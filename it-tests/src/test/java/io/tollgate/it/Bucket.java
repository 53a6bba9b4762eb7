package io.tollgate.it;

import static io.tollgate.it.Http.describe;
import static io.tollgate.it.Http.header;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;

/**
 * What a client can check of one bucket it uses from a fresh start. The server decides on its own clock,
 * so the seconds it reports ("t" of RateLimit, Retry-After) shrink as time passes since the bucket's first
 * request: while less than a second has passed (almost always) they are exact; later they may be up to
 * the elapsed seconds smaller. Created just before the bucket's first request.
 */
final class Bucket {

    private final long start = System.nanoTime();

    /** Whole seconds that may have passed on the server since the bucket's first request, rounded up. */
    private long elapsedSeconds() {
        long nanos = System.nanoTime() - start;
        return (nanos + 999_999_999L) / 1_000_000_000L;
    }

    /** {@code RateLimit: "rule";r=remaining;t=secondsUntilFull}, exactly while under a second has passed. */
    void assertRateLimit(HttpResponse<String> response, String rule, long remaining, long secondsUntilFull) {
        String actual = header(response, "RateLimit");
        String exact = "\"" + rule + "\";r=" + remaining + ";t=" + secondsUntilFull;
        long slack = elapsedSeconds() - 1; // under one second: no slack
        if (slack <= 0 || exact.equals(actual)) {
            assertEquals(exact, actual, describe(response));
            return;
        }
        String prefix = "\"" + rule + "\";r=" + remaining + ";t=";
        assertNotNull(actual, describe(response));
        assertTrue(actual.startsWith(prefix), "expected " + exact + " (t up to " + slack + " less): " + describe(response));
        long t = Long.parseLong(actual.substring(prefix.length()));
        assertTrue(t <= secondsUntilFull && t >= secondsUntilFull - slack,
                "expected " + exact + " (t up to " + slack + " less): " + describe(response));
    }

    /**
     * {@code Retry-After}: at least the exact wait (the token's refill time, less the time passed) and at
     * most 50% more, rounded up.
     *
     * @return its value
     */
    long assertRetryAfter(HttpResponse<String> response, long secondsPerToken) {
        String value = header(response, "Retry-After");
        assertNotNull(value, describe(response));
        long retryAfter = Long.parseLong(value);
        long lowest = secondsPerToken - elapsedSeconds();
        long highest = (secondsPerToken * 3 + 1) / 2;
        assertTrue(retryAfter >= lowest && retryAfter <= highest,
                "Retry-After " + retryAfter + " not in [" + lowest + ", " + highest + "]: " + describe(response));
        return retryAfter;
    }
}
