package io.tollgate;

import java.util.List;

/**
 * The operator's view of the limiter: inspect a client's bucket, reset it, list the rules as they run, see and
 * lift bans. Inject it with {@code @Inject RateLimitAdmin}.
 *
 * <pre>{@code
 * BucketStatus status = admin.inspect("search", "203.0.113.7");
 * if (status.limits().get(0).remaining() == 0) {
 *     admin.reset("search", "203.0.113.7");
 * }
 * }</pre>
 *
 * The operator passes a key in clear (they know it), as the rule builds it: for a {@code key} of several parts, the
 * parts joined as {@link RateLimitKeys#composite} joins them ({@code k3y,/items/42} for {@code header:X-Api-Key, path});
 * answers name it only by its hash ({@link BucketStatus#keyHash()}, as events do). A key the store holds no bucket of
 * is answered {@linkplain BucketStatus#found() not found}, a key without a ban is not lifted. Nothing here charges a
 * token. With {@code tollgate.enabled=false} it answers as for buckets never charged: every bucket full and not found,
 * no bans, no denied keys.
 */
public interface RateLimitAdmin {

    /** @return every configured rule, in name order, as it runs now */
    List<RuleDescription> rules();

    /**
     * Reads the bucket {@code key} of {@code rule} without charging or changing anything; a bucket the store does
     * not hold is full. Blocks until the store answers or fails (Hazelcast gives up after its operation timeout).
     *
     * @param rule a configured rule name
     * @param key  the bucket within the rule, as the rule builds it (the client address, the API key, the
     *             {@linkplain RateLimitKeys#composite composite key}...)
     * @return per limit what is left, whether the store holds a bucket of the key ({@link BucketStatus#found()}), and
     *         the key's ban if it has one; when the store failed, {@link BucketStatus#fromStore()} is {@code false} and no
     *         limits are reported
     * @throws IllegalArgumentException for an unknown rule or a {@code null} key
     */
    BucketStatus inspect(String rule, String key);

    /**
     * Resets the bucket {@code key} of {@code rule}: its stored entry is removed, so it is full again on every
     * member, and each member drops what it remembers of the key (cached denials, tokens reserved ahead) as
     * soon as it hears of the reset (within moments, through the store). A ban of the key stays: see
     * {@link #liftBan}.
     *
     * @return the bucket as it is after the reset, with {@link BucketStatus#found()} telling whether the store held a
     *         bucket of the key to reset (a key never charged, or named otherwise than the rule builds it, has none)
     * @throws IllegalArgumentException for an unknown rule or a {@code null} key; nothing is changed
     * @throws IllegalStateException    if the store failed (the reset may then still have taken effect)
     */
    BucketStatus reset(String rule, String key);

    /**
     * @return the keys {@code rule} bans now, by hash, on this member's copy of the bans (which every member
     *         keeps of the cluster's); empty for a rule without {@code ban-after}
     * @throws IllegalArgumentException for an unknown rule
     */
    List<KeyBan> bans(String rule);

    /**
     * Ends the ban of {@code key} by {@code rule} on every member (each drops it as soon as it hears of it, within
     * moments) and forgets the denials counted towards the next one. The bucket stays as it is: a key whose bucket
     * is empty is still denied, not banned, until it refills or is {@linkplain #reset reset}.
     *
     * @return whether the key was banned
     * @throws IllegalArgumentException for an unknown rule or a {@code null} key; nothing is changed
     */
    boolean liftBan(String rule, String key);

    /**
     * The keys of {@code rule} denied most on this member lately, by their hashes, for alerting on who is being
     * stopped. "Lately" is the minute of the clock in progress and the whole minute before it: at least the last
     * 60 seconds, at most the last 120. Each rule's denials are counted in summaries of {@code tollgate.top-denied}
     * keys (Space-Saving), so memory stays bounded however many keys are denied: a count is never below the key's
     * true denials and at most {@link DeniedKey#maxError()} above, which is at most the rule's denials in the window
     * over {@code tollgate.top-denied}, and every key denied more often than that is listed (when {@code limit}
     * allows). Denials are those of the buckets, a shadow rule's would-be denials included; answers of
     * {@code on-store-failure} are not counted. Other members count their own.
     *
     * @param rule  a configured rule name
     * @param limit the most keys to return, at least 1
     * @return at most {@code limit} keys, most denied first; empty when none was denied
     * @throws IllegalArgumentException      for an unknown rule or a limit below 1
     * @throws UnsupportedOperationException when {@code tollgate.top-denied} is 0
     */
    List<DeniedKey> topDenied(String rule, int limit);
}
