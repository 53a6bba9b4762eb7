package io.tollgate.internal.http;

import io.tollgate.Decision;

/**
 * {@code Retry-After} in whole seconds: the exact wait, stretched by a per-client fraction of up to
 * {@code jitter} (0.5: up to 50%), rounded up. The fraction is a hash of the rule and the bucket key,
 * so one client always gets the same offset and different clients spread out instead of returning
 * in one herd. Never shorter than the exact wait.
 */
public final class RetryAfter {

    private RetryAfter() {
    }

    /**
     * @return seconds to send in {@code Retry-After}, at least 1; a denial made without the store (a rule that
     *         fails closed) suggests exactly its fixed wait, with no jitter: no bucket is behind it; a ban, exactly the
     *         time left of it, rounded up: it ends at its own time for each client, whom no refill brings back at once
     */
    public static long seconds(Decision decision, String clientKey, double jitter) {
        if (decision.storeUnavailable() || decision.banned()) {
            return Math.max(1, decision.retryAfterSeconds());
        }
        double fraction = jitter * unit(decision.rule(), clientKey);
        double micros = decision.retryAfterMicros() * (1.0 + fraction);
        long seconds = (long) Math.ceil(micros / 1_000_000.0);
        return Math.max(Math.max(1, seconds), decision.retryAfterSeconds());
    }

    /** A well-mixed hash of the client's identity within the rule, in [0, 1). */
    static double unit(String rule, String clientKey) {
        long h = 0x9E3779B97F4A7C15L;
        h ^= rule.hashCode();
        h = mix(h);
        h ^= clientKey == null ? 0 : clientKey.hashCode();
        h = mix(h);
        return (h >>> 11) * 0x1.0p-53;
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
