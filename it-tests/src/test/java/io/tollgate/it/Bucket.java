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
 *
 * <p>The fields are those of draft-ietf-httpapi-ratelimit-headers-11: {@code RateLimit: "rule";r=<whole
 * tokens left>;t=<seconds until the next whole token arrives>}.
 */
final class Bucket {

    private final long start = System.nanoTime();

    /** Whole seconds that may have passed on the server since the bucket's first request, rounded up. */
    private long elapsedSeconds() {
        long nanos = System.nanoTime() - start;
        return (nanos + 999_999_999L) / 1_000_000_000L;
    }

    /**
     * {@code RateLimit: "rule";r=remaining;t=secondsUntilNextToken}, exactly while under a second has passed.
     * On a bucket with a per-hour rule that took tokens at its start, the next token is an hour (of the
     * first request) away.
     */
    void assertRateLimit(HttpResponse<String> response, String rule, long remaining, long secondsUntilNextToken) {
        String actual = header(response, "RateLimit");
        String exact = "\"" + rule + "\";r=" + remaining + ";t=" + secondsUntilNextToken;
        long slack = elapsedSeconds() - 1; // under one second: no slack
        if (slack <= 0 || exact.equals(actual)) {
            assertEquals(exact, actual, describe(response));
            return;
        }
        String prefix = "\"" + rule + "\";r=" + remaining + ";t=";
        assertNotNull(actual, describe(response));
        assertTrue(actual.startsWith(prefix), "expected " + exact + " (t up to " + slack + " less): " + describe(response));
        long t = Long.parseLong(actual.substring(prefix.length()));
        assertTrue(t <= secondsUntilNextToken && t >= secondsUntilNextToken - slack,
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

    /** A 429's {@code Retry-After} is never less than the {@code t} of its {@code RateLimit} field. */
    static void assertRetryAfterNotBeforeT(HttpResponse<String> response) {
        String rateLimit = header(response, "RateLimit");
        String retryAfter = header(response, "Retry-After");
        assertNotNull(rateLimit, describe(response));
        assertNotNull(retryAfter, describe(response));
        int t = rateLimit.indexOf(";t=");
        assertTrue(t > 0, "no t in RateLimit: " + describe(response));
        long seconds = Long.parseLong(rateLimit.substring(t + 3).split("[;,]")[0].trim());
        assertTrue(Long.parseLong(retryAfter) >= seconds, "Retry-After " + retryAfter + " < t " + seconds + ": " + describe(response));
    }
}
