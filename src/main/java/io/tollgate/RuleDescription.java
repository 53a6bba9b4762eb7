package io.tollgate;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A configured rule as it runs, as {@link RateLimitAdmin#rules()} lists it: the configuration's attributes in
 * their configuration syntax. Immutable.
 *
 * @param name           the rule's name
 * @param limits         its limits, in configuration order
 * @param key            whose bucket ({@code ip}, {@code header:X-Api-Key, path}...)
 * @param cost           tokens per request: a number, or {@code header:<name>} / {@code query:<name>}
 * @param match          the conditions a request must meet; empty for every request
 * @param exempt         the conditions that let a request through untouched; empty for none
 * @param onMissingKey   {@code shared}, {@code skip} or {@code reject}
 * @param paths          the path globs the rule applies to without an annotation; empty if none
 * @param mode           {@code enforce} or {@code shadow}
 * @param onStoreFailure {@code allow} or {@code deny}
 * @param overrides      the keys with limits of their own, each by its hash (as events name keys) to its limits as
 *                       {@code limits} writes them; empty for none. {@link RateLimitRules#current} gives the keys
 * @param ban            {@code ban-after=<n>/<period> ban-for=<duration> ban-status=<status>}; empty for none
 * @param limitsFrom     where a request carries limits of its own ({@code jwt:<claim>}, {@code header:<name>}); empty
 *                       for none
 * @param maxLimit       the bound of those limits ({@code 1000/1s burst 2000}); empty without {@code limitsFrom}
 */
public record RuleDescription(String name, List<Limit> limits, String key, String cost, String match, String exempt,
        String onMissingKey, List<String> paths, String mode, String onStoreFailure, Map<String, String> overrides, String ban,
        String limitsFrom, String maxLimit) {

    /** @throws NullPointerException if a component is {@code null} */
    public RuleDescription {
        Objects.requireNonNull(name, "name");
        limits = List.copyOf(limits);
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(cost, "cost");
        Objects.requireNonNull(match, "match");
        Objects.requireNonNull(exempt, "exempt");
        Objects.requireNonNull(onMissingKey, "onMissingKey");
        paths = List.copyOf(paths);
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(onStoreFailure, "onStoreFailure");
        overrides = Collections.unmodifiableMap(new LinkedHashMap<>(overrides));
        Objects.requireNonNull(ban, "ban");
        Objects.requireNonNull(limitsFrom, "limitsFrom");
        Objects.requireNonNull(maxLimit, "maxLimit");
    }

    /**
     * One limit: {@code tokens} added every {@code period}, at most {@code burst} held.
     *
     * @param tokens tokens refilled per period
     * @param period the refill period
     * @param burst  the capacity
     */
    public record Limit(long tokens, Duration period, long burst) {

        /** @throws NullPointerException if {@code period} is {@code null} */
        public Limit {
            Objects.requireNonNull(period, "period");
        }
    }
}
