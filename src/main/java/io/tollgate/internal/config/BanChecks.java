package io.tollgate.internal.config;

import static io.tollgate.internal.config.RuleAttributes.BAN_AFTER;
import static io.tollgate.internal.config.RuleAttributes.BAN_FOR;
import static io.tollgate.internal.config.RuleAttributes.BAN_STATUS;

import io.tollgate.internal.core.Limit;
import io.tollgate.internal.store.Bans;
import java.time.Duration;
import java.util.Optional;

/**
 * The checks across a rule's ban attributes: {@code ban-for} goes with {@code ban-after}, and neither it nor
 * {@code ban-status} without it.
 */
final class BanChecks {

    /** The longest ban: a week. */
    static final Duration MAX_BAN = Bans.LONGEST;
    static final String MAX_BAN_TEXT = "7d";
    private static final int DEFAULT_STATUS = 429;

    /**
     * A rule's ban attributes, each read on its own.
     *
     * @param afterText  {@code ban-after} as configured, if it is
     * @param after      the denials that start a ban, {@code null} for none (or refused)
     * @param forText    {@code ban-for} as configured, if it is
     * @param duration   how long a ban lasts, {@code null} if not given (or refused)
     * @param statusText {@code ban-status} as configured, if it is
     * @param status     the status of a banned request's answer, {@code null} if not given (or refused)
     */
    record Draft(Optional<String> afterText, Limit after, Optional<String> forText, Duration duration, Optional<String> statusText, Integer status) {
    }

    private BanChecks() {
    }

    /** @return the rule's ban; {@code null} if it has none, or if its ban attributes have problems (then in {@code problems}) */
    static BanRule ban(RuleDraft rule, ConfigProblems problems) {
        Draft draft = rule.ban();
        if (draft.afterText().isPresent() && draft.after() == null) {
            return null; // refused, and so reported
        }
        if (draft.after() == null) {
            onlyWithBanAfter(rule, BAN_FOR, draft.forText(), problems);
            onlyWithBanAfter(rule, BAN_STATUS, draft.statusText(), problems);
            return null;
        }
        if (draft.forText().isEmpty()) {
            problems.missing(rule.property(BAN_FOR), "rule '" + rule.name() + "' has " + BAN_AFTER.name()
                    + " and needs the ban's length, e.g. 10m (more than 0, at most " + MAX_BAN_TEXT + ")");
            return null;
        }
        if (draft.duration() == null) {
            return null; // refused, and so reported
        }
        return new BanRule(draft.after(), draft.duration(), draft.status() == null ? DEFAULT_STATUS : draft.status());
    }

    private static void onlyWithBanAfter(RuleDraft rule, Property<?> attribute, Optional<String> text, ConfigProblems problems) {
        if (text.isPresent() && !text.get().isBlank()) {
            problems.invalid(rule.property(attribute), text.get(), "applies only with " + BAN_AFTER.name() + ", which rule '"
                    + rule.name() + "' does not set");
        }
    }
}
