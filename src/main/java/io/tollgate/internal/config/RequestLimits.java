package io.tollgate.internal.config;

import io.tollgate.internal.core.Limit;
import io.tollgate.internal.request.IncomingRequest;
import io.tollgate.internal.request.LimitsSource;
import io.tollgate.internal.request.TrustedGateways;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A rule's limits taken from the caller's identity ({@code limits-from}): the request carries a limits text in the
 * syntax of {@code limits} ({@code 100/1m}, {@code 10/1s burst 20, 1000/1h}), and each of its limits is capped at the
 * rule's {@code max-limit}: its rate at the bound's rate, its burst at the bound's burst. A burst below the rule's own
 * cost (a fixed cost, or {@code default-cost}) is raised to it, so the cost the rule charges can always be granted;
 * the bound grants it too (checked at deployment). A request without the value (a header is believed only from
 * {@code tollgate.limits-from.trusted-gateways}), or with one that is not limits, gets the rule's own limits. Parsed
 * texts are kept, at most {@link #MAX_CACHED} of them: a handful of plans costs a map lookup per request, and texts
 * beyond those are parsed each time.
 */
public final class RequestLimits {

    /** Most distinct texts kept parsed. */
    static final int MAX_CACHED = 256;
    /** Longest text read: limits are short, and a longer value is none. */
    static final int MAX_LENGTH = 200;
    /** What a text that is not limits is kept as: the rule's own limits apply. */
    private static final BucketLimits NOT_LIMITS = new BucketLimits(List.of(), null);

    private final LimitsSource source;
    private final TrustedGateways gateways;
    private final Limit bound;
    private final long smallestBurst;
    private final Map<String, BucketLimits> parsed = new ConcurrentHashMap<>();

    /**
     * @param source        where the request carries its limits
     * @param gateways      whose header is believed, for a header source
     * @param bound         the most any limit of a request may have
     * @param smallestBurst the least burst a limit gets: the rule's own cost, at most the bound's burst
     */
    RequestLimits(LimitsSource source, TrustedGateways gateways, Limit bound, long smallestBurst) {
        this.source = source;
        this.gateways = gateways;
        this.bound = bound;
        this.smallestBurst = Math.min(smallestBurst, bound.burst());
    }

    /** @return where the request carries its limits */
    public LimitsSource source() {
        return source;
    }

    /** @return the bound, as {@code max-limit} writes it */
    public Limit bound() {
        return bound;
    }

    /**
     * @param request  the HTTP request, or {@code null} outside one
     * @param fallback the rule's own limits
     * @return the request's limits, capped at the bound; {@code fallback} if it carries none
     */
    public BucketLimits limits(IncomingRequest request, BucketLimits fallback) {
        String text = source.text(request, gateways);
        if (text == null || text.length() > MAX_LENGTH) {
            return fallback;
        }
        BucketLimits limits = parsed.get(text);
        if (limits == null) {
            limits = parse(text);
            if (parsed.size() < MAX_CACHED) {
                parsed.putIfAbsent(text, limits);
            }
        }
        return limits == NOT_LIMITS ? fallback : limits;
    }

    /** @return the limits of {@code text}, capped; {@link #NOT_LIMITS} if it is not limits */
    BucketLimits parse(String text) {
        try {
            List<Limit> limits = new ArrayList<>();
            for (Limit limit : Parsers.limits().parse(text)) {
                limits.add(capped(limit));
            }
            return BucketLimits.of(limits);
        } catch (RuntimeException e) { // not limits, or limits the core refuses
            return NOT_LIMITS;
        }
    }

    /** @return {@code limit} with its rate and burst each at most the bound's, and its burst at least the rule's cost */
    Limit capped(Limit limit) {
        long burst = Math.max(smallestBurst, Math.min(limit.burst(), bound.burst()));
        Limit rate = faster(limit, bound) ? bound : limit;
        return burst == limit.burst() && rate == limit ? limit : Limit.of(burst, rate.tokens(), rate.period());
    }

    /** @return whether {@code limit} lies within {@code bound}: no faster rate and no larger burst */
    static boolean within(Limit limit, Limit bound) {
        return !faster(limit, bound) && limit.burst() <= bound.burst();
    }

    /** @return whether {@code a} refills faster than {@code b}: tokens per period compared exactly */
    private static boolean faster(Limit a, Limit b) {
        BigInteger aRate = BigInteger.valueOf(a.tokens()).multiply(BigInteger.valueOf(b.periodMicros()));
        BigInteger bRate = BigInteger.valueOf(b.tokens()).multiply(BigInteger.valueOf(a.periodMicros()));
        return aRate.compareTo(bRate) > 0;
    }

    /** @return the number of texts kept parsed */
    int cached() {
        return parsed.size();
    }

    @Override
    public String toString() {
        return "limits-from=" + source + " max-limit=" + bound;
    }
}
