package io.tollgate.internal.telemetry;

import io.tollgate.Decision;

/** What a decision came to, as the attribute {@code tollgate.outcome} names it. */
enum Outcome {
    ALLOWED("allowed"),
    DENIED("denied"),
    SHADOW_DENIED("shadow-denied"),
    /** Refused by a ban after repeated denials ({@code ban-after}). */
    BANNED("banned"),
    /** On spans only: the store did not answer, the rule's {@code on-store-failure} did. */
    STORE_FAILURE("store-failure");

    final String value;

    Outcome(String value) {
        this.value = value;
    }

    /** @return allowed, denied, shadow-denied or banned, whoever decided (the counters count store failures apart) */
    static Outcome counted(Decision decision) {
        if (decision.banned()) {
            return BANNED;
        }
        if (decision.shadowDenied()) {
            return SHADOW_DENIED;
        }
        return decision.allowed() ? ALLOWED : DENIED;
    }

    /** @return like {@link #counted}, but store-failure when the store did not answer */
    static Outcome traced(Decision decision) {
        return decision.storeUnavailable() ? STORE_FAILURE : counted(decision);
    }
}
