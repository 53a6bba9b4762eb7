package io.tollgate;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A rule's live values changed on this member: fired on every member as it applies the change, once per change
 * that alters what the rule decides (a change to the values it already has fires nothing).
 *
 * @param rule    the rule's name
 * @param changes per live value that changed ({@code limits}, {@code mode}, {@code on-store-failure}, {@code overrides},
 *                {@code max-limit}), its text before and after; each override's key by its hash, as
 *                {@link RateLimitDenied#keyHash()} names keys
 * @param source  where the change came from
 * @param origin  the member where it was made (for {@link Source#CONFIGURATION}, this member)
 * @param caller  the authenticated caller who made it through {@link RateLimitRules} (the name of the
 *                application's {@code Principal}), or {@code null}: a configuration change, or a call without one
 * @param member  this member, which applied it
 * @param time    when this member applied it
 */
public record RateLimitRuleChanged(String rule, Map<String, Change> changes, Source source, String origin, String caller,
        String member, Instant time) implements RateLimitEvent {

    /** Where a change came from. */
    public enum Source {
        /** The configuration this member reads, read again ({@code tollgate.config.refresh}). */
        CONFIGURATION,
        /** {@link RateLimitRules}, on this member or another. */
        API
    }

    /**
     * One value before and after, as its attribute writes it.
     *
     * @param before the text before the change
     * @param after  the text after it
     */
    public record Change(String before, String after) {
    }

    /** @throws NullPointerException if any component but {@code caller} is {@code null} */
    public RateLimitRuleChanged {
        Objects.requireNonNull(rule, "rule");
        changes = Collections.unmodifiableMap(new LinkedHashMap<>(changes));
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(origin, "origin");
        Objects.requireNonNull(member, "member");
        Objects.requireNonNull(time, "time");
    }
}
