package io.tollgate;

import java.util.Map;

/**
 * Changes rules while the application runs: an injectable bean ({@code @Inject RateLimitRules rules}). A change is
 * validated whole exactly as a deployment validates configuration (a bad one is refused with the same messages and
 * changes nothing), applied on this member before the method returns, and shared: on Hazelcast every member of the
 * cluster applies it within moments, and a member that starts later comes up with it. Changes made here take
 * precedence over the configuration's values until {@link #revert reverted}.
 *
 * <p>Only the live attributes change: {@code rate} (or {@code tokens-per-second}), {@code burst}, {@code limits},
 * {@code mode}, {@code on-store-failure}, {@code overrides} and {@code max-limit}. The others ({@code key},
 * {@code cost}, {@code match}, {@code paths}...) take effect at the next deployment. Buckets keep what they hold:
 * stored tokens are carried over to the new limits, capped at the new burst, and a bucket drained under looser
 * limits is kept until the new ones have refilled it.
 *
 * <p>Every method returns the rule's live values after it, by attribute name as {@link #current} gives them, and
 * throws {@link IllegalArgumentException} for a rule that does not exist or a change that is refused. A change
 * throws {@link IllegalStateException}, changing nothing, while the cluster that keeps the changes is out of reach
 * (a Hazelcast client whose cluster is down).
 */
public interface RateLimitRules {

    /**
     * Sets attributes of a rule, each as its property {@code tollgate.rules.<rule>.<attribute>} would:
     * {@code Map.of("rate", "100/1s", "burst", "200")}. Setting {@code limits} replaces {@code rate} and {@code burst},
     * and setting either of those replaces {@code limits}. Attributes set earlier through this interface stay set.
     *
     * @param rule       the rule's name
     * @param attributes attribute name to value text
     * @return the rule's live values now
     */
    Map<String, String> change(String rule, Map<String, String> attributes);

    /**
     * Gives {@code key}'s bucket of the rule limits of its own: a customer's contract.
     *
     * @param rule   the rule's name
     * @param key    the bucket key within the rule, as the rule's {@code key} resolves it (an API key, a user, a
     *               {@linkplain RateLimitKeys#composite composite key}...)
     * @param limits as the {@code limits} attribute writes them: {@code 1000/1s}, {@code 10/s burst 20, 1000/1h}
     * @return the rule's live values now
     */
    Map<String, String> override(String rule, String key, String limits);

    /**
     * Takes {@code key}'s override away (whether configuration or this interface gave it): the key goes back to the
     * rule's limits.
     *
     * @return the rule's live values now
     */
    Map<String, String> removeOverride(String rule, String key);

    /**
     * Drops every change this interface made to the rule, on every member: it goes back to its configuration's values.
     *
     * @return the rule's live values now
     */
    Map<String, String> revert(String rule);

    /**
     * @return the rule's live values on this member: {@code limits} (e.g. {@code 10/1s burst 20}), {@code mode},
     *         {@code on-store-failure} and {@code overrides} ({@code acme=1000/1s burst 1000}; empty if none)
     */
    Map<String, String> current(String rule);

    /** @return the attributes this interface set on the rule and not reverted, by name; empty if none */
    Map<String, String> changes(String rule);
}
