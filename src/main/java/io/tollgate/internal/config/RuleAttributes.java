package io.tollgate.internal.config;

import io.tollgate.internal.core.InvalidDefinitionException;
import io.tollgate.internal.core.Limit;
import io.tollgate.internal.request.ExemptSpec;
import io.tollgate.internal.request.KeySpec;
import io.tollgate.internal.request.LimitsSource;
import io.tollgate.internal.request.MatchSpec;
import io.tollgate.internal.request.OutcomeSpec;
import io.tollgate.internal.request.PathPattern;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Every attribute of a rule ({@code tollgate.rules.<name>.<attribute>}), once, in the order of the README's table. */
final class RuleAttributes {

    /** What a stated cost that cannot be charged gets. */
    enum OnInvalidCost {
        /** A 400, nothing charged. */
        REJECT,
        /** The default cost. */
        DEFAULT
    }

    private static final String RATE_DEFAULT = "— (required, unless `limits`)";

    static final Property<String> RATE = Property.described("rate", "", RuleAttributes::rate, RATE_DEFAULT);
    static final Property<String> TOKENS_PER_SECOND = Property.described("tokens-per-second", "", RuleAttributes::rate, RATE_DEFAULT);
    static final Property<Long> BURST = Property.described("burst", 0L, Parsers.whole(1, Long.MAX_VALUE),
            "the tokens of one period (`10` → 10, `1000/1h` → 1000, `0.5` → 1)");
    static final Property<List<Limit>> LIMITS = Property.described("limits", List.of(), Parsers.limits(), "—");
    static final Property<KeySpec> KEY = Property.of("key", "ip", KeySpec::parse);
    static final Property<MissingKeyPolicy> ON_MISSING_KEY = Property.of("on-missing-key", "shared",
            Parsers.choice(MissingKeyPolicy.values()));
    /** A whole number or a source in the request; which of them {@link ConfigChecks#cost} works out with the cost bounds. */
    static final Property<String> COST = Property.of("cost", "1", text -> text);
    static final Property<Long> DEFAULT_COST = Property.of("default-cost", "1", Parsers.whole(0, Long.MAX_VALUE));
    static final Property<Long> MIN_COST = Property.of("min-cost", "1", Parsers.whole(0, Long.MAX_VALUE));
    /** By default the smallest burst of the rule's limits. */
    static final Property<Long> MAX_COST = Property.described("max-cost", null, Parsers.whole(1, Long.MAX_VALUE), "the smallest burst");
    static final Property<OnInvalidCost> ON_INVALID_COST = Property.of("on-invalid-cost", "reject",
            Parsers.choice(OnInvalidCost.values()));
    static final Property<MatchSpec> MATCH = Property.described("match", MatchSpec.ALL, MatchSpec::parse, "(all requests)");
    static final Property<ExemptSpec> EXEMPT = Property.of("exempt", "", ExemptSpec::parse);
    static final Property<List<PathPattern>> PATHS = Property.of("paths", "", Parsers.paths());
    static final Property<Mode> MODE = Property.of("mode", "enforce", Parsers.choice(Mode.values()));
    static final Property<StoreFailurePolicy> ON_STORE_FAILURE = Property.of("on-store-failure", "local",
            Parsers.choice(StoreFailurePolicy.values()));
    /** The denials of one key that start a ban: {@code <n>/<period>}; none by default. */
    static final Property<Limit> BAN_AFTER = Property.described("ban-after", null, Parsers.banAfter(), "(none)");
    /** How long a ban lasts; required with {@code ban-after}. */
    static final Property<Duration> BAN_FOR = Property.described("ban-for", null,
            Parsers.duration(BanChecks.MAX_BAN, BanChecks.MAX_BAN_TEXT), "— (required with `ban-after`)");
    /** The status of a banned request's answer; only with {@code ban-after}. */
    static final Property<Integer> BAN_STATUS = Property.described("ban-status", null, Parsers.status(429, 403), "`429`");

    /** Per-key limits ({@link Overrides}): {@code acme=1000/1s; globex=50/1s burst 100}. */
    static final Property<Map<String, List<Limit>>> OVERRIDES = Property.of("overrides", "", Overrides::parse);

    /** Where a request carries its own limits ({@link RequestLimits}): {@code jwt:<claim>} or {@code header:<name>}; none by default. */
    static final Property<LimitsSource> LIMITS_FROM = Property.of("limits-from", "",
            text -> text.isBlank() ? null : LimitsSource.parse(text));
    /** The most a request's limits may have, one limit; required with {@code limits-from}. */
    static final Property<Limit> MAX_LIMIT = Property.described("max-limit", null, Parsers.maxLimit(), "— (required with `limits-from`)");

    static final Property<OutcomeSpec> CHARGE_ON = Property.described("charge-on", null, Parsers.outcomes(), "(every outcome)");
    static final Property<OutcomeSpec> REFUND_ON = Property.described("refund-on", null, Parsers.outcomes(), "(none)");

    /** Every one, in order. */
    static final List<Property<?>> ALL = List.of(RATE, TOKENS_PER_SECOND, BURST, LIMITS, KEY, ON_MISSING_KEY, COST, DEFAULT_COST,
            MIN_COST, MAX_COST, ON_INVALID_COST, MATCH, EXEMPT, PATHS, MODE, ON_STORE_FAILURE, OVERRIDES,
            LIMITS_FROM, MAX_LIMIT, BAN_AFTER, BAN_FOR, BAN_STATUS, CHARGE_ON, REFUND_ON);

    /** The attributes a running application changes without a redeployment (see {@link RuleEditor}). */
    static final Set<String> LIVE = Set.of(RATE.name(), TOKENS_PER_SECOND.name(), BURST.name(), LIMITS.name(), MODE.name(),
            ON_STORE_FAILURE.name(), OVERRIDES.name(), MAX_LIMIT.name());

    private RuleAttributes() {
    }

    /** @return every name, in order */
    static List<String> names() {
        return ALL.stream().map(Property::name).toList();
    }

    /**
     * A rate on its own; whether it makes a limit with its burst is for {@link ConfigChecks#limits}.
     * Blank means none (a rule must then have limits).
     */
    private static String rate(String text) {
        if (text.isBlank()) {
            return null;
        }
        try {
            Syntax.limit(text, 1);
        } catch (InvalidDefinitionException e) {
            throw new IllegalArgumentException(e.reason());
        }
        return text;
    }
}
